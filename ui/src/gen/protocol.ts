// Generated from src-tauri/crates/protocol by `cargo run -p memo-protocol --bin gen-ts`.
// Do not edit by hand: the protocol crate's tests fail when this file is stale.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type SessionId = string;

export type TurnId = string;

export type ToolCallId = string;

export type ApprovalId = string;

export type Op = { "type": "user_turn", input: UserInput, } | { "type": "interrupt" } | { "type": "resolve_approval", request_id: ApprovalId, decision: ReviewDecision, } | { "type": "shutdown" };

export type UserInput = { text: string, };

export type RiskLevel = "read" | "write" | "execute" | "critical";

export type ApprovalRequest = { request_id: ApprovalId, call_id: ToolCallId, tool_name: string, risk: RiskLevel, 
/**
 * Why the policy asks (human readable).
 */
reason: string, 
/**
 * What a "for this session" grant would cover, e.g. `write:/repo/src` or `exec:cargo test`.
 */
fingerprint: string, command?: string | null, cwd?: string | null, 
/**
 * Proposed file change, so the client can accept or reject hunk by hunk.
 */
diff?: FileDiff | null, 
/**
 * The raw tool arguments as the model sent them.
 */
arguments: JsonValue, };

export type FileDiff = { path: string, unified: string, hunks: Array<DiffHunk>, };

export type DiffHunk = { index: number, header: string, text: string, };

export type ReviewDecision = { "type": "approve_once", accepted_hunks?: Array<number> | null, } | { "type": "approve_for_session" } | { "type": "deny", reason?: string | null, };

export type EventEnvelope = { session_id: SessionId, 
/**
 * `None` for session-level events outside any turn.
 */
turn_id: TurnId | null, seq: number, 
/**
 * Milliseconds since the Unix epoch.
 */
timestamp_ms: number, event: AgentEvent, };

export type AgentEvent = { "type": "session_started", cwd: string, provider: string, model: string, } | { "type": "turn_started", input: UserInput, } | { "type": "text_delta", delta: string, } | { "type": "reasoning_delta", delta: string, } | { "type": "tool_call_begin", call_id: ToolCallId, name: string, } | { "type": "tool_call_args_delta", call_id: ToolCallId, delta: string, } | { "type": "assistant_message", text: string, reasoning?: string | null, tool_calls: Array<ToolCallSummary>, 
/**
 * Opaque provider data that must be echoed back (thinking signatures).
 */
provider_data?: JsonValue | null, } | { "type": "tool_call_end", call_id: ToolCallId, name: string, status: ToolStatus, error_kind?: ToolErrorKind | null, output: string, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "approval_resolved", request_id: ApprovalId, decision: ReviewDecision, } | { "type": "usage", step: TokenUsage, turn_total: TokenUsage, } | { "type": "retrying", attempt: number, max_attempts: number, delay_ms: number, reason: string, discarded_partial: boolean, } | { "type": "plan_updated", explanation?: string | null, plan: Array<PlanItem>, } | { "type": "error", kind: ErrorKind, message: string, retryable: boolean, } | { "type": "turn_ended", reason: TurnEndReason, usage: TokenUsage, };

export type ToolCallSummary = { call_id: ToolCallId, name: string, 
/**
 * Arguments exactly as the model produced them (may be invalid JSON).
 */
arguments: string, };

export type ToolStatus = "ok" | "error";

export type ToolErrorKind = "unknown_tool" | "invalid_input" | "approval_denied" | "policy_denied" | "sandbox_denied" | "timeout" | "execution_failed" | "interrupted";

export type ErrorKind = "rate_limited" | "overloaded" | "context_overflow" | "auth" | "network" | "provider" | "config" | "storage" | "internal" | "invalid_op";

export type TurnEndReason = "completed" | "interrupted" | "step_limit" | "failed";

export type TokenUsage = { input_tokens: number, output_tokens: number, 
/**
 * Input tokens served from the provider's prompt cache (a subset of `input_tokens`).
 */
cached_input_tokens: number, 
/**
 * Output tokens spent on reasoning (a subset of `output_tokens`).
 */
reasoning_tokens: number, };

export type PlanItem = { step: string, status: PlanStatus, };

export type PlanStatus = "pending" | "in_progress" | "completed";

export type SessionSummary = { id: SessionId, title: string | null, cwd: string, provider: string, model: string, created_ms: number, updated_ms: number, 
/**
 * The seq of the newest stored event; a client subscribes after what it has.
 */
last_seq: number, };

export type ProviderSummary = { name: string, model: string, 
/**
 * `openai`, `anthropic` or `gemini`.
 */
api: string, base_url: string, is_current: boolean, };
