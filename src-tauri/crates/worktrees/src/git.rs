//! Reading git's porcelain output for worktrees. git itself is run through memo-git's
//! runner: every call names its folder with `-C`, drops the `GIT_DIR`-style variables a
//! parent process may have set, and can never wait for a person.

use std::path::{Path, PathBuf};

use memo_protocol::{WorktreeCommit, WorktreeFile, WorktreeFileStatus};

use crate::error::Result;

pub(crate) use memo_git::run::{fields, Output};

/// What one git call printed, whether or not it succeeded.
pub(crate) fn output(dir: &Path, args: &[&str]) -> Result<Output> {
    Ok(memo_git::run::output(dir, args)?)
}

/// Runs git; a failure is an error carrying what git said.
pub(crate) fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    Ok(memo_git::run::run(dir, args)?)
}

/// Runs git and returns its output as one trimmed line.
pub(crate) fn line(dir: &Path, args: &[&str]) -> Result<String> {
    Ok(memo_git::run::line(dir, args)?)
}

/// Runs git; `None` when it exits with an error (a question answered "no").
pub(crate) fn probe(dir: &Path, args: &[&str]) -> Result<Option<String>> {
    Ok(memo_git::run::probe(dir, args)?)
}

/// The current branch's short name; `None` on a detached HEAD.
pub(crate) fn current_branch(dir: &Path) -> Result<Option<String>> {
    probe(dir, &["symbolic-ref", "--short", "-q", "HEAD"])
}

pub(crate) fn branch_exists(dir: &Path, branch: &str) -> Result<bool> {
    Ok(probe(
        dir,
        &[
            "show-ref",
            "--verify",
            "--quiet",
            &format!("refs/heads/{branch}"),
        ],
    )?
    .is_some())
}

/// Uncommitted files of a checkout, tracked changes and untracked files alike.
pub(crate) fn uncommitted(dir: &Path) -> Result<Vec<WorktreeFile>> {
    let out = run(
        dir,
        &[
            "--no-optional-locks",
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
        ],
    )?;
    let mut files = Vec::new();
    let mut entries = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(entry) = entries.next() {
        if entry.len() < 4 {
            continue;
        }
        let (x, y) = (entry[0], entry[1]);
        let path = String::from_utf8_lossy(&entry[3..]).into_owned();
        let status = match (x, y) {
            (b'?', b'?') => WorktreeFileStatus::Untracked,
            (b'U', _) | (_, b'U') | (b'A', b'A') | (b'D', b'D') => WorktreeFileStatus::Conflicted,
            (b'R', _) | (_, b'R') | (b'C', _) => WorktreeFileStatus::Renamed,
            (b'D', _) | (_, b'D') => WorktreeFileStatus::Deleted,
            (b'A', _) => WorktreeFileStatus::Added,
            _ => WorktreeFileStatus::Modified,
        };
        // A rename or copy names its source in the next field; it is uncommitted too (its
        // deletion), so a merge touching it must see it.
        if x == b'R' || x == b'C' {
            if let Some(source) = entries.next() {
                files.push(WorktreeFile {
                    path: String::from_utf8_lossy(source).into_owned(),
                    status: WorktreeFileStatus::Deleted,
                });
            }
        }
        files.push(WorktreeFile { path, status });
    }
    Ok(files)
}

/// Commits reachable from `to` but not from `from`, oldest first.
pub(crate) fn commits(dir: &Path, from: &str, to: &str) -> Result<Vec<WorktreeCommit>> {
    let range = format!("{from}..{to}");
    let out = run(
        dir,
        &[
            "log",
            "-z",
            "--reverse",
            "--format=%H%x1f%h%x1f%s",
            &range,
            "--",
        ],
    )?;
    Ok(fields(&out)
        .filter_map(|record| {
            let mut parts = record.trim_start_matches('\n').splitn(3, '\u{1f}');
            Some(WorktreeCommit {
                sha: parts.next()?.to_owned(),
                short_sha: parts.next()?.to_owned(),
                subject: parts.next().unwrap_or_default().to_owned(),
            })
        })
        .collect())
}

/// One commit, as `commits` gives it.
pub(crate) fn commit(dir: &Path, rev: &str) -> Result<WorktreeCommit> {
    let out = line(dir, &["log", "-1", "--format=%H%x1f%h%x1f%s", rev, "--"])?;
    let mut parts = out.splitn(3, '\u{1f}');
    Ok(WorktreeCommit {
        sha: parts.next().unwrap_or_default().to_owned(),
        short_sha: parts.next().unwrap_or_default().to_owned(),
        subject: parts.next().unwrap_or_default().to_owned(),
    })
}

/// One worktree as git lists it.
pub(crate) struct Listed {
    /// Absolute, symlinks resolved when the worktree was added.
    pub(crate) path: PathBuf,
    /// The branch checked out there (`memo/x`); `None` on a detached HEAD.
    pub(crate) branch: Option<String>,
}

/// The worktrees git knows for the repository at `dir` (the main one included).
pub(crate) fn listed_worktrees(dir: &Path) -> Result<Vec<Listed>> {
    let out = run(dir, &["worktree", "list", "--porcelain", "-z"])?;
    let mut listed: Vec<Listed> = Vec::new();
    for field in fields(&out) {
        if let Some(path) = field.strip_prefix("worktree ") {
            listed.push(Listed {
                path: PathBuf::from(path),
                branch: None,
            });
        } else if let (Some(branch), Some(last)) =
            (field.strip_prefix("branch refs/heads/"), listed.last_mut())
        {
            last.branch = Some(branch.to_owned());
        }
    }
    Ok(listed)
}

/// Paths of files that differ between two revisions.
pub(crate) fn changed_between(dir: &Path, range: &str) -> Result<Vec<String>> {
    Ok(fields(&run(
        dir,
        &["diff", "--name-only", "-z", "--no-renames", range, "--"],
    )?)
    .collect())
}
