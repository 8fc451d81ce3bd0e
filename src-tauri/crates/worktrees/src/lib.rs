//! Git worktrees Memo creates so a session can work on its own branch without touching the
//! checkout the user has open.
//!
//! A worktree lives in `$MEMO_HOME/worktrees/<repo>-<id>/` on a new branch `memo/<name>`
//! made from the repository's HEAD; `$MEMO_HOME/worktrees.json` records it. Memo only ever
//! touches a worktree that passes three checks (see [`Worktrees::owned`]): it is in that
//! record, its folder is directly under Memo's folder, and git lists it as a worktree of
//! the recorded repository. A worktree the user made with `git worktree add`, or a record
//! edited to point elsewhere, is never listed, changed or removed.
//!
//! Nothing is lost silently: discarding a worktree with uncommitted files or unmerged
//! commits needs a confirmation equal to the current list of them, merging back refuses
//! to overwrite uncommitted files in the main checkout and aborts on conflicts, and keeping
//! the branch commits first. Everything runs the real `git` CLI, so hooks, config and
//! credentials behave as they do for the user.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod actions;
mod error;
mod git;
mod inspect;
mod registry;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use memo_protocol::{SessionId, WorktreeInfo, WorktreeState};

pub use error::{Result, WorktreeError};
pub use inspect::{DiffFile, DiffSide, WorktreeChanges};

use registry::{Entry, Registry};

/// Longest repository-name part of a worktree's folder name.
const MAX_REPO_NAME: usize = 40;
/// Longest name part of a branch (`memo/<name>`).
const MAX_SLUG: usize = 40;

/// Memo's worktrees, for one Memo home.
pub struct Worktrees {
    /// `$MEMO_HOME/worktrees`, symlinks resolved so it compares with what git prints.
    folder: PathBuf,
    registry: Registry,
}

/// A registry entry that passed the checks, with what git and the disk say about it.
pub(crate) struct Owned {
    pub entry: Entry,
    pub state: WorktreeState,
}

impl Worktrees {
    pub fn new(memo_home: &Path) -> Self {
        Self {
            folder: resolved(&memo_home.join("worktrees")),
            registry: Registry::at(memo_home.join("worktrees.json")),
        }
    }

