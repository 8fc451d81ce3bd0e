import { type FormEvent, type KeyboardEvent, useState } from "react";
import { Trans } from "react-i18next";

import { ToolIcon } from "../../../components/icons";
import { isImeComposing } from "../../../components/ime";
import { useT } from "../../../i18n";
import type { ElicitationView } from "../../../state/transcript";

export type AnswerElicitation = (
  requestId: string,
  action: "accept" | "decline" | "cancel",
  content?: Record<string, unknown>,
) => Promise<void>;

type Field = Record<string, unknown>;

/** A single choice: `enum`, or `oneOf` of `{ const, title }`. */
function choices(field: Field): { value: string; label: string }[] | null {
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? (field.enumNames as unknown[]) : [];
    return (field.enum as unknown[]).map((v, i) => ({ value: String(v), label: String(names[i] ?? v) }));
  }
  const options = (field.oneOf ?? field.anyOf) as unknown;
  if (Array.isArray(options) && options.every((o) => o && typeof o === "object" && "const" in o)) {
    return options.map((o: Field) => ({ value: String(o.const), label: String(o.title ?? o.const) }));
  }
  return null;
}

/** A multiple choice: an array whose items are a single choice. */
function multiChoices(field: Field): { value: string; label: string }[] | null {
  return field.type === "array" && field.items && typeof field.items === "object" ? choices(field.items as Field) : null;
}

function inputType(field: Field): string {
  if (field.type === "number" || field.type === "integer") return "number";
  switch (field.format) {
    case "email":
      return "email";
    case "uri":
      return "url";
    case "date":
      return "date";
    case "date-time":
      return "datetime-local";
    default:
      return "text";
  }
}

function initial(field: Field): unknown {
  if (field.default !== undefined) return field.default;
  if (field.type === "boolean") return false;
  if (multiChoices(field)) return [];
  return "";
}

/**
 * An MCP server asks for input in the middle of a call: its message and a form built
 * from its schema. Submit sends the values; Decline lets the server go on without them;
 * Cancel stops what it was doing. Values are sent to that server only and are not kept
 * in the conversation.
 */
export function ElicitationCard({ view, onAnswer }: { view: ElicitationView; onAnswer: AnswerElicitation }) {
  const t = useT("transcript");
  const properties = (view.schema.properties ?? {}) as Record<string, Field>;
  const required = new Set(view.schema.required ?? []);
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, initial(field)])),
  );
  const [sending, setSending] = useState(false);
  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));

  const answer = (action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => {
    setSending(true);
    onAnswer(view.requestId, action, content).finally(() => setSending(false));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(properties)) {
      const value = values[name];
      if (value === "" || value === undefined) continue;
      content[name] = field.type === "number" || field.type === "integer" ? Number(value) : value;
    }
    answer("accept", content);
  };

  // Enter in a field submits the form, unless it picks an input method's candidate.
  const keepComposition = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Enter" && isImeComposing(event)) event.preventDefault();
  };

  if (view.answer !== null) {
    const said = t(`elicitation.said.${view.answer}`);
    return (
      <section className="elicitation elicitation--answered" data-testid="elicitation" data-state={view.answer}>
        <header className="elicitation__header">
          <ToolIcon className="elicitation__icon" />
          <span>
            <Trans t={t} i18nKey="elicitation.asked" values={{ server: view.server }} components={{ strong: <strong /> }} />
          </span>
          <span className="elicitation__said">{said}</span>
        </header>
      </section>
    );
  }

  return (
    <form
      className="elicitation"
      onSubmit={submit}
      onKeyDown={keepComposition}
      data-testid="elicitation"
      data-state="pending"
      aria-label={t("elicitation.label")}
    >
      <header className="elicitation__header">
        <ToolIcon className="elicitation__icon" />
        <span>
          <Trans t={t} i18nKey="elicitation.asks" values={{ server: view.server }} components={{ strong: <strong /> }} />
        </span>
      </header>
      <p className="elicitation__message">{view.message}</p>
      <div className="elicitation__fields">
        {Object.entries(properties).map(([name, field]) => {
          const label = String(field.title ?? name);
          const hint = typeof field.description === "string" ? field.description : null;
          const single = choices(field);
          const multi = multiChoices(field);
          const id = `elicit-${view.requestId}-${name}`;
          if (field.type === "boolean") {
            return (
              <label key={name} className="checkbox elicitation__check">
                <input type="checkbox" checked={values[name] === true} onChange={(e) => set(name, e.target.checked)} data-testid={`elicit-${name}`} />
                {label}
                {hint && <span className="field__hint"> — {hint}</span>}
              </label>
            );
          }
          return (
            <div key={name} className="field">
              <label className="field__label" htmlFor={id}>
                {label}
                {required.has(name) && <span aria-hidden="true"> *</span>}
              </label>
              {multi ? (
                <div className="elicitation__multi" id={id}>
                  {multi.map((c) => {
                    const picked = (values[name] as string[]) ?? [];
                    return (
                      <label key={c.value} className="checkbox">
                        <input
                          type="checkbox"
                          checked={picked.includes(c.value)}
                          onChange={(e) => set(name, e.target.checked ? [...picked, c.value] : picked.filter((p) => p !== c.value))}
                        />
                        {c.label}
                      </label>
                    );
                  })}
                </div>
              ) : single ? (
                <select id={id} className="input" value={String(values[name] ?? "")} onChange={(e) => set(name, e.target.value)} required={required.has(name)} data-testid={`elicit-${name}`}>
                  <option value="">{t("elicitation.choose")}</option>
                  {single.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={id}
                  className="input"
                  type={inputType(field)}
                  value={String(values[name] ?? "")}
                  min={typeof field.minimum === "number" ? field.minimum : undefined}
                  max={typeof field.maximum === "number" ? field.maximum : undefined}
                  step={field.type === "integer" ? 1 : "any"}
                  required={required.has(name)}
                  onChange={(e) => set(name, e.target.value)}
                  data-testid={`elicit-${name}`}
                />
              )}
              {hint && <span className="field__hint">{hint}</span>}
            </div>
          );
        })}
      </div>
      <div className="elicitation__actions">
        <button type="button" className="button button--quiet" disabled={sending} onClick={() => answer("cancel")} data-testid="elicit-cancel">
          {t("common:cancel")}
        </button>
        <button type="button" className="button" disabled={sending} onClick={() => answer("decline")} data-testid="elicit-decline">
          {t("elicitation.decline")}
        </button>
        <button type="submit" className="button button--primary" disabled={sending} data-testid="elicit-submit">
          {t("elicitation.send", { server: view.server })}
        </button>
      </div>
    </form>
  );
}
