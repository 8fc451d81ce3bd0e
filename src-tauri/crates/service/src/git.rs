//! What git sees as uncommitted in a workspace, read with `git --no-optional-locks` so
//! that looking never rewrites the index or takes its lock.

use std::path::Path;
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let output = Command::new("git")
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    output.status.success().then_some(output.stdout)
}

pub(crate) fn is_repo(root: &Path) -> bool {
    git(root, &["rev-parse", "--is-inside-work-tree"]).is_some_and(|out| out.starts_with(b"true"))
}

/// Paths (relative to `root`) with uncommitted changes, tracked or untracked, limited to
/// the workspace folder.
pub(crate) fn changed_paths(root: &Path) -> Option<Vec<String>> {
    // Porcelain paths are relative to the top of the repository, whatever the folder.
    let out = git(
        root,
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--",
            ".",
        ],
    )?;
    let mut paths = Vec::new();
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(field) = fields.next() {
        if field.len() < 4 {
            continue;
        }
        let (status, path) = (&field[..2], &field[3..]);
        // A rename or copy names its source in the next field.
        if status[0] == b'R' || status[0] == b'C' {
            fields.next();
        }
        paths.push(String::from_utf8_lossy(path).into_owned());
    }
    // Relative to the workspace when it is a subfolder of the repository.
    let prefix = git(root, &["rev-parse", "--show-prefix"])
        .map(|p| String::from_utf8_lossy(&p).trim().to_owned())
        .unwrap_or_default();
    Some(
        paths
            .into_iter()
            .map(|p| p.strip_prefix(&prefix).map(str::to_owned).unwrap_or(p))
            .collect(),
    )
}

/// The file's content at HEAD (`None`: not in HEAD, e.g. untracked or newly added).
pub(crate) fn head_content(root: &Path, path: &str) -> Option<Vec<u8>> {
    git(root, &["show", &format!("HEAD:./{path}")])
}
