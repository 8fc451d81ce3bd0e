import { useDialogKeys } from "../../components/useDialogKeys";
import type { WorkspaceTrustReport } from "../../gen/protocol";
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

/** "hook PreToolUse Bash: ./guard.sh" as "Hook on PreToolUse Bash" and its command. */
function hookParts(line: string): { when: string; command: string } {
  const split = line.indexOf(": ");
  if (split < 0) return { when: "Hook", command: line };
  return { when: `Hook on ${line.slice(0, split).replace(/^hook /, "")}`, command: line.slice(split + 2) };
}

/**
 * Asked before a folder's own project files may start programs. Lists exactly what would
 * run, so the decision is about those commands and not about a folder name. "Don't trust"
 * has the focus: Enter never trusts by accident.
 */
export function TrustDialog({ report, saving, error, onDecide, onDismiss }: TrustDialogProps) {
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
          {changed ? `${name} now starts something new` : `Trust ${name}?`}
        </h2>
        <p id="trust-lead" className="dialog__message trust-dialog__lead">
          {changed
            ? "This folder's own files changed since you trusted it. Sessions here would now:"
            : "This folder's own files would have Memo do the following whenever a session starts here:"}
        </p>
        <ul className="trust-dialog__list" data-testid="trust-servers">
          {report.servers.map((server) => (
            <li key={`${server.file}:${server.name}`} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">{server.name}</span>
                <span className="badge">MCP server · {server.file}</span>
              </div>
              <code className="trust-dialog__runs">{server.runs}</code>
            </li>
          ))}
          {report.permissions.map((p) => (
            <li key={`${p.file}:${p.text}`} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">Run without asking</span>
                <span className="badge">Allow rule · {p.file}</span>
              </div>
              <code className="trust-dialog__runs">{p.text}</code>
            </li>
          ))}
          {report.prompt_files.map((file) => (
            <li key={file.path} className="trust-dialog__item">
              <div className="trust-dialog__item-head">
                <span className="trust-dialog__name">Change how the agent is told to behave</span>
                <span className="badge">Instructions · {file.path}</span>
              </div>
              <span className="trust-dialog__runs">{file.effect}</span>
            </li>
          ))}
          {report.hooks.map((line) => {
            const hook = hookParts(line);
            return (
              <li key={line} className="trust-dialog__item">
                <div className="trust-dialog__item-head">
                  <span className="trust-dialog__name">{hook.when}</span>
                  <span className="badge">Hook · .claude/settings</span>
                </div>
                <code className="trust-dialog__runs">{hook.command}</code>
              </li>
            );
          })}
        </ul>
        <p className="dialog__message trust-dialog__note">
          Programs run with your permissions, outside Memo's approvals, and allow rules let the agent act
          without asking; instruction files can tell the agent to skip its safety rules. Trust the folder only if you trust whoever wrote these files. Without trust, sessions here still work with Memo's own tools and instructions;
          you can change this in Settings → Trusted folders.
        </p>
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
            Don't trust
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={() => onDecide(true)}
            data-testid="trust-accept"
          >
            Trust folder
          </button>
        </div>
      </div>
    </div>
  );
}
