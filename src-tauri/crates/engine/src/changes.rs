//! Diffs of recorded file changes, as the protocol shows them (`FileChange`), for the
//! `files_changed` event, the changes panel and the restore preview.

use memo_checkpoints::{Checkpoints, Content};
use memo_protocol::{ChangeKind, FileChange};
use memo_tools::FileHunks;

/// Larger sides are listed without a diff (the panel says so).
const MAX_DIFF_SIDE: usize = 1024 * 1024;
/// A diff longer than this is left out of events; the panel asks for it when opened.
const MAX_DIFF_TEXT: usize = 256 * 1024;

/// Text if it looks like text: valid UTF-8 without NUL bytes.
pub fn as_text(bytes: &[u8]) -> Option<&str> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// The change of `path` from `before` to `after` (both recorded contents).
pub fn file_change(
    store: &Checkpoints,
    path: &str,
    before: &Content,
    after: &Content,
    sources: Vec<String>,
) -> FileChange {
    let old = store.read(before).ok().flatten();
    let new = store.read(after).ok().flatten();
    describe(path, before, old.as_deref(), after, new.as_deref(), sources)
}

/// The change of `path` between two sides whose bytes are known (`None`: absent or not
/// kept, as `before`/`after` say).
pub fn describe(
    path: &str,
    before: &Content,
    old: Option<&[u8]>,
    after: &Content,
    new: Option<&[u8]>,
    sources: Vec<String>,
) -> FileChange {
    let kind = if before.is_absent() {
        ChangeKind::Created
    } else if after.is_absent() {
        ChangeKind::Deleted
    } else {
        ChangeKind::Modified
    };
    let large = |c: &Content| matches!(c, Content::Large { .. });
    let restorable = !large(before) && !large(after);
    fn text_of<'a>(content: &Content, bytes: Option<&'a [u8]>) -> Option<&'a str> {
        match (content, bytes) {
            (Content::Absent, _) => Some(""),
            (_, Some(bytes)) if bytes.len() <= MAX_DIFF_SIDE => as_text(bytes),
            _ => None,
        }
    }
    let binary = [(before, old), (after, new)]
        .iter()
        .any(|(c, b)| b.is_some_and(|b| as_text(b).is_none()) && !c.is_absent());
    let mut change = FileChange {
        path: path.to_owned(),
        kind,
        sources,
        restorable,
        binary,
        added: 0,
        removed: 0,
        diff: None,
    };
    if let (Some(old), Some(new)) = (text_of(before, old), text_of(after, new)) {
        let hunks = FileHunks::new(old, new);
        change.added = hunks.hunks.iter().map(|h| h.added as u32).sum();
        change.removed = hunks.hunks.iter().map(|h| h.removed as u32).sum();
        let from = if before.is_absent() {
            "/dev/null".to_owned()
        } else {
            format!("a/{path}")
        };
        let to = if after.is_absent() {
            "/dev/null".to_owned()
        } else {
            format!("b/{path}")
        };
        let diff = hunks.file_diff(path, &from, &to);
        if diff.unified.len() <= MAX_DIFF_TEXT {
            change.diff = Some(diff);
        }
    }
    change
}
