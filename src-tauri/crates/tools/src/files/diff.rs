//! Line diffs of proposed file changes, cut into hunks the user can accept one by one,
//! and the inverse: rebuilding a file from only the accepted hunks.
//!
//! Preview and run both call [`FileHunks::new`] on the same texts, so hunk `i` of the
//! approval request is hunk `i` at apply time.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp, DiffTag};

use crate::ToolError;

/// Identifies one call for the preview-to-run memories: the arguments, and the session
/// view they are read in (working directory and path policy), since one tool instance
/// may serve several sessions.
pub(crate) fn call_key(ctx: &crate::ToolContext, args: &serde_json::Value) -> String {
    format!("{}\0{:?}\0{args}", ctx.cwd.display(), ctx.paths)
}

/// Previews remembered per tool to notice a file changing between approval and run.
const PREVIEW_MEMORY: usize = 32;

/// The hunks of a tool's recent previews, keyed by the call's arguments. When the user
/// accepts only some hunks, the run checks it is about to apply the very hunks the user
/// saw: if the file changed in between, hunk `i` may now be a different change, and
/// applying it would not be what was approved.
#[derive(Default, Clone)]
pub(crate) struct PreviewMemory(Arc<Mutex<VecDeque<Remembered>>>);

/// Arguments of a call, and the header + text of each hunk its preview showed.
type Remembered = (String, Vec<String>);

impl PreviewMemory {
    pub fn remember(&self, key: String, signature: Vec<String>) {
        // A poisoned lock only loses the check, never a write.
        if let Ok(mut p) = self.0.lock() {
            p.retain(|(k, _)| *k != key);
            p.push_back((key, signature));
            while p.len() > PREVIEW_MEMORY {
                p.pop_front();
            }
        }
    }

    pub fn recall(&self, key: &str) -> Option<Vec<String>> {
        let p = self.0.lock().ok()?;
        p.iter().find(|(k, _)| k == key).map(|(_, s)| s.clone())
    }

    /// Fails when the hunks shown (`seen`, if remembered) differ from those now.
    pub fn check(seen: Option<Vec<String>>, now: &[String], tool: &str) -> Result<(), ToolError> {
        match seen {
            Some(seen) if seen != now => Err(ToolError::failed(format!(
                "the file changed after its diff was shown, so the accepted hunks no longer match; nothing was written. Call {tool} again."
            ))),
            _ => Ok(()),
        }
    }
}

/// A group of nearby changes as one hunk per change: `diff -u` merges changes fewer than
/// seven lines apart into one hunk, and then a person could not accept one of two edits a
/// few lines apart and refuse the other. The unchanged lines between two changes are
/// shared out as their context (the first gets the first half), so the hunks stay
/// disjoint and in order, and together still cover exactly what the group did.
fn split_at_unchanged(group: Vec<DiffOp>) -> Vec<Vec<DiffOp>> {
    let last = group.len().saturating_sub(1);
    let mut out = Vec::new();
    let mut current = Vec::new();
    for (i, op) in group.into_iter().enumerate() {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } if i != 0 && i != last => {
                let head = len / 2;
                if head > 0 {
                    current.push(DiffOp::Equal {
                        old_index,
                        new_index,
                        len: head,
                    });
                }
                out.push(std::mem::take(&mut current));
                current.push(DiffOp::Equal {
                    old_index: old_index + head,
                    new_index: new_index + head,
                    len: len - head,
                });
            }
            op => current.push(op),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Lines of unchanged context around each change, as in `diff -u`.
const CONTEXT: usize = 3;
/// A diff that takes longer than this falls back to a coarser (still correct) one; only
/// pathological rewrites of huge files come near it. (Preview and run must cut the same
/// hunks; a diff this slow would be the one case where they might not, and the run then
/// refuses a partial acceptance rather than misapply it: see [`PreviewMemory`].)
const DIFF_BUDGET: Duration = Duration::from_secs(5);

/// One hunk: the old and new line ranges it covers (context included) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// 0-based line ranges, for the header.
    pub old: Range<usize>,
    pub new: Range<usize>,
    /// The same spans as byte ranges, for applying.
    old_bytes: Range<usize>,
    new_bytes: Range<usize>,
    /// `@@ -a,b +c,d @@`
    pub header: String,
    /// The hunk body: lines prefixed with ' ', '-' or '+'.
    pub text: String,
    pub added: usize,
    pub removed: usize,
}

/// The hunks turning `old` into `new`, and what is needed to apply a subset of them.
pub struct FileHunks<'a> {
    old: &'a str,
    new: &'a str,
    pub hunks: Vec<Hunk>,
}

