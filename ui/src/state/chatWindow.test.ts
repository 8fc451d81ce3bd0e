import { describe, expect, it } from "vitest";

import type { EventEnvelope, HistoryPage } from "../gen/protocol";
import { chatReducer, initialChat, type ChatState } from "./chat";
import { MAX_HELD, newerPage, olderPage, trimNewer, trimOlder, WINDOW_LIMITS, type WindowLimits } from "./chatWindow";
import { pendingAsks } from "./chatTail";
import { USAGE, eventAt as at, pagedTurn as turn, sessionSummary } from "../test/fixtures";

// Turn k of the session takes seqs 3k+1..3k+3: started, answered, ended.
/** Turns `first` to `end - 1` of a session of `total` turns, as the service pages them. */
const page = (first: number, end: number, total: number): HistoryPage => ({
  events: Array.from({ length: end - first }, (_, i) => turn(first + i)).flat(),
  from_seq: 3 * first + 1,
  to_seq: 3 * end,
  has_more: first > 0,
  has_after: end < total,
});
/** A live turn streamed as it happens: deltas, then the message that confirms them. */
const streamed = (k: number): EventEnvelope[] => [
  at(3 * k + 1, k, { type: "turn_started", input: { text: `question ${k}` } }),
  at(3 * k + 2, k, { type: "text_delta", delta: `answer ${k}` }),
  at(3 * k + 3, k, { type: "assistant_message", text: `answer ${k}`, tool_calls: [] }),
  at(3 * k + 4, k, { type: "turn_ended", reason: "completed", usage: USAGE }),
];

const inputs = (state: ChatState) => state.transcript.entries.map((e) => (e.kind === "turn" ? e.input : e.kind));
const questions = (from: number, end: number) => Array.from({ length: end - from }, (_, i) => `question ${from + i}`);

/** A session of `total` turns opened at `page`. */
function opened(total: number, first: HistoryPage): ChatState {
  const summary = sessionSummary({ id: "s1", last_seq: 3 * total });
  let state = chatReducer(initialChat, { type: "loading" });
  state = chatReducer(state, { type: "opened", session: summary });
  return chatReducer(state, { type: "page", sessionId: "s1", page: first });
}

