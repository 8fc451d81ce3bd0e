//! What git sees as uncommitted in a workspace, for the changes panel's scopes (through
//! memo-git, which reads with `--no-optional-locks` so that looking never takes the
//! index's lock).

use std::path::Path;

use memo_git::Repo;

pub(crate) fn is_repo(root: &Path) -> bool {
    Repo::is_repo(root)
}

/// Paths (relative to `root`) with uncommitted changes, tracked or untracked, limited to
/// the workspace folder.
pub(crate) fn changed_paths(repo: &Repo) -> Option<Vec<String>> {
    Some(
        repo.status()
            .ok()?
            .files
            .into_iter()
            .map(|f| f.path)
            .collect(),
    )
}
