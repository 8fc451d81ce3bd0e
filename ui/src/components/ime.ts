// Input methods (pinyin, Japanese, Korean...) compose text before committing it: while a
// composition is open, Enter picks a candidate, Escape drops the composition and the
// arrows move among candidates. A field's own key handling must leave those keys alone,
// or a half-typed word is sent. WebKitGTK marks such keys `isComposing`, and some input
// methods send them as keyCode 229 (including the Enter that ends the composition).
import type { KeyboardEvent as ReactKeyboardEvent } from "react";

type AnyKeyboardEvent = KeyboardEvent | ReactKeyboardEvent;

/** Whether this key belongs to an input method's composition, not to the field. */
export function isImeComposing(event: AnyKeyboardEvent): boolean {
  const native = "nativeEvent" in event ? event.nativeEvent : event;
  return native.isComposing || native.keyCode === 229;
}
