import { useState } from "react";
import { Trans } from "react-i18next";

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
import { useT } from "../../i18n";
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

/**
 * A worktree session's branch against the branch it came from: what is uncommitted, the
 * commits not merged yet, the diff, and the three ways out — merge into the base branch,
 * keep the branch (to push it), or discard it after a confirmation that lists exactly
 * what would be lost.
 */
export function WorktreePanel({ worktree, refreshKey, busy = false, onMerged, onKept, onDiscarded, onClose }: WorktreePanelProps) {
  const t = useT("worktrees");
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
      ? t("blocked.detached")
      : !dirty && ahead.length === 0
        ? t("blocked.nothing", { base })
        : needsMessage
          ? t("blocked.needsMessage")
          : null;
  // Why every action is off for now, said too (a greyed-out button alone does not).
  const waitBlocked = busy
    ? t("blocked.turn")
    : wt.running !== null
      ? t("blocked.action")
      : status === null
        ? t("blocked.status")
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
      <aside className="drawer worktree" aria-label={t("panel.label")} data-testid="worktree-panel">
        <PanelHeader info={info} onClose={onClose} />
        <KeptCard kept={kept} />
      </aside>
    );
  }

  return (
    <aside className="drawer worktree" aria-label={t("panel.label")} data-testid="worktree-panel">
      <PanelHeader info={info} onClose={onClose} loading={wt.loading} />
      <p className="worktree__path" title={info.path}>
        {info.path}
      </p>

      {info.state !== "ready" && (
        <div className="worktree__notice" role="status" data-testid="worktree-missing">
          {info.state === "missing" ? t("panel.missing") : t("panel.unlinked")}
        </div>
      )}

      {status && (
        <div className="worktree__summary" data-testid="worktree-summary">
          <span className={`badge${dirty ? " badge--warn" : ""}`}>{t("panel.uncommittedFiles", { count: uncommitted.length })}</span>
          <span className={`badge${ahead.length > 0 ? " badge--accent" : ""}`}>{t("panel.ahead", { count: ahead.length })}</span>
          {status.behind > 0 && <span className="badge">{t("panel.behind", { n: status.behind })}</span>}
          {status.merged && !dirty && base && <span className="badge badge--ok">{t("panel.inBase", { base })}</span>}
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
          {t("panel.merged", { base: merged.base_branch, count: merged.files.length, root: info.repo_root })}
        </p>
      )}

      {uncommitted.length > 0 && (
        <section className="worktree__section">
          <h3 className="worktree__heading">{t("panel.uncommitted")}</h3>
          <ul className="worktree__list" data-testid="worktree-uncommitted">
            {uncommitted.map((f) => (
              <li key={`${f.status}:${f.path}`} className="worktree__item">
                <span className={`worktree__letter worktree__letter--${f.status}`} title={t(`fileStatus.${f.status}`)}>
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
          <h3 className="worktree__heading">{base === null ? t("panel.commitsNotInBase") : t("panel.commitsNotIn", { base })}</h3>
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
          <h3 className="worktree__heading">{base === null ? t("panel.changesSinceStart") : t("panel.changesSince", { base })}</h3>
          {wt.diff && files.length === 0 && <p className="worktree__empty">{t("panel.noChanges")}</p>}
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
                      <p className="worktree__empty">{file.binary ? t("panel.binary") : t("panel.tooLarge")}</p>
                    ))}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className="worktree__actions" aria-label={t("panel.finish")}>
        {ready && (
          <>
            {dirty && (
              <label className="field">
                <span className="field__label">{t("panel.message")}</span>
                <input
                  className="input"
                  value={message}
                  placeholder={t("panel.messagePlaceholder")}
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
                title={mergeBlocked ?? waitBlocked ?? t("actions.mergeTitle", { branch: info.branch, base: base ?? "", root: info.repo_root })}
                onClick={() => void merge()}
                data-testid="worktree-merge"
              >
                {wt.running === "merge" && <Spinner className="worktree__spinner" />}
                {base === null ? t("actions.mergeIntoBase") : t("actions.merge", { base })}
              </button>
              <button
                type="button"
                className="button"
                disabled={!idle || needsMessage}
                title={
                  needsMessage ? t("blocked.keepNeedsMessage") : (waitBlocked ?? t("actions.keepTitle"))
                }
                onClick={() => void keep()}
                data-testid="worktree-keep"
              >
                {wt.running === "keep" && <Spinner className="worktree__spinner" />}
                {t("actions.keep")}
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
                {t("actions.discard")}
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
              {t("actions.forget")}
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
                {t("actions.discardBranch")}
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
  const t = useT("worktrees");
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
          <Trans
            t={t}
            i18nKey="panel.from"
            values={{ base: info.base_branch ?? t("panel.detachedHead"), commit: info.base_commit.slice(0, 7) }}
            components={{ strong: <strong />, sha: <span className="worktree__sha" /> }}
          />
        </p>
      </div>
      {onClose && (
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("common:close")} title={t("common:close")}>
          <CloseIcon />
        </button>
      )}
    </header>
  );
}

/** After "Keep branch": the branch name and the command that publishes it. */
function KeptCard({ kept }: { kept: KeptBranch }) {
  const t = useT("worktrees");
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
        <Trans
          t={t}
          i18nKey={kept.committed ? "kept.doneCommitted" : "kept.done"}
          values={{ branch: kept.branch, subject: kept.committed?.subject ?? "", root: kept.repo_root }}
          components={{ strong: <strong />, mono: <span className="worktree__mono" /> }}
        />
      </p>
      <div className="worktree__command">
        <code data-testid="worktree-push-command">{kept.push_command}</code>
        <button type="button" className="button button--small" onClick={() => void copy()} data-testid="worktree-copy">
          {copied ? t("common:copied") : t("common:copy")}
        </button>
      </div>
      {!kept.remote && <p className="field__hint">{t("kept.noRemote")}</p>}
    </div>
  );
}

/** The confirmation that names every file and commit a discard would lose. */
function DiscardDialog({ status, onConfirm, onCancel }: { status: WorktreeStatus; onConfirm: () => void; onCancel: () => void }) {
  const t = useT("worktrees");
  const { uncommitted, ahead, worktree } = status;
  const loses = uncommitted.length + ahead.length > 0;
  // Memo deletes the folder of a ready worktree only; otherwise just the branch.
  const folderToo = worktree.state === "ready";
  const messageKey = loses
    ? folderToo ? "discard.loses" : "discard.losesBranchOnly"
    : folderToo ? "discard.safe" : "discard.safeBranchOnly";
  return (
    <ConfirmDialog
      title={t("discard.title")}
      message={t(messageKey, { branch: worktree.branch })}
      confirmLabel={loses ? t("discard.confirmLoses") : t("discard.confirm")}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {loses && (
        <div className="worktree__losses" data-testid="discard-list">
          {uncommitted.length > 0 && (
            <>
              <h3 className="worktree__heading">{t("panel.uncommittedFiles", { count: uncommitted.length })}</h3>
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
              <h3 className="worktree__heading">{t("discard.unmerged", { count: ahead.length })}</h3>
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
