//! Reading a worktree without changing it: what is uncommitted, which commits its base
//! branch lacks, and both sides of every file changed since the branch started, for a
//! diff the changes panel can show.

use std::collections::BTreeSet;
use std::path::Path;

use memo_protocol::Phrase;
use memo_protocol::{WorktreeCommit, WorktreeFile, WorktreeState, WorktreeStatus};

use crate::error::{Result, WorktreeError};
use crate::registry::Entry;
use crate::{git, info, Owned, Worktrees};

/// One side of a changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffSide {
    Absent,
    Bytes(Vec<u8>),
    /// Over the size limit asked for (or not a plain file): its size, not its bytes.
    Large(u64),
}

/// A file that differs between the branch's start and the worktree now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffFile {
    /// Relative to the worktree's root, `/`-separated.
    pub path: String,
    pub base: DiffSide,
    pub now: DiffSide,
}

/// Every change of a worktree against the commit its branch started from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeChanges {
    pub base_commit: String,
    pub files: Vec<DiffFile>,
}

impl Worktrees {
    /// Uncommitted files, commits ahead of and behind the base branch, and what discarding
    /// would lose.
    pub fn status(&self, id: &str) -> Result<WorktreeStatus> {
        let owned = self.owned(id)?;
        self.status_of(&owned)
    }

    pub(crate) fn status_of(&self, owned: &Owned) -> Result<WorktreeStatus> {
        let entry = &owned.entry;
        let uncommitted = if owned.state == WorktreeState::Ready {
            git::uncommitted(&entry.path)?
        } else {
            Vec::new()
        };
        let (ahead, behind) =
            if entry.repo_root.is_dir() && git::branch_exists(&entry.repo_root, &entry.branch)? {
                let base = base_ref(entry)?;
                let branch = format!("refs/heads/{}", entry.branch);
                let ahead = git::commits(&entry.repo_root, &base, &branch)?;
                let behind = git::line(
                    &entry.repo_root,
                    &["rev-list", "--count", &format!("{branch}..{base}")],
                )?
                .parse()
                .unwrap_or(0);
                (ahead, behind)
            } else {
                (Vec::new(), 0)
            };
        Ok(WorktreeStatus {
            worktree: info(entry, owned.state),
            merged: ahead.is_empty(),
            discard_confirmation: confirmation(&uncommitted, &ahead),
            uncommitted,
            ahead,
            behind,
        })
    }

    /// Both sides of every file that differs between the commit the branch started from
    /// and the worktree's files now (committed or not, untracked files included). Sides
    /// over `max_bytes` are given by size only.
    pub fn diff(&self, id: &str, max_bytes: u64) -> Result<WorktreeChanges> {
        let owned = self.owned(id)?;
        let entry = &owned.entry;
        if owned.state != WorktreeState::Ready {
            return Err(missing(entry, owned.state));
        }
        let dir = &entry.path;
        // Where the branch left its base: the recorded commit, unless the base branch has
        // been merged into the worktree since (then the diff is only the worktree's own).
        let base = match base_ref(entry) {
            Ok(base) => git::probe(dir, &["merge-base", &base, "HEAD"])?
                .filter(|b| !b.is_empty())
                .unwrap_or_else(|| entry.base_commit.clone()),
            Err(_) => entry.base_commit.clone(),
        };
        let mut paths: BTreeSet<String> = git::fields(&git::run(
            dir,
            &["diff", "--name-only", "-z", "--no-renames", &base, "--"],
        )?)
        .collect();
        paths.extend(git::fields(&git::run(
            dir,
            &["ls-files", "--others", "--exclude-standard", "-z"],
        )?));
        let mut files = Vec::new();
        for path in paths {
            let base_side = committed_side(dir, &base, &path, max_bytes)?;
            let now = disk_side(dir, &path, max_bytes);
            // Sides known only by size may differ with the same size: keep those.
            if base_side != now || matches!(now, DiffSide::Large(_)) {
                files.push(DiffFile {
                    path,
                    base: base_side,
                    now,
                });
            }
        }
        Ok(WorktreeChanges {
            base_commit: base,
            files,
        })
    }
}

/// What the branch is compared with: the base branch as it is now, or the commit the
/// worktree started from when there is no base branch (a detached HEAD, a deleted branch).
pub(crate) fn base_ref(entry: &Entry) -> Result<String> {
    match &entry.base_branch {
        Some(branch) if git::branch_exists(&entry.repo_root, branch)? => {
            Ok(format!("refs/heads/{branch}"))
        }
        _ => Ok(entry.base_commit.clone()),
    }
}

/// The error for acting on a worktree that is not `Ready`.
pub(crate) fn missing(entry: &Entry, state: WorktreeState) -> WorktreeError {
    match state {
        WorktreeState::Unlinked => WorktreeError::Refused(Phrase::WorktreeUnlinked {
            path: entry.path.display().to_string(),
            repo: entry.repo_root.display().to_string(),
        }),
        _ => WorktreeError::Missing {
            id: entry.id.clone(),
            reason: if entry.repo_root.is_dir() {
                Phrase::FolderGone {
                    path: entry.path.display().to_string(),
                }
            } else {
                Phrase::RepositoryGone {
                    path: entry.repo_root.display().to_string(),
                }
            },
        },
    }
}

/// What discarding would lose, one line each, in the form the confirmation must repeat.
pub(crate) fn confirmation(files: &[WorktreeFile], commits: &[WorktreeCommit]) -> Vec<String> {
    files
        .iter()
        .map(|f| format!("file {}", f.path))
        .chain(
            commits
                .iter()
                .map(|c| format!("commit {} {}", c.sha, c.subject)),
        )
        .collect()
}

fn committed_side(dir: &Path, rev: &str, path: &str, max_bytes: u64) -> Result<DiffSide> {
    let object = format!("{rev}:{path}");
    let Some(kind) = git::probe(dir, &["cat-file", "-t", &object])? else {
        return Ok(DiffSide::Absent);
    };
    let size: u64 = git::line(dir, &["cat-file", "-s", &object])?
        .parse()
        .unwrap_or(0);
    if kind != "blob" || size > max_bytes {
        return Ok(DiffSide::Large(size));
    }
    Ok(DiffSide::Bytes(git::run(
        dir,
        &["cat-file", "blob", &object],
    )?))
}

fn disk_side(dir: &Path, path: &str, max_bytes: u64) -> DiffSide {
    let full = dir.join(path);
    match std::fs::symlink_metadata(&full) {
        Ok(meta) if meta.is_file() && meta.len() <= max_bytes => match std::fs::read(&full) {
            Ok(bytes) => DiffSide::Bytes(bytes),
            Err(_) => DiffSide::Large(meta.len()),
        },
        // A symlink is diffed as its target's name, as git stores it.
        Ok(meta) if meta.file_type().is_symlink() => std::fs::read_link(&full)
            .map(|t| DiffSide::Bytes(t.to_string_lossy().into_owned().into_bytes()))
            .unwrap_or(DiffSide::Large(0)),
        Ok(meta) => DiffSide::Large(meta.len()),
        Err(_) => DiffSide::Absent,
    }
}
