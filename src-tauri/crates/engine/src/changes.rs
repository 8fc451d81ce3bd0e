//! Diffs of recorded file changes, as the protocol shows them (`FileChange`), for the
//! `files_changed` event, the changes panel and the restore preview.

use memo_checkpoints::{Checkpoints, Content};
use memo_protocol::{ChangeKind, FileChange};
use memo_tools::FileHunks;

/// Larger sides are listed without a diff (the panel says so); the checkpoint size cap
/// (2 MiB by default) keeps most files below it.
const MAX_DIFF_SIDE: usize = 4 * 1024 * 1024;
/// How long a diff may be where it goes: an event stays small (every tool card holds
/// it); the changes panel asks for one file's changes and can show a long diff (its view
/// is windowed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffBudget {
    Event,
    Panel,
}

impl DiffBudget {
    fn max_text(self) -> usize {
        match self {
            DiffBudget::Event => 256 * 1024,
            DiffBudget::Panel => 16 * 1024 * 1024,
        }
    }
}

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
    describe(
        path,
        before,
        old.as_deref(),
        after,
        new.as_deref(),
        sources,
        DiffBudget::Event,
    )
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
    budget: DiffBudget,
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
        kept: Vec::new(),
        committed: Vec::new(),
        reviewed: false,
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
        if diff.unified.len() <= budget.max_text() {
            change.diff = Some(diff);
        }
    }
    change
}
