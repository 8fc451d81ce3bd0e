// The page's words, in the person's language. Every sentence a person reads comes from a
// catalog (./locales/<language>/<namespace>.json, one namespace per feature), through
// i18next: interpolation and plurals by the library, never by concatenation. Adding a
// language is adding a folder of catalogs and a line to LANGUAGES.
//
// Only English, the language every other falls back to, is in the page's bundle. Another
// language's catalogs are loaded when it becomes the page's language, at start-up (before
// the first render, see ../main.tsx) or when the person picks it: loaded first, then
// switched to, so no frame shows a half-translated page. Vite puts each language's files
// in a chunk of their own (vite.config.ts).
//
// Memory: the page keeps WebKit from loading ICU (see ../format.ts), and i18next touches
// Intl in two places only: cleaning language codes (off: the codes here are plain) and
// plural rules (replaced by the rules of the languages we ship, below). So switching to
// Chinese costs the catalogs, not ICU's data.
import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";

import { setFormatLanguage } from "../format";
import { pageStorage } from "../state/pageStorage";

/** What a person can choose; "system" follows the desktop's language. */
export type LanguageChoice = "system" | Language;
/** The languages the page is written in (i18next's codes: no region, see above). */
export type Language = "en" | "zh";

/** Each language's folder under ./locales, also its BCP 47 tag (the page's `lang`). */
export const LANGUAGES: readonly { code: Language; folder: string; name: string }[] = [
  { code: "en", folder: "en", name: "English" },
  { code: "zh", folder: "zh-CN", name: "简体中文" },
];

/** The language a key missing elsewhere falls back to; its catalogs are always there. */
const FALLBACK: Language = "en";

const CHOICE_KEY = "memo.language";

type Catalog = Record<string, unknown>;

// Vite reads the globs at build time; they must be literals, hence `en` spelled out.
/** English's catalogs, in the bundle: `./locales/en/chat.json` → chat. */
const bundled = import.meta.glob<Catalog>("./locales/en/*.json", { eager: true, import: "default" });
/** Every other language's catalogs, each a module imported when its language is wanted. */
const unbundled = import.meta.glob<Catalog>(["./locales/*/*.json", "!./locales/en/*.json"], { import: "default" });

/** `./locales/zh-CN/chat.json` → ["zh-CN", "chat"]. */
function placeOf(path: string): [folder: string, namespace: string] | null {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return match?.[1] && match[2] ? [match[1], match[2]] : null;
}

function folderOf(language: Language): string {
  return LANGUAGES.find((l) => l.code === language)?.folder ?? language;
}

const english: Record<string, Catalog> = {};
for (const [path, catalog] of Object.entries(bundled)) {
  const place = placeOf(path);
  if (place) english[place[1]] = catalog;
}

/** Imports every catalog of a language other than English: all of them, or a failure. */
async function importCatalogs(language: Language): Promise<Record<string, Catalog>> {
  const folder = folderOf(language);
  const imports = Object.entries(unbundled).flatMap(([path, load]) => {
    const place = placeOf(path);
    return place?.[0] === folder ? [load().then((catalog) => [place[1], catalog] as const)] : [];
  });
  if (imports.length === 0) throw new Error(`no catalogs for ${folder} in src/i18n/locales`);
  return Object.fromEntries(await Promise.all(imports));
}

/** The languages whose catalogs i18next has: English from the start, others once loaded. */
const registered = new Set<Language>([FALLBACK]);
/** Loads under way, so two wishes for one language import it once. */
const loading = new Map<Language, Promise<void>>();

/** Whether a language's catalogs are loaded, so switching to it is immediate. */
export function isLanguageLoaded(language: Language): boolean {
  return registered.has(language);
}

/**
 * Loads a language's catalogs into i18next (once; English is always there) without
 * switching to it. A failed load is forgotten, so a later wish tries again.
 */
export function loadLanguage(language: Language): Promise<void> {
  initialize();
  if (registered.has(language)) return Promise.resolve();
  let load = loading.get(language);
  if (load === undefined) {
    load = importCatalogs(language).then(
      (catalogs) => {
        for (const [namespace, catalog] of Object.entries(catalogs)) {
          i18next.addResourceBundle(language, namespace, catalog, true, true);
        }
        registered.add(language);
        loading.delete(language);
      },
      (error: unknown) => {
        loading.delete(language);
        throw error;
      },
    );
    loading.set(language, load);
  }
  return load;
}

/**
 * The language of a BCP 47 tag list as the system gives it (navigator.languages follows
 * LANGUAGE / LC_ALL / LC_MESSAGES / LANG in WebKitGTK): the first one the page speaks.
 */
export function languageOf(tags: readonly string[]): Language {
  for (const tag of tags) {
    const primary = tag.toLowerCase().split(/[-_.@]/)[0];
    if (primary === "zh") return "zh";
    if (primary === "en") return "en";
  }
  return "en";
}

/** The desktop's languages as the shell read them from its environment; null until then. */
let shellLanguages: readonly string[] | null = null;

/** The languages the shell put in the page before it loaded (src-tauri/src/languages.rs). */
function scriptLanguages(): readonly string[] | null {
  if (typeof window === "undefined") return null;
  const given = (window as { __MEMO_SYSTEM_LANGUAGES__?: unknown }).__MEMO_SYSTEM_LANGUAGES__;
  return Array.isArray(given) && given.every((tag) => typeof tag === "string") ? (given as string[]) : null;
}

