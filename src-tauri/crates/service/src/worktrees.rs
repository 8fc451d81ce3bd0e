//! Sessions in their own git worktree: starting one (a new branch and worktree under
//! `$MEMO_HOME/worktrees`, the session's folder inside it), what it changed against the
//! branch it came from, and merging it back, keeping its branch or discarding it.
//!
//! A session's folder is its worktree, so reopening the session (or a fork of it) lands
//! in that worktree again; `worktree_for_session` finds the worktree from the folder. The
//! rules about what may be touched and lost live in `memo-worktrees`.

use std::path::{Path, PathBuf};

use memo_checkpoints::{BlobId, Content};
use memo_engine::changes::{describe, DiffBudget};
use memo_protocol::{
    ErrorCode, KeptBranch, Phrase, SessionId, WorktreeDiff, WorktreeDiscard, WorktreeInfo,
    WorktreeMerge, WorktreeSession, WorktreeState, WorktreeStatus,
};
use memo_worktrees::{DiffSide, WorktreeError, Worktrees};

use crate::error::{Result, ServiceError};
use crate::service::{lock, Service};
use crate::sessions::StartRequest;

/// Largest file side read for a worktree's diff (the changes panel's default cap).
const MAX_DIFF_FILE: u64 = 2 * 1024 * 1024;

/// A session to start in a new worktree of the repository `start.cwd` is in.
#[derive(Debug, Clone, Default)]
pub struct WorktreeSessionRequest {
    /// `cwd` names the repository (or a folder in it); the session starts in the same
    /// folder of the new worktree.
    pub start: StartRequest,
    /// Becomes the branch name, `memo/<name>`; `None` uses the worktree's id.
    pub name: Option<String>,
}

impl Service {
    fn worktrees(&self) -> Result<Worktrees> {
        Ok(Worktrees::new(self.home()?.root()))
    }

    /// Memo's worktrees (of the repository `repo` is in, when given), oldest first.
    pub fn list_worktrees(&self, repo: Option<&Path>) -> Result<Vec<WorktreeInfo>> {
        self.worktrees()?.list(repo).map_err(into_service)
    }

    /// Creates a worktree on a new branch from the repository's HEAD and starts a session
    /// in it. When the session cannot start, the (still empty) worktree is removed again.
    /// Must run inside the Tokio runtime.
    pub fn start_session_in_worktree(
        &self,
        request: WorktreeSessionRequest,
    ) -> Result<WorktreeSession> {
        let worktrees = self.worktrees()?;
        let created = worktrees
            .create(&request.start.cwd, request.name.as_deref())
            .map_err(into_service)?;
        let start = StartRequest {
            cwd: PathBuf::from(&created.session_cwd),
            ..request.start
        };
        let session = match self.start_session(start) {
            Ok(session) => session,
            Err(error) => {
                if let Err(cleanup) = worktrees.discard(&created.id, None) {
                    tracing::warn!(%cleanup, "could not remove the worktree of a session that did not start");
                }
                return Err(error);
            }
        };
        worktrees
            .set_session(&created.id, &session.id)
            .map_err(into_service)?;
        Ok(WorktreeSession {
            session,
            worktree: worktrees.get(&created.id).map_err(into_service)?,
        })
    }

    /// The Memo worktree the session works in, if any (found from its folder, so forks
    /// and reopened sessions find it too).
    pub fn worktree_for_session(&self, id: &SessionId) -> Result<Option<WorktreeInfo>> {
        let cwd = self.session(id)?.cwd;
        self.worktrees()?
            .containing(Path::new(&cwd))
            .map_err(into_service)
    }

    pub fn worktree_status(&self, id: &str) -> Result<WorktreeStatus> {
        self.worktrees()?.status(id).map_err(into_service)
    }

