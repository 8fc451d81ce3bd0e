// Claude Code plugins in the real app: Settings → Plugins installs the fixture plugin from
// a folder (memo-plugins' tests/fixtures/memo-demo), lists it with its version, source and
// every part under its namespace (a command, a skill, an agent, a hook and an MCP server),
// switches it off, and removes it after a confirmation while its source folder stays.
// Screenshots in light and dark (E2E_GTK_THEME).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../src-tauri/crates/plugins/tests/fixtures/memo-demo",
);
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Settings → Plugins", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let source;

  before(async () => {
    // A copy, so the test can see that removing never touches the folder it came from.
    source = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-plugin-"))), "memo-demo");
    cpSync(FIXTURE, source, { recursive: true });
    mock = await startMockLlm({ responses: [] });
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (source) rmSync(path.dirname(source), { recursive: true, force: true });
  });

  const find = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const text = async (id) => (await find(id)).getAttribute("textContent");

  test("a folder that is not a plugin is refused inline", async () => {
    await (await find("open-settings")).click();
    await (await find("settings-nav-plugins")).click();
    await find("plugins-empty");
    await (await find("plugin-source-input")).sendKeys(path.dirname(source));
    await (await find("plugin-install-submit")).click();
    assert.match(await text("plugin-install-error"), /not a Claude Code plugin/);
    await shot("plugins install error");
  });

  test("installs the fixture from its folder and lists it with its parts", async () => {
    const input = await find("plugin-source-input");
    await app.driver.executeScript("arguments[0].select()", input);
    await input.sendKeys(source);
    await (await find("plugin-install-submit")).click();
    const card = await find("plugin");
    assert.equal(await card.getAttribute("data-name"), "memo-demo");
    assert.equal(await card.getAttribute("data-enabled"), "true");
    assert.equal(await text("plugin-source"), source);
    assert.equal(await text("plugin-summary"), "1 command · 1 skill · 1 agent · 1 hook · 1 MCP server");
    assert.match(await text("plugin-commands"), /\/memo-demo:greet/);
    assert.match(await text("plugin-skills"), /memo-demo:release-notes/);
    assert.match(await text("plugin-agents"), /memo-demo:reviewer/);
    assert.match(await text("plugin-hooks"), /UserPromptSubmit/);
    assert.match(await text("plugin-servers"), /memo-demo_notes/);
    assert.equal(await countNow(app.driver, byTestId("plugin-install-error")), 0);
    assert.ok(existsSync(path.join(app.memoHome, "plugins", "memo-demo", ".claude-plugin", "plugin.json")));
    await shot("plugins installed");
  });

  test("installing it again asks to replace", async () => {
    await (await find("plugin-install-submit")).click();
    assert.match(await text("plugin-install-error"), /already installed/);
    await find("plugin-replace");
    await shot("plugins replace offered");
    await (await find("plugin-replace")).click();
    // The error goes at the click, the replace ends later: the form is busy until then.
    await app.driver.wait(until.elementIsEnabled(await find("plugin-install-submit")), UI_TIMEOUT_MS, "the replace did not finish");
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("plugin-install-error"))) === 0, UI_TIMEOUT_MS);
    assert.equal((await app.driver.findElements(byTestId("plugin"))).length, 1);
  });

  test("switches it off", async () => {
    await (await find("plugin-enabled")).click();
    await app.driver.wait(
      async () => (await countNow(app.driver, By.css('[data-testid="plugin"][data-enabled="false"]'))) === 1,
      UI_TIMEOUT_MS,
      "the plugin stays on",
    );
    await shot("plugins disabled");
  });

  test("removes it after a confirmation and leaves its source folder alone", async () => {
    await (await find("plugin-remove")).click();
    const dialog = await find("confirm-dialog");
    assert.match(await dialog.getText(), /not touched/);
    await shot("plugins remove confirmation");
    await (await dialog.findElement(By.xpath(".//button[normalize-space()='Remove']"))).click();
    await find("plugins-empty");
    assert.ok(!existsSync(path.join(app.memoHome, "plugins", "memo-demo")));
    assert.ok(existsSync(path.join(source, ".claude-plugin", "plugin.json")));
  });
});
