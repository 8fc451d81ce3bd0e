import { describe, expect, it } from "vitest";

import type { EventEnvelope, SessionSummary } from "../gen/protocol";
import { IpcError } from "../ipc";
import { chatReducer, initialChat } from "./chat";
import { worded } from "./transcript";
import { sessionSummary } from "../test/fixtures";

const SESSION: SessionSummary = sessionSummary();

const turnStarted: EventEnvelope = {
  session_id: "s1",
  turn_id: "t1",
  seq: 2,
  timestamp_ms: 5,
  event: { type: "turn_started", input: { text: "hi" } },
};

describe("chatReducer", () => {
  it("stays sending from the first message until its turn starts", () => {
    let state = chatReducer(initialChat, { type: "sending" });
    state = chatReducer(state, { type: "opened", session: SESSION });
    expect(state.phase).toBe("sending");
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [turnStarted] });
    expect(state.phase).toBe("idle");
    expect(state.transcript.entries).toHaveLength(1);
  });

  it("unlocks the composer when a slash command is answered outside a turn", () => {
    let state = chatReducer(chatReducer(initialChat, { type: "opened", session: SESSION }), { type: "sending" });
    const inTurn: EventEnvelope = {
      ...turnStarted,
      seq: 3,
      event: { type: "command_result", command: "help", ok: true, output: "/new" },
    };
    // A command_result inside a turn (a custom command expanded into one) is not the answer.
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [inTurn] });
    expect(state.phase).toBe("sending");
    const answer: EventEnvelope = { ...inTurn, seq: 4, turn_id: null };
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [answer] });
    expect(state.phase).toBe("idle");
  });

  it("follows a model switch in the header's session and notes it in the transcript", () => {
    let state = chatReducer(initialChat, { type: "opened", session: SESSION });
    const switched: EventEnvelope = {
      ...turnStarted,
      seq: 5,
      turn_id: null,
      event: { type: "model_switched", provider: "deep", model: "m2", context_window: 9000 },
    };
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [switched] });
    expect([state.session?.provider, state.session?.model]).toEqual(["deep", "m2"]);
    const last = state.transcript.entries.at(-1);
    expect(last?.kind === "info" ? worded(last.body) : "").toContain("deep · m2");
  });

  it("ignores batches of another session", () => {
    const state = chatReducer(chatReducer(initialChat, { type: "opened", session: SESSION }), {
      type: "events",
      sessionId: "other",
      batch: [turnStarted],
    });
    expect(state.transcript.entries).toHaveLength(0);
  });

  it("finishes loading with the first replayed batch", () => {
    let state = chatReducer(initialChat, { type: "loading" });
    expect(state.phase).toBe("loading");
    state = chatReducer(state, { type: "opened", session: SESSION });
    expect(state.phase).toBe("loading");
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [turnStarted] });
    expect(state.phase).toBe("idle");
  });

  it("keeps loading until a history sent in several batches has all arrived", () => {
    const stored = { ...SESSION, last_seq: 3 };
    let state = chatReducer(initialChat, { type: "loading" });
    state = chatReducer(state, { type: "opened", session: stored });
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [turnStarted] });
    expect(state.phase).toBe("loading");
    const ended: EventEnvelope = {
      ...turnStarted,
      seq: 3,
      event: { type: "turn_ended", reason: "completed", usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, reasoning_tokens: 0 } },
    };
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: [ended] });
    expect(state.phase).toBe("idle");
  });

  it("records a failure and clears it on dismiss or the next send", () => {
    const error = new IpcError("start_session", "config", "no provider", false);
    let state = chatReducer(chatReducer(initialChat, { type: "sending" }), { type: "failed", error });
    expect(state).toMatchObject({ phase: "idle", error });
    state = chatReducer(state, { type: "dismiss_error" });
    expect(state.error).toBeNull();
    state = chatReducer(chatReducer(state, { type: "failed", error }), { type: "sending" });
    expect(state.error).toBeNull();
  });

  it("keeps a prefill across opening the rewound session and drops it on reset", () => {
    const s1 = sessionSummary({ cwd: "/w", last_seq: 1 });
    let state = chatReducer(initialChat, { type: "loading" });
    state = chatReducer(state, { type: "opened", session: s1 });
    state = chatReducer(state, { type: "prefill", text: "again" });
    expect(state.prefill).toEqual({ id: 1, text: "again" });
    state = chatReducer(state, { type: "prefill", text: "again" });
    expect(state.prefill?.id).toBe(2);
    state = chatReducer(state, { type: "opened", session: s1 });
    expect(state.prefill?.text).toBe("again");
    expect(chatReducer(state, { type: "reset" }).prefill).toBeNull();
  });

  it("keeps the event to focus across opening and clears it on request", () => {
    const s1 = sessionSummary({ cwd: "/w", last_seq: 1 });
    let state = chatReducer(initialChat, { type: "loading" });
    state = chatReducer(state, { type: "focus", seq: 12 });
    state = chatReducer(state, { type: "opened", session: s1 });
    expect(state.focusSeq).toBe(12);
    state = chatReducer(state, { type: "focus", seq: null });
    expect(state.focusSeq).toBeNull();
  });

  it("opens a long session from a page at its end and puts earlier pages above it", () => {
    const long = sessionSummary({ id: "s1", last_seq: 40 });
    const at = (seq: number, event: EventEnvelope["event"]): EventEnvelope => ({
      session_id: "s1",
      turn_id: `t${seq}`,
      seq,
      timestamp_ms: seq,
      event,
    });
    const turn = (start: number, text: string) => [
      at(start, { type: "turn_started", input: { text } }),
      at(start + 1, { type: "assistant_message", text: `re: ${text}`, tool_calls: [] }),
      at(start + 2, {
        type: "turn_ended",
        reason: "completed",
        usage: { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 },
      }),
    ];
    let state = chatReducer(initialChat, { type: "loading" });
    state = chatReducer(state, { type: "opened", session: long });
    state = chatReducer(state, {
      type: "page",
      sessionId: "s1",
      page: { events: turn(38, "last"), from_seq: 38, to_seq: 40, has_more: true, has_after: false },
    });
    expect(state.phase).toBe("idle");
    expect(state.history).toEqual({ from: 38, more: true, after: false });
    expect(state.transcript.lastSeq).toBe(40);
    // A page that does not end where the loaded part starts is not put above it.
    const stale = chatReducer(state, {
      type: "older",
      sessionId: "s1",
      page: { events: turn(10, "gap"), from_seq: 10, to_seq: 12, has_more: true, has_after: false },
    });
    expect(stale).toBe(state);
    state = chatReducer(state, {
      type: "older",
      sessionId: "s1",
      page: { events: [...turn(32, "before"), ...turn(35, "just before")], from_seq: 32, to_seq: 37, has_more: false, has_after: false },
    });
    expect(state.history).toBeNull();
    expect(state.transcript.entries.map((e) => (e.kind === "turn" ? e.input : e.kind))).toEqual(["before", "just before", "last"]);
    // Live events go on after the newest.
    state = chatReducer(state, { type: "events", sessionId: "s1", batch: turn(41, "live") });
    expect(state.transcript.entries).toHaveLength(4);
  });
});
