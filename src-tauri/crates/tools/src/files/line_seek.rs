//! Finding where line N of a large file starts without one single-core pass over
//! everything before it: the bytes ahead are cut into chunks whose newlines are counted
//! on every core at once, then the chunk holding the target is searched.
//!
//! Positioned reads (`pread`) let the workers share one file handle without a shared
//! offset. Not mmap: measured, it was no faster for a file written by small appends (a
//! page cache of 4 KB pages, like any log), and a file truncated by another process
//! while mapped kills the reader with SIGBUS, where a read just comes back short.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::files::line_index::{self, count_newlines, Cursor, FileKey};

/// Bytes a worker claims at a time: small, so that little is counted past the target
/// and the workers finish together (measured: 1 MB beat 4 MB by ~2 ms per 100 MB).
const CHUNK_BYTES: u64 = 1024 * 1024;
/// One read within a chunk. Small enough to stay in the core's cache between the kernel's
/// copy and the count, which then reads it from cache instead of memory: on a machine
/// where copying out of the page cache is the bottleneck this is what makes two cores
/// faster than one.
const PIECE_BYTES: usize = 128 * 1024;
/// Read on the calling thread before any worker starts: most reads are near where the
/// last known line start is, and they end here. Small: a fresh 1 MB buffer cost ~0.8 ms.
const PROBE_BYTES: u64 = PIECE_BYTES as u64;
/// Below this much file left after the probe, threads cost more than they save.
const PARALLEL_MIN_BYTES: u64 = 4 * 1024 * 1024;
const MAX_WORKERS: usize = 8;

/// What one chunk holds, with absolute file offsets.
#[derive(Debug, Clone, Copy)]
struct ChunkLines {
    newlines: u64,
    first_newline: Option<u64>,
    last_newline: Option<u64>,
    /// Bytes actually read (short when the file shrank meanwhile).
    len: u64,
}

/// The chunks counted so far, and the run of them from the first without a gap.
struct Counted {
    chunks: Vec<Option<ChunkLines>>,
    prefix_len: usize,
    prefix_newlines: u64,
}

/// Moves `at` (a known line start) forward to where line `target` starts, or to the end
/// of the file when it has fewer lines. Small distances are left for the caller's
/// sequential scan: this returns `at` unchanged when the file has less than a probe's
/// worth of bytes after it.
pub(crate) fn jump(
    file: &File,
    path: &Path,
    key: FileKey,
    at: Cursor,
    target: u64,
) -> io::Result<Cursor> {
    if at.line >= target || key.len.saturating_sub(at.pos) <= PROBE_BYTES {
        return Ok(at);
    }
    let mut probe = vec![0u8; PROBE_BYTES as usize];
    let got = read_full_at(file, &mut probe, at.pos)?;
    let probe = &probe[..got];
    let needed = target - at.line;
    let count = count_newlines(probe) as u64;
    if count >= needed {
        return Ok(line_start_in(probe, at.pos, needed, target));
    }
    let after_probe = Cursor {
        line: at.line + count,
        pos: at.pos + got as u64,
        line_start: memchr::memrchr(b'\n', probe)
            .map_or(at.line_start, |nl| at.pos + nl as u64 + 1),
    };
    if got < probe.len() {
        return Ok(after_probe);
    }
    let remaining = key.len.saturating_sub(after_probe.pos);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_WORKERS);
    if remaining < PARALLEL_MIN_BYTES || workers < 2 {
        // Not worth threads: the caller's sequential scan finishes from here.
        return Ok(after_probe);
    }
    let (found, points) = count_in_parallel(file, key, after_probe, target, workers)?;
    line_index::record_many(path, key, &points);
    Ok(found)
}

