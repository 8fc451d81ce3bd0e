import { describe, expect, it } from "vitest";

import type { AgentEvent, ApprovalRequest, EventEnvelope, FileChange } from "../../gen/protocol";
import { applyBatch, emptyTranscript, runningTurn } from "./reducer";
import { LIVE_OUTPUT_MAX_CHARS } from "./turnEvents";
import type { TranscriptState, TurnItem, TurnView } from "./types";
import { shown } from "../../test/fixtures";

/** Builds envelopes with dense seqs, like the engine's emitter. */
function stream(turnId: string | null = "t1", firstSeq = 1) {
  let seq = firstSeq;
  return (event: AgentEvent, options: { turn?: string | null; seq?: number } = {}): EventEnvelope => ({
    session_id: "s1",
    turn_id: options.turn === undefined ? turnId : options.turn,
    seq: options.seq ?? seq++,
    timestamp_ms: 1_000 + seq,
    event,
  });
}

const USAGE = { input_tokens: 10, output_tokens: 4, cached_input_tokens: 0, reasoning_tokens: 0 };

/** An automatic compaction before a model step: 40 messages summarised, 3 kept. */
const AUTO_COMPACTED: AgentEvent = {
  type: "context_compacted",
  trigger: "auto",
  status: "compacted",
  summary: "<state_snapshot/>",
  kept_messages: 3,
  compacted_messages: 40,
  tokens_before: 90_000,
  tokens_after: 20_000,
  usage: USAGE,
};

function onlyTurn(state: TranscriptState): TurnView {
  const turns = state.entries.filter((entry): entry is TurnView => entry.kind === "turn");
  expect(turns).toHaveLength(1);
  return turns[0] as TurnView;
}

function kinds(items: TurnItem[]): string[] {
  return items.map((item) => item.kind);
}

