//! The ways out of a worktree: merge it into its base branch, keep its branch (folder
//! removed) to publish, discard it, or forget one whose folder is gone. Each checks
//! everything it can before changing anything, so a refusal leaves all as it was.

use std::collections::BTreeSet;

use memo_protocol::Phrase;
use memo_protocol::{KeptBranch, WorktreeCommit, WorktreeDiscard, WorktreeMerge, WorktreeState};

use crate::error::{Result, WorktreeError};
use crate::inspect::missing;
use crate::registry::Entry;
use crate::{git, Worktrees};

impl Worktrees {
    /// Commits the worktree's uncommitted work with `message`, then merges its branch into
    /// the base branch in the main checkout. Refused when the main checkout is not on the
    /// base branch, is mid-merge, or has uncommitted changes to files the merge would
    /// change; a merge that conflicts is aborted and its files reported.
    pub fn merge(&self, id: &str, message: &str) -> Result<WorktreeMerge> {
        let owned = self.owned(id)?;
        let entry = &owned.entry;
        if owned.state != WorktreeState::Ready {
            return Err(missing(entry, owned.state));
        }
        let main = &entry.repo_root;
        let Some(base) = entry.base_branch.clone() else {
            return Err(WorktreeError::Refused(Phrase::WorktreeDetachedAtStart {
                path: main.display().to_string(),
            }));
        };
        if !git::branch_exists(main, &base)? {
            return Err(WorktreeError::Refused(Phrase::WorktreeBaseBranchGone {
                base,
            }));
        }
        match git::current_branch(main)? {
            Some(current) if current == base => {}
            Some(current) => {
                return Err(WorktreeError::Refused(
                    Phrase::WorktreeCheckoutOnOtherBranch {
                        path: main.display().to_string(),
                        current,
                        base,
                    },
                ))
            }
            None => {
                return Err(WorktreeError::Refused(Phrase::WorktreeCheckoutDetached {
                    path: main.display().to_string(),
                    base,
                }))
            }
        }
        if git::probe(main, &["rev-parse", "-q", "--verify", "MERGE_HEAD"])?.is_some() {
            return Err(WorktreeError::Refused(Phrase::WorktreeCheckoutMidMerge {
                path: main.display().to_string(),
            }));
        }
        let pending = git::uncommitted(&entry.path)?;
        if !pending.is_empty() && message.trim().is_empty() {
            return Err(commit_message_needed());
        }
        // Everything the merge could write in the main checkout: what the branch changed
        // since it left the base, plus what is about to be committed.
        let branch_ref = format!("refs/heads/{}", entry.branch);
        let mut touched: BTreeSet<String> =
            git::changed_between(main, &format!("refs/heads/{base}...{branch_ref}"))?
                .into_iter()
                .collect();
        touched.extend(pending.iter().map(|f| f.path.clone()));
        let overlap: Vec<String> = git::uncommitted(main)?
            .into_iter()
            .map(|f| f.path)
            .filter(|p| touched.contains(p))
            .collect();
        if !overlap.is_empty() {
            return Err(WorktreeError::Refused(Phrase::WorktreeCheckoutOverlaps {
                path: main.display().to_string(),
                files: overlap.join(", "),
            }));
        }

        let committed = commit_all(entry, message)?;
        let before = git::line(main, &["rev-parse", "HEAD"])?;
        let merged = git::output(main, &["merge", "--no-edit", &entry.branch])?;
        if !merged.ok {
            return Err(self.abort_merge(entry, &base, merged.stderr)?);
        }
        let head = git::line(main, &["rev-parse", "HEAD"])?;
        let files = git::changed_between(main, &format!("{before}..{head}"))?;
        let status = self.status(id)?;
        Ok(WorktreeMerge {
            committed,
            base_branch: base,
            head,
            files,
            status,
        })
    }

    /// After a failed `git merge`: puts the main checkout back as it was and says why.
    fn abort_merge(&self, entry: &Entry, base: &str, stderr: String) -> Result<WorktreeError> {
        let main = &entry.repo_root;
        let conflicts: Vec<String> = git::fields(&git::run(
            main,
            &["diff", "--name-only", "-z", "--diff-filter=U"],
        )?)
        .collect();
        if git::probe(main, &["rev-parse", "-q", "--verify", "MERGE_HEAD"])?.is_some() {
            git::run(main, &["merge", "--abort"])?;
        }
        Ok(if conflicts.is_empty() {
            WorktreeError::Git {
                command: format!("merge {}", entry.branch),
                stderr,
            }
        } else {
            WorktreeError::MergeConflict {
                branch: entry.branch.clone(),
                base: base.to_owned(),
                files: conflicts,
            }
        })
    }