describe("a window opened at a search hit", () => {
  it("loads a page around the hit, holds live events back and joins them once later pages meet the end", () => {
    // 100 turns; the hit is in turn 10: turns 10 to 19 are loaded, not the 90 after it.
    let state = opened(100, page(10, 20, 100));
    expect(state.phase).toBe("idle");
    expect(state.history).toEqual({ from: 31, more: true, after: true });
    expect(inputs(state)).toEqual(questions(10, 20));
    // Subscribed from the session's end as it was: only what happens from now on is held.
    expect(state.held).toEqual({ after: 300, events: [] });

    // A turn runs live meanwhile: it is not shown after turn 19, where it does not belong.
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: streamed(100).slice(0, 2) });
    expect(inputs(state)).toEqual(questions(10, 20));
    expect(state.held?.events.map((e) => e.seq)).toEqual([301, 302]);

    // A page that does not start where the loaded part ends does not fit below it.
    expect(chatReducer(state, { type: "newer", sessionId: "s1", page: page(30, 40, 100) })).toBe(state);
    for (let first = 20; first < 90; first += 10) {
      state = chatReducer(state, { type: "newer", sessionId: "s1", page: page(first, first + 10, 100) });
      expect(state.history?.after).toBe(true);
    }
    expect(inputs(state)).toEqual(questions(10, 90));

    // The last page was read after the live turn had begun: it holds its first events too
    // (seqs 301 and 302, as the store had them), and the held ones overlap it.
    const last = page(90, 100, 100);
    const end = { ...last, events: [...last.events, ...streamed(100).slice(0, 2)], to_seq: 302 };
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: streamed(100).slice(2) });
    state = chatReducer(state, { type: "newer", sessionId: "s1", page: end });
    expect(state.history).toEqual({ from: 31, more: true, after: false });
    expect(state.held).toBeNull();
    // Every turn once, in order; the live one whole and confirmed.
    expect(inputs(state)).toEqual(questions(10, 101));
    const live = state.transcript.entries.at(-1);
    expect(live?.kind === "turn" && live.status).toBe("completed");
    expect(live?.kind === "turn" && live.items.map((i) => (i.kind === "text" ? [i.text, i.provisional] : i.kind))).toEqual([
      ["answer 100", false],
    ]);
    expect(state.transcript.lastSeq).toBe(304);

    // At the end now: live events are shown as they come.
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: streamed(102).slice(0, 1) });
    expect(inputs(state).at(-1)).toBe("question 102");
  });

  it("a page that meets the end but not the held events reads on instead of leaving a gap", () => {
    let state = opened(20, page(0, 10, 20));
    expect(state.history).toEqual({ from: 1, more: false, after: true });
    // A turn runs live while the next page is read: it starts at 61 and streams more events
    // than are held, so the oldest go and are read from the store instead.
    const running = [
      at(61, 20, { type: "turn_started", input: { text: "question 20" } }),
      ...Array.from({ length: MAX_HELD + 10 }, (_, i) => at(62 + i, 20, { type: "text_delta", delta: "x" })),
    ];
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: running });
    expect(state.held?.events).toHaveLength(MAX_HELD);
    expect(state.held?.after).toBe(71);
    // Read while the turn had begun: it ends inside it, at 63, and 64..71 are held no more.
    const read = page(10, 20, 20);
    const upTo63 = { ...read, events: [...read.events, ...running.slice(0, 3)], to_seq: 63, has_after: false };
    state = chatReducer(state, { type: "newer", sessionId: "s1", page: upTo63 });
    expect(state.history?.after).toBe(true);
    expect(state.held).not.toBeNull();
    expect(state.transcript.lastSeq).toBe(63);
    // The next page is asked from 64; the service starts it at the turn holding 64, at 61,
    // as it really does (the seqs already loaded are skipped).
    const rest: HistoryPage = {
      events: running,
      from_seq: 61,
      to_seq: 61 + MAX_HELD + 10,
      has_more: true,
      has_after: false,
    };
    state = chatReducer(state, { type: "newer", sessionId: "s1", page: rest });
    expect(state.held).toBeNull();
    expect(state.history).toBeNull();
    expect(state.transcript.lastSeq).toBe(61 + MAX_HELD + 10);
    const live = state.transcript.entries.at(-1);
    expect(live?.kind === "turn" && live.input).toBe("question 20");
    expect(live?.kind === "turn" && live.items.map((i) => (i.kind === "text" ? i.text.length : i.kind))).toEqual([MAX_HELD + 10]);
    expect(inputs(state)).toEqual(questions(0, 21));
  });

  it("keeps the errors the store refused when more live events come than are held", () => {
    let state = opened(20, page(0, 10, 20));
    const refused = { ...at(0, 20, { type: "error", kind: "internal", message: "disk full", retryable: false }), turn_id: null };
    const many = Array.from({ length: MAX_HELD + 10 }, (_, i) => at(61 + i, 20, { type: "text_delta", delta: "x" }));
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [refused, ...many] });
    expect(state.held?.events).toHaveLength(MAX_HELD);
    expect(state.held?.events[0]).toBe(refused);
    // Only events the store has went: reading from 72 on brings back all of them.
    expect(state.held?.after).toBe(71);
  });

  it("counts the questions asked out of sight, and jumps to the live end in place of what is loaded", () => {
    let state = opened(100, page(10, 20, 100));
    const ask = at(301, 100, {
      type: "elicitation_requested",
      request_id: "r1",
      server: "docs",
      message: "Which one?",
      schema: { properties: {} },
    });
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [ask] });
    // Asked at the end, out of what is loaded: the tail counts it and says it waits.
    expect(state.tail.asked).toBe(1);
    expect(pendingAsks(state.tail)).toBe(1);
    const latest = page(60, 100, 100);
    state = chatReducer(state, { type: "latest", sessionId: "s1", page: latest });
    expect(state.latest).toBe(1);
    expect(state.held).toBeNull();
    expect(state.history).toEqual({ from: 181, more: true, after: false });
    expect(inputs(state)).toEqual([...questions(60, 100), "elicitation"]);
    // Already at the end: nothing to replace (live events may be past the page by now).
    expect(chatReducer(state, { type: "latest", sessionId: "s1", page: latest })).toBe(state);
  });
});