/// Lines of `text[range]` with the byte offset where each starts.
fn lines_at(text: &str, range: Range<usize>) -> Vec<(usize, &str)> {
    let base = range.start;
    let mut at = base;
    text[range]
        .split_inclusive('\n')
        .map(|l| {
            let start = at;
            at += l.len();
            (start, l)
        })
        .collect()
}

/// Length of the common prefix of `a` and `b`, compared a block at a time (memcmp).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

fn common_suffix(a: &[u8], b: &[u8], max: usize) -> usize {
    const BLOCK: usize = 4096;
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= max && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    while i < max && a[la - i - 1] == b[lb - i - 1] {
        i += 1;
    }
    i
}

impl<'a> FileHunks<'a> {
    pub fn new(old: &'a str, new: &'a str) -> Self {
        let (ob, nb) = (old.as_bytes(), new.as_bytes());
        // Most edits touch a few lines of a long file: compare bytes to find the part that
        // differs, widen it to whole lines and diff only that, plus the few context lines
        // around it. Tokenizing every line of a 50,000-line file would dominate otherwise.
        let p = common_prefix(ob, nb);
        let start = memchr::memrchr(b'\n', &ob[..p]).map_or(0, |i| i + 1);
        let max_suffix = (ob.len() - start).min(nb.len() - start);
        let s = common_suffix(ob, nb, max_suffix);
        // The common tail must start at a line start in *both* texts; drop its partial
        // first line until it does (the tail is identical in both, so this terminates).
        let at_line = |b: &[u8], i: usize| i == start || i == 0 || b[i - 1] == b'\n';
        let mut tail = s;
        while tail > 0 && !(at_line(ob, ob.len() - tail) && at_line(nb, nb.len() - tail)) {
            let from = ob.len() - tail;
            tail = match memchr::memchr(b'\n', &ob[from..]) {
                Some(i) => ob.len() - (from + i + 1),
                None => 0,
            };
        }
        let old_end = ob.len() - tail;
        let new_end = nb.len() - tail;
        // Context lines on both sides, identical in old and new.
        let before = lines_at(old, 0..start);
        let before = &before[before.len().saturating_sub(CONTEXT)..];
        let after = lines_at(old, old_end..ob.len());
        let after = &after[..after.len().min(CONTEXT)];
        let old_mid = lines_at(old, start..old_end);
        let new_mid = lines_at(new, start..new_end);
        let old_win: Vec<(usize, &str)> = before
            .iter()
            .chain(&old_mid)
            .chain(after)
            .copied()
            .collect();
        let shift_after = new_end as isize - old_end as isize;
        let new_win: Vec<(usize, &str)> = before
            .iter()
            .copied()
            .chain(new_mid.iter().copied())
            .chain(
                after
                    .iter()
                    .map(|&(at, l)| ((at as isize + shift_after) as usize, l)),
            )
            .collect();
        // Line number of the window's first line in the whole file.
        let base_line = memchr::memchr_iter(b'\n', &ob[..start]).count() - before.len();
        let old_ends =
            |i: usize, w: &[(usize, &str)], total: usize| w.get(i).map_or(total, |&(at, _)| at);

        let mut ops = Vec::new();
        if !before.is_empty() {
            ops.push(DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: before.len(),
            });
        }
        let old_tokens: Vec<&str> = old_mid.iter().map(|&(_, l)| l).collect();
        let new_tokens: Vec<&str> = new_mid.iter().map(|&(_, l)| l).collect();
        let deadline = Instant::now() + DIFF_BUDGET;
        let middle = similar::capture_diff_slices_deadline(
            Algorithm::Myers,
            &old_tokens,
            &new_tokens,
            Some(deadline),
        );
        ops.extend(middle.into_iter().map(|op| shift(op, before.len())));
        if !after.is_empty() {
            ops.push(DiffOp::Equal {
                old_index: before.len() + old_mid.len(),
                new_index: before.len() + new_mid.len(),
                len: after.len(),
            });
        }
        let mut hunks = Vec::new();
        for group in similar::group_diff_ops(ops, CONTEXT)
            .into_iter()
            .flat_map(split_at_unchanged)
        {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            let o = first.old_range().start..last.old_range().end;
            let n = first.new_range().start..last.new_range().end;
            let mut text = String::new();
            let (mut added, mut removed) = (0, 0);
            for op in &group {
                let (tag, or, nr) = op.as_tag_tuple();
                if matches!(tag, DiffTag::Equal) {
                    push_lines(&mut text, ' ', &old_win[or]);
                    continue;
                }
                if matches!(tag, DiffTag::Delete | DiffTag::Replace) {
                    removed += or.len();
                    push_lines(&mut text, '-', &old_win[or]);
                }
                if matches!(tag, DiffTag::Insert | DiffTag::Replace) {
                    added += nr.len();
                    push_lines(&mut text, '+', &new_win[nr]);
                }
            }
            let old_range = base_line + o.start..base_line + o.end;
            let new_range = base_line + n.start..base_line + n.end;
            hunks.push(Hunk {
                header: header(&old_range, &new_range),
                old_bytes: old_ends(o.start, &old_win, ob.len())
                    ..old_ends(o.end, &old_win, ob.len()),
                new_bytes: old_ends(n.start, &new_win, nb.len())
                    ..old_ends(n.end, &new_win, nb.len()),
                old: old_range,
                new: new_range,
                text,
                added,
                removed,
            });
        }
        Self { old, new, hunks }
    }

    /// The file with only the hunks `accept` picks applied; the rest stays as in `old`.
    pub fn apply(&self, accept: impl Fn(usize) -> bool) -> String {
        let mut out = String::with_capacity(self.old.len().max(self.new.len()));
        let mut at = 0usize;
        for (i, hunk) in self.hunks.iter().enumerate() {
            out.push_str(&self.old[at..hunk.old_bytes.start]);
            if accept(i) {
                out.push_str(&self.new[hunk.new_bytes.clone()]);
            } else {
                out.push_str(&self.old[hunk.old_bytes.clone()]);
            }
            at = hunk.old_bytes.end;
        }
        out.push_str(&self.old[at..]);
        out
    }

    /// The change as the protocol shows it: `from`/`to` name the sides in the unified
    /// text (`/dev/null` for a missing side), `path` labels the file.
    pub fn file_diff(&self, path: &str, from: &str, to: &str) -> memo_protocol::FileDiff {
        memo_protocol::FileDiff {
            path: path.to_owned(),
            unified: self.unified(from, to),
            hunks: self.diff_hunks(),
            edits: Vec::new(),
        }
    }

    /// The hunks as the protocol numbers them, without the unified text.
    pub fn diff_hunks(&self) -> Vec<memo_protocol::DiffHunk> {
        self.hunks
            .iter()
            .enumerate()
            .map(|(i, h)| memo_protocol::DiffHunk {
                index: i as u32,
                header: h.header.clone(),
                text: h.text.clone(),
            })
            .collect()
    }

    /// `--- a/x` / `+++ b/x` headers and all hunks, as `diff -u` prints them.
    pub fn unified(&self, old_name: &str, new_name: &str) -> String {
        let mut out = format!("--- {old_name}\n+++ {new_name}\n");
        for h in &self.hunks {
            out.push_str(&h.header);
            out.push('\n');
            out.push_str(&h.text);
        }
        out
    }
}

