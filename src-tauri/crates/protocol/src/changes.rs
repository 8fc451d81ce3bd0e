//! File changes, checkpoints and restores: what the agent (or anything else) changed in a
//! workspace, and how to put it back.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{FileDiff, SessionSummary, ToolCallId, TurnId};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Created,
    Modified,
    Deleted,
}

/// One file as changed between two points, with its diff when it is text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileChange {
    /// Relative to the workspace folder, `/`-separated.
    pub path: String,
    pub kind: ChangeKind,
    /// What made the change: a tool's name (`apply_patch`, `exec_command`, an MCP tool),
    /// `outside` (someone or something outside Memo), `restore` or `review`.
    pub sources: Vec<String>,
    /// False when a side is over the size cap or unreadable: the change is recorded but
    /// cannot be put back.
    pub restorable: bool,
    pub binary: bool,
    /// Lines added and removed (0 for binary files).
    pub added: u32,
    pub removed: u32,
    /// Text diff from the earlier to the later state; `None` for binary files, files over
    /// the cap, and diffs too large to send (fetched on demand instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub diff: Option<FileDiff>,
    /// Hunks of `diff` the person kept: in a git repository, those staged in the index
    /// (not yet committed); elsewhere, those marked kept in Memo's store.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<u32>>")]
    pub kept: Vec<u32>,
    /// Hunks of `diff` git already has at HEAD: committed, so neither kept nor to unstage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<u32>>")]
    pub committed: Vec<u32>,
    /// The person marked the file reviewed, and it has not changed since.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub reviewed: bool,
}

/// Keep (or stop keeping) hunks of one file of the changes panel: in a git repository
/// they are staged (or unstaged) in the index; elsewhere they are marked in Memo's store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct KeepRequest {
    pub scope: ChangeScope,
    pub path: String,
    /// Indices into the diff's hunks; `None`: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hunks: Option<Vec<u32>>,
    /// The diff's unified text as shown; refused when the file changed since.
    pub shown_diff: String,
    /// Take the keep back (unstage).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub undo: bool,
}

/// Mark one file of the changes panel reviewed as it stands (or not any more).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReviewedRequest {
    pub scope: ChangeScope,
    pub path: String,
    pub shown_diff: String,
    pub reviewed: bool,
}

/// Which changes the changes panel lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeScope {
    /// What the session's last turn changed, compared with the files now.
    LastTurn,
    /// Everything the session changed since it started.
    Session,
    /// Everything `git` sees as uncommitted (tracked changes and untracked files).
    Uncommitted,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangesReport {
    pub scope: ChangeScope,
    pub files: Vec<FileChange>,
    /// Whether the workspace is a git repository (the uncommitted scope needs one).
    pub git: bool,
    /// Why the list may be incomplete or empty (no git, no checkpoints), as a phrase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<crate::Phrase>")]
    pub note: Option<crate::Phrase>,
}

/// Put back hunks of one file from the changes panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RevertRequest {
    pub scope: ChangeScope,
    pub path: String,
    /// Indices into the diff's hunks; `None` reverts the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hunks: Option<Vec<u32>>,
    /// The diff's unified text as shown; the revert is refused when the file changed since.
    pub shown_diff: String,
    /// Revert even though lines changed after the agent's edit (by the person or anything
    /// else) would go with it: the answer to a [`RevertResult::held_back`]. What is lost
    /// stays recoverable through the result's undo checkpoint.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub force: bool,
}

/// What a revert from the changes panel did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RevertResult {
    /// The panel's list after the revert.
    pub changes: ChangesReport,
    /// Restoring the file from this checkpoint undoes the revert (the panel's Undo);
    /// `None` when nothing was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub undo_checkpoint: Option<u64>,
    /// Nothing was written because the revert would drop lines someone changed after the
    /// agent; asking again with `force` reverts anyway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub held_back: Option<HeldBack>,
}

/// A revert that would drop lines changed after the agent's edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HeldBack {
    pub path: String,
    /// The lines, numbered as the file stands now: "4", "4–6", "4, 9–10".
    pub lines: String,
    /// The sentence to show.
    pub message: String,
}

/// A point the workspace's files can be restored to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckpointSummary {
    #[ts(type = "number")]
    pub id: u64,
    /// The session event this checkpoint follows.
    #[ts(type = "number")]
    pub seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<TurnId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub call_id: Option<ToolCallId>,
    /// `turn_start`, a tool's name, `outside`, `restore` or `review`.
    pub source: String,
    #[ts(type = "number")]
    pub created_ms: u64,
    pub files: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RestoreMode {
    Code,
    Conversation,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RestoreAction {
    /// The file gets its earlier content back.
    Write,
    /// The agent created it after that point: it goes away.
    Delete,
    /// Someone changed it after the agent did: left alone unless the user says so.
    Conflict,
    /// Over the size cap when it changed: cannot be put back.
    NotRestorable,
    /// Already as it was.
    Unchanged,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RestoreFile {
    pub path: String,
    pub action: RestoreAction,
    /// For a conflict: what happened to the file after the agent's change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub detail: Option<String>,
}

/// What a restore would do (preview) or did (report).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RestoreReport {
    pub files: Vec<RestoreFile>,
    /// The checkpoint recording the restore itself; restoring to just before it undoes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub undo_checkpoint: Option<u64>,
    /// The conversation restored as a new session (conversation and both modes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session: Option<SessionSummary>,
    /// The message the conversation was rewound to, for the composer to offer again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
}
