//! What the model sees, explained: the system prompt as six layers with the files they came
//! from, how a user message was expanded before it was sent, and the results of slash
//! commands and context compaction.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SessionId;

/// The assembled prompt of a session (or of a workspace before a session starts), layer by
/// layer, in the order the model receives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptReport {
    pub cwd: String,
    /// The workspace root the project files were searched from (git root, else `cwd`).
    pub workspace_root: String,
    pub model: String,
    /// How tokens were counted: `tiktoken:<encoding>` or `estimate:bytes`.
    pub token_counter: String,
    /// Always the six layers, in order; a layer with nothing to say has empty `content`.
    pub layers: Vec<PromptLayer>,
    /// The system prompt (layers 1-5) in characters and estimated tokens.
    #[ts(type = "number")]
    pub system_chars: u64,
    #[ts(type = "number")]
    pub system_tokens: u64,
    /// System prompt plus tool definitions: what every request costs before any message.
    #[ts(type = "number")]
    pub total_tokens: u64,
    /// Files that were skipped or could not be used (bad front matter, template errors,
    /// clashing names...). Never fatal.
    pub problems: Vec<ContextProblem>,
    /// The last turn's system prompt when `BeforeAgentStart` hooks replaced it (for that
    /// turn only: the next one starts from the layers above again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_override: Option<TurnSystemPrompt>,
}

/// A system prompt hooks made for one turn, and which hooks made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TurnSystemPrompt {
    pub turn_id: crate::TurnId,
    /// Each hook that changed it, in the order they ran (each saw the one before's).
    pub changed_by: Vec<PromptHook>,
    /// The text sent as the system prompt in that turn.
    pub content: String,
    #[ts(type = "number")]
    pub chars: u64,
}

/// A hook that changed a turn's system prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptHook {
    pub command: String,
    /// The settings file it is configured in.
    pub file: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptLayer {
    pub kind: PromptLayerKind,
    pub title: String,
    /// The files (or built-in templates, as `builtin:<name>`) this layer was made from.
    pub sources: Vec<PromptSource>,
    /// The layer's text exactly as sent; for `tool_definitions`, the JSON of the API's
    /// tools field.
    pub content: String,
    #[ts(type = "number")]
    pub chars: u64,
    #[ts(type = "number")]
    pub tokens: u64,
    /// How many tools a `tool_definitions` layer sends (its title in any language).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub tool_count: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PromptLayerKind {
    /// Base instructions (or SYSTEM.md), APPEND_SYSTEM.md and the environment.
    Base,
    /// `$MEMO_HOME/SOUL.md`, wrapped as a soft preference.
    Soul,
    /// Bootstrap files of the Memo home and the project's AGENTS.md chain.
    ProjectContext,
    /// Names and descriptions of the available skills.
    Skills,
    /// Tool descriptions in prose (built-in, then MCP by server).
    ToolDescriptions,
    /// The tools sent in the API's JSON `tools` field (not part of the system text).
    ToolDefinitions,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptSource {
    pub path: String,
    pub status: SourceStatus,
    /// Characters and tokens this source contributes (after trimming).
    #[ts(type = "number")]
    pub chars: u64,
    #[ts(type = "number")]
    pub tokens: u64,
    /// The file's own length when it was trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub original_chars: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SourceStatus {
    Loaded,
    /// Longer than the per-file budget: head and tail kept, a marker in between.
    Trimmed,
    /// Configured but not found; a short marker tells the model so.
    Missing,
    /// Exists but holds nothing (only whitespace or HTML comments); contributes nothing.
    Empty,
    /// A project file that would change the base instructions, not applied because the
    /// folder is not trusted.
    Untrusted,
}

/// Something in the user's or project's files that Memo had to skip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ContextProblem {
    pub path: String,
    pub message: String,
}

/// Set by the engine on the input it records (clients never set it): what the model
/// receives instead of the typed text, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct InputExpansion {
    /// The text sent to the model for this message.
    pub prompt: String,
    /// The slash command that produced `prompt` (`/init`, `/openspec:proposal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub command: Option<String>,
    pub attachments: Vec<InputAttachment>,
    /// Things the user should know: a missing `@path`, a skipped binary file...
    pub notices: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct InputAttachment {
    pub kind: AttachmentKind,
    /// As written by the user (`@src/lib.rs`, `$code-review`).
    pub reference: String,
    /// The resolved file or directory.
    pub path: String,
    /// Files included (1 for a file or a skill).
    pub files: u32,
    #[ts(type = "number")]
    pub chars: u64,
    /// Some content was left out because of size limits.
    pub truncated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AttachmentKind {
    File,
    Directory,
    Skill,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CompactionTrigger {
    /// The prompt passed the auto-compact threshold (or the model said it overflowed).
    Auto,
    /// `/compact` or `Op::Compact`.
    Manual,
    /// `/clear`: the history is dropped without a summary.
    Clear,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CompactionStatus {
    /// Older history was replaced by the snapshot; `kept_messages` recent ones remain.
    Compacted,
    /// The history was emptied.
    Cleared,
    /// The summary would have made the prompt larger; history unchanged and automatic
    /// compaction is off until a manual `/compact`.
    Inflated,
    /// The summarisation call failed or returned nothing; history unchanged.
    Failed,
    /// There was nothing that could be compacted; history unchanged.
    Skipped,
}

/// How a session can be continued from outside (the window or the CLI acts on it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostAction {
    /// `/new`: start a fresh session in the same folder.
    NewSession,
    /// `/resume [id]`: reopen a stored session (pick one when no id is given).
    ResumeSession {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        session_id: Option<SessionId>,
    },
    /// `/models`: let the user choose a provider and model.
    PickModel,
}
