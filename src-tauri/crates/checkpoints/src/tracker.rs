//! One workspace's files as last seen, and the scan that turns what changed since into a
//! checkpoint. Every file's content at the last scan is in the blob store, so whatever
//! changes it next (one of Memo's tools, a shell command, an MCP server, the user), its
//! earlier content can be put back.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use crate::blobs::{BlobId, BlobStore};
use crate::content::{Change, Content};
use crate::db::{self, Known, Meta};
use crate::error::Result;
use crate::scan::{self, Stat};
use crate::watch::Watch;

/// Files whose mtime is this close to the scan that recorded them are hashed again: a
/// write in the same clock tick leaves the stat unchanged.
const RACY_NS: i64 = 2_000_000_000;

pub struct Tracker {
    root: PathBuf,
    key: String,
    files: HashMap<String, Known>,
    /// When the scan that produced `files` started (0: never scanned).
    last_scan_ns: i64,
    watch: Option<Watch>,
}

/// A checkpoint that recorded changes.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub id: u64,
    pub changes: Vec<Change>,
}

impl Tracker {
    pub(crate) fn load(conn: &Connection, root: PathBuf) -> Result<Tracker> {
        let key = root.to_string_lossy().into_owned();
        let interrupted = db::mark_interrupted(conn, &key)?;
        if interrupted > 0 {
            tracing::warn!(root = %key, "a restore was interrupted; its checkpoint can undo it");
        }
        let (rows, last) = db::load_files(conn, &key)?;
        Ok(Tracker {
            root,
            key,
            files: rows.into_iter().collect(),
            last_scan_ns: last.unwrap_or(0),
            watch: Watch::start(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn key(&self) -> &str {
        &self.key
    }

    /// The content recorded for a file at the last scan.
    pub fn known(&self, path: &str) -> Content {
        self.files
            .get(path)
            .map_or(Content::Absent, |k| k.content.clone())
    }

    pub(crate) fn known_mode(&self, path: &str) -> u32 {
        self.files.get(path).map_or(0, |k| k.stat.mode)
    }

    /// Whether the workspace was scanned before (its files have stored copies): the
    /// first scan is the baseline and records no change.
    pub fn scanned_once(&self) -> bool {
        self.last_scan_ns != 0
    }

    /// Scans the workspace and records what changed since the last scan as a checkpoint
    /// with `meta` (nothing is recorded when nothing changed). `skip_if_quiet` lets a
    /// check right before a tool call cost nothing when the watcher saw no change.
    pub(crate) fn scan(
        &mut self,
        conn: &mut Connection,
        blobs: &BlobStore,
        limits: &crate::Limits,
        meta: &Meta,
        skip_if_quiet: bool,
    ) -> Result<Option<Recorded>> {
        let (max_file_bytes, max_files) = (limits.max_file_bytes, limits.max_files);
        let observed = self.watch.as_mut().map(|w| w.take());
        if skip_if_quiet && self.scanned_once() && observed.as_ref().is_some_and(|o| o.quiet()) {
            return Ok(None);
        }
        let reported: HashSet<String> = observed
            .map(|o| {
                o.paths
                    .iter()
                    .filter_map(|p| scan::relative(&self.root, p))
                    .collect()
            })
            .unwrap_or_default();
        let scan_ns = db::now_ns();
        let now = scan::scan(&self.root);
        if now.len() > max_files {
            return Err(crate::error::CheckpointError::TooManyFiles {
                root: self.root.clone(),
                files: now.len(),
                max: max_files,
            });
        }
        // Files that need reading: new, stat changed, racily clean, or reported.
        let mut to_read: Vec<(&String, &Stat)> = Vec::new();
        for (path, stat) in &now {
            match self.files.get(path) {
                Some(k)
                    if k.stat == *stat
                        && stat.mtime_ns + RACY_NS < self.last_scan_ns
                        && !reported.contains(path) => {}
                _ => to_read.push((path, stat)),
            }
        }
        let read = read_all(&self.root, &to_read, blobs, max_file_bytes, &self.files);
        let mut changes = Vec::new();
        let mut upserts: Vec<(String, Known)> = Vec::new();
        for ((path, stat), content) in to_read.into_iter().zip(read) {
            let content = content?;
            let before = self.files.get(path);
            let same = before.is_some_and(|k| k.content == content && k.stat.mode == stat.mode);
            if !same {
                changes.push(Change {
                    path: path.clone(),
                    before: before.map_or(Content::Absent, |k| k.content.clone()),
                    after: content.clone(),
                    before_mode: before.map_or(0, |k| k.stat.mode),
                    after_mode: stat.mode,
                });
            }
            if before.is_none_or(|k| k.stat != *stat || k.content != content) {
                upserts.push((
                    path.clone(),
                    Known {
                        stat: *stat,
                        content,
                    },
                ));
            }
        }
        let deleted: Vec<String> = self
            .files
            .keys()
            .filter(|p| !now.contains_key(*p))
            .cloned()
            .collect();
        for path in &deleted {
            if let Some(k) = self.files.get(path) {
                changes.push(Change {
                    path: path.clone(),
                    before: k.content.clone(),
                    after: Content::Absent,
                    before_mode: k.stat.mode,
                    after_mode: 0,
                });
            }
        }
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        // The first scan of a workspace is its baseline, not a change anyone made.
        let record = self.scanned_once() && !changes.is_empty();
        let id = db::commit(
            conn,
            db::Commit {
                root: &self.key,
                scan_ns,
                meta: record.then_some(meta),
                state: "done",
                changes: &changes,
                upserts: upserts.iter().map(|(p, k)| (p.as_str(), k)).collect(),
                deletes: deleted.iter().map(String::as_str).collect(),
            },
        )?;
        let first = !self.scanned_once();
        for (path, known) in upserts {
            self.files.insert(path, known);
        }
        for path in &deleted {
            self.files.remove(path);
        }
        self.last_scan_ns = scan_ns;
        if first {
            self.cover_folders();
        }
        Ok(id.map(|id| Recorded { id, changes }))
    }

    fn cover_folders(&mut self) {
        let dirs = Watch::dirs_of(&self.root, self.files.keys());
        if let Some(watch) = self.watch.as_mut() {
            if !watch.cover(dirs) {
                self.watch = None;
            }
        }
    }

    /// After Memo itself wrote or removed `path` (a restore, a revert): the new state,
    /// so the next scan does not report it as someone else's change.
    pub(crate) fn note_written(&mut self, path: &str, content: Content) -> Option<Known> {
        let full = self.root.join(path);
        match std::fs::symlink_metadata(&full) {
            Ok(meta) if meta.is_file() => {
                let known = Known {
                    stat: Stat::of(&meta),
                    content,
                };
                self.files.insert(path.to_owned(), known.clone());
                Some(known)
            }
            _ => {
                self.files.remove(path);
                None
            }
        }
    }
}

/// Reads, hashes and stores each file (on all cores when there are many, as for a
/// workspace's first scan).
fn read_all(
    root: &Path,
    files: &[(&String, &Stat)],
    blobs: &BlobStore,
    cap: u64,
    known: &HashMap<String, Known>,
) -> Vec<Result<Content>> {
    let one = |(path, stat): &(&String, &Stat)| -> Result<Content> {
        let base = known.get(*path).and_then(|k| k.content.blob().cloned());
        read_one(&root.join(path), stat, blobs, cap, base.as_ref())
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if files.len() < 64 || threads == 1 {
        return files.iter().map(one).collect();
    }
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                (
                    part.len(),
                    s.spawn(move || part.iter().map(one).collect::<Vec<_>>()),
                )
            })
            .collect();
        // Results must stay aligned with `files`: a panicked thread yields errors.
        handles
            .into_iter()
            .flat_map(|(len, h)| {
                h.join().unwrap_or_else(|_| {
                    (0..len)
                        .map(|_| {
                            Err(crate::error::CheckpointError::Damaged {
                                id: String::new(),
                                reason: "reading a file panicked".into(),
                            })
                        })
                        .collect()
                })
            })
            .collect()
    })
}

fn read_one(
    path: &Path,
    stat: &Stat,
    blobs: &BlobStore,
    cap: u64,
    base: Option<&BlobId>,
) -> Result<Content> {
    if stat.size > cap {
        return Ok(Content::Large { size: stat.size });
    }
    let bytes = match read_whole(path, stat) {
        Ok(bytes) if bytes.len() as u64 <= cap => bytes,
        Ok(bytes) => {
            return Ok(Content::Large {
                size: bytes.len() as u64,
            })
        }
        // Unreadable (permissions) or gone since the walk: recorded as not restorable.
        Err(_) => return Ok(Content::Large { size: stat.size }),
    };
    let id = BlobId::of(&bytes);
    blobs.put(&id, &bytes, base)?;
    Ok(Content::Blob(id))
}

/// How often a file that changes while it is read is read again, and how long it must
/// hold still to be taken as written.
const TORN_READS: usize = 4;
const TORN_WAIT: std::time::Duration = std::time::Duration::from_millis(10);

/// The file's bytes as they were at one instant. A file someone is writing without
/// renaming (an editor that truncates and rewrites, a formatter streaming into `>`) can be
/// read half written, empty even; restoring such a copy would lose the file. So a read is
/// kept only when the file's stat is the same before and after it and it was last
/// written longer than a moment ago; otherwise it is read again a moment later. A file
/// that never holds still keeps its last read: its stat then differs from the walk's, so
/// the next scan reads it once more.
fn read_whole(path: &Path, walked: &Stat) -> std::io::Result<Vec<u8>> {
    let stat_now = || std::fs::symlink_metadata(path).map(|m| Stat::of(&m));
    let mut before = *walked;
    let mut bytes = std::fs::read(path)?;
    for _ in 0..TORN_READS {
        let after = stat_now()?;
        let fresh = db::now_ns().saturating_sub(after.mtime_ns) < TORN_WAIT.as_nanos() as i64;
        if after == before && !fresh {
            break;
        }
        std::thread::sleep(TORN_WAIT);
        before = stat_now()?;
        bytes = std::fs::read(path)?;
    }
    Ok(bytes)
}
