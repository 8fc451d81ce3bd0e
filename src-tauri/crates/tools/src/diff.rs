//! Line diffs of proposed file changes, cut into hunks the user can accept one by one,
//! and the inverse: rebuilding a file from only the accepted hunks.
//!
//! Preview and run both call [`FileHunks::new`] on the same texts, so hunk `i` of the
//! approval request is hunk `i` at apply time.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use similar::{Algorithm, ChangeTag, TextDiff};

use crate::ToolError;

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

/// Lines of unchanged context around each change, as in `diff -u`.
const CONTEXT: usize = 3;
/// A diff that takes longer than this falls back to a coarser (still correct) one; only
/// pathological rewrites of huge files come near it.
const DIFF_BUDGET: Duration = Duration::from_secs(5);

/// One hunk: the old and new line ranges it covers (context included) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    pub old: Range<usize>,
    pub new: Range<usize>,
    /// `@@ -a,b +c,d @@`
    pub header: String,
    /// The hunk body: lines prefixed with ' ', '-' or '+'.
    pub text: String,
    pub added: usize,
    pub removed: usize,
}

/// The hunks turning `old` into `new`, with the line slices needed to apply a subset.
pub(crate) struct FileHunks<'a> {
    old_lines: Vec<&'a str>,
    new_lines: Vec<&'a str>,
    pub hunks: Vec<Hunk>,
}

impl<'a> FileHunks<'a> {
    pub fn new(old: &'a str, new: &'a str) -> Self {
        let diff = TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .deadline(Instant::now() + DIFF_BUDGET)
            .diff_lines(old, new);
        let old_lines: Vec<&str> = diff.old_slices().to_vec();
        let new_lines: Vec<&str> = diff.new_slices().to_vec();
        let mut hunks = Vec::new();
        for group in diff.grouped_ops(CONTEXT) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            let mut text = String::new();
            let (mut added, mut removed) = (0, 0);
            for op in &group {
                for change in diff.iter_changes(op) {
                    let sign = match change.tag() {
                        ChangeTag::Equal => ' ',
                        ChangeTag::Delete => {
                            removed += 1;
                            '-'
                        }
                        ChangeTag::Insert => {
                            added += 1;
                            '+'
                        }
                    };
                    text.push(sign);
                    let line = change.value();
                    text.push_str(line);
                    if !line.ends_with('\n') {
                        text.push_str("\n\\ No newline at end of file\n");
                    }
                }
            }
            hunks.push(Hunk {
                header: header(&old_range, &new_range),
                old: old_range,
                new: new_range,
                text,
                added,
                removed,
            });
        }
        Self {
            old_lines,
            new_lines,
            hunks,
        }
    }

    /// The file with only the hunks `accept` picks applied; the rest stays as in `old`.
    pub fn apply(&self, accept: impl Fn(usize) -> bool) -> String {
        let mut out = String::new();
        let mut at = 0usize;
        for (i, hunk) in self.hunks.iter().enumerate() {
            out.extend(self.old_lines[at..hunk.old.start].iter().copied());
            if accept(i) {
                out.extend(self.new_lines[hunk.new.clone()].iter().copied());
            } else {
                out.extend(self.old_lines[hunk.old.clone()].iter().copied());
            }
            at = hunk.old.end;
        }
        out.extend(self.old_lines[at..].iter().copied());
        out
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
