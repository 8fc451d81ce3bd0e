import { Trans } from "react-i18next";

import { CloseIcon } from "../../components/icons";
import type { SessionSummary } from "../../gen/protocol";
import { useT } from "../../i18n";
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
  const t = useT("sessions");
  const dismiss = (
    <button
      type="button"
      className="icon-button transfer-notice__close"
      title={t("transfer.dismiss")}
      aria-label={t("transfer.dismiss")}
      data-testid="transfer-dismiss"
      onClick={onDismiss}
    >
      <CloseIcon />
    </button>
  );

  if (notice.kind === "saved") {
    return (
      <div className="transfer-notice transfer-notice--ok" role="status" data-testid="export-saved" title={notice.path}>
        <p className="transfer-notice__headline">{t("transfer.saved", { path: notice.shown })}</p>
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
          <ul className="transfer-notice__list" aria-label={t("transfer.imported")}>
            {openable.map((session) => (
              <li key={session.id}>
                <button type="button" className="transfer-notice__open" data-testid="import-open" onClick={() => onOpen(session)}>
                  {t("transfer.open", { label: sessionLabel(session) })}
                </button>
              </li>
            ))}
          </ul>
        )}
        {report.failed.length > 0 && (
          <ul className="transfer-notice__list transfer-notice__list--failed" aria-label={t("transfer.notImported")}>
            {report.failed.map((failure) => (
              <li key={failure.path} data-testid="import-failure" title={failure.path}>
                <Trans
                  t={t}
                  i18nKey="transfer.failure"
                  values={{ name: fileName(failure.path), error: failure.error }}
                  components={{ file: <span className="transfer-notice__file" /> }}
                />
              </li>
            ))}
          </ul>
        )}
        {skipped.total > 0 && (
          <div className="transfer-notice__skipped" data-testid="import-skipped">
            <p>{t("transfer.skipped", { count: skipped.total })}</p>
            <ul className="transfer-notice__list">
              {skipped.first.map((note) => (
                <li key={`${note.file}:${note.line}`}>
                  <Trans
                    t={t}
                    i18nKey="transfer.skippedLine"
                    values={{
                      where:
                        report.files.length > 1
                          ? t("transfer.lineOf", { file: note.file, line: note.line })
                          : t("transfer.line", { line: note.line }),
                      reason: note.reason,
                    }}
                    components={{ file: <span className="transfer-notice__file" /> }}
                  />
                </li>
              ))}
              {skipped.total > skipped.first.length && <li>{t("transfer.more", { n: skipped.total - skipped.first.length })}</li>}
            </ul>
          </div>
        )}
      </div>
      {dismiss}
    </div>
  );
}
