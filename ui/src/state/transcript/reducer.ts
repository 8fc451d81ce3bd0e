// Folds EventEnvelope batches into the transcript view model. Pure: the same events always
// give the same view, whether they arrive live or replayed from the store.
import { formatCount } from "../../format";
import type { AgentEvent, EventEnvelope } from "../../gen/protocol";
import type { ElicitationView, InfoView, TranscriptState, TurnItem, TurnView } from "./types";
import { hookDetails, hookHeadline, hookItem, hookTone } from "./hooks";
import { findTurn } from "./lookup";
import { approvalResolved, isRelayed, relayedApproval, subagentStarted, subagentUpdated } from "./subagents";
import { applyTurnEvent, withoutBusy } from "./turnEvents";
import { modeEffect, modeName } from "../approvalModes";
import { t } from "../../i18n";
import { say } from "../../i18n/phrase";

export const emptyTranscript: TranscriptState = {
  lastSeq: 0,
  entries: [],
  session: null,
  unsaved: 0,
  mcp: [],
  agents: {},
  agentSettings: [],
};

export function applyBatch(state: TranscriptState, batch: readonly EventEnvelope[]): TranscriptState {
  let next = state;
  for (const envelope of batch) {
    next = applyEnvelope(next, envelope);
  }
  return next;
}

export function applyEnvelope(state: TranscriptState, envelope: EventEnvelope): TranscriptState {
  if (envelope.seq === 0) {
    // seq 0 = not persisted (the store refused it); only its error is worth showing.
    if (envelope.event.type !== "error") {
      return state;
    }
    const key = `unsaved-${state.unsaved}`;
    return applyEvent({ ...state, unsaved: state.unsaved + 1 }, envelope, key);
  }
  // A resubscription replays what we already have; seqs are dense and ordered per session.
  if (envelope.seq <= state.lastSeq) {
    return state;
  }
  return applyEvent({ ...state, lastSeq: envelope.seq }, envelope, `e${envelope.seq}`);
}

