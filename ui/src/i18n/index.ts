// The page's words, in the person's language. Every sentence a person reads comes from a
// catalog (./locales/<language>/<namespace>.json, one namespace per feature), through
// i18next: interpolation and plurals by the library, never by concatenation. Adding a
// language is adding a folder of catalogs and a line to LANGUAGES.
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

export const LANGUAGES: readonly { code: Language; folder: string; name: string }[] = [
  { code: "en", folder: "en", name: "English" },
  { code: "zh", folder: "zh-CN", name: "简体中文" },
];

const CHOICE_KEY = "memo.language";

type Catalog = Record<string, unknown>;

/** Every catalog file, read at build time: `./locales/zh-CN/chat.json` → zh / chat. */
const files = import.meta.glob<Catalog>("./locales/*/*.json", { eager: true, import: "default" });

export function catalogs(): Record<Language, Record<string, Catalog>> {
  const out = {} as Record<Language, Record<string, Catalog>>;
  for (const { code } of LANGUAGES) out[code] = {};
  for (const [path, catalog] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    const language = LANGUAGES.find((l) => l.folder === match?.[1]);
    if (!match?.[2] || language === undefined) continue;
    out[language.code][match[2]] = catalog;
  }
  return out;
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

export function systemLanguage(): Language {
  if (shellLanguages !== null && shellLanguages.length > 0) return languageOf(shellLanguages);
  if (typeof navigator === "undefined") return "en";
  return languageOf(navigator.languages?.length ? navigator.languages : [navigator.language ?? "en"]);
}

/**
 * Takes the languages the shell read (LANGUAGE, LC_ALL, LC_MESSAGES, LANG): WebKit's
 * navigator.languages misses them when the locale is not installed. A page following the
 * system switches at once.
 */
export function setSystemLanguages(languages: readonly string[]): void {
  shellLanguages = languages;
  if (storedChoice() === "system" && i18next.isInitialized) setUpI18n(systemLanguage());
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

export function resolveChoice(choice: LanguageChoice): Language {
  return choice === "system" ? systemLanguage() : choice;
}

/** The page's i18next, set up once; `language` defaults to the stored choice. */
export function setUpI18n(language: Language = resolveChoice(storedChoice())): I18n {
  if (!i18next.isInitialized) {
    const resources = catalogs();
    void i18next.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: "en",
      // Plain codes, so i18next never asks Intl to clean them.
      cleanCode: false,
      load: "currentOnly",
      defaultNS: "common",
      ns: Object.keys(resources.en),
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    const resolver = i18next.services.pluralResolver as unknown as { getRule: (code: string) => unknown };
    resolver.getRule = pluralRule;
  } else if (i18next.language !== language) {
    void i18next.changeLanguage(language);
  }
  setFormatLanguage(language);
  if (typeof document !== "undefined") document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  return i18next;
}

/** Takes a person's choice: kept for next time, applied at once. */
export function chooseLanguage(choice: LanguageChoice): void {
  const store = pageStorage();
  if (choice === "system") store?.removeItem(CHOICE_KEY);
  else store?.setItem(CHOICE_KEY, choice);
  setUpI18n(resolveChoice(choice));
}

/** The translate function of one namespace (a feature's catalog). */
export function useT(namespace: string) {
  return useTranslation(namespace).t;
}

/** Words outside React (a formatter, a reducer's message), in the current language. */
export function t(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(key, options);
}
