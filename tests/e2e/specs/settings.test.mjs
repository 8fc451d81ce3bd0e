// First run and settings in the real app: a local server found on its usual port and chosen
// in one click; a cloud provider added with a key (OS keychain) and a failing connection
// test; SOUL.md and a skill edited in settings reaching the model; config.toml comments
// kept; a change on disk reported as a conflict. Screenshots in light and dark.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { countNow } from "../lib/dom.mjs";
import { launchApp } from "../lib/app.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
/** LM Studio's port: the probe looks there, so the mock stands in for a local server. */
const LOCAL_PORT = 1234;
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** A port nothing listens on (taken and released at once). */
function closedPort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function helpers(app) {
  const find = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const css = (selector) => app.driver.wait(until.elementLocated(By.css(selector)), UI_TIMEOUT_MS);
  /** Clicks the element, looking it up again if a re-render replaced it meanwhile. */
  const click = (id) =>
    app.driver.wait(async () => {
      try {
        await (await find(id)).click();
        return true;
      } catch (error) {
        if (error.name === "StaleElementReferenceError") return false;
        throw error;
      }
    }, UI_TIMEOUT_MS, `could not click ${id}`);
  const openFolder = async (folder) => {
    await (await find("folder-path-input")).sendKeys(folder);
    await (await find("folder-path-open")).click();
  };
  const send = async (text) => {
    const box = await css("textarea[aria-label='Message']");
    await app.driver.wait(until.elementIsEnabled(box), UI_TIMEOUT_MS);
    await box.sendKeys(text, Key.ENTER);
  };
  /** Waits for the newest assistant answer to read `text`. */
  const answer = async (text) => {
    await app.driver.wait(async () => {
      const answers = await app.driver.findElements(byTestId("assistant-text"));
      const last = answers.at(-1);
      return last !== undefined && (await last.getText()) === text;
    }, UI_TIMEOUT_MS);
  };
  /**
   * Types at the end of the CodeMirror editor. WebKitWebDriver's sendKeys does not reach a
   * contenteditable reliably; an `insertText` edit is what typing produces, and CodeMirror
   * reads it the same way.
   */
  const typeInEditor = async (text) => {
    await (await css(".cm-content")).click();
    await app.driver.executeScript(
      `const el = document.querySelector(".cm-content");
       el.focus();
       const selection = window.getSelection();
       selection.selectAllChildren(el);
       selection.collapseToEnd();
       document.execCommand("insertText", false, arguments[0]);`,
      text,
    );
  };
  return { find, css, click, openFolder, send, answer, typeInEditor };
}

describe("First run with a model server on this machine", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-onboarding-"));
    mock = await startMockLlm(
      { responses: [{ text: "Hello from the local model." }] },
      { port: LOCAL_PORT, models: ["qwen2.5-coder:1.5b", "llama3.2:3b"] },
    );
    app = await launchApp({ env: { GTK_THEME: "Adwaita" } });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test("the probe finds the server, one click chooses a model, and the first message works", async (t) => {
    const { find, openFolder, send, answer } = helpers(app);
    try {
      await find("onboarding");
      const server = await find("local-server");
      assert.equal(await server.getAttribute("data-kind"), "lm-studio");
      assert.match(await server.getAttribute("textContent"), /127\.0\.0\.1:1234\/v1/);
      await app.screenshot(`${t.name} (onboarding)`);
      await (await find("local-model-use")).click();

      await openFolder(project);
      await send("hello?");
      await answer("Hello from the local model.");
      const [request] = await mock.requests();
      assert.equal(request.body.model, "qwen2.5-coder:1.5b");
      const config = readFileSync(path.join(app.memoHome, "config.toml"), "utf8");
      assert.match(config, /current_provider = "lm-studio"/);
      assert.match(config, /base_url = "http:\/\/127\.0\.0\.1:1234\/v1"/);
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });
});

