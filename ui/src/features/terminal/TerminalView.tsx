// One tab's terminal: an xterm.js screen on a backend shell. It stays mounted while its
// tab or the whole panel is hidden, so the shell and its scrollback live on; the screen
// is created the first time the tab is shown.

import { useEffect, useRef, useState } from "react";

import { isImeComposing } from "../../components/ime";
import { useT } from "../../i18n";

import { TerminalConnection, type ConnectionStatus, type TerminalBackend } from "./connection";
import { isToggleTerminalShortcut, keyAction, type KeyAction } from "./keys";
import { copySelection, createXterm, hasSize, pasteClipboard, type XtermHandle } from "./xterm";

export type TabCommand = Extract<KeyAction, "new-tab" | "next-tab" | "previous-tab">;

export interface TerminalViewProps {
  cwd: string;
  /** This tab is the one shown, in a shown panel. */
  active: boolean;
  backend: TerminalBackend;
  onStatus: (status: ConnectionStatus) => void;
  onTitle: (title: string) => void;
  /** Panel shortcuts typed while the terminal has focus. */
  onCommand: (command: TabCommand) => void;
}

function exitText(status: ConnectionStatus, t: ReturnType<typeof useT>): string | null {
  switch (status.kind) {
    case "exited":
      return status.code === null ? t("view.signal") : t("view.exited", { code: status.code });
    case "failed":
      return t("view.failed", { message: status.message });
    default:
      return null;
  }
}

export function TerminalView({ cwd, active, backend, onStatus, onTitle, onCommand }: TerminalViewProps) {
  const t = useT("terminal");
  const hostRef = useRef<HTMLDivElement>(null);
  const xtermRef = useRef<XtermHandle | null>(null);
  const connectionRef = useRef<TerminalConnection | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>({ kind: "starting" });
  // Callbacks change every render; the terminal's listeners read the latest through refs.
  const latest = useRef({ onStatus, onTitle, onCommand, cwd, status });
  latest.current = { onStatus, onTitle, onCommand, cwd, status };

  const restart = () => {
    const xterm = xtermRef.current;
    const connection = connectionRef.current;
    if (!xterm || !connection) return;
    xterm.term.write("\r\n");
    connection.start(latest.current.cwd, xterm.term.cols, xterm.term.rows);
    xterm.term.focus();
  };
  const restartRef = useRef(restart);
  restartRef.current = restart;

  // Until the screen exists: notices the moment its element first gets a size (the panel
  // opening, layout settling), which `active` alone does not tell.
  const [sized, setSized] = useState(0);
  useEffect(() => {
    const host = hostRef.current;
    if (!host || xtermRef.current) return;
    const observer = new ResizeObserver(() => {
      if (hasSize(host) && !xtermRef.current) setSized((n) => n + 1);
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, [active]);

  // Created on first show, disposed (closing the shell) only when the tab goes away.
  useEffect(() => {
    const host = hostRef.current;
    if (!active || !host || xtermRef.current || !hasSize(host)) return;
    const xterm = createXterm(host);
    const { term } = xterm;
    const connection = new TerminalConnection(
      backend,
      { write: (bytes, rendered) => term.write(bytes, rendered) },
      (next) => {
        setStatus(next);
        latest.current.onStatus(next);
      },
    );
    xtermRef.current = xterm;
    connectionRef.current = connection;

    term.onData((data) => connection.input(data));
    term.onResize(({ cols, rows }) => connection.resize(cols, rows));
    term.onTitleChange((title) => latest.current.onTitle(title));
    term.attachCustomKeyEventHandler((event) => {
      // An input method's composition is xterm.js's to handle (its textarea composes the text).
      if (isImeComposing(event)) return true;
      // Not for the shell: left to bubble to the window, which shows and hides the panel.
      if (isToggleTerminalShortcut(event)) return false;
      const action = keyAction(event);
      if (action === null) {
        // In an ended terminal, Enter starts a new shell.
        const ended = latest.current.status.kind === "exited" || latest.current.status.kind === "failed";
        if (ended && event.type === "keydown" && event.key === "Enter") {
          restartRef.current();
          return false;
        }
        return true;
      }
      event.preventDefault();
      if (action === "copy") copySelection(term);
      else if (action === "paste") pasteClipboard(term);
      else latest.current.onCommand(action);
      return false;
    });
    connection.start(latest.current.cwd, term.cols, term.rows);
    term.focus();
  }, [active, backend, sized]);

  useEffect(
    () => () => {
      connectionRef.current?.dispose();
      xtermRef.current?.dispose();
      connectionRef.current = null;
      xtermRef.current = null;
    },
    [],
  );

  // Shown again: take the focus and the (possibly changed) size.
  useEffect(() => {
    if (!active) return;
    const frame = requestAnimationFrame(() => {
      xtermRef.current?.fit();
      xtermRef.current?.term.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [active]);

  const ended = exitText(status, t);
  return (
    <div
      className="terminal-view"
      hidden={!active}
      onContextMenu={(event) => {
        // Right-click copies a selection, or pastes when there is none (as in Windows
        // Terminal and PuTTY) instead of the webview's own menu.
        event.preventDefault();
        const term = xtermRef.current?.term;
        if (!term) return;
        if (copySelection(term)) term.clearSelection();
        else pasteClipboard(term);
      }}
    >
      <div className="terminal-view__screen" ref={hostRef} />
      {ended !== null && (
        <div className={`terminal-view__ended${status.kind === "failed" ? " is-failed" : ""}`} role="status">
          <span>{ended}</span>
          <button type="button" className="terminal-view__restart" onClick={() => restartRef.current()}>
            {t("view.restart")}
          </button>
          <span className="terminal-view__hint">{t("view.orEnter")}</span>
        </div>
      )}
    </div>
  );
}
