//! Approval settings as the settings pane shows them: the default mode and the rules the
//! user kept ("always" answers, and rules written in settings).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::ApprovalMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleDecision {
    Allow,
    Deny,
}

/// What a rule's pattern describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// A command prefix, by whole words (`cargo test`).
    Command,
    /// A file path or glob (`src/**`), relative to the session's folder unless absolute.
    Write,
    /// `server:tool` or `server:*`, then optional `name=glob` argument conditions.
    Mcp,
    /// A web origin (`https://docs.rs`).
    Web,
    /// A file path or glob whose content no tool shows the model (deny only).
    Read,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApprovalRuleInfo {
    pub id: String,
    pub decision: RuleDecision,
    pub kind: RuleKind,
    pub pattern: String,
    /// The folder it applies in (and below); `None`: everywhere.
    pub project: Option<String>,
    /// A command rule matching the command exactly, not as a prefix.
    #[serde(default)]
    pub exact: bool,
    #[ts(type = "number")]
    pub created_at: u64,
    #[ts(type = "number | null")]
    pub last_used_at: Option<u64>,
}

/// A rule as written in settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleInput {
    pub decision: RuleDecision,
    pub kind: RuleKind,
    pub pattern: String,
    pub project: Option<String>,
    /// See [`ApprovalRuleInfo::exact`].
    #[serde(default)]
    pub exact: bool,
}

/// An entry of another agent's settings (Claude Code's `permissions`, Gemini CLI's tool
/// lists) and what Memo makes of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImportedPermission {
    pub file: String,
    /// As written there.
    pub text: String,
    pub decision: RuleDecision,
    /// What Memo does with it (`allows command \`npm test\``, `turns off webfetch`), or
    /// why it is not applied.
    pub effect: String,
    pub applied: bool,
}

/// A built-in tool and whether it is offered to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolSwitch {
    pub name: String,
    /// Off in config.toml's `disabled_tools`.
    pub disabled: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApprovalSettings {
    /// config.toml's `approval_mode`: what new sessions start in.
    pub default_mode: ApprovalMode,
    /// Where the rules are kept (`approval_rules.json` in Memo's home).
    pub rules_path: String,
    pub rules: Vec<ApprovalRuleInfo>,
    /// Why the rules file could not be read (no rule applies until it is fixed).
    pub rules_error: Option<String>,
    /// Other agents' permissions for the folder asked about (and the user's own).
    pub imported: Vec<ImportedPermission>,
    pub tools: Vec<ToolSwitch>,
}
