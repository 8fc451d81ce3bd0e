// The window as the fixes issue tried it, on the real app: the header at the window's
// minimum width with a long folder name and two providers (the name keeps its room), a
// composer draft that survives Settings, Esc closing only the innermost thing, what
// other agents set up (a plugin Claude Code installed) shown in Settings, and a
// BeforeAgentStart hook's one-turn prompt named in the prompt inspector.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { specHelpers } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const DRAFT = "half of a message I am still writing";
const HOOK = `python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemPrompt": d["system_prompt"] + "\\nTEAM POLICY"}))'`;

describe("The window at its minimum size, drafts, Esc, and what other agents set up", { timeout: 180_000 }, () => {
  let mock;
  let app;
  const { byTestId, find, wait, gone, shot } = specHelpers(() => app, { theme: THEME, timeoutMs: UI_TIMEOUT_MS });
  let parent;
  let project;
  let userHome;

  before(async () => {
    parent = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-window-")));
    project = path.join(parent, "a-project-folder-with-a-rather-long-descriptive-name");
    mkdirSync(project);
    // A user home where Claude Code installed one plugin and has it on.
    userHome = path.join(parent, "home");
    const plugin = path.join(userHome, ".claude/plugins/cache/team-market/review-kit/1.0.0");
    mkdirSync(path.join(plugin, "commands"), { recursive: true });
    writeFileSync(path.join(plugin, "commands/check.md"), "---\ndescription: Checks the diff\n---\nCheck $ARGUMENTS.\n");
    writeFileSync(
      path.join(userHome, ".claude/plugins/installed_plugins.json"),
      JSON.stringify({ version: 2, plugins: { "review-kit@team-market": [{ scope: "user", installPath: plugin, version: "1.0.0" }] } }),
    );
    writeFileSync(path.join(userHome, ".claude/settings.json"), JSON.stringify({ enabledPlugins: { "review-kit@team-market": true } }));
    mock = await startMockLlm({ responses: [{ text: "Following the team policy." }] });
    const config =
      mockConfigToml(mock.baseUrl) +
      `[[providers.other]]\nname = "a-second-provider-with-a-long-name"\nmodel = "another-model-with-a-long-name"\nbase_url = "${mock.baseUrl}/v1"\n` +
      `[[hooks.BeforeAgentStart]]\nmatcher = ""\nhooks = [{ type = "command", command = '''${HOOK}''' }]\n`;
    app = await launchApp({
      env: { GTK_THEME: THEME, HOME: userHome },
      args: [project],
      homeFiles: { "config.toml": config },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  const message = () => app.driver.findElement(By.css("textarea[aria-label='Message']"));

  test("at the minimum width the folder name keeps its room in the header", async () => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
      "the folder on the command line did not open",
    );
    await app.driver.manage().window().setRect({ width: 720, height: 480 });
    await app.driver.wait(
      async () => (await app.driver.executeScript("return window.innerWidth")) <= 760,
      UI_TIMEOUT_MS,
      "the window did not shrink",
    );
    const widths = await app.driver.executeScript(`
      const title = document.querySelector('[data-testid="chat-title"]');
      const header = title.closest('header');
      return { title: title.getBoundingClientRect().width, overflow: header.scrollWidth - header.clientWidth };
    `);
    assert.ok(widths.title >= 90, `the folder name is cut to ${widths.title}px`);
    assert.ok(widths.overflow <= 1, `the header overflows by ${widths.overflow}px`);
    // Nothing in the chat column scrolls sideways at this width.
    const sideways = await app.driver.executeScript(`
      return [...document.querySelectorAll('main *')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
        .map((e) => e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
    `);
    assert.deepEqual(sideways, [], "something in the chat scrolls sideways");
    await shot("the header at the minimum width");
    await app.driver.manage().window().setRect({ width: 1200, height: 760 });
  });

  test("a draft stays in the composer across Settings, and Esc closes only the innermost thing", async () => {
    await (await message()).sendKeys(DRAFT);
    await (await find("open-settings")).click();
    const providers = await wait("providers-page");
    const row = await providers.findElement(By.css('[data-testid="provider-row"][data-name="mock"]'));
    await (await row.findElement(By.xpath(".//button[normalize-space()='Remove']"))).click();
    const dialog = await wait("confirm-cancel");
    await dialog.sendKeys(Key.ESCAPE);
    await gone("confirm-cancel");
    assert.equal((await app.driver.findElements(byTestId("providers-page"))).length, 1, "Esc on the dialog left Settings open");
    await (await find("settings-close")).click();
    await gone("providers-page");
    assert.equal(await (await message()).getAttribute("value"), DRAFT, "the draft is still there");
    // Clear it for the next test.
    await app.driver.executeScript(
      `const box = arguments[0]; const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
       set.call(box, ''); box.dispatchEvent(new Event('input', { bubbles: true }));`,
      await message(),
    );
  });

  test("a plugin Claude Code installed is in Settings → Plugins, managed there", async () => {
    await (await find("open-settings")).click();
    await (await wait("settings-nav-plugins")).click();
    const card = await app.driver.wait(until.elementLocated(By.css('[data-testid="plugin"][data-name="review-kit"]')), UI_TIMEOUT_MS);
    assert.match(await card.getText(), /Claude Code/);
    assert.equal(await (await find("plugin-managed", card)).getText(), "Managed by Claude Code");
    await shot("a plugin claude code installed");
    await (await find("settings-close")).click();
    await gone("settings-close");
  });

  test("the prompt inspector names the hook that replaced the turn's system prompt", async (t) => {
    t.after(() => shot("after asking with a hook"));
    await (await message()).sendKeys("what are the rules?", Key.ENTER);
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
    const sent = JSON.stringify((await mock.requests()).at(-1));
    assert.ok(sent.includes("TEAM POLICY"), "the hook's prompt was sent");
    // After a turn the context meter stands where "Prompt" was, and opens the inspector.
    await (await wait("context-meter")).click();
    const override = await wait("prompt-override");
    // textContent: WebKitWebDriver's getText leaves out text in a clipped box.
    const text = () => override.getAttribute("textContent");
    await app.driver.wait(async () => (await text()).includes("python3"), UI_TIMEOUT_MS, "the hook is not named");
    assert.match(await text(), /for that turn only/);
    assert.match(await text(), /config\.toml/, "the hook's settings file is named");
    await shot("the prompt inspector naming a hook");
    const file = await app.driver.executeScript(
      "return document.querySelector('[data-testid=\"prompt-override-hook\"] .inspector__source-path').getBoundingClientRect().width",
    );
    assert.ok(file > 100, `the hook's settings file is squeezed to ${file}px`);
    // Esc closes the inspector (the window's Esc stack, whatever has the focus).
    await app.driver.actions().sendKeys(Key.ESCAPE).perform();
    await gone("prompt-inspector");
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});