describe("transcript reducer", () => {
  it("shows a retried turn as the same message run again, not a second bubble", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "ping" } }),
      e({ type: "error", kind: "network", message: "Could not reach 127.0.0.1:8080", retryable: true }),
      e({ type: "turn_ended", reason: "failed", usage: USAGE }),
      e({ type: "turn_resumed", retry_of: "t1" }, { turn: "t2" }),
      e({ type: "text_delta", delta: "pong" }, { turn: "t2" }),
    ]);
    const turns = state.entries.filter((entry): entry is TurnView => entry.kind === "turn");
    expect(turns.map((t) => [t.turnId, t.status, t.retryOf ?? null])).toEqual([
      ["t1", "failed", null],
      ["t2", "running", "t1"],
    ]);
    expect(turns[1]?.input).toBe("ping");
    expect(kinds(turns[1]?.items ?? [])).toEqual(["text"]);
  });

  it("streams text into one block and confirms it with the assistant message", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "session_started", cwd: "/repo", provider: "mock", model: "m1" }, { turn: null }),
      e({ type: "turn_started", input: { text: "hi" } }),
      e({ type: "text_delta", delta: "Hel" }),
    ]);
    state = applyBatch(state, [e({ type: "text_delta", delta: "lo" })]);
    expect(state.session).toEqual({ cwd: "/repo", provider: "mock", model: "m1" });
    let turn = onlyTurn(state);
    expect(turn.input).toBe("hi");
    expect(turn.items).toMatchObject([{ kind: "text", text: "Hello", provisional: true }]);
    expect(runningTurn(state)).toBe(turn);

    state = applyBatch(state, [
      e({ type: "usage", step: USAGE, turn_total: USAGE }),
      e({ type: "assistant_message", text: "Hello", tool_calls: [] }),
      e({ type: "turn_ended", reason: "completed", usage: USAGE }),
    ]);
    turn = onlyTurn(state);
    expect(turn.items).toMatchObject([{ kind: "text", text: "Hello", provisional: false }]);
    expect(turn.status).toBe("completed");
    expect(turn.usage).toEqual(USAGE);
    expect(runningTurn(state)).toBeNull();
    expect(state.lastSeq).toBe(7);
  });

  it("keeps reasoning apart from the answer", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "why" } }),
      e({ type: "reasoning_delta", delta: "Let me " }),
      e({ type: "reasoning_delta", delta: "think." }),
      e({ type: "text_delta", delta: "Because." }),
      e({ type: "assistant_message", text: "Because.", reasoning: "Let me think.", tool_calls: [] }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([
      { kind: "reasoning", text: "Let me think." },
      { kind: "text", text: "Because." },
    ]);
  });

  it("follows a tool call from its first delta to its result", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "read it" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "read_file" }),
      e({ type: "tool_call_args_delta", call_id: "c1", delta: '{"file_path":' }),
      e({ type: "tool_call_args_delta", call_id: "c1", delta: '"a.txt"}' }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([
      { kind: "tool", name: "read_file", args: '{"file_path":"a.txt"}', status: "running", provisional: true },
    ]);
    state = applyBatch(state, [
      e({
        type: "assistant_message",
        text: "",
        tool_calls: [{ call_id: "c1", name: "read_file", arguments: '{"file_path":"a.txt"}' }],
      }),
      e({ type: "tool_call_end", call_id: "c1", name: "read_file", status: "ok", output: "1\thello" }),
      e({ type: "text_delta", delta: "It says hello." }),
      e({ type: "assistant_message", text: "It says hello.", tool_calls: [] }),
    ]);
    const items = onlyTurn(state).items;
    expect(kinds(items)).toEqual(["tool", "text"]);
    expect(items[0]).toMatchObject({ status: "ok", output: "1\thello", provisional: false, errorKind: null });
  });

  it("keeps the view the engine announces, then the one its end carries", () => {
    const e = stream();
    const asked = { type: "read" as const, path: "a.txt", truncated: false };
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "read it" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "read_file" }),
      e({ type: "tool_call_view", call_id: "c1", view: asked }),
    ]);
    expect(onlyTurn(state).items[0]).toMatchObject({ view: asked });
    const done = { ...asked, start_line: 1, end_line: 1, total_lines: 1 };
    state = applyBatch(state, [
      e({ type: "tool_call_end", call_id: "c1", name: "read_file", status: "ok", output: "1\thello", view: done }),
    ]);
    expect(onlyTurn(state).items[0]).toMatchObject({ view: done, status: "ok" });
  });

  it("records failed tool calls with their error kind", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "x" } }),
      e({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c9", name: "nope", arguments: "{}" }] }),
      e({
        type: "tool_call_end",
        call_id: "c9",
        name: "nope",
        status: "error",
        error_kind: "unknown_tool",
        output: "Error (unknown_tool): unknown tool 'nope'",
      }),
    ]);
    // No deltas (a non-streaming provider): the card comes from the assistant message.
    expect(onlyTurn(state).items).toMatchObject([
      { kind: "tool", callId: "c9", name: "nope", status: "error", errorKind: "unknown_tool" },
    ]);
  });

  it("drops the partial step on a retry that discarded it, and keeps confirmed steps", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "assistant_message", text: "Step one.", tool_calls: [] }),
      e({ type: "text_delta", delta: "Half an ans" }),
      e({ type: "tool_call_begin", call_id: "c1", name: "read_file" }),
      e({ type: "retrying", attempt: 1, max_attempts: 4, delay_ms: 2000, reason: "overloaded", discarded_partial: true }),
    ]);
    let items = onlyTurn(state).items;
    expect(kinds(items)).toEqual(["text", "retry"]);
    expect(items[0]).toMatchObject({ text: "Step one." });
    expect(items[1]).toMatchObject({ attempt: 1, maxAttempts: 4, delayMs: 2000, discardedPartial: true });

    state = applyBatch(state, [e({ type: "text_delta", delta: "Full answer." })]);
    items = onlyTurn(state).items;
    expect(kinds(items)).toEqual(["text", "retry", "text"]);
    expect(items[2]).toMatchObject({ text: "Full answer.", provisional: true });
  });

  it("counts back-to-back retries up in one notice", () => {
    const failure = "network error: error sending request for url (http://127.0.0.1:9/v1/chat/completions)";
    const e = stream();
    let state = applyBatch(emptyTranscript, [e({ type: "turn_started", input: { text: "hi" } }, { seq: 1 })]);
    for (const attempt of [1, 2, 3]) {
      state = applyBatch(state, [
        e({ type: "retrying", attempt, max_attempts: 5, delay_ms: 500, reason: failure, discarded_partial: false }, { seq: attempt + 1 }),
      ]);
    }
    const items = onlyTurn(state).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "retry", attempt: 3 });
  });

  it("keeps what streamed when a retry did not discard it", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "retrying", attempt: 1, max_attempts: 4, delay_ms: 500, reason: "429", discarded_partial: false }),
    ]);
    expect(kinds(onlyTurn(state).items)).toEqual(["retry"]);
  });

  it("ignores events it has already seen (a resubscription replays from the store)", () => {
    const e = stream();
    const first = [
      e({ type: "turn_started", input: { text: "hi" } }),
      e({ type: "text_delta", delta: "A" }),
      e({ type: "text_delta", delta: "B" }),
    ];
    const once = applyBatch(emptyTranscript, first);
    const replayed = applyBatch(once, [...first, e({ type: "text_delta", delta: "C" })]);
    expect(onlyTurn(replayed).items).toMatchObject([{ kind: "text", text: "ABC" }]);
    expect(applyBatch(replayed, first)).toBe(replayed);
  });

  it("shows unpersisted (seq 0) errors and ignores other seq 0 events", () => {
    const e = stream(null);
    const state = applyBatch(emptyTranscript, [
      e({ type: "text_delta", delta: "ghost" }, { seq: 0 }),
      e({ type: "error", kind: "storage", message: "could not save the session: disk full", retryable: false }, { seq: 0 }),
      e({ type: "error", kind: "storage", message: "again", retryable: false }, { seq: 0 }),
    ]);
    expect(state.entries).toMatchObject([
      { kind: "notice", errorKind: "storage", message: "could not save the session: disk full" },
      { kind: "notice", message: "again" },
    ]);
    expect(new Set(state.entries.map((entry) => entry.key)).size).toBe(2);
    expect(state.lastSeq).toBe(0);
  });

  it("puts turn errors in the turn and session errors between turns", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "hi" } }),
      e({ type: "error", kind: "auth", message: "invalid API key", retryable: false }),
      e({ type: "turn_ended", reason: "failed", usage: USAGE }),
      e({ type: "error", kind: "invalid_op", message: "no turn is running", retryable: false }, { turn: null }),
    ]);
    expect(state.entries).toMatchObject([
      { kind: "turn", status: "failed", items: [{ kind: "error", errorKind: "auth", message: "invalid API key" }] },
      { kind: "notice", errorKind: "invalid_op", message: "no turn is running" },
    ]);
  });

  it("ends an interrupted turn with no call left running", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "long job" } }),
      e({ type: "text_delta", delta: "Working" }),
      e({ type: "tool_call_begin", call_id: "c1", name: "read_file" }),
      // The engine keeps the text the user saw, but not the half-streamed call.
      e({ type: "assistant_message", text: "Working", tool_calls: [] }),
      e({ type: "turn_ended", reason: "interrupted", usage: USAGE }),
    ]);
    const turn = onlyTurn(state);
    expect(turn.status).toBe("interrupted");
    expect(turn.items).toMatchObject([{ kind: "text", text: "Working", provisional: false }]);
  });

  it("marks a confirmed call that never finished as interrupted at turn end", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "x" } }),
      e({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c1", name: "list_dir", arguments: "{}" }] }),
      e({ type: "turn_ended", reason: "interrupted", usage: USAGE }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([{ kind: "tool", status: "error", errorKind: "interrupted" }]);
  });

  it("tracks an approval from request to decision", () => {
    const request: ApprovalRequest = {
      request_id: "r1",
      call_id: "c1",
      tool_name: "write_file",
      risk: "write",
      reason: "write_file has write risk",
      fingerprint: "write_file:{}",
      cwd: "/repo",
      arguments: { file_path: "a.txt" },
    };
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "edit" } }),
      e({ type: "approval_requested", request }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([{ kind: "approval", request, decision: null }]);
    state = applyBatch(state, [
      e({ type: "approval_resolved", request_id: "r1", decision: { type: "approve_for_session" } }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([{ kind: "approval", decision: { type: "approve_for_session" } }]);
  });

  it("keeps only the latest plan of a turn, after the work it follows", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "refactor" } }),
      e({ type: "plan_updated", plan: [{ step: "read", status: "in_progress" }, { step: "edit", status: "pending" }] }),
      e({ type: "assistant_message", text: "Reading.", tool_calls: [] }),
      e({
        type: "plan_updated",
        explanation: "read done",
        plan: [
          { step: "read", status: "completed" },
          { step: "edit", status: "in_progress" },
        ],
      }),
    ]);
    const items = onlyTurn(state).items;
    expect(kinds(items)).toEqual(["text", "plan"]);
    expect(items[1]).toMatchObject({ explanation: "read done", steps: [{ status: "completed" }, { status: "in_progress" }] });
  });

  it("reports step limits as the turn's end reason", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "loop" } }),
      e({ type: "error", kind: "provider", message: "stopped after 50 model steps", retryable: false }),
      e({ type: "turn_ended", reason: "step_limit", usage: USAGE }),
    ]);
    expect(onlyTurn(state).status).toBe("step_limit");
  });
});

