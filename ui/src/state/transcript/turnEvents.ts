// How one event changes the turn it belongs to. Split from ./reducer, which only routes.
import type { AgentEvent, ToolCallSummary } from "../../gen/protocol";
import { hookItem } from "./hooks";
import type { InfoView, ReasoningItem, TextItem, ToolItem, TurnItem, TurnView } from "./types";

/** Events that mean the model answered (or the request ended): it is no longer reading. */
const ANSWERED = new Set<AgentEvent["type"]>([
  "text_delta",
  "reasoning_delta",
  "tool_call_begin",
  "assistant_message",
  "retrying",
  "error",
  "turn_ended",
]);

export function applyTurnEvent(turn: TurnView, event: AgentEvent, key: string, timestampMs: number, seq = 0): TurnView {
  if (event.type === "model_request_sent") {
    return { ...turn, waiting: { sinceMs: timestampMs, inputTokens: event.input_tokens, local: event.local } };
  }
  const next = applyAnswer(turn, event, key, timestampMs, seq);
  return next.waiting && ANSWERED.has(event.type) ? { ...next, waiting: null } : next;
}

function applyAnswer(turn: TurnView, event: AgentEvent, key: string, timestampMs: number, seq: number): TurnView {
  switch (event.type) {
    case "text_delta":
      return withItems(turn, appendStreamed(turn.items, "text", event.delta, key));
    case "reasoning_delta":
      return withItems(turn, appendStreamed(turn.items, "reasoning", event.delta, key));
    case "tool_call_begin":
      return withItems(turn, [...turn.items, newTool(key, event.call_id, event.name, "", true)]);
    case "tool_call_args_delta":
      return withItems(
        turn,
        updateTool(turn.items, event.call_id, (tool) => ({ ...tool, args: tool.args + event.delta })),
      );
    case "assistant_message":
      return withItems(turn, confirmStep(turn.items, event.text, event.reasoning ?? null, event.tool_calls, key));
    case "tool_call_view":
      return withItems(turn, updateTool(turn.items, event.call_id, (tool) => ({ ...tool, view: event.view })));
    case "tool_call_allowed":
      return withItems(turn, updateTool(turn.items, event.call_id, (tool) => ({ ...tool, allowedBy: event.rules })));
    case "tool_call_end": {
      const finish = (tool: ToolItem): ToolItem => ({
        ...tool,
        view: event.view ?? tool.view ?? null,
        status: event.status,
        errorKind: event.error_kind ?? null,
        output: event.output,
        fullLength: event.full_length ?? null,
        outputSeq: seq,
      });
      const known = turn.items.some((item) => item.kind === "tool" && item.callId === event.call_id);
      const items = known
        ? updateTool(turn.items, event.call_id, finish)
        : [...turn.items, finish(newTool(key, event.call_id, event.name, "", false))];
      return withItems(turn, items);
    }
    case "tool_progress":
      return withItems(
        turn,
        updateTool(turn.items, event.call_id, (tool) => ({
          ...tool,
          progress: { progress: event.progress, total: event.total ?? null, message: event.message ?? null },
        })),
      );
    case "tool_output":
      return withItems(
        turn,
        updateTool(turn.items, event.call_id, (tool) => ({
          ...tool,
          liveOutput: keepTail((tool.liveOutput ?? "") + event.chunk),
        })),
      );
    case "files_changed":
      // Without a call (or with one this turn does not know) the change happened outside
      // Memo; the changes panel lists those, not the transcript.
      if (event.call_id === undefined) return turn;
      return withItems(
        turn,
        updateTool(turn.items, event.call_id, (tool) => ({
          ...tool,
          changes: [...(tool.changes ?? []), ...event.changes],
        })),
      );
    case "tool_args_repaired":
      return withItems(
        turn,
        updateTool(turn.items, event.call_id, (tool) => ({
          ...tool,
          repairs: [...(tool.repairs ?? []), ...event.repairs],
        })),
      );
    case "approval_requested":
      return withItems(turn, [...turn.items, { kind: "approval", key, request: event.request, decision: null }]);
    case "approval_resolved":
      return withItems(
        turn,
        turn.items.map((item) =>
          item.kind === "approval" && item.request.request_id === event.request_id
            ? { ...item, decision: event.decision }
            : item,
        ),
      );
    case "hook_ran": {
      // A tool's hooks belong with its card; the others are lines of the turn.
      const hook = hookItem(event, key);
      if (hook.callId !== null) {
        const items = updateTool(turn.items, hook.callId, (tool) => ({ ...tool, hooks: [...(tool.hooks ?? []), hook] }));
        if (items !== turn.items) return withItems(turn, items);
      }
      return withItems(turn, [...turn.items, hook]);
    }
    case "usage":
      return { ...turn, usage: event.turn_total };
    case "retrying": {
      // The engine voids what this attempt streamed; showing it would mix two answers.
      const kept = event.discarded_partial ? turn.items.filter((item) => !isProvisional(item)) : turn.items;
      const retry: TurnItem = {
        kind: "retry",
        key,
        attempt: event.attempt,
        maxAttempts: event.max_attempts,
        delayMs: event.delay_ms,
        reason: event.reason,
        discardedPartial: event.discarded_partial,
        timestampMs,
      };
      // Back-to-back retries are one notice that counts up, not a line per attempt.
      const previous = kept[kept.length - 1];
      const rest = previous?.kind === "retry" ? kept.slice(0, -1) : kept;
      return withItems(turn, [...rest, previous?.kind === "retry" ? { ...retry, key: previous.key } : retry]);
    }
    case "plan_updated": {
      // One plan per turn, shown where the latest update happened (next to the work).
      const others = turn.items.filter((item) => item.kind !== "plan");
      const plan: TurnItem = { kind: "plan", key, explanation: event.explanation ?? null, steps: event.plan };
      return withItems(turn, [...others, plan]);
    }
    case "error":
      return withItems(turn, [
        ...turn.items,
        { kind: "error", key, errorKind: event.kind, message: event.message, detail: event.detail ?? null, phrase: event.phrase ?? null },
      ]);
    case "turn_ended":
      return { ...turn, status: event.reason, usage: event.usage, items: settle(turn.items) };
    case "session_started":
    case "turn_started":
    case "turn_resumed":
    // Session-level entries, routed by the reducer before it reaches a turn.
    case "context_compacted":
    case "compaction_progress":
    case "command_result":
    case "model_switched":
    case "external_agent_started":
    case "external_agent_settings":
    case "approval_mode_changed":
    case "elicitation_requested":
    case "elicitation_resolved":
    case "mcp_server_status":
    case "model_request_sent":
    case "hooks_skipped":
    // A parent's record of its subagents (./subagents).
    case "subagent_started":
    case "subagent_updated":
    // An external agent's context: the header's meter reads it through the session status.
    case "external_agent_usage":
      return turn;
  }
}

