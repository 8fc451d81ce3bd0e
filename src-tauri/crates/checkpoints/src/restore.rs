//! Putting a workspace's files back to an earlier point: exactly the files the session's
//! agent (or an earlier restore or review) changed since then. A file nobody but the
//! agent touched gets its earlier content back; one the agent created goes away; one
//! that someone changed after the agent did is a conflict, left alone unless the caller
//! names it. Nothing else is ever written or deleted.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::content::Content;
use crate::db::CheckpointRow;
use crate::error::{CheckpointError, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Write,
    Delete,
    Conflict,
    NotRestorable,
    Unchanged,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub path: String,
    pub action: Action,
    /// What the file gets (for Write) and its mode.
    pub target: Content,
    pub target_mode: u32,
    /// What the file holds now.
    pub current: Content,
    pub detail: Option<String>,
}

/// Per path, the state before the first and after the last of `rows`' changes.
pub(crate) struct Span {
    pub first_before: Content,
    pub first_mode: u32,
    pub last_after: Content,
    /// What the file held after Memo's last own change to it (a tool's or a review's): a
    /// file that holds something else now was changed by someone else since. A restore
    /// is not such a change: putting back what the file held earlier puts back whose it
    /// was then (an undone revert brings back the person's lines as theirs).
    pub agent_after: Content,
    pub sources: Vec<String>,
}

pub(crate) fn spans(rows: &[CheckpointRow]) -> BTreeMap<String, Span> {
    let mut out: BTreeMap<String, Span> = BTreeMap::new();
    // Per path, each content it held in order with whose it was then (the agent's last
    // content at that point), for a restore to look up.
    let mut held: BTreeMap<&str, Vec<(&Content, Content)>> = BTreeMap::new();
    for row in rows {
        for change in &row.changes {
            let span = out.entry(change.path.clone()).or_insert_with(|| Span {
                first_before: change.before.clone(),
                first_mode: change.before_mode,
                last_after: change.after.clone(),
                agent_after: change.before.clone(),
                sources: Vec::new(),
            });
            let history = held.entry(change.path.as_str()).or_default();
            history.push((&change.before, span.agent_after.clone()));
            // A restore to a content seen earlier in the range gives back whose it was;
            // any other change (a restore to a point before the range too) is Memo's.
            let earlier = (row.source == "restore")
                .then(|| history.iter().rev().find(|(c, _)| **c == change.after))
                .flatten();
            span.agent_after = match earlier {
                Some((_, whose)) => whose.clone(),
                None => change.after.clone(),
            };
            span.last_after = change.after.clone();
            history.push((&change.after, span.agent_after.clone()));
            if !span.sources.contains(&row.source) {
                span.sources.push(row.source.clone());
            }
        }
    }
    out
}

/// Decides each file's fate; `current` gives what a path holds now (after a fresh scan).
pub(crate) fn plan(
    rows: &[CheckpointRow],
    current: impl Fn(&str) -> Content,
    stored: impl Fn(&Content) -> bool,
) -> Vec<Item> {
    spans(rows)
        .into_iter()
        .map(|(path, span)| {
            let now = current(&path);
            let (action, detail) = if now == span.first_before {
                (Action::Unchanged, None)
            } else if now != span.agent_after {
                let what = if now.is_absent() {
                    "deleted after the agent changed it"
                } else {
                    "changed after the agent changed it"
                };
                (Action::Conflict, Some(what.to_owned()))
            } else {
                match &span.first_before {
                    Content::Absent => (Action::Delete, None),
                    Content::Large { size } => (
                        Action::NotRestorable,
                        Some(format!("{size} bytes: over the size cap when it changed")),
                    ),
                    blob if !stored(blob) => (
                        Action::NotRestorable,
                        Some("its stored copy is missing".to_owned()),
                    ),
                    Content::Blob(_) => (Action::Write, None),
                }
            };
            Item {
                path,
                action,
                target: span.first_before,
                target_mode: span.first_mode,
                current: now,
                detail,
            }
        })
        .collect()
}

/// Which items a restore performs: writes and deletes, plus the conflicts the caller
/// chose to overwrite (when their earlier content can be put back).
pub(crate) fn to_perform<'a>(items: &'a [Item], overwrite: &HashSet<String>) -> Vec<&'a Item> {
    items
        .iter()
        .filter(|i| match i.action {
            Action::Write | Action::Delete => true,
            Action::Conflict => {
                overwrite.contains(&i.path) && !matches!(i.target, Content::Large { .. })
            }
            _ => false,
        })
        .collect()
}

/// Writes `bytes` to `path` by way of a temporary file in the same folder, synced, then
/// renamed over it: a reader (or a crash) sees the old or the new file, never half.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(CheckpointError::io("create", dir))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(
        ".{name}{}{}",
        crate::scan::RESTORE_TEMP,
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&temp).map_err(CheckpointError::io("write", &temp))?;
        file.write_all(bytes)
            .map_err(CheckpointError::io("write", &temp))?;
        if let Some(mode) = mode.filter(|m| *m != 0) {
            file.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))
                .map_err(CheckpointError::io("set permissions of", &temp))?;
        }
        file.sync_all()
            .map_err(CheckpointError::io("sync", &temp))?;
        std::fs::rename(&temp, path).map_err(CheckpointError::io("rename", path))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
