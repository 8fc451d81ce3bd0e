import { useEffect, useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { McpServerCheck, McpServerInfo, McpServerInput, McpSettingsPage, McpSourceKind, McpTransportKind } from "../../gen/protocol";
import { ipc, toIpcError } from "../../ipc";
import { mcpToolLabel } from "../../state/toolNames";
import { folderName } from "../../state/workspaces";
import { useSettingsPage } from "../settings/useSettingsPage";
import { McpServerForm } from "./McpServerForm";

import "./mcp.css";

const SOURCE_NAMES: Record<McpSourceKind, string> = {
  memo: "config.toml",
  claude: ".mcp.json",
  gemini: ".gemini/settings.json",
  cursor: ".cursor/mcp.json",
  plugin: "a plugin",
  codex: "~/.codex/config.toml",
};

const TRANSPORT_NAMES: Record<McpTransportKind, string> = {
  stdio: "stdio",
  streamable_http: "HTTP",
  sse: "HTTP + SSE",
};

/** The state a check found, as a badge. */
function CheckBadge({ check }: { check: McpServerCheck }) {
  const [cls, text] = (() => {
    switch (check.state) {
      case "ready":
        return ["badge--ok", `Ready · ${check.tools.length} ${check.tools.length === 1 ? "tool" : "tools"}`];
      case "failed":
        return ["badge--error", "Failed"];
      case "crashed":
        return ["badge--error", "Crashed"];
      case "needs_login":
        return ["badge--warn", "Needs login"];
      case "disabled":
        return ["", "Off"];
      case "blocked":
        return ["badge--warn", "Not started"];
    }
  })();
  return (
    <span className={`badge ${cls}`} data-testid="mcp-state" data-state={check.state}>
      {text}
    </span>
  );
}

function describe(server: McpServerInfo): string {
  if (server.command !== null) return [server.command, ...server.args].join(" ");
  return server.url ?? "";
}

interface ServerCardProps {
  server: McpServerInfo;
  check: McpServerCheck | undefined;
  checking: boolean;
  onCheck: () => void;
  onEdit: () => void;
  onRemove: () => void;
  onEnabled: (enabled: boolean) => void;
  onTool: (tool: string, enabled: boolean) => void;
  /** HTTP servers only: OAuth sign-in in the system browser. */
  onLogin: (() => void) | undefined;
  /** Restarts it in the open conversations. */
  onRestart: () => void;
  loggingIn: boolean;
}

function ServerCard({ server, check, checking, onCheck, onEdit, onRemove, onEnabled, onTool, onLogin, loggingIn, onRestart }: ServerCardProps) {
  const ours = server.source === "memo";
  const values = [...server.env, ...server.headers];
  return (
    <li className={`mcp-server${server.enabled && !server.blocked ? "" : " mcp-server--off"}`} data-testid="mcp-server" data-name={server.name}>
      <div className="mcp-server__head">
        <label className="mcp-switch" title={server.enabled ? "Starts in new sessions" : "Turned off"}>
          <input
            type="checkbox"
            role="switch"
            checked={server.enabled}
            onChange={(e) => onEnabled(e.target.checked)}
            aria-label={`Use ${server.name}`}
            data-testid="mcp-enabled"
          />
          <span className="mcp-switch__track" aria-hidden />
        </label>
        <span className="mcp-server__title">
          <span className="mcp-server__name">{server.name}</span>
          <span className="mcp-server__meta">
            <span title={server.source_path}>{server.source_label || SOURCE_NAMES[server.source]}</span> · {TRANSPORT_NAMES[server.transport]}
          </span>
        </span>
        <span className="mcp-server__status">
          {checking ? (
            <span className="badge" data-testid="mcp-checking">
              Checking…
            </span>
          ) : (
            check && <CheckBadge check={check} />
          )}
          {server.blocked && !check && <span className="badge badge--warn">Folder not trusted</span>}
        </span>
        <span className="rule__actions">
          {onLogin && (
            <button
              type="button"
              className={`button button--small${check?.state === "needs_login" ? " button--primary" : ""}`}
              onClick={onLogin}
              disabled={loggingIn || server.blocked}
              title="Sign in with your browser; the tokens are kept in the OS keychain"
              data-testid="mcp-login"
            >
              {loggingIn ? "Waiting for the browser…" : "Log in"}
            </button>
          )}
          <button type="button" className="button button--small" onClick={onCheck} disabled={checking || server.blocked} data-testid="mcp-check">
            Check
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={onRestart}
            disabled={!server.enabled || server.blocked}
            title="Stop and start it again in the open conversations"
            data-testid="mcp-restart"
          >
            Restart
          </button>
          {ours && (
            <>
              <button type="button" className="button button--small" onClick={onEdit} data-testid="mcp-edit">
                Edit
              </button>
              <button type="button" className="button button--small button--danger" onClick={onRemove} data-testid="mcp-remove">
                Remove
              </button>
            </>
          )}
        </span>
      </div>
      <code className="mcp-server__command" title={describe(server)}>
        {describe(server)}
      </code>
      {values.length > 0 && (
        <div className="mcp-server__values">
          {values.map((v) => (
            <span
              key={v.name}
              className={`mcp-value${v.missing ? " mcp-value--missing" : ""}`}
              title={v.in_keychain ? "Value kept in the OS keychain" : "Value written in the file"}
            >
              <code>{v.name}</code>
              {v.in_keychain && <span className="mcp-value__where">{v.missing ? "missing from keychain" : "keychain"}</span>}
            </span>
          ))}
        </div>
      )}
      {server.blocked && (
        <p className="mcp-server__note">Comes from this folder, which is not trusted: it is not started here or in sessions until you trust the folder.</p>
      )}
      {check && <CheckDetails server={server} check={check} onTool={onTool} />}
    </li>
  );
}

interface CheckDetailsProps {
  server: McpServerInfo;
  check: McpServerCheck;
  onTool: (tool: string, enabled: boolean) => void;
}

function CheckDetails({ server, check, onTool }: CheckDetailsProps) {
  const ours = server.source === "memo";
  const on = check.tools.filter((t) => t.enabled).length;
  return (
    <div className="mcp-check" data-testid="mcp-check-details">
      {check.message && check.state !== "disabled" && (
        <p className={check.state === "blocked" ? "mcp-server__note" : "form-error"} data-testid="mcp-check-message">
          {check.message}
        </p>
      )}
      {check.stderr_tail && <pre className="mcp-check__stderr">{check.stderr_tail}</pre>}
      {check.tools.length > 0 && (
        <>
          <h4 className="mcp-check__title">
            Tools{" "}
            <span className="mcp-check__count">
              {on} of {check.tools.length} on
            </span>
          </h4>
          <ul className="mcp-tools">
            {check.tools.map((t) => (
              <li key={t.name} className="mcp-tool">
                <label className="checkbox mcp-tool__label" title={ours ? undefined : `Turn tools off in ${server.source_label || SOURCE_NAMES[server.source]}`}>
                  <input
                    type="checkbox"
                    checked={t.enabled}
                    disabled={!ours}
                    onChange={(e) => onTool(t.name, e.target.checked)}
                    data-testid="mcp-tool"
                    data-name={t.name}
                  />
                  {/* Spelled as on approval cards and tool cards; the model's name in the tooltip. */}
                  <code title={`called as ${server.name}__${t.name}`}>{mcpToolLabel(server.name, t.name)}</code>
                </label>
                {t.description && <span className="mcp-tool__description">{t.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {(check.prompts.length > 0 || check.resources.length > 0) && (
        <div className="mcp-check__extras">
          {check.prompts.length > 0 && (
            <div>
              <h4 className="mcp-check__title">Prompts</h4>
              <p className="mcp-check__list">
                {check.prompts.map((p) => (
                  <code key={p.name} title={p.description ?? undefined}>
                    /{server.name}:{p.name}
                  </code>
                ))}
              </p>
            </div>
          )}
          {check.resources.length > 0 && (
            <div>
              <h4 className="mcp-check__title">Resources</h4>
              <p className="mcp-check__list">
                {check.resources.slice(0, 12).map((r) => (
                  <code key={r.uri} title={r.uri}>
                    {r.name}
                  </code>
                ))}
                {check.resources.length > 12 && <span className="mcp-check__count">and {check.resources.length - 12} more</span>}
              </p>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Settings → MCP: every server a session in the open folder would use, where it comes
 * from, and what a check finds when it starts it. Only config.toml's servers are edited
 * here; the folder's own files are shown as they are.
 */
export function McpPage({ cwd }: { cwd: string | null }) {
  const { page, error, setError, run } = useSettingsPage<McpSettingsPage>();
  const [checks, setChecks] = useState<Record<string, McpServerCheck>>({});
  const [checking, setChecking] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    setChecks({});
    void run("mcp_settings", () => ipc.mcpSettings({ cwd }));
  }, [run, cwd]);

  const check = async (names: string[] | null) => {
    const busy = names ?? (page?.servers.map((s) => s.name) ?? []);
    setChecking((c) => new Set([...c, ...busy]));
    try {
      const found = await ipc.checkMcpServers({ cwd, names });
      setChecks((c) => ({ ...c, ...Object.fromEntries(found.map((f) => [f.name, f])) }));
      setError(null);
    } catch (raised) {
      setError(toIpcError("check_mcp_servers", raised).message);
    } finally {
      setChecking((c) => new Set([...c].filter((n) => !busy.includes(n))));
    }
  };

  const restart = async (name: string) => {
    try {
      const count = await ipc.restartMcpServer({ name });
      setError(null);
      setNotice(
        count === 0
          ? `No open conversation uses ${name}; new ones start it as configured.`
          : `${name} restarted in ${count} open conversation${count === 1 ? "" : "s"}.`,
      );
    } catch (raised) {
      setError(toIpcError("restart_mcp_server", raised).message);
    }
  };

  const [loggingIn, setLoggingIn] = useState<string | null>(null);
  const login = async (name: string) => {
    setLoggingIn(name);
    try {
      await ipc.mcpLogin({ cwd, name });
      setError(null);
      await check([name]);
    } catch (raised) {
      setError(toIpcError("mcp_login", raised).message);
    } finally {
      setLoggingIn(null);
    }
  };

  const save = async (input: McpServerInput, isEdit: boolean) => {
    if (await run("save_mcp_server", () => ipc.saveMcpServer({ server: input, editing: isEdit, cwd }))) {
      setEditing(null);
      setAdding(false);
      // What was checked before may not be what starts now.
      setChecks((c) => Object.fromEntries(Object.entries(c).filter(([n]) => n !== input.name)));
    }
  };

  const setTool = async (server: string, tool: string, enabled: boolean) => {
    if (!(await run("set_mcp_tool_enabled", () => ipc.setMcpToolEnabled({ server, tool, enabled, cwd })))) return;
    setChecks((c) => {
      const found = c[server];
      if (!found) return c;
      return { ...c, [server]: { ...found, tools: found.tools.map((t) => (t.name === tool ? { ...t, enabled } : t)) } };
    });
  };

  const untrusted = page !== null && page.servers.some((s) => s.blocked);
  return (
    <div className="settings-page mcp-page" data-testid="mcp-page">
      <header className="settings-page__header">
        <div>
          <h2 className="settings-page__title">MCP servers</h2>
          <p className="settings-page__lead">
            Tools, prompts and resources from other programs and services. Sessions started from now on use these settings.
          </p>
        </div>
        <div className="mcp-page__actions">
          <button
            type="button"
            className="button"
            onClick={() => void check(null)}
            disabled={!page || page.servers.length === 0 || checking.size > 0}
            data-testid="mcp-check-all"
          >
            Check all
          </button>
          {!adding && (
            <button type="button" className="button button--primary" onClick={() => setAdding(true)} data-testid="mcp-add">
              Add server
            </button>
          )}
        </div>
      </header>
      {error && (
        <p className="form-error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      )}
      {notice && (
        <p className="settings-page__lead mcp-page__notice" role="status" data-testid="mcp-notice">
          {notice}
        </p>
      )}
      {page === null ? (
        !error && <p className="settings__empty">Loading…</p>
      ) : (
        <>
          {untrusted && cwd && (
            <p className="mcp-page__notice" data-testid="mcp-untrusted">
              {folderName(cwd)} is not trusted, so the servers its own files declare are listed but never started.
            </p>
          )}
          {page.problems.length > 0 && (
            <ul className="mcp-page__problems" data-testid="mcp-problems">
              {page.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          {adding && <McpServerForm server={null} onSubmit={(input) => save(input, false)} onCancel={() => setAdding(false)} />}
          {page.servers.length === 0 && !adding && (
            <div className="mcp-empty" data-testid="mcp-empty">
              <p className="mcp-empty__title">No MCP servers yet</p>
              <p className="settings__empty">
                Add one here, or open a project with a <code>.mcp.json</code>: Claude Code&apos;s, Gemini CLI&apos;s and Cursor&apos;s
                project files are read as they are.
              </p>
            </div>
          )}
          <ul className="mcp-servers">
            {page.servers.map((s) =>
              editing === s.name ? (
                <li key={s.name}>
                  <McpServerForm server={s} onSubmit={(input) => save(input, true)} onCancel={() => setEditing(null)} />
                </li>
              ) : (
                <ServerCard
                  key={s.name}
                  server={s}
                  check={checks[s.name]}
                  checking={checking.has(s.name)}
                  onCheck={() => void check([s.name])}
                  onEdit={() => setEditing(s.name)}
                  onRemove={() => setRemoving(s.name)}
                  onEnabled={(enabled) => void run("set_mcp_server_enabled", () => ipc.setMcpServerEnabled({ name: s.name, enabled, cwd }))}
                  onTool={(tool, enabled) => void setTool(s.name, tool, enabled)}
                  onLogin={s.transport === "stdio" ? undefined : () => void login(s.name)}
                  loggingIn={loggingIn === s.name}
                  onRestart={() => void restart(s.name)}
                />
              ),
            )}
          </ul>
          <p className="settings-page__lead mcp-page__footer">
            Kept in <code>{page.config_path}</code>
            {page.active_list && (
              <>
                {" "}
                (its <code>active_mcp_servers</code> list says which servers start)
              </>
            )}
            .
          </p>
        </>
      )}
      {removing !== null && (
        <ConfirmDialog
          title={`Remove ${removing}?`}
          message="It is taken out of config.toml and its stored values out of the keychain. Sessions already running keep it until they end."
          confirmLabel="Remove"
          cancelLabel="Keep it"
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            void run("remove_mcp_server", () => ipc.removeMcpServer({ name, cwd }));
          }}
        />
      )}
    </div>
  );
}