function applyEvent(state: TranscriptState, envelope: EventEnvelope, key: string): TranscriptState {
  const { event } = envelope;
  switch (event.type) {
    case "session_started":
      return { ...state, session: { cwd: event.cwd, provider: event.provider, model: event.model } };
    case "turn_started": {
      const turn: TurnView = {
        kind: "turn",
        key,
        turnId: envelope.turn_id ?? key,
        input: event.input.text,
        images: event.input.images ?? [],
        items: [],
        status: "running",
        usage: null,
        startedMs: envelope.timestamp_ms,
        startSeq: envelope.seq,
      };
      // A compaction shown under way and never finished (the app stopped in it) is over.
      return { ...state, entries: [...withoutBusy(state.entries), turn] };
    }
    case "external_agent_settings":
      return { ...state, agentSettings: event.settings };
    case "turn_resumed": {
      const earlier = state.entries.find((e): e is TurnView => e.kind === "turn" && e.turnId === event.retry_of);
      const turn: TurnView = {
        kind: "turn",
        key,
        turnId: envelope.turn_id ?? key,
        input: earlier?.input ?? "",
        images: [],
        items: [],
        status: "running",
        usage: null,
        startedMs: envelope.timestamp_ms,
        startSeq: envelope.seq,
        retryOf: event.retry_of,
      };
      return { ...state, entries: [...withoutBusy(state.entries), turn] };
    }
    case "model_switched": {
      const session = state.session ? { ...state.session, provider: event.provider, model: event.model } : state.session;
      const info: InfoView = {
        kind: "info",
        key,
        title: () => t("transcript:info.modelSwitched"),
        body: () =>
          t("transcript:info.modelSwitchedBody", {
            provider: event.provider,
            model: event.model,
            tokens: formatCount(event.context_window),
          }),
        ok: true,
      };
      return { ...state, session, entries: [...state.entries, info] };
    }
    case "external_agent_started": {
      // The header names what runs the session: the agent as it calls itself.
      const model = event.version ? `${event.label} ${event.version}` : event.label;
      const session = state.session ? { ...state.session, model } : state.session;
      return { ...state, session };
    }
    case "approval_mode_changed": {
      const info: InfoView = {
        kind: "info",
        key,
        title: () => t("approvals:modeChanged", { name: modeName(event.mode) }),
        body: () => modeEffect(event.mode),
        ok: event.mode !== "dangerous",
      };
      return { ...state, entries: [...state.entries, info] };
    }
    case "elicitation_requested": {
      const view: ElicitationView = {
        kind: "elicitation",
        key,
        requestId: event.request_id,
        server: event.server,
        message: event.message,
        schema: event.schema,
        answer: null,
      };
      return { ...state, entries: [...state.entries, view] };
    }
    case "elicitation_resolved":
      return {
        ...state,
        entries: state.entries.map((e) =>
          e.kind === "elicitation" && e.requestId === event.request_id ? { ...e, answer: event.action } : e,
        ),
      };
    case "command_result":
      // A prompt a hook blocked: its `hook_ran` just before already says so, and which.
      if (event.command === "UserPromptSubmit" && envelope.turn_id === null) return state;
      // `/compact` reports here, also when it was interrupted (no `context_compacted` then).
      return { ...state, entries: [...withoutBusy(state.entries), infoEntry(event, key)] };
    case "compaction_progress":
      return compacted(state, envelope, progressEntry(event, key));
    case "context_compacted":
      return compacted(state, envelope, infoEntry(event, key));
    case "hooks_skipped": {
      const body = [event.message, ...event.files].join("\n");
      const info: InfoView = { kind: "info", key, title: () => t("transcript:info.hooksSkipped"), body, ok: true };
      return { ...state, entries: [...state.entries, info] };
    }
    case "subagent_started":
      return subagentStarted(state, envelope, event);
    case "subagent_updated":
      return subagentUpdated(state, event);
    case "approval_requested":
      return isRelayed(event.request)
        ? relayedApproval(state, envelope, event.request, key)
        : routeToTurn(state, envelope, event, key);
    case "approval_resolved":
      return approvalResolved(state, envelope, event, key);
    case "hook_ran":
      return envelope.turn_id === null ? sessionHook(state, event, key) : routeToTurn(state, envelope, event, key);
    case "mcp_server_status": {
      const info = mcpEntry(event, key);
      const server = { name: event.server, status: event.status, tools: event.tools, message: mcpMessage(event) };
      const known = state.mcp.some((s) => s.name === event.server);
      const mcp = known ? state.mcp.map((s) => (s.name === event.server ? server : s)) : [...state.mcp, server];
      return { ...state, mcp, entries: info ? [...state.entries, info] : state.entries };
    }
    default:
      return routeToTurn(state, envelope, event, key);
  }
}

/**
 * A compaction the engine ran before a model step belongs inside that turn, above the step's
 * answer (or failure); one asked for between turns (`/compact`, `/clear`) stands on its own.
 * Its progress, then its result, replace the progress shown before.
 */
function compacted(state: TranscriptState, envelope: EventEnvelope, info: InfoView): TranscriptState {
  const index = envelope.turn_id === null ? -1 : findTurn(state.entries, envelope.turn_id);
  const turn = index < 0 ? undefined : state.entries[index];
  if (turn?.kind !== "turn") {
    return { ...state, entries: [...withoutBusy(state.entries), info] };
  }
  const entries = state.entries.slice();
  entries[index] = { ...turn, items: [...withoutBusy(turn.items), info] };
  return { ...state, entries };
}

function progressEntry(event: Extract<AgentEvent, { type: "compaction_progress" }>, key: string): InfoView {
  const body = () =>
    event.total > 1
      ? t("transcript:info.summarisingRequest", { n: event.done + 1, total: event.total })
      : t("transcript:info.summarising");
  return { kind: "info", key, title: () => t("transcript:info.compacting"), body, ok: true, busy: true };
}

function infoEntry(event: Extract<AgentEvent, { type: "context_compacted" | "command_result" }>, key: string): InfoView {
  if (event.type === "command_result") {
    return { kind: "info", key, title: `/${event.command.replace(/^\//, "")}`, body: event.output, ok: event.ok };
  }
  switch (event.status) {
    case "compacted":
      return {
        kind: "info",
        key,
        title: () => t("transcript:info.compacted"),
        body: () =>
          t("transcript:info.compactedBody", {
            count: event.compacted_messages,
            kept: event.kept_messages,
            before: formatCount(event.tokens_before),
            after: formatCount(event.tokens_after),
          }),
        ok: true,
      };
    case "cleared":
      return { kind: "info", key, title: () => t("transcript:info.cleared"), body: () => t("transcript:info.clearedBody"), ok: true };
    case "skipped":
      return {
        kind: "info",
        key,
        title: () => t("transcript:info.nothingToCompact"),
        body: event.message ?? (() => t("transcript:info.alreadyShort")),
        ok: true,
      };
    case "inflated":
    case "failed":
      return {
        kind: "info",
        key,
        title: () => t("transcript:info.compactionFailed"),
        body: event.message ?? (() => t("transcript:info.notSmaller")),
        ok: false,
      };
  }
}

