//! Workspace trust as the app shows it: the prompt on opening a folder whose project files
//! would start programs, and the list of decisions in settings.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A folder's standing for what its project files would start now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TrustState {
    Trusted,
    Untrusted,
    /// Never decided.
    Unasked,
    /// Trusted before, but the files now start something else too.
    Changed,
}

/// One MCP server a project file declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProjectServerInfo {
    /// The file, relative to the folder (`.mcp.json`).
    pub file: String,
    pub name: String,
    /// The command line it runs, or `connects to <url>`.
    pub runs: String,
}

/// Another agent's allow permission in the folder's own settings (`.claude/settings.json`):
/// calls it covers would run without asking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProjectPermissionInfo {
    /// The file, relative to the folder.
    pub file: String,
    /// As written: `Bash(npm run test:*)`.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkspaceTrustReport {
    pub folder: String,
    pub state: TrustState,
    /// The folder would start something and the user has not decided about exactly that.
    pub needs_decision: bool,
    pub servers: Vec<ProjectServerInfo>,
    pub permissions: Vec<ProjectPermissionInfo>,
    /// The folder's own Claude Code hooks (`hook PreToolUse Bash: ./guard.sh`): commands
    /// that run at the session's moments once the folder is trusted.
    #[serde(default)]
    pub hooks: Vec<String>,
    /// The folder's files that would change Memo's base instructions; until it is trusted,
    /// Memo's own are used.
    #[serde(default)]
    pub prompt_files: Vec<ProjectPromptFile>,
}

/// `.memo/SYSTEM.md` and what it would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProjectPromptFile {
    /// Relative to the folder.
    pub path: String,
    /// "replaces Memo's base instructions, safety rules included".
    pub effect: crate::Phrase,
}

/// One remembered decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TrustDecision {
    pub folder: String,
    pub trusted: bool,
    /// What the folder would start when it was decided.
    pub items: Vec<String>,
    /// Seconds since the Unix epoch.
    #[ts(type = "number")]
    pub decided_at: u64,
}