describe("a window's bound", () => {
  const small: WindowLimits = { turns: 25, items: 1000, minTurns: 10 };

  it("lets go of the earliest turns while reading on, and reads them again above", () => {
    let state = opened(100, page(10, 20, 100));
    state = newerPage(state, page(20, 30, 100), small);
    expect(inputs(state)).toEqual(questions(10, 30));
    state = newerPage(state, page(30, 40, 100), small);
    // 30 turns loaded, 25 kept: the five earliest went, and the window starts at turn 15.
    expect(inputs(state)).toEqual(questions(15, 40));
    expect(state.history).toEqual({ from: 46, more: true, after: true });
    // Scrolling back up reads them again, just above.
    state = olderPage(state, page(5, 15, 100), small);
    expect(inputs(state)[0]).toBe("question 5");
  });

  it("lets go of the latest turns while reading back, holding live events until later pages meet the end", () => {
    // Opened at the end, following it.
    let state = opened(100, page(80, 100, 100));
    expect(state.history).toEqual({ from: 241, more: true, after: false });
    state = olderPage(state, page(70, 80, 100), small);
    // 30 loaded, 25 kept: the last five went; the window now ends after turn 94.
    expect(inputs(state)).toEqual(questions(70, 95));
    expect(state.history).toEqual({ from: 211, more: true, after: true });
    expect(state.transcript.lastSeq).toBe(285);
    expect(state.held).toEqual({ after: 300, events: [] });
    // A live turn comes while the reader is far back: held, not put after turn 94.
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: streamed(100) });
    expect(inputs(state).at(-1)).toBe("question 94");
    // Scrolling down reads turns 95 to 99 again, and the held turn joins after them.
    state = newerPage(state, page(95, 100, 100), small);
    expect(state.held).toBeNull();
    expect(state.history?.after).toBe(false);
    expect(inputs(state).slice(-6)).toEqual(questions(95, 101));
    expect(new Set(inputs(state)).size).toBe(inputs(state).length);
  });

  it("keeps the turns around the reader whatever their size, and cuts only between turns", () => {
    const heavy: WindowLimits = { turns: 400, items: 5, minTurns: 10 };
    let state = opened(100, page(0, 20, 100));
    state = trimOlder(state, heavy);
    expect(inputs(state)).toEqual(questions(10, 20));
    expect(state.history?.from).toBe(31);
    state = trimNewer(opened(100, page(80, 100, 100)), heavy);
    expect(inputs(state)).toEqual(questions(80, 90));
    expect(state.transcript.lastSeq).toBe(270);
  });

  it("holds about 400 turns through the reducer, however far the reader goes", () => {
    let state = opened(1000, page(120, 160, 1000));
    for (let first = 160; first < 1000; first += 40) {
      state = chatReducer(state, { type: "newer", sessionId: "s1", page: page(first, first + 40, 1000) });
      expect(state.transcript.entries.length).toBeLessThanOrEqual(WINDOW_LIMITS.turns);
    }
    expect(inputs(state)).toEqual(questions(600, 1000));
    expect(state.history).toEqual({ from: 1801, more: true, after: false });
    for (let end = 600; end > 0; end -= 40) {
      state = chatReducer(state, { type: "older", sessionId: "s1", page: page(end - 40, end, 1000) });
      expect(state.transcript.entries.length).toBeLessThanOrEqual(WINDOW_LIMITS.turns);
    }
    expect(inputs(state)).toEqual(questions(0, 400));
    expect(state.history).toEqual({ from: 1, more: false, after: true });
  });
});
