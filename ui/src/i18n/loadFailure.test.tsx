// @vitest-environment jsdom
// Chinese's catalogs cannot be loaded (a chunk gone from the install, say): the page keeps
// its language and its kept choice, and Settings → Appearance says so. One of the files
// fails, which fails the whole language: no page half in Chinese.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AppearancePage } from "../features/appearance/AppearancePage";
import { chooseLanguage, isLanguageLoaded, setSystemLanguages, setUpI18n, t } from ".";

// Vitest wraps the factory's error in its own ("There was an error when mocking a module").
const broken = vi.hoisted(() => ({ on: true }));
vi.mock("./locales/zh-CN/chat.json", async (original) => {
  if (broken.on) throw new Error("the chunk is gone");
  return original();
});

beforeEach(() => {
  broken.on = true;
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  void setUpI18n("en");
});

describe("Chinese catalogs that cannot be loaded", () => {
  it("leave the page in English at start-up, though Chinese was chosen", async () => {
    window.localStorage.setItem("memo.language", "zh");
    await expect(setUpI18n()).rejects.toThrow("error when mocking a module");
    expect(i18next.language).toBe("en");
    expect(document.documentElement.lang).toBe("en");
    expect(t("appearance:title")).toBe("Appearance");
    expect(isLanguageLoaded("zh")).toBe(false);
    // Not a single namespace of Chinese got in.
    expect(i18next.hasResourceBundle("zh", "appearance")).toBe(false);
  });

  it("keep the language and the kept choice when chosen", async () => {
    await expect(chooseLanguage("zh")).rejects.toThrow("error when mocking a module");
    expect(i18next.language).toBe("en");
    expect(window.localStorage.getItem("memo.language")).toBeNull();
  });

  it("are the person's failure, not overruled by the system's language arriving meanwhile", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const choosing = chooseLanguage("zh");
      // The shell's reading of the environment arrives while Chinese loads: it must not
      // take over (a newer wish would make this one's failure nobody's).
      setSystemLanguages(["en_US"]);
      await expect(choosing).rejects.toThrow("error when mocking a module");
      expect(error).not.toHaveBeenCalled();
      // Failed, the choice in force is the system's again: the system's language applies.
      setSystemLanguages(["zh_CN.UTF-8"]);
      await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
      expect(String(error.mock.calls[0]?.[0])).toContain("the system's language (zh) could not be loaded; the page stays in en");
      expect(i18next.language).toBe("en");
    } finally {
      setSystemLanguages([]);
      error.mockRestore();
    }
  });

  it("are said in Settings → Appearance, whose choice goes back to the one in force", async () => {
    render(<AppearancePage />);
    const select = screen.getByTestId("appearance-language") as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "zh" } });
    const error = await screen.findByTestId("appearance-language-error");
    expect(error.getAttribute("role")).toBe("alert");
    expect(error.textContent).toMatch(/^简体中文 could not be loaded, so the window keeps its language: .*error when mocking a module/);
    expect(select.value).toBe("system");
    expect(screen.getByRole("heading").textContent).toBe("Appearance");
    expect(window.localStorage.getItem("memo.language")).toBeNull();
  });

  it("are tried again on the next choice, and the error goes once it works", async () => {
    render(<AppearancePage />);
    const select = screen.getByTestId("appearance-language") as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "zh" } });
    await screen.findByTestId("appearance-language-error");
    broken.on = false;
    fireEvent.change(select, { target: { value: "zh" } });
    expect(screen.queryByTestId("appearance-language-error")).toBeNull();
    expect((await screen.findByRole("heading", { name: "外观" })).textContent).toBe("外观");
    expect(select.value).toBe("zh");
    expect(window.localStorage.getItem("memo.language")).toBe("zh");
  });
});
