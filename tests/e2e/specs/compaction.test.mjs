// A session longer than its model's window, continued on the real app: the compaction the
// engine runs before the model step shows inside the turn while it is under way (a long
// history takes several summary requests, counted as they go), then its result takes that
// place, above the answer that came after it. The session and the model are real enough:
// the seeder writes the history into a real store, and the scripted model server answers
// each summary request with a snapshot, then the turn.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";
import { seedSessionsBinary } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 60_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
// 80 messages with a 4 KB command output every fourth turn: ~14k tokens, against a
// 12k-token window; summarised in two requests of at most ~5k tokens each.
const MESSAGES = 80;
const TOOL_OUTPUT_BYTES = 4_000;
const WINDOW = 12_000;
const REQUESTS = 2;
const QUESTION = "Carry on with the release notes.";
const ANSWER = "Carrying on from the snapshot: the release notes are next.";
// Each summary streams for ~3 s, long enough to be seen under way.
const snapshot = (n) => `<state_snapshot>\nPart ${n} of the earlier work, summarised. ${"Detail. ".repeat(8)}\n</state_snapshot>`;

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Compaction of a session longer than the window", { timeout: 180_000 }, () => {
  let app;
  let project;
  let home;
  let mock;

  before(async () => {
    mock = await startMockLlm({
      responses: [
        ...Array.from({ length: REQUESTS }, (_, i) => ({ text: snapshot(i + 1), chunk_chars: 2, drip_ms: 30 })),
        { text: ANSWER, chunk_chars: 8, drip_ms: 20 },
      ],
    });
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-compact-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-compact-home-"));
    writeFileSync(
      path.join(home, "config.toml"),
      `auto_compact_threshold_percent = 50\ncurrent_provider = "bench"\n[[providers.bench]]\nname = "bench"\nmodel = "bench-model"\nbase_url = "${mock.baseUrl}/v1"\n[model_profiles."bench-model"]\ncontext_window = ${WINDOW}\n`,
    );
    execFileSync(seedSessionsBinary(), [
      "--home", home,
      "--cwd", project,
      "--sessions", "1",
      "--messages", String(MESSAGES),
      "--tool-output-bytes", String(TOOL_OUTPUT_BYTES),
    ]);
    app = await launchApp({ env: { GTK_THEME: THEME }, args: [project], home });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  // The last turn's notes and answer, in the order they are shown.
  const lastTurn = () =>
    app.driver.executeScript((question) => {
      const turn = [...document.querySelectorAll('[data-testid="turn"]')].at(-1);
      if (!turn) return null;
      const parts = [...turn.querySelectorAll('[data-testid="info-notice"], [data-testid="assistant-text"]')].map((el) => ({
        kind: el.dataset.testid,
        text: el.textContent,
        busy: el.getAttribute("aria-busy") === "true",
      }));
      return { input: turn.textContent.includes(question), status: turn.dataset.status, parts };
    }, QUESTION);

  test("shows the compaction under way inside the turn, then its result above the answer", async () => {
    await (await app.driver.wait(until.elementLocated(byTestId("session-item")), UI_TIMEOUT_MS)).click();
    const box = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
    await app.driver.wait(until.elementIsEnabled(box), UI_TIMEOUT_MS);
    await box.sendKeys(QUESTION, Key.ENTER);

    // Under way: one note, busy, counting the requests as they go.
    const seen = new Set();
    await app.driver.wait(
      async () => {
        const turn = await lastTurn();
        const busy = turn?.input ? turn.parts.filter((p) => p.busy) : [];
        assert.ok(busy.length <= 1, `${busy.length} compaction notes under way at once`);
        if (busy.length === 1) {
          assert.match(busy[0].text, /Compacting the conversation…/);
          const request = /request (\d+) of (\d+)/.exec(busy[0].text);
          assert.ok(request, `no request count in "${busy[0].text}"`);
          assert.equal(Number(request[2]), REQUESTS, `summarised in ${request[2]} requests`);
          if (!seen.has(request[1])) {
            seen.add(request[1]);
            await shot(`compaction - request ${request[1]} of ${request[2]}`);
          }
        }
        return seen.size === REQUESTS;
      },
      UI_TIMEOUT_MS,
      "the compaction's requests were not all shown under way",
    );

    // Done: its result in the same place, the answer after it, nothing left under way.
    await app.driver.wait(
      async () => {
        const turn = await lastTurn();
        return turn?.status === "completed" && turn.parts.some((p) => p.kind === "assistant-text" && p.text.includes("release notes are next"));
      },
      UI_TIMEOUT_MS,
      "the turn was not answered after the compaction",
    );
    const { parts } = await lastTurn();
    assert.deepEqual(
      parts.map((p) => p.kind),
      ["info-notice", "assistant-text"],
      JSON.stringify(parts),
    );
    assert.match(parts[0].text, /Context compacted/);
    assert.match(parts[0].text, /older messages summarised/);
    assert.ok(!parts[0].busy);
    // Nothing about it outside the turn.
    const outside = await app.driver.executeScript(
      () => [...document.querySelectorAll('[data-testid="info-notice"]')].filter((el) => !el.closest('[data-testid="turn"]')).length,
    );
    assert.equal(outside, 0);
    await shot("compaction - compacted above the answer");
  });
});