fn push_lines(text: &mut String, sign: char, lines: &[(usize, &str)]) {
    for (_, line) in lines {
        text.push(sign);
        text.push_str(line);
        if !line.ends_with('\n') {
            text.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// `op` with both sides moved `by` lines down.
fn shift(op: DiffOp, by: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + by,
            new_index: new_index + by,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + by,
            old_len,
            new_index: new_index + by,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + by,
            new_index: new_index + by,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + by,
            old_len,
            new_index: new_index + by,
            new_len,
        },
    }
}

/// Unified-diff hunk header; an empty side is numbered from the line before it, as
/// `diff -u` and `git apply` expect.
fn header(old: &Range<usize>, new: &Range<usize>) -> String {
    fn side(r: &Range<usize>) -> String {
        let len = r.end - r.start;
        let start = if len == 0 { r.start } else { r.start + 1 };
        format!("{start},{len}")
    }
    format!("@@ -{} +{} @@", side(old), side(new))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn hunks_and_partial_application() {
        let old = lines(30);
        let new = old
            .replace("line 2\n", "line two\n")
            .replace("line 20\n", "line twenty\nextra\n");
        let fh = FileHunks::new(&old, &new);
        assert_eq!(fh.hunks.len(), 2);
        assert_eq!(fh.hunks[0].header, "@@ -1,5 +1,5 @@");
        assert_eq!(fh.hunks[1].header, "@@ -17,7 +17,8 @@");
        assert_eq!(
            fh.hunks[1].text,
            " line 17\n line 18\n line 19\n-line 20\n+line twenty\n+extra\n line 21\n line 22\n line 23\n"
        );
        assert_eq!(fh.apply(|_| true), new);
        assert_eq!(fh.apply(|_| false), old);
        assert_eq!(
            fh.apply(|i| i == 1),
            old.replace("line 20\n", "line twenty\nextra\n")
        );
        assert_eq!(fh.apply(|i| i == 0), old.replace("line 2\n", "line two\n"));
    }

    #[test]
    fn two_edits_a_few_lines_apart_are_two_hunks_that_apply_alone() {
        let old = lines(20);
        let new = old
            .replace("line 5\n", "line five\n")
            .replace("line 9\n", "line nine\n");
        let fh = FileHunks::new(&old, &new);
        assert_eq!(fh.hunks.len(), 2, "{:?}", fh.hunks);
        check_sides(&fh, &old, &new);
        assert_eq!(fh.apply(|i| i == 0), old.replace("line 5\n", "line five\n"));
        assert_eq!(fh.apply(|i| i == 1), old.replace("line 9\n", "line nine\n"));
        assert_eq!(fh.apply(|_| true), new);
        // The three lines between are shared out (one to the first hunk, two to the
        // second), in order and never twice.
        assert_eq!(fh.hunks[0].new.end, fh.hunks[1].new.start);
    }

    /// Each hunk's context and '-' lines are exactly the old lines of its range, its
    /// context and '+' lines exactly the new ones: what the user sees is what applies.
    fn check_sides(fh: &FileHunks<'_>, old: &str, new: &str) {
        let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
        let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
        for h in &fh.hunks {
            let (mut o, mut n) = (String::new(), String::new());
            let mut last = ' ';
            for line in h.text.split_inclusive('\n') {
                if line.starts_with('\\') {
                    if last != '+' {
                        o.pop();
                    }
                    if last != '-' {
                        n.pop();
                    }
                    continue;
                }
                let (sign, body) = line.split_at(1);
                last = sign.chars().next().unwrap();
                if last != '+' {
                    o.push_str(body);
                }
                if last != '-' {
                    n.push_str(body);
                }
            }
            assert_eq!(o, old_lines[h.old.clone()].concat(), "{h:?}");
            assert_eq!(n, new_lines[h.new.clone()].concat(), "{h:?}");
        }
    }

    #[test]
    fn hunks_show_whole_lines_when_a_line_grows_at_its_start() {
        for (old, new) in [
            ("a\nX\n", "a\nYX\n"),
            ("a\nZ\nX\n", "a\nYX\n"),
            ("x\nab\n", "x\nzab\n"),
            ("ab\n", "zab\n"),
            ("ab", "b"),
            ("a\nb", "a\nb\n"),
        ] {
            let fh = FileHunks::new(old, new);
            check_sides(&fh, old, new);
            assert_eq!(fh.apply(|_| true), new);
        }
        let fh = FileHunks::new("a\nX\n", "a\nYX\n");
        assert_eq!(fh.hunks[0].text, " a\n-X\n+YX\n");
    }

    #[test]
    fn any_subset_of_hunks_applies_cleanly() {
        // Deterministic pseudo-random edits: changes at both ends, repeated lines,
        // files without a final newline.
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for round in 0..200 {
            let len = 1 + next(60) as usize;
            let old: Vec<String> = (0..len).map(|i| format!("l{}\n", i % 7)).collect();
            let mut new = old.clone();
            for _ in 0..1 + next(4) {
                let at = next(new.len() as u64 + 1) as usize;
                match next(4) {
                    0 if at < new.len() => {
                        new.remove(at);
                    }
                    1 => new.insert(at, format!("new{round}\n")),
                    // A prefix glued to an existing line shares its tail bytes.
                    2 if at < new.len() => new[at] = format!("x{}", new[at]),
                    _ if at < new.len() => new[at] = format!("chg{round}\n"),
                    _ => new.push("tail\n".into()),
                }
            }
            let mut old: String = old.concat();
            let mut new: String = new.concat();
            if round % 5 == 0 {
                old.pop();
            }
            if round % 7 == 0 {
                new.pop();
            }
            let fh = FileHunks::new(&old, &new);
            check_sides(&fh, &old, &new);
            assert_eq!(fh.apply(|_| true), new, "round {round}");
            assert_eq!(fh.apply(|_| false), old, "round {round}");
            for skip in 0..fh.hunks.len() {
                // Every hunk but one: still a well-formed file, and re-diffing it against
                // `new` leaves exactly the skipped hunk's change.
                let partial = fh.apply(|i| i != skip);
                let rest = FileHunks::new(&partial, &new);
                assert_eq!(rest.hunks.len(), 1, "round {round} skip {skip}");
            }
        }
    }

    #[test]
    fn empty_sides_and_missing_final_newline() {
        let fh = FileHunks::new("", "a\nb");
        assert_eq!(fh.hunks.len(), 1);
        assert_eq!(fh.hunks[0].header, "@@ -0,0 +1,2 @@");
        assert!(fh.hunks[0]
            .text
            .ends_with("+b\n\\ No newline at end of file\n"));
        assert!(fh
            .unified("/dev/null", "b/x")
            .starts_with("--- /dev/null\n+++ b/x\n@@"));
        assert!(FileHunks::new("same\n", "same\n").hunks.is_empty());
    }
}