/**
 * Hooks outside a turn (SessionStart, SessionEnd, a prompt they blocked) as a note; ones
 * that ran and said nothing are left out.
 */
function sessionHook(state: TranscriptState, event: Extract<AgentEvent, { type: "hook_ran" }>, key: string): TranscriptState {
  const item = hookItem(event, key);
  const tone = hookTone(item);
  if (tone === "quiet") return state;
  const notSent = event.event === "UserPromptSubmit" && tone === "blocked";
  const info: InfoView = {
    kind: "info",
    key,
    title: () => (notSent ? t("transcript:info.messageNotSent") : hookHeadline(item)),
    body: () => (notSent ? `${hookHeadline(item)}\n\n${hookDetails(item)}` : hookDetails(item)),
    ok: tone !== "blocked" && tone !== "failed",
  };
  return { ...state, entries: [...state.entries, info] };
}

/** What happened to the server, in the page's language (older events have only English). */
function mcpMessage(event: Extract<AgentEvent, { type: "mcp_server_status" }>): string | null {
  return event.phrase ? say(event.phrase) : (event.message ?? null);
}

/**
 * MCP server changes worth the reader's attention: a server that failed, crashed or needs
 * a login (with its last stderr lines), and one that came back. Routine starts are quiet.
 */
function mcpEntry(event: Extract<AgentEvent, { type: "mcp_server_status" }>, key: string): InfoView | null {
  const details = () =>
    [mcpMessage(event), event.stderr_tail ? `stderr:\n${event.stderr_tail}` : null]
      .filter((part): part is string => Boolean(part))
      .join("\n\n");
  switch (event.status) {
    case "failed":
      return { kind: "info", key, title: () => t("transcript:info.mcp.failed", { server: event.server }), body: details, ok: false };
    case "crashed":
      return { kind: "info", key, title: () => t("transcript:info.mcp.crashed", { server: event.server }), body: details, ok: false };
    case "needs_auth":
      return { kind: "info", key, title: () => t("transcript:info.mcp.needsLogin", { server: event.server }), body: details, ok: false };
    case "ready":
      return event.restarts > 0
        ? {
            kind: "info",
            key,
            title: () => t("transcript:info.mcp.runningAgain", { server: event.server }),
            body: () => t("transcript:info.mcp.tools", { count: event.tools }),
            ok: true,
          }
        : null;
    case "starting":
    case "stopped":
    case "disabled":
      return null;
  }
}

function routeToTurn(state: TranscriptState, envelope: EventEnvelope, event: AgentEvent, key: string): TranscriptState {
  const index = envelope.turn_id === null ? -1 : findTurn(state.entries, envelope.turn_id);
  if (index < 0) {
    // Outside a known turn only errors mean anything to the reader.
    if (event.type !== "error") {
      return state;
    }
    const notice = { kind: "notice" as const, key, errorKind: event.kind, message: event.message, phrase: event.phrase ?? null };
    return { ...state, entries: [...state.entries, notice] };
  }
  const turn = state.entries[index] as TurnView;
  const updated = applyTurnEvent(turn, event, key, envelope.timestamp_ms, envelope.seq);
  if (updated === turn) {
    return state;
  }
  const entries = state.entries.slice();
  entries[index] = updated;
  return { ...state, entries };
}

/** The turn still in progress, if any (the composer shows Stop while there is one). */
export function runningTurn(state: TranscriptState): TurnView | null {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i];
    if (entry?.kind === "turn") {
      return entry.status === "running" ? entry : null;
    }
  }
  return null;
}

export function isPendingApproval(item: TurnItem): boolean {
  return item.kind === "approval" && item.decision === null;
}
