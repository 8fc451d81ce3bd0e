//! A file watcher over the workspace's (not ignored) folders. The scan compares `stat`s,
//! which misses a rewrite that keeps size and mtime (`cp -p`, `touch -r`, `rsync -t`, a
//! coarse-mtime filesystem); a path the watcher reported is hashed again whatever its
//! stat says. It also lets the tracker skip the scan before a tool call when nothing
//! moved since the last one. Without a watcher (no inotify, watch limit reached) every
//! check scans; nothing depends on it for correctness beyond those rewrites.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

#[derive(Default)]
struct Seen {
    paths: HashSet<PathBuf>,
    /// New folders to watch at the next scan.
    new_dirs: Vec<PathBuf>,
    /// An event without paths, or a queue overflow: anything may have changed.
    everything: bool,
}

pub struct Watch {
    watcher: RecommendedWatcher,
    watched: HashSet<PathBuf>,
    seen: Arc<Mutex<Seen>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the watcher saw since the last [`Watch::take`].
pub struct Observed {
    pub paths: HashSet<PathBuf>,
    pub everything: bool,
}

impl Observed {
    pub fn quiet(&self) -> bool {
        !self.everything && self.paths.is_empty()
    }
}

impl Watch {
    pub fn start() -> Option<Watch> {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let sink = seen.clone();
        let watcher = notify::recommended_watcher(move |event: notify::Result<Event>| {
            let mut seen = lock(&sink);
            match event {
                Ok(event) => {
                    // Opening and reading (the scan itself reads files) change nothing.
                    if let EventKind::Access(kind) = event.kind {
                        if !matches!(kind, AccessKind::Close(AccessMode::Write)) {
                            return;
                        }
                    }
                    if event.need_rescan() || event.paths.is_empty() {
                        seen.everything = true;
                    }
                    if matches!(event.kind, EventKind::Create(_)) {
                        seen.new_dirs
                            .extend(event.paths.iter().filter(|p| p.is_dir()).cloned());
                    }
                    seen.paths.extend(event.paths);
                }
                Err(_) => seen.everything = true,
            }
        })
        .map_err(|error| tracing::debug!(%error, "no file watcher; checkpoints scan instead"))
        .ok()?;
        Some(Watch {
            watcher,
            watched: HashSet::new(),
            seen,
        })
    }

    /// Watches each of `dirs` (not recursively: ignored folders such as `target/` or
    /// `node_modules/` would cost thousands of watches). Returns false when the system's
    /// watch limit is reached; the caller then drops the watcher.
    pub fn cover(&mut self, dirs: impl IntoIterator<Item = PathBuf>) -> bool {
        for dir in dirs {
            if self.watched.contains(&dir) {
                continue;
            }
            if let Err(error) = self.watcher.watch(&dir, RecursiveMode::NonRecursive) {
                tracing::debug!(%error, dir = %dir.display(), "cannot watch a folder");
                return false;
            }
            self.watched.insert(dir);
        }
        true
    }

    /// What changed since the last call; folders created since then get watched.
    pub fn take(&mut self) -> Observed {
        let (paths, everything, new_dirs) = {
            let mut seen = lock(&self.seen);
            (
                std::mem::take(&mut seen.paths),
                std::mem::replace(&mut seen.everything, false),
                std::mem::take(&mut seen.new_dirs),
            )
        };
        let everything = everything || !self.cover(new_dirs);
        Observed { paths, everything }
    }

    /// The folders holding `files` (relative paths) under `root`, and `root` itself.
    pub fn dirs_of<'a>(root: &Path, files: impl Iterator<Item = &'a String>) -> HashSet<PathBuf> {
        let mut dirs: HashSet<PathBuf> = HashSet::new();
        dirs.insert(root.to_path_buf());
        for file in files {
            let mut at = Path::new(file.as_str()).parent();
            while let Some(dir) = at {
                if dir.as_os_str().is_empty() || !dirs.insert(root.join(dir)) {
                    break;
                }
                at = dir.parent();
            }
        }
        dirs
    }
}
