import { describe, expect, it } from "vitest";

import type { ApprovalRequest, HistoryPage } from "../gen/protocol";
import { chatReducer, initialChat, type ChatState } from "./chat";
import { modelProblemOf, pendingAsks, revertPointOf, tailLastTurn, tailRunning } from "./chatTail";
import { chatsReducer, evictable, initialChats } from "./chats";
import { liveEvents, olderPage, WINDOW_LIMITS, type WindowLimits } from "./chatWindow";
import { USAGE, eventAt as at, pagedTurn as turn, sessionSummary } from "../test/fixtures";

// Turn k takes seqs 3k+1..3k+3: started, answered, ended. The session's last turn (k = 100)
// is running and asks for approval: 301 started, 302 asked.
const request = (id: string): ApprovalRequest => ({
  request_id: id,
  call_id: `c-${id}`,
  tool_name: "write_file",
  risk: "write",
  reason: "write_file has write risk",
  fingerprint: "write_file:{}",
  cwd: "/repo",
  arguments: { file_path: "a.txt" },
});
const RUNNING = [
  at(301, 100, { type: "turn_started", input: { text: "question 100" } }),
  at(302, 100, { type: "approval_requested", request: request("r1") }),
];
/** Turns `first` to `end - 1` of the 100 finished ones, and the running one when `end` is 101. */
const page = (first: number, end: number): HistoryPage => {
  const finished = Array.from({ length: Math.min(end, 100) - first }, (_, i) => turn(first + i)).flat();
  return {
    events: end > 100 ? [...finished, ...RUNNING] : finished,
    from_seq: 3 * first + 1,
    to_seq: end > 100 ? 302 : 3 * end,
    has_more: first > 0,
    has_after: end <= 100,
  };
};
const inputs = (state: ChatState) => state.transcript.entries.map((e) => (e.kind === "turn" ? e.input : e.kind));

function opened(first: HistoryPage, end?: HistoryPage): ChatState {
  let state = chatReducer(initialChat, { type: "loading" });
  state = chatReducer(state, { type: "opened", session: sessionSummary({ id: "s1", last_seq: 302 }) });
  return chatReducer(state, { type: "page", sessionId: "s1", page: first, ...(end ? { end } : {}) });
}

describe("the session's end, apart from the loaded window", () => {
  it("knows a turn runs and asks at the end when a search hit opens the session far from it", () => {
    // Turns 10 to 19 are loaded; the end's last turn is read with them.
    let state = opened(page(10, 20), page(100, 101));
    expect(inputs(state)).toEqual(Array.from({ length: 10 }, (_, i) => `question ${10 + i}`));
    expect(tailRunning(state.tail)?.input).toBe("question 100");
    expect(pendingAsks(state.tail)).toBe(1);
    // Asked before the session was shown: nothing new to jump to, but it waits.
    expect(state.tail.asked).toBe(0);

    // The approval is answered and the turn ends live, held back from the window.
    state = chatReducer(state, {
      type: "events",
      sessionId: "s1",
      batch: [
        at(303, 100, { type: "approval_resolved", request_id: "r1", decision: { type: "approve_once" } }),
        at(304, 100, { type: "turn_ended", reason: "completed", usage: USAGE }),
      ],
    });
    expect(inputs(state).at(-1)).toBe("question 19");
    expect(tailRunning(state.tail)).toBeNull();
    expect(pendingAsks(state.tail)).toBe(0);
    // A new question asked live counts, so the view goes to it.
    state = chatReducer(state, {
      type: "events",
      sessionId: "s1",
      batch: [
        at(305, 101, { type: "turn_started", input: { text: "question 101" } }),
        at(306, 101, { type: "approval_requested", request: request("r2") }),
      ],
    });
    expect(state.tail.asked).toBe(1);
    expect(pendingAsks(state.tail)).toBe(1);
    // Only the last turn is kept for the end.
    expect(state.tail.transcript.entries.map((e) => e.kind === "turn" && e.input)).toEqual(["question 101"]);
  });

  it("keeps a running turn and its question when reading back lets it go from the window", () => {
    const small: WindowLimits = { ...WINDOW_LIMITS, turns: 25, minTurns: 10 };
    let state = opened(page(80, 101));
    expect(tailRunning(state.tail)?.input).toBe("question 100");
    // Reading back: turns 70..79 come above, and the newest (the running one among them) go.
    state = olderPage(state, page(70, 80), small);
    expect(state.history?.after).toBe(true);
    expect(inputs(state)).not.toContain("question 100");
    // The composer still shows Stop and the question still waits.
    expect(tailRunning(state.tail)?.input).toBe("question 100");
    expect(pendingAsks(state.tail)).toBe(1);
  });

  it("reverts and reports the session's last turn, not the last one loaded", () => {
    const failedEnd: HistoryPage = {
      events: [
        at(301, 100, { type: "turn_started", input: { text: "question 100" } }),
        at(302, 100, { type: "error", kind: "network", message: "connection refused", retryable: true }),
        at(303, 100, { type: "turn_ended", reason: "failed", usage: USAGE }),
      ],
      from_seq: 301,
      to_seq: 303,
      has_more: true,
      has_after: false,
    };
    const state = opened(page(10, 20), failedEnd);
    expect(tailLastTurn(state.tail)?.input).toBe("question 100");
    // Just before turn 100 (seq 301), not before turn 19, the last loaded (seq 58).
    expect(revertPointOf(state.tail)).toBe(300);
    expect(modelProblemOf(state.tail)).toBe("The last request failed: connection refused");
  });

  it("never lets go of a conversation whose turn runs out of its window", () => {
    let chats = initialChats;
    const open = (key: string, state: ChatState) => ({ ...chats, byKey: { ...chats.byKey, [key]: state }, recent: [...chats.recent, key] });
    chats = open("s1", opened(page(10, 20), page(100, 101)));
    for (let i = 0; i < 3; i++) chats = open(`idle${i}`, { ...initialChat, session: sessionSummary({ id: `idle${i}` }) });
    chats = chatsReducer(chats, { type: "show", cwd: "/repo", key: "idle2" });
    expect(evictable(chats, 2)).toEqual(["idle0", "idle1"]);
  });
});

