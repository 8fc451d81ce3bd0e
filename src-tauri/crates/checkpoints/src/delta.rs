//! Line deltas between two versions of a file. An agent's edit changes a few lines of a
//! file; storing each new version whole would cost the file's size per edit, a delta costs
//! about the changed lines.
//!
//! Format: a sequence of ops, each a tag byte and varints: `0 offset len` copies bytes from
//! the base, `1 len bytes` inserts literal bytes.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// A pathological diff falls back to storing the whole version.
const BUDGET: Duration = Duration::from_millis(50);

fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn get_varint(data: &[u8], at: &mut usize) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *data.get(*at)?;
        *at += 1;
        n |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

/// The ops turning `base` into `new`; `None` when the diff ran out of time.
pub fn encode(base: &[u8], new: &[u8]) -> Option<Vec<u8>> {
    let old_lines = lines(base);
    let new_lines = lines(new);
    // A rewrite (a formatter, a generated file) shares few lines with its base: a delta
    // would not pay, and diffing two unrelated texts is the slowest case there is.
    let known: std::collections::HashSet<&[u8]> = old_lines.iter().copied().collect();
    let shared = new_lines.iter().filter(|l| known.contains(*l)).count();
    if shared * 2 < new_lines.len() {
        return None;
    }
    let deadline = Instant::now() + BUDGET;
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &old_lines,
        &new_lines,
        Some(deadline),
    );
    if Instant::now() > deadline {
        return None;
    }
    // Byte offset where each base line starts.
    let mut starts = Vec::with_capacity(old_lines.len() + 1);
    let mut at = 0usize;
    for line in &old_lines {
        starts.push(at);
        at += line.len();
    }
    starts.push(at);
    let mut out = Vec::new();
    let insert = |out: &mut Vec<u8>, range: std::ops::Range<usize>| {
        let bytes: Vec<u8> = new_lines[range].concat();
        out.push(1);
        put_varint(out, bytes.len() as u64);
        out.extend_from_slice(&bytes);
    };
    for op in ops {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                out.push(0);
                put_varint(&mut out, starts[old_index] as u64);
                put_varint(
                    &mut out,
                    (starts[old_index + len] - starts[old_index]) as u64,
                );
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert {
                new_index, new_len, ..
            } => insert(&mut out, new_index..new_index + new_len),
            DiffOp::Replace {
                new_index, new_len, ..
            } => insert(&mut out, new_index..new_index + new_len),
        }
    }
    Some(out)
}

/// Rebuilds the new version; `None` when the ops do not fit the base (damaged data).
pub fn apply(base: &[u8], ops: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(base.len());
    let mut at = 0usize;
    while at < ops.len() {
        let tag = ops[at];
        at += 1;
        match tag {
            0 => {
                let offset = usize::try_from(get_varint(ops, &mut at)?).ok()?;
                let len = usize::try_from(get_varint(ops, &mut at)?).ok()?;
                out.extend_from_slice(base.get(offset..offset.checked_add(len)?)?);
            }
            1 => {
                let len = usize::try_from(get_varint(ops, &mut at)?).ok()?;
                out.extend_from_slice(ops.get(at..at.checked_add(len)?)?);
                at += len;
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_edits_and_is_small_for_small_edits() {
        let base: String = (0..500).map(|i| format!("line number {i}\n")).collect();
        let mut new = base.replace("line number 250\n", "changed line\n");
        new.push_str("tail without newline");
        let ops = encode(base.as_bytes(), new.as_bytes()).unwrap();
        assert_eq!(apply(base.as_bytes(), &ops).unwrap(), new.as_bytes());
        assert!(
            ops.len() < 80,
            "delta of a one-line edit is {} bytes",
            ops.len()
        );
    }

    #[test]
    fn unrelated_texts_get_no_delta() {
        let base: String = (0..3000).map(|i| format!("old {i}\n")).collect();
        let new: String = (0..3000).map(|i| format!("new {i}\n")).collect();
        assert!(encode(base.as_bytes(), new.as_bytes()).is_none());
    }

    #[test]
    fn empty_sides_and_damaged_ops() {
        for (a, b) in [
            ("x\n", "x\ny"),
            ("x\ny", ""),
            ("", ""),
            ("a\r\nb", "a\r\nc\r\n"),
        ] {
            let ops = encode(a.as_bytes(), b.as_bytes()).unwrap();
            assert_eq!(apply(a.as_bytes(), &ops).unwrap(), b.as_bytes());
        }
        assert!(
            apply(b"abc", &[0, 2, 9]).is_none(),
            "copy past the base's end"
        );
        assert!(apply(b"abc", &[7]).is_none(), "unknown op");
        assert!(
            apply(b"abc", &[1, 5, b'x']).is_none(),
            "insert past the end"
        );
    }
}
