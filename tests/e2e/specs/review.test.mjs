// Choosing and undoing on the real app, as the fixes issue asks: an edit call of two
// edits on neighbouring lines is approved edit by edit (only the accepted one lands on
// disk); then the agent changes a file with a shell command, the person adds a line inside
// that change by hand, and the panel's Revert holds back naming the line; "Revert anyway"
// drops it, the Undo toast brings it back. The session's menu offers both exports.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { specHelpers } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const A = "one\ntwo\nthree\nfour\nfive\nsix\n";
const B = "alpha\nbeta\ngamma\ndelta\n";

const SCENARIO = {
  responses: [
    {
      tool_calls: [
        {
          name: "apply_patch",
          arguments: JSON.stringify({
            file_path: "a.txt",
            edits: [
              { old_string: "two\n", new_string: "TWO\n" },
              { old_string: "three\n", new_string: "THREE\n" },
            ],
          }),
        },
      ],
    },
    { text: "Took the first edit." },
    { tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd: "sed -i 's/beta/BETA/; s/gamma/GAMMA/' b.txt" }) }] },
    { text: "Shouted two words." },
  ],
};

describe("Choosing edits, and a revert that would drop the person's line", { timeout: 180_000 }, () => {
  let mock;
  let app;
  const { byTestId, find, wait, button, shot } = specHelpers(() => app, { theme: THEME, timeoutMs: UI_TIMEOUT_MS });
  let project;
  const read = (name) => readFileSync(path.join(project, name), "utf8");

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-review-")));
    writeFileSync(path.join(project, "a.txt"), A);
    writeFileSync(path.join(project, "b.txt"), B);
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const pending = () =>
    app.driver.wait(until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')), UI_TIMEOUT_MS);
  const turnsDone = (n) =>
    app.driver.wait(
      async () => (await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'))).length === n,
      UI_TIMEOUT_MS,
    );

  test("two edits on neighbouring lines are offered one by one, and only the accepted one is written", async () => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
      "the folder on the command line did not open",
    );
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys("shout two and three", Key.ENTER);
    const card = await pending();
    const edits = await app.driver.wait(async () => {
      const found = await card.findElements(byTestId("approval-edit"));
      return found.length === 2 ? found : null;
    }, UI_TIMEOUT_MS, "the card offers each edit");
    assert.match(await edits[0].getText(), /Edit 1 of 2 · line 2/);
    assert.match(await edits[1].getText(), /Edit 2 of 2 · line 3/);
    await (await edits[1].findElement(By.css("input[type=checkbox]"))).click();
    await app.driver.wait(async () => (await edits[1].getAttribute("data-state")) === "excluded", UI_TIMEOUT_MS);
    await shot("approval card offering each edit");
    await (await button(card, "Apply 1 of 2")).click();
    await turnsDone(1);
    assert.equal(read("a.txt"), A.replace("two", "TWO"));
    assert.match(await (await find("approval-decision", card)).getText(), /Applied 1 of 2 edits/);
    const sent = JSON.stringify((await mock.requests()).at(-1));
    assert.ok(sent.includes("refused edit(s) 2"), "the model is told which edit was refused");
  });

  test("a revert that would drop the person's line is held back, forced, and undone", async () => {
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys("shout beta and gamma", Key.ENTER);
    await (await button(await pending(), "Approve once")).click();
    await turnsDone(2);
    const agent = B.replace("beta", "BETA").replace("gamma", "GAMMA");
    assert.equal(read("b.txt"), agent);
    // The person's own line, inside the agent's change, written by hand.
    const mine = agent.replace("BETA\n", "BETA\nmy own line\n");
    writeFileSync(path.join(project, "b.txt"), mine);

    await (await wait("open-changes")).click();
    const panel = await wait("changes-panel");
    await (await button(panel, "Session")).click();
    const row = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="changed-file"][data-path="b.txt"]')),
      UI_TIMEOUT_MS,
    );
    await (await find("revert-file", row)).click();
    const held = await wait("held-back");
    assert.match(await held.getText(), /line\(s\) 3 were changed after the agent's edit/);
    assert.equal(read("b.txt"), mine, "nothing was written");
    await shot("a revert held back naming the person's line");

    await (await find("revert-anyway", held)).click();
    await app.driver.wait(() => read("b.txt") === B, UI_TIMEOUT_MS, "the forced revert puts the file back");
    const toast = await wait("undo-toast");
    assert.match(await toast.getText(), /Reverted b\.txt/);
    await shot("the undo toast after a revert");
    await (await find("undo-revert", toast)).click();
    await app.driver.wait(() => read("b.txt") === mine, UI_TIMEOUT_MS, "Undo brings the person's line back");
    await app.driver.wait(
      async () => /back as it was before the revert/.test(await (await find("undo-message")).getText()),
      UI_TIMEOUT_MS,
    );
    await shot("undo says what it did");
  });

  test("the session's menu offers both exports", async () => {
    await (await find("session-menu")).click();
    const markdown = await wait("session-export-markdown");
    assert.match(await markdown.getText(), /Export as Markdown/);
    assert.match(await (await find("session-export-memo_code_jsonl")).getText(), /Memo Code/);
    await shot("the session menu with its exports");
    await markdown.sendKeys(Key.ESCAPE);
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});