function withItems(turn: TurnView, items: TurnItem[]): TurnView {
  return items === turn.items ? turn : { ...turn, items };
}

function isProvisional(item: TurnItem): boolean {
  return (item.kind === "text" || item.kind === "reasoning" || item.kind === "tool") && item.provisional;
}

function newTool(key: string, callId: string, name: string, args: string, provisional: boolean): ToolItem {
  return { kind: "tool", key, callId, name, args, status: "running", errorKind: null, output: null, provisional };
}

/** Deltas extend the open block of their kind; anything in between starts a new block. */
function appendStreamed(items: TurnItem[], kind: "text" | "reasoning", delta: string, key: string): TurnItem[] {
  const last = items[items.length - 1];
  if (last && last.kind === kind && last.provisional) {
    const next = items.slice();
    next[next.length - 1] = { ...last, text: last.text + delta };
    return next;
  }
  const block: TextItem | ReasoningItem = { kind, key, text: delta, provisional: true };
  return [...items, block];
}

function updateTool(items: TurnItem[], callId: string, change: (tool: ToolItem) => ToolItem): TurnItem[] {
  let changed = false;
  const next = items.map((item) => {
    if (item.kind === "tool" && item.callId === callId) {
      changed = true;
      return change(item);
    }
    return item;
  });
  return changed ? next : items;
}

