// The review controls of one file of the changes panel: per hunk, Keep (in git: stage it)
// or take the keep back, and Revert; per file, the "Mark as reviewed" toggle.
import { useT } from "../../i18n";

/** The buttons at the end of a hunk's header. */
export function HunkActions({
  kept,
  committed,
  git,
  canRevert,
  keepDisabled,
  revertDisabled,
  onKeep,
  onRevert,
}: {
  /** Whether the hunk is kept (in git: the index holds it); its state label says so. */
  kept: boolean;
  /** git has it at HEAD: nothing to keep or unstage, its state label says "Committed". */
  committed: boolean;
  /** A git repository: keeping stages, taking it back unstages. */
  git: boolean;
  /** False when the hunk is the whole file (the file's own Revert does it). */
  canRevert: boolean;
  keepDisabled: boolean;
  revertDisabled: boolean;
  onKeep: (undo: boolean) => void;
  onRevert: () => void;
}) {
  const t = useT("changes");
  return (
    <span className="changes__hunk-actions">
      {committed ? null : kept ? (
        <button
          type="button"
          className="button button--small button--quiet"
          disabled={keepDisabled}
          title={git ? t("panel.unstageTitle") : t("panel.unkeepTitle")}
          onClick={() => onKeep(true)}
          data-testid="unkeep-hunk"
        >
          {git ? t("panel.unstage") : t("panel.unkeep")}
        </button>
      ) : (
        <button
          type="button"
          className="button button--small button--quiet"
          disabled={keepDisabled}
          title={git ? t("panel.keepTitleGit") : t("panel.keepTitle")}
          onClick={() => onKeep(false)}
          data-testid="keep-hunk"
        >
          {t("panel.keep")}
        </button>
      )}
      {canRevert && (
        <button type="button" className="button button--small" disabled={revertDisabled} onClick={onRevert} data-testid="revert-hunk">
          {t("panel.revert")}
        </button>
      )}
    </span>
  );
}

/** "Mark as reviewed", pressed while the file is marked and has not changed since. */
export function ReviewedToggle({ reviewed, disabled, onToggle }: { reviewed: boolean; disabled: boolean; onToggle: () => void }) {
  const t = useT("changes");
  return (
    <button
      type="button"
      className="button button--small button--quiet changes__reviewed-toggle"
      aria-pressed={reviewed}
      disabled={disabled}
      title={reviewed ? t("panel.unmarkReviewedTitle") : t("panel.markReviewedTitle")}
      onClick={onToggle}
      data-testid="mark-reviewed"
    >
      {t("panel.markReviewed")}
    </button>
  );
}