    /// The folder every worktree Memo creates goes in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    pub fn registry_path(&self) -> &Path {
        self.registry.path()
    }

    /// Creates a worktree of the repository `cwd` is in, on a new branch from its HEAD.
    /// `name` (optional) becomes the branch's name: `memo/<name>`, else `memo/<id>`.
    pub fn create(&self, cwd: &Path, name: Option<&str>) -> Result<WorktreeInfo> {
        let cwd = std::fs::canonicalize(cwd).map_err(WorktreeError::io(cwd))?;
        let repo_root = match git::probe(&cwd, &["rev-parse", "--show-toplevel"])? {
            Some(top) if !top.is_empty() => PathBuf::from(top),
            _ => return Err(WorktreeError::NotARepo(cwd)),
        };
        let base_commit = git::probe(
            &repo_root,
            &["rev-parse", "--verify", "-q", "HEAD^{commit}"],
        )?
        .ok_or_else(|| WorktreeError::NoCommit(repo_root.clone()))?;
        let base_branch = git::current_branch(&repo_root)?;
        let prefix = git::line(&cwd, &["rev-parse", "--show-prefix"])?;

        std::fs::create_dir_all(&self.folder).map_err(WorktreeError::io(&self.folder))?;
        let existing = self.registry.entries()?;
        let repo_name = folder_name_part(&repo_root);
        let (id, path) = loop {
            let id = short_id();
            let path = self.folder.join(format!("{repo_name}-{id}"));
            if !path.exists() && existing.iter().all(|e| e.id != id) {
                break (id, path);
            }
        };
        let branch = self.branch_name(&repo_root, name, &id)?;
        let entry = Entry {
            id: id.clone(),
            repo_root: repo_root.clone(),
            path: path.clone(),
            prefix: prefix.trim_end_matches('/').to_owned(),
            branch: branch.clone(),
            base_branch,
            base_commit: base_commit.clone(),
            created_ms: now_ms(),
            session_id: None,
        };
        // Recorded before git makes it, so a crash in between leaves a record of a missing
        // worktree (forgettable) rather than a worktree nobody knows Memo made.
        self.registry
            .update(|entries| entries.push(entry.clone()))?;
        let path_arg = path.to_string_lossy().into_owned();
        if let Err(error) = git::run(
            &repo_root,
            &["worktree", "add", "-b", &branch, &path_arg, &base_commit],
        ) {
            self.registry.remove(&id)?;
            return Err(error);
        }
        Ok(info(&entry, WorktreeState::Ready))
    }

    /// `memo/<slug of name>` or `memo/<id>`, made unique with the id when taken.
    fn branch_name(&self, repo: &Path, name: Option<&str>, id: &str) -> Result<String> {
        let slug = name.map(slug).filter(|s| !s.is_empty());
        let mut branch = format!("memo/{}", slug.as_deref().unwrap_or(id));
        if git::branch_exists(repo, &branch)? {
            branch = format!("{branch}-{id}");
        }
        if git::probe(repo, &["check-ref-format", "--branch", &branch])?.is_none() {
            branch = format!("memo/{id}");
        }
        Ok(branch)
    }

    /// Memo's worktrees (of the repository `repo` is in, when given), oldest first,
    /// including missing ones so they can be forgotten.
    pub fn list(&self, repo: Option<&Path>) -> Result<Vec<WorktreeInfo>> {
        let repo_root = repo.map(
            |dir| match git::probe(dir, &["rev-parse", "--show-toplevel"]) {
                Ok(Some(top)) if !top.is_empty() => PathBuf::from(top),
                _ => resolved(dir),
            },
        );
        let mut listings = HashMap::new();
        let mut out: Vec<WorktreeInfo> = self
            .registry
            .entries()?
            .into_iter()
            .filter(|e| self.inside(&e.path))
            .filter(|e| repo_root.as_ref().is_none_or(|root| &e.repo_root == root))
            .map(|e| {
                let state = self.state(&e, &mut listings);
                info(&e, state)
            })
            .collect();
        out.sort_by_key(|w| w.created_ms);
        Ok(out)
    }

    /// The worktree with this id, if Memo created it.
    pub fn get(&self, id: &str) -> Result<WorktreeInfo> {
        let owned = self.owned(id)?;
        Ok(info(&owned.entry, owned.state))
    }

    /// The worktree `path` is in (its folder or anything below it), if Memo created it.
    pub fn containing(&self, path: &Path) -> Result<Option<WorktreeInfo>> {
        let path = resolved(path);
        if !path.starts_with(&self.folder) {
            return Ok(None);
        }
        let entry = self
            .registry
            .entries()?
            .into_iter()
            .find(|e| self.inside(&e.path) && path.starts_with(&e.path));
        Ok(entry.map(|e| {
            let state = self.state(&e, &mut HashMap::new());
            info(&e, state)
        }))
    }

    /// Records the session started in the worktree.
    pub fn set_session(&self, id: &str, session: &SessionId) -> Result<()> {
        self.owned(id)?;
        self.registry.update(|entries| {
            for entry in entries.iter_mut().filter(|e| e.id == id) {
                entry.session_id = Some(session.0.clone());
            }
        })
    }

    /// The entry for `id` if it passes the checks: recorded, directly under Memo's folder.
    /// Its state says whether git still lists it; only a `Ready` one is changed on disk.
    pub(crate) fn owned(&self, id: &str) -> Result<Owned> {
        let entry = self
            .registry
            .entries()?
            .into_iter()
            .find(|e| e.id == id && self.inside(&e.path))
            .ok_or_else(|| WorktreeError::NotFound(id.to_owned()))?;
        let state = self.state(&entry, &mut HashMap::new());
        Ok(Owned { entry, state })
    }

    /// Whether `path` is a folder directly in Memo's worktrees folder, symlinks resolved.
    fn inside(&self, path: &Path) -> bool {
        let plain = path.is_absolute()
            && path.components().all(|c| {
                matches!(
                    c,
                    Component::RootDir | Component::Normal(_) | Component::Prefix(_)
                )
            });
        plain
            && path.parent() == Some(self.folder.as_path())
            && resolved(path).parent() == Some(self.folder.as_path())
    }

    /// Ready when the folder exists and git lists it on its own branch; switched to another
    /// branch or a detached HEAD, a commit or removal there could lose work that is on no
    /// branch of Memo's, so it counts as unlinked and is left alone. `listings` caches each
    /// repository's `git worktree list`.
    fn state(
        &self,
        entry: &Entry,
        listings: &mut HashMap<PathBuf, Vec<git::Listed>>,
    ) -> WorktreeState {
        if !entry.path.is_dir() || !entry.repo_root.is_dir() {
            return WorktreeState::Missing;
        }
        let listed = listings
            .entry(entry.repo_root.clone())
            .or_insert_with(|| git::listed_worktrees(&entry.repo_root).unwrap_or_default());
        if listed
            .iter()
            .any(|l| resolved(&l.path) == entry.path && l.branch.as_deref() == Some(&entry.branch))
        {
            WorktreeState::Ready
        } else {
            WorktreeState::Unlinked
        }
    }

    /// Whether git still lists the (missing) worktree, so its record in the repository
    /// needs removing too.
    pub(crate) fn git_lists(&self, entry: &Entry) -> bool {
        entry.repo_root.is_dir()
            && git::listed_worktrees(&entry.repo_root)
                .unwrap_or_default()
                .iter()
                .any(|l| l.path == entry.path || resolved(&l.path) == entry.path)
    }
}

