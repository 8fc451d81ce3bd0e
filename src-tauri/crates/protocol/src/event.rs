use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    ApprovalId, ApprovalRequest, CompactionStatus, CompactionTrigger, FileChange, HookEventName,
    HookRunSummary, HookVerdict, HostAction, ReviewDecision, SessionId, ToolCallId, ToolView,
    TurnId, UserInput,
};

/// Every event a session emits, in order. `seq` is dense per session and starts at 1; the
/// store writes an envelope before anyone sees it, so a client that reconnects asks for
/// `seq > last_seen` and misses nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EventEnvelope {
    pub session_id: SessionId,
    /// `None` for session-level events outside any turn.
    pub turn_id: Option<TurnId>,
    #[ts(type = "number")]
    pub seq: u64,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub timestamp_ms: u64,
    pub event: AgentEvent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// First event of a session: where it runs and with which model.
    SessionStarted {
        cwd: String,
        provider: String,
        model: String,
    },
    TurnStarted {
        input: UserInput,
    },
    /// A turn that runs the failed or interrupted turn `retry_of` again (`Op::RetryTurn`):
    /// no new message is added; the model continues from the conversation as it stands.
    /// Comes first in its turn instead of `turn_started`.
    TurnResumed {
        retry_of: crate::TurnId,
    },
    /// Visible answer text, streamed.
    TextDelta {
        delta: String,
    },
    /// Model reasoning ("thinking"), streamed; shown folded, never sent as answer text.
    ReasoningDelta {
        delta: String,
    },
    /// The model started a tool call; arguments follow as deltas.
    ToolCallBegin {
        call_id: ToolCallId,
        name: String,
    },
    ToolCallArgsDelta {
        call_id: ToolCallId,
        delta: String,
    },
    /// One finished model step, exactly as it goes back into the conversation history.
    AssistantMessage {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reasoning: Option<String>,
        tool_calls: Vec<ToolCallSummary>,
        /// Opaque provider data that must be echoed back (thinking signatures).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider_data: Option<serde_json::Value>,
    },
    /// The model's tool-call arguments had a common small-model mistake that was repaired
    /// before the call ran (a mode left out, a number sent as a string...). Each entry
    /// says what was changed; the model is told too, in the call's result.
    ToolArgsRepaired {
        call_id: ToolCallId,
        repairs: Vec<String>,
    },
    /// A request went to the model; until its first byte comes back the model is reading
    /// the prompt (minutes for a long prompt on a local CPU server). Not part of the
    /// conversation.
    ModelRequestSent {
        /// 0-based step of the turn.
        step: u32,
        /// Estimated input tokens of the request.
        #[ts(type = "number")]
        input_tokens: u64,
        /// Whether the server is on this machine (loopback): slow first bytes are normal.
        local: bool,
    },
    /// What a call is, once its arguments are known (after their repair, and again if
    /// a hook rewrote them or the preview found more): what its card shows until it ends.
    /// Not part of the conversation.
    ToolCallView {
        call_id: ToolCallId,
        view: ToolView,
    },
    /// A tool call finished (successfully or not); `output` is what the model sees.
    ToolCallEnd {
        call_id: ToolCallId,
        name: String,
        status: ToolStatus,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_kind: Option<ToolErrorKind>,
        /// What the call was and did. Always set by this version; a stored session from
        /// before views has it filled in when it is read (`memo_engine::views`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        view: Option<ToolView>,
        output: String,
        /// Set only in what a window is sent: `output` is the start of a longer output of
        /// this many bytes, which the store keeps whole (`tool_output` reads it). The log
        /// itself always holds the whole output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        full_length: Option<u64>,
    },
    ApprovalRequested {
        request: ApprovalRequest,
    },
    /// A call that would have asked ran without asking: the user's kept rules allow it
    /// (their patterns, as written). Its card says so.
    ToolCallAllowed {
        call_id: ToolCallId,
        rules: Vec<String>,
    },
    ApprovalResolved {
        request_id: ApprovalId,
        decision: ReviewDecision,
    },
    /// Token usage of one model call, and the running total of the turn.
    Usage {
        step: TokenUsage,
        turn_total: TokenUsage,
    },
    /// A model call failed with a retryable error and will be tried again after `delay_ms`.
    /// When `discarded_partial` is true, deltas streamed since the step began are void.
    Retrying {
        attempt: u32,
        max_attempts: u32,
        #[ts(type = "number")]
        delay_ms: u64,
        reason: String,
        discarded_partial: bool,
    },
    /// The agent's task plan changed (the `update_plan` tool).
    PlanUpdated {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
        plan: Vec<PlanItem>,
    },
    /// A compaction is under way: `done` of its `total` summary requests are answered
    /// (one before each request; a history many times the window takes several). Not part
    /// of the conversation; the `context_compacted` that follows ends it.
    CompactionProgress {
        done: u32,
        total: u32,
    },
    /// The conversation history was compacted (or cleared, or an attempt failed). A
    /// `compacted`/`cleared` status changes the history every later request sends: the
    /// older messages are replaced by `summary` and the last `kept_messages` stay. It is
    /// replayed on resume, so a reopened session sends the same history.
    ContextCompacted {
        trigger: CompactionTrigger,
        status: CompactionStatus,
        /// The `<state_snapshot>` standing in for the older history.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        summary: Option<String>,
        kept_messages: u32,
        compacted_messages: u32,
        /// Estimated tokens of the history before and after (after = before when unchanged).
        #[ts(type = "number")]
        tokens_before: u64,
        #[ts(type = "number")]
        tokens_after: u64,
        /// Tokens the summarisation call itself cost.
        usage: TokenUsage,
        /// Why it failed or was skipped.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
    },
    /// A slash command the engine answered itself, outside any turn (`/help`, `/skills`,
    /// `/compact`...). `action` asks the host to do what only it can (open a picker...).
    CommandResult {
        command: String,
        ok: bool,
        output: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        action: Option<HostAction>,
    },
    /// An MCP server asks the user for input in the middle of a call (elicitation): show
    /// `message` and a form for `schema` (a JSON Schema object of flat string, number,
    /// integer, boolean and enum properties); answer with `Op::ResolveElicitation`.
    ElicitationRequested {
        request_id: String,
        server: String,
        message: String,
        #[ts(
            type = "{ properties?: Record<string, Record<string, unknown>>, required?: string[] }"
        )]
        schema: serde_json::Value,
    },
    /// How an elicitation was answered (the values the user entered are not recorded).
    ElicitationResolved {
        request_id: String,
        #[ts(type = "\"accept\" | \"decline\" | \"cancel\"")]
        action: crate::ElicitationAction,
    },
    /// The session's approval mode from now on (`Op::SetApprovalMode`).
    ApprovalModeChanged {
        mode: crate::ApprovalMode,
    },
    /// The session talks to this provider and model from its next turn on.
    ModelSwitched {
        provider: String,
        model: String,
        /// Tokens the new model accepts in one request.
        #[ts(type = "number")]
        context_window: u64,
    },
    /// How far a running tool call got (MCP progress notifications). Not part of the
    /// conversation; the last one before `tool_call_end` is the call's final progress.
    ToolProgress {
        call_id: ToolCallId,
        progress: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        total: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
    },
    /// What a running command printed, as it happens: cleaned terminal text (escape
    /// sequences and overwritten progress-bar states removed), sent a few times a second
    /// and appended in order. For the person watching only; the call's result is what
    /// the model sees.
    ToolOutput {
        call_id: ToolCallId,
        chunk: String,
    },
    /// An MCP server of the session changed state (started, failed, crashed, restarting,
    /// stopped) or its tool list changed. Outside any turn.
    McpServerStatus {
        server: String,
        status: McpServerState,
        /// stdio | streamable_http | sse
        transport: String,
        /// Where it was configured: the file and the agent that wrote it.
        source: String,
        tools: u32,
        /// What happened, in English (for older readers and logs).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
        /// The same as a phrase, worded in the person's language.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, as = "Option<crate::Phrase>")]
        phrase: Option<crate::Phrase>,
        /// The last lines the server wrote to stderr, when it failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        stderr_tail: Option<String>,
        restarts: u32,
    },
    /// An external agent (over ACP) runs this session's turns from here on: started, or
    /// started again after it stopped. `agent_session` is its own id for the session, so
    /// a resumed session continues there (`session/load`) when the agent can.
    ExternalAgentStarted {
        /// Its name in config.toml.
        agent: String,
        /// What it calls itself, with its version when it says.
        label: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        version: Option<String>,
        agent_session: String,
        /// It continued its earlier session rather than starting a new one.
        resumed: bool,
    },
    /// What an external agent says of its context (ACP's `usage_update`): the tokens in it
    /// now, its window, and what the session cost so far when it says. The header's meter
    /// shows it for such a session, whose model calls Memo never sees.
    ExternalAgentUsage {
        #[ts(type = "number")]
        used_tokens: u64,
        #[ts(type = "number")]
        context_window: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        cost_usd: Option<f64>,
    },
    /// An external agent's own settings for the session (its mode, model…) and their values
    /// now: when it opened its session, when it changed one, and after a pick
    /// (`Op::SetAgentSetting`). Each is the whole list; the last one holds.
    ExternalAgentSettings {
        settings: Vec<crate::AgentSetting>,
    },
    /// Files changed by a tool call (or, with no `call_id`, outside Memo between turns),
    /// found by comparing the workspace with the checkpoint before. Not part of the
    /// conversation; the changes panel and the tool's card show it.
    FilesChanged {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        call_id: Option<ToolCallId>,
        /// The checkpoint that recorded these changes.
        #[ts(type = "number")]
        checkpoint: u64,
        changes: Vec<FileChange>,
    },
    /// Hooks ran for one moment of the session (only when at least one matched). In a
    /// turn, or outside any turn for session-level moments and for a prompt a hook
    /// blocked (which then starts no turn).
    HookRan {
        event: HookEventName,
        /// The tool call a `PreToolUse` / `PostToolUse` hook ran for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        call_id: Option<ToolCallId>,
        hooks: Vec<HookRunSummary>,
        /// The hooks' combined decision (block over ask over allow).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        decision: Option<HookVerdict>,
        /// Why, as the hooks said it (cut when long).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
        /// A hook asked the agent to stop (`"continue": false`).
        #[serde(default)]
        stopped: bool,
        /// Added to the conversation as a user-side message: context from
        /// `UserPromptSubmit` / `SessionStart`, a `Stop` hook's reason to go on. (Tool
        /// hooks' words go into the call's result instead.)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        for_model: Option<String>,
    },
    /// The folder's own hooks were not loaded because the folder is not trusted. Once per
    /// session start, outside any turn.
    HooksSkipped {
        count: u32,
        /// The project settings files they are in.
        files: Vec<String>,
        /// "3 project hooks not run: folder not trusted".
        message: String,
    },
    /// A subagent started, for the tool call that spawned it (`spawn_agent`). Its work is
    /// in its own session; this log records its state changes (`subagent_updated`) and
    /// relays its approval questions (`approval_requested` with `request.agent`).
    SubagentStarted {
        call_id: ToolCallId,
        agent: crate::SubagentRef,
        /// The task it was given.
        task: String,
    },
    /// A subagent's state changed: it finished a turn (with its answer), failed, was
    /// interrupted or closed, or started working on more input.
    SubagentUpdated {
        agent_id: String,
        state: crate::SubagentState,
        /// Its last answer (cut when long), once it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        answer: Option<String>,
        /// Why it failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
    },
    Error {
        kind: ErrorKind,
        /// Written for people: what happened, in a sentence.
        message: String,
        retryable: bool,
        /// The technical detail behind it (an HTTP client's error chain), for a disclosure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        detail: Option<String>,
        /// `message` as a phrase, where it has one: a front end words it in its language.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, as = "Option<crate::Phrase>")]
        phrase: Option<crate::Phrase>,
    },
    TurnEnded {
        reason: TurnEndReason,
        usage: TokenUsage,
    },
}

