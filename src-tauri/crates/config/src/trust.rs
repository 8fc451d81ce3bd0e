//! Workspace trust: which folders may run what their own project files ask for.
//!
//! A project's `.mcp.json` (and the Gemini and Cursor equivalents) names programs to start;
//! opening a folder someone else wrote must not run them unasked. The user's decision is
//! kept per folder in `$MEMO_HOME/trusted_folders.json`, together with the exact list of
//! what the folder would run when it was decided: when that list changes (a new server, a
//! different command), the folder is asked about again, so trusting a repository once does
//! not trust whatever a later commit puts there.
//!
//! A damaged file is reported and treated as "nothing decided" (every folder untrusted);
//! it is never overwritten, so a hand edit gone wrong loses nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::edit::Revision;
use crate::json_file::JsonFile;
use crate::ConfigError;

/// What the user decided for one folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrustRecord {
    pub trusted: bool,
    /// What the folder would run when this was decided (see [`TrustStore::status`]).
    pub items: Vec<String>,
    /// Seconds since the Unix epoch.
    pub decided_at: u64,
}

/// A folder's standing, given what it would run now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustStatus {
    Trusted,
    Untrusted,
    /// Never decided.
    Unasked,
    /// Trusted, but the folder would now run something it did not then.
    Changed,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    #[serde(default)]
    folders: BTreeMap<String, TrustRecord>,
}

/// `$MEMO_HOME/trusted_folders.json`.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: PathBuf,
}

impl TrustStore {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every decision, by folder.
    pub fn list(&self) -> Result<BTreeMap<String, TrustRecord>, ConfigError> {
        Ok(self.read()?.1.folders)
    }

    pub fn record(&self, folder: &Path) -> Result<Option<TrustRecord>, ConfigError> {
        Ok(self.read()?.1.folders.remove(&key(folder)))
    }

    /// The folder's standing for what it would run now (`items`, in any order).
    pub fn status(&self, folder: &Path, items: &[String]) -> Result<TrustStatus, ConfigError> {
        Ok(match self.record(folder)? {
            None => TrustStatus::Unasked,
            Some(r) if !r.trusted => TrustStatus::Untrusted,
            Some(r) if covers(&r.items, items) => TrustStatus::Trusted,
            Some(_) => TrustStatus::Changed,
        })
    }

    /// Records the user's decision about `folder` running `items`.
    pub fn decide(
        &self,
        folder: &Path,
        trusted: bool,
        items: &[String],
    ) -> Result<(), ConfigError> {
        let mut items = items.to_vec();
        items.sort();
        items.dedup();
        let record = TrustRecord {
            trusted,
            items,
            decided_at: now(),
        };
        self.update(|file| {
            file.folders.insert(key(folder), record.clone());
        })
    }

    /// Forgets the decision about `folder`; returns whether there was one.
    pub fn forget(&self, folder: &Path) -> Result<bool, ConfigError> {
        let mut removed = false;
        self.update(|file| removed = file.folders.remove(&key(folder)).is_some())?;
        Ok(removed)
    }

    fn file(&self) -> JsonFile<'_> {
        JsonFile {
            path: &self.path,
            meanwhile: "until then no folder is trusted",
        }
    }

    fn update(&self, change: impl FnMut(&mut TrustFile)) -> Result<(), ConfigError> {
        self.file().update(change)
    }

    fn read(&self) -> Result<(Revision, TrustFile), ConfigError> {
        self.file().read()
    }
}

/// Folders are compared by their canonical path, so `~/p`, `/home/u/p/` and a symlink to
/// it are one folder.
fn key(folder: &Path) -> String {
    std::fs::canonicalize(folder)
        .unwrap_or_else(|_| folder.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// Whether everything the folder would run now was in what the user agreed to (a server
/// removed since is no reason to ask again).
fn covers(agreed: &[String], now: &[String]) -> bool {
    now.iter().all(|item| agreed.contains(item))
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_decision_is_remembered_per_folder_until_what_it_runs_changes() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let store = TrustStore::at(home.path().join("trusted_folders.json"));
        let runs = items(&["mcp server a: node a.js"]);
        assert_eq!(
            store.status(project.path(), &runs).unwrap(),
            TrustStatus::Unasked
        );
        store.decide(project.path(), true, &runs).unwrap();
        assert_eq!(
            store.status(project.path(), &runs).unwrap(),
            TrustStatus::Trusted
        );
        // Through another spelling of the same folder.
        let dotted = project.path().join(".");
        assert_eq!(store.status(&dotted, &runs).unwrap(), TrustStatus::Trusted);
        // Fewer servers: still trusted; a new or different one: asked again.
        assert_eq!(
            store.status(project.path(), &[]).unwrap(),
            TrustStatus::Trusted
        );
        let more = items(&["mcp server a: node a.js", "mcp server b: rm -rf ~"]);
        assert_eq!(
            store.status(project.path(), &more).unwrap(),
            TrustStatus::Changed
        );
        store.decide(project.path(), false, &more).unwrap();
        assert_eq!(
            store.status(project.path(), &more).unwrap(),
            TrustStatus::Untrusted
        );
        assert!(store.forget(project.path()).unwrap());
        assert!(!store.forget(project.path()).unwrap());
        assert_eq!(
            store.status(project.path(), &runs).unwrap(),
            TrustStatus::Unasked
        );
    }

    #[test]
    fn a_damaged_file_is_reported_and_never_overwritten() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("trusted_folders.json");
        std::fs::write(&path, "{ not json").unwrap();
        let store = TrustStore::at(&path);
        let error = store.status(home.path(), &[]).unwrap_err().to_string();
        assert!(error.contains("trusted_folders.json:1:"), "{error}");
        assert!(error.contains("no folder is trusted"), "{error}");
        assert!(store.decide(home.path(), true, &[]).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
    }
}
