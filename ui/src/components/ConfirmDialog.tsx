import type { ReactNode } from "react";

import { useDialogKeys } from "./useDialogKeys";
import { useT } from "../i18n";

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /** Shown under the message: what exactly the action affects (a list of files). */
  children?: ReactNode;
  /** True while the action runs or cannot go ahead. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An in-window confirmation (native `confirm()` blocks the web view and cannot be styled).
 * Esc cancels; the cancel button has focus first, so Enter never confirms by accident.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger = false,
  children,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT("common");
  const cancel = useDialogKeys(onCancel);
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onCancel}>
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        data-testid="confirm-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="confirm-title" className="dialog__title">
          {title}
        </h2>
        <p className="dialog__message">{message}</p>
        {children}
        <div className="dialog__actions">
          <button ref={cancel} type="button" className="button" onClick={onCancel} data-testid="confirm-cancel">
            {cancelLabel ?? t("common:cancel")}
          </button>
          <button
            type="button"
            className={`button ${danger ? "button--danger-solid" : "button--primary"}`}
            onClick={onConfirm}
            disabled={confirmDisabled}
            data-testid="confirm-ok"
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
