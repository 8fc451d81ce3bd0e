import { useEffect, useState } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { McpServerCheck, McpServerInfo, McpServerInput, McpSettingsPage, McpSourceKind, McpTransportKind } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { ipc, toIpcError } from "../../ipc";
import { mcpToolLabel } from "../../state/toolNames";
import { folderName } from "../../state/workspaces";
import { useSettingsPage } from "../settings/useSettingsPage";
import { McpServerForm } from "./McpServerForm";

import "./mcp.css";
import { PageHeader } from "../../components/PageHeader";

/** Where a server is declared, when the server gives no label of its own: mostly a file. */
function sourceName(source: McpSourceKind): string {
  switch (source) {
    case "memo":
      return "config.toml";
    case "claude":
      return ".mcp.json";
    case "gemini":
      return ".gemini/settings.json";
    case "cursor":
      return ".cursor/mcp.json";
    case "plugin":
      return translate("mcp:source.plugin");
    case "codex":
      return "~/.codex/config.toml";
    case "editor":
      return translate("mcp:source.editor");
  }
}

const TRANSPORT_NAMES: Record<McpTransportKind, string> = {
  stdio: "stdio",
  streamable_http: "HTTP",
  sse: "HTTP + SSE",
};

/** The state a check found, as a badge. */
function CheckBadge({ check }: { check: McpServerCheck }) {
  const t = useT("mcp");
  const [cls, text] = (() => {
    switch (check.state) {
      case "ready":
        return ["badge--ok", t("state.ready", { count: check.tools.length })];
      case "failed":
        return ["badge--error", t("state.failed")];
      case "crashed":
        return ["badge--error", t("state.crashed")];
      case "needs_login":
        return ["badge--warn", t("state.needsLogin")];
      case "disabled":
        return ["", t("state.disabled")];
      case "blocked":
        return ["badge--warn", t("state.blocked")];
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
  const t = useT("mcp");
  const ours = server.source === "memo";
  const values = [...server.env, ...server.headers];
  return (
    <li className={`mcp-server${server.enabled && !server.blocked ? "" : " mcp-server--off"}`} data-testid="mcp-server" data-name={server.name}>
      <div className="mcp-server__head">
        <label className="mcp-switch" title={server.enabled ? t("server.startsInNew") : t("server.turnedOff")}>
          <input
            type="checkbox"
            role="switch"
            checked={server.enabled}
            onChange={(e) => onEnabled(e.target.checked)}
            aria-label={t("server.use", { name: server.name })}
            data-testid="mcp-enabled"
          />
          <span className="mcp-switch__track" aria-hidden />
        </label>
        <span className="mcp-server__title">
          <span className="mcp-server__name">{server.name}</span>
          <span className="mcp-server__meta">
            <span title={server.source_path}>{server.source_label || sourceName(server.source)}</span> · {TRANSPORT_NAMES[server.transport]}
          </span>
        </span>
        <span className="mcp-server__status">
          {checking ? (
            <span className="badge" data-testid="mcp-checking">
              {t("server.checking")}
            </span>
          ) : (
            check && <CheckBadge check={check} />
          )}
          {server.blocked && !check && <span className="badge badge--warn">{t("server.folderNotTrusted")}</span>}
        </span>
        <span className="rule__actions">
          {onLogin && (
            <button
              type="button"
              className={`button button--small${check?.state === "needs_login" ? " button--primary" : ""}`}
              onClick={onLogin}
              disabled={loggingIn || server.blocked}
              title={t("server.loginTitle")}
              data-testid="mcp-login"
            >
              {loggingIn ? t("server.waitingForBrowser") : t("server.login")}
            </button>
          )}
          <button type="button" className="button button--small" onClick={onCheck} disabled={checking || server.blocked} data-testid="mcp-check">
            {t("server.check")}
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={onRestart}
            disabled={!server.enabled || server.blocked}
            title={t("server.restartTitle")}
            data-testid="mcp-restart"
          >
            {t("server.restart")}
          </button>
          {ours && (
            <>
              <button type="button" className="button button--small" onClick={onEdit} data-testid="mcp-edit">
                {t("common:edit")}
              </button>
              <button type="button" className="button button--small button--danger" onClick={onRemove} data-testid="mcp-remove">
                {t("common:remove")}
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
              title={v.in_keychain ? t("server.valueInKeychain") : t("server.valueInFile")}
            >
              <code>{v.name}</code>
              {v.in_keychain && <span className="mcp-value__where">{v.missing ? t("server.missingFromKeychain") : t("server.keychain")}</span>}
            </span>
          ))}
        </div>
      )}
      {server.blocked && (
        <p className="mcp-server__note">{t("server.blockedNote")}</p>
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
  const t = useT("mcp");
  const ours = server.source === "memo";
  const on = check.tools.filter((tool) => tool.enabled).length;
  return (
    <div className="mcp-check" data-testid="mcp-check-details">
      {check.message && check.state !== "disabled" && (
        <p className={check.state === "blocked" ? "mcp-server__note" : "form-error"} data-testid="mcp-check-message">
          {check.phrase ? say(check.phrase) : check.message}
        </p>
      )}
      {check.stderr_tail && <pre className="mcp-check__stderr">{check.stderr_tail}</pre>}
      {check.tools.length > 0 && (
        <>
          <h4 className="mcp-check__title">
            {t("check.tools")}{" "}
            <span className="mcp-check__count">{t("check.toolsOn", { on, total: check.tools.length })}</span>
          </h4>
          <ul className="mcp-tools">
            {check.tools.map((tool) => (
              <li key={tool.name} className="mcp-tool">
                <label
                  className="checkbox mcp-tool__label"
                  title={ours ? undefined : t("check.turnOffIn", { source: server.source_label || sourceName(server.source) })}
                >
                  <input
                    type="checkbox"
                    checked={tool.enabled}
                    disabled={!ours}
                    onChange={(e) => onTool(tool.name, e.target.checked)}
                    data-testid="mcp-tool"
                    data-name={tool.name}
                  />
                  {/* Spelled as on approval cards and tool cards; the model's name in the tooltip. */}
                  <code title={t("check.calledAs", { name: `${server.name}__${tool.name}` })}>{mcpToolLabel(server.name, tool.name)}</code>
                </label>
                {tool.description && <span className="mcp-tool__description">{tool.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {(check.prompts.length > 0 || check.resources.length > 0) && (
        <div className="mcp-check__extras">
          {check.prompts.length > 0 && (
            <div>
              <h4 className="mcp-check__title">{t("check.prompts")}</h4>
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
              <h4 className="mcp-check__title">{t("check.resources")}</h4>
              <p className="mcp-check__list">
                {check.resources.slice(0, 12).map((r) => (
                  <code key={r.uri} title={r.uri}>
                    {r.name}
                  </code>
                ))}
                {check.resources.length > 12 && (
                  <span className="mcp-check__count">{t("check.moreResources", { count: check.resources.length - 12 })}</span>
                )}
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
  const t = useT("mcp");
  const { page, error, setError, run } = useSettingsPage<McpSettingsPage>();
  const [checks, setChecks] = useState<Record<string, McpServerCheck>>({});
  const [checking, setChecking] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  // What a restart did, said in the language of the moment it is read.
  const [notice, setNotice] = useState<{ name: string; count: number } | null>(null);

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
      setNotice({ name, count });
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
      <PageHeader title={t("title")} lead={t("lead")}>
        <div className="mcp-page__actions">
          <button
            type="button"
            className="button"
            onClick={() => void check(null)}
            disabled={!page || page.servers.length === 0 || checking.size > 0}
            data-testid="mcp-check-all"
          >
            {t("checkAll")}
          </button>
          {!adding && (
            <button type="button" className="button button--primary" onClick={() => setAdding(true)} data-testid="mcp-add">
              {t("addServer")}
            </button>
          )}
        </div>
      </PageHeader>
      {error && (
        <p className="form-error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      )}
      {notice && (
        <p className="settings-page__lead mcp-page__notice" role="status" data-testid="mcp-notice">
          {notice.count === 0 ? t("restartedNone", { name: notice.name }) : t("restarted", notice)}
        </p>
      )}
      {page === null ? (
        !error && <p className="settings__empty">{t("common:loading")}</p>
      ) : (
        <>
          {untrusted && cwd && (
            <p className="mcp-page__notice" data-testid="mcp-untrusted">
              {t("untrusted", { folder: folderName(cwd) })}
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
              <p className="mcp-empty__title">{t("empty.title")}</p>
              <p className="settings__empty">
                <Trans t={t} i18nKey="empty.text" components={{ code: <code /> }} />
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
            <Trans
              t={t}
              i18nKey={page.active_list ? "footer.activeList" : "footer.plain"}
              values={{ path: page.config_path }}
              components={{ code: <code /> }}
            />
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
            void run("remove_mcp_server", () => ipc.removeMcpServer({ name, cwd }));
          }}
        />
      )}
    </div>
  );
}
