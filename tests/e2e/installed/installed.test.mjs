// The installed package: the app from /usr/bin starts, talks to a model, and reports what
// it costs to start. Run by scripts/lib/installed-package.sh with MEMO_APP_BINARY set to
// the installed binary; not part of the regular spec run (it needs the package installed).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** Resident memory of a process in MiB, from /proc. */
function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

describe("The installed Memo package", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;
  let launchedMs;

  before(async () => {
    assert.match(process.env.MEMO_APP_BINARY ?? "", /^\/usr\/bin\/memo-desktop$/, "MEMO_APP_BINARY is the installed app");
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-installed-"));
    mock = await startMockLlm({ responses: [{ text: "Hello from the installed app." }] });
    const started = Date.now();
    app = await launchApp({ env: { GTK_THEME: "Adwaita" }, homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) } });
    await app.driver.wait(until.elementLocated(byTestId("folder-path-input")), UI_TIMEOUT_MS);
    launchedMs = Date.now() - started;
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test("starts from /usr/bin and answers a message through the mock model", async (t) => {
    try {
      const processes = app.processes();
      const main = processes.find((p) => p.cmdline.startsWith("/usr/bin/memo-desktop"));
      assert.ok(main, `the installed binary runs: ${JSON.stringify(processes)}`);
      await (await app.driver.findElement(byTestId("folder-path-input"))).sendKeys(project);
      await (await app.driver.findElement(byTestId("folder-path-open"))).click();
      const box = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
      await box.sendKeys("hello?", Key.ENTER);
      const answer = await app.driver.wait(until.elementLocated(byTestId("assistant-text")), UI_TIMEOUT_MS);
      await app.driver.wait(until.elementTextIs(answer, "Hello from the installed app."), UI_TIMEOUT_MS);
      const web = processes.filter((p) => /WebKitWebProcess/.test(p.cmdline));
      // Figures for the release notes: start-up to an interactive window, and memory.
      console.log(
        `installed app: ${launchedMs} ms to an interactive window (WebDriver session included); ` +
          `RSS app ${rssMiB(main.pid)} MiB, web process ${web.map((p) => rssMiB(p.pid)).join("+") || "?"} MiB`,
      );
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});
