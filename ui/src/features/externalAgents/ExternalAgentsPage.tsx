import { useEffect, useState } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageHeader } from "../../components/PageHeader";
import type { ExternalAgentCheck, ExternalAgentEntry, ExternalAgentInput, ExternalAgentPreset, ExternalAgentsPage as Page } from "../../gen/protocol";
import { useT } from "../../i18n";
import { ipc, toIpcError } from "../../ipc";
import { useSettingsPage } from "../settings/useSettingsPage";
import { ExternalAgentForm } from "./ExternalAgentForm";

import "../mcp/mcp.css";

function CheckResult({ check }: { check: ExternalAgentCheck }) {
  const t = useT("externalAgents");
  if (!check.ok) {
    return (
      <p className="form-error" data-testid="external-agent-check" data-ok="false">
        {check.error ?? t("check.failed")}
      </p>
    );
  }
  const what = check.version ? `${check.label ?? check.name} ${check.version}` : (check.label ?? check.name);
  return (
    <p className="external-agent__ok" data-testid="external-agent-check" data-ok="true">
      {t("check.ready", { what, ms: check.elapsed_ms })}
      {check.auth_methods.length > 0 && ` ${t("check.signIn", { methods: check.auth_methods.join(", ") })}`}
    </p>
  );
}

interface AgentCardProps {
  agent: ExternalAgentEntry;
  preset: ExternalAgentPreset | undefined;
  check: ExternalAgentCheck | undefined;
  checking: boolean;
  onCheck: () => void;
  onEdit: () => void;
  onRemove: () => void;
}

function AgentCard({ agent, preset, check, checking, onCheck, onEdit, onRemove }: AgentCardProps) {
  const t = useT("externalAgents");
  const line = [agent.command, ...agent.args].join(" ");
  return (
    <li className="mcp-server" data-testid="external-agent" data-name={agent.name}>
      <div className="mcp-server__head">
        <span className="mcp-server__title">
          <span className="mcp-server__name">{agent.name}</span>
          <span className="mcp-server__meta">{preset ? preset.label : t("customCommand")}</span>
        </span>
        <span className="mcp-server__status">
          {checking ? (
            <span className="badge">{t("checking")}</span>
          ) : agent.found ? (
            <span className="badge badge--ok">{t("installed")}</span>
          ) : (
            <span className="badge badge--warn" data-testid="external-agent-missing">
              {t("notInstalled")}
            </span>
          )}
        </span>
        <span className="rule__actions">
          <button type="button" className="button button--small" onClick={onCheck} disabled={checking} data-testid="external-agent-check-button">
            {t("check.button")}
          </button>
          <button type="button" className="button button--small" onClick={onEdit} data-testid="external-agent-edit">
            {t("common:edit")}
          </button>
          <button type="button" className="button button--small button--danger" onClick={onRemove} data-testid="external-agent-remove">
            {t("common:remove")}
          </button>
        </span>
      </div>
      <code className="mcp-server__command" title={line}>
        {line}
      </code>
      {!agent.found && preset && (
        <p className="mcp-server__note">
          {t("installWith")} <code>{preset.install}</code>
        </p>
      )}
      {agent.secrets.length > 0 && (
        <div className="mcp-server__values">
          {agent.secrets.map((s) => (
            <span key={s.name} className={`mcp-value${s.stored ? "" : " mcp-value--missing"}`}>
              <code>{s.name}</code>
              <span className="mcp-value__where">{s.stored ? t("keychain") : t("missingFromKeychain")}</span>
            </span>
          ))}
        </div>
      )}
      {check && <CheckResult check={check} />}
    </li>
  );
}

/**
 * Settings → External agents: other agents (Claude Code, Codex, Gemini CLI, OpenCode,
 * Goose…) that Memo runs over the Agent Client Protocol, under its own approvals and
 * checkpoints. Memo never installs them: a preset shows the command that does.
 */
