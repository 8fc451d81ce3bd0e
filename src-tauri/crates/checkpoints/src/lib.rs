//! Checkpoints of a workspace's files, so that whatever the agent changed — with its own
//! tools, a shell command, an MCP server — can be reviewed and put back.
//!
//! A [`Checkpoints`] store lives under `$MEMO_HOME/checkpoints`: `blobs/` holds every
//! version of every file it has seen, content-addressed, compressed and deduplicated
//! (close versions as line deltas); `checkpoints.db` holds, per workspace, what each file
//! held at the last scan, and the checkpoints: which files changed between two scans, from
//! what to what, and what made the change. Nothing is ever written inside the workspace or
//! its `.git` except by a restore or a revert the user asked for.
//!
//! The engine scans before each turn and around each mutating tool call; a scan costs a
//! `stat` per file plus reading the files whose stat changed (see [`tracker`]).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod blobs;
mod content;
mod db;
mod delta;
mod error;
mod prune;
mod restore;
mod scan;
mod tracker;
mod watch;

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::Connection;

pub use blobs::BlobId;
pub use content::{Change, Content};
pub use db::{CheckpointRow, Meta};
pub use error::{CheckpointError, Result};
pub use prune::PruneReport;
pub use restore::{write_atomic, Action, Item};
pub use tracker::Recorded;

use blobs::BlobStore;
use tracker::Tracker;

/// How much is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Larger files are recorded as changed but not kept (not restorable).
    pub max_file_bytes: u64,
    /// Checkpoints older than this are pruned.
    pub max_age_days: u32,
    /// Past this, the oldest checkpoints are pruned until the store fits.
    pub max_total_bytes: u64,
    /// A workspace with more files than this is not tracked at all (a home directory
    /// opened as a project would otherwise be copied whole).
    pub max_files: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 2 * 1024 * 1024,
            max_age_days: 30,
            max_total_bytes: 2 * 1024 * 1024 * 1024,
            max_files: 200_000,
        }
    }
}

/// The files of one path across a range of checkpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSpan {
    pub path: String,
    /// Before the first change of the range.
    pub before: Content,
    pub before_mode: u32,
    /// After the last change of the range.
    pub after: Content,
    /// After Memo's last own change (a tool's or a review's; a restore gives back whose
    /// the content it puts back was): a file holding anything else was changed since by
    /// someone else.
    pub agent_after: Content,
    /// What made the changes, in order, without repeats.
    pub sources: Vec<String>,
}

/// What [`Checkpoints::write_reviewed`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviewed {
    /// The file no longer held what the caller expected; nothing was written.
    Stale,
    /// Written; `checkpoint` records it (`None` when the bytes were already there).
    Written { checkpoint: Option<u64> },
}

/// What a restore did.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The checkpoint recording the restore (restoring from it undoes the restore).
    pub checkpoint: Option<u64>,
    pub items: Vec<Item>,
}

#[derive(Clone)]
pub struct Checkpoints {
    inner: Arc<Inner>,
}

struct Inner {
    conn: Mutex<Connection>,
    blobs: BlobStore,
    limits: Limits,
    trackers: Mutex<HashMap<PathBuf, Arc<Mutex<Tracker>>>>,
    /// Workspaces found too large to track, with why: later scans stop at once instead
    /// of walking a home directory again on every tool call.
    untracked: Mutex<HashMap<PathBuf, String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Checkpoints {
    /// Opens (creating) the store in `dir`, normally `$MEMO_HOME/checkpoints`.
    pub fn open(dir: &Path, limits: Limits) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(CheckpointError::io("create", dir))?;
        let conn = db::open(&dir.join("checkpoints.db"))?;
        let blobs = BlobStore::open(dir.join("blobs"))?;
        Ok(Checkpoints {
            inner: Arc::new(Inner {
                conn: Mutex::new(conn),
                blobs,
                limits,
                trackers: Mutex::new(HashMap::new()),
                untracked: Mutex::new(HashMap::new()),
            }),
        })
    }

    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// One tracker per workspace, shared by every session working in it.
    fn tracker(&self, root: &Path) -> Result<Arc<Mutex<Tracker>>> {
        let root = std::fs::canonicalize(root).map_err(CheckpointError::io("open", root))?;
        let mut trackers = lock(&self.inner.trackers);
        if let Some(t) = trackers.get(&root) {
            return Ok(t.clone());
        }
        let tracker = Tracker::load(&lock(&self.inner.conn), root.clone())?;
        let tracker = Arc::new(Mutex::new(tracker));
        trackers.insert(root, tracker.clone());
        Ok(tracker)
    }

