//! The one event protocol of Memo Desktop.
//!
//! Clients (the desktop UI, `memo-cli`, tests, benches) talk to a session by submitting
//! [`Op`]s and reading [`EventEnvelope`]s. Everything here is plain serde data so that the
//! same stream can be written to SQLite, sent over Tauri IPC, or printed as JSONL.
//! TypeScript declarations for the UI are generated from these types (see [`typescript`]).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod activity;
mod agents;
mod approval;
mod changes;
mod event;
mod external_agents;
mod git;
mod hooks;
mod ids;
mod ipc;
mod mcp;
mod op;
mod phrase;
mod plugins;
mod prompt;
mod rules;
mod settings;
mod terminal;
mod tool_view;
mod trust;
pub mod typescript;
mod worktree;

pub use activity::{ActivityState, PendingApproval, SessionActivity};
pub use agents::{AgentInfo, AgentSource, AgentsPage, SubagentRef, SubagentState};
pub use approval::{
    ApprovalMode, ApprovalRequest, DiffHunk, EditChoice, FileDiff, ReviewDecision, RiskLevel,
};
pub use changes::{
    ChangeKind, ChangeScope, ChangesReport, CheckpointSummary, FileChange, HeldBack, KeepRequest,
    RestoreAction, RestoreFile, RestoreMode, RestoreReport, RevertRequest, RevertResult,
    ReviewedRequest,
};
pub use event::{
    AgentEvent, ErrorKind, EventEnvelope, McpServerState, PlanItem, PlanStatus, TokenUsage,
    ToolCallSummary, ToolErrorKind, ToolStatus, TurnEndReason,
};
pub use external_agents::{
    AgentSetting, AgentSettingChoice, EnvValue, ExternalAgentCheck, ExternalAgentEntry,
    ExternalAgentInput, ExternalAgentPreset, ExternalAgentsPage, SecretInput, SecretState,
};
pub use git::{
    CommitPreview, CommitRequest, CommitResult, GitChange, GitFile, GitFileDiff, GitOperation,
    GitStageRequest, GitStatus, PullRequestPlan, PullRequestRequest, PullRequestResult,
    PushRequest, PushResult, SecretFlag, SecretKind,
};
pub use hooks::{
    bounded_hook_text, HookEventName, HookRunStatus, HookRunSummary, HookVerdict, HOOK_TEXT_LIMIT,
};
pub use ids::{ApprovalId, SessionId, ToolCallId, TurnId};
pub use ipc::{
    AppInfo, Completion, CompletionKind, ErrorCode, ExportFormat, HistoryPage, ImportFailure,
    ImportReport, ImportStatus, ImportedFile, KeyStatus, ModelUsageReport, PageMessage,
    ProviderSummary, RewindOutcome, SearchResult, SessionPage, SessionStatus, SessionSummary,
    SkippedLine, UsageReport, WindowSignal, ZoneChange, ZoneOffsets, SEARCH_MARK_END,
    SEARCH_MARK_START,
};
pub use mcp::{
    McpCheckState, McpPromptEntry, McpResourceEntry, McpSecretInput, McpServerCheck, McpServerInfo,
    McpServerInput, McpSettingsPage, McpSourceKind, McpToolEntry, McpTransportKind, McpValueInfo,
};
pub use op::{ElicitationAction, ImageInput, Op, UserInput};
pub use phrase::Phrase;
pub use plugins::{
    PluginHookInfo, PluginInfo, PluginInstall, PluginPartInfo, PluginServerInfo, PluginSourceKind,
    PluginsPage,
};
pub use prompt::{
    AttachmentKind, CompactionStatus, CompactionTrigger, ContextProblem, HostAction,
    InputAttachment, InputExpansion, PromptHook, PromptLayer, PromptLayerKind, PromptReport,
    PromptSource, SourceStatus, TurnSystemPrompt,
};
pub use rules::{
    ApprovalRuleInfo, ApprovalSettings, ImportedPermission, RuleDecision, RuleInput, RuleKind,
    ToolSwitch,
};
pub use settings::{
    ConnectionReport, EditableFile, EditableFileKind, LocalServer, ModelProfileInput,
    ModelProfileSettings, ProviderChange, ProviderInput, ProviderSettings, ProviderSettingsPage,
    SkillChange, SkillInfo, SkillScopeKind, SkillsPage,
};
pub use terminal::{TerminalId, TerminalMessage};
pub use tool_view::{
    pretty as pretty_arguments, AgentLine, CommandState, CommandView, EditKind, EditedFile,
    FetchView, FileEditView, ListView, Location, McpCallView, McpContent, MemoryAction, MemoryView,
    OtherView, OutputRange, PlanView, ReadView, SearchView, SubagentAction, SubagentView, ToolKind,
    ToolView,
};
pub use trust::{
    ProjectPermissionInfo, ProjectPromptFile, ProjectServerInfo, TrustDecision, TrustState,
    WorkspaceTrustReport,
};
pub use worktree::{
    KeptBranch, WorktreeCommit, WorktreeDiff, WorktreeDiscard, WorktreeFile, WorktreeFileStatus,
    WorktreeInfo, WorktreeMerge, WorktreeSession, WorktreeState, WorktreeStatus,
};

/// A session that an external agent runs (over the Agent Client Protocol) is stored with
/// this in front of the agent's name as its provider: `acp:claude-code`.
pub const EXTERNAL_AGENT_PROVIDER_PREFIX: &str = "acp:";

/// The provider a session run by external agent `name` is stored with.
pub fn external_agent_provider(name: &str) -> String {
    format!("{EXTERNAL_AGENT_PROVIDER_PREFIX}{name}")
}

/// The external agent a session's stored provider names, if it is one.
pub fn external_agent_of(provider: &str) -> Option<&str> {
    provider.strip_prefix(EXTERNAL_AGENT_PROVIDER_PREFIX)
}
