import { type FormEvent, type KeyboardEvent, useEffect, useState } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { isImeComposing } from "../../components/ime";
import { formatDateTime } from "../../format";
import type { ApprovalMode, ApprovalRuleInfo, ApprovalSettings, RuleDecision, RuleInput, RuleKind } from "../../gen/protocol";
import { useT } from "../../i18n";
import { ipc, pickSavePath, toIpcError } from "../../ipc";
import { MODES } from "../../state/approvalModes";
import { mcpRuleLabel } from "../../state/toolNames";
import { folderName } from "../../state/workspaces";

import { useSettingsPage } from "../settings/useSettingsPage";
import "./approvals.css";
import { PageHeader } from "../../components/PageHeader";

/** The kinds of rule, in the order the form offers them (names and hints: `kind.*` in the catalog). */
const KINDS: readonly RuleKind[] = ["command", "write", "mcp", "web", "read"];

const KIND_PLACEHOLDERS: Record<RuleKind, string> = {
  command: "cargo test",
  write: "src/**",
  mcp: "server:tool",
  web: "https://docs.rs",
  read: ".env",
};

function when(t: ReturnType<typeof useT>, seconds: number | null): string {
  if (seconds === null) return t("rules.neverUsed");
  return t("rules.used", { when: formatDateTime(seconds * 1000) });
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
  const t = useT("approvals");
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
  // Enter in the pattern saves, as in any form, but never the Enter that picks an input
  // method's candidate (a path typed in pinyin): the form does what the browser's implicit
  // submission does, a click on its submit button (nothing while it is disabled).
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (isImeComposing(event)) return;
    const field = event.target;
    if (event.key !== "Enter" || !(field instanceof HTMLInputElement) || field.type === "checkbox") return;
    event.preventDefault();
    event.currentTarget.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
  };
  // A rule for the folder it was made in keeps that folder even when another is open now.
  const folders = [...new Set([initial.project, cwd].filter((f): f is string => f !== null))];
  return (
    <form className="rule-form" onSubmit={submit} onKeyDown={onKeyDown} data-testid="rule-form">
      <div className="field-row">
        <label className="field rule-form__narrow">
          <span className="field__label">{t("form.decision")}</span>
          <select className="input" value={rule.decision} onChange={(e) => set({ decision: e.target.value as RuleDecision })} data-testid="rule-decision">
            <option value="allow" disabled={rule.kind === "read"}>
              {t("rules.allow")}
            </option>
            <option value="deny">{t("rules.deny")}</option>
          </select>
        </label>
        <label className="field rule-form__narrow">
          <span className="field__label">{t("form.kind")}</span>
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
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kind.name.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field rule-form__narrow">
          <span className="field__label">{t("form.where")}</span>
          <select
            className="input"
            value={rule.project ?? ""}
            onChange={(e) => set({ project: e.target.value === "" ? null : e.target.value })}
            data-testid="rule-scope"
          >
            <option value="">{t("form.everyFolder")}</option>
            {folders.map((f) => (
              <option key={f} value={f}>
                {folderName(f)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span className="field__label">{t("form.pattern")}</span>
        <input
          className="input input--mono"
          value={rule.pattern}
          placeholder={KIND_PLACEHOLDERS[rule.kind]}
          onChange={(e) => set({ pattern: e.target.value })}
          data-testid="rule-pattern"
          autoFocus
        />
        <span className="field__hint">{t(`kind.hint.${rule.kind}`)}</span>
      </label>
      {rule.kind === "command" && (
        <label className="checkbox">
          <input type="checkbox" checked={rule.exact} onChange={(e) => set({ exact: e.target.checked })} data-testid="rule-exact" />
          <span>{t("form.exact")}</span>
        </label>
      )}
      <div className="rule-form__actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          {t("common:cancel")}
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
  const t = useT("approvals");
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

  // What an export wrote, said in the language of the moment it is read.
  const [exported, setExported] = useState<{ count: number; path: string } | null>(null);
  const exportRules = async () => {
    try {
      const path = await pickSavePath(t("rules.exportTitle"), "approval_rules.json");
      if (path === null) return;
      const count = await ipc.exportApprovalRules({ path });
      setExported({ count, path });
      setError(null);
    } catch (raised) {
      setError(toIpcError("export_approval_rules", raised).message);
    }
  };

  const asInput = (r: ApprovalRuleInfo): RuleInput => ({ decision: r.decision, kind: r.kind, pattern: r.pattern, project: r.project, exact: r.exact });

  return (
    <div className="settings-page approvals-page" data-testid="approvals-page">
      <PageHeader title={t("title")} lead={t("lead")} />
      {error && (
        <p className="form-error" role="alert" data-testid="approvals-error">
          {error}
        </p>
      )}
      {settings === null ? (
        !error && <p className="settings__empty">{t("common:loading")}</p>
      ) : (
        <>
          <fieldset className="mode-choices" data-testid="default-mode">
            <legend className="field__label">{t("defaultMode")}</legend>
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
                  <span className="mode-choice__name">{t(`mode.name.${m}`)}</span>
                  <span className="mode-choice__effect">{t(`mode.effect.${m}`)}</span>
                </span>
              </label>
            ))}
          </fieldset>

          <div className="rules__head">
            <h3 className="rules__title">{t("rules.title")}</h3>
            <span className="rule__actions">
              {settings.rules.length > 0 && (
                <button type="button" className="button button--quiet" onClick={() => void exportRules()} data-testid="rules-export">
                  {t("rules.export")}
                </button>
              )}
              {editing !== "new" && (
                <button type="button" className="button" onClick={() => setEditing("new")} data-testid="rule-new">
                  {t("rules.add")}
                </button>
              )}
            </span>
          </div>
          <p className="settings-page__lead rules__lead">
            <Trans t={t} i18nKey="rules.lead" values={{ path: settings.rules_path }} components={{ code: <code /> }} />
          </p>
          {exported && (
            <p className="settings-page__lead" role="status" data-testid="rules-exported">
              {t("rules.exported", exported)}
            </p>
          )}
          {settings.rules_error && (
            <p className="form-error" role="alert" data-testid="rules-file-error">
              {settings.rules_error}
            </p>
          )}
          {editing === "new" && (
            <RuleForm initial={{ ...EMPTY_RULE, project: cwd }} cwd={cwd} submitLabel={t("rules.add")} onSubmit={(r) => save(null, r)} onCancel={() => setEditing(null)} />
          )}
          {settings.rules.length === 0 && editing !== "new" && !settings.rules_error && (
            <p className="settings__empty" data-testid="rules-empty">
              {t("rules.empty")}
            </p>
          )}
          <ul className="rules">
            {settings.rules.map((r) =>
              editing === r.id ? (
                <li key={r.id}>
                  <RuleForm initial={asInput(r)} cwd={cwd} submitLabel={t("common:save")} onSubmit={(input) => save(r.id, input)} onCancel={() => setEditing(null)} />
                </li>
              ) : (
                <li key={r.id} className="rule" data-testid="rule" data-decision={r.decision}>
                  <span className={`badge ${r.decision === "allow" ? "badge--accent" : "badge--warn"} rule__decision`}>
                    {r.decision === "allow" ? t("rules.allow") : t("rules.deny")}
                  </span>
                  <span className="rule__body">
                    <span className="rule__line">
                      <span className="rule__kind">{t(`kind.name.${r.kind}`)}</span>
                      {r.kind === "mcp" ? (
                        // The pattern as written (`server:tool`), read as the tool is elsewhere.
                        <code className="rule__pattern" title={t("rules.patternTitle", { pattern: r.pattern })}>
                          {mcpRuleLabel(r.pattern)}
                        </code>
                      ) : (
                        <code className="rule__pattern">{r.pattern}</code>
                      )}
                      {r.exact && (
                        <span className="badge" title={t("rules.exactTitle")} data-testid="rule-exact-badge">
                          {t("rules.exact")}
                        </span>
                      )}
                    </span>
                    <span className="rule__meta">
                      {r.project ? <span title={r.project}>{t("rules.inFolder", { folder: folderName(r.project) })}</span> : t("rules.everyFolder")} ·{" "}
                      {when(t, r.last_used_at)}
                    </span>
                  </span>
                  <span className="rule__actions">
                    <button type="button" className="button button--small" onClick={() => setEditing(r.id)} data-testid="rule-edit">
                      {t("common:edit")}
                    </button>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      onClick={() => void run("delete_approval_rule", () => ipc.deleteApprovalRule({ id: r.id }))}
                      data-testid="rule-delete"
                    >
                      {t("common:delete")}
                    </button>
                  </span>
                </li>
              ),
            )}
          </ul>

          <h3 className="rules__title approvals-page__section">{t("tools.title")}</h3>
          <p className="settings-page__lead rules__lead">
            <Trans t={t} i18nKey="tools.lead" components={{ code: <code /> }} />
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
              <h3 className="rules__title approvals-page__section">{t("imported.title")}</h3>
              <p className="settings-page__lead rules__lead">
                <Trans t={t} i18nKey="imported.lead" components={{ code: <code /> }} />
              </p>
              <ul className="rules" data-testid="imported">
                {settings.imported.map((p, i) => (
                  <li key={`${p.file}:${i}`} className={`rule${p.applied ? "" : " rule--off"}`} data-testid="imported-entry" data-applied={p.applied}>
                    <span className={`badge ${p.decision === "allow" ? "badge--accent" : "badge--warn"} rule__decision`}>
                      {p.decision === "allow" ? t("rules.allow") : t("rules.deny")}
                    </span>
                    <span className="rule__body">
                      <span className="rule__line">
                        <code className="rule__pattern">{p.text}</code>
                      </span>
                      <span className="rule__meta">
                        {p.applied ? "" : t("imported.notApplied")}
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
          title={t("mode.makeDefault.title")}
          message={t("mode.makeDefault.message", { effect: t("mode.effect.dangerous") })}
          confirmLabel={t("mode.makeDefault.confirm")}
          cancelLabel={t("mode.keepAsking")}
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
