import { CloseIcon } from "../../components/icons";
import type { SessionSummary } from "../../gen/protocol";
import { sessionLabel } from "./label";
import { fileName, importHeadline, skippedLines } from "./sessionFiles";
import type { TransferNotice as Notice } from "./useSessionTransfer";

interface TransferNoticeProps {
  notice: Notice;
  /** The folder's sessions as listed now, to offer the imported ones that are among them. */
  listed: SessionSummary[];
  onOpen: (session: SessionSummary) => void;
  onDismiss: () => void;
}

/** What an export or an import did, under the session list until dismissed. */
export function TransferNotice({ notice, listed, onOpen, onDismiss }: TransferNoticeProps) {
  const dismiss = (
    <button type="button" className="icon-button transfer-notice__close" title="Dismiss" aria-label="Dismiss" data-testid="transfer-dismiss" onClick={onDismiss}>
      <CloseIcon />
    </button>
  );

  if (notice.kind === "saved") {
    return (
      <div className="transfer-notice transfer-notice--ok" role="status" data-testid="export-saved" title={notice.path}>
        <p className="transfer-notice__headline">Saved to {notice.shown}</p>
        {dismiss}
      </div>
    );
  }

  if (notice.kind === "failed") {
    return (
      <div className="transfer-notice transfer-notice--error" role="alert" data-testid="transfer-error">
        <div className="transfer-notice__body">
          <p className="transfer-notice__headline">{notice.title}</p>
          <p className="transfer-notice__detail">{notice.message}</p>
        </div>
        {dismiss}
      </div>
    );
  }

  const { report } = notice;
  // Only sessions this folder lists can be opened from here; others are in their own folder.
  const byId = new Map(listed.map((s) => [s.id, s]));
  const openable = report.files
    .filter((f) => f.status === "new" && f.session_id !== null)
    .flatMap((f) => {
      const session = byId.get(f.session_id ?? "");
      return session ? [session] : [];
    });
  const skipped = skippedLines(report);
  const failedAll = report.files.length === 0;

  return (
    <div
      className={`transfer-notice${failedAll ? " transfer-notice--error" : " transfer-notice--ok"}`}
      role={failedAll ? "alert" : "status"}
      data-testid="import-report"
    >
      <div className="transfer-notice__body">
        <p className="transfer-notice__headline" data-testid="import-headline">
          {importHeadline(report)}
        </p>
        {openable.length > 0 && (
          <ul className="transfer-notice__list" aria-label="Imported sessions">
            {openable.map((session) => (
              <li key={session.id}>
                <button type="button" className="transfer-notice__open" data-testid="import-open" onClick={() => onOpen(session)}>
                  Open “{sessionLabel(session)}”
                </button>
              </li>
            ))}
          </ul>
        )}
        {report.failed.length > 0 && (
          <ul className="transfer-notice__list transfer-notice__list--failed" aria-label="Files not imported">
            {report.failed.map((failure) => (
              <li key={failure.path} data-testid="import-failure" title={failure.path}>
                <span className="transfer-notice__file">{fileName(failure.path)}</span>: {failure.error}
              </li>
            ))}
          </ul>
        )}
        {skipped.total > 0 && (
          <div className="transfer-notice__skipped" data-testid="import-skipped">
            <p>
              {skipped.total} line{skipped.total === 1 ? "" : "s"} skipped
            </p>
            <ul className="transfer-notice__list">
              {skipped.first.map((note) => (
                <li key={`${note.file}:${note.line}`}>
                  <span className="transfer-notice__file">
                    {report.files.length > 1 ? `${note.file} line ${note.line}` : `Line ${note.line}`}
                  </span>
                  : {note.reason}
                </li>
              ))}
              {skipped.total > skipped.first.length && <li>and {skipped.total - skipped.first.length} more</li>}
            </ul>
          </div>
        )}
      </div>
      {dismiss}
    </div>
  );
}