/**
 * `assistant_message` is the step as it enters the history, so it wins over what the
 * deltas assembled: its tool calls carry the final arguments, and streamed calls it does
 * not list (cut off by an interruption) never ran.
 */
function confirmStep(
  items: TurnItem[],
  text: string,
  reasoning: string | null,
  calls: ToolCallSummary[],
  key: string,
): TurnItem[] {
  const streamed = items.filter(isProvisional);
  const byId = new Map(calls.map((call) => [call.call_id, call]));
  const texts = streamed.filter((item) => item.kind === "text");
  const thoughts = streamed.filter((item) => item.kind === "reasoning");

  const next: TurnItem[] = [];
  for (const item of items) {
    if (!isProvisional(item)) {
      next.push(item);
    } else if (item.kind === "tool") {
      const call = byId.get(item.callId);
      if (call) {
        next.push({ ...item, name: call.name, args: call.arguments, provisional: false });
      }
    } else if (item.kind === "text") {
      // One streamed block is the common case: take the message's text verbatim.
      next.push({ ...item, text: texts.length === 1 ? text : item.text, provisional: false });
    } else if (item.kind === "reasoning") {
      next.push({ ...item, text: thoughts.length === 1 && reasoning !== null ? reasoning : item.text, provisional: false });
    }
  }
  // A provider that does not stream (or a step replayed without deltas) still shows up.
  if (thoughts.length === 0 && reasoning) {
    next.push({ kind: "reasoning", key: `${key}-reasoning`, text: reasoning, provisional: false });
  }
  if (texts.length === 0 && text) {
    next.push({ kind: "text", key: `${key}-text`, text, provisional: false });
  }
  const shown = new Set(next.flatMap((item) => (item.kind === "tool" ? [item.callId] : [])));
  for (const call of calls) {
    if (!shown.has(call.call_id)) {
      next.push(newTool(`${key}-${call.call_id}`, call.call_id, call.name, call.arguments, false));
    }
  }
  return next;
}

/** Whether an entry or item shows something under way (a compaction waiting on the model). */
function isBusy(entry: { kind: string }): boolean {
  return entry.kind === "info" && (entry as InfoView).busy === true;
}

/** The list without what was shown as under way: its result, or the end of its turn, replaces it. */
export function withoutBusy<T extends { kind: string }>(list: T[]): T[] {
  return list.some(isBusy) ? list.filter((entry) => !isBusy(entry)) : list;
}

/** At turn end nothing is still running: a call that never reported back did not finish. */
function settle(items: TurnItem[]): TurnItem[] {
  if (!items.some((item) => (item.kind === "tool" && item.status === "running") || isProvisional(item) || isBusy(item))) {
    return items;
  }
  // A compaction the turn ended in the middle of (interrupted) changed nothing.
  return withoutBusy(items).flatMap((item): TurnItem[] => {
    if (item.kind === "tool" && item.status === "running") {
      return item.provisional ? [] : [{ ...item, status: "error", errorKind: "interrupted", output: item.output ?? "" }];
    }
    return isProvisional(item) ? [{ ...item, provisional: false } as TurnItem] : [item];
  });
}

/** Live output kept per call: enough to follow a build, bounded for a chatty command. */
export const LIVE_OUTPUT_MAX_CHARS = 64 * 1024;

/** The last LIVE_OUTPUT_MAX_CHARS characters, cut at a line start when there is one. */
function keepTail(text: string): string {
  if (text.length <= LIVE_OUTPUT_MAX_CHARS) return text;
  const tail = text.slice(text.length - LIVE_OUTPUT_MAX_CHARS);
  const lineStart = tail.indexOf("\n");
  return lineStart >= 0 && lineStart < tail.length - 1 ? tail.slice(lineStart + 1) : tail;
}
