//! The moments a hook can run at, and the JSON a hook reads on stdin about each.
//!
//! Users' hook scripts were written for Claude Code, so the stdin document keeps Claude
//! Code's field names and values exactly (`tool_name` is `Bash`, not Memo's
//! `exec_command`); Memo's own tool name rides along as `memo_tool_name` for scripts that
//! want it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::tool_names::{claude_tool_name, hook_tool_input};

/// A moment in a session at which hooks run, named as in Claude Code's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HookEvent {
    PreToolUse,
    PostToolUse,
    UserPromptSubmit,
    Notification,
    Stop,
    SubagentStop,
    PreCompact,
    SessionStart,
    SessionEnd,
    /// Memo's own (pi's `before_agent_start`): after the message is ready and before the
    /// model is first called in a turn. A hook may answer with a system prompt for this
    /// turn only; the hooks run one after another, each seeing the previous one's.
    BeforeAgentStart,
}

impl HookEvent {
    pub const ALL: [HookEvent; 10] = [
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::UserPromptSubmit,
        HookEvent::Notification,
        HookEvent::Stop,
        HookEvent::SubagentStop,
        HookEvent::PreCompact,
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::BeforeAgentStart,
    ];

    /// The name used in settings files and in `hook_event_name`.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::Notification => "Notification",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::BeforeAgentStart => "BeforeAgentStart",
        }
    }

    pub fn from_name(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Whether a group's `matcher` selects hooks for this event. For the others every
    /// group runs, whatever its matcher says (Claude Code ignores it there too).
    pub fn uses_matcher(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::PreCompact
                | HookEvent::SessionStart
        )
    }

    /// Whether exit code 2 (or `"decision": "block"`) changes what happens next. For
    /// the other events it is only an error shown to the user.
    pub fn can_block(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::UserPromptSubmit
                | HookEvent::Stop
                | HookEvent::SubagentStop
        )
    }

    /// Whether a successful hook's plain stdout is context for the model (for every
    /// other event it is only shown to the user).
    pub fn stdout_is_context(self) -> bool {
        matches!(self, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
    }

    /// Whether `additionalContext` in a hook's JSON answer is taken.
    pub fn takes_additional_context(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::UserPromptSubmit
                | HookEvent::SessionStart
        )
    }
}

impl std::fmt::Display for HookEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What started a compaction (`PreCompact`'s matcher subject).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompactTrigger {
    Manual,
    Auto,
}

impl CompactTrigger {
    pub fn as_str(self) -> &'static str {
        match self {
            CompactTrigger::Manual => "manual",
            CompactTrigger::Auto => "auto",
        }
    }
}

/// How a session came to start (`SessionStart`'s matcher subject).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionStartSource {
    Startup,
    Resume,
    Clear,
    Compact,
}

impl SessionStartSource {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionStartSource::Startup => "startup",
            SessionStartSource::Resume => "resume",
            SessionStartSource::Clear => "clear",
            SessionStartSource::Compact => "compact",
        }
    }
}

/// Why a session ended, in Claude Code's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionEndReason {
    Clear,
    Logout,
    PromptInputExit,
    Other,
}

/// A tool call as Memo knows it. The Claude Code name and input shape sent to hooks are
/// derived from it (see [`crate::claude_tool_name`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// Memo's tool name (`exec_command`, `write_file`, `github__create_issue`).
    pub memo_name: String,
    /// The arguments as the model gave them (after Memo's validation).
    pub input: Value,
    /// The model's id for the call, sent as `tool_use_id` when known.
    pub tool_use_id: Option<String>,
}

impl ToolCall {
    pub fn new(memo_name: impl Into<String>, input: Value) -> ToolCall {
        ToolCall {
            memo_name: memo_name.into(),
            input,
            tool_use_id: None,
        }
    }

    pub fn with_id(mut self, tool_use_id: impl Into<String>) -> ToolCall {
        self.tool_use_id = Some(tool_use_id.into());
        self
    }
}

