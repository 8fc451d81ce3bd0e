//! Running the `git` CLI and reading its porcelain output.
//!
//! Every call names its folder with `-C`, never relies on the process's working directory,
//! and drops the `GIT_DIR`-style variables a parent process (a git hook, a terminal inside
//! another repository) may have set, which would point git at some other repository. Stdin
//! is closed and no editor can open, so a call can never wait for a person.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use memo_protocol::{WorktreeCommit, WorktreeFile, WorktreeFileStatus};

use crate::error::{Result, WorktreeError};

/// Variables that would make `git -C dir` act on another repository or index.
const REPOSITORY_ENV: [&str; 6] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_PREFIX",
];

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("git");
    for name in REPOSITORY_ENV {
        cmd.env_remove(name);
    }
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_EDITOR", ":")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .stdin(Stdio::null())
        .arg("-C")
        .arg(dir)
        .args(args);
    cmd
}

/// What one git call printed, whether or not it succeeded.
pub(crate) struct Output {
    pub ok: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

pub(crate) fn output(dir: &Path, args: &[&str]) -> Result<Output> {
    let out = command(dir, args)
        .output()
        .map_err(WorktreeError::GitUnavailable)?;
    Ok(Output {
        ok: out.status.success(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
    })
}

/// Runs git; a failure is an error carrying what git said.
pub(crate) fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = output(dir, args)?;
    if out.ok {
        Ok(out.stdout)
    } else {
        Err(WorktreeError::Git {
            command: args.join(" "),
            stderr: out.stderr,
        })
    }
}

/// Runs git and returns its output as one trimmed line.
pub(crate) fn line(dir: &Path, args: &[&str]) -> Result<String> {
    Ok(String::from_utf8_lossy(&run(dir, args)?).trim().to_owned())
}

/// Runs git; `None` when it exits with an error (a question answered "no").
pub(crate) fn probe(dir: &Path, args: &[&str]) -> Result<Option<String>> {
    let out = output(dir, args)?;
    Ok(out
        .ok
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned()))
}

/// NUL-separated fields of `-z` output.
pub(crate) fn fields(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
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