describe("session-level notes", () => {
  it("shows compaction and slash command results as info entries", () => {
    const envelope = (seq: number, event: import("../../gen/protocol").AgentEvent) => ({
      session_id: "s",
      turn_id: null,
      seq,
      timestamp_ms: 0,
      event,
    });
    const state = applyBatch(emptyTranscript, [
      envelope(1, {
        type: "context_compacted",
        trigger: "manual",
        status: "compacted",
        summary: "<state_snapshot/>",
        kept_messages: 4,
        compacted_messages: 10,
        tokens_before: 9000,
        tokens_after: 1200,
        usage: { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 },
      }),
      envelope(2, { type: "command_result", command: "help", ok: true, output: "/new  start over" }),
    ]);
    expect(shown(state.entries)).toMatchObject([
      { kind: "info", title: "Context compacted", ok: true },
      { kind: "info", title: "/help", body: "/new  start over", ok: true },
    ]);
  });

  it("shows a compaction run before a model step inside its turn, above what came after", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go on" } }),
      e(AUTO_COMPACTED),
      e({ type: "error", kind: "context_overflow", message: "too long", retryable: false }),
      e({ type: "turn_ended", reason: "failed", usage: USAGE }),
    ]);
    expect(state.entries).toHaveLength(1);
    expect(shown(onlyTurn(state).items)).toMatchObject([
      { kind: "info", title: "Context compacted", ok: true },
      { kind: "error", message: "too long" },
    ]);
  });

  it("shows a compaction under way, request by request, until its result replaces it", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go on" } }),
      e({ type: "compaction_progress", done: 0, total: 3 }),
      e({ type: "compaction_progress", done: 1, total: 3 }),
    ]);
    expect(shown(onlyTurn(state).items)).toMatchObject([
      { kind: "info", title: "Compacting the conversation…", body: "Summarising the older messages: request 2 of 3.", busy: true },
    ]);
    state = applyBatch(state, [
      e(AUTO_COMPACTED),
    ]);
    expect(shown(onlyTurn(state).items)).toMatchObject([
      { kind: "info", title: "Context compacted", body: "40 older messages summarised, 3 kept (~90,000 → ~20,000 tokens)." },
    ]);
    expect(onlyTurn(state).items[0]).not.toHaveProperty("busy");
  });

  it("drops a compaction left under way when its turn ends or `/compact` reports", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go on" } }),
      e({ type: "compaction_progress", done: 0, total: 1 }),
      e({ type: "turn_ended", reason: "interrupted", usage: USAGE }),
    ]);
    expect(onlyTurn(state).items).toEqual([]);
    state = applyBatch(state, [
      e({ type: "compaction_progress", done: 0, total: 2 }, { turn: null }),
      e({ type: "command_result", command: "compact", ok: false, output: "Compaction interrupted; the history is unchanged." }, { turn: null }),
    ]);
    expect(state.entries.filter((entry) => entry.kind === "info")).toMatchObject([
      { kind: "info", title: "/compact", ok: false },
    ]);
  });

  it("shows the latest progress of a running tool call", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "ev__slow" }),
      e({ type: "tool_progress", call_id: "c1", progress: 1, total: 3 }),
      e({ type: "tool_progress", call_id: "c1", progress: 2, total: 3, message: "copying" }),
      e({ type: "tool_progress", call_id: "other", progress: 9 }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([
      { kind: "tool", callId: "c1", progress: { progress: 2, total: 3, message: "copying" } },
    ]);
  });

  it("remembers where each turn starts, for a rewind", () => {
    const e = stream("t1", 5);
    const state = applyBatch(emptyTranscript, [e({ type: "turn_started", input: { text: "go" } })]);
    expect(onlyTurn(state).startSeq).toBe(5);
  });

  it("appends a running command's live output to its call, keeping a bounded tail", () => {
    const e = stream("t1");
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "exec_command" }),
      e({ type: "tool_output", call_id: "c1", chunk: "step 1\n" }),
      e({ type: "tool_output", call_id: "other", chunk: "not ours\n" }),
      e({ type: "tool_output", call_id: "c1", chunk: "step 2\n" }),
    ]);
    expect(onlyTurn(state).items).toMatchObject([{ kind: "tool", callId: "c1", liveOutput: "step 1\nstep 2\n" }]);

    const line = "x".repeat(99) + "\n";
    const chatty = applyBatch(state, [
      e({ type: "tool_output", call_id: "c1", chunk: line.repeat(700) }),
      e({ type: "tool_output", call_id: "c1", chunk: "last line\n" }),
    ]);
    const live = (onlyTurn(chatty).items[0] as { liveOutput: string }).liveOutput;
    expect(live.length).toBeLessThanOrEqual(LIVE_OUTPUT_MAX_CHARS);
    expect(live.endsWith("last line\n")).toBe(true);
    expect(live.split("\n")[0]).toHaveLength(99); // cut at a line start, not mid-line
    expect(live).not.toContain("step 1");
  });

  it("attaches the files a call changed to that call, in the order they were reported", () => {
    const e = stream();
    const change = (path: string, kind: FileChange["kind"], added: number, removed: number): FileChange => ({
      path,
      kind,
      sources: ["exec_command"],
      restorable: true,
      binary: false,
      added,
      removed,
      diff: { path, unified: "", hunks: [] },
    });
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "rename it" } }),
      e({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c1", name: "exec_command", arguments: "{}" }] }),
      e({ type: "files_changed", call_id: "c1", checkpoint: 3, changes: [change("a.rs", "modified", 2, 1)] }),
      e({ type: "files_changed", call_id: "c1", checkpoint: 4, changes: [change("b.rs", "created", 5, 0)] }),
      e({ type: "tool_call_end", call_id: "c1", name: "exec_command", status: "ok", output: "done" }),
    ]);
    const [tool] = onlyTurn(state).items;
    expect(tool).toMatchObject({ kind: "tool", status: "ok", output: "done" });
    expect((tool as { changes: FileChange[] }).changes.map((c) => [c.path, c.kind, c.added])).toEqual([
      ["a.rs", "modified", 2],
      ["b.rs", "created", 5],
    ]);
  });

  it("keeps where a cut output's whole lies: its length and the seq of the call's end", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "build" } }),
      e({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c1", name: "exec_command", arguments: "{}" }] }),
      e({ type: "tool_call_end", call_id: "c1", name: "exec_command", status: "ok", output: "start", full_length: 90_000 }),
      e({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c2", name: "exec_command", arguments: "{}" }] }),
      e({ type: "tool_call_end", call_id: "c2", name: "exec_command", status: "ok", output: "short" }),
    ]);
    const [first, second] = onlyTurn(state).items.filter((item) => item.kind === "tool");
    expect(first).toMatchObject({ output: "start", fullLength: 90_000, outputSeq: 3 });
    expect(second).toMatchObject({ output: "short", fullLength: null, outputSeq: 5 });
  });

  it("leaves the transcript alone for changes made outside Memo or by a call it does not know", () => {
    const e = stream();
    const outside: FileChange = {
      path: "notes.md",
      kind: "modified",
      sources: ["outside"],
      restorable: true,
      binary: false,
      added: 1,
      removed: 0,
    };
    const started = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "read_file" }),
    ]);
    const turnBefore = onlyTurn(started);
    const state = applyBatch(started, [
      e({ type: "files_changed", checkpoint: 1, changes: [outside] }),
      e({ type: "files_changed", call_id: "elsewhere", checkpoint: 2, changes: [outside] }),
      e({ type: "files_changed", checkpoint: 3, changes: [outside] }, { turn: null }),
    ]);
    expect(onlyTurn(state)).toBe(turnBefore);
    expect(state.entries).toHaveLength(1);
    expect(state.lastSeq).toBe(5);
  });

  it("reports MCP servers that fail, crash, need a login or come back, and stays quiet otherwise", () => {
    const e = stream(null);
    const status = (status: "starting" | "ready" | "failed" | "crashed" | "needs_auth", extra: object = {}) =>
      e({
        type: "mcp_server_status",
        server: "fx",
        status,
        transport: "stdio",
        source: "/h/config.toml (memo)",
        tools: 4,
        restarts: 0,
        ...extra,
      });
    const state = applyBatch(emptyTranscript, [
      status("starting"),
      status("ready"),
      status("crashed", { message: "the server process exited with code 7", stderr_tail: "boom" }),
      status("ready", { restarts: 1 }),
      status("failed", { message: "did not start" }),
      status("needs_auth", { message: "run `memo-cli mcp login fx`" }),
    ]);
    expect(state.mcp).toEqual([{ name: "fx", status: "needs_auth", tools: 4, message: "run `memo-cli mcp login fx`" }]);
    expect(shown(state.entries)).toMatchObject([
      { kind: "info", title: 'MCP server "fx" crashed', body: "the server process exited with code 7\n\nstderr:\nboom", ok: false },
      { kind: "info", title: 'MCP server "fx" is running again', ok: true },
      { kind: "info", title: 'MCP server "fx" failed', body: "did not start", ok: false },
      { kind: "info", title: 'MCP server "fx" needs a login', ok: false },
    ]);
  });
});

