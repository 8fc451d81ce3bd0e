// The window in Chinese, as a desktop set to zh_CN gives it: the page follows the system's
// language, a Chinese conversation reads and edits a file with a Chinese name (the edit
// asked for inside its card), the changes panel lists it, settings pages are in Chinese,
// search finds a Chinese word inside a sentence, and Settings → Appearance switches to
// English and back at once. Screenshots in the current theme (E2E_GTK_THEME for dark).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const FILE = "笔记.txt";
const TASK = "把笔记里的“草稿”改成“定稿”";
const SCENARIO = {
  responses: [
    { when: TASK, tool_calls: [{ name: "read_file", arguments: JSON.stringify({ file_path: FILE }) }] },
    {
      when: TASK,
      tool_calls: [{ name: "apply_patch", arguments: JSON.stringify({ file_path: FILE, old_string: "状态：草稿", new_string: "状态：定稿" }) }],
    },
    { when: TASK, text: "已把 `笔记.txt` 里的“草稿”改成“定稿”。" },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("The window in Chinese", { timeout: 240_000 }, () => {
  let mock;
  let app;
  let project;
  let home;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-中文-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-zh-home-"));
    writeFileSync(path.join(project, FILE), "会议记录\n状态：草稿\n");
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME, LANG: "zh_CN.UTF-8", LANGUAGE: "zh_CN:zh", LC_ALL: "" },
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

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const text = (element) => element.getAttribute("textContent");
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  test("follows the system's language and works in Chinese", async (t) => {
    try {
      // The shell reads LANG and puts the languages in the page before it loads, so the
      // first frame is already Chinese (WebKit's navigator.languages misses the locale).
      const given = await app.driver.executeScript("return window.__MEMO_SYSTEM_LANGUAGES__");
      assert.ok(Array.isArray(given) && given.includes("zh_CN"), `the page was given ${JSON.stringify(given)}`);
      await app.driver.wait(
        async () => (await app.driver.executeScript("return document.documentElement.lang")) === "zh-CN",
        UI_TIMEOUT_MS,
        "the page did not follow the system's Chinese",
      );
      await app.driver.wait(
        async () => (await text(await wait("chat-title"))) === path.basename(project),
        UI_TIMEOUT_MS,
        "the folder with a Chinese name did not open",
      );
      const message = await app.driver.findElement(By.css("textarea"));
      assert.match(await message.getAttribute("placeholder"), /[\u4e00-\u9fff]/, "the composer speaks Chinese");
      await message.sendKeys(TASK, Key.ENTER);

      const approval = await app.driver.wait(
        until.elementLocated(By.css('[data-testid="tool-card"] [data-testid="approval-card"][data-state="pending"]')),
        UI_TIMEOUT_MS,
      );
      // Why it asks is Rust's phrase, worded in Chinese.
      const why = await approval.findElement(By.css(".approval__reason"));
      assert.match(await why.getAttribute("textContent"), new RegExp(`^修改 .*${FILE}（\\+1 -1）$`));
      await shot("chinese - an edit asks in its card");
      await (await approval.findElement(By.css("button.button--primary"))).click();
      await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
      assert.match(readFileSync(path.join(project, FILE), "utf8"), /状态：定稿/);
      await shot("chinese - the conversation");

      await (await wait("open-changes")).click();
      const panel = await wait("changes-panel");
      await app.driver.wait(async () => (await text(panel)).includes(FILE), UI_TIMEOUT_MS, "the changes panel lists the file");
      await shot("chinese - the changes panel");
      await (await app.driver.findElement(byTestId("open-changes"))).click();

      // Search finds a word inside a Chinese sentence.
      const search = await wait("session-search");
      await search.sendKeys("定稿");
      await app.driver.wait(async () => (await app.driver.findElements(byTestId("search-result"))).length > 0, UI_TIMEOUT_MS, "no hit for 定稿");
      await search.clear();

      // A mistyped folder is refused in Chinese: the service's failure is a phrase.
      await (await wait("workspace-add")).click();
      await (await wait("workspace-path-input")).sendKeys(path.join(project, "不存在"));
      await (await wait("workspace-path-open")).click();
      const refused = await app.driver.wait(until.elementLocated(By.css(".add-folder__error")), UI_TIMEOUT_MS);
      assert.match(await refused.getAttribute("textContent"), /^文件夹不存在：/);
      await shot("chinese - a mistyped folder");
      await (await wait("workspace-path-input")).sendKeys(Key.ESCAPE);

      await (await wait("open-settings")).click();
      // Every settings page, each in Chinese.
      await wait("settings-nav-providers");
      const sections = [];
      for (const item of await app.driver.findElements(By.css('[data-testid^="settings-nav-"]'))) {
        sections.push((await item.getAttribute("data-testid")).replace("settings-nav-", ""));
      }
      assert.ok(sections.length >= 8, `settings pages: ${sections.join(", ")}`);
      for (const section of sections) {
        await (await wait(`settings-nav-${section}`)).click();
        await shot(`chinese - settings ${section}`);
      }
      // Appearance last, for what follows.
      await (await wait("settings-nav-appearance")).click();
      const title = await app.driver.findElement(By.css(".settings-page__title"));
      assert.equal(await text(title), "外观");
      const language = await app.driver.findElement(byTestId("appearance-language"));
      await language.findElement(By.css('option[value="en"]')).click();
      await app.driver.wait(async () => (await text(await app.driver.findElement(By.css(".settings-page__title")))) === "Appearance", UI_TIMEOUT_MS, "English did not apply at once");
      await (await app.driver.findElement(byTestId("appearance-language"))).findElement(By.css('option[value="system"]')).click();
      await app.driver.wait(async () => (await text(await app.driver.findElement(By.css(".settings-page__title")))) === "外观", UI_TIMEOUT_MS, "the system's Chinese did not come back");
    } catch (error) {
      await shot("chinese - failure");
      t.diagnostic(String(error));
      throw error;
    }
  });

  test("the first-run screen is in Chinese and names the Chinese user guide", async () => {
    // One app at a time (the WebDriver's ports): the configured one is done.
    await app?.stop().catch(() => {});
    app = null;
    const fresh = mkdtempSync(path.join(tmpdir(), "memo-e2e-zh-first-"));
    const first = await launchApp({
      env: { GTK_THEME: THEME, LANG: "zh_CN.UTF-8", LANGUAGE: "zh_CN:zh", LC_ALL: "" },
      home: fresh,
    });
    try {
      const guide = await first.driver.wait(until.elementLocated(byTestId("onboarding-guide")), UI_TIMEOUT_MS);
      assert.match(await guide.getAttribute("textContent"), /docs\/zh-CN\/user-guide\.md/);
      await first.screenshot(`chinese - first run${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
    } finally {
      await first.stop().catch(() => {});
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