describe("live events while the user reads", () => {
  // 25 turns kept at most; the window holds turns 0..23 and follows the end.
  const limits: WindowLimits = { turns: 25, items: 1000, minTurns: 10 };
  const start = (): ChatState => {
    let state = chatReducer(initialChat, { type: "loading" });
    state = chatReducer(state, { type: "opened", session: sessionSummary({ id: "s1", last_seq: 72 }) });
    const first: HistoryPage = {
      events: Array.from({ length: 24 }, (_, k) => turn(k)).flat(),
      from_seq: 1,
      to_seq: 72,
      has_more: false,
      has_after: false,
    };
    return chatReducer(state, { type: "page", sessionId: "s1", page: first });
  };
  const twoTurns = [...turn(24), ...turn(25)];

  it("hold live events back instead of letting go of the turn being read", () => {
    const state = start();
    // Following: the earliest go.
    const following = liveEvents(state, twoTurns, limits, null);
    expect(inputs(following)[0]).toBe("question 1");
    expect(following.held).toBeNull();
    // Reading turn 0 at the top: it stays, the newest go, and live events are held from here.
    const topKey = state.transcript.entries[0]?.key ?? "";
    const reading = liveEvents(state, twoTurns, limits, topKey);
    expect(inputs(reading)[0]).toBe("question 0");
    expect(reading.transcript.entries.length).toBeLessThanOrEqual(limits.turns);
    expect(reading.history?.after).toBe(true);
    expect(reading.held).toEqual({ after: 78, events: [] });
    // Reading near the end: the earliest go as before.
    const nearEnd = liveEvents(state, twoTurns, limits, state.transcript.entries[20]?.key ?? "");
    expect(nearEnd).toEqual(following);
  });

  it("pass what is read from the view to the reducer with each batch", () => {
    const state = start();
    const reading = chatReducer(state, {
      type: "events",
      sessionId: "s1",
      batch: Array.from({ length: 380 }, (_, i) => turn(24 + i)).flat(),
      reading: state.transcript.entries[0]?.key ?? null,
    });
    expect(inputs(reading)[0]).toBe("question 0");
    expect(reading.held).not.toBeNull();
    // The running turn's end is known all the same.
    expect(tailLastTurn(reading.tail)?.input).toBe("question 403");
  });
});
