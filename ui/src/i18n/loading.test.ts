// Only English's catalogs are in i18next from the start; another language's are loaded
// when it is wanted, and the page switches once they are there. The tests run in order:
// Chinese is not loaded until the second one's choice.
import i18next from "i18next";
import { afterEach, describe, expect, it, vi } from "vitest";

import { chooseLanguage, isLanguageLoaded, type Language, loadLanguage, setSystemLanguages, setUpI18n, t } from ".";

const NAMESPACES = Object.keys(i18next.store.data.en ?? {});

afterEach(() => {
  setSystemLanguages([]);
  void setUpI18n("en");
});

describe("a language other than English", () => {
  it("is not in i18next before it is wanted: its words fall back to English", () => {
    expect(NAMESPACES).toContain("appearance");
    expect(isLanguageLoaded("en")).toBe(true);
    expect(isLanguageLoaded("zh")).toBe(false);
    expect(i18next.hasResourceBundle("zh", "appearance")).toBe(false);
    expect(i18next.t("appearance:title", { lng: "zh" })).toBe("Appearance");
  });

  it("switches nothing when a newer choice came while it loaded", async () => {
    const chinese = chooseLanguage("zh");
    // Not switched before its words are there: no frame shows half a page in Chinese.
    expect(i18next.language).toBe("en");
    expect(t("appearance:title")).toBe("Appearance");
    // English is there already, so it is applied before the call returns.
    void chooseLanguage("en");
    expect(i18next.language).toBe("en");
    await chinese;
    expect(isLanguageLoaded("zh")).toBe(true);
    expect(i18next.language).toBe("en");
    expect(t("appearance:title")).toBe("Appearance");
  });

  it("is loaded whole, then switched to, when chosen", async () => {
    await chooseLanguage("zh");
    expect(i18next.language).toBe("zh");
    expect(t("appearance:title")).toBe("外观");
    expect(NAMESPACES.filter((ns) => !i18next.hasResourceBundle("zh", ns))).toEqual([]);
  });

  it("once loaded, is switched to and from before the call returns", () => {
    void setUpI18n("zh");
    expect(t("common:cancel")).toBe("取消");
    void setUpI18n("en");
    expect(t("common:cancel")).toBe("Cancel");
  });

  it("is loaded once however often it is asked for", async () => {
    await Promise.all([loadLanguage("zh"), loadLanguage("zh"), setUpI18n("zh")]);
    expect(i18next.language).toBe("zh");
  });

  it("is switched to when the shell says the system speaks it and the page follows the system", async () => {
    await chooseLanguage("en");
    setSystemLanguages(["zh_CN.UTF-8"]);
    await Promise.resolve();
    // The person chose English: the system's language does not overrule it.
    expect(i18next.language).toBe("en");
    setSystemLanguages([]);
    // Node's navigator speaks English.
    await chooseLanguage("system");
    expect(i18next.language).toBe("en");
    setSystemLanguages(["zh_CN.UTF-8"]);
    await vi.waitFor(() => expect(i18next.language).toBe("zh"));
    setSystemLanguages(["en_GB"]);
    expect(i18next.language).toBe("en");
  });
});

describe("a language without catalogs", () => {
  it("fails to load, the page staying as it was, rather than showing keys", async () => {
    // As a line added to LANGUAGES without its folder would: Vite found no file for it.
    await expect(loadLanguage("xx" as Language)).rejects.toThrow("no catalogs for xx");
    await expect(setUpI18n("xx" as Language)).rejects.toThrow("no catalogs for xx");
    expect(i18next.language).toBe("en");
  });
});
