//! Where line N starts in a file, remembered sparsely so paging through a huge file
//! (offset 1, then 2001, then 4001 …) does not rescan everything before each page.
//!
//! Every [`STRIDE`]th line's byte offset is recorded while a read passes it, and a
//! parallel seek ([`crate::files::line_seek`]) adds one point per chunk it counted. Entries are
//! keyed by path and invalidated by any change of inode, size or mtime.

use std::collections::{HashSet, VecDeque};
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

/// Lines between checkpoints: seeking to one leaves at most a few MB to scan (well under
/// a millisecond), and most read buffers cross none, so skipping runs at counting speed.
pub(crate) const STRIDE: u64 = 65_536;
/// Files at least this large get indexed to the end in the background after a read, so
/// the model's next jump (to the tail, say) seeks instead of scanning.
const BACKGROUND_MIN_BYTES: u64 = 16 * 1024 * 1024;
/// Read buffer. Small enough to stay in the core's cache between the kernel's copy and
/// the count (a 1 MB buffer made skipping ~40% slower: the count re-read it from memory).
pub(crate) const BUF_BYTES: usize = 128 * 1024;
/// Files remembered at once.
const CAPACITY: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    pub(crate) len: u64,
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
    /// Known `(line, byte offset of its start)` pairs, sorted by line; `(1, 0)` first.
    starts: Vec<(u64, u64)>,
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
    let after = entry.starts.partition_point(|&(l, _)| l <= line);
    entry
        .starts
        .get(after.wrapping_sub(1))
        .copied()
        .unwrap_or((1, 0))
}

/// Records that line `line` (1-based) starts at byte `offset`.
pub(crate) fn record(path: &Path, key: FileKey, line: u64, offset: u64) {
    record_many(path, key, &[(line, offset)]);
}

/// Records several `(line, offset)` line starts at once (one lock).
pub(crate) fn record_many(path: &Path, key: FileKey, points: &[(u64, u64)]) {
    if points.is_empty() {
        return;
    }
    let Ok(mut index) = INDEX.lock() else {
        return;
    };
    let pos = index.iter().position(|e| e.path == path);
    let mut entry = match pos.and_then(|p| index.remove(p)) {
        Some(e) if e.key == key => e,
        _ => Entry {
            path: path.to_path_buf(),
            key,
            starts: vec![(1, 0)],
        },
    };
    for &(line, offset) in points {
        if line == 0 {
            continue;
        }
        // Points usually arrive in order, so this is an append.
        let at = entry.starts.partition_point(|&(l, _)| l < line);
        if entry.starts.get(at).is_none_or(|&(l, _)| l != line) {
            entry.starts.insert(at, (line, offset));
        }
    }
    // Most recently used last; the oldest falls off.
    index.push_back(entry);
    while index.len() > CAPACITY {
        index.pop_front();
    }
}

/// Where a scan stands: line `line` starts at byte `pos`... unless the file ended, in
/// which case `pos` is its size and `line_start` tells whether a last line without a
/// newline was passed (`pos > line_start`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub line: u64,
    pub pos: u64,
    pub line_start: u64,
}

/// Advances `reader` (positioned at `at`) until line `target` starts or the file ends,
/// recording every checkpoint passed.
pub(crate) fn skip_to<R: BufRead>(
    reader: &mut R,
    path: &Path,
    key: FileKey,
    mut at: Cursor,
    target: u64,
) -> std::io::Result<Cursor> {
    while at.line < target {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let next_checkpoint = ((at.line - 1) / STRIDE + 1) * STRIDE + 1;
        let need = (target.min(next_checkpoint) - at.line) as usize;
        let count = count_newlines(buf);
        if count < need {
            // The common case: nothing to note in this buffer, count and move on.
            if let Some(last) = memchr::memrchr(b'\n', buf) {
                at.line_start = at.pos + last as u64 + 1;
            }
            at.line += count as u64;
            at.pos += buf.len() as u64;
            let len = buf.len();
            reader.consume(len);
            continue;
        }
        let Some(nl) = memchr::memchr_iter(b'\n', buf).nth(need - 1) else {
            break;
        };
        let consumed = nl + 1;
        at.line += need as u64;
        at.pos += consumed as u64;
        at.line_start = at.pos;
        reader.consume(consumed);
        if at.line == next_checkpoint {
            record(path, key, at.line, at.pos);
        }
    }
    Ok(at)
}

