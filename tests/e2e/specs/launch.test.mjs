// Opening a folder from outside the window: `memo-desktop DIR` at start, and a second
// launch that hands its folder to the running window instead of starting another one.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp, withTimeout } from "../lib/app.mjs";
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

      // The second launch finds the running window, passes its folder and exits. Named as
      // `.` from inside it: the running app reads it against the launch's own directory.
      const started = Date.now();
      const child = spawn(appBinary(), ["."], { cwd: second, env: app.env, stdio: "ignore" });
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

describe("The window's size and position are remembered", { timeout: 90_000 }, () => {
  let config;
  let app;

  before(() => {
    // The window-state file lives in the config folder; a throwaway one per run, seeded
    // with what an earlier session saved. One launch checks both directions: restoring it
    // at start, and saving a new size (a relaunch doubled the time and hung once under load).
    config = mkdtempSync(path.join(tmpdir(), "memo-e2e-xdg-config-"));
    const dir = path.join(config, "dev.memo.desktop");
    mkdirSync(dir, { recursive: true });
    const saved = { width: 1010, height: 650, x: 40, y: 30, prev_x: 40, prev_y: 30, maximized: false, visible: true, decorated: true, fullscreen: false };
    writeFileSync(path.join(dir, ".window-state.json"), JSON.stringify({ main: saved }));
  });

  after(async () => {
    await app?.stop().catch(() => {});
    if (config) rmSync(config, { recursive: true, force: true });
  });

  test("the window opens at the saved size, and a new size is saved once it settles", async () => {
    app = await launchApp({ env: { GTK_THEME: "Adwaita", XDG_CONFIG_HOME: config } });
    await app.driver.wait(until.elementLocated(byTestId("sidebar")), UI_TIMEOUT_MS);
    const opened = await app.driver.manage().window().getRect();
    assert.equal(opened.width, 1010, "the saved width, not the default 1200");
    assert.equal(opened.height, 650);

    await withTimeout(app.driver.manage().window().setRect({ width: 900, height: 600 }), 20_000, "resizing the window");
    const file = path.join(config, "dev.memo.desktop", ".window-state.json");
    // The plugin rewrites the file in place, so a poll can catch it half written.
    const savedWidth = () => {
      try {
        return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).main?.width : null;
      } catch {
        return null;
      }
    };
    await app.driver.wait(async () => savedWidth() === 900, 10_000, "the new size was never saved");
    assert.deepEqual(await app.stop(), []);
  });
});
