import { useState } from "react";

import { chooseLanguage, currentChoice, LANGUAGES, type LanguageChoice, resolveChoice, systemLanguage, useT } from "../../i18n";
import {
  chooseTextSize,
  chooseTheme,
  storedTextSize,
  storedTheme,
  TEXT_SIZES,
  type TextSize,
  type ThemeChoice,
} from "../../state/appearance";
import "./appearance.css";
import { PageHeader } from "../../components/PageHeader";

const THEMES: readonly ThemeChoice[] = ["system", "light", "dark"];

/**
 * Settings → Appearance: the language, the theme and the text size. Each choice applies at
 * once, without a restart, and is kept for the next start. A language other than English
 * has its catalogs loaded first; when they cannot be, the page says so and stays as it was.
 */
export function AppearancePage() {
  const t = useT("appearance");
  const [language, setLanguage] = useState<LanguageChoice>(currentChoice);
  const [languageError, setLanguageError] = useState<string | null>(null);
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  const [size, setSize] = useState<TextSize>(storedTextSize);
  const system = LANGUAGES.find((l) => l.code === systemLanguage())?.name ?? "English";
  return (
    <div className="settings-page" data-testid="appearance-page">
      <PageHeader title={t("title")} lead={t("lead")} />
      <section className="appearance__group">
        <label className="appearance__label" htmlFor="appearance-language">
          {t("language")}
        </label>
        <select
          id="appearance-language"
          className="input appearance__select"
          value={language}
          onChange={(event) => {
            const next = event.target.value as LanguageChoice;
            setLanguage(next);
            setLanguageError(null);
            chooseLanguage(next).catch((error: unknown) => {
              setLanguage(currentChoice());
              setLanguageError(
                t("languageFailed", {
                  language: LANGUAGES.find((l) => l.code === resolveChoice(next))?.name ?? next,
                  error: error instanceof Error ? error.message : String(error),
                }),
              );
            });
          }}
          data-testid="appearance-language"
        >
          <option value="system">{t("languageSystem", { language: system })}</option>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code === "zh" ? "zh-CN" : "en"}>
              {l.name}
            </option>
          ))}
        </select>
        {languageError !== null && (
          <p className="form-error" role="alert" data-testid="appearance-language-error">
            {languageError}
          </p>
        )}
        <p className="appearance__hint">{t("languageHint")}</p>
      </section>
      <section className="appearance__group" role="radiogroup" aria-label={t("theme")}>
        <span className="appearance__label">{t("theme")}</span>
        <div className="appearance__choices">
          {THEMES.map((choice) => (
            <label key={choice} className={`appearance__choice${theme === choice ? " appearance__choice--on" : ""}`}>
              <input
                type="radio"
                name="appearance-theme"
                checked={theme === choice}
                onChange={() => {
                  setTheme(choice);
                  chooseTheme(choice);
                }}
                data-testid={`appearance-theme-${choice}`}
              />
              {t(`themes.${choice}`)}
            </label>
          ))}
        </div>
      </section>
      <section className="appearance__group" role="radiogroup" aria-label={t("textSize")}>
        <span className="appearance__label">{t("textSize")}</span>
        <div className="appearance__choices">
          {TEXT_SIZES.map((choice) => (
            <label key={choice} className={`appearance__choice${size === choice ? " appearance__choice--on" : ""}`}>
              <input
                type="radio"
                name="appearance-size"
                checked={size === choice}
                onChange={() => {
                  setSize(choice);
                  chooseTextSize(choice);
                }}
                data-testid={`appearance-size-${Math.round(choice * 100)}`}
              />
              {t("percent", { value: Math.round(choice * 100) })}
            </label>
          ))}
        </div>
      </section>
    </div>
  );
}
