import { useEffect, useState, type FormEvent } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { PluginInfo, PluginInstall, PluginsPage as PluginsList } from "../../gen/protocol";
import { ipc, pickFolder, toIpcError } from "../../ipc";
import { useSettingsPage } from "../settings/useSettingsPage";

import "./plugins.css";

type SourceKind = PluginInstall["type"];

/** "2 commands", "1 skill": what a plugin brings, in one short phrase per kind. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function summary(plugin: PluginInfo): string {
  const parts = [
    plugin.commands.length > 0 && count(plugin.commands.length, "command", "commands"),
    plugin.skills.length > 0 && count(plugin.skills.length, "skill", "skills"),
    plugin.agents.length > 0 && count(plugin.agents.length, "agent", "agents"),
    plugin.hooks.length > 0 && count(plugin.hooks.length, "hook", "hooks"),
    plugin.mcp_servers.length > 0 && count(plugin.mcp_servers.length, "MCP server", "MCP servers"),
  ].filter((p): p is string => typeof p === "string");
  return parts.length > 0 ? parts.join(" · ") : "Nothing to use yet";
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
      <div className="plugin-install__kinds" role="radiogroup" aria-label="Install from">
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
            {k === "folder" ? "Folder" : "Git URL"}
          </label>
        ))}
      </div>
      <div className="plugin-install__row">
        <input
          className="input plugin-install__input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={kind === "folder" ? "/path/to/plugin (has .claude-plugin/plugin.json)" : "https://github.com/owner/plugin.git"}
          aria-label={kind === "folder" ? "Plugin folder" : "Git URL"}
          spellCheck={false}
          data-testid="plugin-source-input"
        />
        {kind === "folder" && (
          <button type="button" className="button" onClick={browse} disabled={busy} data-testid="plugin-browse">
            Browse…
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy || value.trim() === ""} data-testid="plugin-install-submit">
          {busy ? (kind === "git" ? "Cloning…" : "Installing…") : "Install"}
        </button>
      </div>
      {error !== null && (
        <div className="plugin-install__error" role="alert" data-testid="plugin-install-error">
          <span className="form-error">{error}</span>
          {conflict && (
            <button type="button" className="button button--small" onClick={() => onInstall(source(), true)} disabled={busy} data-testid="plugin-replace">
              Replace the installed one
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
  const [open, setOpen] = useState(true);
  return (
    <li className={`plugin${plugin.enabled ? "" : " plugin--off"}`} data-testid="plugin" data-name={plugin.name} data-enabled={plugin.enabled}>
      <div className="plugin__head">
        <label className="mcp-switch" title={plugin.enabled ? "On: its parts are in new sessions" : "Off: not used"}>
          <input
            type="checkbox"
            role="switch"
            checked={plugin.enabled}
            onChange={(e) => onEnabled(e.target.checked)}
            aria-label={`Use ${plugin.name}`}
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
            {open ? "Hide parts" : "Show parts"}
          </button>
          {/* Claude Code's copy is Claude Code's to remove; Memo only turns it off for itself. */}
          {plugin.source_kind === "claude_code" ? (
            <span className="plugin__managed" data-testid="plugin-managed" title="Remove it in Claude Code (/plugin)">
              Managed by Claude Code
            </span>
          ) : (
            <button type="button" className="button button--small button--danger" onClick={onRemove} data-testid="plugin-remove">
              Remove
            </button>
          )}
        </span>
      </div>
      <div className="plugin__meta">
        <span className="badge" title={plugin.source}>
          {SOURCE_BADGE[plugin.source_kind]}
        </span>
        <span
          className="plugin__source"
          title={plugin.source_kind === "claude_code" ? `Claude Code's copy: ${plugin.path}` : `Installed in ${plugin.path}`}
          data-testid="plugin-source"
        >
          {plugin.source}
        </span>
        {plugin.for_folder && (
          <span className="plugin__folder" title={`Claude Code installed it for ${plugin.for_folder} only`} data-testid="plugin-folder">
            for {plugin.for_folder} only
          </span>
        )}
        {plugin.author && <span className="plugin__author">by {plugin.author}</span>}
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
            title="Commands"
            testId="plugin-commands"
            items={plugin.commands.map((c) => ({ key: c.path + c.name, name: `/${c.name}`, detail: c.description }))}
          />
          <PartList
            title="Skills"
            testId="plugin-skills"
            items={plugin.skills.map((s) => ({ key: s.path, name: s.name, detail: s.description }))}
          />
          <PartList
            title="Agents"
            testId="plugin-agents"
            items={plugin.agents.map((a) => ({ key: a.path, name: a.name, detail: a.description }))}
          />
          <PartList
            title="Hooks"
            testId="plugin-hooks"
            items={plugin.hooks.map((h, i) => ({
              key: `${h.event}:${i}`,
              name: h.matcher ? `${h.event} ${h.matcher}` : h.event,
              detail: h.command,
            }))}
          />
          <PartList
            title="MCP servers"
            testId="plugin-servers"
            items={plugin.mcp_servers.map((s) => ({ key: s.name, name: s.name, detail: `${s.transport} · ${s.target}` }))}
          />
        </div>
      )}
    </li>
  );
}

const SOURCE_BADGE: Record<PluginInfo["source_kind"], string> = {
  folder: "folder",
  git: "git",
  claude_code: "Claude Code",
};

/**
 * Settings → Plugins: Claude Code plugins installed into Memo's home, and those Claude
 * Code installed itself (used where they are), each with what it
 * brings under its namespace, a switch, and removal; and the form to install one from a
 * folder or a git URL. Changes count from the next session on.
 */
export function PluginsPage() {
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
      <header className="settings-page__header">
        <div>
          <h2 className="settings-page__title">Plugins</h2>
          <p className="settings-page__lead">
            Claude Code plugins: ipc, skills, agents, hooks and MCP servers that come together. Their parts carry the plugin's
            name — <code>/plugin:command</code>, <code>plugin:skill</code> — and are used by sessions started after a change.
          </p>
        </div>
      </header>
      <InstallForm busy={installing} error={installError?.message ?? null} conflict={installError?.conflict ?? false} onInstall={install} />
      {error && (
        <p className="form-error" role="alert" data-testid="plugins-error">
          {error}
          <button type="button" className="button button--small button--quiet" onClick={() => setError(null)}>
            Dismiss
          </button>
        </p>
      )}
      {page === null ? (
        !error && <p className="settings__empty">Loading…</p>
      ) : page.plugins.length === 0 ? (
        <div className="mcp-empty" data-testid="plugins-empty">
          <p className="mcp-empty__title">No plugins installed</p>
          <p className="settings__empty">
            Install one from a folder with <code>.claude-plugin/plugin.json</code>, or from a git repository. Memo keeps its own copy in{" "}
            <code>{page.dir}</code>.
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
          title={`Remove ${removing.name}?`}
          message={`Memo deletes its copy in ${removing.path}. ${
            removing.source_kind === "folder" ? `The folder it came from (${removing.source}) is not touched.` : "The repository is not touched."
          }`}
          confirmLabel="Remove"
          cancelLabel="Keep it"
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
