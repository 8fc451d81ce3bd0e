import { useEffect, useRef, useState, type FormEvent } from "react";

import { Spinner } from "../../components/icons";
import type { ApprovalMode, WorktreeSession } from "../../gen/protocol";
import { type IpcError, ipc, toIpcError } from "../../ipc";
import { BranchIcon } from "./BranchIcon";
import "./worktrees.css";

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
        title={cwd === null ? "Open a folder first" : "Work on a new branch in its own folder; your checkout stays as it is"}
        onClick={() => (asking ? cancel() : setAsking(true))}
        data-testid="new-worktree-session"
      >
        <BranchIcon className="button__icon" />
        New session in a worktree
      </button>
      {asking && (
        <form
          ref={form}
          className="worktree-new__form"
          onSubmit={(e) => void start(e)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              cancel();
            }
          }}
          data-testid="new-worktree-form"
        >
          <label className="field">
            <span className="field__label">Branch name</span>
            <span className="worktree-new__branch">
              <span className="worktree-new__prefix">memo/</span>
              <input
                ref={input}
                className="input"
                value={name}
                placeholder="optional, e.g. fix-login"
                onChange={(e) => setName(e.target.value)}
                data-testid="new-worktree-name"
              />
            </span>
            <span
              className="field__hint"
              title="A new branch from the folder's current commit, checked out in its own folder under Memo's data folder."
            >
              From the current commit, in a folder of its own.
            </span>
          </label>
          {error && (
            <p className="form-error" role="alert" data-testid="new-worktree-error">
              {error.message}
            </p>
          )}
          <div className="worktree__buttons">
            <button type="button" className="button button--small" onClick={cancel}>
              Cancel
            </button>
            <button type="submit" className="button button--small button--primary" disabled={starting} data-testid="new-worktree-start">
              {starting && <Spinner className="worktree__spinner" />}
              Start
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
