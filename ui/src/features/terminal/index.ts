// The embedded terminal (issue 12): the bottom panel with tabs, and a read-only viewer
// for a running command's output.
export { TerminalPanel, type TerminalPanelProps } from "./TerminalPanel";
export { ReadOnlyTerminal, type ReadOnlyTerminalProps } from "./ReadOnlyTerminal";
export { SCROLLBACK_LINES } from "./xterm";

export { isToggleTerminalShortcut } from "./keys";
