// The external agent's own settings in the session's header: its mode, its model, its
// thinking level… one menu each, as the agent words them. A pick is sent to the engine; the
// menus show what the agent answers (the engine's `external_agent_settings`), never the
// pick itself, so a refused pick springs back.
import { useTranslation } from "react-i18next";

import type { AgentSetting } from "../../gen/protocol";

interface AgentSettingsPickerProps {
  /** The agent's name in config.toml. */
  agent: string;
  settings: AgentSetting[];
  onPick: (setting: string, value: string) => void;
  /** The pills show icons only (a crowded header): the menus stay, narrower. */
  compact?: boolean;
}

export function AgentSettingsPicker({ agent, settings, onPick, compact = false }: AgentSettingsPickerProps) {
  const { t } = useTranslation("chat");
  if (settings.length === 0) return null;
  return (
    <span className="agent-settings" data-testid="agent-settings">
      {settings.map((setting) => {
        const current = setting.choices.find((c) => c.value === setting.current);
        const title = t("header.agentSettingTitle", {
          agent,
          name: setting.name,
          value: current?.name ?? setting.current,
        });
        return (
          <label
            key={setting.id}
            className={`model-pill model-pill--choice agent-setting${compact ? " agent-setting--compact" : ""}`}
            title={current?.description ? `${title}\n${current.description}` : title}
          >
            {!compact && <span className="agent-setting__name">{setting.name}</span>}
            <select
              className="model-pill__select"
              aria-label={t("header.agentSetting", { agent, name: setting.name })}
              data-testid={`agent-setting-${setting.id}`}
              value={setting.current}
              onChange={(event) => onPick(setting.id, event.target.value)}
            >
              {current === undefined && <option value={setting.current}>{setting.current}</option>}
              {setting.choices.map((choice) => (
                <option key={choice.value} value={choice.value} title={choice.description}>
                  {choice.name}
                </option>
              ))}
            </select>
          </label>
        );
      })}
    </span>
  );
}
