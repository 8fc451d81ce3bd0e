// What a parent session's log says about its subagents: which spawn call started
// each one, how each one is doing, and the approval questions they relay. Split from
// ./reducer, which routes these events here.
//
// A relayed question carries the CHILD's call id, never one of this transcript's calls,
// and may arrive after the parent's own turn ended (the child works on): it is placed by
// where the parent is now, never matched to a parent call.
import type { AgentEvent, ApprovalRequest, EventEnvelope, SubagentRef } from "../../gen/protocol";
import { findTurn, replaceAt } from "./lookup";
import { applyTurnEvent } from "./turnEvents";
import type { StandaloneApproval, SubagentView, TranscriptEntry, TranscriptState, TurnItem, TurnView } from "./types";

type Started = Extract<AgentEvent, { type: "subagent_started" }>;
type Updated = Extract<AgentEvent, { type: "subagent_updated" }>;
type Resolved = Extract<AgentEvent, { type: "approval_resolved" }>;

/** An agent known so far only by what a later event said about it. */
function placeholder(agentId: string, ref?: SubagentRef): SubagentView {
  return {
    agentId,
    agentType: ref?.agent_type ?? null,
    sessionId: ref?.session_id ?? null,
    task: "",
    callId: null,
    state: "running",
    answer: null,
    message: null,
    pendingApprovals: [],
  };
}

function withAgent(state: TranscriptState, agent: SubagentView): TranscriptState {
  return { ...state, agents: { ...state.agents, [agent.agentId]: agent } };
}

/** A spawn call started a child: remember it, and mark the call it belongs to. */
export function subagentStarted(state: TranscriptState, envelope: EventEnvelope, event: Started): TranscriptState {
  const { agent } = event;
  const known = state.agents[agent.agent_id] ?? placeholder(agent.agent_id);
  const next = withAgent(state, {
    ...known,
    agentType: agent.agent_type,
    sessionId: agent.session_id,
    task: event.task,
    callId: event.call_id,
  });
  const index = turnWithCall(next.entries, envelope.turn_id, event.call_id);
  if (index < 0) return next;
  const turn = next.entries[index] as TurnView;
  const items = turn.items.map((item) =>
    item.kind === "tool" && item.callId === event.call_id ? { ...item, agentId: agent.agent_id } : item,
  );
  return { ...next, entries: replaceAt(next.entries, index, { ...turn, items }) };
}

/**
 * The turn holding the parent's call `callId`: the event's own turn, else the newest turn
 * with such a call (call ids repeat across turns with some providers).
 */
function turnWithCall(entries: readonly TranscriptEntry[], turnId: string | null, callId: string): number {
  const hasCall = (entry: TranscriptEntry | undefined) =>
    entry?.kind === "turn" && entry.items.some((item) => item.kind === "tool" && item.callId === callId);
  if (turnId !== null) {
    const index = findTurn(entries, turnId);
    if (hasCall(entries[index])) return index;
  }
  for (let i = entries.length - 1; i >= 0; i--) if (hasCall(entries[i])) return i;
  return -1;
}

export function subagentUpdated(state: TranscriptState, event: Updated): TranscriptState {
  const known = state.agents[event.agent_id] ?? placeholder(event.agent_id);
  return withAgent(state, {
    ...known,
    state: event.state,
    // Working on more input: the previous answer stays until a new one replaces it.
    answer: event.answer ?? known.answer,
    message: event.message ?? (event.state === "failed" ? known.message : null),
  });
}

/**
 * A child's approval question, relayed: in the parent's running turn when it has one (the
 * parent is most likely waiting for the child), else at the end of the transcript.
 */
export function relayedApproval(
  state: TranscriptState,
  envelope: EventEnvelope,
  request: ApprovalRequest & { agent: SubagentRef },
  key: string,
): TranscriptState {
  const { agent } = request;
  const known = state.agents[agent.agent_id] ?? placeholder(agent.agent_id, agent);
  const pendingApprovals = known.pendingApprovals.includes(request.request_id)
    ? known.pendingApprovals
    : [...known.pendingApprovals, request.request_id];
  const next = withAgent(state, { ...known, pendingApprovals });

  const index = envelope.turn_id === null ? -1 : findTurn(next.entries, envelope.turn_id);
  const turn = index < 0 ? null : (next.entries[index] as TurnView);
  if (turn !== null && turn.status === "running") {
    const item: TurnItem = { kind: "approval", key, request, decision: null };
    return { ...next, entries: replaceAt(next.entries, index, { ...turn, items: [...turn.items, item] }) };
  }
  const entry: StandaloneApproval = { kind: "agent_approval", key, request, decision: null };
  return { ...next, entries: [...next.entries, entry] };
}

/**
 * An answer to any approval, found by its request id wherever the question was shown: a
 * relayed question's answer can come in another turn than the question, or in none.
 */
export function approvalResolved(
  state: TranscriptState,
  envelope: EventEnvelope,
  event: Resolved,
  key: string,
): TranscriptState {
  const asks = (item: TurnItem) => item.kind === "approval" && item.request.request_id === event.request_id;
  let entries = state.entries;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind === "turn" && entry.items.some(asks)) {
      entries = replaceAt(entries, i, applyTurnEvent(entry, event, key, envelope.timestamp_ms, envelope.seq));
      break;
    }
    if (entry?.kind === "agent_approval" && entry.request.request_id === event.request_id) {
      entries = replaceAt(entries, i, { ...entry, decision: event.decision });
      break;
    }
  }
  const agents = withoutPending(state.agents, event.request_id);
  return entries === state.entries && agents === state.agents ? state : { ...state, entries, agents };
}

function withoutPending(agents: Record<string, SubagentView>, requestId: string): Record<string, SubagentView> {
  const holder = Object.values(agents).find((agent) => agent.pendingApprovals.includes(requestId));
  if (holder === undefined) return agents;
  const pendingApprovals = holder.pendingApprovals.filter((id) => id !== requestId);
  return { ...agents, [holder.agentId]: { ...holder, pendingApprovals } };
}

/**
 * The agents of an earlier page of the history joined with those of the later pages: the
 * later ones say how each agent is now, the earlier ones may know what it was started for.
 */
export function mergeAgents(
  earlier: Record<string, SubagentView>,
  later: Record<string, SubagentView>,
): Record<string, SubagentView> {
  const merged = { ...earlier };
  for (const [id, now] of Object.entries(later)) {
    const before = earlier[id];
    merged[id] =
      before === undefined
        ? now
        : {
            ...now,
            agentType: now.agentType ?? before.agentType,
            sessionId: now.sessionId ?? before.sessionId,
            task: now.task || before.task,
            callId: now.callId ?? before.callId,
            answer: now.answer ?? before.answer,
          };
  }
  return merged;
}

/**
 * How many approvals wait for the user now: the running turn's own, and every question
 * a subagent relayed (those may wait after the parent's turn ended).
 */
export function waitingApprovals(state: TranscriptState, running: TurnView | null): number {
  let count = 0;
  for (const agent of Object.values(state.agents)) count += agent.pendingApprovals.length;
  for (const item of running?.items ?? []) {
    if (item.kind === "approval" && item.decision === null && item.request.agent === undefined) count++;
  }
  return count;
}

/** Whether an approval is a subagent's question relayed to its parent. */
export function isRelayed(request: ApprovalRequest): request is ApprovalRequest & { agent: SubagentRef } {
  return request.agent !== undefined && request.agent !== null;
}
