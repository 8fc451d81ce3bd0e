import { useEffect, useId, useRef, useState } from "react";

import { DiffStats, DiffView, type DiffComment } from "../../components/diff";
import { useEscape } from "../../components/escapeStack";
import { CloseIcon, Spinner } from "../../components/icons";
import { PathTail } from "../../components/PathTail";
import { useDialogKeys } from "../../components/useDialogKeys";
import type { ChangeKind, ChangeScope, ChangesReport, FileChange } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { toolLabel } from "../../state/toolNames";
import { CommitBox } from "./CommitBox";
import { commentsMessage } from "./comments";
import { HunkActions, ReviewedToggle } from "./FileReview";
import { type HeldRevert, type RevertUndo, useChanges } from "./useChanges";
import "./changes.css";

/** How long a revert's Undo (and what the undo did) stays offered, unless hovered or focused. */
export const UNDO_TOAST_MS = 10_000;

const SCOPES: readonly ChangeScope[] = ["last_turn", "session", "uncommitted"];

const KIND_LABEL: Record<ChangeKind, string> = { created: "A", modified: "M", deleted: "D" };

/** How a change's source reads in the list: tools by name (an MCP tool as `server · tool`), the rest in words. */
export function sourceLabel(source: string): string {
  switch (source) {
    case "outside":
    case "review":
    case "restore":
    case "git":
      return translate(`changes:source.${source}`);
    default:
      return toolLabel(source);
  }
}

function splitPath(path: string): { dir: string; name: string } {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? { dir: "", name: path } : { dir: path.slice(0, cut + 1), name: path.slice(cut + 1) };
}

interface ChangesPanelProps {
  sessionId: string | null;
  /** Read again when this changes (a tool changed files, a turn ended). */
  refreshKey: unknown;
  /** Sends the collected line comments to the agent as the next message. */
  onSendComments: (text: string) => void;
  /** Offers to restore the code to before the last turn (absent without one). */
  onRevertTurn?: (() => void) | undefined;
  /** Whether a turn is running (comments wait; reverts would race the agent). */
  busy: boolean;
  onClose: () => void;
  /** Each list the panel shows (on opening, a new scope, after a revert or an undo). */
  onReport?: ((report: ChangesReport) => void) | undefined;
}

/**
 * Every file the session changed — by any tool, a shell command or an MCP server — as a
 * diff to review: per hunk keep (in git: stage) or revert, per file revert or mark as
 * reviewed, comments on lines that go to the agent as the next message; in git, the commit
 * area under the list takes what was kept on to a commit, a push and a pull request.
 */
