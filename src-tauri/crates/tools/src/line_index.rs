//! Where line N starts in a file, remembered sparsely so paging through a huge file
//! (offset 1, then 2001, then 4001 …) does not rescan everything before each page.
//!
//! Every [`STRIDE`]th line's byte offset is recorded while a read passes it. Entries are
//! keyed by path and invalidated by any change of inode, size or mtime.

use std::collections::VecDeque;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

/// Lines between checkpoints: small enough that seeking to one leaves little to scan,
/// large enough that a 10-million-line file needs only a few thousand offsets.
pub(crate) const STRIDE: u64 = 4096;
/// Files remembered at once.
const CAPACITY: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

impl FileKey {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }
}

struct Entry {
    path: PathBuf,
    key: FileKey,
    /// `starts[i]` is the byte offset of line `i * STRIDE + 1`; `starts[0] == 0`.
    starts: Vec<u64>,
}

static INDEX: LazyLock<Mutex<VecDeque<Entry>>> = LazyLock::new(|| Mutex::new(VecDeque::new()));

/// The closest known line start at or before `line` (1-based): `(line_no, byte_offset)`.
pub(crate) fn nearest(path: &Path, key: FileKey, line: u64) -> (u64, u64) {
    let Ok(index) = INDEX.lock() else {
        return (1, 0);
    };
    let Some(entry) = index.iter().find(|e| e.path == path && e.key == key) else {
        return (1, 0);
    };
    let slot = ((line.saturating_sub(1)) / STRIDE).min(entry.starts.len() as u64 - 1);
    (slot * STRIDE + 1, entry.starts[slot as usize])
}

/// Records that line `line` (1-based, a multiple of STRIDE plus one) starts at `offset`.
/// Only extends the known prefix; out-of-order records are ignored.
pub(crate) fn record(path: &Path, key: FileKey, line: u64, offset: u64) {
    if line == 0 || !(line - 1).is_multiple_of(STRIDE) {
        return;
    }
    let slot = ((line - 1) / STRIDE) as usize;
    let Ok(mut index) = INDEX.lock() else {
        return;
    };
    let pos = index.iter().position(|e| e.path == path);
    let mut entry = match pos.and_then(|p| index.remove(p)) {
        Some(e) if e.key == key => e,
        _ => Entry {
            path: path.to_path_buf(),
            key,
            starts: vec![0],
        },
    };
    if slot == entry.starts.len() {
        entry.starts.push(offset);
    }
    // Most recently used last; the oldest falls off.
    index.push_back(entry);
    while index.len() > CAPACITY {
        index.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_checkpoints_until_the_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, "x").unwrap();
        let key = FileKey::of(&std::fs::metadata(&p).unwrap());
        assert_eq!(nearest(&p, key, 10_000), (1, 0));
        record(&p, key, STRIDE + 1, 100);
        record(&p, key, 2 * STRIDE + 1, 200);
        record(&p, key, 5, 7); // not a checkpoint line
        assert_eq!(nearest(&p, key, 10), (1, 0));
        assert_eq!(nearest(&p, key, STRIDE + 1), (STRIDE + 1, 100));
        assert_eq!(nearest(&p, key, 100 * STRIDE), (2 * STRIDE + 1, 200));
        let changed = FileKey { len: 2, ..key };
        assert_eq!(nearest(&p, changed, 100 * STRIDE), (1, 0));
    }
}
