import { type FormEvent, useState } from "react";

import { LinesField } from "../../components/LinesField";
import { SecretRows, submitOnEnter, type SecretRow } from "../../components/SecretRows";
import type { ExternalAgentEntry, ExternalAgentInput, ExternalAgentPreset } from "../../gen/protocol";
import { useT } from "../../i18n";


/** What the fields' placeholders show: names, the same in every language. */
const EXAMPLE = {
  name: "claude-code",
  command: "claude-code-acp",
  env: "DISABLE_TELEMETRY=1",
  secret: "ANTHROPIC_API_KEY",
};

/** `NAME=value` lines as the page shows plain env values. */
function envText(entry: ExternalAgentEntry | null): string {
  return (entry?.env ?? []).map((v) => `${v.name}=${v.value}`).join("\n");
}

function envOf(text: string): { name: string; value: string }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line.includes("="))
    .map((line) => {
      const at = line.indexOf("=");
      return { name: line.slice(0, at).trim(), value: line.slice(at + 1) };
    });
}

interface ExternalAgentFormProps {
  /** The agent being edited, or null to add one. */
  entry: ExternalAgentEntry | null;
  /** A preset the new agent starts from. */
  preset: ExternalAgentPreset | null;
  onSubmit: (input: ExternalAgentInput) => Promise<void>;
  onCancel: () => void;
}

/**
 * Adds or edits an external agent of config.toml: the command that starts its ACP mode,
 * its arguments, plain environment values, and secret ones, which go to the OS keychain
 * (config.toml only names them; a stored value is never shown, a row left empty keeps it).
 */
export function ExternalAgentForm({ entry, preset, onSubmit, onCancel }: ExternalAgentFormProps) {
  const t = useT("externalAgents");
  const [name, setName] = useState(entry?.name ?? preset?.id ?? "");
  const [command, setCommand] = useState(entry?.command ?? preset?.command ?? "");
  const [args, setArgs] = useState((entry?.args ?? preset?.args ?? []).join("\n"));
  const [env, setEnv] = useState(envText(entry));
  const [secrets, setSecrets] = useState<SecretRow[]>(
    entry
      ? entry.secrets.map((s) => ({ name: s.name, value: "", stored: s.stored }))
      : (preset?.secrets ?? []).map((name) => ({ name, value: "", stored: false })),
  );
  const [offerMcp, setOfferMcp] = useState(entry?.offer_mcp_servers ?? true);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onSubmit({
        name: name.trim(),
        command: command.trim(),
        args: args.split("\n").map((a) => a.trim()).filter((a) => a !== ""),
        env: envOf(env),
        secrets: secrets
          .filter((r) => r.name.trim() !== "")
          .map((r) => (r.value === "" ? { name: r.name.trim() } : { name: r.name.trim(), value: r.value })),
        offer_mcp_servers: offerMcp,
      });
    } finally {
      setSaving(false);
    }
  };

  const blocked = name.trim() === "" ? t("form.needs.name") : command.trim() === "" ? t("form.needs.command") : null;
  return (
    <form className="mcp-form" onSubmit={submit} onKeyDown={submitOnEnter} data-testid="external-agent-form">
      {preset && !entry && (
        <p className="settings-page__lead" data-testid="external-agent-install">
          {t("form.installFirst", { label: preset.label })} <code>{preset.install}</code>
        </p>
      )}
      <div className="field-row">
        <label className="field">
          <span className="field__label">{t("form.name")}</span>
          <input
            className="input input--mono"
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={entry !== null}
            placeholder={EXAMPLE.name}
            data-testid="external-agent-name"
            autoFocus={entry === null}
          />
          <span className="field__hint">{t("form.nameHint")}</span>
        </label>
        <label className="field">
          <span className="field__label">{t("form.command")}</span>
          <input
            className="input input--mono"
            value={command}
            onChange={(e) => setCommand(e.target.value)}
            placeholder={EXAMPLE.command}
            data-testid="external-agent-command"
          />
        </label>
      </div>
      <LinesField
        label={t("form.arguments")}
        hint={t("form.argumentsHint")}
        value={args}
        onChange={setArgs}
        testId="external-agent-args"
      />
      <LinesField
        label={t("form.env")}
        hint={t("form.envHint")}
        value={env}
        onChange={setEnv}
        placeholder={EXAMPLE.env}
        testId="external-agent-env"
      />
      <div className="field">
        <span className="field__label">{t("form.secrets")}</span>
        <SecretRows
          rows={secrets}
          onChange={setSecrets}
          namePlaceholder={EXAMPLE.secret}
          nameLabel={t("form.variableName")}
          valueLabel={t("form.value")}
          storedPlaceholder={t("form.storedValue")}
          addLabel={t("form.addSecret")}
          testId="external-agent-secret"
        />
        <span className="field__hint">{t("form.secretsHint")}</span>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={offerMcp} onChange={(e) => setOfferMcp(e.target.checked)} data-testid="external-agent-offer-mcp" />
        {t("form.offerMcp")}
      </label>
      <span className="field__hint">{t("form.offerMcpHint")}</span>
      {blocked !== null && <p className="form-missing">{blocked}</p>}
      <div className="rule-form__actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          {t("common:cancel")}
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={saving || blocked !== null}
          title={blocked ?? undefined}
          data-testid="external-agent-save"
        >
          {entry ? t("common:save") : t("add")}
        </button>
      </div>
    </form>
  );
}
