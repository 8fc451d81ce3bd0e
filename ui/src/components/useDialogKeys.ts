import { useEffect, useRef } from "react";

/**
 * What every in-window dialog does: the returned ref (put it on the cancel button) gets
 * focus once, when the dialog opens, so Enter never confirms by accident; Esc cancels.
 * The latest `onCancel` is used, so a parent passing a new function each render does not
 * pull the focus back to Cancel while the user works in the dialog.
 */
export function useDialogKeys(onCancel: () => void) {
  const cancel = useRef<HTMLButtonElement>(null);
  const latest = useRef(onCancel);
  latest.current = onCancel;
  useEffect(() => {
    cancel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return cancel;
}
