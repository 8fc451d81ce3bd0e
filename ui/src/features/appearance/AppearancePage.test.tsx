// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { setUpI18n } from "../../i18n";
import { formatDate } from "../../format";
import { AppearancePage } from "./AppearancePage";

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  setUpI18n("en");
  document.documentElement.removeAttribute("data-theme");
  document.documentElement.style.removeProperty("--text-zoom");
});

describe("Settings → Appearance", () => {
  it("switches the language at once, keeps it, and dates follow", async () => {
    render(<AppearancePage />);
    expect(screen.getByRole("heading").textContent).toBe("Appearance");
    fireEvent.change(screen.getByTestId("appearance-language"), { target: { value: "zh" } });
    // Chinese's catalogs load first (a moment), then the page switches.
    expect((await screen.findByRole("heading", { name: "外观" })).textContent).toBe("外观");
    expect(document.documentElement.lang).toBe("zh-CN");
    expect(window.localStorage.getItem("memo.language")).toBe("zh");
    expect(formatDate({ year: 2026, month: 11, day: 3, hours: 9, minutes: 0 }, false)).toBe("12月3日");
    fireEvent.change(screen.getByTestId("appearance-language"), { target: { value: "system" } });
    expect(window.localStorage.getItem("memo.language")).toBeNull();
    // jsdom's system language is English.
    expect(screen.getByRole("heading").textContent).toBe("Appearance");
  });

  it("puts a chosen theme on the page and scales the text", () => {
    render(<AppearancePage />);
    fireEvent.click(screen.getByTestId("appearance-theme-dark"));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(window.localStorage.getItem("memo.theme")).toBe("dark");
    fireEvent.click(screen.getByTestId("appearance-theme-light"));
    expect(document.documentElement.dataset.theme).toBe("light");
    fireEvent.click(screen.getByTestId("appearance-size-125"));
    expect(document.documentElement.style.getPropertyValue("--text-zoom")).toBe("1.25");
    expect(window.localStorage.getItem("memo.textSize")).toBe("1.25");
  });
});
