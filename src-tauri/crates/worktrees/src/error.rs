//! The crate's one error type. Each refusal says what to do about it: a `Refused` as a
//! phrase, the others through the service's phrases (see memo-service's worktrees).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum WorktreeError {
    #[error("{0} is not inside a git repository")]
    NotARepo(PathBuf),
    #[error("{0} has no commit yet: a worktree starts from a commit, so commit something first")]
    NoCommit(PathBuf),
    /// No such id, or an entry Memo will not touch (outside its folder).
    #[error("Memo created no worktree {0}")]
    NotFound(String),
    /// The worktree's folder (or its repository) is gone; it can only be forgotten.
    #[error("worktree {id} is missing ({reason}); forget it to clear it from the list")]
    Missing {
        id: String,
        reason: memo_protocol::Phrase,
    },
    /// Refused so as not to lose or overwrite anything; the phrase says why (the service
    /// hands it to the window, which words it in the person's language).
    #[error("{0}")]
    Refused(memo_protocol::Phrase),
    /// Discarding would lose work and the confirmation given is not the current list.
    #[error("{}", confirmation_message(.files, .commits))]
    NeedsConfirmation {
        /// Uncommitted files.
        files: Vec<String>,
        /// Unmerged commits, as `<short sha> <subject>`.
        commits: Vec<String>,
        /// What to pass as the confirmation to go ahead.
        confirmation: Vec<String>,
    },
    #[error(
        "merging {branch} into {base} stopped on conflicts in {}; the merge was aborted and {base} is as it was",
        .files.join(", ")
    )]
    MergeConflict {
        branch: String,
        base: String,
        files: Vec<String>,
    },
    /// git ran and failed; `stderr` is what it said.
    #[error("git {command} failed: {stderr}")]
    Git { command: String, stderr: String },
    /// git could not be started at all.
    #[error("cannot run git (is it installed?): {0}")]
    GitUnavailable(#[source] std::io::Error),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `$MEMO_HOME/worktrees.json` could not be read or written (a damaged file is never
    /// written over).
    #[error(transparent)]
    Registry(#[from] memo_config::ConfigError),
}

pub type Result<T, E = WorktreeError> = std::result::Result<T, E>;

impl WorktreeError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| WorktreeError::Io { path, source }
    }
}

fn confirmation_message(files: &[String], commits: &[String]) -> String {
    let mut parts = Vec::new();
    if !files.is_empty() {
        parts.push(format!("uncommitted files: {}", files.join(", ")));
    }
    if !commits.is_empty() {
        parts.push(format!("unmerged commits: {}", commits.join("; ")));
    }
    format!(
        "discarding this worktree would lose {}; confirm with exactly this list to go ahead",
        parts.join(" and ")
    )
}

/// memo-git's runner's failures, as this crate names them.
impl From<memo_git::GitError> for WorktreeError {
    fn from(error: memo_git::GitError) -> Self {
        match error {
            memo_git::GitError::Unavailable(source) => WorktreeError::GitUnavailable(source),
            memo_git::GitError::Failed { command, stderr } => {
                WorktreeError::Git { command, stderr }
            }
            memo_git::GitError::Refused(phrase) => WorktreeError::Refused(phrase),
        }
    }
}
