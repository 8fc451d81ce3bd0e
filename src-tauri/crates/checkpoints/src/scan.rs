//! Lists the files of a workspace with what `stat` says about them: every file git would
//! see (tracked or untracked, `.gitignore` and `.git/info/exclude` honoured, hidden files
//! included), never anything inside `.git`.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};

/// What `stat` says; equal stats are taken to mean equal content (as git does), except
/// for files written in the same instant as the last scan (see the tracker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub size: u64,
    pub mtime_ns: i64,
    pub ino: u64,
    pub mode: u32,
}

impl Stat {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        Stat {
            size: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ino: meta.ino(),
            mode: meta.mode(),
        }
    }
}

/// Relative `/`-separated path → stat, for every regular file under `root`. Symbolic
/// links are left out: restoring one could write outside the workspace.
pub fn scan(root: &Path) -> HashMap<String, Stat> {
    let found = Mutex::new(Vec::new());
    let walker = WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .ignore(false)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| entry.file_name() != ".git")
        .build_parallel();
    walker.run(|| {
        let mut batch = Batch {
            local: Vec::new(),
            found: &found,
        };
        Box::new(move |entry| {
            if let Ok(entry) = entry {
                if is_restore_temp(entry.file_name()) {
                    remove_if_orphaned(entry.path());
                } else if entry.file_type().is_some_and(|t| t.is_file()) {
                    if let (Ok(meta), Some(rel)) = (entry.metadata(), relative(root, entry.path()))
                    {
                        batch.local.push((rel, Stat::of(&meta)));
                    }
                }
            }
            WalkState::Continue
        })
    });
    let files = found.into_inner().unwrap_or_else(|p| p.into_inner());
    files.into_iter().collect()
}

/// One walker thread's finds, handed over once when the thread is done (a lock per file
/// would serialise the threads).
struct Batch<'a> {
    local: Vec<(String, Stat)>,
    found: &'a Mutex<Vec<(String, Stat)>>,
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        lock(self.found).append(&mut self.local);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let text = rel.to_str()?;
    (!text.is_empty()).then(|| text.to_owned())
}

/// Marker in the name of a restore's temporary file (see [`crate::restore::write_atomic`]).
pub const RESTORE_TEMP: &str = ".memo-restore-";

fn is_restore_temp(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.contains(RESTORE_TEMP))
}

/// A restore killed between writing its temporary file and renaming it leaves the file
/// behind; it is never shown as a change, and removed once its process is gone.
fn remove_if_orphaned(path: &Path) {
    let pid = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.rsplit(RESTORE_TEMP).next())
        .and_then(|p| p.parse::<u32>().ok());
    if let Some(pid) = pid {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(path);
        }
    }
}
