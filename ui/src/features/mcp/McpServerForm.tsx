import { type FormEvent, useState } from "react";

import { LinesField } from "../../components/LinesField";
import { SecretRows, submitOnEnter, type SecretRow as ValueRow } from "../../components/SecretRows";
import type { McpServerInfo, McpServerInput, McpTransportKind } from "../../gen/protocol";
import { useT } from "../../i18n";


const TRANSPORTS: readonly McpTransportKind[] = ["stdio", "streamable_http", "sse"];

/** What the fields' placeholders show: a server's name, command and URL, the same in every language. */
const EXAMPLE = {
  name: "files",
  command: "npx",
  args: "-y\n@modelcontextprotocol/server-filesystem",
  url: "https://example.com/mcp",
};

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
  const t = useT("mcp");
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
  const noName = name.trim() === "";
  const noTarget = (stdio ? command.trim() : url.trim()) === "";
  const target = stdio ? "Command" : "Url";
  const ready = !noName && !noTarget;
  const blocked = ready
    ? null
    : noName && noTarget
      ? t(`form.needs.nameAnd${target}`)
      : noName
        ? t("form.needs.name")
        : t(stdio ? "form.needs.command" : "form.needs.url");

  return (
    <form className="mcp-form" onSubmit={submit} onKeyDown={submitOnEnter} data-testid="mcp-form">
      <div className="field-row">
        <label className="field">
          <span className="field__label">{t("form.name")}</span>
          <input
            className="input input--mono"
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={server !== null}
            placeholder={EXAMPLE.name}
            data-testid="mcp-name"
            autoFocus={server === null}
          />
          <span className="field__hint">{t("form.nameHint")}</span>
        </label>
        <label className="field">
          <span className="field__label">{t("form.connection")}</span>
          <select className="input" value={transport} onChange={(e) => setTransport(e.target.value as McpTransportKind)} data-testid="mcp-transport">
            {TRANSPORTS.map((id) => (
              <option key={id} value={id}>
                {t(`form.transport.${id}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {stdio ? (
        <>
          <label className="field">
            <span className="field__label">{t("form.command")}</span>
            <input
              className="input input--mono"
              value={command}
              onChange={(e) => setCommand(e.target.value)}
              placeholder={EXAMPLE.command}
              data-testid="mcp-command"
            />
          </label>
          <LinesField
            label={t("form.arguments")}
            hint={t("form.argumentsHint")}
            value={args}
            onChange={setArgs}
            placeholder={EXAMPLE.args}
            testId="mcp-args"
          />
        </>
      ) : (
        <label className="field">
          <span className="field__label">{t("form.url")}</span>
          <input
            className="input input--mono"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder={EXAMPLE.url}
            data-testid="mcp-url"
          />
        </label>
      )}
      <div className="field">
        <span className="field__label">{stdio ? t("form.env") : t("form.headers")}</span>
        <SecretRows
          rows={rows}
          onChange={setRows}
          namePlaceholder={stdio ? "API_KEY" : "Authorization"}
          nameLabel={stdio ? t("form.variableName") : t("form.headerName")}
          valueLabel={t("form.value")}
          storedPlaceholder={t("form.storedValue")}
          addLabel={stdio ? t("form.addVariable") : t("form.addHeader")}
          testId="mcp-value"
        />
        <span className="field__hint">{t("form.valuesHint")}</span>
      </div>
      {blocked !== null && (
        <p className="form-missing" data-testid="mcp-form-missing">
          {blocked}
        </p>
      )}
      <div className="rule-form__actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          {t("common:cancel")}
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={saving || !ready}
          title={blocked ?? undefined}
          data-testid="mcp-save"
        >
          {server ? t("common:save") : t("addServer")}
        </button>
      </div>
    </form>
  );
}
