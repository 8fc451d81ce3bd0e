// Which word the composer would complete: `/command` at the start of the message,
// `@path` or `$skill` anywhere after a space. An input method in Chinese (or Japanese)
// mode types the sigils full-width (`／`, `＠`, `＄`), and a Chinese punctuation mode turns
// `/` into `、` and `$` into `￥`: they all count as their ASCII forms, and the completion
// puts the ASCII one in their place. Chinese has no spaces between words, so `@` and `$`
// right after a CJK character or punctuation mark start a word too (`看看@src`); after a
// Latin letter they do not (`me@host`).
import type { CompletionKind } from "../../gen/protocol";

export interface CompletionTrigger {
  kind: CompletionKind;
  /** The word typed after the sigil. */
  typed: string;
  /** Where the sigil starts in the text. */
  start: number;
}

/** CJK punctuation, kana, ideographs and full-width forms: what Chinese runs between words. */
const CJK = "\\u3000-\\u303F\\u3040-\\u30FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uF900-\\uFAFF\\uFF00-\\uFFEF";
const COMMAND = /^[/\uFF0F\u3001](\S*)$/;
const WORD = new RegExp(`(^|[\\s${CJK}])([@$\\uFF20\\uFF04\\uFFE5])(\\S*)$`);
/** A skill's name: letters and digits of any script, `_`, `.` and `-`. */
const SKILL_NAME = /^[\p{L}\p{N}_.-]*$/u;

export function completionTrigger(text: string, caret: number): CompletionTrigger | null {
  const before = text.slice(0, caret);
  const command = COMMAND.exec(before);
  if (command) return { kind: "command", typed: command[1] ?? "", start: 0 };
  const word = WORD.exec(before);
  if (!word) return null;
  const sigil = word[2];
  const typed = word[3] ?? "";
  const start = before.length - typed.length - 1;
  if (sigil === "@" || sigil === "\uFF20") return { kind: "path", typed, start };
  if (SKILL_NAME.test(typed)) return { kind: "skill", typed, start };
  return null;
}

/** The text with the trigger's word replaced by `value`, and where the caret goes. */
export function applyCompletion(
  text: string,
  caret: number,
  trigger: CompletionTrigger,
  value: string,
): { text: string; caret: number } {
  // A folder keeps the word open to go deeper; anything else is done, and a space follows.
  const suffix = value.endsWith("/") ? "" : " ";
  const after = text.slice(caret).replace(/^\S*/, "");
  const inserted = value + (after.startsWith(" ") ? "" : suffix);
  return { text: text.slice(0, trigger.start) + inserted + after, caret: trigger.start + inserted.length };
}
