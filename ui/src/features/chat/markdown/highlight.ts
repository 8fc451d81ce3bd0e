// Syntax highlighting for code blocks in answers, with the same Lezer grammars the app's
// CodeMirror editors use (@codemirror/language-data). Grammars load lazily; the output is a
// list of class-tagged text runs that Markdown.tsx renders as React elements (no innerHTML).

import { LanguageDescription } from "@codemirror/language";
import { languages } from "@codemirror/language-data";
import { highlightCode, tagHighlighter, tags as t } from "@lezer/highlight";

type Parser = NonNullable<LanguageDescription["support"]>["language"]["parser"];

/** A run of text with the CSS classes of its tokens ("" for plain text). */
export interface CodeToken {
  text: string;
  classes: string;
}

/** Maps Lezer highlight tags to classes coloured in markdown.css. The most specific tag wins. */
export const codeHighlighter = tagHighlighter([
  { tag: t.keyword, class: "hl-keyword" },
  { tag: [t.operator, t.derefOperator], class: "hl-operator" },
  { tag: [t.string, t.docString, t.character, t.attributeValue], class: "hl-string" },
  { tag: [t.regexp, t.escape, t.special(t.string)], class: "hl-string2" },
  { tag: [t.number, t.integer, t.float, t.unit], class: "hl-number" },
  { tag: [t.bool, t.null, t.atom, t.literal, t.self], class: "hl-atom" },
  { tag: t.comment, class: "hl-comment" },
  { tag: [t.typeName, t.className, t.namespace, t.standard(t.typeName)], class: "hl-type" },
  {
    tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName, t.function(t.definition(t.variableName))],
    class: "hl-function",
  },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], class: "hl-definition" },
  { tag: [t.propertyName, t.attributeName], class: "hl-property" },
  { tag: [t.special(t.variableName), t.standard(t.variableName), t.labelName], class: "hl-special" },
  { tag: [t.tagName, t.angleBracket], class: "hl-tag" },
  { tag: [t.meta, t.annotation, t.processingInstruction, t.modifier], class: "hl-meta" },
  { tag: t.heading, class: "hl-heading" },
  { tag: t.emphasis, class: "hl-emphasis" },
  { tag: t.strong, class: "hl-strong" },
  { tag: t.strikethrough, class: "hl-strikethrough" },
  { tag: [t.link, t.url], class: "hl-link" },
  { tag: t.inserted, class: "hl-inserted" },
  { tag: t.deleted, class: "hl-deleted" },
  { tag: t.changed, class: "hl-changed" },
  { tag: t.invalid, class: "hl-invalid" },
]);

/** Fence names that mean "no language"; fuzzy matching would otherwise map "text" to TeX. */
const PLAIN = new Set(["", "text", "txt", "plain", "plaintext", "none", "output", "console", "log", "ansi"]);

const descriptions = new Map<string, LanguageDescription | null>();

/** The grammar for a fence's language name ("ts", "Rust", "py", "shell-session"), or null. */
export function findLanguage(name: string): LanguageDescription | null {
  const key = name.trim().toLowerCase();
  const cached = descriptions.get(key);
  if (cached !== undefined) return cached;
  let found: LanguageDescription | null = null;
  if (!PLAIN.has(key)) {
    found =
      LanguageDescription.matchLanguageName(languages, key, false) ??
      // File extensions people use as fence names: rs, py, kt, tf...
      (/^[\w+#-]+$/.test(key) ? LanguageDescription.matchFilename(languages, `file.${key}`) : null) ??
      LanguageDescription.matchLanguageName(languages, key, true);
  }
  descriptions.set(key, found);
  return found;
}

const byFileName = new Map<string, LanguageDescription | null>();

/** The grammar for a file, by its name (Makefile, Dockerfile) or extension; null for plain text. */
export function languageForPath(path: string): LanguageDescription | null {
  const name = path.split(/[\\/]/).pop() ?? path;
  const cached = byFileName.get(name);
  if (cached !== undefined) return cached;
  const found = LanguageDescription.matchFilename(languages, name);
  byFileName.set(name, found);
  return found;
}

/** The parser if the grammar has already been loaded (LanguageDescription keeps it), else null. */
export function loadedParser(description: LanguageDescription | null): Parser | null {
  return description?.support?.language.parser ?? null;
}

/**
 * Loads a grammar once (LanguageDescription caches both the promise and the result, and a
 * failed load may be retried later). Resolves to null when the grammar cannot be loaded.
 */
export function loadParser(description: LanguageDescription): Promise<Parser | null> {
  const ready = loadedParser(description);
  if (ready) return Promise.resolve(ready);
  return description.load().then(
    (support) => support.language.parser,
    () => null,
  );
}

// Highlighted runs for recent (grammar, text) pairs: blocks re-render on every streamed token and
// when the transcript remounts, and an unchanged block should not be parsed again.
const MAX_CACHED = 64;
const cache = new Map<string, { parser: Parser; tokens: CodeToken[] }>();

/** Splits `code` into highlighted runs with the given grammar; line breaks are plain "\n" runs. */
export function highlight(code: string, parser: Parser, cacheKey: string): CodeToken[] {
  const key = `${cacheKey}\u0000${code}`;
  const hit = cache.get(key);
  if (hit && hit.parser === parser) {
    // Refresh its place in the least-recently-used order.
    cache.delete(key);
    cache.set(key, hit);
    return hit.tokens;
  }

  const tokens: CodeToken[] = [];
  const push = (text: string, classes: string) => {
    if (!text) return;
    const last = tokens[tokens.length - 1];
    if (last && last.classes === classes) last.text += text;
    else tokens.push({ text, classes });
  };
  let tree;
  try {
    tree = parser.parse(code);
  } catch {
    return [{ text: code, classes: "" }];
  }
  highlightCode(code, tree, codeHighlighter, push, () => push("\n", ""));

  cache.set(key, { parser, tokens });
  if (cache.size > MAX_CACHED) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return tokens;
}
