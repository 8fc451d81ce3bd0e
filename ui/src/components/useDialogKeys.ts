import { useEffect, useRef } from "react";

import { useEscape } from "./escapeStack";

/**
 * What every in-window dialog does: the returned ref (put it on the cancel button) gets
 * focus once, when the dialog opens, so Enter never confirms by accident; Esc cancels, and
 * only the dialog (it is the innermost Esc layer: the view under it stays open).
 * The latest `onCancel` is used, so a parent passing a new function each render does not
 * pull the focus back to Cancel while the user works in the dialog.
 */
export function useDialogKeys(onCancel: () => void) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  useEscape(() => onCancel());
  return cancel;
}