/// Newlines in `buf`. Counting 255-byte blocks into a `u8` lets the compiler keep the
/// whole loop in SIMD byte lanes (no per-byte widening), several times faster than
/// visiting each match or summing into `usize`.
pub(crate) fn count_newlines(buf: &[u8]) -> usize {
    let mut blocks = buf.chunks_exact(255);
    let mut total = 0usize;
    for block in blocks.by_ref() {
        let n = block
            .iter()
            .fold(0u8, |acc, &b| acc.wrapping_add(u8::from(b == b'\n')));
        total += usize::from(n);
    }
    total + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

static INDEXING: LazyLock<Mutex<HashSet<PathBuf>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

/// For a large file, finishes its checkpoints to the end on a background thread (once
/// at a time per file). Costs one sequential read of the rest of the file.
pub(crate) fn index_rest_in_background(path: &Path, key: FileKey) {
    if key.len < BACKGROUND_MIN_BYTES {
        return;
    }
    let Ok(mut busy) = INDEXING.lock() else {
        return;
    };
    if !busy.insert(path.to_path_buf()) {
        return;
    }
    drop(busy);
    let path = path.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("memo-line-index".into())
        .spawn({
            let path = path.clone();
            move || {
                let _ = index_rest(&path, key);
                if let Ok(mut busy) = INDEXING.lock() {
                    busy.remove(&path);
                }
            }
        });
    if spawned.is_err() {
        if let Ok(mut busy) = INDEXING.lock() {
            busy.remove(&path);
        }
    }
}

fn index_rest(path: &Path, key: FileKey) -> std::io::Result<()> {
    let file = std::fs::File::open(path)?;
    if FileKey::of(&file.metadata()?) != key {
        return Ok(());
    }
    let (line, pos) = nearest(path, key, u64::MAX);
    let mut reader = BufReader::with_capacity(BUF_BYTES, file);
    reader.seek(SeekFrom::Start(pos))?;
    let at = Cursor {
        line,
        pos,
        line_start: pos,
    };
    skip_to(&mut reader, path, key, at, u64::MAX)?;
    Ok(())
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
        record(&p, key, 5, 7);
        assert_eq!(nearest(&p, key, 4), (1, 0));
        assert_eq!(nearest(&p, key, 10), (5, 7));
        assert_eq!(nearest(&p, key, STRIDE + 1), (STRIDE + 1, 100));
        assert_eq!(nearest(&p, key, 100 * STRIDE), (2 * STRIDE + 1, 200));
        let changed = FileKey { len: 2, ..key };
        assert_eq!(nearest(&p, changed, 100 * STRIDE), (1, 0));
    }

    #[test]
    fn skip_to_counts_lines_and_notes_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines");
        let text: String = (1..=3 * STRIDE).map(|i| format!("{i}\n")).collect();
        std::fs::write(&p, format!("{text}last")).unwrap();
        let key = FileKey::of(&std::fs::metadata(&p).unwrap());
        let start = Cursor {
            line: 1,
            pos: 0,
            line_start: 0,
        };
        let mut r = BufReader::with_capacity(64, std::fs::File::open(&p).unwrap());
        let at = skip_to(&mut r, &p, key, start, 2 * STRIDE + 7).unwrap();
        assert_eq!(at.line, 2 * STRIDE + 7);
        let before: usize = (1..2 * STRIDE + 7).map(|i| format!("{i}\n").len()).sum();
        assert_eq!(at.pos, before as u64);
        assert_eq!(nearest(&p, key, 2 * STRIDE + 7).0, 2 * STRIDE + 1);
        // To the end: the unterminated last line is noticed.
        let at = skip_to(&mut r, &p, key, at, u64::MAX).unwrap();
        assert_eq!(at.line, 3 * STRIDE + 1);
        assert!(at.pos > at.line_start);
    }
}
