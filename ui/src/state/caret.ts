/**
 * Places the caret of the focused text box again where it is — moved and put back, since
 * the same place alone is no change — so WebKit reads the blink period the shell has just
 * set (src-tauri/src/caret.rs stops the caret blinking after a quiet while). The box's
 * value and selection end as they were.
 */
export function placeCaretAgain(doc: Document = document): void {
  const box = doc.activeElement;
  const view = doc.defaultView;
  if (!view || !(box instanceof view.HTMLTextAreaElement || box instanceof view.HTMLInputElement)) return;
  const { selectionStart: start, selectionEnd: end, selectionDirection: direction } = box;
  if (start === null || end === null) return;
  box.setSelectionRange(start === 0 ? 1 : 0, start === 0 ? 1 : 0);
  box.setSelectionRange(start, end, direction ?? undefined);
}
