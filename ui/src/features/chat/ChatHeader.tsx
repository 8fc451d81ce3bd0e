import { useRef } from "react";
import { useTranslation } from "react-i18next";

import { IconOnlyContext } from "../../components/iconOnly";
import { KeyIcon, ModelIcon } from "../../components/icons";
import type { AgentSetting, ProviderSummary, SessionSummary } from "../../gen/protocol";
import { externalAgentChoice, externalAgentOf } from "../../state/externalAgents";
import type { McpServerView } from "../../state/transcript";
import type { Loadable } from "../../state/useLoadable";
import { folderName } from "../../state/workspaces";
import { AgentSettingsPicker } from "./AgentSettingsPicker";
import { useHeaderFit } from "./useHeaderFit";

interface ChatHeaderProps {
  cwd: string | null;
  session: SessionSummary | null;
  providers: Loadable<ProviderSummary[]>;
  /** The session's MCP servers and their latest state. */
  mcp?: McpServerView[];
  /** The provider chosen for the next new session (null: the config's current one). */
  nextProvider?: string | null;
  /** Offered before a session starts when config.toml has several providers. */
  onChooseProvider?: (name: string) => void;
  /** External agents (config.toml's `[external_agents]`), offered for a new session. */
  externalAgents?: string[];
  /** Opens the API key panel of the provider in use. */
  onManageKey?: (() => void) | undefined;
  /** Switches the open session to another provider for its next turns. */
  onSwitchModel?: ((provider: string) => void) | undefined;
  /** A turn is running: the session's model cannot change now. */
  busy?: boolean;
  /** Why the model could not be reached last time (the dot turns red), if it could not. */
  modelProblem?: string | null;
  /** The session's context meter (absent before a session exists). */
  meter?: React.ReactNode;
  /** Shows the prompt inspector when there is no meter yet (a new session). */
  onOpenInspector?: (() => void) | undefined;
  /** The changes panel's toggle (absent before a session exists). */
  changes?: React.ReactNode;
  /** The approval mode control. */
  mode?: React.ReactNode;
  /** An external agent's own settings (its mode, model…), shown beside its name. */
  agentSettings?: AgentSetting[];
  onSetAgentSetting?: ((setting: string, value: string) => void) | undefined;
}

/** The model a new session would use: the config's current provider. */
function currentProvider(providers: Loadable<ProviderSummary[]>): ProviderSummary | null {
  if (providers.status !== "ready") return null;
  return providers.value.find((p) => p.is_current) ?? null;
}

