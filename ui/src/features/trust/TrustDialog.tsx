import { useDialogKeys } from "../../components/useDialogKeys";
import type { WorkspaceTrustReport } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import type { IpcError } from "../../ipc";
import { folderName } from "../../state/workspaces";

import "./trust.css";

interface TrustDialogProps {
  report: WorkspaceTrustReport;
  saving: boolean;
  error: IpcError | null;
  onDecide: (trusted: boolean) => void;
  onDismiss: () => void;
}

/** Where the hooks a folder declares come from, as the badge names it. */
const HOOKS_FILE = ".claude/settings";

/** "hook PreToolUse Bash: ./guard.sh" as its moment ("PreToolUse Bash", if said) and its command. */
function hookParts(line: string): { event: string | null; command: string } {
  const split = line.indexOf(": ");
  if (split < 0) return { event: null, command: line };
  return { event: line.slice(0, split).replace(/^hook /, ""), command: line.slice(split + 2) };
}

/**
 * Asked before a folder's own project files may start programs. Lists exactly what would
 * run, so the decision is about those commands and not about a folder name. "Don't trust"
 * has the focus: Enter never trusts by accident.
 */
export function TrustDialog({ report, saving, error, onDecide, onDismiss }: TrustDialogProps) {
  const t = useT("trust");
  const refuse = useDialogKeys(onDismiss);
  const changed = report.state === "changed";
  const name = folderName(report.folder);
  return (
    <div className="dialog-backdrop" role="presentation">
      <div
        className="dialog trust-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="trust-title"
        aria-describedby="trust-lead"
        data-testid="trust-dialog"
      >
        <h2 id="trust-title" className="dialog__title">
          {changed ? t("dialog.titleChanged", { name }) : t("dialog.title", { name })}
        </h2>
        <p id="trust-lead" className="dialog__message trust-dialog__lead">
          {changed ? t("dialog.leadChanged") : t("dialog.lead")}
        </p>
        <ul className="trust-dialog__list" data-testid="trust-servers">
          {report.servers.map((server) => (
            <li key={`${server.file}:${server.name}`} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">{server.name}</span>
                <span className="badge">{t("dialog.serverBadge", { file: server.file })}</span>
              </div>
              <code className="trust-dialog__runs">{server.runs}</code>
            </li>
          ))}
          {report.permissions.map((p) => (
            <li key={`${p.file}:${p.text}`} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">{t("dialog.runWithoutAsking")}</span>
                <span className="badge">{t("dialog.ruleBadge", { file: p.file })}</span>
              </div>
              <code className="trust-dialog__runs">{p.text}</code>
            </li>
          ))}
          {report.prompt_files.map((file) => (
            <li key={file.path} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">{t("dialog.changeInstructions")}</span>
                <span className="badge">{t("dialog.instructionsBadge", { path: file.path })}</span>
              </div>
              <span className="trust-dialog__runs">{say(file.effect)}</span>
            </li>
          ))}
          {report.hooks.map((line) => {
            const hook = hookParts(line);
            return (
              <li key={line} className="trust-dialog__item">
                <div className="trust-dialog__item-head">
                  <span className="trust-dialog__name">
                    {hook.event === null ? t("dialog.hook") : t("dialog.hookOn", { event: hook.event })}
                  </span>
                  <span className="badge">{t("dialog.hookBadge", { file: HOOKS_FILE })}</span>
                </div>
                <code className="trust-dialog__runs">{hook.command}</code>
              </li>
            );
          })}
        </ul>
        <p className="dialog__message trust-dialog__note">{t("dialog.note")}</p>
        {error && (
          <p className="form-error" role="alert" data-testid="trust-error">
            {error.message}
          </p>
        )}
        <div className="dialog__actions">
          <button
            ref={refuse}
            type="button"
            className="button"
            disabled={saving}
            onClick={() => onDecide(false)}
            data-testid="trust-refuse"
          >
            {t("dialog.refuse")}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={() => onDecide(true)}
            data-testid="trust-accept"
          >
            {t("dialog.accept")}
          </button>
        </div>
      </div>
    </div>
  );
}
