// Typed wrappers of the session commands in src-tauri/src/commands/session.rs. Tauri maps
// camelCase argument names to the Rust snake_case parameters, hence `sessionId`.
import { Channel } from "@tauri-apps/api/core";

import type {
  EventEnvelope,
  Op,
  ProviderSummary,
  ReviewDecision,
  RewindOutcome,
  SearchResult,
  SessionSummary,
} from "../gen/protocol";
import { CommandError } from "./errors";
import { invokeCommand } from "./invoke";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function hasStrings(value: unknown, fields: readonly string[]): value is Record<string, unknown> {
  return isRecord(value) && fields.every((field) => typeof value[field] === "string");
}

const SESSION_FIELDS = ["id", "cwd", "provider", "model"] as const;
const PROVIDER_FIELDS = ["name", "model", "api", "base_url"] as const;

function isSessionSummary(value: unknown): value is SessionSummary {
  return hasStrings(value, SESSION_FIELDS) && typeof value.last_seq === "number";
}

function isRewindOutcome(value: unknown): value is RewindOutcome {
  return isRecord(value) && isSessionSummary(value.session) && typeof value.text === "string";
}

function isSearchResult(value: unknown): value is SearchResult {
  return (
    hasStrings(value, ["role", "snippet"]) &&
    isSessionSummary(value.session) &&
    typeof value.seq === "number" &&
    typeof value.timestamp_ms === "number"
  );
}

function isProviderSummary(value: unknown): value is ProviderSummary {
  return hasStrings(value, PROVIDER_FIELDS) && typeof value.is_current === "boolean";
}

// The generated types are trusted at compile time only; a shell built from another
// protocol version would otherwise surface as `undefined` deep inside the UI.
function expect<T>(command: string, payload: unknown, check: (value: unknown) => value is T): T {
  if (!check(payload)) {
    throw new CommandError(command, "internal", `${command} returned an unexpected payload`, false);
  }
  return payload;
}

function expectList<T>(command: string, payload: unknown, check: (value: unknown) => value is T): T[] {
  const isList = (value: unknown): value is T[] => Array.isArray(value) && value.every(check);
  return expect(command, payload, isList);
}

/** Providers from `$MEMO_HOME/config.toml`; a broken config rejects with code `config`. */
export async function listProviders(): Promise<ProviderSummary[]> {
  return expectList("list_providers", await invokeCommand<unknown>("list_providers"), isProviderSummary);
}

export interface StartSessionArgs {
  cwd: string;
  provider?: string;
  model?: string;
}

export async function startSession(args: StartSessionArgs): Promise<SessionSummary> {
  const payload = await invokeCommand<unknown>("start_session", { ...args });
  return expect("start_session", payload, isSessionSummary);
}

/** Makes a stored session live again (a no-op for one that already is). */
export async function resumeSession(sessionId: string): Promise<SessionSummary> {
  const payload = await invokeCommand<unknown>("resume_session", { sessionId });
  return expect("resume_session", payload, isSessionSummary);
}

/** Stored sessions, newest first; only those of `cwd` when given. */
export async function listSessions(cwd?: string): Promise<SessionSummary[]> {
  const payload = await invokeCommand<unknown>("list_sessions", cwd === undefined ? {} : { cwd });
  return expectList("list_sessions", payload, isSessionSummary);
}

/**
 * Streams the session's events with `seq > afterSeq` to `onEvents` in batches, stored
 * ones first. A new subscription to the same session replaces the previous one.
 */
export async function subscribeSession(
  sessionId: string,
  afterSeq: number,
  onEvents: (batch: EventEnvelope[]) => void,
): Promise<void> {
  // The handler is set before the channel crosses IPC: batches that arrive before a
  // handler exists are dropped. The stored history comes first, in one or more batches.
  const channel = new Channel<EventEnvelope[]>(onEvents);
  await invokeCommand<unknown>("subscribe_session", { sessionId, afterSeq, onEvents: channel });
}

export async function submitOp(sessionId: string, op: Op): Promise<void> {
  await invokeCommand<unknown>("submit_op", { sessionId, op });
}

export function sendUserTurn(sessionId: string, text: string): Promise<void> {
  return submitOp(sessionId, { type: "user_turn", input: { text } });
}

export function interruptTurn(sessionId: string): Promise<void> {
  return submitOp(sessionId, { type: "interrupt" });
}

export function resolveApproval(sessionId: string, requestId: string, decision: ReviewDecision): Promise<void> {
  return submitOp(sessionId, { type: "resolve_approval", request_id: requestId, decision });
}

/** Renames a stored session; an empty or over-long title is refused (`invalid_input`). */
export async function renameSession(sessionId: string, title: string): Promise<SessionSummary> {
  const payload = await invokeCommand<unknown>("rename_session", { sessionId, title });
  return expect("rename_session", payload, isSessionSummary);
}

/** Deletes a session and its history (stopping it first if it is open). */
export async function deleteSession(sessionId: string): Promise<void> {
  await invokeCommand<unknown>("delete_session", { sessionId });
}

/**
 * Forks the conversation up to just before the turn that starts at event `turnSeq` into
 * a new, open session, and returns it with that turn's message. The original is kept.
 */
export async function rewindSession(sessionId: string, turnSeq: number): Promise<RewindOutcome> {
  const payload = await invokeCommand<unknown>("rewind_session", { sessionId, turnSeq });
  return expect("rewind_session", payload, isRewindOutcome);
}

/** Messages matching `query` across stored sessions, best first; those of `cwd` when given. */
export async function searchSessions(query: string, cwd?: string): Promise<SearchResult[]> {
  const payload = await invokeCommand<unknown>("search_sessions", cwd === undefined ? { query } : { query, cwd });
  return expectList("search_sessions", payload, isSearchResult);
}
