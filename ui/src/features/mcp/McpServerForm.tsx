import { type FormEvent, useState } from "react";

import type { McpServerInfo, McpServerInput, McpTransportKind } from "../../gen/protocol";

/** One env variable or header row; `stored` rows keep their value unless one is typed. */
interface ValueRow {
  name: string;
  value: string;
  stored: boolean;
}

const TRANSPORTS: { id: McpTransportKind; label: string }[] = [
  { id: "stdio", label: "Command (stdio)" },
  { id: "streamable_http", label: "HTTP (streamable)" },
  { id: "sse", label: "HTTP + SSE (legacy)" },
];

function rowsOf(server: McpServerInfo | null, headers: boolean): ValueRow[] {
  const values = server ? (headers ? server.headers : server.env) : [];
  return values.map((v) => ({ name: v.name, value: "", stored: true }));
}

interface McpServerFormProps {
  /** The server being edited, or null to add one. */
  server: McpServerInfo | null;
  onSubmit: (input: McpServerInput) => Promise<void>;
  onCancel: () => void;
}

/**
 * Adds or edits a server of config.toml. Values typed for env variables and headers go to
 * the OS keychain; config.toml only names them. Stored values are never shown: a row left
 * empty keeps its value.
 */
export function McpServerForm({ server, onSubmit, onCancel }: McpServerFormProps) {
  const [name, setName] = useState(server?.name ?? "");
  const [transport, setTransport] = useState<McpTransportKind>(server?.transport ?? "stdio");
  const [command, setCommand] = useState(server?.command ?? "");
  const [args, setArgs] = useState((server?.args ?? []).join("\n"));
  const [url, setUrl] = useState(server?.url ?? "");
  const [env, setEnv] = useState<ValueRow[]>(rowsOf(server, false));
  const [headers, setHeaders] = useState<ValueRow[]>(rowsOf(server, true));
  const [saving, setSaving] = useState(false);
  const stdio = transport === "stdio";
  const rows = stdio ? env : headers;
  const setRows = stdio ? setEnv : setHeaders;

  const update = (i: number, patch: Partial<ValueRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = rows
      .filter((r) => r.name.trim() !== "")
      .map((r) => ({ name: r.name.trim(), value: r.stored && r.value === "" ? null : r.value }));
    setSaving(true);
    try {
      await onSubmit({
        name: name.trim(),
        transport,
        command: stdio ? command.trim() : "",
        args: stdio ? args.split("\n").map((a) => a.trim()).filter((a) => a !== "") : [],
        env: stdio ? values : [],
        url: stdio ? "" : url.trim(),
        headers: stdio ? [] : values,
      });
    } finally {
      setSaving(false);
    }
  };

  // What Save waits for, said beside it: a greyed-out button alone does not say.
  const missing = [name.trim() === "" ? "a name" : null, (stdio ? command.trim() : url.trim()) === "" ? (stdio ? "a command" : "a URL") : null].filter(
    (m): m is string => m !== null,
  );
  const ready = missing.length === 0;
  const blocked = ready ? null : `To save, enter ${missing.join(" and ")}.`;
  return (
    <form className="mcp-form" onSubmit={submit} data-testid="mcp-form">
      <div className="field-row">
        <label className="field">
          <span className="field__label">Name</span>
          <input
            className="input input--mono"
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={server !== null}
            placeholder="files"
            data-testid="mcp-name"
            autoFocus={server === null}
          />
          <span className="field__hint">Tools appear to the model as name__tool.</span>
        </label>
        <label className="field">
          <span className="field__label">Connection</span>
          <select className="input" value={transport} onChange={(e) => setTransport(e.target.value as McpTransportKind)} data-testid="mcp-transport">
            {TRANSPORTS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {stdio ? (
        <>
          <label className="field">
            <span className="field__label">Command</span>
            <input className="input input--mono" value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" data-testid="mcp-command" />
          </label>
          <label className="field">
            <span className="field__label">Arguments</span>
            <textarea
              className="input input--mono mcp-form__args"
              value={args}
              rows={Math.min(6, Math.max(2, args.split("\n").length))}
              onChange={(e) => setArgs(e.target.value)}
              placeholder={"-y\n@modelcontextprotocol/server-filesystem"}
              data-testid="mcp-args"
            />
            <span className="field__hint">One per line.</span>
          </label>
        </>
      ) : (
        <label className="field">
          <span className="field__label">URL</span>
          <input className="input input--mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/mcp" data-testid="mcp-url" />
        </label>
      )}
      <div className="field">
        <span className="field__label">{stdio ? "Environment variables" : "Headers"}</span>
        {rows.map((row, i) => (
          <div className="mcp-form__value" key={i} data-testid="mcp-value-row">
            <input
              className="input input--mono"
              value={row.name}
              onChange={(e) => update(i, { name: e.target.value })}
              placeholder={stdio ? "API_KEY" : "Authorization"}
              aria-label={stdio ? "Variable name" : "Header name"}
              disabled={row.stored}
              data-testid="mcp-value-name"
            />
            <input
              className="input input--mono"
              type="password"
              value={row.value}
              onChange={(e) => update(i, { value: e.target.value })}
              placeholder={row.stored ? "Stored in the keychain (type to replace)" : "Value"}
              aria-label="Value"
              autoComplete="off"
              data-testid="mcp-value-value"
            />
            <button type="button" className="button button--small" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label="Remove">
              Remove
            </button>
          </div>
        ))}
        <div>
          <button type="button" className="button button--small" onClick={() => setRows([...rows, { name: "", value: "", stored: false }])} data-testid="mcp-value-add">
            {stdio ? "Add variable" : "Add header"}
          </button>
        </div>
        <span className="field__hint">Values are kept in the OS keychain, not in config.toml.</span>
      </div>
      {blocked !== null && (
        <p className="form-missing" data-testid="mcp-form-missing">
          {blocked}
        </p>
      )}
      <div className="rule-form__actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={saving || !ready}
          title={blocked ?? undefined}
          data-testid="mcp-save"
        >
          {server ? "Save" : "Add server"}
        </button>
      </div>
    </form>
  );
}
