// Every kind of tool card on the real app, drawn from the typed views the engine sends: a
// failing command with its exit code, a read with its lines, a search with its first
// match, a two-hunk edit of which one hunk is refused, a subagent started and waited for,
// and an MCP call (server-everything) with the server's answer. Each approval is answered
// inside its own tool card; no second approval card appears. Screenshots in the current
// theme (run once with E2E_GTK_THEME=Adwaita:dark for the dark ones).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { everythingToml } from "../lib/paths.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
// The marker each conversation's answers are matched on (the mock's `when`).
const TASK = "Tour every tool";
const CHILD = "Count the lines of notes.txt";

const MAIN_RS = ["fn main() {", '    println!("one");', ...Array.from({ length: 8 }, (_, i) => `    let v${i} = ${i};`), '    println!("two");', "}", ""].join("\n");
const PATCH = [
  "*** Begin Patch",
  "*** Update File: main.rs",
  "@@",
  '-    println!("one");',
  '+    println!("uno");',
  "@@",
  '-    println!("two");',
  '+    println!("dos");',
  "*** End Patch",
].join("\n");

const call = (name, args) => ({ name, arguments: JSON.stringify(args) });
const SCENARIO = {
  responses: [
    { when: TASK, tool_calls: [call("exec_command", { cmd: "printf 'built\\n'; exit 1" })] },
    { when: TASK, tool_calls: [call("read_file", { file_path: "notes.txt" }), call("grep_files", { pattern: "TODO" })] },
    { when: TASK, tool_calls: [call("apply_patch", { patch: PATCH })] },
    { when: TASK, tool_calls: [call("spawn_agent", { message: CHILD, agent_type: "general" })] },
    { when: CHILD, text: "notes.txt has 2 lines." },
    { when: TASK, tool_calls: [call("wait", {})] },
    { when: TASK, tool_calls: [call("everything__echo", { message: "hello from the tour" })] },
    { when: TASK, text: "Toured every tool." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Tool cards from typed views", { timeout: 300_000 }, () => {
  let mock;
  let app;
  let project;
  let home;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-views-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-views-home-"));
    writeFileSync(path.join(project, "notes.txt"), "notes\nTODO: fix the build\n");
    writeFileSync(path.join(project, "main.rs"), MAIN_RS);
    mock = await startMockLlm(SCENARIO);
    const config = `${mockConfigToml(mock.baseUrl)}${everythingToml()}`;
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      args: [project],
      home,
      homeFiles: { "config.toml": config },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const text = (element) => element.getAttribute("textContent");
  const card = (view, extra = "") => app.driver.wait(until.elementLocated(By.css(`[data-testid="tool-card"][data-view="${view}"]${extra}`)), UI_TIMEOUT_MS);
  /** The pending approval, which must sit inside a tool card. */
  const pendingInCard = async () => {
    const approval = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="tool-card"] [data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
      "no approval was asked inside a tool card",
    );
    return approval;
  };
  /** Opens a folded card. Its body is drawn after the toggle event has run, so
   * what is inside is waited for, never read right after the click. */
  const unfold = async (element) => {
    if ((await element.getAttribute("open")) !== "true") await element.findElement(By.css("summary")).click();
  };
  const inCard = (element, id) =>
    app.driver.wait(async () => (await element.findElements(byTestId(id)))[0] ?? null, UI_TIMEOUT_MS, `the card drew no ${id}`);
  const approveOnce = async (approval) => {
    const button = await approval.findElement(By.xpath(".//button[normalize-space()='Approve once' or starts-with(normalize-space(), 'Apply ')]"));
    await button.click();
  };

  test("each call's card says what it did, and its approval is answered inside it", async (t) => {
    try {
      await app.driver.wait(
        async () => (await text(await wait("chat-title"))) === path.basename(project),
        UI_TIMEOUT_MS,
        "the folder did not open",
      );
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys(`${TASK}, please`, Key.ENTER);

      // 1. The command asks inside its card: the card shows the command once.
      let approval = await pendingInCard();
      const command = await card("command");
      assert.match(await text(await command.findElement(byTestId("tool-command"))), /printf 'built\\n'; exit 1/);
      assert.equal(await command.getAttribute("open"), "true", "a card that asks is open");
      await shot("tool views - command asks in its card");
      await approveOnce(approval);
      await app.driver.wait(async () => /^exit 1 · /.test(await text(await command.findElement(byTestId("tool-status")))), UI_TIMEOUT_MS, "the command's exit code");
      assert.match(await command.getAttribute("class"), /tool--error/, "a failing command reads as failed");
      assert.equal(await text(await command.findElement(byTestId("approval-decision"))), "Approved once");

      // 2. The read and the search: their lines and their first match.
      const read = await card("read");
      await app.driver.wait(async () => /2 lines/.test(await text(await read.findElement(byTestId("tool-status")))), UI_TIMEOUT_MS, "the read's lines");
      const search = await card("search");
      await app.driver.wait(async () => /1 match/.test(await text(await search.findElement(byTestId("tool-status")))), UI_TIMEOUT_MS, "the search's count");
      await unfold(search);
      assert.match(await text(await inCard(search, "search-matches")), /notes\.txt:2/);

      // 3. The edit asks with a checkbox per hunk; the second is refused.
      approval = await pendingInCard();
      const edit = await card("file_edit");
      const boxes = await approval.findElements(By.css('[data-testid="approval-hunk"] input[type="checkbox"]'));
      assert.equal(boxes.length, 2, "one checkbox per hunk");
      await boxes[1].click();
      await shot("tool views - edit asks with its hunks");
      await approveOnce(approval);
      await app.driver.wait(async () => (await text(await edit.findElement(byTestId("tool-status")))) === "ok", UI_TIMEOUT_MS, "the edit ran");
      assert.match(await text(await edit.findElement(byTestId("approval-decision"))), /Applied 1 of 2/);
      const written = readFileSync(path.join(project, "main.rs"), "utf8");
      assert.match(written, /uno/);
      assert.match(written, /"two"/, "the refused hunk was not written");
      await unfold(edit);
      const hunkStates = async () =>
        Promise.all((await edit.findElements(byTestId("hunk-state"))).map((s) => s.getAttribute("data-state")));
      // The card may still fold itself as its run ends (under load, after the unfold
      // above): open it again while waiting.
      await app.driver.wait(
        async () => {
          await unfold(edit);
          return (await hunkStates()).length === 2;
        },
        UI_TIMEOUT_MS,
        "the edit's hunks were not drawn",
      );
      assert.deepEqual(await hunkStates(), ["applied", "rejected"]);

      // 4. The subagent's card and the wait for it.
      const spawned = await wait("subagent-card");
      assert.equal(await text(await spawned.findElement(byTestId("subagent-type"))), "general");
      assert.match(await text(await spawned.findElement(byTestId("subagent-task"))), new RegExp(CHILD));
      const waited = await app.driver.wait(until.elementLocated(By.css('[data-testid="collab-card"][data-action="wait_for"]')), UI_TIMEOUT_MS);
      await app.driver.wait(async () => (await text(await waited.findElement(byTestId("collab-outcome")))) === "all done", UI_TIMEOUT_MS, "the wait's outcome");

      // 5. The MCP call (asked in its card when the server does not mark it read-only),
      // then the server's own answer.
      const mcp = await card("mcp_call");
      assert.match(await text(mcp), /everything · echo/);
      const asks = await app.driver.wait(async () => {
        const pending = await mcp.findElements(By.css('[data-testid="approval-card"][data-state="pending"]'));
        if (pending.length > 0) return pending[0];
        const done = await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'));
        return done.length > 0 ? "done" : null;
      }, UI_TIMEOUT_MS, "the MCP call neither asked nor ran");
      if (asks !== "done") await approveOnce(asks);
      await app.driver.wait(
        until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')),
        UI_TIMEOUT_MS,
        "the turn did not complete",
      );
      await unfold(mcp);
      assert.match(await text(await inCard(mcp, "mcp-content")), /Echo: hello from the tour/);

      // No approval card of its own anywhere: each sat in its call's card.
      const outside = await app.driver.executeScript(
        "return [...document.querySelectorAll('[data-testid=\"approval-card\"]')].filter((a) => !a.closest('[data-testid=\"tool-card\"]')).length",
      );
      assert.equal(outside, 0);
      await command.findElement(By.css("summary")).click();
      await app.driver.executeScript("arguments[0].scrollIntoView({block: 'start'})", command);
      await shot("tool views - command, read, search");
      await app.driver.executeScript("arguments[0].scrollIntoView({block: 'start'})", edit);
      await shot("tool views - edit with a refused hunk, subagent");
      await app.driver.executeScript("arguments[0].scrollIntoView({block: 'start'})", mcp);
      await shot("tool views - mcp call");
    } catch (error) {
      await shot("tool views - failure");
      t.diagnostic(String(error));
      throw error;
    }
  });
});