impl AgentEvent {
    /// The snake_case name used as the `type` tag (handy for logs and the store's index).
    pub fn kind(&self) -> &'static str {
        match self {
            AgentEvent::SessionStarted { .. } => "session_started",
            AgentEvent::TurnStarted { .. } => "turn_started",
            AgentEvent::TurnResumed { .. } => "turn_resumed",
            AgentEvent::TextDelta { .. } => "text_delta",
            AgentEvent::ReasoningDelta { .. } => "reasoning_delta",
            AgentEvent::ToolCallBegin { .. } => "tool_call_begin",
            AgentEvent::ToolCallArgsDelta { .. } => "tool_call_args_delta",
            AgentEvent::AssistantMessage { .. } => "assistant_message",
            AgentEvent::ToolCallEnd { .. } => "tool_call_end",
            AgentEvent::ToolCallAllowed { .. } => "tool_call_allowed",
            AgentEvent::ToolCallView { .. } => "tool_call_view",
            AgentEvent::ToolArgsRepaired { .. } => "tool_args_repaired",
            AgentEvent::ModelRequestSent { .. } => "model_request_sent",
            AgentEvent::ApprovalRequested { .. } => "approval_requested",
            AgentEvent::ApprovalResolved { .. } => "approval_resolved",
            AgentEvent::Usage { .. } => "usage",
            AgentEvent::Retrying { .. } => "retrying",
            AgentEvent::PlanUpdated { .. } => "plan_updated",
            AgentEvent::CompactionProgress { .. } => "compaction_progress",
            AgentEvent::ContextCompacted { .. } => "context_compacted",
            AgentEvent::CommandResult { .. } => "command_result",
            AgentEvent::ModelSwitched { .. } => "model_switched",
            AgentEvent::ApprovalModeChanged { .. } => "approval_mode_changed",
            AgentEvent::ElicitationRequested { .. } => "elicitation_requested",
            AgentEvent::ElicitationResolved { .. } => "elicitation_resolved",
            AgentEvent::ToolProgress { .. } => "tool_progress",
            AgentEvent::ToolOutput { .. } => "tool_output",
            AgentEvent::McpServerStatus { .. } => "mcp_server_status",
            AgentEvent::ExternalAgentStarted { .. } => "external_agent_started",
            AgentEvent::ExternalAgentUsage { .. } => "external_agent_usage",
            AgentEvent::ExternalAgentSettings { .. } => "external_agent_settings",
            AgentEvent::FilesChanged { .. } => "files_changed",
            AgentEvent::HookRan { .. } => "hook_ran",
            AgentEvent::HooksSkipped { .. } => "hooks_skipped",
            AgentEvent::SubagentStarted { .. } => "subagent_started",
            AgentEvent::SubagentUpdated { .. } => "subagent_updated",
            AgentEvent::Error { .. } => "error",
            AgentEvent::TurnEnded { .. } => "turn_ended",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolCallSummary {
    pub call_id: ToolCallId,
    pub name: String,
    /// Arguments exactly as the model produced them (may be invalid JSON).
    pub arguments: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
}

/// Why a tool call did not produce a normal result; the model sees this classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolErrorKind {
    UnknownTool,
    InvalidInput,
    ApprovalDenied,
    PolicyDenied,
    SandboxDenied,
    Timeout,
    ExecutionFailed,
    Interrupted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpServerState {
    Starting,
    Ready,
    /// Did not start, or gave up restarting.
    Failed,
    /// Was running and died; restarts after a pause.
    Crashed,
    /// Needs an OAuth login (`memo-cli mcp login <server>`).
    NeedsAuth,
    Stopped,
    Disabled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    RateLimited,
    Overloaded,
    ContextOverflow,
    Auth,
    Network,
    Provider,
    Config,
    Storage,
    Internal,
    /// The op was not valid in the session's current state (e.g. a turn while one runs).
    InvalidOp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TurnEndReason {
    /// The model answered without asking for tools.
    Completed,
    Interrupted,
    /// The per-turn step limit was reached while the model still wanted tools.
    StepLimit,
    Failed,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenUsage {
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    /// Input tokens served from the provider's prompt cache (a subset of `input_tokens`).
    #[ts(type = "number")]
    pub cached_input_tokens: u64,
    /// Output tokens spent on reasoning (a subset of `output_tokens`).
    #[ts(type = "number")]
    pub reasoning_tokens: u64,
}

impl TokenUsage {
    pub fn add(&mut self, other: &TokenUsage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cached_input_tokens += other.cached_input_tokens;
        self.reasoning_tokens += other.reasoning_tokens;
    }

    pub fn total(&self) -> u64 {
        self.input_tokens + self.output_tokens
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlanItem {
    pub step: String,
    pub status: PlanStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    Pending,
    InProgress,
    Completed,
}