export function systemLanguage(): Language {
  if (shellLanguages !== null && shellLanguages.length > 0) return languageOf(shellLanguages);
  const early = scriptLanguages();
  if (early !== null && early.length > 0) return languageOf(early);
  if (typeof navigator === "undefined") return "en";
  return languageOf(navigator.languages?.length ? navigator.languages : [navigator.language ?? "en"]);
}

/**
 * Takes the languages the shell read (LANGUAGE, LC_ALL, LC_MESSAGES, LANG): WebKit's
 * navigator.languages misses them when the locale is not installed. A page following the
 * system switches as soon as that language's catalogs are loaded.
 */
export function setSystemLanguages(languages: readonly string[]): void {
  shellLanguages = languages;
  // A choice being loaded is the person's: the system's language does not overrule it.
  if (choiceNow() !== "system" || !i18next.isInitialized) return;
  switchTo(systemLanguage()).catch((error: unknown) => {
    console.error(`Memo UI: the system's language (${systemLanguage()}) could not be loaded; the page stays in ${i18next.language}:`, error);
  });
}

/** Plural categories of the shipped languages, without Intl.PluralRules. */
function pluralRule(code: string) {
  const english = code === "en" || code === "dev";
  const categories = english ? ["one", "other"] : ["other"];
  return {
    select: (n: number) => (english && n === 1 ? "one" : "other"),
    resolvedOptions: () => ({ pluralCategories: [...categories] }),
  };
}

export function storedChoice(): LanguageChoice {
  const stored = pageStorage()?.getItem(CHOICE_KEY);
  return stored === "en" || stored === "zh" ? stored : "system";
}

/** The choice in force: the one applied in this window, else the stored one. */
export function currentChoice(): LanguageChoice {
  return applied ?? storedChoice();
}

export function resolveChoice(choice: LanguageChoice): Language {
  return choice === "system" ? systemLanguage() : choice;
}

/** i18next, once, in English (the only language it has before another is loaded). */
function initialize(): void {
  if (i18next.isInitialized) return;
  void i18next.use(initReactI18next).init({
    resources: { [FALLBACK]: english },
    lng: FALLBACK,
    fallbackLng: FALLBACK,
    // Plain codes, so i18next never asks Intl to clean them.
    cleanCode: false,
    load: "currentOnly",
    defaultNS: "common",
    ns: Object.keys(english),
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const resolver = i18next.services.pluralResolver as unknown as { getRule: (code: string) => unknown };
  resolver.getRule = pluralRule;
  show(FALLBACK);
}

/** Puts a loaded language on the page: its words, its dates, the document's `lang`. */
function show(language: Language): void {
  // Synchronous: every catalog is in i18next's store already, no backend to wait for.
  if (i18next.language !== language) void i18next.changeLanguage(language);
  setFormatLanguage(language);
  if (typeof document !== "undefined") document.documentElement.lang = folderOf(language);
}

/** The newest wish for a language: an older one whose load ends later switches nothing. */
let latest = 0;
/** The person's choice being loaded, while its wish is the newest. */
let wanted: { choice: LanguageChoice; wish: number } | null = null;
/** The person's choice applied in this window; null before any. */
let applied: LanguageChoice | null = null;

/** The person's choice under way, or else the one in force. */
function choiceNow(): LanguageChoice {
  return wanted !== null && wanted.wish === latest ? wanted.choice : currentChoice();
}

/**
 * Switches to a language once its catalogs are loaded: at once (before this returns) when
 * they are. Rejects, the page's language unchanged, when they cannot be loaded, unless a
 * newer wish came meanwhile (that one decides). `then` runs just before the switch.
 */
function switchTo(language: Language, wish = ++latest, then?: () => void): Promise<void> {
  const apply = () => {
    if (wish !== latest) return;
    then?.();
    show(language);
  };
  initialize();
  if (registered.has(language)) {
    apply();
    return Promise.resolve();
  }
  return loadLanguage(language).then(apply, (error: unknown) => {
    if (wish === latest) throw error;
  });
}

/**
 * The page's i18next in `language` (by default the stored choice's), its catalogs loaded
 * first; resolves once the page speaks it (at once for a loaded language, English always).
 * Rejects when they cannot be loaded: the page stays in the language it had (English at
 * start-up).
 */
export function setUpI18n(language: Language = resolveChoice(storedChoice())): Promise<I18n> {
  return switchTo(language).then(() => i18next);
}

/**
 * Takes a person's choice: its catalogs loaded, then applied and kept for next time.
 * Rejects when they cannot be loaded, leaving the language and the kept choice as they were.
 */
export function chooseLanguage(choice: LanguageChoice): Promise<void> {
  const wish = ++latest;
  wanted = { choice, wish };
  return switchTo(resolveChoice(choice), wish, () => {
    const store = pageStorage();
    if (choice === "system") store?.removeItem(CHOICE_KEY);
    else store?.setItem(CHOICE_KEY, choice);
    applied = choice;
    wanted = null;
  }).catch((error: unknown) => {
    // A failure arrives only while this is the newest wish: the choice in force holds.
    wanted = null;
    throw error;
  });
}

/** The translate function of one namespace (a feature's catalog). */
export function useT(namespace: string) {
  return useTranslation(namespace).t;
}

/** Words outside React (a formatter, a reducer's message), in the current language. */
export function t(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(key, options);
}
