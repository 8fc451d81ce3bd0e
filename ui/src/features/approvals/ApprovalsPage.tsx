import { type FormEvent, useEffect, useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { formatDateTime } from "../../format";
import type { ApprovalMode, ApprovalRuleInfo, ApprovalSettings, RuleDecision, RuleInput, RuleKind } from "../../gen/protocol";
import { ipc, pickSavePath, toIpcError } from "../../ipc";
import { MODE_EFFECTS, MODE_NAMES, MODES } from "../../state/approvalModes";
import { mcpRuleLabel } from "../../state/toolNames";
import { folderName } from "../../state/workspaces";

import { useSettingsPage } from "../settings/useSettingsPage";
import "./approvals.css";

const KIND_NAMES: Record<RuleKind, string> = {
  command: "Command",
  write: "Files",
  mcp: "MCP tool",
  web: "Web",
  read: "Reading",
};

const KIND_PLACEHOLDERS: Record<RuleKind, string> = {
  command: "cargo test",
  write: "src/**",
  mcp: "server:tool",
  web: "https://docs.rs",
  read: ".env",
};

const KIND_HINTS: Record<RuleKind, string> = {
  command: "A command prefix, whole words: cargo test covers cargo test -p x, never cargo testx or cargo test; rm x",
  write: "A path or glob such as src/** (relative to the folder, or absolute)",
  mcp: "server:tool, or server:* for all of a server's tools; add name=glob to match an argument too (github:create_issue repo=memo-*)",
  web: "An origin such as https://docs.rs",
  read: "A path or glob whose content no tool gives the model: .env (in any folder), ./config/*.key, ~/.aws/**. Deny only: reads never ask",
};

function when(seconds: number | null): string {
  if (seconds === null) return "never used";
  return `used ${formatDateTime(seconds * 1000)}`;
}

const EMPTY_RULE: RuleInput = { decision: "allow", kind: "command", pattern: "", project: null, exact: false };

interface RuleFormProps {
  initial: RuleInput;
  cwd: string | null;
  submitLabel: string;
  onSubmit: (rule: RuleInput) => Promise<void>;
  onCancel: () => void;
}

function RuleForm({ initial, cwd, submitLabel, onSubmit, onCancel }: RuleFormProps) {
  const [rule, setRule] = useState<RuleInput>(initial);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<RuleInput>) => setRule((r) => ({ ...r, ...patch }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onSubmit({ ...rule, pattern: rule.pattern.trim() });
    } finally {
      setSaving(false);
    }
  };
  // A rule for the folder it was made in keeps that folder even when another is open now.
  const folders = [...new Set([initial.project, cwd].filter((f): f is string => f !== null))];
  return (
    <form className="rule-form" onSubmit={submit} data-testid="rule-form">
      <div className="field-row">
        <label className="field rule-form__narrow">
          <span className="field__label">Decision</span>
          <select className="input" value={rule.decision} onChange={(e) => set({ decision: e.target.value as RuleDecision })} data-testid="rule-decision">
            <option value="allow" disabled={rule.kind === "read"}>
              Allow
            </option>
            <option value="deny">Deny</option>
          </select>
        </label>
        <label className="field rule-form__narrow">
          <span className="field__label">Kind</span>
          <select
            className="input"
            value={rule.kind}
            onChange={(e) => {
              const kind = e.target.value as RuleKind;
              // Reads never ask: a read rule can only deny.
              set(kind === "read" ? { kind, decision: "deny" } : { kind });
            }}
            data-testid="rule-kind"
          >
            {(Object.keys(KIND_NAMES) as RuleKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_NAMES[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="field rule-form__narrow">
          <span className="field__label">Where</span>
          <select
            className="input"
            value={rule.project ?? ""}
            onChange={(e) => set({ project: e.target.value === "" ? null : e.target.value })}
            data-testid="rule-scope"
          >
            <option value="">Every folder</option>
            {folders.map((f) => (
              <option key={f} value={f}>
                {folderName(f)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span className="field__label">Pattern</span>
        <input
          className="input input--mono"
          value={rule.pattern}
          placeholder={KIND_PLACEHOLDERS[rule.kind]}
          onChange={(e) => set({ pattern: e.target.value })}
          data-testid="rule-pattern"
          autoFocus
        />
        <span className="field__hint">{KIND_HINTS[rule.kind]}</span>
      </label>
      {rule.kind === "command" && (
        <label className="checkbox">
          <input type="checkbox" checked={rule.exact} onChange={(e) => set({ exact: e.target.checked })} data-testid="rule-exact" />
          <span>Exactly this command, not as a prefix (rules kept from approving a command that writes are exact)</span>
        </label>
      )}
      <div className="rule-form__actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={saving || rule.pattern.trim() === ""} data-testid="rule-save">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * Settings → Approvals: the mode new sessions start in, and the rules kept from "always"
 * answers or written here. A deny rule wins over any allow rule; critical commands always
 * ask whatever the rules say.
 */
export function ApprovalsPage({ cwd }: { cwd: string | null }) {
  const { page: settings, error, setError, run } = useSettingsPage<ApprovalSettings>();
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const [confirmDangerous, setConfirmDangerous] = useState(false);

  useEffect(() => {
    void run("approval_settings", () => ipc.approvalSettings({ cwd }));
  }, [run, cwd]);

  const setMode = (mode: ApprovalMode) => void run("set_default_approval_mode", () => ipc.setDefaultApprovalMode({ mode }));
  const save = async (id: string | null, rule: RuleInput) => {
    if (await run("save_approval_rule", () => ipc.saveApprovalRule({ id, rule }))) setEditing(null);
  };

  const [exported, setExported] = useState<string | null>(null);
  const exportRules = async () => {
    try {
      const path = await pickSavePath("Export approval rules", "approval_rules.json");
      if (path === null) return;
      const count = await ipc.exportApprovalRules({ path });
      setExported(`${count} rule${count === 1 ? "" : "s"} written to ${path}`);
      setError(null);
    } catch (raised) {
      setError(toIpcError("export_approval_rules", raised).message);
    }
  };

  const asInput = (r: ApprovalRuleInfo): RuleInput => ({ decision: r.decision, kind: r.kind, pattern: r.pattern, project: r.project, exact: r.exact });

  return (
    <div className="settings-page approvals-page" data-testid="approvals-page">
      <header className="settings-page__header">
        <div>
          <h2 className="settings-page__title">Approvals</h2>
          <p className="settings-page__lead">
            When the agent asks before it edits files or runs ipc. The header switches the mode of one session; this
            is what new sessions start in.
          </p>
        </div>
      </header>
      {error && (
        <p className="form-error" role="alert" data-testid="approvals-error">
          {error}
        </p>
      )}
      {settings === null ? (
        !error && <p className="settings__empty">Loading…</p>
      ) : (
        <>
          <fieldset className="mode-choices" data-testid="default-mode">
            <legend className="field__label">Default mode</legend>
            {MODES.map((m) => (
              <label key={m} className={`mode-choice${settings.default_mode === m ? " mode-choice--on" : ""} mode-choice--${m}`}>
                <input
                  type="radio"
                  name="default-mode"
                  value={m}
                  checked={settings.default_mode === m}
                  onChange={() => (m === "dangerous" ? setConfirmDangerous(true) : setMode(m))}
                  data-testid={`default-mode-${m}`}
                />
                <span className="mode-choice__text">
                  <span className="mode-choice__name">{MODE_NAMES[m]}</span>
                  <span className="mode-choice__effect">{MODE_EFFECTS[m]}</span>
                </span>
              </label>
            ))}
          </fieldset>

          <div className="rules__head">
            <h3 className="rules__title">Rules</h3>
            <span className="rule__actions">
              {settings.rules.length > 0 && (
                <button type="button" className="button button--quiet" onClick={() => void exportRules()} data-testid="rules-export">
                  Export…
                </button>
              )}
              {editing !== "new" && (
                <button type="button" className="button" onClick={() => setEditing("new")} data-testid="rule-new">
                  Add rule
                </button>
              )}
            </span>
          </div>
          <p className="settings-page__lead rules__lead">
            Kept from “Always” answers, or written here. Deny wins over allow; critical commands always ask. Stored in{" "}
            <code>{settings.rules_path}</code>.
          </p>
          {exported && (
            <p className="settings-page__lead" role="status" data-testid="rules-exported">
              {exported}
            </p>
          )}
          {settings.rules_error && (
            <p className="form-error" role="alert" data-testid="rules-file-error">
              {settings.rules_error}
            </p>
          )}
          {editing === "new" && (
            <RuleForm initial={{ ...EMPTY_RULE, project: cwd }} cwd={cwd} submitLabel="Add rule" onSubmit={(r) => save(null, r)} onCancel={() => setEditing(null)} />
          )}
          {settings.rules.length === 0 && editing !== "new" && !settings.rules_error && (
            <p className="settings__empty" data-testid="rules-empty">
              No rules yet. Answer “Always” on an approval, or add one.
            </p>
          )}
          <ul className="rules">
            {settings.rules.map((r) =>
              editing === r.id ? (
                <li key={r.id}>
                  <RuleForm initial={asInput(r)} cwd={cwd} submitLabel="Save" onSubmit={(input) => save(r.id, input)} onCancel={() => setEditing(null)} />
                </li>
              ) : (
                <li key={r.id} className="rule" data-testid="rule" data-decision={r.decision}>
                  <span className={`badge ${r.decision === "allow" ? "badge--accent" : "badge--warn"} rule__decision`}>
                    {r.decision === "allow" ? "Allow" : "Deny"}
                  </span>
                  <span className="rule__body">
                    <span className="rule__line">
                      <span className="rule__kind">{KIND_NAMES[r.kind]}</span>
                      {r.kind === "mcp" ? (
                        // The pattern as written (`server:tool`), read as the tool is elsewhere.
                        <code className="rule__pattern" title={`rule ${r.pattern}`}>
                          {mcpRuleLabel(r.pattern)}
                        </code>
                      ) : (
                        <code className="rule__pattern">{r.pattern}</code>
                      )}
                      {r.exact && (
                        <span className="badge" title="Matches this command exactly, not as a prefix" data-testid="rule-exact-badge">
                          exactly
                        </span>
                      )}
                    </span>
                    <span className="rule__meta">
                      {r.project ? <span title={r.project}>in {folderName(r.project)}</span> : "every folder"} · {when(r.last_used_at)}
                    </span>
                  </span>
                  <span className="rule__actions">
                    <button type="button" className="button button--small" onClick={() => setEditing(r.id)} data-testid="rule-edit">
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      onClick={() => void run("delete_approval_rule", () => ipc.deleteApprovalRule({ id: r.id }))}
                      data-testid="rule-delete"
                    >
                      Delete
                    </button>
                  </span>
                </li>
              ),
            )}
          </ul>

          <h3 className="rules__title approvals-page__section">Tools offered to the model</h3>
          <p className="settings-page__lead rules__lead">
            A tool turned off is not offered to new sessions at all (config.toml&apos;s <code>disabled_tools</code>).
          </p>
          <div className="tool-switches" data-testid="tool-switches">
            {settings.tools.map((t) => (
              <label key={t.name} className="checkbox tool-switch">
                <input
                  type="checkbox"
                  checked={!t.disabled}
                  onChange={(e) =>
                    void run("set_tool_disabled", async () => {
                      await ipc.setToolDisabled({ name: t.name, disabled: !e.target.checked });
                      return ipc.approvalSettings({ cwd });
                    })
                  }
                  data-testid={`tool-${t.name}`}
                />
                <code>{t.name}</code>
              </label>
            ))}
          </div>

          {settings.imported.length > 0 && (
            <>
              <h3 className="rules__title approvals-page__section">From other agents</h3>
              <p className="settings-page__lead rules__lead">
                Claude Code&apos;s <code>permissions</code> and Gemini CLI&apos;s tool lists, read as they are. Edit them in
                their files.
              </p>
              <ul className="rules" data-testid="imported">
                {settings.imported.map((p, i) => (
                  <li key={`${p.file}:${i}`} className={`rule${p.applied ? "" : " rule--off"}`} data-testid="imported-entry" data-applied={p.applied}>
                    <span className={`badge ${p.decision === "allow" ? "badge--accent" : "badge--warn"} rule__decision`}>
                      {p.decision === "allow" ? "Allow" : "Deny"}
                    </span>
                    <span className="rule__body">
                      <span className="rule__line">
                        <code className="rule__pattern">{p.text}</code>
                      </span>
                      <span className="rule__meta">
                        {p.applied ? "" : "Not applied: "}
                        {p.effect} · <span title={p.file}>{p.file.split("/").slice(-2).join("/")}</span>
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {confirmDangerous && (
        <ConfirmDialog
          title="Start new sessions in dangerous mode?"
          message={`${MODE_EFFECTS.dangerous} Every new session in every folder would start this way, until you change it back.`}
          confirmLabel="Use dangerous mode"
          cancelLabel="Keep asking"
          danger
          onCancel={() => setConfirmDangerous(false)}
          onConfirm={() => {
            setConfirmDangerous(false);
            setMode("dangerous");
          }}
        />
      )}
    </div>
  );
}
