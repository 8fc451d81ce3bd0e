// Choosing the model of a new session when config.toml has several providers.
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
      // Once started, the session shows its own model instead of a picker.
      assert.match(await (await find("chat-model")).getText(), /mock-deep/);
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
