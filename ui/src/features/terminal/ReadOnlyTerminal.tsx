// A terminal screen that only shows text: a running command's live output (the agent's
// `tool_output` chunks), with colours, cursor movement and progress bars drawn as a
// terminal would. No input reaches anything; selecting and copying works.

import { useEffect, useRef, useState } from "react";

import { useT } from "../../i18n";

import { keyAction } from "./keys";
import { textDelta } from "./textDelta";
import { copySelection, createXterm, hasSize, type XtermHandle } from "./xterm";

import "./terminal.css";

export interface ReadOnlyTerminalProps {
  /**
   * Everything to show so far. Usually it only grows; when its front was cut (the
   * transcript keeps a tail) only the new end is written, and anything else redraws.
   */
  text: string;
  className?: string;
  /** Accessible name of the screen, e.g. the command. */
  label?: string;
}

/** Hides the cursor: nothing is typed here. */
const HIDE_CURSOR = "\x1b[?25l";

export function ReadOnlyTerminal({ text, className, label }: ReadOnlyTerminalProps) {
  const t = useT("terminal");
  const hostRef = useRef<HTMLDivElement>(null);
  const xtermRef = useRef<XtermHandle | null>(null);
  const shown = useRef("");
  const [sized, setSized] = useState(0);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const observer = new ResizeObserver(() => {
      if (hasSize(host) && !xtermRef.current) setSized((n) => n + 1);
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const host = hostRef.current;
    if (!host || xtermRef.current || !hasSize(host)) return;
    const xterm = createXterm(host, {
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: "none",
      // Tool output may have bare \n line ends (a command not on a PTY).
      convertEol: true,
      screenReaderMode: false,
    });
    xterm.term.attachCustomKeyEventHandler((event) => {
      const action = keyAction(event);
      // Nothing runs here, so plain Ctrl+C may copy too.
      const plainCopy = event.type === "keydown" && event.ctrlKey && event.key.toLowerCase() === "c";
      if (action === "copy" || plainCopy) {
        copySelection(xterm.term);
        return false;
      }
      return false;
    });
    xterm.term.write(HIDE_CURSOR);
    xtermRef.current = xterm;
    shown.current = "";
    // Written by the effect below, which runs after this one in the same commit.
  }, [sized]);

  useEffect(() => {
    const xterm = xtermRef.current;
    if (!xterm) return;
    const delta = textDelta(shown.current, text);
    if (delta.reset) {
      xterm.term.reset();
      xterm.term.write(HIDE_CURSOR + delta.text);
    } else if (delta.append) {
      xterm.term.write(delta.append);
    }
    shown.current = text;
  }, [text, sized]);

  useEffect(
    () => () => {
      xtermRef.current?.dispose();
      xtermRef.current = null;
    },
    [],
  );

  return (
    <div className={`terminal-readonly${className ? ` ${className}` : ""}`} role="log" aria-label={label ?? t("output")}>
      <div className="terminal-readonly__screen" ref={hostRef} />
    </div>
  );
}
