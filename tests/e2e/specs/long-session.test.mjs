// A 10,000-message session on the real app, written into a real store by the seeder: it
// opens at its end with only a page of it loaded and a bounded DOM, earlier pages come as
// the user scrolls up without the view jumping and without the DOM growing, a search hit
// deep in it opens the session there with only a window of pages loaded, an old command's
// long output, sent cut to its start, is read whole when its card is opened, scrolling down
// from the hit reads on page by page (letting go of what is far above) until it meets the
// end, and "↓ Latest" goes straight there. A turn that streams while the reader is far back
// is held meanwhile and shown whole, once, on the way back to the end.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";
import { seedSessionsBinary } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 60_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const MESSAGES = 10_000;
const TURNS = MESSAGES / 2;
// Every fourth turn runs a command (731 does); its output is 20 KB, over the window's cut.
const MARKER_TURN = 731;
const TOOL_OUTPUT_BYTES = 20_000;

// The turn streamed while the reader is far back: ~12 s of it, in 240 small pieces.
const LIVE_QUESTION = "Sum the whole session up.";
const LIVE_ANSWER = Array.from({ length: 24 }, (_, i) => `Point ${i} of the summary, in forty chars. `).join("");

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("A 10,000-message session", { timeout: 300_000 }, () => {
  let app;
  let project;
  let home;
  let mock;

  before(async () => {
    mock = await startMockLlm({ responses: [{ text: LIVE_ANSWER, chunk_chars: 4, drip_ms: 50 }] });
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-long-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-long-home-"));
    writeFileSync(
      path.join(home, "config.toml"),
      // A context window the seeded history fits in: the turn sent to it is answered
      // without compacting ~7M tokens first.
      `current_provider = "bench"\n[[providers.bench]]\nname = "bench"\nmodel = "bench-model"\nbase_url = "${mock.baseUrl}/v1"\n[model_profiles.\"bench-model\"]\ncontext_window = 1000000000\n`,
    );
    execFileSync(seedSessionsBinary(), [
      "--home", home,
      "--cwd", project,
      "--sessions", "1",
      "--messages", String(MESSAGES),
      "--marker-turn", String(MARKER_TURN),
      "--marker", "zebracorn",
      "--tool-output-bytes", String(TOOL_OUTPUT_BYTES),
    ]);
    app = await launchApp({ env: { GTK_THEME: THEME }, args: [project], home });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  // What the transcript holds (not just renders): entries loaded, whether it stops short of the end.
  const loaded = () =>
    app.driver.executeScript(() => {
      const t = document.querySelector('[data-testid="transcript"]');
      return t ? { entries: Number(t.dataset.entries), first: t.dataset.firstKey, hasNewer: t.dataset.hasNewer === "true" } : null;
    });
  const turnInputs = () =>
    app.driver.executeScript(() =>
      [...document.querySelectorAll('[data-testid="turn"]')].map((t) => (/Question (\d+)/.exec(t.textContent) ?? [])[1]),
    );

  test("opens at its end with a bounded transcript, and reaches back page by page", async () => {
    await (await wait("session-item")).click();
    await app.driver.wait(
      async () => (await turnInputs()).at(-1) === String(TURNS - 1),
      UI_TIMEOUT_MS,
      "the last turn is not shown",
    );
    const shown = await turnInputs();
    assert.ok(shown.length <= 40, `${shown.length} turns in the DOM`);
    // Scrolled to the end: the last answer is on screen.
    const atEnd = await app.driver.executeScript(() => {
      const body = document.querySelector(".chat__body");
      return body.scrollHeight - body.scrollTop - body.clientHeight < 60;
    });
    assert.ok(atEnd, "not scrolled to the end");
    await shot("long session - its end");

    // Scrolling up, as a user would: earlier entries come into the DOM (and leave it below),
    // near the top of what is loaded the page before it is read from the store, and what
    // is on screen stays put meanwhile.
    const topTurn = () =>
      app.driver.executeScript(() => {
        const top = document.querySelector(".chat__body").getBoundingClientRect().top;
        const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.getBoundingClientRect().bottom > top);
        return turn ? [(/Question (\d+)/.exec(turn.textContent) ?? [])[1], turn.getBoundingClientRect().top] : [null, null];
      });
    const firstLoaded = TURNS - 40;
    let reached = Number(shown[0]);
    for (let i = 0; i < 40 && reached >= firstLoaded - 5; i++) {
      await app.driver.executeScript(() => {
        document.querySelector(".chat__body").scrollTop -= 2500;
      });
      await new Promise((r) => setTimeout(r, 200));
      const [anchorTurn, anchor] = await topTurn();
      // Let pages and measurements land, then look again: the same turn, where it was.
      await new Promise((r) => setTimeout(r, 600));
      const moved = await app.driver.executeScript(
        (top, n) => {
          const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.textContent.includes(`Question ${n}:`));
          return turn ? Math.abs(turn.getBoundingClientRect().top - top) : null;
        },
        anchor,
        anchorTurn,
      );
      assert.ok(moved !== null && moved < 40, `the view jumped by ${moved}px at turn ${anchorTurn}`);
      const rendered = await countNow(app.driver, byTestId("turn"));
      assert.ok(rendered <= 40, `${rendered} turns in the DOM after reading back to turn ${anchorTurn}`);
      reached = Math.min(reached, Number(anchorTurn));
    }
    assert.ok(reached < firstLoaded - 5, `scrolling up reached turn ${reached} only: no page came from the store`);
    // Dragged to the top in one go (past everything rendered): the turns there are shown
    // and the page before them is read.
    await app.driver.wait(
      async () => {
        await app.driver.executeScript(() => {
          document.querySelector(".chat__body").scrollTop = 0;
        });
        await new Promise((r) => setTimeout(r, 200));
        const [turn] = await topTurn();
        return turn !== null && Number(turn) < reached - 40;
      },
      UI_TIMEOUT_MS,
      "dragging to the top showed nothing earlier",
    );
    await shot("long session - read back");
  });

  test("a search hit deep in it opens the session at that turn", async () => {
    const box = await wait("session-search");
    await box.sendKeys("zebracorn");
    const result = await wait("search-result");
    assert.match(await result.getAttribute("textContent"), /zebracorn/);
    await result.click();
    await app.driver.wait(
      async () => (await turnInputs()).includes(String(MARKER_TURN)),
      UI_TIMEOUT_MS,
      "the turn of the hit was not loaded",
    );
    await app.driver.wait(
      async () =>
        app.driver.executeScript((n) => {
          const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.textContent.includes(`Question ${n}:`));
          const body = document.querySelector(".chat__body");
          if (!turn || !body) return false;
          const top = turn.getBoundingClientRect().top - body.getBoundingClientRect().top;
          return top > -40 && top < body.clientHeight;
        }, MARKER_TURN),
      UI_TIMEOUT_MS,
      "the hit's turn was not brought into view",
    ).catch(async (error) => {
      await shot("long session - the hit not in view");
      const where = await app.driver.executeScript((n) => {
        const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.textContent.includes(`Question ${n}:`));
        const body = document.querySelector(".chat__body");
        return { top: turn && turn.getBoundingClientRect().top, scroll: body.scrollTop, height: body.scrollHeight, turns: document.querySelectorAll('[data-testid="turn"]').length };
      }, MARKER_TURN);
      throw new Error(`${error.message}: ${JSON.stringify(where)}`);
    });
    assert.ok((await countNow(app.driver, byTestId("turn"))) < TURNS, "the whole session was rendered");
    // Only a window around the hit is loaded: its page (and maybe the one above), not the
    // 4,000 turns after it; the view does not follow an end it does not hold.
    const window = await loaded();
    assert.ok(window.hasNewer, "the window claims to reach the end");
    assert.ok(window.entries <= 2 * 40 + 5, `${window.entries} entries loaded around the hit`);
    assert.ok(await (await wait("jump-latest")).isDisplayed(), "no way back to the end");
    // The page above it may load meanwhile (its top is in reach): the hit stays in view.
    await new Promise((r) => setTimeout(r, 3000));
    const stillThere = await app.driver.executeScript((n) => {
      const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.textContent.includes(`Question ${n}:`));
      const body = document.querySelector(".chat__body");
      if (!turn || !body) return null;
      return turn.getBoundingClientRect().top - body.getBoundingClientRect().top;
    }, MARKER_TURN);
    assert.ok(stillThere !== null && stillThere > -200 && stillThere < 400, `the hit's turn moved to ${stillThere}`);
    await shot("long session - a search hit deep in it");
  });

  test("an old command's long output is read whole when its card is opened", async () => {
    // The hit's turn ran `cargo test -p crate731`: its card shows the exit code folded.
    const card = await app.driver.wait(async () => {
      const cards = await app.driver.findElements(By.css('[data-testid="tool-card"][data-tool="exec_command"]'));
      for (const candidate of cards) {
        if ((await candidate.getAttribute("textContent")).includes(`crate${MARKER_TURN}`)) return candidate;
      }
      return null;
    }, UI_TIMEOUT_MS, "the hit's command card is not shown");
    assert.match(await card.findElement(byTestId("tool-status")).getAttribute("textContent"), /exit 0/);
    // Folded, only the start came: not the last line.
    assert.ok(!(await card.getAttribute("textContent")).includes(`crate${MARKER_TURN} passed`), "the whole output was sent");
    await app.driver.executeScript("arguments[0].scrollIntoView({ block: 'center' });", card);
    await card.findElement(By.css("summary")).click();
    await app.driver.wait(
      async () => (await card.findElement(byTestId("tool-output")).getAttribute("textContent")).includes(`test result: ok. crate${MARKER_TURN} passed`),
      UI_TIMEOUT_MS,
      "the whole output did not load",
    );
    const text = await card.findElement(byTestId("tool-output")).getAttribute("textContent");
    assert.ok(text.length > TOOL_OUTPUT_BYTES - 200, `${text.length} characters shown`);
    assert.equal((await card.findElements(byTestId("tool-output-partial"))).length, 0);
    await shot("long session - an old command's whole output");
  });

  test("scrolling down from the hit reads on page by page until it meets the end", async () => {
    const bottomTurn = () =>
      app.driver.executeScript(() => {
        const body = document.querySelector(".chat__body");
        const bottom = body.getBoundingClientRect().bottom;
        const turns = [...document.querySelectorAll('[data-testid="turn"]')].filter((t) => t.getBoundingClientRect().top < bottom);
        const turn = turns.at(-1);
        return turn ? [(/Question (\d+)/.exec(turn.textContent) ?? [])[1], turn.getBoundingClientRect().top] : [null, null];
      });
    const at = (n) =>
      app.driver.executeScript((q) => {
        const turn = [...document.querySelectorAll('[data-testid="turn"]')].find((t) => t.textContent.includes(`Question ${q}:`));
        return turn ? turn.getBoundingClientRect().top : null;
      }, n);
    const start = await loaded();
    // A few screens at a time, as a user would: later pages come below, the view stays put.
    let reached = MARKER_TURN;
    for (let i = 0; i < 30; i++) {
      await app.driver.executeScript(() => {
        document.querySelector(".chat__body").scrollTop += 2500;
      });
      await new Promise((r) => setTimeout(r, 200));
      const [turn, top] = await bottomTurn();
      await new Promise((r) => setTimeout(r, 500));
      const now = await at(turn);
      assert.ok(now !== null && Math.abs(now - top) < 40, `the view jumped from ${top} to ${now} at turn ${turn}`);
      reached = Math.max(reached, Number(turn));
      const rendered = await countNow(app.driver, byTestId("turn"));
      assert.ok(rendered <= 40, `${rendered} turns in the DOM at turn ${turn}`);
    }
    assert.ok(reached > MARKER_TURN + 60, `scrolling down reached turn ${reached} only: no later page came`);
    // Then dragged to the bottom again and again: page after page, never more than ~400
    // turns loaded (the earliest are let go), until the window meets the end.
    let most = 0;
    let state = await loaded();
    const began = Date.now();
    while (state.hasNewer && Date.now() - began < 180_000) {
      await app.driver.executeScript(() => {
        const body = document.querySelector(".chat__body");
        body.scrollTop = body.scrollHeight;
      });
      await new Promise((r) => setTimeout(r, 150));
      state = await loaded();
      most = Math.max(most, state.entries);
    }
    assert.ok(!state.hasNewer, `still short of the end after ${Date.now() - began} ms`);
    assert.ok(most <= 405, `${most} entries were loaded at once`);
    assert.notEqual(state.first, start.first, "nothing above was let go");
    await app.driver.wait(
      async () => {
        await app.driver.executeScript(() => {
          const body = document.querySelector(".chat__body");
          body.scrollTop = body.scrollHeight;
        });
        return (await turnInputs()).at(-1) === String(TURNS - 1);
      },
      UI_TIMEOUT_MS,
      "the last turn is not shown",
    );
    const [last] = await bottomTurn();
    assert.equal(last, String(TURNS - 1));
    await shot("long session - read down to its end");
  });

  test("from a search hit, Latest goes straight to the end", async () => {
    await (await wait("session-search")).sendKeys("zebracorn");
    const result = await wait("search-result");
    await result.click();
    await app.driver.wait(async () => (await loaded())?.hasNewer === true, UI_TIMEOUT_MS, "the hit did not open a window short of the end");
    await app.driver.wait(async () => (await turnInputs()).includes(String(MARKER_TURN)), UI_TIMEOUT_MS, "the hit's turn is not shown");
    await shot("long session - a hit, with Latest offered");
    await (await wait("jump-latest")).click();
    await app.driver.wait(
      async () => (await turnInputs()).at(-1) === String(TURNS - 1) && (await loaded()).hasNewer === false,
      UI_TIMEOUT_MS,
      "Latest did not bring the end",
    );
    const state = await loaded();
    assert.ok(state.entries <= 45, `${state.entries} entries loaded after jumping to the end`);
    await app.driver.wait(
      () =>
        app.driver.executeScript(() => {
          const body = document.querySelector(".chat__body");
          return body.scrollHeight - body.scrollTop - body.clientHeight < 60;
        }),
      UI_TIMEOUT_MS,
      "not scrolled to the end",
    );
    await shot("long session - jumped to the latest");
  });

  test("a turn that streams while the reader is far back shows whole, once, back at the end", async () => {
    const lastTurn = () =>
      app.driver.executeScript(() => {
        const turns = [...document.querySelectorAll('[data-testid="turn"]')];
        const turn = turns.at(-1);
        return turn ? { text: turn.textContent, status: turn.dataset.status } : null;
      });
    const box = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await box.sendKeys(LIVE_QUESTION, Key.ENTER);
    await app.driver.wait(
      async () => {
        const last = await lastTurn();
        return last !== null && last.text.includes(LIVE_QUESTION) && last.text.includes("Point 1 of");
      },
      UI_TIMEOUT_MS,
      "the answer did not start streaming",
    ).catch(async (error) => {
      await shot("long session - the live turn did not stream");
      throw error;
    });

    // Far back while it streams: the window stops short of the end, and the live turn is
    // not among what it shows.
    await (await wait("session-search")).sendKeys("zebracorn");
    await (await wait("search-result")).click();
    await app.driver.wait(async () => (await loaded())?.hasNewer === true, UI_TIMEOUT_MS, "the hit did not open a window short of the end").catch(async (error) => {
      // What was shown instead, to tell a hit never opened from one opened at the end.
      await shot("long session - the hit did not open while a turn streamed");
      throw new Error(`${error.message}: ${JSON.stringify({ loaded: await loaded(), turns: (await turnInputs()).slice(0, 3) })}`);
    });
    await app.driver.wait(async () => (await turnInputs()).includes(String(MARKER_TURN)), UI_TIMEOUT_MS, "the hit's turn is not shown");
    await new Promise((r) => setTimeout(r, 2000));
    const farBack = await app.driver.executeScript(() => document.querySelector('[data-testid="transcript"]').textContent);
    assert.ok(!farBack.includes(LIVE_QUESTION), "the live turn shows among turns far back");

    // Back at the end: the turn, with what streamed meanwhile, then its end as it comes.
    await (await wait("jump-latest")).click();
    await app.driver.wait(
      async () => {
        const last = await lastTurn();
        return last !== null && last.status === "completed" && last.text.includes(LIVE_QUESTION);
      },
      UI_TIMEOUT_MS,
      "the live turn did not complete at the end",
    );
    const { text } = await lastTurn();
    // Whole and once: every piece in order, none twice (held events replayed over a page
    // that already had them would show twice).
    assert.ok(text.includes(LIVE_ANSWER.trim()), "the answer is not whole");
    assert.equal(text.split("Point 0 of the summary").length - 1, 1, "the answer shows twice");
    const questions = await app.driver.executeScript(
      (q) => [...document.querySelectorAll('[data-testid="user-message"]')].filter((m) => m.textContent.includes(q)).length,
      LIVE_QUESTION,
    );
    assert.equal(questions, 1, "the question shows more than once");
    await shot("long session - a turn streamed while far back");
  });
});
