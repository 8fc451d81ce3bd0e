import { describe, expect, it } from "vitest";

import type { AgentEvent, ApprovalRequest, EventEnvelope, SubagentRef } from "../../gen/protocol";
import { chatReducer, initialChat } from "../chat";
import { sessionSummary } from "../../test/fixtures";
import { applyBatch, emptyTranscript } from "./reducer";
import { mergeAgents, waitingApprovals } from "./subagents";
import type { TranscriptState, TurnView } from "./types";

/** Envelopes of the parent session with dense seqs; `turn: null` for events outside a turn. */
function stream(turnId: string | null = "t1", firstSeq = 1) {
  let seq = firstSeq;
  return (event: AgentEvent, options: { turn?: string | null } = {}): EventEnvelope => ({
    session_id: "parent",
    turn_id: options.turn === undefined ? turnId : options.turn,
    seq: seq++,
    timestamp_ms: 1_000 + seq,
    event,
  });
}

const USAGE = { input_tokens: 10, output_tokens: 4, cached_input_tokens: 0, reasoning_tokens: 0 };
const REVIEWER: SubagentRef = { agent_id: "agent-3f9a2c1b", agent_type: "reviewer", session_id: "child-1" };

function spawnCall(callId: string, message: string) {
  return { call_id: callId, name: "spawn_agent", arguments: JSON.stringify({ message, agent_type: "reviewer" }) };
}

/** The child's question, as relayed: its call id is the CHILD's call, here the same as a parent call's. */
function relayed(requestId: string, callId = "c1"): ApprovalRequest {
  return {
    request_id: requestId,
    call_id: callId,
    tool_name: "exec_command",
    risk: "execute",
    reason: "exec_command runs a command",
    fingerprint: "exec:cargo test",
    cwd: "/repo",
    arguments: { cmd: "cargo test" },
    command: "cargo test",
    agent: REVIEWER,
  };
}

function turns(state: TranscriptState): TurnView[] {
  return state.entries.filter((entry): entry is TurnView => entry.kind === "turn");
}

