// Test data shaped like what Rust sends, so every test builds a complete value and a new
// field in the protocol is added here once.
import type {
  CommandView,
  EditedFile,
  EventEnvelope,
  PendingApproval,
  SessionActivity,
  SessionSummary,
  SubagentView,
  ToolView,
} from "../gen/protocol";
import { worded, type ToolItem, type Wording } from "../state/transcript";

export function sessionSummary(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: "s1",
    title: null,
    cwd: "/repo",
    provider: "mock",
    model: "m1",
    created_ms: 1,
    updated_ms: 1,
    last_seq: 0,
    preview: null,
    parent_session_id: null,
    fork_seq: null,
    read_only: false,
    origin: null,
    origin_id: null,
    ...overrides,
  };
}

export function sessionActivity(overrides: Partial<SessionActivity> = {}): SessionActivity {
  return {
    session_id: "s1",
    cwd: "/repo",
    label: "fix the build",
    state: "idle",
    approvals: [],
    questions: 0,
    turns_ended: 0,
    last_outcome: null,
    last_error: null,
    updated_ms: 1,
    ...overrides,
  };
}

export function pendingApproval(overrides: Partial<PendingApproval> = {}): PendingApproval {
  return { request_id: "r1", tool_name: "exec_command", summary: "cargo test", risk: "execute", has_diff: false, ...overrides };
}

/** The token usage of a small turn. */
export const USAGE = { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 };

/** An event of session "s1" at `seq`, in turn `t<turn>`. */
export const eventAt = (seq: number, turn: number, event: EventEnvelope["event"]): EventEnvelope => ({
  session_id: "s1",
  turn_id: `t${turn}`,
  seq,
  timestamp_ms: seq,
  event,
});

/** Turn k of a long test session: seqs 3k+1..3k+3, started, answered, ended. */
export const pagedTurn = (k: number): EventEnvelope[] => [
  eventAt(3 * k + 1, k, { type: "turn_started", input: { text: `question ${k}` } }),
  eventAt(3 * k + 2, k, { type: "assistant_message", text: `answer ${k}`, tool_calls: [] }),
  eventAt(3 * k + 3, k, { type: "turn_ended", reason: "completed", usage: USAGE }),
];

/** A tool call as the transcript holds it: running, no output yet, no view yet. */
export function toolItem(overrides: Partial<ToolItem> = {}): ToolItem {
  return {
    kind: "tool",
    key: "k1",
    callId: "c1",
    name: "some_tool",
    args: "{}",
    status: "running",
    errorKind: null,
    output: null,
    provisional: false,
    ...overrides,
  };
}

type ViewOf<T extends ToolView["type"]> = Extract<ToolView, { type: T }>;

/** A shell command's view before it ran, sandboxed. */
export function commandView(overrides: Partial<CommandView> = {}): ViewOf<"command"> {
  return { type: "command", command: "cargo test", sandboxed: true, state: { state: "pending" }, ...overrides };
}

/** An edit's view over `files`. */
export function fileEditView(...files: EditedFile[]): ViewOf<"file_edit"> {
  return { type: "file_edit", files };
}

/** A subagent call's view. */
export function subagentCallView(overrides: Partial<SubagentView> & Pick<SubagentView, "action">): ViewOf<"subagent"> {
  return { type: "subagent", agents: [], timed_out: false, ...overrides };
}

/** A read's view before it ran. */
export function readView(path: string, overrides: Partial<Omit<ViewOf<"read">, "type">> = {}): ViewOf<"read"> {
  return { type: "read", path, truncated: false, ...overrides };
}

/**
 * Entries as a person reads them now: a note's wording asked of the catalog in the
 * current language (the reducer keeps it unworded so a language switch re-words it).
 */
export function shown<T extends { kind: string }>(entries: readonly T[]): T[] {
  return entries.map((entry) => {
    if (entry.kind !== "info") return entry;
    const info = entry as T & { title: Wording; body: Wording };
    return { ...info, title: worded(info.title), body: worded(info.body) };
  });
}
