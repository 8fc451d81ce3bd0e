//! What the session log says about hooks: the user's shell commands (from Claude Code's
//! settings files or Memo's config.toml) that ran at one moment of a session, and what
//! they decided. Kept small and bounded: a hook's full output stays in its process, the
//! log keeps what a person needs to see which hook did what and why.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The moments hooks run at, named as in Claude Code's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum HookEventName {
    PreToolUse,
    PostToolUse,
    UserPromptSubmit,
    Notification,
    Stop,
    SubagentStop,
    PreCompact,
    SessionStart,
    SessionEnd,
    /// Before the model is first called in a turn; may replace that turn's system prompt.
    BeforeAgentStart,
}

impl HookEventName {
    pub fn as_str(self) -> &'static str {
        match self {
            HookEventName::PreToolUse => "PreToolUse",
            HookEventName::PostToolUse => "PostToolUse",
            HookEventName::UserPromptSubmit => "UserPromptSubmit",
            HookEventName::Notification => "Notification",
            HookEventName::Stop => "Stop",
            HookEventName::SubagentStop => "SubagentStop",
            HookEventName::PreCompact => "PreCompact",
            HookEventName::SessionStart => "SessionStart",
            HookEventName::SessionEnd => "SessionEnd",
            HookEventName::BeforeAgentStart => "BeforeAgentStart",
        }
    }
}

/// What hooks decided. `block` stops what was about to happen (a tool call, a prompt,
/// the end of a turn); `ask` makes Memo ask the user about a tool call; `allow` lets a
/// tool call run without asking (the user's deny rules and critical-risk prompts still
/// apply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HookVerdict {
    Allow,
    Ask,
    Block,
}

/// How one hook process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HookRunStatus {
    /// Exit code 0.
    Ok,
    /// Exit code 2: the hook blocked (for events that can be blocked).
    Blocked,
    /// Another exit code, a signal, or it could not start: shown, otherwise ignored.
    Failed,
    /// Still running at its timeout; it was killed.
    TimedOut,
    /// Stopped because the user interrupted the turn.
    Cancelled,
}

/// One hook that ran for an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HookRunSummary {
    /// The command as configured (cut when very long).
    pub command: String,
    /// The settings file it came from.
    pub source: String,
    pub status: HookRunStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub exit_code: Option<i32>,
    #[ts(type = "number")]
    pub duration_ms: u64,
    /// This hook's own decision, when it made one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub decision: Option<HookVerdict>,
    /// Its reason, message, output or error for the user (cut when long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
}

/// Longest `message` or `reason` kept in the log, in characters.
pub const HOOK_TEXT_LIMIT: usize = 2_000;

/// `text` cut to [`HOOK_TEXT_LIMIT`] characters, saying so.
pub fn bounded_hook_text(text: &str) -> String {
    if text.chars().count() <= HOOK_TEXT_LIMIT {
        return text.to_owned();
    }
    let kept: String = text.chars().take(HOOK_TEXT_LIMIT).collect();
    format!("{kept}… (cut)")
}
