// Approval rules and modes on the real app: "Always in this folder" keeps a rule that
// outlives an app restart and stops the prompt for the same command; deleting the rule in
// Settings → Approvals brings the prompt back; dangerous mode is only entered through a
// confirmation and is marked while on.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const exec = (cmd) => ({ tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd }) }] });

const SCENARIO = {
  responses: [
    exec("true --first"),
    { text: "Ran it once." },
    exec("true --second"),
    { text: "Ran it again, unasked." },
    exec("true --third"),
    { text: "Asked again after the rule went." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Kept approval rules and the approval mode", { timeout: 240_000 }, () => {
  let mock;
  let app;
  let project;
  let home;

  const launch = async () => {
    app = await launchApp({
      env: { GTK_THEME: THEME },
      args: [project],
      home,
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  };

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-rules-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-rules-home-"));
    mock = await startMockLlm(SCENARIO);
    await launch();
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const find = (id, root = app.driver) => root.findElement(byTestId(id));
  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const completed = async (count) =>
    app.driver.wait(
      async () => (await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'))).length === count,
      UI_TIMEOUT_MS,
      "the turn did not complete",
    );
  const send = async (text) => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
      "the folder did not open",
    );
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys(text, Key.ENTER);
  };
  const pendingCard = () =>
    app.driver.wait(until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')), UI_TIMEOUT_MS);

  test("an always-in-this-folder answer keeps a rule", async () => {
    await send("run it");
    const card = await pendingCard();
    assert.match(await (await find("approval-rule", card)).getText(), /true/);
    await shot("approval card offering to keep a rule");
    await (await find("approve-always-project", card)).click();
    await completed(1);
    const rules = JSON.parse(readFileSync(path.join(home, "approval_rules.json"), "utf8")).rules;
    assert.equal(rules.length, 1);
    assert.equal(rules[0].pattern, "true");
    assert.equal(rules[0].project, project);
  });

  test("after a restart the rule still answers: no prompt for the same command", async () => {
    await app.stop();
    await launch();
    await send("run it again");
    await completed(1);
    assert.equal((await app.driver.findElements(byTestId("approval-card"))).length, 0, "asked despite the kept rule");
    // Its card says why it ran without asking.
    const decision = await find("approval-decision", await find("tool-card"));
    assert.equal(await decision.getAttribute("textContent"), "Allowed by rule true");
  });

  test("deleting the rule in settings brings the prompt back", async () => {
    await (await find("open-settings")).click();
    await (await wait("settings-nav-approvals")).click();
    const rule = await wait("rule");
    assert.match(await rule.getAttribute("textContent"), /true/);
    assert.match(await rule.getAttribute("textContent"), /used/);
    await shot("settings approvals with a kept rule");
    await (await find("rule-delete", rule)).click();
    await wait("rules-empty");
    await (await find("settings-close")).click();
    await (await find("new-session")).click();
    await send("and once more");
    const card = await pendingCard();
    await (await card.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    await completed(1);
  });

  test("dangerous mode needs a confirmation and is marked while on", async () => {
    const select = await find("approval-mode-select");
    assert.equal(await (await find("approval-mode")).getAttribute("data-mode"), "auto");
    await select.sendKeys("Dangerous");
    const dialog = await wait("confirm-dialog");
    assert.match(await dialog.getText(), /without asking/);
    await shot("confirming dangerous mode");
    await (await find("confirm-cancel")).click();
    assert.equal(await (await find("approval-mode")).getAttribute("data-mode"), "auto");
    await (await find("approval-mode-select")).sendKeys("Dangerous");
    await (await wait("confirm-ok")).click();
    await app.driver.wait(
      async () => (await (await find("approval-mode")).getAttribute("data-mode")) === "dangerous",
      UI_TIMEOUT_MS,
      "the session did not switch to dangerous mode",
    );
    await shot("dangerous mode on");
  });
});
