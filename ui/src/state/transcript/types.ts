// The view model of one session's transcript, built from its event stream by ./reducer.
import type { AgentEvent, AgentSetting, ApprovalRequest, ErrorKind, FileChange, HookEventName, HookRunSummary, HookVerdict, ImageInput, McpServerState, Phrase, PlanItem as PlanStep, ReviewDecision, SubagentState, TokenUsage, ToolErrorKind, ToolView, TurnEndReason } from "../../gen/protocol";
import type { Wording } from "./wording";

/**
 * Items streamed during a model step are `provisional` until the step's
 * `assistant_message` confirms them: a retry with `discarded_partial` throws them away.
 */
export interface TextItem {
  kind: "text";
  key: string;
  text: string;
  provisional: boolean;
}

export interface ReasoningItem {
  kind: "reasoning";
  key: string;
  text: string;
  provisional: boolean;
}

export type ToolCallStatus = "running" | "ok" | "error";

export interface ToolItem {
  kind: "tool";
  key: string;
  callId: string;
  name: string;
  /** Raw JSON as the model sent it (complete once the step is confirmed). */
  args: string;
  status: ToolCallStatus;
  errorKind: ToolErrorKind | null;
  output: string | null;
  /**
   * The window was sent only the start of a long output (`output`): the whole is this many
   * bytes, read from the store by the seq of the call's end (`outputSeq`) when shown.
   */
  fullLength?: number | null;
  outputSeq?: number;
  provisional: boolean;
  /** The latest progress a long-running call (an MCP tool) reported, if any. */
  progress?: ToolProgressView | null;
  /** What a running command printed so far (its tail, bounded), before its result. */
  liveOutput?: string;
  /**
   * Files the call changed, as the engine saw them on disk (any tool: an edit, a `sed -i`,
   * an MCP tool). In event order when several `files_changed` arrive for one call.
   */
  changes?: FileChange[];
  /** What was repaired in the model's arguments before the call ran. */
  repairs?: string[];
  /** The PreToolUse / PostToolUse hooks that ran for this call, in order. */
  hooks?: HookItem[];
  /** The subagent a spawn call started (a key of `TranscriptState.agents`). */
  agentId?: string;
  /** The user's kept rules that let the call run without asking (`tool_call_allowed`). */
  allowedBy?: string[];
  /** What the engine says the call is and did (`tool_call_view`, then its end's). */
  view?: ToolView | null;
}

/** The user's hooks (shell commands from Claude Code settings or config.toml) that ran at one moment. */
export interface HookItem {
  kind: "hook";
  key: string;
  event: HookEventName;
  /** The tool call a PreToolUse / PostToolUse hook ran for. */
  callId: string | null;
  hooks: HookRunSummary[];
  decision: HookVerdict | null;
  reason: string | null;
  /** A hook asked the agent to stop. */
  stopped: boolean;
}

export interface ToolProgressView {
  progress: number;
  total: number | null;
  message: string | null;
}

export interface ApprovalItem {
  kind: "approval";
  key: string;
  request: ApprovalRequest;
  /** null while the engine waits for the user. */
  decision: ReviewDecision | null;
}

export interface RetryItem {
  kind: "retry";
  key: string;
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
  discardedPartial: boolean;
  timestampMs: number;
}

export interface ErrorItem {
  kind: "error";
  key: string;
  errorKind: ErrorKind;
  message: string;
  /** The technical detail behind the sentence (the HTTP client's error chain). */
  detail?: string | null;
  /** `message` as Rust's phrase, worded in the window's language when shown. */
  phrase?: Phrase | null;
}

/** The agent's task list; a newer plan in the same turn replaces this one. */
export interface PlanItem {
  kind: "plan";
  key: string;
  explanation: string | null;
  steps: PlanStep[];
}

/**
 * Something the session did in the middle of a turn (an automatic compaction before a model
 * step): shown where it happened, before what the turn did after it.
 */