    /// Makes sure every file of the workspace has a stored copy (the first scan of a
    /// workspace reads all of it; later ones read what changed). Cheap when done.
    pub fn prepare(&self, root: &Path, meta: &Meta) -> Result<Option<Recorded>> {
        self.record(root, meta, false)
    }

    /// Scans the workspace and records what changed since the last scan under `meta`.
    /// `skip_if_quiet`: skip the scan when the file watcher saw nothing since the last one.
    pub fn record(
        &self,
        root: &Path,
        meta: &Meta,
        skip_if_quiet: bool,
    ) -> Result<Option<Recorded>> {
        let tracker = self.tracker(root)?;
        let mut tracker = lock(&tracker);
        let mut conn = lock(&self.inner.conn);
        self.scan(&mut tracker, &mut conn, meta, skip_if_quiet)
    }

    /// One scan of a locked tracker with the store's limits.
    fn scan(
        &self,
        tracker: &mut Tracker,
        conn: &mut Connection,
        meta: &Meta,
        skip_if_quiet: bool,
    ) -> Result<Option<Recorded>> {
        if let Some(reason) = lock(&self.inner.untracked).get(tracker.root()) {
            return Err(CheckpointError::Untracked(reason.clone()));
        }
        let scanned = tracker.scan(
            conn,
            &self.inner.blobs,
            &self.inner.limits,
            meta,
            skip_if_quiet,
        );
        if let Err(error @ CheckpointError::TooManyFiles { .. }) = &scanned {
            lock(&self.inner.untracked).insert(tracker.root().to_path_buf(), error.to_string());
        }
        scanned
    }

    /// Why `root` is not tracked, when a scan found it too large.
    pub fn untracked_reason(&self, root: &Path) -> Option<String> {
        let root = std::fs::canonicalize(root).ok()?;
        lock(&self.inner.untracked).get(&root).cloned()
    }

    /// Points a checkpoint at the session event that announced it.
    pub fn set_seq(&self, id: u64, seq: u64) -> Result<()> {
        db::set_seq(&lock(&self.inner.conn), id, seq)
    }

    /// A session's checkpoints, oldest first, including changes made outside Memo.
    pub fn list(&self, session_id: &str) -> Result<Vec<CheckpointRow>> {
        db::session_checkpoints(&lock(&self.inner.conn), session_id, 0, None, true)
    }

    /// The first checkpoint recorded after session event `seq` (restoring from it puts
    /// the files back as they were at that event).
    pub fn first_after_seq(&self, session_id: &str, seq: u64) -> Result<Option<u64>> {
        db::first_after_seq(&lock(&self.inner.conn), session_id, seq)
    }

    /// Every file the session's agent changed (in one turn, or in all), with its content
    /// before the first change and after the last.
    pub fn changed_files(&self, session_id: &str, turn_id: Option<&str>) -> Result<Vec<FileSpan>> {
        let rows = db::session_checkpoints(&lock(&self.inner.conn), session_id, 0, turn_id, false)?;
        Ok(restore::spans(&rows)
            .into_iter()
            .map(|(path, span)| FileSpan {
                path,
                before: span.first_before,
                before_mode: span.first_mode,
                after: span.last_after,
                agent_after: span.agent_after,
                sources: span.sources,
            })
            .collect())
    }

    /// The bytes of a recorded content (`None` when absent or not kept).
    pub fn read(&self, content: &Content) -> Result<Option<Vec<u8>>> {
        match content {
            Content::Blob(id) => self.inner.blobs.get(id).map(Some),
            _ => Ok(None),
        }
    }