describe("notes already shown when the language changes", () => {
  it("are worded again in the new language, from the same state", async () => {
    const { setUpI18n } = await import("../../i18n");
    const e = stream(null);
    const state = applyBatch(emptyTranscript, [
      e({ type: "model_switched", provider: "deep", model: "m2", context_window: 128000 }),
      e({ type: "context_compacted", trigger: "manual", status: "cleared", summary: "", kept_messages: 0, compacted_messages: 0, tokens_before: 0, tokens_after: 0, usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, reasoning_tokens: 0 } }),
      e({ type: "command_result", command: "help", ok: true, output: "/new  start over" }),
    ]);
    const english = shown(state.entries);
    expect(english).toMatchObject([{ title: "Model switched" }, { title: "Conversation cleared" }, { title: "/help", body: "/new  start over" }]);
    await setUpI18n("zh");
    try {
      const chinese = shown(state.entries);
      for (const [index, entry] of chinese.slice(0, 2).entries()) {
        const note = entry as { title: string; body: string };
        expect(note.title).toMatch(/[\u4e00-\u9fff]/);
        expect(note.title).not.toBe((english[index] as { title: string }).title);
      }
      expect((chinese[0] as { body: string }).body).toContain("deep · m2");
      // A command's own output is nobody's to translate.
      expect(chinese[2]).toMatchObject({ title: "/help", body: "/new  start over" });
    } finally {
      await setUpI18n("en");
    }
  });
});

