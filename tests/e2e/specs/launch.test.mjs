// Opening a folder from outside the window: `memo-desktop DIR` at start, and a second
// launch that hands its folder to the running window instead of starting another one.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { appBinary } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 20_000;
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Opening folders from outside the window", { timeout: 120_000 }, () => {
  let app;
  let first;
  let second;

  before(async () => {
    first = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-launch-a-")));
    second = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-launch-b-")));
    app = await launchApp({
      env: { GTK_THEME: "Adwaita" },
      args: [first],
      homeFiles: {
        "config.toml": '[[providers.local]]\nname = "local"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n',
      },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    for (const dir of [first, second]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const title = async () =>
    (await app.driver.wait(until.elementLocated(byTestId("chat-title")), UI_TIMEOUT_MS)).getAttribute("textContent");

  test("the folder on the command line opens, and a second launch hands over its own", async (t) => {
    try {
      await app.driver.wait(async () => (await title()) === path.basename(first), UI_TIMEOUT_MS);

      // The second launch finds the running window, passes its folder and exits.
      const started = Date.now();
      const child = spawn(appBinary(), [second], { env: app.env, stdio: "ignore" });
      const code = await new Promise((resolve) => child.once("exit", resolve));
      assert.equal(code, 0, "the second instance exits cleanly");
      assert.ok(Date.now() - started < 15_000, "the second instance did not linger");
      await app.driver.wait(async () => (await title()) === path.basename(second), UI_TIMEOUT_MS);
      const folders = await app.driver.findElements(byTestId("workspace-item"));
      assert.equal(folders.length, 2, "both folders are listed");
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});

describe("The window's size is remembered", { timeout: 120_000 }, () => {
  let config;
  let app;

  before(() => {
    // The window-state file lives in the config folder; a throwaway one per run.
    config = mkdtempSync(path.join(tmpdir(), "memo-e2e-xdg-config-"));
  });

  after(async () => {
    await app?.stop().catch(() => {});
    if (config) rmSync(config, { recursive: true, force: true });
  });

  test("a resized window opens at that size next time", async () => {
    const env = { GTK_THEME: "Adwaita", XDG_CONFIG_HOME: config };
    app = await launchApp({ env });
    await app.driver.wait(until.elementLocated(byTestId("sidebar")), UI_TIMEOUT_MS);
    await app.driver.manage().window().setRect({ width: 1000, height: 640 });
    const resized = await app.driver.manage().window().getRect();
    // Saved once the size settled (the harness ends the app harder than a person would).
    const saved = path.join(config, "dev.memo.desktop", ".window-state.json");
    const savedWidth = () => (existsSync(saved) ? JSON.parse(readFileSync(saved, "utf8")).main?.width : null);
    await app.driver.wait(async () => savedWidth() === resized.width, 5_000, "the new size was never saved");
    assert.deepEqual(await app.stop(), []);

    app = await launchApp({ env });
    await app.driver.wait(until.elementLocated(byTestId("sidebar")), UI_TIMEOUT_MS);
    const reopened = await app.driver.manage().window().getRect();
    assert.equal(reopened.width, resized.width);
    assert.equal(reopened.height, resized.height);
    assert.notEqual(reopened.width, 1200, "not the default size");
  });
});

