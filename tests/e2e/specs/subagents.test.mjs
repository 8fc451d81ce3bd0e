// Subagents on the real app: the parent's model spawns two children that work at once (a
// codebase investigator and a general agent); the general one's command asks for approval,
// which shows in the parent saying which agent asks; once approved both finish, the
// parent's `wait` returns both answers, each child's work shows nested under the call
// that started it, and "Open" shows a child's own transcript, with Back to the parent.
//
// The parent and the children talk to one mock at the same time: every scripted answer
// carries `when` (a marker of its conversation's first user message: the user's prompt
// for the parent, the spawn message for a child), so each gets its own next answer.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";

const PARENT = "PARENT-E2E";
const ALPHA = "CHILD-ALPHA";
const BETA = "CHILD-BETA";
const BETA_COMMAND = "echo beta-check-ok";
const LATE = "PARENT-LATE";
const GAMMA = "CHILD-GAMMA";
const GAMMA_COMMAND = "echo gamma-late";

const call = (when, name, args, extra = {}) => ({ when, tool_calls: [{ name, arguments: JSON.stringify(args) }], ...extra });

const REPORT = {
  summary: "The greeting is printed by `greet.sh`; nothing else refers to it.",
  exploration_trace: ["Listed the project root", "Read greet.sh"],
  relevant_locations: [{ file_path: "greet.sh", reasoning: "Defines and prints the greeting", key_symbols: ["greet"] }],
};