describe("an MCP server's state in Chinese", () => {
  it("words the engine's phrase, nested reasons included, and keeps the English of older events", async () => {
    const { setUpI18n } = await import("../../i18n");
    await setUpI18n("zh");
    try {
      const e = stream(null);
      const state = applyBatch(emptyTranscript, [
        e({
          type: "mcp_server_status",
          server: "fx",
          status: "crashed",
          transport: "stdio",
          source: "/h/config.toml (memo)",
          tools: 4,
          restarts: 0,
          message: "the server process exited with code 7; restarting in 2s",
          phrase: {
            code: "mcp_restarting_in",
            seconds: "2",
            reason: { code: "mcp_process_ended", exit: { code: "process_exited_with_code", status: "7" } },
          },
        }),
        e({
          type: "mcp_server_status",
          server: "old",
          status: "failed",
          transport: "stdio",
          source: "/h/config.toml (memo)",
          tools: 0,
          restarts: 0,
          message: "did not start",
        }),
      ]);
      expect(state.mcp[0]!.message).toBe("服务器进程已退出，退出码 7；2 秒后重启");
      const [crashed] = shown(state.entries);
      expect(crashed).toMatchObject({ body: "服务器进程已退出，退出码 7；2 秒后重启" });
      expect(crashed!.kind === "info" && crashed!.title).toMatch(/fx/);
      expect(crashed!.kind === "info" && crashed!.title).toMatch(/[\u4e00-\u9fff]/);
      expect(state.mcp[1]!.message).toBe("did not start");
    } finally {
      await setUpI18n("en");
    }
  });
});

