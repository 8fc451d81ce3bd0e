// Rust's sentences in the person's language. The engine and the service send a Phrase (a
// code and its fields, generated from memo-protocol's `Phrase`) instead of English; the
// `phrases` catalog holds one entry per code, with the fields as placeholders. Rust words
// the same English file for memo-cli, so the English is written once.
import type { Phrase } from "../gen/protocol";
import { t } from "./index";

/** Whether a value from the wire is a phrase (an object with a `code`). */
export function isPhrase(value: unknown): value is Phrase {
  return typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "string";
}

/** One phrase as a sentence; a nested phrase (or a list of them) is worded first. */
export function say(phrase: Phrase): string {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(phrase)) {
    if (name === "code") continue;
    if (isPhrase(value)) values[name] = say(value);
    else if (Array.isArray(value)) values[name] = sayAll(value.filter(isPhrase));
    else values[name] = value;
  }
  return t(`phrases:${phrase.code}`, values);
}

/** Several phrases on one line, as an approval's reasons. */
export function sayAll(phrases: readonly Phrase[]): string {
  return phrases.map(say).join(t("common:listSeparator"));
}
