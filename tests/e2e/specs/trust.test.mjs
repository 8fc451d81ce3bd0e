// Workspace trust on the real app: a folder whose .mcp.json would start a program asks
// first and starts nothing until trusted (the server leaves a mark on disk when it runs);
// refusing leaves sessions working with a banner saying what is off; trusting starts the
// server in the next session; Settings → Trusted folders lists the decision and forgets it.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { setTimeout as sleep } from "node:timers/promises";

import { launchApp } from "../lib/app.mjs";
import { everythingServer } from "../lib/paths.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";

/** server-everything's script, found in `before`. */
let EVERYTHING;

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Trusting a folder before its project files start programs", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;
  let marker;

  before(async () => {
    EVERYTHING = everythingServer();
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-trust-")));
    marker = path.join(project, "server-started");
    writeFileSync(
      path.join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { probe: { command: "sh", args: ["-c", `touch '${marker}'; exec node '${EVERYTHING}' stdio`] } },
      }),
    );
    mock = await startMockLlm({ responses: [{ text: "Hello from an untrusted folder." }, { text: "Hello again." }] });
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id, root = app.driver) => root.findElement(byTestId(id));
  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const gone = (id) =>
    app.driver.wait(async () => (await countNow(app.driver, byTestId(id))) === 0, UI_TIMEOUT_MS, `${id} stays`);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const send = async (text, turns) => {
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys(text, Key.ENTER);
    await app.driver.wait(
      async () => (await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'))).length === turns,
      UI_TIMEOUT_MS,
      "the turn did not complete",
    );
  };

  test("opening the folder asks first, naming the exact command, and starts nothing", async () => {
    const dialog = await wait("trust-dialog");
    const listed = await (await find("trust-servers", dialog)).getText();
    assert.match(listed, /probe/);
    assert.match(listed, /sh -c/);
    assert.match(listed, /server-everything/);
    await shot("trust prompt for a folder with .mcp.json");
    await sleep(1500);
    assert.equal(existsSync(marker), false, "the server ran before anyone agreed");
  });

  test("refused: sessions still work, a banner says the server is off, nothing starts", async () => {
    await (await find("trust-refuse")).click();
    await gone("trust-dialog");
    const banner = await wait("trust-banner");
    assert.match(await banner.getText(), /probe is not used/);
    await send("hi", 1);
    await sleep(1000);
    assert.equal(existsSync(marker), false, "an untrusted folder's server was started");
    await shot("untrusted folder banner after a turn");
  });

  test("trusted from the banner: the next session starts the server", async () => {
    await (await find("trust-review")).click();
    await (await wait("trust-accept")).click();
    await gone("trust-dialog");
    await gone("trust-banner");
    await (await find("new-session")).click();
    await send("hi again", 1);
    await app.driver.wait(() => existsSync(marker), UI_TIMEOUT_MS, "the trusted folder's server did not start");
  });

  test("Settings lists the decision with what it allowed, and forgetting it asks again", async () => {
    await (await find("open-settings")).click();
    await (await wait("settings-nav-trust")).click();
    const row = await wait("trust-decision");
    const text = await row.getText();
    assert.match(text, new RegExp(path.basename(project)));
    assert.match(text, /Trusted/);
    assert.match(text, /\.mcp\.json probe: sh -c/);
    await shot("settings trusted folders");
    await (await find("trust-forget", row)).click();
    await wait("trust-page-empty");
    await (await find("settings-close")).click();
    // Coming back to the window reads the folder's trust again: asked anew.
    await app.driver.executeScript("window.dispatchEvent(new Event('focus'))");
    await wait("trust-dialog");
  });
});
