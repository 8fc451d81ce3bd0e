// The catalogs are complete and the page has no sentence outside them: a JSX text, an
// aria-label, a title, a placeholder or an alt holding English words fails here, unless
// its file is on the (shrinking) list of files not translated yet; and no language lacks
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