describe("subagents in the parent's transcript", () => {
  it("links a spawned agent to the call that started it and follows its state to its answer", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "review it" } }),
      e({ type: "tool_call_begin", call_id: "c1", name: "spawn_agent" }),
      e({ type: "assistant_message", text: "", tool_calls: [spawnCall("c1", "review src/")] }),
      e({ type: "subagent_started", call_id: "c1", agent: REVIEWER, task: "review src/" }),
    ]);
    expect(turns(state)[0]?.items).toMatchObject([{ kind: "tool", callId: "c1", agentId: "agent-3f9a2c1b" }]);
    expect(state.agents["agent-3f9a2c1b"]).toMatchObject({
      agentType: "reviewer",
      sessionId: "child-1",
      task: "review src/",
      callId: "c1",
      state: "running",
      answer: null,
    });

    state = applyBatch(state, [
      e({ type: "subagent_updated", agent_id: "agent-3f9a2c1b", state: "finished", answer: "All good." }),
    ]);
    expect(state.agents["agent-3f9a2c1b"]).toMatchObject({ state: "finished", answer: "All good.", message: null });

    // More input: running again, the last answer kept until a new one comes.
    state = applyBatch(state, [e({ type: "subagent_updated", agent_id: "agent-3f9a2c1b", state: "running" })]);
    expect(state.agents["agent-3f9a2c1b"]).toMatchObject({ state: "running", answer: "All good." });
    state = applyBatch(state, [
      e({ type: "subagent_updated", agent_id: "agent-3f9a2c1b", state: "failed", message: "provider down" }),
    ]);
    expect(state.agents["agent-3f9a2c1b"]).toMatchObject({ state: "failed", message: "provider down" });
  });

  it("marks the call of the event's own turn when an earlier turn used the same call id", () => {
    const first = stream("t1");
    let state = applyBatch(emptyTranscript, [
      first({ type: "turn_started", input: { text: "one" } }),
      first({ type: "assistant_message", text: "", tool_calls: [{ call_id: "c1", name: "read_file", arguments: "{}" }] }),
      first({ type: "turn_ended", reason: "completed", usage: USAGE }),
    ]);
    const second = stream("t2", state.lastSeq + 1);
    state = applyBatch(state, [
      second({ type: "turn_started", input: { text: "two" } }),
      second({ type: "assistant_message", text: "", tool_calls: [spawnCall("c1", "look")] }),
      second({ type: "subagent_started", call_id: "c1", agent: REVIEWER, task: "look" }),
    ]);
    const [one, two] = turns(state);
    expect(one?.items[0]).not.toHaveProperty("agentId");
    expect(two?.items[0]).toMatchObject({ name: "spawn_agent", agentId: "agent-3f9a2c1b" });
  });

  it("shows a relayed question in the running turn without taking it for the parent's call of the same id", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "review it" } }),
      e({ type: "assistant_message", text: "", tool_calls: [spawnCall("c1", "review")] }),
      e({ type: "subagent_started", call_id: "c1", agent: REVIEWER, task: "review" }),
      e({ type: "approval_requested", request: relayed("r1", "c1") }),
    ]);
    const items = turns(state)[0]?.items ?? [];
    expect(items.map((item) => item.kind)).toEqual(["tool", "approval"]);
    expect(items[0]).toMatchObject({ kind: "tool", status: "running", callId: "c1" });
    expect(items[1]).toMatchObject({ kind: "approval", decision: null, request: { agent: REVIEWER } });
    expect(state.agents["agent-3f9a2c1b"]?.pendingApprovals).toEqual(["r1"]);
    expect(waitingApprovals(state, turns(state)[0] ?? null)).toBe(1);

    state = applyBatch(state, [e({ type: "approval_resolved", request_id: "r1", decision: { type: "approve_once" } })]);
    expect(turns(state)[0]?.items[1]).toMatchObject({ kind: "approval", decision: { type: "approve_once" } });
    expect(state.agents["agent-3f9a2c1b"]?.pendingApprovals).toEqual([]);
    expect(waitingApprovals(state, turns(state)[0] ?? null)).toBe(0);
  });

  it("keeps a question relayed after the parent's turn ended, and its answer outside any turn", () => {
    const e = stream();
    let state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "start a reviewer and stop" } }),
      e({ type: "assistant_message", text: "", tool_calls: [spawnCall("c1", "review")] }),
      e({ type: "subagent_started", call_id: "c1", agent: REVIEWER, task: "review" }),
      e({ type: "turn_ended", reason: "completed", usage: USAGE }),
      e({ type: "approval_requested", request: relayed("r2") }, { turn: null }),
    ]);
    expect(state.entries.map((entry) => entry.kind)).toEqual(["turn", "agent_approval"]);
    expect(state.entries[1]).toMatchObject({ request: { request_id: "r2", agent: REVIEWER }, decision: null });
    expect(waitingApprovals(state, null)).toBe(1);

    state = applyBatch(state, [
      e({ type: "approval_resolved", request_id: "r2", decision: { type: "deny", reason: null } }, { turn: null }),
    ]);
    expect(state.entries[1]).toMatchObject({ kind: "agent_approval", decision: { type: "deny" } });
    expect(waitingApprovals(state, null)).toBe(0);
  });

  it("puts a question that names an ended turn at the end, where the user is", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({ type: "turn_ended", reason: "completed", usage: USAGE }),
      e({ type: "approval_requested", request: relayed("r3") }),
    ]);
    expect(state.entries.map((entry) => entry.kind)).toEqual(["turn", "agent_approval"]);
    // The agent was never seen starting (an earlier page): it is still known by its question.
    expect(state.agents["agent-3f9a2c1b"]).toMatchObject({ agentType: "reviewer", sessionId: "child-1", pendingApprovals: ["r3"] });
  });

  it("finds an answer given in a later turn than its question", () => {
    const first = stream("t1");
    let state = applyBatch(emptyTranscript, [
      first({ type: "turn_started", input: { text: "one" } }),
      first({ type: "approval_requested", request: relayed("r4") }),
      first({ type: "turn_ended", reason: "completed", usage: USAGE }),
    ]);
    const second = stream("t2", state.lastSeq + 1);
    state = applyBatch(state, [
      second({ type: "turn_started", input: { text: "two" } }),
      second({ type: "approval_resolved", request_id: "r4", decision: { type: "approve_once" } }),
    ]);
    expect(turns(state)[0]?.items).toMatchObject([{ kind: "approval", decision: { type: "approve_once" } }]);
    expect(turns(state)[1]?.items).toEqual([]);
  });

  it("joins an earlier page's agents with what later pages say about them", () => {
    const earlier = {
      a: { agentId: "a", agentType: "general", sessionId: "s-a", task: "explore", callId: "c1", state: "running" as const, answer: null, message: null, pendingApprovals: [] },
    };
    const later = {
      a: { agentId: "a", agentType: null, sessionId: null, task: "", callId: null, state: "finished" as const, answer: "done", message: null, pendingApprovals: [] },
    };
    expect(mergeAgents(earlier, later).a).toEqual({ ...earlier.a, state: "finished", answer: "done" });
  });

  it("keeps the agents when an earlier page is read above the loaded history", () => {
    const summary = sessionSummary({ id: "parent", last_seq: 200 });
    let chat = chatReducer({ ...initialChat, session: summary }, { type: "opened", session: summary });
    const late = stream("t9", 101);
    chat = chatReducer(chat, {
      type: "page",
      sessionId: "parent",
      page: {
        events: [
          late({ type: "turn_started", input: { text: "later" } }),
          late({ type: "subagent_updated", agent_id: "agent-3f9a2c1b", state: "finished", answer: "Found it." }),
        ],
        from_seq: 101,
        to_seq: 200,
        has_more: true,
        has_after: false,
      },
    });
    const early = stream("t1", 1);
    chat = chatReducer(chat, {
      type: "older",
      sessionId: "parent",
      page: {
        events: [
          early({ type: "turn_started", input: { text: "earlier" } }),
          early({ type: "assistant_message", text: "", tool_calls: [spawnCall("c1", "find it")] }),
          early({ type: "subagent_started", call_id: "c1", agent: REVIEWER, task: "find it" }),
        ],
        from_seq: 1,
        to_seq: 100,
        has_more: false,
        has_after: false,
      },
    });
    expect(chat.transcript.agents["agent-3f9a2c1b"]).toMatchObject({
      agentType: "reviewer",
      task: "find it",
      state: "finished",
      answer: "Found it.",
    });
  });
});