describe("Settings", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;
  // Names of their own, so a run on a developer's machine never touches a real entry.
  const cloud = `e2e-cloud-${process.pid}`;
  const comment = "# My own notes about this file: keep them.";

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-settings-"));
    mock = await startMockLlm({
      responses: [{ text: "Arr, done." }, { text: "Notes written." }, { text: "A red square." }],
    });
    app = await launchApp({
      env: { GTK_THEME: "Adwaita" },
      homeFiles: {
        "config.toml": [
          comment,
          'current_provider = "mock"',
          "",
          "[[providers.mock]]",
          'name = "mock"',
          'model = "mock-model"   # the scripted one',
          `base_url = "${mock.baseUrl}/v1"`,
          "",
          '[model_profiles."mock-model"]',
          "supports_vision = true",
          "",
        ].join("\n"),
      },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test("a cloud provider is added with a key in the keychain; a failing test says why; comments stay", async (t) => {
    const { find } = helpers(app);
    try {
      await (await find("open-settings")).click();
      await find("providers-page");
      await app.screenshot(`${t.name} (providers)`);
      await (await find("provider-add")).click();
      const preset = await find("provider-preset");
      await preset.sendKeys("Anthropic");
      const name = await find("provider-name");
      await name.clear();
      await name.sendKeys(cloud);
      const url = await find("provider-base-url");
      await url.clear();
      await url.sendKeys(`http://127.0.0.1:${await closedPort()}`);
      await (await find("provider-key")).sendKeys("sk-ant-e2e-not-a-real-key");
      await (await find("provider-make-current")).click();
      await (await find("provider-test")).click();
      const report = await find("connection-report");
      await app.driver.wait(async () => (await report.getAttribute("data-outcome")) === "network", UI_TIMEOUT_MS);
      assert.match(await report.getText(), /Could not reach 127\.0\.0\.1:\d+ — connection refused\. Is the server running\?/);
      assert.equal(
        await (await find("provider-make-current")).isSelected(),
        false,
        "a provider whose connection test just failed is not made the default",
      );
      await app.screenshot(`${t.name} (failed test)`);
      await (await find("provider-save")).click();

      const row = await find(`provider-row"][data-name="${cloud}`);
      await app.driver.wait(async () => /OS keychain/.test(await row.getText()), UI_TIMEOUT_MS);
      const config = readFileSync(path.join(app.memoHome, "config.toml"), "utf8");
      assert.ok(config.startsWith(comment), config);
      assert.match(config, /# the scripted one/);
      assert.match(config, new RegExp(`\\[\\[providers\\.${cloud}\\]\\]`));
      assert.match(config, /api = "anthropic"/);
      assert.doesNotMatch(config, /sk-ant-e2e/, "the key never lands in config.toml");
      await app.screenshot(`${t.name} (saved)`);

      // Removing it removes its key from the keychain too.
      const remove = await row.findElement(By.xpath(".//button[normalize-space()='Remove']"));
      await remove.click();
      await (await find("confirm-ok")).click();
      await app.driver.wait(
        async () => (await countNow(app.driver, byTestId(`provider-row"][data-name="${cloud}`))) === 0,
        UI_TIMEOUT_MS,
      );
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("SOUL.md edited in settings is in the next request; a change on disk is a conflict", async (t) => {
    const { find, click, openFolder, send, answer, typeInEditor } = helpers(app);
    try {
      await (await find("settings-nav-soul")).click();
      await typeInEditor("\nAlways answer like a pirate.");
      await find("editor-unsaved");
      // The settings shortcut while settings are open keeps the page and its unsaved text.
      await app.driver.actions().keyDown(Key.CONTROL).sendKeys(",").keyUp(Key.CONTROL).perform();
      // Looked up afresh each time: the shortcut re-renders the view around them.
      await app.driver.wait(async () => {
        const unsaved = await countNow(app.driver, byTestId("editor-unsaved"));
        const nav = await countNow(app.driver, By.css('[data-testid="settings-nav-soul"][aria-current="page"]'));
        return unsaved === 1 && nav === 1;
      }, UI_TIMEOUT_MS, "the settings shortcut left the page or dropped the unsaved text");
      await app.screenshot(`${t.name} (editing)`);
      await click("editor-save");
      await app.driver.wait(async () => (await countNow(app.driver, byTestId("editor-unsaved"))) === 0, UI_TIMEOUT_MS);
      const soul = path.join(app.memoHome, "SOUL.md");
      assert.match(readFileSync(soul, "utf8"), /like a pirate/);

      // Someone edits the file outside Memo; saving over it is refused and keeps both.
      writeFileSync(soul, "Written in another editor.\n");
      await typeInEditor("\nOne more line.");
      await (await find("editor-save")).click();
      await find("editor-conflict");
      assert.equal(readFileSync(soul, "utf8"), "Written in another editor.\n");
      await app.screenshot(`${t.name} (conflict)`);
      await (await app.driver.findElement(By.xpath("//button[normalize-space()='Replace the file with mine']"))).click();
      await app.driver.wait(async () => /One more line/.test(readFileSync(soul, "utf8")), UI_TIMEOUT_MS);

      await (await find("settings-close")).click();
      await openFolder(project);
      await send("how should you talk?");
      await answer("Arr, done.");
      const requests = await mock.requests();
      assert.match(JSON.stringify(requests.at(-1).body), /like a pirate/);
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("a skill created in settings is listed and its body reaches the model with $name", async (t) => {
    const { find, css, send, answer } = helpers(app);
    try {
      await (await find("open-settings")).click();
      await (await find("settings-nav-skills")).click();
      await find("skills-page");
      await (await find("skill-new")).click();
      await (await find("skill-name")).sendKeys("e2e notes");
      await (await find("skill-description")).sendKeys("Write release notes for the e2e suite.");
      await (await find("skill-body")).sendKeys("End every answer with the word PINEAPPLE.");
      await (await find("skill-create")).click();
      await find(`skill-row"][data-name="e2e notes`);
      await app.screenshot(`${t.name} (listed)`);
      await (await find("settings-close")).click();

      // A new conversation, so the skill list is read again.
      await (await css("[data-testid='new-session'], button[aria-label='New session']")).click();
      await send("use $e2e-notes please");
      await answer("Notes written.");
      const requests = await mock.requests();
      assert.match(JSON.stringify(requests.at(-1).body), /PINEAPPLE/);
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("an image picked in the composer goes to the model with the message", async (t) => {
    const { find, send, answer } = helpers(app);
    try {
      // A small red square, written where the file picker can read it.
      const png = path.join(project, "square.png");
      writeFileSync(
        png,
        Buffer.from(
          "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR42mO4o6ZGFcQwatCoQaMGjRo0atCoQQNvEAAd/5ofg/DAowAAAABJRU5ErkJggg==",
          "base64",
        ),
      );
      // The picker is a hidden file input behind the paperclip; WebDriver types the path.
      const picker = await find("image-picker");
      await app.driver.executeScript("arguments[0].hidden = false;", picker);
      await picker.sendKeys(png);
      await app.driver.executeScript("arguments[0].hidden = true;", picker);
      await find("composer-images");
      await app.screenshot(`${t.name} (attached)`);
      await send("what is in this picture?");
      await answer("A red square.");
      const body = JSON.stringify((await mock.requests()).at(-1).body);
      assert.match(body, /data:image\/png;base64,iVBORw0KGgo/);
      await find("user-images");
    } finally {
      await app.screenshot(t.name).catch(() => {});
    }
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});

describe("Settings and first run in the dark theme", { timeout: 120_000 }, () => {
  let app;
  let home;

  before(async () => {
    app = await launchApp({ env: { GTK_THEME: "Adwaita:dark" } });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test("each settings page and the first-run screen in dark", async (t) => {
    const { find } = helpers(app);
    await find("onboarding");
    // The probe settles (found or not) before the picture.
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("onboarding-probing"))) === 0, UI_TIMEOUT_MS);
    await app.screenshot(`${t.name} (onboarding)`);
    await (await find("open-settings")).click();
    for (const page of ["providers", "soul", "skills"]) {
      await (await find(`settings-nav-${page}`)).click();
      await find(page === "soul" ? "editor-page-soul" : `${page}-page`);
      await app.screenshot(`${t.name} (${page})`);
    }
  });
});