    /// Commits the worktree's uncommitted work with `message`, removes its folder and
    /// keeps its branch, with the command that publishes it.
    pub fn keep_branch(&self, id: &str, message: &str) -> Result<KeptBranch> {
        let owned = self.owned(id)?;
        let entry = &owned.entry;
        if owned.state != WorktreeState::Ready {
            return Err(missing(entry, owned.state));
        }
        if !git::uncommitted(&entry.path)?.is_empty() && message.trim().is_empty() {
            return Err(commit_message_needed());
        }
        let committed = commit_all(entry, message)?;
        // No --force: with everything committed git removes it, and if something is left
        // (a file appearing meanwhile) git refuses rather than delete it.
        let path = entry.path.to_string_lossy().into_owned();
        git::run(&entry.repo_root, &["worktree", "remove", &path])?;
        self.registry.remove(&entry.id)?;
        let remotes: Vec<String> =
            String::from_utf8_lossy(&git::run(&entry.repo_root, &["remote"])?)
                .lines()
                .map(str::to_owned)
                .collect();
        let remote = remotes
            .iter()
            .find(|r| *r == "origin")
            .or_else(|| remotes.first())
            .cloned();
        let push_command = format!(
            "git push -u {} {}",
            remote.as_deref().unwrap_or("<remote>"),
            entry.branch
        );
        Ok(KeptBranch {
            branch: entry.branch.clone(),
            committed,
            remote,
            push_command,
            repo_root: entry.repo_root.display().to_string(),
        })
    }

    /// Removes the worktree and deletes its branch. When that would lose uncommitted files
    /// or unmerged commits, refused unless `confirm` is exactly the current list of them
    /// (`WorktreeStatus::discard_confirmation`); a stale list is refused too.
    pub fn discard(&self, id: &str, confirm: Option<&[String]>) -> Result<WorktreeDiscard> {
        let owned = self.owned(id)?;
        let entry = &owned.entry;
        if owned.state == WorktreeState::Unlinked || !entry.repo_root.is_dir() {
            return Err(missing(entry, owned.state));
        }
        let status = self.status_of(&owned)?;
        let at_risk = &status.discard_confirmation;
        if !at_risk.is_empty() && confirm != Some(at_risk.as_slice()) {
            return Err(WorktreeError::NeedsConfirmation {
                files: status.uncommitted.iter().map(|f| f.path.clone()).collect(),
                commits: status
                    .ahead
                    .iter()
                    .map(|c| format!("{} {}", c.short_sha, c.subject))
                    .collect(),
                confirmation: at_risk.clone(),
            });
        }
        if owned.state == WorktreeState::Ready || self.git_lists(entry) {
            let path = entry.path.to_string_lossy().into_owned();
            git::run(&entry.repo_root, &["worktree", "remove", "--force", &path])?;
        }
        // Only a branch of Memo's: a hand-edited registry must not name one of the user's.
        let ours = entry.branch.starts_with("memo/");
        let (branch_deleted, note) = if !ours {
            (
                false,
                Some(format!(
                    "the branch {} was kept: it is not one of Memo's",
                    entry.branch
                )),
            )
        } else if git::branch_exists(&entry.repo_root, &entry.branch)? {
            match git::output(&entry.repo_root, &["branch", "-D", &entry.branch])? {
                out if out.ok => (true, None),
                out => (
                    false,
                    Some(format!(
                        "the branch {} was kept: {}",
                        entry.branch, out.stderr
                    )),
                ),
            }
        } else {
            (
                false,
                Some(format!("the branch {} was already gone", entry.branch)),
            )
        };
        self.registry.remove(&entry.id)?;
        Ok(WorktreeDiscard {
            branch: entry.branch.clone(),
            branch_deleted,
            note,
        })
    }

    /// Drops a worktree whose folder (or repository) is gone, or that git no longer lists,
    /// from Memo's list. Its branch is kept, and nothing on disk is deleted; git's own
    /// record of a vanished folder is cleared so `git worktree list` agrees.
    pub fn forget(&self, id: &str) -> Result<()> {
        let owned = self.owned(id)?;
        let entry = &owned.entry;
        if owned.state == WorktreeState::Ready {
            return Err(WorktreeError::Refused(Phrase::WorktreeStillThere {
                path: entry.path.display().to_string(),
            }));
        }
        if !entry.path.exists() && self.git_lists(entry) {
            let path = entry.path.to_string_lossy().into_owned();
            if let Err(error) =
                git::run(&entry.repo_root, &["worktree", "remove", "--force", &path])
            {
                // Forgetting must not get stuck on git: the record goes either way.
                tracing::warn!(%error, "could not clear git's record of a missing worktree");
            }
        }
        self.registry.remove(&entry.id)
    }
}

fn commit_message_needed() -> WorktreeError {
    WorktreeError::Refused(Phrase::WorktreeNeedsCommitMessage)
}

/// Commits everything uncommitted in the worktree (untracked files too); `None` when
/// there was nothing.
fn commit_all(entry: &Entry, message: &str) -> Result<Option<WorktreeCommit>> {
    if git::uncommitted(&entry.path)?.is_empty() {
        return Ok(None);
    }
    git::run(&entry.path, &["add", "-A"])?;
    git::run(&entry.path, &["commit", "-q", "-m", message.trim()])?;
    Ok(Some(git::commit(&entry.path, "HEAD")?))
}
