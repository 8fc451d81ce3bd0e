//! git's unified diffs of one file, read into the protocol's [`FileDiff`] (hunks as git
//! cut them), and patches of some of those hunks for `git apply`.

use memo_protocol::{DiffHunk, FileDiff};

/// One file's `git diff` output: the header lines (`diff --git`, `index`, `---`, `+++`…)
/// and its hunks. `None` when git printed no hunk (no change, or a binary file).
pub fn parse_diff(path: &str, text: &str) -> Option<FileDiff> {
    let mut header = String::new();
    let mut hunks: Vec<DiffHunk> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("@@") {
            hunks.push(DiffHunk {
                index: hunks.len() as u32,
                header: line.trim_end_matches('\n').to_owned(),
                text: String::new(),
            });
        } else if let Some(hunk) = hunks.last_mut() {
            hunk.text.push_str(line);
        } else {
            header.push_str(line);
        }
    }
    if hunks.is_empty() {
        return None;
    }
    let mut unified = header;
    for hunk in &hunks {
        unified.push_str(&hunk.header);
        unified.push('\n');
        unified.push_str(&hunk.text);
    }
    Some(FileDiff {
        path: path.to_owned(),
        unified,
        hunks,
        edits: Vec::new(),
    })
}

/// The numbers of a hunk header: `@@ -old,old_len +new,new_len @@ context`.
struct Range {
    old: u64,
    old_len: u64,
    new: u64,
    new_len: u64,
    tail: String,
}

fn range(header: &str) -> Option<Range> {
    let rest = header.strip_prefix("@@ -")?;
    let (numbers, tail) = rest.split_once(" @@")?;
    let (old, new) = numbers.split_once(" +")?;
    let pair = |s: &str| -> Option<(u64, u64)> {
        match s.split_once(',') {
            Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (old, old_len) = pair(old)?;
    let (new, new_len) = pair(new)?;
    Some(Range {
        old,
        old_len,
        new,
        new_len,
        tail: tail.to_owned(),
    })
}

/// A patch of `picked` hunks of `diff` (its header kept), for `git apply`. The hunks left
/// out shift the lines of those after them, so each picked hunk's numbers on the side
/// that will not be matched are worked out again: the new side when applied forwards (the
/// old side is what the file holds), the old side when applied in reverse. `None` when a
/// hunk's header cannot be read or `picked` names no hunk of it.
pub fn patch_of(diff: &FileDiff, picked: &[u32], reverse: bool) -> Option<String> {
    let header_end = diff.unified.find("\n@@").map(|at| at + 1).unwrap_or(0);
    let mut patch = diff.unified[..header_end].to_owned();
    let mut shift: i64 = 0;
    let mut any = false;
    for hunk in &diff.hunks {
        if !picked.contains(&hunk.index) {
            continue;
        }
        any = true;
        let r = range(&hunk.header)?;
        let delta = r.new_len as i64 - r.old_len as i64;
        let (old, new) = if reverse {
            ((r.new as i64 - shift).max(0) as u64, r.new)
        } else {
            (r.old, (r.old as i64 + shift).max(0) as u64)
        };
        shift += delta;
        patch.push_str(&format!(
            "@@ -{old},{} +{new},{} @@{}\n",
            r.old_len, r.new_len, r.tail
        ));
        patch.push_str(&hunk.text);
    }
    any.then_some(patch)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIFF: &str = "diff --git a/f.txt b/f.txt\nindex 1..2 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -10,3 +11,3 @@ fn x\n j\n-k\n+K\n l\n";

    #[test]
    fn git_hunks_are_read_with_their_header() {
        let diff = parse_diff("f.txt", DIFF).unwrap();
        assert_eq!(diff.hunks.len(), 2);
        assert_eq!(diff.hunks[1].header, "@@ -10,3 +11,3 @@ fn x");
        assert_eq!(diff.hunks[1].text, " j\n-k\n+K\n l\n");
        assert_eq!(diff.unified, DIFF);
        assert!(parse_diff("f", "diff --git a/f b/f\nBinary files differ\n").is_none());
    }

    #[test]
    fn a_later_hunk_alone_is_renumbered_on_the_side_not_matched() {
        let diff = parse_diff("f.txt", DIFF).unwrap();
        let forward = patch_of(&diff, &[1], false).unwrap();
        assert!(
            forward.ends_with("@@ -10,3 +10,3 @@ fn x\n j\n-k\n+K\n l\n"),
            "{forward}"
        );
        assert!(forward.starts_with("diff --git a/f.txt b/f.txt\n"));
        let reverse = patch_of(&diff, &[1], true).unwrap();
        assert!(
            reverse.ends_with("@@ -11,3 +11,3 @@ fn x\n j\n-k\n+K\n l\n"),
            "{reverse}"
        );
        let both = patch_of(&diff, &[0, 1], false).unwrap();
        assert!(
            both.ends_with("@@ -10,3 +11,3 @@ fn x\n j\n-k\n+K\n l\n"),
            "{both}"
        );
        assert!(patch_of(&diff, &[7], false).is_none());
    }
}
