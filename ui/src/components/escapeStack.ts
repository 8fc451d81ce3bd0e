import { isImeComposing } from "./ime";
import { useEffect, useRef } from "react";

/**
 * Who owns Esc: every layer that closes on Esc (Settings, a drawer, a dialog inside either)
 * registers here, and one window listener gives the key to the layer registered last only —
 * the innermost, since a dialog opens after the view it sits on. Each window listener of
 * its own would fire together, so an Esc meant for a dialog also closed the view under it.
 *
 * A field that handles Esc itself (a rename box, the composer stopping a turn, a code
 * editor) calls preventDefault or stopPropagation on its keydown, and the layers leave the
 * key alone.
 */
type Entry = { run: (event: KeyboardEvent) => void };

const stack: Entry[] = [];

function onKeyDown(event: KeyboardEvent) {
  if (event.key !== "Escape" || event.defaultPrevented || isImeComposing(event)) return;
  const top = stack[stack.length - 1];
  if (!top) return;
  event.preventDefault();
  top.run(event);
}

function push(entry: Entry) {
  if (stack.length === 0) window.addEventListener("keydown", onKeyDown);
  stack.push(entry);
}

function remove(entry: Entry) {
  const at = stack.lastIndexOf(entry);
  if (at >= 0) stack.splice(at, 1);
  if (stack.length === 0) window.removeEventListener("keydown", onKeyDown);
}

/** How many layers own Esc now (for tests). */
export function escapeLayers(): number {
  return stack.length;
}

/**
 * Makes the calling component a layer that Esc closes while `active`: `onEscape` runs when
 * Esc is pressed and no layer opened after this one is still open. The latest `onEscape` is
 * used, so a new function each render keeps the layer's place in the stack.
 */
export function useEscape(onEscape: (event: KeyboardEvent) => void, active = true): void {
  const latest = useRef(onEscape);
  latest.current = onEscape;
  useEffect(() => {
    if (!active) return;
    const entry: Entry = { run: (event) => latest.current(event) };
    push(entry);
    return () => remove(entry);
  }, [active]);
}
