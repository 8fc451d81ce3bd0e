// The catalogs are complete and the page has no sentence outside them: a JSX text, an
// aria-label, a title, a placeholder or an alt holding English words fails here, unless
// its file is on the (shrinking) list of files not translated yet; nor does a plain .ts
// module's literal (a notice's title, a notification, an error's message) hold an English
// sentence, unless it is on the short list of allowed ones below; and no language lacks
// a key English has, nor a value's placeholders. The catalogs are read from their files:
// the page itself loads a language other than English only when it is chosen.
import ts from "typescript";
import { describe, expect, it } from "vitest";

import { LANGUAGES, languageOf } from ".";
import pending from "./not-yet-translated.json";

// The UI has no Node types, so the modules are named at run time (as in ../test/styles.ts).
interface Fs {
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: "utf8"): string;
  statSync(path: string): { isDirectory(): boolean };
}
interface Path {
  join(...parts: string[]): string;
  relative(from: string, to: string): string;
}
const { readdirSync, readFileSync, statSync }: Fs = await import(/* @vite-ignore */ `node:${"fs"}`);
const path: Path = await import(/* @vite-ignore */ `node:${"path"}`);

const SRC = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const LOCALES = path.join(SRC, "i18n", "locales");

/** A language's folder of catalogs: `chat.json` → chat. */
function catalogsIn(folder: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of readdirSync(path.join(LOCALES, folder))) {
    if (name.endsWith(".json")) out[name.slice(0, -".json".length)] = JSON.parse(readFileSync(path.join(LOCALES, folder, name), "utf8"));
  }
  return out;
}

function leaves(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") out.set(prefix, value);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      for (const [k, v] of leaves(inner, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe("the catalogs", () => {
  const english = catalogsIn("en");
  const others = LANGUAGES.filter((l) => l.code !== "en");

  it("are a folder for each language the page offers, and no other", () => {
    expect(readdirSync(LOCALES).filter((name) => statSync(path.join(LOCALES, name)).isDirectory()).sort()).toEqual(
      LANGUAGES.map((l) => l.folder).sort(),
    );
  });

  it("give every language every key English has, with the same placeholders, and nothing stale", () => {
    const problems: string[] = [];
    for (const { folder } of others) {
      const all = catalogsIn(folder);
      for (const [ns, catalog] of Object.entries(english)) {
        const translated = leaves(all[ns] ?? {});
        const en = leaves(catalog);
        for (const [key, text] of en) {
          // Chinese has one plural form: `x_one` and `x_other` in English are `x_other` there.
          const wanted = key.replace(/_one$/, "_other");
          const value = translated.get(wanted) ?? translated.get(key);
          if (value === undefined) problems.push(`${ns}: ${folder} lacks ${wanted}`);
          else if (!key.endsWith("_one") && placeholders(value).join() !== placeholders(text).join()) {
            problems.push(`${ns}: ${key} has placeholders ${placeholders(text).join()} in English, ${placeholders(value).join()} in ${folder}`);
          }
        }
        for (const key of translated.keys()) {
          if (!en.has(key) && !en.has(key.replace(/_other$/, "_one"))) problems.push(`${ns}: ${folder} has ${key}, English does not`);
        }
      }
      for (const ns of Object.keys(all)) if (!(ns in english)) problems.push(`${folder} has namespace ${ns}, English does not`);
    }
    expect(others.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("name documents that exist, each language's own (the docs namespace)", () => {
    const ROOT = path.join(SRC, "..", "..");
    const named = LANGUAGES.flatMap(({ folder }) =>
      [...leaves(catalogsIn(folder).docs ?? {})].map(([key, doc]) => ({ folder, key, doc })),
    );
    expect(named.length).toBeGreaterThanOrEqual(LANGUAGES.length);
    const missing = named.filter(({ doc }) => {
      try {
        return statSync(path.join(ROOT, doc)).isDirectory();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
    // A translated guide is named where it exists: Chinese's is not the English one.
    const guide = (folder: string) => named.find((n) => n.folder === folder && n.key === "userGuide")?.doc;
    expect(guide("zh-CN")).toBe("docs/zh-CN/user-guide.md");
    expect(guide("en")).toBe("docs/user-guide.md");
  });

  it("follow the system's language, Chinese for any zh tag", () => {
    expect(languageOf(["zh-CN", "en-US"])).toBe("zh");
    expect(languageOf(["zh_CN.UTF-8"])).toBe("zh");
    expect(languageOf(["de-DE", "en-GB"])).toBe("en");
    expect(languageOf(["fr"])).toBe("en");
  });
});

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "gen" && name !== "test") sources(full, out);
    } else if (name.endsWith(".tsx") && !name.includes(".test.")) out.push(full);
  }
  return out;
}

const WORDS = /[A-Za-z]{2,}/;
const SHOWN_ATTRIBUTES = new Set(["aria-label", "title", "placeholder", "alt"]);

/** Literal English a file shows a person: `line: text` each. */
function literals(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what.trim().slice(0, 60)}`);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && WORDS.test(node.text)) at(node, node.text);
    if (ts.isJsxAttribute(node) && SHOWN_ATTRIBUTES.has(node.name.getText(source))) {
      const init = node.initializer;
      const literal =
        init && ts.isStringLiteral(init)
          ? init.text
          : init && ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression))
            ? init.expression.text
            : init && ts.isJsxExpression(init) && init.expression && ts.isTemplateExpression(init.expression)
              ? init.expression.head.text + init.expression.templateSpans.map((s) => s.literal.text).join(" ")
              : null;
      if (literal !== null && WORDS.test(literal)) at(node, `${node.name.getText(source)}="${literal}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the page's sentences", () => {
  const files = sources(SRC);
  const relative = (file: string) => path.relative(SRC, file);
  const waiting = new Set<string>(pending.files);

  it("all come from the catalogs, outside the files not translated yet", () => {
    const problems = files
      .filter((file) => !waiting.has(relative(file)))
      .flatMap((file) => literals(file).map((line) => `${relative(file)}:${line}`));
    expect(problems).toEqual([]);
  });

  it("keeps the list of files not translated yet true: a translated file leaves it", () => {
    const done = [...waiting].filter((file) => {
      const full = path.join(SRC, file);
      return !files.includes(full) || literals(full).length === 0;
    });
    expect(done).toEqual([]);
  });
});