pub(crate) fn info(entry: &Entry, state: WorktreeState) -> WorktreeInfo {
    let session_cwd = if entry.prefix.is_empty() {
        entry.path.clone()
    } else {
        let sub = entry.path.join(&entry.prefix);
        // A subfolder with only untracked files has no counterpart in the worktree.
        if sub.is_dir() {
            sub
        } else {
            entry.path.clone()
        }
    };
    WorktreeInfo {
        id: entry.id.clone(),
        repo_root: entry.repo_root.display().to_string(),
        path: entry.path.display().to_string(),
        session_cwd: session_cwd.display().to_string(),
        branch: entry.branch.clone(),
        base_branch: entry.base_branch.clone(),
        base_commit: entry.base_commit.clone(),
        created_ms: entry.created_ms,
        session_id: entry.session_id.clone().map(SessionId::new),
        state,
    }
}

/// `path` with symlinks resolved as far as it exists (the rest appended as given), so a
/// missing worktree still compares equal to what was recorded.
pub(crate) fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => resolved(parent).join(name),
        _ => path.to_path_buf(),
    }
}

fn short_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..8].to_owned()
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The repository folder's name, kept to letters and digits of any script (a repository
/// called 笔记 gives `笔记-<id>`, not `repo-<id>`), `-`, `_` and `.`: characters Linux
/// and macOS file systems and git take. Spaces, slashes, controls and invisible format
/// characters (bidi overrides) become `-`.
fn folder_name_part(repo_root: &Path) -> String {
    let name: String = repo_root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .take(MAX_REPO_NAME)
        .collect();
    let name = name.trim_matches(|c| c == '.' || c == '-');
    if name.is_empty() {
        "repo".to_owned()
    } else {
        name.to_owned()
    }
}

/// Lowercase letters and digits of any script with single dashes between words: a safe
/// branch-name part (`修复 登录` gives `修复-登录`), at most `MAX_SLUG` bytes, cut at a
/// character boundary. git itself checks the result (`check-ref-format`).
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if out.len() + c.len_utf8() > MAX_SLUG {
                break;
            }
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= MAX_SLUG {
            break;
        }
    }
    out.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_branch_names() {
        assert_eq!(slug("Fix the Login bug!"), "fix-the-login-bug");
        assert_eq!(slug("../../etc"), "etc");
        assert_eq!(slug("  "), "");
        assert_eq!(slug(&"x".repeat(100)).len(), MAX_SLUG);
        assert_eq!(slug("修复 登录的错误！"), "修复-登录的错误");
        assert_eq!(slug("Ünïcode Straße"), "ünïcode-straße");
        // A bidi override is no letter: it never reaches a branch name.
        assert_eq!(slug("a\u{202e}b"), "a-b");
        // Cut at a character boundary, within the byte limit.
        let long = slug(&"中".repeat(100));
        assert!(
            long.len() <= MAX_SLUG && long.chars().all(|c| c == '中'),
            "{long}"
        );
    }

    #[test]
    fn folder_names_keep_to_plain_characters() {
        assert_eq!(folder_name_part(Path::new("/a/my repo")), "my-repo");
        assert_eq!(folder_name_part(Path::new("/a/..")), "repo");
        assert_eq!(folder_name_part(Path::new("/a/我的 笔记")), "我的-笔记");
        assert_eq!(folder_name_part(Path::new("/a/x\u{202e}y")), "x-y");
    }

    #[test]
    fn only_direct_children_of_the_folder_are_inside() {
        let home = tempfile::tempdir().unwrap();
        let w = Worktrees::new(home.path());
        std::fs::create_dir_all(w.folder()).unwrap();
        assert!(w.inside(&w.folder().join("r-1234")));
        assert!(!w.inside(w.folder()));
        assert!(!w.inside(&w.folder().join("a/b")));
        assert!(!w.inside(&w.folder().join("../x")));
        assert!(!w.inside(Path::new("relative")));
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), w.folder().join("link")).unwrap();
        assert!(!w.inside(&w.folder().join("link")));
    }
}
