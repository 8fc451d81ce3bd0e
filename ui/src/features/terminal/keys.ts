// Keyboard shortcuts the terminal takes for itself before xterm.js sees the key; every
// other key goes to the shell (Ctrl+C stays an interrupt).

export type KeyAction = "copy" | "paste" | "new-tab" | "next-tab" | "previous-tab";

export interface KeyLike {
  type: string;
  key: string;
  code?: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** The panel action for a key event, or null to let the shell have it. */
export function keyAction(event: KeyLike): KeyAction | null {
  if (event.type !== "keydown" || event.altKey) return null;
  const key = event.key.toLowerCase();
  // Cmd on macOS, Ctrl+Shift elsewhere (plain Ctrl+C/V belong to the shell).
  const mod = event.metaKey || (event.ctrlKey && event.shiftKey);
  if (mod && key === "c") return "copy";
  if (mod && key === "v") return "paste";
  if (event.ctrlKey && !event.shiftKey && key === "insert") return "copy";
  if (event.shiftKey && !event.ctrlKey && key === "insert") return "paste";
  // Ctrl+Shift+` opens a terminal in VS Code; the code is layout-independent.
  if (event.ctrlKey && event.shiftKey && (event.code === "Backquote" || key === "`" || key === "~")) return "new-tab";
  if (event.ctrlKey && !event.shiftKey && key === "pagedown") return "next-tab";
  if (event.ctrlKey && !event.shiftKey && key === "pageup") return "previous-tab";
  return null;
}

/** The shortcut suggested for showing and hiding the whole panel: Ctrl+` (VS Code, Zed). */
export function isToggleTerminalShortcut(event: KeyLike): boolean {
  return (
    event.type === "keydown" &&
    event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    !event.metaKey &&
    (event.code === "Backquote" || event.key === "`")
  );
}
