use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApprovalId, ToolCallId};

/// How much harm a tool call can do; approvals policy keys on this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RiskLevel {
    Read,
    Write,
    Execute,
    Critical,
}

/// Everything a client needs to decide on a tool call without asking the engine again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ApprovalRequest {
    pub request_id: ApprovalId,
    pub call_id: ToolCallId,
    pub tool_name: String,
    pub risk: RiskLevel,
    /// Why the policy asks, in English on one line: for memo-cli and for sessions stored
    /// before `why` (a front end with words of its own renders `why`).
    pub reason: String,
    /// Why the policy asks, as phrases each front end words in its language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<crate::Phrase>>")]
    pub why: Vec<crate::Phrase>,
    /// What a "for this session" grant would cover, e.g. `write:/repo/src` or `exec:cargo test`.
    pub fingerprint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Proposed file change, so the client can accept or reject hunk by hunk (or edit by
    /// edit). Boxed, like `agent`: most approvals have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<FileDiff>")]
    pub diff: Option<Box<FileDiff>>,
    /// The raw tool arguments as the model sent them.
    pub arguments: serde_json::Value,
    /// What an "always" answer would keep as allow rules (command prefixes, files, an MCP
    /// tool); empty when none can (critical calls always ask).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_patterns: Vec<String>,
    /// Those rules in plain words, for the "Always" choice: "run exactly `sed -i s/a/b/
    /// notes.txt` without asking" (a command that writes is kept exactly, never as a
    /// prefix), "run `cargo test …` without asking".
    /// In English, for older readers; `rule_words` is what a front end words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_summary: Option<String>,
    /// The same as a phrase, worded in the person's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rule_words: Option<crate::Phrase>,
    /// The subagent that asks, when the question is relayed from one to its parent's log
    /// (answer it in the parent: the parent passes the answer on). Boxed: every event
    /// is as large as its largest kind, and most approvals have no agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<crate::SubagentRef>")]
    pub agent: Option<Box<crate::SubagentRef>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileDiff {
    pub path: String,
    pub unified: String,
    pub hunks: Vec<DiffHunk>,
    /// The replacements of an edit call that sent several (`edits[]`), each with what it
    /// alone changes, so a person can accept one edit and refuse another even where their
    /// lines touch and share a hunk. Empty for a single edit and for patches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<EditChoice>>")]
    pub edits: Vec<EditChoice>,
}

/// One replacement of a several-edit call, as the approval card offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EditChoice {
    /// Position in the call's `edits[]`, from 0.
    pub index: u32,
    /// "Edit 2 of 3 · line 14".
    pub label: String,
    /// What this edit alone changes, numbered as the file stands after the edits before
    /// it (several hunks for a `replace_all`).
    pub hunks: Vec<DiffHunk>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DiffHunk {
    pub index: u32,
    pub header: String,
    pub text: String,
}

/// The client's answer to an [`ApprovalRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReviewDecision {
    /// Run this call once. For file changes, `accepted_hunks` (indices into the request's
    /// hunks) limits the change to those hunks, or `accepted_edits` (indices of the diff's
    /// `edits`) to those replacements, applied in order without the others; `None`
    /// accepts all of them. At most one of the two is given.
    ApproveOnce {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accepted_hunks: Option<Vec<u32>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        accepted_edits: Option<Vec<u32>>,
    },
    /// Run this call and every later one matching the request's fingerprint in this session.
    ApproveForSession,
    /// Run this call and every later call to the same tool in this model step (several
    /// edits or commands asked for at once), without asking again.
    ApproveStep,
    /// Run this call and keep the request's `rule_patterns` as allow rules: for sessions in
    /// this folder (`project`) or everywhere.
    ApproveAlways { project: bool },
    /// Do not run it; the model is told the user declined.
    Deny {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Nobody answered: the turn was stopped or the session ended while it asked. The
    /// call did not run. Only the engine records this; a person's "no" is a `Deny`.
    Unanswered { because: crate::Phrase },
}

impl ReviewDecision {
    /// Run once, the whole change.
    pub fn approve_once() -> Self {
        ReviewDecision::ApproveOnce {
            accepted_hunks: None,
            accepted_edits: None,
        }
    }

    pub fn is_approved(&self) -> bool {
        !matches!(
            self,
            ReviewDecision::Deny { .. } | ReviewDecision::Unanswered { .. }
        )
    }
}

/// Who is asked before a tool call runs.
/// - `auto`: reads run; writes and commands ask unless a session grant or a kept rule
///   covers them; critical calls always ask.
/// - `strict`: every call above read asks, every time (kept allow rules do not apply).
/// - `dangerous`: nothing asks except critical calls.
///
/// Deny rules refuse their calls in every mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalMode {
    #[default]
    Auto,
    Strict,
    Dangerous,
}