const SCENARIO = {
  responses: [
    {
      when: PARENT,
      text: "I'll split this between two helpers.",
      tool_calls: [
        { name: "spawn_agent", arguments: JSON.stringify({ message: `${ALPHA}: find where the greeting is defined`, agent_type: "codebase_investigator" }) },
        { name: "spawn_agent", arguments: JSON.stringify({ message: `${BETA}: run the project's check and report`, agent_type: "general" }) },
      ],
    },
    call(PARENT, "wait", {}),
    { when: PARENT, text: "Both helpers are done: the greeting is in `greet.sh` and the check passed." },
    // The investigator takes its time, so the two visibly work at once.
    call(ALPHA, "list_dir", { dir_path: "." }, { first_byte_delay_ms: 2500 }),
    call(ALPHA, "read_file", { file_path: "greet.sh" }, { first_byte_delay_ms: 400 }),
    call(ALPHA, "complete_task", REPORT),
    { when: ALPHA, text: "Reported." },
    call(BETA, "exec_command", { cmd: BETA_COMMAND }),
    { when: BETA, text: "BETA: the check passed (beta-check-ok).", drip_ms: 20 },
    // A parent that does not wait: its child asks after the parent's turn has ended.
    call(LATE, "spawn_agent", { message: `${GAMMA}: run the slow check`, agent_type: "general" }),
    { when: LATE, text: "Started a helper; it will ask you itself." },
    call(GAMMA, "exec_command", { cmd: GAMMA_COMMAND }, { first_byte_delay_ms: 2000 }),
    { when: GAMMA, text: "GAMMA: done." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Subagents", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-subagents-")));
    writeFileSync(path.join(project, "greet.sh"), "greet() { echo hello; }\ngreet\n");
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0", MEMO_ENABLE_COLLAB_TOOLS: "1" },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id, root = app.driver) => root.findElement(byTestId(id));
  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const text = (element) => element.getAttribute("textContent");
  /** The subagent card whose task holds `marker`. */
  const cardOf = async (marker) => {
    for (const card of await app.driver.findElements(byTestId("subagent-card"))) {
      if ((await text(card)).includes(marker)) return card;
    }
    return null;
  };
  const waitPhase = (marker, phase) =>
    app.driver.wait(
      async () => {
        try {
          const card = await cardOf(marker);
          return card !== null && (await card.getAttribute("data-phase")) === phase;
        } catch (error) {
          if (error.name === "StaleElementReferenceError") return false;
          throw error;
        }
      },
      UI_TIMEOUT_MS,
      `the ${marker} card did not become ${phase}`,
    );
  const centre = (element) => app.driver.executeScript("arguments[0].scrollIntoView({ block: 'center' });", element);

  test("a child's question shows in the parent, saying which agent asks, while both children work", async () => {
    await app.driver.wait(
      async () => (await text(await wait("chat-title"))) === path.basename(project),
      UI_TIMEOUT_MS,
      "the folder did not open",
    );
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys(`${PARENT}: map the greeting and run the check, in parallel`, Key.ENTER);

    const question = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    const asker = await find("approval-agent", question);
    assert.match(await text(asker), new RegExp(`^Subagent general \\(agent-[0-9a-f]{4}…\\) wants to run ${BETA_COMMAND}$`));
    const agentId = await question.getAttribute("data-agent-id");
    assert.match(agentId, /^agent-[0-9a-f]{8}$/);

    // The asking agent's card says it waits, and its work shows the call that waits.
    const beta = await cardOf(BETA);
    assert.equal(await beta.getAttribute("data-phase"), "needs_approval");
    assert.equal(await beta.getAttribute("data-agent-id"), agentId);
    await app.driver.wait(
      async () => (await text(await find("subagent-work", beta))).includes(`$ ${BETA_COMMAND}waiting for approval`),
      UI_TIMEOUT_MS,
      "the waiting command is not in the card's work",
    );
    // The other one is still at work meanwhile: they run at once.
    assert.equal(await (await cardOf(ALPHA)).getAttribute("data-phase"), "running");

    // The sidebar's Active list offers the same question.
    const pending = await wait("active-approval");
    assert.match(await text(pending), new RegExp(BETA_COMMAND));

    await centre(question);
    await shot("a subagent's question in its parent");
  });

  test("approved, both children finish, wait returns both, and each card shows its work and answer", async () => {
    const question = await app.driver.findElement(By.css('[data-testid="approval-card"][data-state="pending"]'));
    await (await question.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
    assert.equal(await countNow(app.driver, By.css('[data-testid="approval-card"][data-state="pending"]')), 0);

    await waitPhase(ALPHA, "finished");
    await waitPhase(BETA, "finished");

    // wait: each agent with its state and answer, not JSON.
    const waited = await app.driver.findElement(By.css('[data-testid="collab-card"][data-action="wait_for"]'));
    assert.equal(await text(await find("collab-outcome", waited)), "all done");
    const rows = await waited.findElements(byTestId("collab-agent"));
    assert.equal(rows.length, 2);
    const rowText = (await Promise.all(rows.map(text))).join("\n");
    assert.match(rowText, /codebase_investigator/);
    assert.match(rowText, /The greeting is printed by greet\.sh/);
    assert.match(rowText, /BETA: the check passed/);
    assert.doesNotMatch(rowText, /"agent_id"/);

    // The investigator's answer is a report; the general agent's is text.
    const alpha = await cardOf(ALPHA);
    const report = await find("subagent-report", alpha);
    assert.match(await text(await find("report-location", report)), /greet\.sh.*Defines and prints the greeting/s);
    const beta = await cardOf(BETA);
    assert.match(await text(await find("subagent-answer", beta)), /BETA: the check passed/);

    // Their work, folded once done, unfolds to what each did.
    for (const [card, tools] of [
      [alpha, ["list_dir", "read_file", "complete_task"]],
      [beta, ["exec_command"]],
    ]) {
      await centre(card);
      await (await find("subagent-work-toggle", card)).click();
      await app.driver.wait(
        async () => {
          const steps = await card.findElements(byTestId("subagent-step"));
          const names = await Promise.all(steps.map((step) => step.getAttribute("data-tool")));
          return tools.every((tool) => names.includes(tool));
        },
        UI_TIMEOUT_MS,
        `the card does not show ${tools.join(", ")}`,
      );
    }
    assert.match(await text(await find("subagent-work", beta)), new RegExp(`\\$ ${BETA_COMMAND}`));

    const requests = await mock.requests();
    const firstUser = (r) => JSON.stringify((r.body?.messages ?? []).find((m) => m.role === "user") ?? "");
    assert.equal(requests.filter((r) => firstUser(r).includes(ALPHA)).length, 4);
    assert.equal(requests.filter((r) => firstUser(r).includes(BETA)).length, 2);
    assert.equal(requests.filter((r) => firstUser(r).includes(PARENT)).length, 3);

    await centre(alpha);
    await shot("subagent cards with their work and answers");
    await centre(waited);
    await shot("wait returning both subagents");
  });

  test("Open shows a child's own transcript, read-only, and Back returns to the parent", async () => {
    const alpha = await cardOf(ALPHA);
    const alphaId = await alpha.getAttribute("data-agent-id");
    await (await find("subagent-open", alpha)).click();
    const view = await wait("subagent-view");
    assert.equal(await text(await find("subagent-title", view)), `Subagent codebase_investigator · ${alphaId}`);
    await app.driver.wait(
      async () => (await view.findElements(byTestId("tool-card"))).length >= 3,
      UI_TIMEOUT_MS,
      "the child's tool calls are not shown",
    );
    assert.match(await text(await find("user-message", view)), new RegExp(ALPHA));
    assert.match(await text(await find("subagent-report", view)), /greet\.sh/);
    assert.equal(await countNow(app.driver, By.css("textarea[aria-label='Message']")), 0, "a subagent takes no messages");
    await shot("a subagent's own transcript");

    await (await find("subagent-back")).click();
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("subagent-view"))) === 0, UI_TIMEOUT_MS, "the subagent view stays");
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("subagent-card"))) === 2, UI_TIMEOUT_MS, "the parent is not back");
    assert.equal(await countNow(app.driver, By.css("textarea[aria-label='Message']")), 1);
  });

  test("a child's question after its parent's turn ended stands at the end of the conversation", async () => {
    await (await find("new-session")).click();
    await wait("chat-new-session");
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys(`${LATE}: start a helper and stop`, Key.ENTER);
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
    assert.equal(await (await cardOf(GAMMA)).getAttribute("data-phase"), "running");

    // Outside any turn: a row of its own after the ended turn.
    const question = await app.driver.wait(
      until.elementLocated(By.css('.transcript__row > [data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    assert.match(await text(await find("approval-agent", question)), new RegExp(`^Subagent general \\(agent-[0-9a-f]{4}…\\) wants to run ${GAMMA_COMMAND}$`));
    assert.equal(await (await cardOf(GAMMA)).getAttribute("data-phase"), "needs_approval");
    const pending = await wait("active-approval");
    assert.match(await text(pending), new RegExp(GAMMA_COMMAND));
    await centre(question);
    await shot("a subagent's question after its parent's turn");

    await (await question.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    await waitPhase(GAMMA, "finished");
    assert.match(await text(await find("subagent-answer", await cardOf(GAMMA))), /GAMMA: done\./);
    assert.equal(await countNow(app.driver, By.css('[data-testid="approval-card"][data-state="pending"]')), 0);
  });

  test("a search hit in a subagent's session opens its parent, then the subagent's view", async () => {
    // "Reported." is only in the investigator's own transcript.
    await (await find("session-search")).sendKeys("Reported");
    const hit = await wait("search-result");
    await hit.click();
    const view = await wait("subagent-view");
    assert.match(await text(await find("subagent-title", view)), /^Subagent codebase_investigator · agent-/);
    await (await find("subagent-back")).click();
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("subagent-card"))) === 2, UI_TIMEOUT_MS, "the parent is not shown");
    assert.match(await text(await find("user-message")), new RegExp(PARENT));
  });
});
