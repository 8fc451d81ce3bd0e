import { useEffect, useState, type FormEvent } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { PluginInfo, PluginInstall, PluginsPage as PluginsList } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { ipc, pickFolder, toIpcError } from "../../ipc";
import { useSettingsPage } from "../settings/useSettingsPage";

import "./plugins.css";
import { PageHeader } from "../../components/PageHeader";

type SourceKind = PluginInstall["type"];

/** "2 commands", "1 skill": what a plugin brings, in one short phrase per kind. */
function count(n: number, kind: "commands" | "skills" | "agents" | "hooks" | "mcpServers"): string | false {
  return n > 0 && translate(`plugins:count.${kind}`, { count: n });
}

function summary(plugin: PluginInfo): string {
  const parts = [
    count(plugin.commands.length, "commands"),
    count(plugin.skills.length, "skills"),
    count(plugin.agents.length, "agents"),
    count(plugin.hooks.length, "hooks"),
    count(plugin.mcp_servers.length, "mcpServers"),
  ].filter((p): p is string => typeof p === "string");
  return parts.length > 0 ? parts.join(" · ") : translate("plugins:nothingYet");
}

interface InstallFormProps {
  busy: boolean;
  /** The last install failure, shown under the form; null when there is none. */
  error: string | null;
  /** A plugin of the same name is installed: the form offers to replace it. */
  conflict: boolean;
  onInstall: (source: PluginInstall, replace: boolean) => void;
}

function InstallForm({ busy, error, conflict, onInstall }: InstallFormProps) {
  const t = useT("plugins");
  const [kind, setKind] = useState<SourceKind>("folder");
  const [value, setValue] = useState("");
  const source = (): PluginInstall => (kind === "folder" ? { type: "folder", path: value.trim() } : { type: "git", url: value.trim() });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() !== "") onInstall(source(), false);
  };
  const browse = async () => {
    try {
      const picked = await pickFolder();
      if (picked !== null) setValue(picked);
    } catch {
      // No picker (or it failed): the path can still be typed.
    }
  };
  return (
    <form className="plugin-install" onSubmit={submit} data-testid="plugin-install">
      <div className="plugin-install__kinds" role="radiogroup" aria-label={t("install.from")}>
        {(["folder", "git"] as const).map((k) => (
          <label key={k} className={`plugin-install__kind${kind === k ? " plugin-install__kind--active" : ""}`}>
            <input
              type="radio"
              name="plugin-source"
              value={k}
              checked={kind === k}
              onChange={() => setKind(k)}
              data-testid={`plugin-source-${k}`}
            />
            {k === "folder" ? t("install.folder") : t("install.git")}
          </label>
        ))}
      </div>
      <div className="plugin-install__row">
        <input
          className="input plugin-install__input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={kind === "folder" ? t("install.folderPlaceholder") : t("install.gitPlaceholder")}
          aria-label={kind === "folder" ? t("install.folderLabel") : t("install.git")}
          spellCheck={false}
          data-testid="plugin-source-input"
        />
        {kind === "folder" && (
          <button type="button" className="button" onClick={browse} disabled={busy} data-testid="plugin-browse">
            {t("install.browse")}
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy || value.trim() === ""} data-testid="plugin-install-submit">
          {busy ? (kind === "git" ? t("install.cloning") : t("install.installing")) : t("install.install")}
        </button>
      </div>
      {error !== null && (
        <div className="plugin-install__error" role="alert" data-testid="plugin-install-error">
          <span className="form-error">{error}</span>
          {conflict && (
            <button type="button" className="button button--small" onClick={() => onInstall(source(), true)} disabled={busy} data-testid="plugin-replace">
              {t("install.replace")}
            </button>
          )}
        </div>
      )}
    </form>
  );
}

interface PartListProps {
  title: string;
  items: { key: string; name: string; detail: string | null }[];
  testId: string;
}

