// Smoke test of the real desktop binary: it starts, renders the shell, and shows the
// version and MEMO_HOME that the Rust side computed.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { rustPlatform, workspaceVersion } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 15_000;

describe("Memo desktop smoke", { timeout: 120_000 }, () => {
  let app;

  before(async () => {
    // Pin the light theme so screenshots do not depend on the desktop's preference. A
    // configured provider (never contacted) skips the first-run screen.
    app = await launchApp({
      env: { GTK_THEME: "Adwaita" },
      homeFiles: {
        "config.toml": '[[providers.local]]\nname = "local"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n',
      },
    });
  });

  after(async () => {
    // Also runs when a test failed, so no process is left behind either way.
    await app?.stop();
  });

  const byTestId = (id) => By.css(`[data-testid="${id}"]`);
  const textOf = async (id) => {
    const element = await app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
    return (await element.getText()).trim();
  };

  /** Runs a test body and always saves a screenshot named after the test. */
  const withScreenshot = (body) => async (t) => {
    try {
      await body(t);
    } finally {
      await app?.screenshot(t.name).catch(() => {});
    }
  };

  test(
    "the window opens with the sidebar and the empty chat",
    withScreenshot(async () => {
      assert.equal(await app.driver.getTitle(), "Memo");
      assert.match(await textOf("chat-empty"), /Open a folder to start/);
      assert.match(await textOf("sessions-empty"), /Conversations you start will be listed here/);
      assert.match(await textOf("workspaces-empty"), /No folders opened yet/);
    }),
  );

  test(
    "the status bar shows the version and MEMO_HOME computed by the Rust side",
    withScreenshot(async () => {
      const version = workspaceVersion();
      assert.equal(await textOf("status-version"), `v${version}`);
      // The exact temp path the harness passed in MEMO_HOME proves the value made the
      // round trip env -> Rust -> IPC -> React rather than being a UI default.
      assert.equal(await textOf("status-memo-home"), app.memoHome);
      assert.equal(await textOf("status-engine"), `memo-engine ${version}`);
      assert.equal(await textOf("status-platform"), rustPlatform());
    }),
  );

  test("on a machine without a GPU the page is drawn without WebKit's compositing", async () => {
    // Compositing on Mesa's software GL costs several times the CPU and memory of painting
    // without it (src-tauri/src/rendering.rs); with a GPU render node WebKit keeps its own.
    const gpu = existsSync("/dev/nvidia0") || (existsSync("/dev/dri") && readdirSync("/dev/dri").some((n) => n.startsWith("renderD")));
    const web = app.processes().find(({ cmdline }) => /WebKitWebProcess/.test(cmdline));
    assert.ok(web, "no web process found");
    const environ = readFileSync(`/proc/${web.pid}/environ`, "utf8").split("\0");
    assert.equal(environ.includes("WEBKIT_DISABLE_COMPOSITING_MODE=1"), !gpu);
  });

  test("stopping the app leaves no process behind", async () => {
    assert.ok(app.processes().length > 0, "expected the app's processes to be running before stop");
    const leftovers = await app.stop();
    assert.deepEqual(leftovers, [], "processes survived a graceful stop and had to be killed");
    assert.deepEqual(app.processes(), []);
  });
});