describe("a request the model is still reading", () => {
  it("is remembered from model_request_sent until the first delta", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "hi" } }),
      e({ type: "model_request_sent", step: 0, input_tokens: 2400, local: true }),
    ]);
    expect(onlyTurn(state).waiting).toMatchObject({ inputTokens: 2400, local: true });
    state = applyBatch(state, [e({ type: "reasoning_delta", delta: "hm" })]);
    expect(onlyTurn(state).waiting).toBeNull();
  });
});

describe("an external agent's own settings", () => {
  const MODE = {
    id: "mode",
    name: "Mode",
    category: "mode",
    current: "default",
    choices: [
      { value: "default", name: "Default" },
      { value: "plan", name: "Plan" },
    ],
  };

  it("keeps the agent's last word, in a turn or outside one, and puts nothing in the conversation", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "hi" } }),
      e({ type: "external_agent_settings", settings: [MODE] }),
      e({ type: "turn_ended", reason: "completed", usage: USAGE }),
      e({ type: "external_agent_settings", settings: [{ ...MODE, current: "plan" }] }, { turn: null }),
    ]);
    expect(state.agentSettings.map((s) => [s.id, s.current])).toEqual([["mode", "plan"]]);
    expect(kinds(onlyTurn(state).items)).toEqual([]);
  });
});