export function ChatHeader({
  cwd,
  session,
  providers,
  mcp = [],
  nextProvider = null,
  onChooseProvider,
  externalAgents = [],
  onManageKey,
  onSwitchModel,
  busy = false,
  modelProblem = null,
  meter,
  onOpenInspector,
  changes,
  mode,
  agentSettings = [],
  onSetAgentSetting,
}: ChatHeaderProps) {
  // The language too: the pills' words change their width with it.
  const { t, i18n } = useTranslation("chat");
  const dotClass = `model-pill__dot${modelProblem ? " model-pill__dot--error" : ""}`;
  // A session keeps the model it started with, whatever the config says now.
  const chosen =
    providers.status === "ready" && nextProvider !== null ? providers.value.find((p) => p.name === nextProvider) : undefined;
  const chosenAgent = session === null ? externalAgentOf(nextProvider) : null;
  const current = chosenAgent !== null ? null : (chosen ?? currentProvider(providers));
  const choices = session === null && onChooseProvider && providers.status === "ready" ? providers.value : [];
  const agents = session === null && onChooseProvider ? externalAgents : [];
  const sessionAgent = session ? externalAgentOf(session.provider) : null;
  const model = session
    ? sessionAgent !== null
      ? { provider: sessionAgent, model: session.model, detail: t("header.externalAgentDetail", { name: sessionAgent, label: session.model }) }
      : { provider: session.provider, model: session.model, detail: `${session.provider} · ${session.model}` }
    : chosenAgent !== null
      ? { provider: chosenAgent, model: chosenAgent, detail: t("header.externalAgentDetail", { name: chosenAgent, label: chosenAgent }) }
      : current
        ? { provider: current.name, model: current.model, detail: `${current.name} (${current.api}) · ${current.base_url}` }
        : null;
  const headerRef = useRef<HTMLElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The folder's name goes last: when the bar is crowded (two providers, MCP servers, a
  // drawer open beside the conversation) the pickers and pills show their icons alone.
  const fitKey = [i18n.language, cwd, mcp.map((m) => `${m.name}:${m.status}`).join(","), choices.length, agents.length, model?.detail, providers.status, agentSettings.map((s) => s.current).join(",")].join("|");
  const iconOnly = useHeaderFit(headerRef, titleRef, fitKey);
  const pillClass = (extra: string) => `model-pill${extra}${iconOnly ? " model-pill--icon" : ""}`;
  const selectClass = `model-pill__select${iconOnly ? " model-pill__select--over" : ""}`;
  const pillIcon = iconOnly && <ModelIcon className="model-pill__icon" />;
  const pickedTitle = (label: string | undefined, why: string) => (iconOnly && label ? `${label}\n${why}` : why);

  return (
    <IconOnlyContext.Provider value={iconOnly}>
    <header className={`chat__header${iconOnly ? " chat__header--icons" : ""}`} ref={headerRef} data-fit={iconOnly ? "icons" : "full"}>
      <div className="chat__heading">
        <h1 className="chat__title" data-testid="chat-title" ref={titleRef} title={cwd ?? undefined}>
          {cwd ? folderName(cwd) : t("header.noFolder")}
        </h1>
        {cwd && (
          <span className="chat__path" title={cwd}>
            {cwd}
          </span>
        )}
      </div>
      {mcp.length > 0 && (
        <span className="mcp-pills" aria-label={t("header.mcpServers")}>
          {mcp.map((server) => {
            const tools = t("header.mcpTools", { tools: server.tools });
            const state = server.status === "ready" ? tools : t(`header.mcpState.${server.status}`);
            const detail = server.message ?? tools;
            const said = t("header.mcpServerState", { name: server.name, state });
            return iconOnly ? (
              <span
                key={server.name}
                className={`mcp-pill mcp-pill--${server.status} mcp-pill--icon`}
                data-testid="mcp-server"
                data-status={server.status}
                role="img"
                aria-label={t("header.mcpServer", { name: server.name, state })}
                title={server.message ? `${said}\n${server.message}` : said}
              >
                <span className="mcp-pill__dot" aria-hidden="true" />
              </span>
            ) : (
              <span
                key={server.name}
                className={`mcp-pill mcp-pill--${server.status}`}
                data-testid="mcp-server"
                data-status={server.status}
                title={detail}
              >
                <span className="mcp-pill__dot" aria-hidden="true" />
                {server.name}
                <span className="mcp-pill__state">{state}</span>
              </span>
            );
          })}
        </span>
      )}
      {mode}
      {session !== null && sessionAgent === null && onSwitchModel && providers.status === "ready" && providers.value.length > 0 ? (
        <label
          className={pillClass(" model-pill--choice")}
          title={pickedTitle(
            `${session.provider} · ${session.model}`,
            modelProblem ??
              (busy ? t("header.modelBusy") : t("header.switchModel")),
          )}
          data-health={modelProblem ? "failing" : "ok"}
        >
          <span className={dotClass} aria-hidden="true" />
          {pillIcon}
          <select
            className={selectClass}
            aria-label={t("header.sessionModel")}
            data-testid="session-model-select"
            value={`${session.provider}\u0000${session.model}`}
            disabled={busy}
            onChange={(event) => onSwitchModel(event.target.value.split("\u0000")[0] ?? "")}
          >
            {!providers.value.some((p) => p.name === session.provider && p.model === session.model) && (
              <option value={`${session.provider}\u0000${session.model}`}>
                {session.provider} · {session.model}
              </option>
            )}
            {providers.value.map((p) => (
              <option key={p.name} value={`${p.name}\u0000${p.model}`}>
                {p.name} · {p.model}
              </option>
            ))}
          </select>
        </label>
      ) : choices.length + agents.length > 1 && onChooseProvider ? (
        <label
          className={pillClass(" model-pill--choice")}
          title={pickedTitle(current ? `${current.name} · ${current.model}` : undefined, t("header.newSessionModelTitle"))}
        >
          <span className="model-pill__dot" aria-hidden="true" />
          {pillIcon}
          <select
            className={selectClass}
            aria-label={t("header.newSessionModel")}
            data-testid="model-select"
            value={chosenAgent !== null ? externalAgentChoice(chosenAgent) : (current?.name ?? "")}
            onChange={(event) => onChooseProvider(event.target.value)}
          >
            {current === null && chosenAgent === null && <option value="">{t("header.chooseModel")}</option>}
            {choices.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} · {p.model}
              </option>
            ))}
            {agents.length > 0 && (
              <optgroup label={t("header.externalAgents")} data-testid="external-agent-options">
                {agents.map((name) => (
                  <option key={name} value={externalAgentChoice(name)}>
                    {name}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
      ) : model ? (
        <span
          className={pillClass("")}
          data-testid="chat-model"
          title={pickedTitle(model.detail, modelProblem ?? model.detail)}
          data-health={modelProblem ? "failing" : "ok"}
          {...(iconOnly ? { role: "img", "aria-label": t("header.model", { provider: model.provider, model: model.model }) } : {})}
        >
          <span className={dotClass} aria-hidden="true" />
          {iconOnly ? (
            pillIcon
          ) : (
            <>
              <span className="model-pill__provider">{model.provider}</span>
              <span className="model-pill__model">{model.model}</span>
            </>
          )}
        </span>
      ) : (
        providers.status !== "loading" && (
          <span className="model-pill model-pill--none" data-testid="chat-model" title={t("header.setCurrentProvider")}>
            {providers.status === "ready" && providers.value.length > 0 ? t("header.noCurrentProvider") : t("header.noModel")}
          </span>
        )
      )}
      {sessionAgent !== null && onSetAgentSetting && (
        <AgentSettingsPicker agent={sessionAgent} settings={agentSettings} onPick={onSetAgentSetting} compact={iconOnly} />
      )}
      {meter ??
        (onOpenInspector && (
          <button
            type="button"
            className="context-meter"
            onClick={onOpenInspector}
            title={t("header.inspectorTitle")}
            data-testid="open-inspector"
          >
            {t("header.prompt")}
          </button>
        ))}
      {changes}
      {onManageKey && (
        <button
          type="button"
          className="icon-button"
          title={t("header.apiKey")}
          aria-label={t("header.apiKey")}
          data-testid="api-key-button"
          onClick={onManageKey}
        >
          <KeyIcon />
        </button>
      )}
    </header>
    </IconOnlyContext.Provider>
  );
}