/// One occurrence of an event, with what the hooks are told about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event")]
pub enum HookInput {
    PreToolUse {
        tool: ToolCall,
    },
    PostToolUse {
        tool: ToolCall,
        /// What the tool returned (Memo's result; a string is fine).
        tool_response: Value,
    },
    UserPromptSubmit {
        prompt: String,
    },
    Notification {
        message: String,
    },
    Stop {
        /// True when the agent is already continuing because a Stop hook said so, so
        /// a script can avoid keeping the agent going forever.
        stop_hook_active: bool,
    },
    SubagentStop {
        stop_hook_active: bool,
    },
    PreCompact {
        trigger: CompactTrigger,
        /// What the user typed after `/compact` (empty for an automatic compaction).
        custom_instructions: String,
    },
    SessionStart {
        source: SessionStartSource,
    },
    SessionEnd {
        reason: SessionEndReason,
    },
    BeforeAgentStart {
        /// The user's message as it goes to the model.
        prompt: String,
        /// The system prompt so far: the session's own for the first hook, then what the
        /// previous hook made of it.
        system_prompt: String,
    },
}

impl HookInput {
    pub fn event(&self) -> HookEvent {
        match self {
            HookInput::PreToolUse { .. } => HookEvent::PreToolUse,
            HookInput::PostToolUse { .. } => HookEvent::PostToolUse,
            HookInput::UserPromptSubmit { .. } => HookEvent::UserPromptSubmit,
            HookInput::Notification { .. } => HookEvent::Notification,
            HookInput::Stop { .. } => HookEvent::Stop,
            HookInput::SubagentStop { .. } => HookEvent::SubagentStop,
            HookInput::PreCompact { .. } => HookEvent::PreCompact,
            HookInput::SessionStart { .. } => HookEvent::SessionStart,
            HookInput::SessionEnd { .. } => HookEvent::SessionEnd,
            HookInput::BeforeAgentStart { .. } => HookEvent::BeforeAgentStart,
        }
    }

    /// The tool call of a tool event.
    pub fn tool(&self) -> Option<&ToolCall> {
        match self {
            HookInput::PreToolUse { tool } | HookInput::PostToolUse { tool, .. } => Some(tool),
            _ => None,
        }
    }

    /// What matchers are tested against, when the event uses them: the tool's names
    /// (Memo's and every Claude Code name it stands for), or the trigger / source.
    pub(crate) fn matcher_subjects(&self) -> Vec<String> {
        match self {
            HookInput::PreToolUse { tool } | HookInput::PostToolUse { tool, .. } => {
                crate::tool_names::names_for_matching(&tool.memo_name)
            }
            HookInput::PreCompact { trigger, .. } => vec![trigger.as_str().to_owned()],
            HookInput::SessionStart { source } => vec![source.as_str().to_owned()],
            _ => Vec::new(),
        }
    }

