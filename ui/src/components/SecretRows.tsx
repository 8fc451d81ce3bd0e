import type { KeyboardEvent } from "react";

import { useT } from "../i18n";
import { isImeComposing } from "./ime";

/** One named value of a form (an env variable, a header, a key); a `stored` one keeps its
 *  keychain value unless one is typed, and its name cannot change. */
export interface SecretRow {
  name: string;
  value: string;
  stored: boolean;
}

interface SecretRowsProps {
  rows: SecretRow[];
  onChange: (rows: SecretRow[]) => void;
  /** The names' placeholder, e.g. `API_KEY`: the same in every language. */
  namePlaceholder: string;
  nameLabel: string;
  valueLabel: string;
  storedPlaceholder: string;
  addLabel: string;
  /** Prefix of the test ids: `<prefix>-row`, `-name`, `-value`, `-add`. */
  testId: string;
}

/**
 * Rows of named values typed into a settings form, whose values go to the OS keychain
 * (never shown again: a stored row left empty keeps its value).
 */
export function SecretRows({ rows, onChange, namePlaceholder, nameLabel, valueLabel, storedPlaceholder, addLabel, testId }: SecretRowsProps) {
  const t = useT("common");
  const update = (i: number, patch: Partial<SecretRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <>
      {rows.map((row, i) => (
        <div className="mcp-form__value" key={i} data-testid={`${testId}-row`}>
          <input
            className="input input--mono"
            value={row.name}
            onChange={(e) => update(i, { name: e.target.value })}
            placeholder={namePlaceholder}
            aria-label={nameLabel}
            disabled={row.stored}
            data-testid={`${testId}-name`}
          />
          <input
            className="input input--mono"
            type="password"
            value={row.value}
            onChange={(e) => update(i, { value: e.target.value })}
            placeholder={row.stored ? storedPlaceholder : valueLabel}
            aria-label={valueLabel}
            autoComplete="off"
            data-testid={`${testId}-value`}
          />
          <button type="button" className="button button--small" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={t("remove")}>
            {t("remove")}
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="button button--small" onClick={() => onChange([...rows, { name: "", value: "", stored: false }])} data-testid={`${testId}-add`}>
          {addLabel}
        </button>
      </div>
    </>
  );
}

/**
 * Enter in a one-line field saves, as in any form, but never the Enter that picks an
 * input method's candidate (a name typed in pinyin): the form does what the browser's
 * implicit submission does, a click on its submit button (nothing while it is disabled).
 */
export function submitOnEnter(event: KeyboardEvent<HTMLFormElement>) {
  if (isImeComposing(event)) return;
  if (event.key !== "Enter" || !(event.target instanceof HTMLInputElement)) return;
  event.preventDefault();
  event.currentTarget.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
}
