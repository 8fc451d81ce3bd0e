//! Worktree sessions: a session that works on its own branch in a git worktree Memo
//! created (under `$MEMO_HOME/worktrees`), what that worktree holds compared with the
//! branch it came from, and the three ways out of it (merge back, keep the branch, discard).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{FileChange, SessionId, SessionSummary};

/// Whether a worktree Memo recorded is still there to work in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum WorktreeState {
    Ready,
    /// The folder is gone (deleted by hand) or its repository is: only forgetting it (or
    /// discarding its branch) is possible.
    Missing,
    /// The folder is there but git no longer counts it as a worktree of the repository
    /// (removed with `git worktree remove` and recreated, say): Memo will not touch it.
    Unlinked,
}

/// A worktree Memo created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeInfo {
    /// Memo's short id of the worktree (also the end of its folder name).
    pub id: String,
    /// The checkout it was created from, where a merge lands.
    pub repo_root: String,
    /// The worktree folder, under `$MEMO_HOME/worktrees`.
    pub path: String,
    /// Where a session in it starts: the same subfolder of the repository as the folder it
    /// was asked for (the worktree's root when that was the repository's root).
    pub session_cwd: String,
    /// `memo/<name>`.
    pub branch: String,
    /// The branch the repository was on when the worktree was created; `None` when it was
    /// on a detached HEAD (the branch can then be kept, not merged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub base_branch: Option<String>,
    /// The commit the branch started from.
    pub base_commit: String,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub created_ms: u64,
    /// The session started in it, once it has started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_id: Option<SessionId>,
    pub state: WorktreeState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum WorktreeFileStatus {
    Modified,
    Added,
    Deleted,
    Renamed,
    /// New and not yet added to git.
    Untracked,
    /// Left in conflict by a merge or rebase in the worktree.
    Conflicted,
}

/// One uncommitted file in a worktree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeFile {
    /// Relative to the worktree's root, `/`-separated.
    pub path: String,
    pub status: WorktreeFileStatus,
}

/// One commit on the worktree's branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeCommit {
    pub sha: String,
    pub short_sha: String,
    pub subject: String,
}

/// What a worktree holds that its base branch does not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeStatus {
    pub worktree: WorktreeInfo,
    /// Uncommitted files (tracked changes and untracked files).
    pub uncommitted: Vec<WorktreeFile>,
    /// Commits on the branch that the base branch does not have, oldest first.
    pub ahead: Vec<WorktreeCommit>,
    /// Commits on the base branch since the worktree's branch left it.
    pub behind: u32,
    /// Everything committed on the branch is in the base branch.
    pub merged: bool,
    /// What discarding the worktree would lose, as `discard_worktree` must be given it to
    /// go ahead: one entry per uncommitted file, then one per unmerged commit. Empty when
    /// nothing would be lost.
    pub discard_confirmation: Vec<String>,
}

/// The worktree's whole change against the commit its branch started from: committed and
/// uncommitted, untracked files included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeDiff {
    pub base_commit: String,
    pub files: Vec<FileChange>,
}

/// A worktree merged into its base branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeMerge {
    /// The commit made of the uncommitted work first, if there was any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub committed: Option<WorktreeCommit>,
    pub base_branch: String,
    /// The base branch's new tip.
    pub head: String,
    /// Files the merge changed in the main checkout.
    pub files: Vec<String>,
    /// The worktree afterwards (it stays, clean and merged, until discarded).
    pub status: WorktreeStatus,
}

/// A worktree whose folder was removed with its branch kept, ready to publish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct KeptBranch {
    pub branch: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub committed: Option<WorktreeCommit>,
    /// The repository's remote to push to (`origin` when there is one); `None` when it has
    /// no remote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remote: Option<String>,
    /// `git push -u <remote> <branch>`, to run in `repo_root`.
    pub push_command: String,
    pub repo_root: String,
}

/// What discarding a worktree did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeDiscard {
    pub branch: String,
    /// False when the branch could not be deleted (checked out somewhere else); `note` says
    /// why.
    pub branch_deleted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// A session started in a new worktree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorktreeSession {
    pub session: SessionSummary,
    pub worktree: WorktreeInfo,
}
