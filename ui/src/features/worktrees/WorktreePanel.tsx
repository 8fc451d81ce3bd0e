import { useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { DiffStats, DiffView } from "../../components/diff";
import { CloseIcon, Spinner } from "../../components/icons";
import type {
  ChangeKind,
  KeptBranch,
  WorktreeDiscard,
  WorktreeFileStatus,
  WorktreeInfo,
  WorktreeMerge,
  WorktreeStatus,
} from "../../gen/protocol";
import { BranchIcon } from "./BranchIcon";
import { useWorktree } from "./useWorktree";
import "./worktrees.css";

const FILE_LETTER: Record<WorktreeFileStatus, string> = {
  modified: "M",
  added: "A",
  deleted: "D",
  renamed: "R",
  untracked: "U",
  conflicted: "!",
};
const FILE_TITLE: Record<WorktreeFileStatus, string> = {
  modified: "Modified",
  added: "Added",
  deleted: "Deleted",
  renamed: "Renamed",
  untracked: "New, not yet added to git",
  conflicted: "In conflict",
};
const KIND_LETTER: Record<ChangeKind, string> = { created: "A", modified: "M", deleted: "D" };

export interface WorktreePanelProps {
  /** The session's worktree (`session_worktree`, or what `start_worktree_session` returned). */
  worktree: WorktreeInfo;
  /** Read again when this changes (a turn ended, files changed). */
  refreshKey?: unknown;
  /** A turn is running: merging or removing now would race the agent. */
  busy?: boolean;
  onMerged?: (merge: WorktreeMerge) => void;
  /** The folder is gone and the branch kept; the panel shows how to publish it. */
  onKept?: (kept: KeptBranch) => void;
  /** The worktree was discarded (or, with `null`, a missing one forgotten). */
  onDiscarded?: (discard: WorktreeDiscard | null) => void;
  onClose?: () => void;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A worktree session's branch against the branch it came from: what is uncommitted, the
 * commits not merged yet, the diff, and the three ways out — merge into the base branch,
 * keep the branch (to push it), or discard it after a confirmation that lists exactly
 * what would be lost.
 */
export function WorktreePanel({ worktree, refreshKey, busy = false, onMerged, onKept, onDiscarded, onClose }: WorktreePanelProps) {
  const wt = useWorktree(worktree.id, refreshKey);
  const [message, setMessage] = useState("");
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<WorktreeStatus | null>(null);
  const [kept, setKept] = useState<KeptBranch | null>(null);
  const [merged, setMerged] = useState<WorktreeMerge | null>(null);

  const status = wt.status;
  const info = status?.worktree ?? worktree;
  const base = info.base_branch ?? null;
  const uncommitted = status?.uncommitted ?? [];
  const ahead = status?.ahead ?? [];
  const files = wt.diff?.files ?? [];
  const ready = info.state === "ready";
  const dirty = uncommitted.length > 0;
  const needsMessage = dirty && message.trim() === "";
  const idle = !busy && wt.running === null && status !== null;

  const mergeBlocked =
    base === null
      ? "It was made from a detached HEAD: there is no branch to merge into. Keep the branch instead."
      : !dirty && ahead.length === 0
        ? `Nothing to merge: everything here is already in ${base}.`
        : needsMessage
          ? "Merging needs a commit message for the uncommitted changes: write one above."
          : null;
  // Why every action is off for now, said too (a greyed-out button alone does not).
  const waitBlocked = busy
    ? "Waits until the agent's turn ends."
    : wt.running !== null
      ? "Waits until the current action is done."
      : status === null
        ? "Waits for the worktree's status."
        : null;

  const toggle = (path: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const merge = async () => {
    const result = await wt.merge(message);
    if (result) {
      setMerged(result);
      setMessage("");
      onMerged?.(result);
    }
  };

  const keep = async () => {
    const result = await wt.keepBranch(message);
    if (result) {
      setKept(result);
      onKept?.(result);
    }
  };

  // The dialog lists what the status says now, not what was on screen a while ago.
  const askDiscard = async () => {
    const fresh = await wt.refresh();
    if (fresh) setConfirming(fresh);
  };

  const discard = async () => {
    if (!confirming) return;
    const list = confirming.discard_confirmation;
    setConfirming(null);
    const result = await wt.discard(list.length > 0 ? list : null);
    if (result) onDiscarded?.(result);
  };

  const forget = async () => {
    if (await wt.forget()) onDiscarded?.(null);
  };

  if (kept) {
    return (
      <aside className="drawer worktree" aria-label="Worktree" data-testid="worktree-panel">
        <PanelHeader info={info} onClose={onClose} />
        <KeptCard kept={kept} />
      </aside>
    );
  }

  return (
    <aside className="drawer worktree" aria-label="Worktree" data-testid="worktree-panel">
      <PanelHeader info={info} onClose={onClose} loading={wt.loading} />
      <p className="worktree__path" title={info.path}>
        {info.path}
      </p>

      {info.state !== "ready" && (
        <div className="worktree__notice" role="status" data-testid="worktree-missing">
          {info.state === "missing"
            ? "This worktree's folder is gone. Forget it to clear it from the list (its branch stays), or discard its branch too."
            : "git no longer lists this folder as a worktree of the repository, so Memo will not touch it. Forget it to clear it from the list."}
        </div>
      )}

      {status && (
        <div className="worktree__summary" data-testid="worktree-summary">
          <span className={`badge${dirty ? " badge--warn" : ""}`}>{plural(uncommitted.length, "uncommitted file")}</span>
          <span className={`badge${ahead.length > 0 ? " badge--accent" : ""}`}>
            {plural(ahead.length, "commit")} ahead
          </span>
          {status.behind > 0 && <span className="badge">{status.behind} behind</span>}
          {status.merged && !dirty && base && <span className="badge badge--ok">in {base}</span>}
        </div>
      )}

      {wt.error && (
        <p className="form-error" role="alert">
          {wt.error.message}
        </p>
      )}
      {wt.actionError && (
        <p className="form-error" role="alert" data-testid="worktree-action-error">
          {wt.actionError.message}
        </p>
      )}
      {merged && (
        <p className="worktree__done" role="status" data-testid="worktree-merged">
          Merged into {merged.base_branch}: {plural(merged.files.length, "file")} changed in {info.repo_root}.
        </p>
      )}

      {uncommitted.length > 0 && (
        <section className="worktree__section">
          <h3 className="worktree__heading">Uncommitted</h3>
          <ul className="worktree__list" data-testid="worktree-uncommitted">
            {uncommitted.map((f) => (
              <li key={`${f.status}:${f.path}`} className="worktree__item">
                <span className={`worktree__letter worktree__letter--${f.status}`} title={FILE_TITLE[f.status]}>
                  {FILE_LETTER[f.status]}
                </span>
                <span className="worktree__mono">{f.path}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {ahead.length > 0 && (
        <section className="worktree__section">
          <h3 className="worktree__heading">Commits not in {base ?? "the base"}</h3>
          <ul className="worktree__list" data-testid="worktree-ahead">
            {ahead.map((c) => (
              <li key={c.sha} className="worktree__item">
                <span className="worktree__sha">{c.short_sha}</span>
                <span className="worktree__subject">{c.subject}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {ready && (
        <section className="worktree__section">
          <h3 className="worktree__heading">Changes since {base ?? "the start"}</h3>
          {wt.diff && files.length === 0 && <p className="worktree__empty">No changes yet.</p>}
          <ul className="worktree__files">
            {files.map((file) => {
              const expanded = open.has(file.path);
              return (
                <li key={file.path} className="file-card worktree__file" data-testid="worktree-file" data-path={file.path}>
                  <button type="button" className="file-card__toggle" aria-expanded={expanded} onClick={() => toggle(file.path)}>
                    <span className={`worktree__letter worktree__letter--${file.kind}`}>{KIND_LETTER[file.kind]}</span>
                    <span className="worktree__mono worktree__grow" title={file.path}>
                      {file.path}
                    </span>
                    {!file.binary && <DiffStats added={file.added} removed={file.removed} />}
                  </button>
                  {expanded &&
                    (file.diff ? (
                      <DiffView diff={file.diff} maxHeight={480} showPath={false} testId="worktree-diff" />
                    ) : (
                      <p className="worktree__empty">{file.binary ? "Binary file: no text diff." : "Too large to show here."}</p>
                    ))}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className="worktree__actions" aria-label="Finish the worktree">
        {ready && (
          <>
            {dirty && (
              <label className="field">
                <span className="field__label">Commit message for the uncommitted changes</span>
                <input
                  className="input"
                  value={message}
                  placeholder="What the agent did"
                  onChange={(e) => setMessage(e.target.value)}
                  data-testid="worktree-message"
                />
              </label>
            )}
            <div className="worktree__buttons">
              <button
                type="button"
                className="button button--primary"
                disabled={!idle || mergeBlocked !== null}
                title={mergeBlocked ?? waitBlocked ?? `Commit and merge ${info.branch} into ${base ?? ""} in ${info.repo_root}`}
                onClick={() => void merge()}
                data-testid="worktree-merge"
              >
                {wt.running === "merge" && <Spinner className="worktree__spinner" />}
                Merge into {base ?? "base"}
              </button>
              <button
                type="button"
                className="button"
                disabled={!idle || needsMessage}
                title={
                  needsMessage
                    ? "Keeping the branch needs a commit message for the uncommitted changes: write one above."
                    : (waitBlocked ?? "Commit, remove the folder, keep the branch to push")
                }
                onClick={() => void keep()}
                data-testid="worktree-keep"
              >
                {wt.running === "keep" && <Spinner className="worktree__spinner" />}
                Keep branch
              </button>
              <span className="worktree__spacer" />
              <button
                type="button"
                className="button button--danger"
                disabled={!idle}
                title={waitBlocked ?? undefined}
                onClick={() => void askDiscard()}
                data-testid="worktree-discard"
              >
                Discard…
              </button>
            </div>
            {(mergeBlocked ?? waitBlocked) !== null && (
              <p className="field__hint" data-testid="worktree-merge-hint">
                {mergeBlocked ?? waitBlocked}
              </p>
            )}
          </>
        )}
        {!ready && (
          <div className="worktree__buttons">
            <button type="button" className="button" disabled={!idle} onClick={() => void forget()} data-testid="worktree-forget">
              Forget
            </button>
            {info.state === "missing" && (
              <button
                type="button"
                className="button button--danger"
                disabled={!idle}
                title={waitBlocked ?? undefined}
                onClick={() => void askDiscard()}
                data-testid="worktree-discard"
              >
                Discard branch…
              </button>
            )}
          </div>
        )}
      </section>

      {confirming && (
        <DiscardDialog status={confirming} onConfirm={() => void discard()} onCancel={() => setConfirming(null)} />
      )}
    </aside>
  );
}

function PanelHeader({ info, onClose, loading = false }: { info: WorktreeInfo; onClose?: (() => void) | undefined; loading?: boolean }) {
  return (
    <header className="drawer__header">
      <div className="worktree__heading-block">
        <h2 className="worktree__title">
          <BranchIcon className="worktree__icon" />
          <span className="worktree__branch" data-testid="worktree-branch">
            {info.branch}
          </span>
          {loading && <Spinner className="worktree__spinner" />}
        </h2>
        <p className="worktree__lead">
          from <strong>{info.base_branch ?? "a detached HEAD"}</strong> at{" "}
          <span className="worktree__sha">{info.base_commit.slice(0, 7)}</span>
        </p>
      </div>
      {onClose && (
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close" title="Close">
          <CloseIcon />
        </button>
      )}
    </header>
  );
}

/** After "Keep branch": the branch name and the command that publishes it. */
function KeptCard({ kept }: { kept: KeptBranch }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(kept.push_command);
      setCopied(true);
    } catch {
      // No clipboard (or refused): the command stays selectable to copy by hand.
    }
  };
  return (
    <div className="worktree__kept" data-testid="worktree-kept">
      <p className="worktree__done">
        The folder is removed; the branch <strong>{kept.branch}</strong> is kept
        {kept.committed ? ` with your changes committed as "${kept.committed.subject}"` : ""}. To publish it, run in{" "}
        <span className="worktree__mono">{kept.repo_root}</span>:
      </p>
      <div className="worktree__command">
        <code data-testid="worktree-push-command">{kept.push_command}</code>
        <button type="button" className="button button--small" onClick={() => void copy()} data-testid="worktree-copy">
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {!kept.remote && <p className="field__hint">This repository has no remote yet: add one and put its name for &lt;remote&gt;.</p>}
    </div>
  );
}

/** The confirmation that names every file and commit a discard would lose. */
function DiscardDialog({ status, onConfirm, onCancel }: { status: WorktreeStatus; onConfirm: () => void; onCancel: () => void }) {
  const { uncommitted, ahead, worktree } = status;
  const loses = uncommitted.length + ahead.length > 0;
  return (
    <ConfirmDialog
      title="Discard this worktree?"
      message={
        loses
          ? `This deletes ${worktree.state === "ready" ? "its folder and " : ""}the branch ${worktree.branch}. These would be lost for good:`
          : `This deletes ${worktree.state === "ready" ? "its folder and " : ""}the branch ${worktree.branch}. Nothing uncommitted or unmerged would be lost.`
      }
      confirmLabel={loses ? "Discard and lose these" : "Discard"}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {loses && (
        <div className="worktree__losses" data-testid="discard-list">
          {uncommitted.length > 0 && (
            <>
              <h3 className="worktree__heading">{plural(uncommitted.length, "uncommitted file")}</h3>
              <ul className="worktree__list">
                {uncommitted.map((f) => (
                  <li key={`${f.status}:${f.path}`} className="worktree__item">
                    <span className={`worktree__letter worktree__letter--${f.status}`}>{FILE_LETTER[f.status]}</span>
                    <span className="worktree__mono">{f.path}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {ahead.length > 0 && (
            <>
              <h3 className="worktree__heading">{plural(ahead.length, "unmerged commit")}</h3>
              <ul className="worktree__list">
                {ahead.map((c) => (
                  <li key={c.sha} className="worktree__item">
                    <span className="worktree__sha">{c.short_sha}</span>
                    <span className="worktree__subject">{c.subject}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