export function ExternalAgentsPage() {
  const t = useT("externalAgents");
  const { page, error, setError, run } = useSettingsPage<Page>();
  const [adding, setAdding] = useState<ExternalAgentPreset | "custom" | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [checks, setChecks] = useState<Record<string, ExternalAgentCheck>>({});
  const [checking, setChecking] = useState<string | null>(null);

  useEffect(() => {
    void run("external_agents_page", () => ipc.externalAgentsPage());
  }, [run]);

  const save = async (input: ExternalAgentInput, isEdit: boolean) => {
    if (await run("save_external_agent", () => ipc.saveExternalAgent({ input, editing: isEdit }))) {
      setAdding(null);
      setEditing(null);
      setChecks((c) => Object.fromEntries(Object.entries(c).filter(([n]) => n !== input.name)));
    }
  };

  const check = async (name: string) => {
    setChecking(name);
    try {
      const found = await ipc.checkExternalAgent({ name });
      setChecks((c) => ({ ...c, [name]: found }));
      setError(null);
    } catch (raised) {
      setError(toIpcError("check_external_agent", raised).message);
    } finally {
      setChecking(null);
    }
  };

  const presetOf = (agent: ExternalAgentEntry) => page?.presets.find((p) => p.id === agent.preset);
  return (
    <div className="settings-page mcp-page" data-testid="external-agents-page">
      <PageHeader title={t("title")} lead={t("lead")} />
      {error && (
        <p className="form-error" role="alert" data-testid="external-agents-error">
          {error}
        </p>
      )}
      {page === null ? (
        !error && <p className="settings__empty">{t("common:loading")}</p>
      ) : (
        <>
          {adding === null && (
            <div className="external-agents__presets" data-testid="external-agent-presets">
              <span className="field__label">{t("addOne")}</span>
              <div className="rule__actions">
                {page.presets.map((p) => (
                  <button
                    key={p.id}
                    type="button"
                    className="button button--small"
                    onClick={() => setAdding(p)}
                    disabled={page.agents.some((a) => a.name === p.id)}
                    data-testid={`external-agent-preset-${p.id}`}
                  >
                    {p.label}
                  </button>
                ))}
                <button type="button" className="button button--small" onClick={() => setAdding("custom")} data-testid="external-agent-preset-custom">
                  {t("custom")}
                </button>
              </div>
            </div>
          )}
          {adding !== null && (
            <ExternalAgentForm
              entry={null}
              preset={adding === "custom" ? null : adding}
              onSubmit={(input) => save(input, false)}
              onCancel={() => setAdding(null)}
            />
          )}
          {page.agents.length === 0 && adding === null && (
            <p className="settings__empty" data-testid="external-agents-empty">
              {t("empty")}
            </p>
          )}
          <ul className="mcp-servers">
            {page.agents.map((agent) =>
              editing === agent.name ? (
                <li key={agent.name}>
                  <ExternalAgentForm entry={agent} preset={presetOf(agent) ?? null} onSubmit={(input) => save(input, true)} onCancel={() => setEditing(null)} />
                </li>
              ) : (
                <AgentCard
                  key={agent.name}
                  agent={agent}
                  preset={presetOf(agent)}
                  check={checks[agent.name]}
                  checking={checking === agent.name}
                  onCheck={() => void check(agent.name)}
                  onEdit={() => setEditing(agent.name)}
                  onRemove={() => setRemoving(agent.name)}
                />
              ),
            )}
          </ul>
          <p className="settings-page__lead mcp-page__footer">
            <Trans t={t} i18nKey="footer" values={{ path: page.config_path }} components={{ code: <code /> }} />
          </p>
        </>
      )}
      {removing !== null && (
        <ConfirmDialog
          title={t("remove.title", { name: removing })}
          message={t("remove.message")}
          confirmLabel={t("common:remove")}
          cancelLabel={t("remove.keep")}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            void run("remove_external_agent", () => ipc.removeExternalAgent({ name }));
          }}
        />
      )}
    </div>
  );
}
