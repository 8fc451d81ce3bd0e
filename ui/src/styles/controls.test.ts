// @vitest-environment jsdom
// The shared control styles, applied to real elements in a document: vitest does not load
// CSS into components' tests, so the style sheets are read and put in here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { readSheet, useSheets } from "../test/styles";

const sheet = (name: string) => readSheet(import.meta.url, name);

/** The dark theme's variables, from the data-theme="dark" block. */
function darkVariables(css: string): Map<string, string> {
  const block = /:root\[data-theme="dark"\]\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
  return new Map([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

let remove = () => {};
beforeAll(() => {
  remove = useSheets(import.meta.url, "app.css", "forms.css");
});
afterAll(() => remove());

describe("shared control styles", () => {
  it("draw checkboxes from the theme's variables, not the toolkit's", () => {
    document.body.innerHTML = `<label class="checkbox"><input type="checkbox" checked /> Remember</label>`;
    const box = document.querySelector("input")!;
    const css = getComputedStyle(box);
    expect(css.getPropertyValue("appearance")).toBe("none");
    expect(css.getPropertyValue("background")).toContain("var(--accent)");
    expect(css.getPropertyValue("border-color")).toContain("var(--accent)");
    // Both themes set the colours they are drawn with.
    const dark = darkVariables(sheet("app.css"));
    for (const name of ["--accent", "--bg-elevated", "--text-faint", "--focus"]) expect(dark.has(name)).toBe(true);
  });

  it("make disabled buttons look disabled, an accent one included", () => {
    document.body.innerHTML = `
      <button class="button button--primary" disabled>Save</button>
      <button class="icon-button" disabled>x</button>
      <button class="button button--primary">Go</button>`;
    const [save, icon, go] = [...document.querySelectorAll("button")].map((b) => getComputedStyle(b));
    expect(save!.cursor).toBe("not-allowed");
    expect(Number(save!.opacity)).toBeLessThan(0.6);
    expect(save!.getPropertyValue("background")).toBe("var(--bg-status)");
    expect(go!.getPropertyValue("background")).toBe("var(--accent)");
    expect(icon!.cursor).toBe("not-allowed");
    expect(Number(icon!.opacity)).toBeLessThan(0.6);
  });
});