/// Counts chunks from `from` on all workers until line `target` is passed; returns where
/// it starts (or the end of the file) and line starts noticed on the way, for the index.
fn count_in_parallel(
    file: &File,
    key: FileKey,
    from: Cursor,
    target: u64,
    workers: usize,
) -> io::Result<(Cursor, Vec<(u64, u64)>)> {
    let needed = target - from.line;
    let chunks = key.len.saturating_sub(from.pos).div_ceil(CHUNK_BYTES) as usize;
    let results = Mutex::new(Counted {
        chunks: vec![None; chunks],
        prefix_len: 0,
        prefix_newlines: 0,
    });
    let next = AtomicUsize::new(0);
    let enough = AtomicBool::new(false);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);

    let work = || {
        let mut buf = vec![0u8; PIECE_BYTES];
        while !enough.load(Ordering::Acquire) {
            let i = next.fetch_add(1, Ordering::AcqRel);
            if i >= chunks {
                break;
            }
            let start = from.pos + i as u64 * CHUNK_BYTES;
            let len = CHUNK_BYTES.min(key.len - start);
            let lines = match count_chunk(file, &mut buf, start, len) {
                Ok(lines) => lines,
                Err(e) => {
                    if let Ok(mut slot) = failure.lock() {
                        slot.get_or_insert(e);
                    }
                    enough.store(true, Ordering::Release);
                    break;
                }
            };
            let Ok(mut done) = results.lock() else {
                break;
            };
            done.chunks[i] = Some(lines);
            // Extend the run of chunks counted without a gap; once it reaches the target,
            // everyone stops.
            while let Some(Some(chunk)) = done.chunks.get(done.prefix_len) {
                done.prefix_newlines += chunk.newlines;
                done.prefix_len += 1;
            }
            if done.prefix_newlines >= needed {
                enough.store(true, Ordering::Release);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let done = results
        .into_inner()
        .map_err(|_| io::Error::other("a line-counting worker panicked"))?
        .chunks;

    let mut line = from.line;
    let mut line_start = from.line_start;
    let mut pos = from.pos;
    let mut points = Vec::new();
    for (i, chunk) in done.iter().enumerate() {
        let Some(chunk) = *chunk else { break };
        let start = from.pos + i as u64 * CHUNK_BYTES;
        if line + chunk.newlines >= target {
            let mut buf = vec![0u8; chunk.len as usize];
            let got = read_full_at(file, &mut buf, start)?;
            let found = line_start_in(&buf[..got], start, target - line, target);
            points.push((found.line, found.pos));
            return Ok((found, points));
        }
        if let Some(first) = chunk.first_newline {
            // A free line start for the index: the line after this chunk's first newline.
            points.push((line + 1, first + 1));
        }
        line += chunk.newlines;
        if let Some(last) = chunk.last_newline {
            line_start = last + 1;
        }
        pos = start + chunk.len;
        if chunk.len < CHUNK_BYTES {
            break;
        }
    }
    // The file ended before line `target`.
    let end = Cursor {
        line,
        pos,
        line_start,
    };
    Ok((end, points))
}

/// The cursor at the start of line `target`, which begins after the `nth` (1-based)
/// newline of `bytes` (found at file offset `base`). The caller knows there are that many.
fn line_start_in(bytes: &[u8], base: u64, nth: u64, target: u64) -> Cursor {
    let nl = memchr::memchr_iter(b'\n', bytes)
        .nth(nth.saturating_sub(1) as usize)
        .unwrap_or(bytes.len().saturating_sub(1));
    let pos = base + nl as u64 + 1;
    Cursor {
        line: target,
        pos,
        line_start: pos,
    }
}

/// Counts the newlines of `len` bytes at `start`, a piece at a time.
fn count_chunk(file: &File, buf: &mut [u8], start: u64, len: u64) -> io::Result<ChunkLines> {
    let mut lines = ChunkLines {
        newlines: 0,
        first_newline: None,
        last_newline: None,
        len: 0,
    };
    while lines.len < len {
        let want = (len - lines.len).min(buf.len() as u64) as usize;
        let at = start + lines.len;
        let got = read_full_at(file, &mut buf[..want], at)?;
        let piece = &buf[..got];
        lines.newlines += count_newlines(piece) as u64;
        if lines.first_newline.is_none() {
            lines.first_newline = memchr::memchr(b'\n', piece).map(|p| at + p as u64);
        }
        if let Some(p) = memchr::memrchr(b'\n', piece) {
            lines.last_newline = Some(at + p as u64);
        }
        lines.len += got as u64;
        if got < want {
            break;
        }
    }
    Ok(lines)
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_full_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Seek, SeekFrom};

    fn start_of_file() -> Cursor {
        Cursor {
            line: 1,
            pos: 0,
            line_start: 0,
        }
    }

    /// The reference: where line `target` starts by walking every byte.
    fn walk(text: &[u8], target: u64) -> Cursor {
        let mut at = start_of_file();
        for (i, &b) in text.iter().enumerate() {
            if at.line == target {
                return at;
            }
            if b == b'\n' {
                at.line += 1;
                at.pos = i as u64 + 1;
                at.line_start = at.pos;
            }
        }
        if at.line == target {
            return at;
        }
        Cursor {
            pos: text.len() as u64,
            ..at
        }
    }

    fn file_with(text: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, FileKey) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        std::fs::write(&p, text).unwrap();
        let key = FileKey::of(&std::fs::metadata(&p).unwrap());
        (dir, p, key)
    }

    /// Lines of varying length (1 to 199 bytes) so chunk edges fall everywhere.
    fn ragged(bytes: usize, tail: &str) -> Vec<u8> {
        let mut text = Vec::with_capacity(bytes + 200);
        let mut i = 0usize;
        while text.len() < bytes {
            let width = (i * 7919) % 199;
            text.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, width));
            text.push(b'\n');
            i += 1;
        }
        text.extend_from_slice(tail.as_bytes());
        text
    }

    #[test]
    fn finds_the_same_line_start_as_a_byte_walk() {
        let text = ragged(24 * 1024 * 1024, "no newline at the end");
        let (_dir, p, key) = file_with(&text);
        let total_newlines = text.iter().filter(|&&b| b == b'\n').count() as u64;
        let file = File::open(&p).unwrap();
        for target in [
            2,
            500,
            5_000,
            total_newlines / 3,
            total_newlines / 2 + 1,
            total_newlines - 1,
            total_newlines,
            total_newlines + 1,
            total_newlines + 2,
            u64::MAX,
        ] {
            let got = jump(&file, &p, key, start_of_file(), target).unwrap();
            let mut reader = BufReader::with_capacity(4096, &file);
            reader.seek(SeekFrom::Start(got.pos)).unwrap();
            // Whatever the jump left, the sequential scan finishes exactly.
            let got = line_index::skip_to(&mut reader, &p, key, got, target).unwrap();
            assert_eq!(got, walk(&text, target), "target {target}");
        }
        // Points recorded along the way are true line starts.
        let (line, pos) = line_index::nearest(&p, key, total_newlines / 2);
        assert!(line > 1);
        assert_eq!(walk(&text, line).pos, pos);
    }

    #[test]
    fn a_file_ending_with_a_newline_has_no_extra_line() {
        let text = ragged(12 * 1024 * 1024, "");
        let (_dir, p, key) = file_with(&text);
        let total_newlines = text.iter().filter(|&&b| b == b'\n').count() as u64;
        let file = File::open(&p).unwrap();
        let end = jump(&file, &p, key, start_of_file(), u64::MAX).unwrap();
        assert_eq!(end.line, total_newlines + 1);
        assert_eq!(end.pos, text.len() as u64);
        assert_eq!(end.pos, end.line_start, "no unterminated last line");
    }

    #[test]
    fn small_files_are_left_to_the_caller() {
        let text = ragged(100 * 1024, "");
        let (_dir, p, key) = file_with(&text);
        let file = File::open(&p).unwrap();
        assert_eq!(
            jump(&file, &p, key, start_of_file(), 1_000).unwrap(),
            start_of_file()
        );
    }

    #[test]
    fn a_file_too_small_for_threads_is_finished_by_the_caller() {
        // Past the probe but under the parallel threshold: the jump stops after the probe
        // and the sequential scan lands exactly.
        let text = ragged(3 * 1024 * 1024, "tail");
        let (_dir, p, key) = file_with(&text);
        let file = File::open(&p).unwrap();
        let total_newlines = text.iter().filter(|&&b| b == b'\n').count() as u64;
        let target = total_newlines - 10;
        let got = jump(&file, &p, key, start_of_file(), target).unwrap();
        assert!(got.line > 1 && got.line < target, "{got:?}");
        let mut reader = BufReader::with_capacity(4096, &file);
        reader.seek(SeekFrom::Start(got.pos)).unwrap();
        let got = line_index::skip_to(&mut reader, &p, key, got, target).unwrap();
        assert_eq!(got, walk(&text, target));
    }
}
