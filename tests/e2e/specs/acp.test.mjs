// The editor round trip: a session made over `memo-cli acp` (driven by the official ACP
// TypeScript SDK's client, as Zed would) is in the window's history. While the editor's
// agent still runs it, the window shows its stored conversation to read and says which
// program has it; once the editor lets go, the window continues it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { specHelpers } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";
import { repoRoot } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const QUESTION = "what is in this folder? (asked from the editor)";
const ANSWER = "Only notes.md, answered over ACP.";
const FOLLOW_UP = "and now from the window";
const FOLLOW_UP_ANSWER = "Continued in Memo's window.";

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a session made in an editor over ACP", { timeout: 240_000 }, () => {
  let mock;
  let app;
  let work;
  let project;
  let editor;
  const { wait, shot } = specHelpers(() => app, { theme: THEME, timeoutMs: UI_TIMEOUT_MS });

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "memo-e2e-acp-"));
    project = path.join(work, "project");
    mkdirSync(project);
    writeFileSync(path.join(project, "notes.md"), "# notes\n");
    mock = await startMockLlm({ responses: [{ text: ANSWER }, { text: FOLLOW_UP_ANSWER }] });
    app = await launchApp({ env: { GTK_THEME: THEME }, homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) } });
  });

  after(async () => {
    if (work) writeFileSync(path.join(work, "go"), "");
    editor?.kill();
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("is in the window's history, read-only while the editor runs it, and continues there after", async () => {
    // The editor: a session, one prompt, then it keeps the agent running until told.
    const ready = path.join(work, "ready");
    const plan = path.join(work, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        command: [path.join(repoRoot, "target/debug/memo-cli"), "acp"],
        env: { MEMO_HOME: app.memoHome, RUST_LOG: "warn" },
        cwd: project,
        steps: [
          { do: "initialize" },
          { do: "new" },
          { do: "prompt", text: QUESTION },
          { do: "signal", path: ready },
          { do: "wait_for_file", path: path.join(work, "go") },
        ],
      }),
    );
    editor = spawn("node", [path.join(repoRoot, "tests/acp/drive.mjs"), plan], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => editor.on("exit", resolve));
    let output = "";
    editor.stdout.on("data", (chunk) => (output += chunk));
    for (let waited = 0; !existsSync(ready); waited += 100) {
      assert.ok(waited < 60_000, "the editor's session did not answer");
      await pause(100);
    }

    // Opened in the window: the conversation is there to read, and why it cannot go on here.
    await (await wait("folder-path-input")).sendKeys(project);
    await (await wait("folder-path-open")).click();
    const row = await app.driver.wait(
      until.elementLocated(By.xpath(`//*[@data-testid="session-item"][contains(., "asked from the editor")]`)),
      UI_TIMEOUT_MS,
    );
    await row.click();
    const notice = await wait("error-notice");
    assert.match(await notice.getText(), /running in another Memo program \(memo-cli acp, process \d+\)/);
    const turn = await wait("turn");
    assert.match(await turn.getText(), /asked from the editor/);
    assert.match(await turn.getText(), /answered over ACP/);
    // Read only: nothing to type into while the editor runs it.
    const held = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    assert.equal(await held.isEnabled(), false);
    assert.match(await held.getAttribute("placeholder"), /another Memo program/);
    await shot("acp - held by the editor");

    // The editor lets go: the window opens it live and continues the same conversation.
    writeFileSync(path.join(work, "go"), "");
    await exited;
    const steps = JSON.parse(output);
    assert.equal(steps[2].response.stopReason, "end_turn");
    await (await app.driver.findElement(By.xpath(`//*[@data-testid="session-item"][contains(., "asked from the editor")]`))).click();
    const message = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
    await app.driver.wait(async () => (await app.driver.findElements(By.css('[data-testid="error-notice"]'))).length === 0, UI_TIMEOUT_MS, "the notice stays");
    await app.driver.wait(until.elementIsEnabled(message), UI_TIMEOUT_MS, "the composer stays disabled");
    await message.click();
    await message.sendKeys(FOLLOW_UP, Key.ENTER);
    await app.driver.wait(
      until.elementLocated(By.xpath(`//*[@data-testid="turn"][contains(., "${FOLLOW_UP_ANSWER}")]`)),
      UI_TIMEOUT_MS,
    );
    assert.equal((await app.driver.findElements(By.css('[data-testid="turn"]'))).length, 2);
    // The editor's closing left no notice in the conversation.
    assert.equal((await app.driver.findElements(By.css('[data-testid="error-notice"]'))).length, 0);
    await shot("acp - continued in the window");
  });
});
