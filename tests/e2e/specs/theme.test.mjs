// The UI follows the desktop's light/dark preference (WebKitGTK maps a dark GTK theme to
// `prefers-color-scheme: dark`), so a dark desktop must not get a white window.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";

/** Relative luminance (0 = black, 1 = white) of a CSS `rgb()`/`rgba()` string. */
function luminance(cssColor) {
  const channels = cssColor.match(/[\d.]+/g)?.slice(0, 3).map(Number);
  assert.ok(channels?.length === 3, `not an rgb colour: ${cssColor}`);
  const linear = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
}

describe("Memo desktop dark theme", { timeout: 120_000 }, () => {
  let app;

  before(async () => {
    app = await launchApp({ env: { GTK_THEME: "Adwaita:dark" } });
  });

  after(async () => {
    await app?.stop();
  });

  test("a dark desktop theme gives a dark window with readable text", async (t) => {
    try {
      const body = await app.driver.wait(until.elementLocated(By.css("body")), 15_000);
      await app.driver.wait(until.elementLocated(By.css('[data-testid="status-version"]')), 15_000);
      const background = luminance(await body.getCssValue("background-color"));
      const text = luminance(await body.getCssValue("color"));
      assert.ok(background < 0.05, `background too light for dark mode: ${background}`);
      assert.ok(text > 0.6, `text too dark to read on the dark background: ${text}`);
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });
});
