// A real input method (fcitx5 with its pinyin engine) in two fields outside the composer:
// a settings field (Settings → Skills → New skill, its name) and a dialog (the
// new-worktree form, which Esc closes and Enter submits). WebDriver finds and checks
// things; the keys are typed by xdotool, as a keyboard sends them, because WebDriver's
// synthetic keys never pass through an input method.
//
// Not in specs/: it needs fcitx5 running on the display with GTK_IM_MODULE=fcitx, which
// scripts/lib/ime-test.sh sets up before it runs this file (E2E_IME=1).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { artifactsDir } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 20_000;
const SKIP = process.env.E2E_IME === "1" ? false : "needs fcitx5 on the display: run scripts/lib/ime-test.sh";
// No model is asked: nothing here sends a message.
const CONFIG = 'current_provider = "none"\n[[providers.none]]\nname = "none"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n';

const byTestId = (id) => By.css(`[data-testid="${id}"]`);
const git = (cwd, ...args) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, encoding: "utf8" });
/** Keys as the keyboard sends them, through the X server and so through fcitx5. */
const xdotool = (...args) => execFileSync("xdotool", args, { encoding: "utf8" });
const typed = async (letters) => {
  xdotool("type", "--delay", "100", letters);
  await sleep(700); // fcitx5 shows its candidates
};
const pressed = async (key, settle = 700) => {
  xdotool("key", key);
  await sleep(settle);
};
/** The whole X display, preedit and candidate window included (WebDriver sees only the page). */
const grab = (name) => {
  try {
    execFileSync("import", ["-window", "root", path.join(artifactsDir, `ime-${name}.png`)]);
  } catch {
    // a missing picture is not the test's failure
  }
};

describe("A real input method in a settings field and a dialog", { skip: SKIP, timeout: 180_000 }, () => {
  let app;
  let repo;

  before(async () => {
    repo = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-ime-repo-")));
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(path.join(repo, "说明.md"), "草稿\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "first");
    app = await launchApp({ args: [repo], homeFiles: { "config.toml": CONFIG } });
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(repo),
      UI_TIMEOUT_MS,
      "the folder did not open",
    );
    // The keyboard's keys go to the window under the pointer (no window manager here).
    const window = xdotool("search", "--onlyvisible", "--name", "^Memo").trim().split("\n")[0];
    xdotool("windowfocus", "--sync", window);
    const geometry = Object.fromEntries(
      xdotool("getwindowgeometry", "--shell", window)
        .trim()
        .split("\n")
        .map((line) => line.split("=")),
    );
    xdotool("mousemove", String(Number(geometry.X) + 640), String(Number(geometry.Y) + 20));
  });

  after(async () => {
    await app?.stop().catch(() => {});
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  /** Ctrl+Space switches pinyin on and off, as a person does. It is off while WebDriver
   * types: WebKitWebDriver's keys go through the web view's input method too. */
  const switchInputMethod = () => pressed("ctrl+space", 500);
  const valueOf = async (id) => (await wait(id)).getAttribute("value");
  const present = async (id) => (await countNow(app.driver, byTestId(id))) === 1;
  const branches = () => git(repo, "branch", "--list", "memo/*", "--format=%(refname:short)").trim();
  /** SKILL.md files under the Memo home's skills folder. */
  const skillFiles = () => {
    const folder = path.join(app.memoHome, "skills");
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .map((name) => path.join(folder, name, "SKILL.md"))
      .filter((file) => existsSync(file));
  };

  /**
   * In a form's field, with pinyin on: Enter during a composition commits the letters and
   * does nothing else (`nothingDone` checks); Esc during one drops it and the form stays
   * (`stillOpen` checks more); Space picks 中文, and Enter then submits.
   */
  const enterEscapeSpace = async ({ field, form, committed, dropped, shot, nothingDone, stillOpen = async () => {} }) => {
    await typed(committed);
    grab(shot);
    await pressed("Return", 1500);
    assert.equal(await valueOf(field), committed, "Enter did not commit the letters");
    assert.ok(await present(form), "Enter during the composition submitted or closed the form");
    nothingDone();

    await pressed("ctrl+a", 200);
    await typed(dropped);
    await pressed("Escape", 1000);
    assert.ok(await present(form), "Esc during the composition closed the form");
    await stillOpen();

    await pressed("ctrl+a", 200);
    await typed("zhongwen");
    await pressed("space");
    await app.driver.wait(async () => (await valueOf(field)) === "中文", UI_TIMEOUT_MS, "Space did not pick 中文");
    await pressed("Return", 300);
  };

  test("a skill's name in settings: Enter commits the letters, Esc drops the composition, Space picks 中文", async () => {
    await (await wait("open-settings")).click();
    await (await wait("settings-nav-skills")).click();
    await wait("skills-page");
    await (await wait("skill-new")).click();
    // The description is typed by WebDriver (no input method), so the form could submit.
    await (await wait("skill-description")).sendKeys("Answers in Chinese.");
    await (await wait("skill-name")).click();
    await sleep(300);
    await switchInputMethod();

    await enterEscapeSpace({
      field: "skill-name",
      form: "skill-form",
      committed: "ceshi",
      dropped: "zhongwen",
      shot: "skill-name-composing",
      nothingDone: () => assert.deepEqual(skillFiles(), [], "Enter during the composition created the skill"),
      stillOpen: async () => assert.ok(await present("settings-view"), "Esc during the composition closed the settings"),
    });
    await app.driver.wait(until.elementLocated(By.css('[data-testid="skill-row"][data-name="中文"]')), UI_TIMEOUT_MS, "the skill 中文 was not created");
    const files = skillFiles();
    assert.equal(files.length, 1, `one skill written: ${files}`);
    assert.match(readFileSync(files[0], "utf8"), /^name: 中文$/m);
    grab("skill-created");
    await switchInputMethod();
    await (await wait("settings-close")).click();
  });

  test("the new-worktree form: Enter commits the letters, Esc drops the composition, then the branch memo/中文", async () => {
    await wait("sessions-empty");
    const field = () => countNow(app.driver, byTestId("new-worktree-name"));
    for (let attempt = 0; attempt < 3 && (await field()) !== 1; attempt++) {
      await (await wait("new-worktree-session")).click();
      await app.driver.wait(async () => (await field()) === 1, 3000).catch(() => {});
    }
    await (await wait("new-worktree-name")).click();
    await sleep(300);
    await switchInputMethod();

    await enterEscapeSpace({
      field: "new-worktree-name",
      form: "new-worktree-form",
      committed: "zhongwen",
      dropped: "ceshi",
      shot: "worktree-name-composing",
      nothingDone: () => assert.equal(branches(), "", "Enter during the composition started the worktree"),
    });
    const toggle = await wait("open-worktree");
    await app.driver.wait(async () => /中文/.test(await toggle.getAttribute("textContent")), UI_TIMEOUT_MS, "the worktree session is not named 中文");
    assert.equal(branches(), "memo/中文");
    grab("worktree-started");
    await switchInputMethod();
  });

  test("after the dialog closed, the composer still composes", async () => {
    const composer = await wait("composer-input");
    await composer.click();
    await sleep(300);
    await switchInputMethod();
    await typed("zhongwen");
    await pressed("space");
    await app.driver.wait(async () => (await composer.getAttribute("value")) === "中文", UI_TIMEOUT_MS, "the composer lost the input method");
    grab("composer-after-dialog");
  });
});