/**
 * Plain modules (a reducer's notice, a notification, an error a person reads, a fallback)
 * build sentences too, out of JSX's sight. `.ts` files other than tests, ../gen and ../test.
 */
function moduleSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "gen" && name !== "test") moduleSources(full, out);
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !name.includes(".test.")) out.push(full);
  }
  return out;
}

/**
 * Two words with only a space (and quotes, a comma or a bracket) between: prose, not a token
 * (a class list's `button--small`, a path, a `snake_case` code are not words).
 */
const PROSE = /(?<![\w./$-])[A-Za-z]{2,}["'“”‘’,:;]?\s+["'“”‘’(]?[A-Za-z]{2,}(?![\w/-])/;
/** Where a value is shown: a notice's title or body, a label, an error's message... */
const SHOWN_NAME = /(title|body|message|label|headline|description|summary|text|hint|reason|detail|error|problem)s?$/i;

/**
 * English a plain module may hold, each with why; `text` is the literal's start (a
 * template's holes read as `{}`). A sentence that reaches a person belongs in a catalog.
 */
const ALLOWED: readonly { file: string; text: string | RegExp; why: string }[] = [
  {
    file: "features/chat/pastes.ts",
    text: "Pasted text (",
    why: "goes to the model inside the message, not shown to the person (the chip says it from chat:composer)",
  },
  {
    file: "features/settings/presets.ts",
    text: /^[a-z]+(\.[a-z]+)+ → /,
    why: "where a provider's site gives keys: its address and its menu's own words, which the site shows in English",
  },
  {
    file: "features/settings/presets.ts",
    text: /^(OpenAI|Anthropic|Google Gemini|DeepSeek|OpenRouter)$/,
    why: "the providers' and their wire formats' product names, the same in every language",
  },
  {
    file: "i18n/index.ts",
    text: "no catalogs for ",
    why: "only a broken build throws it, for its developer; the sentence around it is translated (appearance:languageFailed)",
  },
];

/** A literal's text, a template's holes as `{}`. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `{}${s.literal.text}`).join("");
  return null;
}

/** The name a value is given to (a property, a variable), through `?:`, `??`, `||` and brackets. */
function shownName(node: ts.Node, source: ts.SourceFile): string | null {
  let child = node;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    (ts.isConditionalExpression(parent) && parent.condition !== child) ||
    (ts.isBinaryExpression(parent) &&
      (parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || parent.operatorToken.kind === ts.SyntaxKind.BarBarToken))
  ) {
    child = parent;
    parent = parent.parent;
  }
  if ((ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) && parent.initializer === child) {
    return parent.name.getText(source);
  }
  // `new IpcError(command, code, message, …)`: the message a person reads.
  if (ts.isNewExpression(parent) && parent.expression.getText(source) === "IpcError" && parent.arguments?.[2] === child) return "message";
  // A notification helper's arguments: `notify…(…)`, `sendNotification(…)`.
  if (ts.isCallExpression(parent) && /notif/i.test(parent.expression.getText(source))) return "notification";
  return null;
}

