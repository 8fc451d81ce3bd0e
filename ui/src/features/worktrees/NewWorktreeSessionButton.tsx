import { useEffect, useRef, useState, type FormEvent } from "react";

import { Spinner } from "../../components/icons";
import { isImeComposing } from "../../components/ime";
import type { ApprovalMode, WorktreeSession } from "../../gen/protocol";
import { useT } from "../../i18n";
import { type IpcError, ipc, toIpcError } from "../../ipc";
import { BranchIcon } from "./BranchIcon";
import "./worktrees.css";

/** Where Memo's branches live (Rust adds it to the typed name): a Git name, never translated. */
const BRANCH_PREFIX = "memo/";

export interface NewWorktreeSessionButtonProps {
  /** The open folder (a git repository or a folder in one); null disables the button. */
  cwd: string | null;
  provider?: string | null;
  model?: string | null;
  approvalMode?: ApprovalMode | null;
  /** The session started in its new worktree: open it. */
  onStarted: (started: WorktreeSession) => void;
  /** `menu-item` draws it as a row of a menu or the sidebar instead of a button. */
  variant?: "button" | "menu-item";
}

/**
 * "New session in a worktree": asks for an optional branch name, then creates a branch
 * and a worktree under Memo's folder and starts a session in it, so the agent's edits
 * never touch the checkout the user has open.
 */
export function NewWorktreeSessionButton({
  cwd,
  provider = null,
  model = null,
  approvalMode = null,
  onStarted,
  variant = "button",
}: NewWorktreeSessionButtonProps) {
  const t = useT("worktrees");
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState("");
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // The form opens at the sidebar's end, often below its fold (at 1200×760 Start was out of
  // sight): focusing the input brings only the input into view, so the whole form is
  // scrolled in, again when an error makes it taller.
  useEffect(() => {
    if (!asking) return;
    input.current?.focus();
    form.current?.scrollIntoView?.({ block: "nearest" });
  }, [asking, error]);

  const cancel = () => {
    setAsking(false);
    setName("");
    setError(null);
  };

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (cwd === null || starting) return;
    setStarting(true);
    setError(null);
    try {
      const trimmed = name.trim();
      const started = await ipc.startWorktreeSession({
        cwd,
        name: trimmed === "" ? null : trimmed,
        provider,
        model,
        approvalMode,
      });
      cancel();
      onStarted(started);
    } catch (raised) {
      setError(toIpcError("start_worktree_session", raised));
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className={`worktree-new worktree-new--${variant}`}>
      <button
        type="button"
        className={variant === "button" ? "button" : "worktree-new__item"}
        disabled={cwd === null || starting}
        aria-expanded={asking}
        title={cwd === null ? t("new.noFolder") : t("new.title")}
        onClick={() => (asking ? cancel() : setAsking(true))}
        data-testid="new-worktree-session"
      >
        <BranchIcon className="button__icon" />
        {t("new.button")}
      </button>
      {asking && (
        <form
          ref={form}
          className="worktree-new__form"
          onSubmit={(e) => void start(e)}
          onKeyDown={(e) => {
            // Esc while an input method composes drops the composition, not the form.
            if (isImeComposing(e)) return;
            if (e.key === "Escape") {
              e.stopPropagation();
              cancel();
            }
          }}
          data-testid="new-worktree-form"
        >
          <label className="field">
            <span className="field__label">{t("new.branch")}</span>
            <span className="worktree-new__branch">
              <span className="worktree-new__prefix">{BRANCH_PREFIX}</span>
              <input
                ref={input}
                className="input"
                value={name}
                placeholder={t("new.placeholder")}
                onChange={(e) => setName(e.target.value)}
                data-testid="new-worktree-name"
              />
            </span>
            <span className="field__hint" title={t("new.hintTitle")}>
              {t("new.hint")}
            </span>
          </label>
          {error && (
            <p className="form-error" role="alert" data-testid="new-worktree-error">
              {error.message}
            </p>
          )}
          <div className="worktree__buttons">
            <button type="button" className="button button--small" onClick={cancel}>
              {t("common:cancel")}
            </button>
            <button type="submit" className="button button--small button--primary" disabled={starting} data-testid="new-worktree-start">
              {starting && <Spinner className="worktree__spinner" />}
              {t("new.start")}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