    /// The document a hook reads on stdin.
    pub fn stdin_json(&self, ctx: &HookContext) -> Value {
        let mut doc = Map::new();
        doc.insert("session_id".into(), json!(ctx.session_id));
        // Memo keeps its transcript in SQLite, not a JSONL file; an empty string keeps
        // the field a string for scripts that expect one.
        let transcript = ctx
            .transcript_path
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        doc.insert("transcript_path".into(), json!(transcript));
        doc.insert("cwd".into(), json!(ctx.cwd.to_string_lossy()));
        if let Some(mode) = &ctx.permission_mode {
            doc.insert("permission_mode".into(), json!(mode));
        }
        doc.insert("hook_event_name".into(), json!(self.event().name()));
        match self {
            HookInput::PreToolUse { tool } => insert_tool(&mut doc, tool),
            HookInput::PostToolUse {
                tool,
                tool_response,
            } => {
                insert_tool(&mut doc, tool);
                doc.insert("tool_response".into(), tool_response.clone());
            }
            HookInput::UserPromptSubmit { prompt } => {
                doc.insert("prompt".into(), json!(prompt));
            }
            HookInput::Notification { message } => {
                doc.insert("message".into(), json!(message));
            }
            HookInput::Stop { stop_hook_active } | HookInput::SubagentStop { stop_hook_active } => {
                doc.insert("stop_hook_active".into(), json!(stop_hook_active));
            }
            HookInput::PreCompact {
                trigger,
                custom_instructions,
            } => {
                doc.insert("trigger".into(), json!(trigger));
                doc.insert("custom_instructions".into(), json!(custom_instructions));
            }
            HookInput::SessionStart { source } => {
                doc.insert("source".into(), json!(source));
            }
            HookInput::SessionEnd { reason } => {
                doc.insert("reason".into(), json!(reason));
            }
            HookInput::BeforeAgentStart {
                prompt,
                system_prompt,
            } => {
                doc.insert("prompt".into(), json!(prompt));
                doc.insert("system_prompt".into(), json!(system_prompt));
            }
        }
        Value::Object(doc)
    }
}

fn insert_tool(doc: &mut Map<String, Value>, tool: &ToolCall) {
    let claude = claude_tool_name(&tool.memo_name).unwrap_or_else(|| tool.memo_name.clone());
    doc.insert("tool_name".into(), json!(claude));
    doc.insert("memo_tool_name".into(), json!(tool.memo_name));
    doc.insert(
        "tool_input".into(),
        hook_tool_input(&tool.memo_name, &tool.input),
    );
    if let Some(id) = &tool.tool_use_id {
        doc.insert("tool_use_id".into(), json!(id));
    }
}

/// The session a hook runs for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookContext {
    pub session_id: String,
    /// Claude Code's JSONL transcript; Memo has none, so usually `None` (sent as "").
    pub transcript_path: Option<PathBuf>,
    /// The session's working directory (sent as `cwd`).
    pub cwd: PathBuf,
    /// The folder the session works in: hooks run there, and it is
    /// `$CLAUDE_PROJECT_DIR` / `$MEMO_PROJECT_DIR`.
    pub project_dir: PathBuf,
    /// Sent as `permission_mode` when set (Claude Code's words: `default`, `plan`,
    /// `acceptEdits`, `bypassPermissions`).
    pub permission_mode: Option<String>,
}

impl HookContext {
    /// A context whose working directory is the project folder.
    pub fn new(session_id: impl Into<String>, project_dir: impl Into<PathBuf>) -> HookContext {
        let project_dir = project_dir.into();
        HookContext {
            session_id: session_id.into(),
            transcript_path: None,
            cwd: project_dir.clone(),
            project_dir,
            permission_mode: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_serde() {
        for event in HookEvent::ALL {
            assert_eq!(HookEvent::from_name(event.name()), Some(event));
            assert_eq!(serde_json::to_value(event).unwrap(), json!(event.name()));
        }
        assert_eq!(HookEvent::from_name("PermissionRequest"), None);
    }

    #[test]
    fn tool_events_send_claude_names_and_memo_names() {
        let ctx = HookContext::new("s1", "/p");
        let input = HookInput::PreToolUse {
            tool: ToolCall::new("exec_command", json!({"cmd": "ls"})).with_id("call_1"),
        };
        let doc = input.stdin_json(&ctx);
        assert_eq!(doc["tool_name"], "Bash");
        assert_eq!(doc["memo_tool_name"], "exec_command");
        assert_eq!(doc["tool_input"]["command"], "ls");
        assert_eq!(doc["tool_input"]["cmd"], "ls");
        assert_eq!(doc["tool_use_id"], "call_1");
        assert_eq!(doc["transcript_path"], "");
        assert_eq!(doc["hook_event_name"], "PreToolUse");
        assert!(doc.get("permission_mode").is_none());
    }
}