/** Where a literal is code, not words: a key, a log line, a type, a value compared against. */
function isCode(node: ts.Node, source: ts.SourceFile): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent)) return true;
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (
      op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      op === ts.SyntaxKind.EqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsToken
    ) {
      return true;
    }
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const callee = parent.expression.getText(source);
    if (/^console\./.test(callee) || callee === "t" || /\.t$/.test(callee)) return true;
  }
  return false;
}

/** English sentences a plain module holds: `line: text` each, with the literal's text. */
function moduleLiterals(file: string, code = readFileSync(file, "utf8")): { line: string; text: string }[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { line: string; text: string }[] = [];
  const visit = (node: ts.Node) => {
    const text = literalText(node);
    if (text !== null && !isCode(node, source)) {
      const name = shownName(node, source);
      const shown = name !== null && (name === "notification" || SHOWN_NAME.test(name));
      // Prose anywhere; in a shown place, any word ("{} tools.", "Failed").
      if (PROSE.test(text) || (shown && WORDS.test(text))) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ line: `${line}: ${text.slice(0, 60)}`, text });
      }
    }
    // A template's own holes may hold literals of their own.
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function allowed(file: string, text: string): boolean {
  return ALLOWED.some((a) => a.file === file && (typeof a.text === "string" ? text.startsWith(a.text) : a.text.test(text)));
}

describe("the modules' sentences", () => {
  const relative = (file: string) => path.relative(SRC, file);
  const found = moduleSources(SRC).flatMap((file) => moduleLiterals(file).map((l) => ({ file: relative(file), ...l })));

  it("all come from the catalogs too, outside the few English ones allowed", () => {
    expect(found.length).toBeGreaterThan(0);
    const problems = found.filter((l) => !allowed(l.file, l.text)).map((l) => `${l.file}:${l.line}`);
    expect(problems).toEqual([]);
  });

  it("keep the allowed English true: each still names a literal that is there", () => {
    const matches = (a: (typeof ALLOWED)[number], text: string) =>
      typeof a.text === "string" ? text.startsWith(a.text) : a.text.test(text);
    const stale = ALLOWED.filter((a) => !found.some((l) => l.file === a.file && matches(a, l.text)));
    expect(stale.map((a) => `${a.file}: ${String(a.text)}`)).toEqual([]);
  });

  it("tell a sentence from code", () => {
    const texts = (code: string) => moduleLiterals("probe.ts", code).map((l) => l.text);
    expect(
      texts(`
        const info = { kind: "info", title: "Model switched", body: \`\${n} tools.\` };
        const label = name === "" ? "A session" : name;
        const why = () => \`\${label} is done.\`;
        const title = failed ? \`\${where} failed\` : null;
        throw new IpcError("send", "conflict", "Wait", false);
        notifySession({ body: "x" }, "Approval needed");
      `),
    ).toEqual(["Model switched", "{} tools.", "A session", "{} is done.", "{} failed", "Wait", "Approval needed"]);
    expect(
      texts(`
        import { x } from "some module";
        type Kind = "hook ran" | "turn ended";
        console.error(\`Could not open \${uri}:\`, error);
        if (source === "OS keychain") t("settings:keySource.keychain");
        switch (kind) { case "needs auth": break; }
        const preset = { name: "openai", kind: "file_edit", className: "button button--small", key: "memo.drafts" };
        const title = \`/\${command}\`;
      `),
    ).toEqual([]);
  });
});

describe("the system's language", () => {
  it("comes from the shell's reading of the environment once it arrives", async () => {
    const { setSystemLanguages, systemLanguage } = await import(".");
    setSystemLanguages(["zh_CN", "en"]);
    try {
      expect(systemLanguage()).toBe("zh");
    } finally {
      setSystemLanguages([]);
    }
    expect(systemLanguage()).toBe("en");
  });
});