    /// What restoring from checkpoint `from_id` would do, after a scan so that "now" is
    /// really now. Changes found by that scan are recorded as made outside Memo.
    pub fn plan_restore(&self, root: &Path, from_id: u64, meta: &Meta) -> Result<Vec<Item>> {
        let tracker = self.tracker(root)?;
        let mut tracker = lock(&tracker);
        let mut conn = lock(&self.inner.conn);
        self.plan_locked(&mut tracker, &mut conn, from_id, meta)
    }

    fn plan_locked(
        &self,
        tracker: &mut Tracker,
        conn: &mut Connection,
        from_id: u64,
        meta: &Meta,
    ) -> Result<Vec<Item>> {
        let outside = meta.outside();
        self.scan(tracker, conn, &outside, false)?;
        let rows = db::session_checkpoints(conn, &meta.session_id, from_id, None, false)?;
        let rows: Vec<CheckpointRow> = rows
            .into_iter()
            .filter(|r| r.root == tracker.key())
            .collect();
        Ok(restore::plan(
            &rows,
            |path| tracker.known(path),
            |content| {
                content
                    .blob()
                    .is_some_and(|id| self.inner.blobs.contains(id))
            },
        ))
    }

    /// Restores the session's changes from checkpoint `from_id` on (see [`restore`]).
    /// Conflicting files are overwritten only when named in `overwrite`. The restore is
    /// recorded as a checkpoint first (pending until every file is written), so a restore
    /// killed half-way loses nothing: each file is the old or the new version, and the
    /// checkpoint can undo what was written.
    pub fn restore(
        &self,
        root: &Path,
        from_id: u64,
        overwrite: &HashSet<String>,
        meta: &Meta,
    ) -> Result<Restored> {
        self.restore_where(root, from_id, None, overwrite, meta)
    }

    /// [`Checkpoints::restore`] of the files in `only` alone: undoing one reviewed write
    /// leaves what the agent changed in other files since then as it is.
    pub fn restore_only(
        &self,
        root: &Path,
        from_id: u64,
        only: &HashSet<String>,
        overwrite: &HashSet<String>,
        meta: &Meta,
    ) -> Result<Restored> {
        self.restore_where(root, from_id, Some(only), overwrite, meta)
    }

    fn restore_where(
        &self,
        root: &Path,
        from_id: u64,
        only: Option<&HashSet<String>>,
        overwrite: &HashSet<String>,
        meta: &Meta,
    ) -> Result<Restored> {
        let tracker = self.tracker(root)?;
        let mut tracker = lock(&tracker);
        let mut conn = lock(&self.inner.conn);
        let mut items = self.plan_locked(&mut tracker, &mut conn, from_id, meta)?;
        if let Some(only) = only {
            items.retain(|i| only.contains(&i.path));
        }
        let chosen: Vec<Item> = restore::to_perform(&items, overwrite)
            .into_iter()
            .cloned()
            .collect();
        if chosen.is_empty() {
            return Ok(Restored {
                checkpoint: None,
                items,
            });
        }
        let changes: Vec<Change> = chosen
            .iter()
            .map(|i| Change {
                path: i.path.clone(),
                before: i.current.clone(),
                after: i.target.clone(),
                before_mode: tracker.known_mode(&i.path),
                after_mode: i.target_mode,
            })
            .collect();
        let restore_meta = Meta {
            source: "restore".into(),
            call_id: None,
            ..meta.clone()
        };
        let id = db::commit(
            &mut conn,
            db::Commit {
                root: tracker.key(),
                scan_ns: db::now_ns(),
                meta: Some(&restore_meta),
                state: "pending",
                changes: &changes,
                upserts: Vec::new(),
                deletes: Vec::new(),
            },
        )?
        .ok_or_else(|| CheckpointError::Damaged {
            id: String::new(),
            reason: "the restore checkpoint was not recorded".into(),
        })?;
        let root = tracker.root().to_path_buf();
        let mut written = Vec::new();
        for item in &chosen {
            let outcome = self.put_back(&root, item);
            let final_action = match outcome {
                Ok(()) => {
                    written.push((
                        item.path.clone(),
                        tracker.note_written(&item.path, item.target.clone()),
                    ));
                    if item.target.is_absent() {
                        Action::Delete
                    } else {
                        Action::Write
                    }
                }
                Err(error) => {
                    tracing::warn!(path = %item.path, %error, "could not restore a file");
                    if let Some(i) = items.iter_mut().find(|i| i.path == item.path) {
                        i.detail = Some(error.to_string());
                        i.action = Action::NotRestorable;
                    }
                    continue;
                }
            };
            if let Some(i) = items.iter_mut().find(|i| i.path == item.path) {
                i.action = final_action;
            }
        }
        let upserts: Vec<(&str, &db::Known)> = written
            .iter()
            .filter_map(|(p, k)| k.as_ref().map(|k| (p.as_str(), k)))
            .collect();
        let deletes: Vec<&str> = written
            .iter()
            .filter(|(_, k)| k.is_none())
            .map(|(p, _)| p.as_str())
            .collect();
        db::commit(
            &mut conn,
            db::Commit {
                root: tracker.key(),
                scan_ns: db::now_ns(),
                meta: None,
                state: "done",
                changes: &[],
                upserts,
                deletes,
            },
        )?;
        db::set_state(&conn, id, "done")?;
        Ok(Restored {
            checkpoint: Some(id),
            items,
        })
    }