    /// Everything the worktree changed since its branch started (committed or not,
    /// untracked files included), as the changes panel shows files.
    pub fn worktree_diff(&self, id: &str) -> Result<WorktreeDiff> {
        let changes = self
            .worktrees()?
            .diff(id, MAX_DIFF_FILE)
            .map_err(into_service)?;
        let files = changes
            .files
            .into_iter()
            .map(|file| {
                let (before, old) = side(file.base);
                let (after, new) = side(file.now);
                describe(
                    &file.path,
                    &before,
                    old.as_deref(),
                    &after,
                    new.as_deref(),
                    vec!["worktree".into()],
                    DiffBudget::Panel,
                )
            })
            .collect();
        Ok(WorktreeDiff {
            base_commit: changes.base_commit,
            files,
        })
    }

    /// Commits the worktree's uncommitted work with `message` and merges its branch into
    /// the base branch in the main checkout; refused (code `conflict`) rather than
    /// overwrite anything there, and aborted on conflicts.
    pub fn merge_worktree(&self, id: &str, message: &str) -> Result<WorktreeMerge> {
        self.worktrees()?.merge(id, message).map_err(into_service)
    }

    /// Commits the uncommitted work, removes the worktree's folder and keeps its branch,
    /// with the command that publishes it. Sessions open in the worktree are closed.
    pub async fn keep_worktree_branch(&self, id: &str, message: &str) -> Result<KeptBranch> {
        let worktrees = self.worktrees()?;
        let status = worktrees.status(id).map_err(into_service)?;
        if status.worktree.state == WorktreeState::Ready {
            if !status.uncommitted.is_empty() && message.trim().is_empty() {
                return Err(ServiceError::invalid(Phrase::WorktreeNeedsCommitMessage));
            }
            self.close_sessions_in(&status.worktree).await;
        }
        worktrees.keep_branch(id, message).map_err(into_service)
    }

    /// Removes the worktree and deletes its branch. With uncommitted files or unmerged
    /// commits, refused (code `conflict`, the list in the message) unless `confirm` is
    /// exactly `WorktreeStatus::discard_confirmation` as it is now. Sessions open in the
    /// worktree are closed first.
    pub async fn discard_worktree(
        &self,
        id: &str,
        confirm: Option<Vec<String>>,
    ) -> Result<WorktreeDiscard> {
        let worktrees = self.worktrees()?;
        let status = worktrees.status(id).map_err(into_service)?;
        let confirmed = status.discard_confirmation.is_empty()
            || confirm.as_ref() == Some(&status.discard_confirmation);
        // Only stop the sessions when the discard is going ahead; a refusal leaves them.
        if confirmed {
            self.close_sessions_in(&status.worktree).await;
        }
        worktrees
            .discard(id, confirm.as_deref())
            .map_err(into_service)
    }

    /// Drops a worktree whose folder is gone from the list (its branch is kept).
    pub fn forget_worktree(&self, id: &str) -> Result<()> {
        self.worktrees()?.forget(id).map_err(into_service)
    }

    /// Stops the live sessions working in the worktree, so none writes into a folder
    /// being removed.
    async fn close_sessions_in(&self, worktree: &WorktreeInfo) {
        let root = Path::new(&worktree.path);
        let ids: Vec<SessionId> = lock(&self.live).keys().cloned().collect();
        for id in ids {
            let inside = self
                .session(&id)
                .is_ok_and(|s| Path::new(&s.cwd).starts_with(root));
            if inside {
                self.close_session(&id).await;
            }
        }
    }
}

fn side(side: DiffSide) -> (Content, Option<Vec<u8>>) {
    match side {
        DiffSide::Absent => (Content::Absent, None),
        DiffSide::Bytes(bytes) => (Content::Blob(BlobId::of(&bytes)), Some(bytes)),
        DiffSide::Large(size) => (Content::Large { size }, None),
    }
}

