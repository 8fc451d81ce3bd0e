//! The person's own git repository, from review to commit: what is staged, unstaged and
//! untracked, staging and unstaging hunks, the commit, the push and the pull request.
//! Everything is done by the person's `git` (their config, hooks, credential helper and
//! ssh-agent); these types say what it did.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{FileDiff, Phrase};

/// A repository's state as `git status` sees it, limited to the session's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GitStatus {
    /// The branch checked out; `None` on a detached HEAD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub branch: Option<String>,
    /// HEAD's abbreviated commit; `None` before the first commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub head: Option<String>,
    /// The branch's upstream, e.g. `origin/main`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub upstream: Option<String>,
    /// Commits on the branch its upstream does not have, and the other way round.
    pub ahead: u32,
    pub behind: u32,
    /// An operation in progress (a merge, a rebase…): committing waits until it is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub operation: Option<GitOperation>,
    pub files: Vec<GitFile>,
    /// The repository's remotes, by name.
    pub remotes: Vec<String>,
    /// Whether `user.name` and `user.email` are set, which a commit needs.
    pub identity: bool,
}

/// An operation git has started and not finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum GitOperation {
    Merge,
    Rebase,
    CherryPick,
    Revert,
    Bisect,
}

/// How one side of a file (the index against HEAD, or the folder against the index)
/// differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum GitChange {
    Added,
    Modified,
    Deleted,
    Renamed,
    TypeChanged,
}

/// One file git lists, relative to the session's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GitFile {
    pub path: String,
    /// The path it was renamed from, for a staged rename.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub renamed_from: Option<String>,
    /// What is staged for it (the index against HEAD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub staged: Option<GitChange>,
    /// What is not staged (the folder against the index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unstaged: Option<GitChange>,
    pub untracked: bool,
    /// Unmerged: both sides changed it in a merge that is not finished.
    pub conflicted: bool,
}

/// One file's two diffs: staged (HEAD to index) and unstaged (index to folder). Hunks are
/// git's own, numbered per side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GitFileDiff {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub staged: Option<FileDiff>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unstaged: Option<FileDiff>,
    /// Binary on either side: staged or unstaged only as a whole file.
    pub binary: bool,
}

/// Stage (or unstage) hunks of one file, or all of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GitStageRequest {
    pub path: String,
    /// `false`: stage from the unstaged diff; `true`: unstage from the staged diff.
    #[serde(default)]
    pub unstage: bool,
    /// Indices into that side's hunks; `None` stages (or unstages) the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hunks: Option<Vec<u32>>,
    /// That side's unified text as shown; refused when the file changed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shown_diff: Option<String>,
}

/// A staged file that looks like it holds a secret, found before a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SecretFlag {
    pub path: String,
    /// The staged line it was seen on (`None`: the file's name gave it away).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub line: Option<u32>,
    pub looks_like: SecretKind,
}

/// What a flagged file looks like it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    EnvFile,
    SshKey,
    KeyStore,
    CredentialsFile,
    PrivateKey,
    AwsKey,
    ForgeToken,
    ProviderKey,
    GoogleKey,
    SlackToken,
}

/// What a commit would take, asked before the commit form opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommitPreview {
    /// Staged files, relative to the repository's top.
    pub files: Vec<String>,
    pub flagged: Vec<SecretFlag>,
    /// Why a commit cannot be made now (nothing staged, a merge in progress, no identity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<Phrase>")]
    pub blocked: Option<Phrase>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommitRequest {
    pub message: String,
    /// Commit although staged files were flagged as secrets: the person saw the flags.
    #[serde(default)]
    pub allow_flagged: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommitResult {
    /// The new commit, abbreviated.
    pub commit: String,
    /// Its first line.
    pub summary: String,
    /// What git (and the repository's hooks) printed.
    pub output: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PushRequest {
    /// The remote to push to and set as upstream, for a branch without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remote: Option<String>,
    /// Force (with lease): only after a confirmation naming `remote` and branch.
    #[serde(default)]
    pub force: bool,
}

/// What a push did, or why it needs an answer first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PushResult {
    Pushed {
        remote: String,
        branch: String,
        /// Whether this push set the branch's upstream.
        set_upstream: bool,
        output: String,
    },
    /// The branch has no upstream: which remote? (`remotes` is empty when there is none.)
    ChooseRemote {
        branch: String,
        remotes: Vec<String>,
    },
    /// The remote refused it; `reason` says why and what to do, `output` is git's.
    Rejected {
        remote: String,
        branch: String,
        #[ts(as = "Phrase")]
        reason: Phrase,
        output: String,
    },
}

/// The forge command line that opens a pull request, or the page to open one in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PullRequestPlan {
    pub title: String,
    pub body: String,
    /// The command Memo runs (`gh pr create …`, `glab mr create …`): argv, not a shell
    /// line. Empty when no forge CLI is installed.
    pub command: Vec<String>,
    /// The remote's compare page, for a forge whose CLI is not installed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub compare_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PullRequestRequest {
    pub title: String,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PullRequestResult {
    /// The pull request's address as the CLI printed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
    pub output: String,
}
