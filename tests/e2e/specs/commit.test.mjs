// From review to commit on the real app, with a real repository and a bare remote on
// disk: the agent makes three changes to one file; two of its three hunks are kept in the
// changes panel, which stages exactly those (checked with git itself); the commit message
// is drafted by the model (the mock) and committed with the person's identity; the push
// asks which remote, then sets the upstream and lands on the remote.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { specHelpers } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
// E2E_LANGUAGE=zh runs it in Chinese, as a desktop set to zh_CN gives it, to look at.
const ZH = process.env.E2E_LANGUAGE === "zh";
const LANGUAGE_ENV = ZH ? { LANG: "zh_CN.UTF-8", LANGUAGE: "zh_CN:zh", LC_ALL: "" } : {};
const NUMBERS = Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join("");
const DRAFT = "numbers: spell out two and twenty-eight";

const SCENARIO = {
  responses: [
    {
      tool_calls: [
        {
          name: "apply_patch",
          arguments: JSON.stringify({
            file_path: "n.txt",
            edits: [
              { old_string: "\n2\n", new_string: "\nTWO\n" },
              { old_string: "\n15\n", new_string: "\nFIFTEEN\n" },
              { old_string: "\n28\n", new_string: "\nTWENTY-EIGHT\n" },
            ],
          }),
        },
      ],
    },
    { text: "Spelled out three numbers." },
    { text: `${DRAFT}\n\nFifteen waits for review.` },
  ],
};

const git = (dir, ...args) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();

describe("From review to commit and push", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let root;
  let project;
  let remote;
  const helpers = specHelpers(() => app, { theme: THEME, timeoutMs: UI_TIMEOUT_MS });
  const { byTestId, find, wait } = helpers;
  const shot = (name) => helpers.shot(ZH ? `${name} (zh)` : name);

  before(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-commit-")));
    project = path.join(root, "numbers");
    remote = path.join(root, "remote.git");
    execFileSync("git", ["init", "-q", "-b", "main", project]);
    for (const [key, value] of [["user.name", "Pat Doe"], ["user.email", "pat@example.com"], ["commit.gpgsign", "false"]]) {
      git(project, "config", key, value);
    }
    writeFileSync(path.join(project, "n.txt"), NUMBERS);
    git(project, "add", "-A");
    git(project, "commit", "-q", "-m", "numbers: start");
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
    git(project, "remote", "add", "origin", remote);
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME, ...LANGUAGE_ENV },
      args: [project],
      homeFiles: { "config.toml": `approval_mode = "dangerous"\n${mockConfigToml(mock.baseUrl)}` },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const hunksOf = (row) => row.findElements(byTestId("changes-hunk"));

  test("two of three hunks kept in the panel are exactly what git stages", async (t) => {
    t.after(() => shot("two of three hunks staged"));
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === "numbers",
      UI_TIMEOUT_MS,
      "the folder on the command line did not open",
    );
    const message = await app.driver.findElement(By.css(".composer textarea"));
    await message.sendKeys("spell out the numbers", Key.ENTER);
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);

    await (await wait("open-changes")).click();
    const panel = await wait("changes-panel");
    const row = await app.driver.wait(until.elementLocated(By.css('[data-testid="changed-file"][data-path="n.txt"]')), UI_TIMEOUT_MS);
    await (await row.findElement(By.css(".changes__toggle"))).click();
    await app.driver.wait(async () => (await hunksOf(row)).length === 3, UI_TIMEOUT_MS, "three hunks");

    for (const [index, kept] of [[0, 1], [2, 2]]) {
      const hunks = await hunksOf(await panel.findElement(By.css('[data-testid="changed-file"][data-path="n.txt"]')));
      await (await find("keep-hunk", hunks[index])).click();
      await app.driver.wait(
        async () => (await app.driver.findElements(byTestId("unkeep-hunk"))).length === kept,
        UI_TIMEOUT_MS,
        `${kept} hunk(s) shown as staged`,
      );
    }
    const cached = git(project, "diff", "--cached", "-U0");
    assert.match(cached, /\+TWO/);
    assert.match(cached, /\+TWENTY-EIGHT/);
    assert.doesNotMatch(cached, /FIFTEEN/, "the hunk not kept is not staged");
    assert.match(git(project, "diff", "-U0"), /\+FIFTEEN/);
  });

  test("the drafted message is committed with the person's identity", async (t) => {
    t.after(() => shot("committed"));
    await (await wait("commit-open")).click();
    const textarea = await wait("commit-message");
    // The form first reads what is staged; the draft button waits for that.
    const draft = await find("commit-draft");
    await app.driver.wait(until.elementIsEnabled(draft), UI_TIMEOUT_MS, "the draft button is enabled");
    await draft.click();
    await app.driver.wait(
      async () => {
        const failed = await app.driver.findElements(byTestId("commit-draft-error"));
        if (failed.length > 0) throw new Error(`the draft failed: ${await failed[0].getText()}`);
        return (await textarea.getAttribute("value")).startsWith(DRAFT);
      },
      UI_TIMEOUT_MS,
      "the draft fills the message",
    );
    await shot("the commit form with a drafted message");
    await (await find("commit-submit")).click();
    const result = await wait("commit-result");
    await app.driver.wait(async () => (await result.getText()).includes(DRAFT), UI_TIMEOUT_MS);
    assert.equal(git(project, "log", "-1", "--format=%s"), DRAFT);
    assert.equal(git(project, "log", "-1", "--format=%an <%ae>"), "Pat Doe <pat@example.com>");
    const committed = git(project, "show", "--format=", "-U0", "HEAD");
    assert.match(committed, /\+TWO/);
    assert.doesNotMatch(committed, /FIFTEEN/);
    const asked = JSON.stringify((await mock.requests()).at(-1));
    assert.match(asked, /\+TWENTY-EIGHT/, "the model drafted from the staged diff");
    assert.doesNotMatch(asked, /\+FIFTEEN/, "and only from it");
  });

  test("the push asks which remote, then sets the upstream and lands", async (t) => {
    t.after(() => shot("pushed with its upstream set"));
    await (await wait("push-branch")).click();
    const select = await wait("push-remote");
    assert.equal(await select.getAttribute("value"), "origin");
    await (await find("push-confirm")).click();
    const result = await wait("push-result");
    await app.driver.wait(async () => (await result.getText()).includes("origin/main"), UI_TIMEOUT_MS);
    assert.equal(git(remote, "log", "-1", "--format=%s", "main"), DRAFT);
    assert.equal(git(project, "rev-parse", "--abbrev-ref", "@{upstream}"), "origin/main");
  });
});
