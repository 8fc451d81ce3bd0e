//! `$MEMO_HOME/worktrees.json`: every worktree Memo created, written atomically (a
//! temporary file and a rename, re-read and retried when the app and memo-cli write at
//! once). It is the first of the three checks before Memo touches a worktree: the entry
//! must be here, its folder under Memo's, and git must list it (see `Worktrees::owned`).
//! A damaged file is reported and never written over, so nothing it names is lost.

use std::path::{Path, PathBuf};

use memo_config::edit::{write_if_unchanged, Revision};
use memo_config::ConfigError;
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Retries when another Memo process wrote the file in between.
const WRITE_ATTEMPTS: usize = 3;

/// One worktree Memo created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub id: String,
    /// The checkout the worktree was created from (the repository's top folder).
    pub repo_root: PathBuf,
    pub path: PathBuf,
    /// The subfolder of the repository the session was asked for (`""` for its root).
    #[serde(default)]
    pub prefix: String,
    pub branch: String,
    #[serde(default)]
    pub base_branch: Option<String>,
    pub base_commit: String,
    pub created_ms: u64,
    #[serde(default)]
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct RegistryFile {
    #[serde(default)]
    worktrees: Vec<Entry>,
}

pub(crate) struct Registry {
    path: PathBuf,
}

impl Registry {
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn entries(&self) -> Result<Vec<Entry>> {
        Ok(self.read()?.1.worktrees)
    }

    fn read(&self) -> Result<(Revision, RegistryFile)> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Revision::of(None), RegistryFile::default()))
            }
            Err(source) => {
                return Err(ConfigError::Read {
                    path: self.path.clone(),
                    source,
                }
                .into())
            }
        };
        let file = serde_json::from_slice(&bytes).map_err(|e| ConfigError::Invalid {
            path: self.path.clone(),
            line: e.line(),
            column: e.column(),
            key: None,
            message: format!(
                "{e}; fix or delete the file (until then Memo lists no worktree and touches none)"
            ),
        })?;
        Ok((Revision::of(Some(&bytes)), file))
    }

    /// Applies `change` to the entries as they are on disk now and writes them back.
    pub fn update(&self, mut change: impl FnMut(&mut Vec<Entry>)) -> Result<()> {
        let mut attempt = 0;
        loop {
            let (revision, mut file) = self.read()?;
            change(&mut file.worktrees);
            let text = serde_json::to_string_pretty(&file).map_err(|e| ConfigError::Edit {
                path: self.path.clone(),
                message: e.to_string(),
            })?;
            match write_if_unchanged(&self.path, format!("{text}\n").as_bytes(), &revision) {
                Err(ConfigError::Conflict { .. }) if attempt + 1 < WRITE_ATTEMPTS => attempt += 1,
                other => return Ok(other.map(|_| ())?),
            }
        }
    }

    pub fn remove(&self, id: &str) -> Result<()> {
        self.update(|entries| entries.retain(|e| e.id != id))
    }
}
