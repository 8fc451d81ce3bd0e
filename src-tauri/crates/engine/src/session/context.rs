//! What a session knows about its workspace beyond the system prompt: skills and command
//! folders for slash commands and `$skill`/`@path` expansion, the prompt's layer report,
//! and what compaction needs (token counter, context window, threshold).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use memo_context::{AttachLimits, TokenCounter, WorkspaceContext};
use memo_protocol::{PromptReport, ProviderSummary};

/// Set by the [`crate::Engine`] from config and the workspace; tests may leave it at its
/// default (no skills, no custom commands, the default context window).
#[derive(Debug, Clone)]
pub struct SessionContext {
    /// `None`: no skills, no custom commands, no `@path` expansion.
    pub workspace: Option<Arc<WorkspaceContext>>,
    /// The layers of the session's system prompt.
    pub report: Option<PromptReport>,
    pub counter: TokenCounter,
    /// Tokens the model accepts in one request.
    pub context_window: u64,
    /// Compact automatically when a request reaches this share of the window.
    pub auto_compact_threshold_percent: u8,
    /// Tokens every request costs before any message (system prompt + tool definitions).
    pub fixed_prompt_tokens: u64,
    pub attach_limits: AttachLimits,
    /// For `/models`.
    pub providers: Vec<ProviderSummary>,
    /// For `/mcp`: configured server names.
    pub mcp_servers: Vec<String>,
    /// The session's MCP servers (tools come through the registry; this is for their
    /// state, `/mcp` and `/server:prompt` commands).
    pub mcp: Option<memo_mcp::McpManager>,
    /// The user's kept approval rules (`None`: none apply, e.g. in tests).
    pub approval_rules: Option<memo_config::RuleStore>,
    /// Other agents' permissions as rules (see [`crate::imported_rules`]), read at start.
    pub imported_rules: Vec<memo_config::ApprovalRule>,
    /// Command prefixes other agents' settings limit the shell to (Gemini's
    /// `coreTools: ["ShellTool(ls)"]`); a command must pass each list.
    pub command_limits: Vec<Vec<String>>,
    /// Where the session's MCP servers' requests for user input arrive (`None`: they
    /// are declined by the MCP client).
    pub elicitations: Option<super::elicit::ElicitationInbox>,
    /// The hooks in effect (Claude Code's settings files and config.toml), read when the
    /// session started or was resumed.
    pub hooks: memo_hooks::Hooks,
    /// How they were read: files with problems, project hooks skipped in an untrusted
    /// folder. Reported once when the session starts.
    pub hook_report: memo_hooks::LoadReport,
    /// The subagents this session starts (`None`: it has no collab tools).
    pub children: Option<super::children::Children>,
    /// Set when this session is a subagent's: who it is and what it was told to be.
    pub subagent: Option<super::children::SubagentRole>,
    /// A subagent's parent's session grants, which hold for it too.
    pub grants: Option<super::children::Grants>,
    /// Set when another agent runs this session's turns ([`crate::peer`]).
    pub peer: Option<PeerLink>,
    /// Where the tools read, write and run commands instead of the disk and Memo's own
    /// terminal (an editor's buffers and terminals).
    pub hosts: memo_tools::Hosts,
}

/// The agent that runs a session's turns instead of Memo's model loop.
#[derive(Clone)]
pub struct PeerLink(pub Arc<dyn crate::peer::Peer>);

impl std::fmt::Debug for PeerLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PeerLink")
    }
}

impl Default for SessionContext {
    fn default() -> Self {
        Self {
            workspace: None,
            report: None,
            counter: TokenCounter::bytes(),
            context_window: memo_config::DEFAULT_CONTEXT_WINDOW,
            auto_compact_threshold_percent: memo_config::DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT,
            fixed_prompt_tokens: 0,
            attach_limits: AttachLimits::default(),
            providers: Vec::new(),
            mcp_servers: Vec::new(),
            mcp: None,
            approval_rules: None,
            imported_rules: Vec::new(),
            command_limits: Vec::new(),
            elicitations: None,
            hooks: memo_hooks::Hooks::default(),
            hook_report: memo_hooks::LoadReport::default(),
            children: None,
            subagent: None,
            grants: None,
            peer: None,
            hosts: memo_tools::Hosts::default(),
        }
    }
}

/// The session's context settings plus what changes while it runs.
pub(crate) struct ContextState {
    pub settings: SessionContext,
    /// An automatic compaction failed (or inflated): no more automatic attempts until a
    /// manual `/compact` succeeds.
    auto_blocked: AtomicBool,
}

impl ContextState {
    pub fn new(settings: SessionContext, auto_blocked: bool) -> Self {
        Self {
            settings,
            auto_blocked: AtomicBool::new(auto_blocked),
        }
    }

    pub fn auto_blocked(&self) -> bool {
        self.auto_blocked.load(Ordering::Acquire)
    }

    pub fn set_auto_blocked(&self, blocked: bool) {
        self.auto_blocked.store(blocked, Ordering::Release);
    }
}

/// How a compaction attempt changes whether automatic compaction may run: a failed or
/// inflated attempt turns it off, a successful one (or `/clear`) back on, and "nothing
/// to compact" leaves it as it was.
pub fn blocked_after(status: memo_protocol::CompactionStatus, before: bool) -> bool {
    use memo_protocol::CompactionStatus::*;
    match status {
        Failed | Inflated => true,
        Compacted | Cleared => false,
        Skipped => before,
    }
}

/// Whether a resumed log left automatic compaction off.
pub fn auto_blocked_by_log<'a>(
    events: impl IntoIterator<Item = &'a memo_protocol::EventEnvelope>,
) -> bool {
    events
        .into_iter()
        .fold(false, |blocked, env| match &env.event {
            memo_protocol::AgentEvent::ContextCompacted { status, .. } => {
                blocked_after(*status, blocked)
            }
            _ => blocked,
        })
}