export function ChangesPanel({ sessionId, refreshKey, onSendComments, onRevertTurn, busy, onClose, onReport }: ChangesPanelProps) {
  const t = useT("changes");
  const [scope, setScope] = useState<ChangeScope>("session");
  const changes = useChanges(sessionId, scope, refreshKey);
  // The header counts what this list shows (a revert takes a file off it); only a new list
  // is reported, whatever function the parent passes this render.
  const reportUp = useRef(onReport);
  reportUp.current = onReport;
  useEffect(() => {
    if (changes.report !== null) reportUp.current?.(changes.report);
  }, [changes.report]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [comments, setComments] = useState<DiffComment[]>([]);
  const [working, setWorking] = useState<string | null>(null);
  const files = changes.report?.files ?? [];
  const isGit = changes.report?.git ?? true;

  const toggle = (path: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const run = async (key: string, action: () => Promise<void>) => {
    setWorking(key);
    try {
      await action();
    } finally {
      setWorking(null);
    }
  };
  const revert = (file: FileChange, hunks: number[] | null) =>
    run(hunks === null ? `${file.path}:all` : `${file.path}:${hunks.join(",")}`, () => changes.revert(file, hunks));
  // Kept hunks are the engine's to say (git's index, or Memo's store): the list tells.
  const keep = (file: FileChange, hunk: number, undo: boolean) =>
    run(`${file.path}:keep:${hunk}`, () => changes.keep(file, [hunk], undo));
  const markReviewed = (file: FileChange) => {
    const reviewed = !(file.reviewed ?? false);
    // Looked at: out of the way, folded.
    if (reviewed) setOpen((current) => (current.has(file.path) ? new Set([...current].filter((p) => p !== file.path)) : current));
    return run(`${file.path}:reviewed`, () => changes.markReviewed(file, reviewed));
  };
  const held = changes.heldBack;
  const heldPrompt =
    held === null ? null : (
      <HeldBackPrompt
        held={held}
        working={working !== null}
        onRevertAnyway={() => void run(`${held.path}:force`, changes.revertAnyway)}
        onCancel={changes.cancelHeldBack}
      />
    );
  // Shown at its file; at the top should the list no longer have it.
  const heldAtFile = held !== null && files.some((f) => f.path === held.path);

  const send = () => {
    onSendComments(commentsMessage(comments));
    setComments([]);
  };

  return (
    <aside className="drawer changes" aria-label={t("panel.label")} data-testid="changes-panel">
      <header className="drawer__header">
        <div>
          <h2 className="changes__title">{t("panel.title")}</h2>
          <p className="changes__lead">
            {files.length === 0 ? t("panel.noFiles") : t("panel.files", { count: files.length })}
            {changes.loading && <Spinner className="changes__spinner" />}
          </p>
        </div>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("common:close")} title={t("common:close")}>
          <CloseIcon />
        </button>
      </header>

      <div className="segmented" role="tablist" aria-label={t("panel.scopes")}>
        {SCOPES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={scope === s}
            className={`segmented__item${scope === s ? " segmented__item--active" : ""}`}
            data-testid={`changes-scope-${s}`}
            disabled={s === "uncommitted" && !isGit}
            title={s === "uncommitted" && !isGit ? t("panel.notGit") : undefined}
            onClick={() => setScope(s)}
          >
            {t(`scope.${s}`)}
          </button>
        ))}
      </div>
      {/* Said in words too: a greyed-out tab's tooltip is easy to miss. */}
      {!isGit && (
        <p className="changes__hint" data-testid="changes-scope-hint">
          {t("panel.notGitHint")}
        </p>
      )}

      {scope === "last_turn" && onRevertTurn && files.length > 0 && (
        <button type="button" className="button changes__turn" disabled={busy} onClick={onRevertTurn} data-testid="revert-turn">
          {t("panel.revertTurn")}
        </button>
      )}

      {changes.error && (
        <p className="form-error" role="alert">
          {changes.error.message}
        </p>
      )}
      {changes.revertError && (
        <p className="form-error" role="alert" data-testid="revert-error">
          {changes.revertError.message}
        </p>
      )}
      {changes.keepError && (
        <p className="form-error" role="alert" data-testid="keep-error">
          {changes.keepError.message}
        </p>
      )}
      {!heldAtFile && heldPrompt}
      {changes.report?.note && <p className="changes__note">{say(changes.report.note)}</p>}
      {changes.report && files.length === 0 && !changes.report.note && (
        <p className="changes__empty">
          {scope === "last_turn"
            ? t("panel.emptyLastTurn")
            : scope === "session"
              ? t("panel.emptySession")
              : t("panel.emptyUncommitted")}
        </p>
      )}

      <ul className="changes__files">
        {files.map((file) => {
          const { dir, name } = splitPath(file.path);
          const expanded = open.has(file.path);
          return (
            <li key={file.path} className="file-card changes__file" data-testid="changed-file" data-path={file.path}>
              <div className="changes__row">
                <button type="button" className="file-card__toggle changes__toggle" aria-expanded={expanded} onClick={() => toggle(file.path)}>
                  <span className={`changes__kind changes__kind--${file.kind}`} title={t(`kind.${file.kind}`)}>
                    {KIND_LABEL[file.kind]}
                  </span>
                  <span className="changes__path" title={file.path}>
                    <span className="changes__name">{name}</span>
                    {dir && <PathTail className="changes__dir" path={dir} title={file.path} />}
                  </span>
                  {!file.binary && <DiffStats added={file.added} removed={file.removed} />}
                </button>
                <ReviewedToggle
                  reviewed={file.reviewed ?? false}
                  disabled={working !== null}
                  onToggle={() => void markReviewed(file)}
                />
                <button
                  type="button"
                  className="button button--small changes__revert-file"
                  disabled={busy || working !== null || !file.restorable}
                  title={file.restorable ? t("panel.revertFileTitle") : t("panel.notKeptTitle")}
                  onClick={() => void revert(file, null)}
                  data-testid="revert-file"
                >
                  {file.kind === "created" ? t("common:delete") : t("panel.revert")}
                </button>
              </div>
              {heldAtFile && held?.path === file.path && heldPrompt}
              <div className="changes__sources">
                {file.sources.map((s) => (
                  <span key={s} className={`chip chip--${s === "outside" ? "outside" : "tool"}`}>
                    {sourceLabel(s)}
                  </span>
                ))}
                {file.reviewed && (
                  <span className="chip chip--ok" data-testid="reviewed-chip">
                    {t("panel.reviewed")}
                  </span>
                )}
                {!file.restorable && <span className="chip chip--warn">{t("panel.notRestorable")}</span>}
                {file.binary && <span className="chip">{t("panel.binary")}</span>}
              </div>
              {expanded &&
                (file.diff ? (
                  <DiffView
                    diff={file.diff}
                    maxHeight={560}
                    showPath={false}
                    testId="changes-diff"
                    hunkTestId="changes-hunk"
                    onComment={(c) => setComments((all) => [...all, c])}
                    hunkState={(index) => (file.committed?.includes(index) ? "committed" : file.kept?.includes(index) ? (isGit ? "staged" : "kept") : null)}
                    renderHunkActions={(hunk) => (
                      <HunkActions
                        kept={file.kept?.includes(hunk.index) ?? false}
                        committed={file.committed?.includes(hunk.index) ?? false}
                        git={isGit}
                        canRevert={(file.diff?.hunks.length ?? 0) > 1 || file.kind === "modified"}
                        keepDisabled={working !== null}
                        revertDisabled={busy || working !== null}
                        onKeep={(undo) => void keep(file, hunk.index, undo)}
                        onRevert={() => void revert(file, [hunk.index])}
                      />
                    )}
                  />
                ) : (
                  <p className="changes__nodiff">
                    {file.binary
                      ? t("panel.binaryFile")
                      : !file.restorable
                        ? t("panel.overCap")
                        : t("panel.tooLarge")}
                  </p>
                ))}
            </li>
          );
        })}
      </ul>

      {sessionId !== null && changes.report?.git && (
        <CommitBox sessionId={sessionId} busy={busy} refreshKey={changes.report} onChanged={changes.reload} />
      )}

      {(changes.undo !== null || comments.length > 0) && (
        // One footer at the drawer's foot, so the toast sits above the comments, not on them.
        <div className="changes__footer">
          {changes.undo !== null && (
            <UndoToast
              undo={changes.undo}
              onUndo={(overwrite) => void changes.undoRevert(overwrite)}
              onDismiss={changes.dismissUndo}
            />
          )}
          {comments.length > 0 && (
            <section className="changes__comments" data-testid="review-comments">
              <h3 className="changes__comments-title">
                {t("comments.count", { count: comments.length })}
              </h3>
              <ul>
                {comments.map((c, i) => (
                  <li key={i}>
                    <code>
                      {c.path}:{c.startLine}
                      {c.endLine !== c.startLine ? `–${c.endLine}` : ""}
                    </code>{" "}
                    {c.text}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setComments((all) => all.filter((_, j) => j !== i))}
                      aria-label={t("comments.removeLabel")}
                    >
                      {t("comments.remove")}
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className="button button--primary"
                disabled={busy}
                title={busy ? t("comments.wait") : undefined}
                onClick={send}
                data-testid="send-comments"
              >
                {t("comments.send")}
              </button>
            </section>
          )}
        </div>
      )}
    </aside>
  );
}

/**
 * A revert the engine held back, at its file: the engine's sentence names the lines that
 * would go, and nothing is written unless the person says so. Like a dialog, Cancel has the
 * focus (Enter does not revert by accident) and Esc cancels, this question only.
 */
function HeldBackPrompt({
  held,
  working,
  onRevertAnyway,
  onCancel,
}: {
  held: HeldRevert;
  working: boolean;
  onRevertAnyway: () => void;
  onCancel: () => void;
}) {
  const t = useT("changes");
  const cancel = useDialogKeys(onCancel);
  const root = useRef<HTMLDivElement>(null);
  const messageId = useId();
  // Answered, the question goes: the focus goes back to the file's Revert, not to nowhere.
  useEffect(() => {
    const back = root.current?.closest("li")?.querySelector<HTMLButtonElement>(".changes__revert-file") ?? null;
    return () => {
      if (document.activeElement === null || document.activeElement === document.body) back?.focus();
    };
  }, []);
  return (
    <div ref={root} className="changes__held" role="group" aria-labelledby={messageId} data-testid="held-back">
      <p id={messageId} className="changes__held-message" role="alert">
        {held.message}
      </p>
      <div className="changes__held-actions">
        <button
          type="button"
          className="button button--small button--danger"
          disabled={working}
          onClick={onRevertAnyway}
          data-testid="revert-anyway"
        >
          {t("held.anyway")}
        </button>
        <button ref={cancel} type="button" className="button button--small" disabled={working} onClick={onCancel}>
          {t("common:cancel")}
        </button>
      </div>
    </div>
  );
}

/**
 * "Reverted a.txt · Undo", for a while after each revert that wrote, then what the undo did.
 * It waits while the pointer or the focus is on it; a conflict (the file changed since the
 * revert) is a question, which waits for its answer and owns Esc ("keep it") meanwhile.
 */
function UndoToast({
  undo,
  onUndo,
  onDismiss,
}: {
  undo: RevertUndo;
  onUndo: (overwrite: boolean) => void;
  onDismiss: () => void;
}) {
  const t = useT("changes");
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const dismiss = useRef<HTMLButtonElement>(null);
  const asking = undo.phase === "conflict";
  const timed = undo.phase === "offered" || undo.phase === "done";
  const paused = hovered || focused;

  useEffect(() => {
    if (!timed || paused) return;
    // Each revert, and what its undo did, gets the whole time to be read.
    const timer = window.setTimeout(onDismiss, UNDO_TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [timed, paused, undo.id, undo.phase, onDismiss]);

  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);
  // A button that goes with its phase (Undo, Undo anyway) takes the focus along, and no blur
  // says so: the focus stays in the toast, on its Dismiss, for whoever used the keyboard.
  useEffect(() => {
    const active = document.activeElement;
    if (root.current?.contains(active)) return;
    if (focused && !asking && (active === null || active === document.body)) dismiss.current?.focus();
    else setFocused(false);
    // Only a new phase moves buttons; `focused` is read as it stood before it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [undo.phase]);
  useEscape(onDismiss, asking);

  return (
    <div
      ref={root}
      className={`changes__toast changes__toast--${undo.phase}`}
      role={asking ? "alert" : "status"}
      data-testid="undo-toast"
      data-phase={undo.phase}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <p className="changes__toast-text">
        <span data-testid="undo-message">{undo.message}</span>
        {undo.detail && <span className="changes__toast-detail">{undo.detail}</span>}
      </p>
      <span className="changes__toast-actions">
        {(undo.phase === "offered" || undo.phase === "working") && (
          <button
            type="button"
            className="button button--small"
            disabled={undo.phase === "working"}
            onClick={() => onUndo(false)}
            data-testid="undo-revert"
          >
            {undo.phase === "working" && <Spinner />}
            {t("undo.undo")}
          </button>
        )}
        {asking && (
          <>
            <button type="button" className="button button--small button--danger" onClick={() => onUndo(true)} data-testid="undo-anyway">
              {t("undo.anyway")}
            </button>
            <button ref={keep} type="button" className="button button--small" onClick={onDismiss}>
              {t("undo.keep")}
            </button>
          </>
        )}
        {!asking && (
          <button ref={dismiss} type="button" className="icon-button" onClick={onDismiss} aria-label={t("undo.dismiss")} title={t("undo.dismiss")}>
            <CloseIcon />
          </button>
        )}
      </span>
    </div>
  );
}
