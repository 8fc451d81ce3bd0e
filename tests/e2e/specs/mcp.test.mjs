// Settings → MCP on the real app: server-everything added in the form (an env value goes
// to the OS keychain, config.toml only names it), checked, its tools listed and one turned
// off; the page's screenshots in the current theme.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { everythingServer } from "../lib/paths.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";

/** server-everything's script, found in `before`. */
let EVERYTHING;

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("MCP servers in settings", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;
  let home;

  before(async () => {
    EVERYTHING = everythingServer();
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-mcp-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-mcp-home-"));
    mock = await startMockLlm({ responses: [{ text: "Hello." }] });
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      args: [project],
      home,
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const find = (id, root = app.driver) => root.findElement(byTestId(id));
  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  test("server-everything is added, checked and shows its tools; a tool is turned off", async (t) => {
    try {
      await (await wait("open-settings")).click();
      await (await wait("settings-nav-mcp")).click();
      await wait("mcp-empty");
      await shot("mcp empty");

      await (await find("mcp-add")).click();
      await (await wait("mcp-name")).sendKeys("everything");
      await (await find("mcp-command")).sendKeys("node");
      await (await find("mcp-args")).sendKeys(EVERYTHING);
      await (await find("mcp-value-add")).click();
      await (await wait("mcp-value-name")).sendKeys("DEMO_TOKEN");
      await (await find("mcp-value-value")).sendKeys("e2e-secret-value");
      await shot("mcp add form");
      await (await find("mcp-save")).click();

      const card = await app.driver.wait(until.elementLocated(By.css('[data-testid="mcp-server"][data-name="everything"]')), UI_TIMEOUT_MS);
      const config = readFileSync(path.join(home, "config.toml"), "utf8");
      assert.match(config, /\[mcp_servers\.everything\]/);
      assert.match(config, /keychain_env = \["DEMO_TOKEN"\]/);
      assert.ok(!config.includes("e2e-secret-value"), "the value was written to config.toml");
      assert.match(await card.getText(), /keychain/);

      await (await find("mcp-check", card)).click();
      const state = await app.driver.wait(until.elementLocated(By.css('[data-testid="mcp-server"][data-name="everything"] [data-testid="mcp-state"]')), UI_TIMEOUT_MS);
      await app.driver.wait(async () => (await state.getAttribute("data-state")) === "ready", UI_TIMEOUT_MS, "the server did not become ready");
      assert.match(await state.getText(), /Ready · \d+ tools/);
      const echo = await card.findElement(By.css('[data-testid="mcp-tool"][data-name="echo"]'));
      assert.equal(await echo.isSelected(), true);
      await shot("mcp checked");

      // The switch sits on the checkbox's label; clicking the label toggles it.
      await echo.findElement(By.xpath("..")).click();
      await app.driver.wait(async () => /exclude_tools = \["echo"\]/.test(readFileSync(path.join(home, "config.toml"), "utf8")), UI_TIMEOUT_MS, "exclude_tools was not written");
      await app.driver.wait(async () => !(await echo.isSelected()), UI_TIMEOUT_MS, "the tool still shows as on");
      assert.match(await card.getText(), /\d+ of \d+ on/);
      await shot("mcp tool off");
    } catch (error) {
      await shot("mcp failure");
      t.diagnostic(String(error));
      throw error;
    }
  });
});