function PartList({ title, items, testId }: PartListProps) {
  if (items.length === 0) return null;
  return (
    <div className="plugin-parts__group" data-testid={testId}>
      <h4 className="plugin-parts__title">{title}</h4>
      <ul className="plugin-parts__list">
        {items.map((item) => (
          <li key={item.key} className="plugin-part">
            <code className="plugin-part__name">{item.name}</code>
            {item.detail && <span className="plugin-part__detail">{item.detail}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

interface PluginCardProps {
  plugin: PluginInfo;
  onEnabled: (enabled: boolean) => void;
  onRemove: () => void;
}

function PluginCard({ plugin, onEnabled, onRemove }: PluginCardProps) {
  const t = useT("plugins");
  const [open, setOpen] = useState(true);
  return (
    <li className={`plugin${plugin.enabled ? "" : " plugin--off"}`} data-testid="plugin" data-name={plugin.name} data-enabled={plugin.enabled}>
      <div className="plugin__head">
        <label className="mcp-switch" title={plugin.enabled ? t("card.switchOn") : t("card.switchOff")}>
          <input
            type="checkbox"
            role="switch"
            checked={plugin.enabled}
            onChange={(e) => onEnabled(e.target.checked)}
            aria-label={t("card.use", { name: plugin.name })}
            data-testid="plugin-enabled"
          />
          <span className="mcp-switch__track" aria-hidden />
        </label>
        <span className="plugin__title">
          <span className="plugin__name">
            {plugin.name}
            {plugin.version && <span className="plugin__version">{plugin.version}</span>}
          </span>
          {plugin.description && <span className="plugin__description">{plugin.description}</span>}
        </span>
        <span className="rule__actions">
          <button type="button" className="button button--small" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="plugin-details">
            {open ? t("card.hideParts") : t("card.showParts")}
          </button>
          {/* Claude Code's copy is Claude Code's to remove; Memo only turns it off for itself. */}
          {plugin.source_kind === "claude_code" ? (
            <span className="plugin__managed" data-testid="plugin-managed" title={t("card.removeInClaudeCode")}>
              {t("card.managed")}
            </span>
          ) : (
            <button type="button" className="button button--small button--danger" onClick={onRemove} data-testid="plugin-remove">
              {t("common:remove")}
            </button>
          )}
        </span>
      </div>
      <div className="plugin__meta">
        <span className="badge" title={plugin.source}>
          {t(`source.${plugin.source_kind}`)}
        </span>
        <span
          className="plugin__source"
          title={
            plugin.source_kind === "claude_code"
              ? t("card.claudeCodeCopy", { path: plugin.path })
              : t("card.installedIn", { path: plugin.path })
          }
          data-testid="plugin-source"
        >
          {plugin.source}
        </span>
        {plugin.for_folder && (
          <span className="plugin__folder" title={t("card.forFolderTitle", { folder: plugin.for_folder })} data-testid="plugin-folder">
            {t("card.forFolder", { folder: plugin.for_folder })}
          </span>
        )}
        {plugin.author && <span className="plugin__author">{t("card.by", { author: plugin.author })}</span>}
        <span className="plugin__summary" data-testid="plugin-summary">
          {summary(plugin)}
        </span>
      </div>
      {plugin.problems.length > 0 && (
        <ul className="plugin__problems" data-testid="plugin-problems">
          {plugin.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {open && (
        <div className="plugin-parts" data-testid="plugin-parts">
          <PartList
            title={t("parts.commands")}
            testId="plugin-commands"
            items={plugin.commands.map((c) => ({ key: c.path + c.name, name: `/${c.name}`, detail: c.description }))}
          />
          <PartList
            title={t("parts.skills")}
            testId="plugin-skills"
            items={plugin.skills.map((s) => ({ key: s.path, name: s.name, detail: s.description }))}
          />
          <PartList
            title={t("parts.agents")}
            testId="plugin-agents"
            items={plugin.agents.map((a) => ({ key: a.path, name: a.name, detail: a.description }))}
          />
          <PartList
            title={t("parts.hooks")}
            testId="plugin-hooks"
            items={plugin.hooks.map((h, i) => ({
              key: `${h.event}:${i}`,
              name: h.matcher ? `${h.event} ${h.matcher}` : h.event,
              detail: h.command,
            }))}
          />
          <PartList
            title={t("parts.servers")}
            testId="plugin-servers"
            items={plugin.mcp_servers.map((s) => ({ key: s.name, name: s.name, detail: `${s.transport} · ${s.target}` }))}
          />
        </div>
      )}
    </li>
  );
}

/**
 * Settings → Plugins: Claude Code plugins installed into Memo's home, and those Claude
 * Code installed itself (used where they are), each with what it
 * brings under its namespace, a switch, and removal; and the form to install one from a
 * folder or a git URL. Changes count from the next session on.
 */
export function PluginsPage() {
  const t = useT("plugins");
  const { page, error, setError, run } = useSettingsPage<PluginsList>();
  const [installError, setInstallError] = useState<{ message: string; conflict: boolean } | null>(null);
  const [installing, setInstalling] = useState(false);
  const [removing, setRemoving] = useState<PluginInfo | null>(null);

  useEffect(() => {
    void run("list_plugins", () => ipc.listPlugins());
  }, [run]);

  const install = async (source: PluginInstall, replace: boolean) => {
    setInstalling(true);
    setInstallError(null);
    try {
      const next = await ipc.installPlugin({ source, replace });
      await run("install_plugin", async () => next);
    } catch (raised) {
      const failure = toIpcError("install_plugin", raised);
      setInstallError({ message: failure.message, conflict: failure.code === "conflict" });
    } finally {
      setInstalling(false);
    }
  };

  return (
    <div className="settings-page plugins-page" data-testid="plugins-page">
      <PageHeader title={t("title")} lead={<Trans t={t} i18nKey="lead" components={{ code: <code /> }} />} />
      <InstallForm busy={installing} error={installError?.message ?? null} conflict={installError?.conflict ?? false} onInstall={install} />
      {error && (
        <p className="form-error" role="alert" data-testid="plugins-error">
          {error}
          <button type="button" className="button button--small button--quiet" onClick={() => setError(null)}>
            {t("dismiss")}
          </button>
        </p>
      )}
      {page === null ? (
        !error && <p className="settings__empty">{t("common:loading")}</p>
      ) : page.plugins.length === 0 ? (
        <div className="mcp-empty" data-testid="plugins-empty">
          <p className="mcp-empty__title">{t("empty.title")}</p>
          <p className="settings__empty">
            <Trans t={t} i18nKey="empty.body" values={{ dir: page.dir }} components={{ code: <code /> }} />
          </p>
        </div>
      ) : (
        <ul className="plugins">
          {page.plugins.map((plugin) => (
            <PluginCard
              key={`${plugin.name}\u0000${plugin.for_folder ?? ""}`}
              plugin={plugin}
              onEnabled={(enabled) => void run("set_plugin_enabled", () => ipc.setPluginEnabled({ name: plugin.name, enabled }))}
              onRemove={() => setRemoving(plugin)}
            />
          ))}
        </ul>
      )}
      {removing !== null && (
        <ConfirmDialog
          title={t("remove.title", { name: removing.name })}
          message={
            removing.source_kind === "folder"
              ? t("remove.folder", { path: removing.path, source: removing.source })
              : t("remove.repository", { path: removing.path })
          }
          confirmLabel={t("common:remove")}
          cancelLabel={t("remove.keep")}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing.name;
            setRemoving(null);
            void run("remove_plugin", () => ipc.removePlugin({ name }));
          }}
        />
      )}
    </div>
  );
}