/// Each worktree failure as the service reports it: refusals that protect the user's work
/// are `conflict`s (the UI shows them and offers what to do), a git failure is `io`. Said
/// as phrases: a `Refused` carries the crate's own.
fn into_service(error: WorktreeError) -> ServiceError {
    match error {
        WorktreeError::NotARepo(path) => ServiceError::invalid(Phrase::NotInGitRepo {
            path: path.display().to_string(),
        }),
        WorktreeError::NoCommit(path) => ServiceError::invalid(Phrase::RepoHasNoCommit {
            path: path.display().to_string(),
        }),
        WorktreeError::NotFound(id) => ServiceError::not_found(Phrase::WorktreeNotFound { id }),
        WorktreeError::Missing { id, reason } => ServiceError::not_found(Phrase::WorktreeMissing {
            id,
            reason: Box::new(reason),
        }),
        WorktreeError::MergeConflict {
            branch,
            base,
            files,
        } => ServiceError::said(
            ErrorCode::Conflict,
            Phrase::MergeStoppedOnConflicts {
                branch,
                base,
                files: files.join(", "),
            },
        ),
        WorktreeError::NeedsConfirmation {
            ref files,
            ref commits,
            ..
        } => {
            let phrase = match (files.is_empty(), commits.is_empty()) {
                (false, true) => Phrase::DiscardLosesFiles {
                    files: files.join(", "),
                },
                (true, false) => Phrase::DiscardLosesCommits {
                    commits: commits.join("; "),
                },
                (false, false) => Phrase::DiscardLosesBoth {
                    files: files.join(", "),
                    commits: commits.join("; "),
                },
                (true, true) => return ServiceError::Conflict(error.to_string()),
            };
            ServiceError::said(ErrorCode::Conflict, phrase)
        }
        WorktreeError::Refused(phrase) => ServiceError::said(ErrorCode::Conflict, phrase),
        WorktreeError::Registry(config) => ServiceError::Config(config),
        WorktreeError::Io { path, source } => ServiceError::io(path.display(), source),
        WorktreeError::Git { .. } | WorktreeError::GitUnavailable(_) => {
            ServiceError::io("git", std::io::Error::other(error.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    /// The phrases say what the worktree crate says, word for word, in English.
    #[test]
    fn worktree_failures_are_phrases_in_the_crates_english() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let failures = [
            (
                WorktreeError::NotARepo(PathBuf::from("/w")),
                ErrorCode::InvalidInput,
            ),
            (
                WorktreeError::NoCommit(PathBuf::from("/w")),
                ErrorCode::InvalidInput,
            ),
            (WorktreeError::NotFound("w1".into()), ErrorCode::NotFound),
            (
                WorktreeError::Missing {
                    id: "w1".into(),
                    reason: Phrase::FolderGone { path: "/w".into() },
                },
                ErrorCode::NotFound,
            ),
            (
                WorktreeError::MergeConflict {
                    branch: "memo/w1".into(),
                    base: "main".into(),
                    files: s(&["a.txt", "b.txt"]),
                },
                ErrorCode::Conflict,
            ),
            (
                WorktreeError::NeedsConfirmation {
                    files: s(&["a.txt", "b.txt"]),
                    commits: Vec::new(),
                    confirmation: Vec::new(),
                },
                ErrorCode::Conflict,
            ),
            (
                WorktreeError::NeedsConfirmation {
                    files: Vec::new(),
                    commits: s(&["abc123 one", "def456 two"]),
                    confirmation: Vec::new(),
                },
                ErrorCode::Conflict,
            ),
            (
                WorktreeError::NeedsConfirmation {
                    files: s(&["a.txt"]),
                    commits: s(&["abc123 one"]),
                    confirmation: Vec::new(),
                },
                ErrorCode::Conflict,
            ),
            (
                WorktreeError::Refused(Phrase::WorktreeStillThere { path: "/w".into() }),
                ErrorCode::Conflict,
            ),
        ];
        for (failure, code) in failures {
            let english = failure.to_string();
            let error = into_service(failure);
            assert_eq!(error.code(), code, "{english}");
            assert!(error.phrase().is_some(), "{english}");
            assert_eq!(error.to_string(), english);
        }
    }
}
