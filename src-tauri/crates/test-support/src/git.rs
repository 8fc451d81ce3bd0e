//! Real git repositories for tests (worktrees, checkpoints): the `git` CLI run in a folder,
//! and a repository on `main` with its identity set locally, so tests need no global git
//! config and never sign.

use std::path::Path;
use std::process::Command;

/// Runs `git -C dir args…`; panics (a test helper) with git's stderr when it fails.
/// Returns stdout, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("git {args:?} could not run: {e}"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Makes `dir` a repository on `main` whose first commit holds `files` (path, content).
pub fn init_repo(dir: &Path, files: &[(&str, &str)]) {
    git(dir, &["init", "-q", "-b", "main"]);
    for (key, value) in [
        ("user.name", "Test"),
        ("user.email", "test@example.com"),
        ("commit.gpgsign", "false"),
    ] {
        git(dir, &["config", key, value]);
    }
    for (path, content) in files {
        std::fs::write(dir.join(path), content).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "init"]);
}
