// Providers in the desktop: choosing the model of a new session, and storing a missing
// API key in the OS keychain.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** Two providers on the same mock server, told apart by their model names. */
function twoProviders(baseUrl) {
  return [
    'current_provider = "fast"',
    "[[providers.fast]]",
    'name = "fast"',
    'model = "mock-fast"',
    `base_url = "${baseUrl}/v1"`,
    "[[providers.deep]]",
    'name = "deep"',
    'model = "mock-deep"',
    `base_url = "${baseUrl}/v1"`,
    "",
  ].join("\n");
}

describe("Memo with two configured providers", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-models-"));
    mock = await startMockLlm({ responses: [{ text: "Answered by the deep one." }] });
    app = await launchApp({
      env: { GTK_THEME: "Adwaita" },
      homeFiles: { "config.toml": twoProviders(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);

  test("a new session starts with the model picked in the header, which then stays", async (t) => {
    try {
      await (await find("folder-path-input")).sendKeys(project);
      await (await find("folder-path-open")).click();
      // Open once the backend has checked the folder: until then the composer is disabled.
      await find("chat-new-session");
      const select = await find("model-select");
      assert.equal(await select.getAttribute("value"), "fast", "the config's current provider comes first");
      await (await select.findElement(By.css('option[value="deep"]'))).click();
      if ((await select.getAttribute("value")) !== "deep") {
        // Some WebDriver builds do not select an <option> on click; pick it the way a
        // keyboard user would.
        await select.sendKeys("deep");
      }
      await app.driver.wait(async () => (await select.getAttribute("value")) === "deep", UI_TIMEOUT_MS);

      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys("which model are you?", Key.ENTER);
      const answer = await find("assistant-text");
      await app.driver.wait(until.elementTextIs(answer, "Answered by the deep one."), UI_TIMEOUT_MS);

      const requests = await mock.requests();
      assert.equal(requests.length, 1);
      assert.equal(requests[0].body.model, "mock-deep");
      // Once started, the header shows the session's own model (switchable for its next
      // turns) instead of the new-session picker.
      const own = await find("session-model-select");
      assert.equal(await own.getAttribute("value"), "deep\u0000mock-deep");
      assert.equal((await app.driver.findElements(byTestId("model-select"))).length, 0);
    } finally {
      await app?.screenshot(t.name).catch(() => {});
    }
  });

  test("stopping the app leaves no process behind", async () => {
    const leftovers = await app.stop();
    assert.deepEqual(leftovers, []);
  });
});

describe("Memo with a provider that needs an API key", { timeout: 120_000 }, () => {
  let app;
  let project;
  // A name of its own, so a run on a developer's machine never touches a real entry.
  const provider = `e2e-key-${process.pid}`;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-keys-"));
    app = await launchApp({
      env: { GTK_THEME: "Adwaita" },
      homeFiles: {
        "config.toml": [
          `current_provider = "${provider}"`,
          `[[providers.${provider}]]`,
          `name = "${provider}"`,
          'model = "remote-model"',
          'api = "anthropic"',
          // Never contacted: the test stores and removes a key without sending again.
          'base_url = "https://api.example.invalid"',
          'env_api_key = "MEMO_E2E_UNSET_KEY"',
          "",
        ].join("\n"),
      },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const statusText = async () => (await find("api-key-status")).getText();

  test("a missing key is asked for, stored in the keychain, and can be removed again", async (t) => {
    try {
      await (await find("folder-path-input")).sendKeys(project);
      await (await find("folder-path-open")).click();
      // Open once the backend has checked the folder: until then the composer is disabled.
      await find("chat-new-session");
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys("hello?", Key.ENTER);

      await (await find("add-api-key")).click();
      await app.driver.wait(async () => (await statusText()) === "No key is stored yet.", UI_TIMEOUT_MS);
      const input = await find("api-key-input");
      assert.equal(await input.getAttribute("type"), "password");
      await input.sendKeys("sk-e2e-not-a-real-key", Key.ENTER);
      await app.driver.wait(async () => (await app.driver.findElements(byTestId("api-key-panel"))).length === 0, UI_TIMEOUT_MS);
      assert.equal((await app.driver.findElements(byTestId("add-api-key"))).length, 0, "the failure is settled");
      assert.equal(await message.getAttribute("value"), "hello?", "the message waits to be sent again");

      await (await find("api-key-button")).click();
      await app.driver.wait(async () => (await statusText()) === "The key comes from the OS keychain.", UI_TIMEOUT_MS);
      await app.screenshot("api key stored").catch(() => {});
      await (await app.driver.findElement(By.xpath("//button[normalize-space()='Remove stored key']"))).click();
      await app.driver.wait(async () => (await statusText()) === "No key is stored yet.", UI_TIMEOUT_MS);
    } finally {
      await app?.screenshot(t.name).catch(() => {});
    }
  });

  test("stopping the app leaves no process behind", async () => {
    const leftovers = await app.stop();
    assert.deepEqual(leftovers, []);
  });
});