export type InfoItem = InfoView;

export type TurnItem = TextItem | ReasoningItem | ToolItem | ApprovalItem | RetryItem | PlanItem | ErrorItem | HookItem | InfoItem;

export type TurnStatus = "running" | TurnEndReason;

export interface TurnView {
  kind: "turn";
  key: string;
  turnId: string;
  input: string;
  /** Images sent with the message. */
  images: ImageInput[];
  items: TurnItem[];
  status: TurnStatus;
  /** Running total of the turn; null until the first model call reports usage. */
  usage: TokenUsage | null;
  startedMs: number;
  /** The seq of the turn's `turn_started` event: where a rewind to before it forks. */
  startSeq: number;
  /** A request is out and no byte has come back yet: the model is reading the prompt. */
  waiting?: ModelWaiting | null;
  /** Set when this turn runs an earlier failed or interrupted one again (Retry,
   *  Continue): its message is that turn's, sent once, so no bubble repeats it. */
  retryOf?: string | null;
}

export interface ModelWaiting {
  /** When the request went out (event time, ms since the epoch). */
  sinceMs: number;
  inputTokens: number;
  /** The server runs on this machine (slow first bytes are normal there). */
  local: boolean;
}

/** A session-level error outside any turn (e.g. an op the session refused). */
export interface NoticeView {
  kind: "notice";
  key: string;
  errorKind: ErrorKind;
  message: string;
  phrase?: Phrase | null;
}

/** Something the session did besides a model turn: a slash command's result, compaction. */
export interface InfoView {
  kind: "info";
  key: string;
  title: Wording;
  body: Wording;
  ok: boolean;
  /** Still under way (a compaction waiting on the model): its result replaces it. */
  busy?: boolean;
}

/** An MCP server asking the user for input in the middle of a call. */
export interface ElicitationView {
  kind: "elicitation";
  key: string;
  requestId: string;
  server: string;
  message: string;
  schema: Extract<AgentEvent, { type: "elicitation_requested" }>["schema"];
  /** How it was answered; null while it waits. */
  answer: "accept" | "decline" | "cancel" | null;
}

/**
 * A subagent of this session, as the parent's log tells it: started by a spawn
 * call, then each change of state. Its own work is in its own session (`sessionId`).
 */
export interface SubagentView {
  agentId: string;
  /** Null only while just its updates are loaded (a long session's later page). */
  agentType: string | null;
  sessionId: string | null;
  task: string;
  /** The parent's spawn call that started it. */
  callId: string | null;
  state: SubagentState;
  /** Its last answer (for the investigator, a JSON report), once it has one. */
  answer: string | null;
  /** Why it failed. */
  message: string | null;
  /** Its approval questions relayed to this session that wait for the user (request ids). */
  pendingApprovals: string[];
}

/**
 * An approval outside any turn: a subagent's question relayed while this session's own
 * turn had already ended (the child goes on working, and waits for the user).
 */
export interface StandaloneApproval extends Omit<ApprovalItem, "kind"> {
  kind: "agent_approval";
}

export type TranscriptEntry = TurnView | NoticeView | InfoView | ElicitationView | StandaloneApproval;

/** The latest state of one of the session's MCP servers. */
export interface McpServerView {
  name: string;
  status: McpServerState;
  tools: number;
  message: string | null;
}

export interface TranscriptState {
  /** Highest seq applied; anything at or below it is a replay and skipped. */
  lastSeq: number;
  entries: TranscriptEntry[];
  session: { cwd: string; provider: string; model: string } | null;
  /** Counts unpersisted (seq 0) notices, which need keys of their own. */
  unsaved: number;
  /** The session's MCP servers in the order they first reported. */
  mcp: McpServerView[];
  /** The subagents this session started, by agent id. */
  agents: Record<string, SubagentView>;
  /** An external agent's own settings (its mode, model…) as it last said; none for Memo's. */
  agentSettings: AgentSetting[];
}
