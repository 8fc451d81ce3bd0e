//! Facts about where the agent runs, gathered once per session and handed to templates.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

/// A `git status` that takes longer than this (huge repository, network filesystem) is
/// left out rather than holding up the session start.
const GIT_TIMEOUT: Duration = Duration::from_secs(2);
/// Changed paths listed in the prompt; the count tells the rest.
const GIT_STATUS_LINES: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnvFacts {
    /// Local date, `YYYY-MM-DD`.
    pub date: String,
    pub cwd: String,
    pub workspace_root: String,
    pub os: String,
    pub arch: String,
    pub shell: String,
    pub git: Option<GitFacts>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GitFacts {
    /// `None` on a detached HEAD.
    pub branch: Option<String>,
    /// Upstream tracking as git prints it (`ahead 1, behind 2`), when any.
    pub tracking: Option<String>,
    /// Number of changed or untracked paths.
    pub changed: usize,
    /// The first porcelain lines (`M src/lib.rs`, `?? notes.md`).
    pub status: Vec<String>,
}

impl EnvFacts {
    /// Reads the clock, the process environment and `git status` of `cwd`.
    pub fn detect(cwd: &Path, workspace_root: &Path) -> EnvFacts {
        EnvFacts {
            date: chrono::Local::now().format("%Y-%m-%d").to_string(),
            cwd: cwd.display().to_string(),
            workspace_root: workspace_root.display().to_string(),
            os: std::env::consts::OS.to_owned(),
            arch: std::env::consts::ARCH.to_owned(),
            shell: default_shell(),
            git: git_facts(cwd),
        }
    }

    /// Fixed facts for tests and benchmarks: no clock, no processes.
    pub fn fixed(cwd: &Path, workspace_root: &Path) -> EnvFacts {
        EnvFacts {
            date: "2026-01-01".into(),
            cwd: cwd.display().to_string(),
            workspace_root: workspace_root.display().to_string(),
            os: "linux".into(),
            arch: "x86_64".into(),
            shell: "/bin/bash".into(),
            git: None,
        }
    }
}

fn default_shell() -> String {
    let var = if cfg!(windows) { "COMSPEC" } else { "SHELL" };
    std::env::var(var)
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            if cfg!(windows) {
                "cmd.exe".into()
            } else {
                "/bin/sh".into()
            }
        })
}

fn git_facts(cwd: &Path) -> Option<GitFacts> {
    let output = run_with_timeout(
        Command::new("git").arg("-C").arg(cwd).args([
            "status",
            "--porcelain=v1",
            "--branch",
            "--no-renames",
        ]),
        GIT_TIMEOUT,
    )?;
    Some(parse_git_status(&output))
}

fn parse_git_status(output: &str) -> GitFacts {
    let mut lines = output.lines();
    let mut branch = None;
    let mut tracking = None;
    if let Some(header) = lines.clone().next().and_then(|l| l.strip_prefix("## ")) {
        lines.next();
        let header = header.strip_prefix("No commits yet on ").unwrap_or(header);
        let (name, rest) = match header.split_once(' ') {
            Some((name, rest)) => (name, Some(rest)),
            None => (header, None),
        };
        let name = name.split("...").next().unwrap_or(name);
        if !name.starts_with("HEAD") {
            branch = Some(name.to_owned());
        }
        tracking = rest
            .and_then(|r| r.strip_prefix('['))
            .and_then(|r| r.strip_suffix(']'))
            .map(str::to_owned);
    }
    let changed: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
    GitFacts {
        branch,
        tracking,
        changed: changed.len(),
        status: changed
            .iter()
            .take(GIT_STATUS_LINES)
            .map(|l| l.trim().to_owned())
            .collect(),
    }
}

/// Runs a command, returning its stdout when it succeeds within `timeout`; kills it
/// otherwise.
fn run_with_timeout(command: &mut Command, timeout: Duration) -> Option<String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    // Read on a thread so a chatty child cannot block on a full pipe while we wait.
    let reader = std::thread::spawn(move || {
        let mut buf = String::new();
        let _ = stdout.read_to_string(&mut buf);
        buf
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = reader.join().ok()?;
                return status.success().then_some(out);
            }
            Ok(None) if started.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// The project's root: the nearest ancestor of `cwd` (itself included) holding `.git`,
/// else `cwd`.
pub fn workspace_root(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// The directories from the workspace root down to `cwd`, root first.
pub fn chain(root: &Path, cwd: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd
        .ancestors()
        .take_while(|dir| dir.starts_with(root))
        .map(Path::to_path_buf)
        .collect();
    if dirs.is_empty() {
        dirs.push(cwd.to_path_buf());
    }
    dirs.reverse();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_status_header_and_entries_are_parsed() {
        let facts = parse_git_status(
            "## main...origin/main [ahead 1, behind 2]\n M src/lib.rs\n?? notes.md\n",
        );
        assert_eq!(facts.branch.as_deref(), Some("main"));
        assert_eq!(facts.tracking.as_deref(), Some("ahead 1, behind 2"));
        assert_eq!(facts.changed, 2);
        assert_eq!(facts.status, vec!["M src/lib.rs", "?? notes.md"]);
        let detached = parse_git_status("## HEAD (no branch)\n");
        assert_eq!(detached.branch, None);
        let fresh = parse_git_status("## No commits yet on trunk\n");
        assert_eq!(fresh.branch.as_deref(), Some("trunk"));
    }

    #[test]
    fn chain_runs_from_root_to_cwd() {
        let chain = chain(Path::new("/r"), Path::new("/r/a/b"));
        assert_eq!(
            chain,
            vec![
                PathBuf::from("/r"),
                PathBuf::from("/r/a"),
                PathBuf::from("/r/a/b")
            ]
        );
        assert_eq!(
            super::chain(Path::new("/r"), Path::new("/r")),
            vec![PathBuf::from("/r")]
        );
    }

    #[test]
    fn workspace_root_is_the_nearest_git_ancestor() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("a/b")).unwrap();
        assert_eq!(workspace_root(&repo.join("a/b")), repo);
        let plain = dir.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        assert_eq!(workspace_root(&plain), plain);
    }
}