    fn put_back(&self, root: &Path, item: &Item) -> Result<()> {
        let path = inside(root, &item.path)?;
        match &item.target {
            Content::Absent => match std::fs::remove_file(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(CheckpointError::io("remove", &path)(e)),
            },
            Content::Blob(id) => {
                let bytes = self.inner.blobs.get(id)?;
                write_atomic(&path, &bytes, Some(item.target_mode))
            }
            Content::Large { .. } => Err(CheckpointError::Damaged {
                id: String::new(),
                reason: "over the size cap: no stored copy".into(),
            }),
        }
    }

    /// Writes a file the user reviewed (a reverted hunk) and records it under `meta`;
    /// changes made since the last scan are recorded first as made outside Memo.
    /// `expected` is what the caller based the new content on; the write is refused
    /// ([`Reviewed::Stale`]) when the file no longer holds it. The checkpoint of the write
    /// is what [`Checkpoints::restore_only`] takes to undo it.
    pub fn write_reviewed(
        &self,
        root: &Path,
        path: &str,
        expected: &Content,
        bytes: Option<&[u8]>,
        meta: &Meta,
    ) -> Result<Reviewed> {
        let tracker = self.tracker(root)?;
        let mut tracker = lock(&tracker);
        let mut conn = lock(&self.inner.conn);
        let outside = meta.outside();
        self.scan(&mut tracker, &mut conn, &outside, false)?;
        if tracker.known(path) != *expected {
            return Ok(Reviewed::Stale);
        }
        let full = inside(tracker.root(), path)?;
        match bytes {
            Some(bytes) => {
                let mode = Some(tracker.known_mode(path)).filter(|m| *m != 0);
                write_atomic(&full, bytes, mode)?;
            }
            None => std::fs::remove_file(&full).map_err(CheckpointError::io("remove", &full))?,
        }
        let recorded = self.scan(&mut tracker, &mut conn, meta, false)?;
        Ok(Reviewed::Written {
            checkpoint: recorded.map(|r| r.id),
        })
    }

    /// Drops checkpoints past the age and size limits and the copies no one needs.
    pub fn prune(&self) -> Result<PruneReport> {
        let mut conn = lock(&self.inner.conn);
        prune::prune(&mut conn, &self.inner.blobs, &self.inner.limits)
    }

    /// Bytes the stored copies take on disk.
    pub fn storage_bytes(&self) -> u64 {
        self.inner.blobs.list().iter().map(|(_, size)| size).sum()
    }
}

/// `root/rel`, refusing anything that could leave the workspace.
fn inside(root: &Path, rel: &str) -> Result<PathBuf> {
    let path = Path::new(rel);
    if path.is_absolute()
        || path
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(CheckpointError::Damaged {
            id: String::new(),
            reason: format!("{rel} is not a path inside the workspace"),
        });
    }
    Ok(root.join(path))
}
