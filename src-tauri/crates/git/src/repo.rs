//! A repository as seen from one folder of it (a session's folder may be a subfolder).

use std::path::{Path, PathBuf};

use memo_protocol::Phrase;

use crate::error::{GitError, Result};
use crate::run;

/// A repository and the folder it is looked at from. Paths given to and returned by its
/// methods are relative to that folder, `/`-separated.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The repository's top (where its `.git` is).
    pub(crate) top: PathBuf,
    /// The folder's path below the top, with a trailing `/`, or empty.
    pub(crate) prefix: String,
}

impl Repo {
    /// The repository `folder` is in; refused when it is in none.
    pub fn open(folder: &Path) -> Result<Repo> {
        let inside = run::probe(folder, &["rev-parse", "--is-inside-work-tree"])?;
        if inside.as_deref() != Some("true") {
            return Err(GitError::Refused(Phrase::GitNotARepository {
                path: folder.display().to_string(),
            }));
        }
        let top = PathBuf::from(run::line(folder, &["rev-parse", "--show-toplevel"])?);
        let prefix = run::line(folder, &["rev-parse", "--show-prefix"])?;
        Ok(Repo { top, prefix })
    }

    /// Whether `folder` is inside a git work tree.
    pub fn is_repo(folder: &Path) -> bool {
        matches!(
            run::probe(folder, &["rev-parse", "--is-inside-work-tree"]),
            Ok(Some(ref answer)) if answer == "true"
        )
    }

    pub fn top(&self) -> &Path {
        &self.top
    }

    /// A folder-relative path as the repository names it (from its top).
    pub(crate) fn full(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }

    /// A top-relative path as the folder names it; `None` outside the folder.
    pub(crate) fn local(&self, path: &str) -> Option<String> {
        path.strip_prefix(&self.prefix).map(str::to_owned)
    }

    pub(crate) fn git(&self, args: &[&str]) -> Result<Vec<u8>> {
        run::run(&self.top, args)
    }

    pub(crate) fn output(&self, args: &[&str], input: Option<&[u8]>) -> Result<run::Output> {
        run::output_with(&self.top, args, input)
    }

    /// The file's content at HEAD (`None`: not in HEAD, e.g. untracked or newly added).
    pub fn head_content(&self, path: &str) -> Option<Vec<u8>> {
        let spec = format!("HEAD:{}", self.full(path));
        run::output(&self.top, &["show", &spec])
            .ok()
            .filter(|out| out.ok)
            .map(|out| out.stdout)
    }

    /// The branch checked out; `None` on a detached HEAD.
    pub fn branch(&self) -> Result<Option<String>> {
        run::probe(&self.top, &["symbolic-ref", "--short", "-q", "HEAD"])
    }

    /// A git config value as the person's config gives it.
    pub(crate) fn config(&self, key: &str) -> Result<Option<String>> {
        Ok(run::probe(&self.top, &["config", "--get", key])?.filter(|v| !v.is_empty()))
    }
}
