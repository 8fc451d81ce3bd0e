// The bottom panel of the window: each open folder's terminal tabs (mounted the first time
// the folder shows the panel, kept while it stays open, so shells keep running when the
// user switches folder or hides the panel), or a read-only view of an agent's running
// command. Its height is dragged at the top edge and remembered for the session.

import { lazy, Suspense, useCallback, useRef, useState, type PointerEvent } from "react";

import { CloseIcon } from "../../components/icons";
import { useT } from "../../i18n";
import { TerminalIcon } from "./icons";
// xterm.js and its add-ons load the first time a terminal is shown: a window that never
// opens one does not carry them.
const ReadOnlyTerminal = lazy(() => import("./ReadOnlyTerminal").then((m) => ({ default: m.ReadOnlyTerminal })));
const TerminalPanel = lazy(() => import("./TerminalPanel").then((m) => ({ default: m.TerminalPanel })));

import "./terminal.css";

export interface TerminalDockProps {
  /** Folders whose terminals exist (shown at least once and still open). */
  folders: string[];
  /** The folder in front; null shows no shell tabs. */
  current: string | null;
  open: boolean;
  onHide: () => void;
  /** An agent command being watched: shown instead of the tabs until closed. */
  watching: { command: string; text: string; running: boolean } | null;
  onStopWatching: () => void;
}

const MIN_HEIGHT = 120;
const DEFAULT_HEIGHT = 280;

export function TerminalDock({ folders, current, open, onHide, watching, onStopWatching }: TerminalDockProps) {
  const t = useT("terminal");
  const [height, setHeight] = useState(DEFAULT_HEIGHT);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { startY: event.clientY, startHeight: height };
    },
    [height],
  );
  const onPointerMove = useCallback((event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    const max = Math.max(MIN_HEIGHT, window.innerHeight - 160);
    const next = drag.current.startHeight + (drag.current.startY - event.clientY);
    setHeight(Math.min(max, Math.max(MIN_HEIGHT, next)));
  }, []);
  const onPointerUp = useCallback(() => {
    drag.current = null;
  }, []);

  const visible = open || watching !== null;
  return (
    <div className="terminal-dock" hidden={!visible} style={{ height }} data-testid="terminal-dock">
      <div
        className="terminal-dock__grip"
        role="separator"
        aria-orientation="horizontal"
        aria-label={t("dock.resize")}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onLostPointerCapture={onPointerUp}
      />
      {watching !== null && (
        <section className="terminal-watch" aria-label={t("dock.watch")} data-testid="terminal-watch">
          <header className="terminal-watch__bar">
            <TerminalIcon className="terminal-watch__icon" />
            <code className="terminal-watch__command" title={watching.command}>
              {watching.command}
            </code>
            <span className={`terminal-watch__state${watching.running ? " terminal-watch__state--running" : ""}`}>
              {watching.running ? t("dock.running") : t("dock.finished")}
            </span>
            <button
              type="button"
              className="terminal-watch__close"
              onClick={onStopWatching}
              aria-label={t("dock.stop")}
              title={t("dock.stop")}
              data-testid="terminal-watch-close"
            >
              <CloseIcon />
            </button>
          </header>
          <Suspense fallback={null}>
            <ReadOnlyTerminal text={watching.text} label={watching.command} className="terminal-watch__screen" />
          </Suspense>
        </section>
      )}
      <Suspense fallback={null}>
        {folders.map((folder) => (
          <TerminalPanel key={folder} cwd={folder} visible={watching === null && open && folder === current} onHide={onHide} />
        ))}
      </Suspense>
    </div>
  );
}
