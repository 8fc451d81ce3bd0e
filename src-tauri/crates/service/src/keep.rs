//! "Keep" and "Mark as reviewed" in the changes panel, made to last. In a git repository a
//! kept hunk is staged in the index (through memo-git's `git apply --cached`), so git itself
//! remembers it and a hunk staged in a terminal shows as kept too; outside git it is a mark
//! in Memo's store. A file marked reviewed is a mark in the store either way. Marks name
//! their hunk or file by content: one that changes afterwards shows afresh.

use std::collections::HashMap;
use std::path::Path;

use memo_git::Repo;
use memo_protocol::{
    ChangeKind, ChangesReport, ErrorCode, FileChange, FileDiff, GitStageRequest, KeepRequest,
    Phrase, ReviewedRequest, SessionId,
};
use sha2::{Digest, Sha256};

use crate::error::{Result, ServiceError};
use crate::service::Service;

fn digest(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A hunk by its lines, not its numbers: an edit above it that shifts it keeps the mark.
fn hunk_mark(text: &str) -> String {
    format!("hunk:{}", digest(&[text]))
}

fn file_mark(diff: Option<&FileDiff>, file: &FileChange) -> String {
    match diff {
        Some(diff) => {
            let texts: Vec<&str> = diff.hunks.iter().map(|h| h.text.as_str()).collect();
            format!("file:{}", digest(&texts))
        }
        // No text diff (binary, too large): the change as counted.
        None => format!(
            "file:{}",
            digest(&[
                &format!("{:?}", file.kind),
                &file.added.to_string(),
                &file.removed.to_string()
            ])
        ),
    }
}

impl Service {
    /// Fills each file's `kept` hunks and `reviewed` flag. Reading them never fails the
    /// list: what cannot be read is shown as not kept, and logged.
    pub(crate) fn fill_review(
        &self,
        id: &SessionId,
        root: &Path,
        is_git: bool,
        files: &mut [FileChange],
    ) {
        let store = match self.store() {
            Ok(store) => store,
            Err(error) => {
                tracing::warn!(%error, "review marks not read");
                return;
            }
        };
        let repo = if is_git { Repo::open(root).ok() } else { None };
        // Path → whether the index differs from HEAD there.
        let listed: Option<HashMap<String, bool>> =
            repo.as_ref().and_then(|r| r.status().ok()).map(|s| {
                s.files
                    .into_iter()
                    .map(|f| (f.path, f.staged.is_some()))
                    .collect()
            });
        for file in files.iter_mut() {
            let marks = store.review_marks(id, &file.path).unwrap_or_default();
            file.reviewed = marks.contains(&file_mark(file.diff.as_ref(), file));
            let Some(diff) = &file.diff else { continue };
            let all: Vec<u32> = diff.hunks.iter().map(|h| h.index).collect();
            file.kept = match (&repo, &listed) {
                // As git holds it at HEAD and in the index: committed.
                (Some(_), Some(listed)) if !listed.contains_key(&file.path) => {
                    file.committed = all;
                    Vec::new()
                }
                (Some(repo), Some(listed)) => {
                    let in_index: Vec<u32> = all
                        .into_iter()
                        .filter(|&h| repo.index_has(&file.path, diff, h).unwrap_or(false))
                        .collect();
                    // Nothing staged for the file: the index is HEAD, so what it has is
                    // committed (no second index read from HEAD needed).
                    file.committed = if listed.get(&file.path) == Some(&false) {
                        in_index.clone()
                    } else {
                        repo.committed_hunks(&file.path, diff, &in_index)
                            .unwrap_or_default()
                    };
                    in_index
                        .into_iter()
                        .filter(|h| !file.committed.contains(h))
                        .collect()
                }
                _ => diff
                    .hunks
                    .iter()
                    .filter(|h| marks.contains(&hunk_mark(&h.text)))
                    .map(|h| h.index)
                    .collect(),
            };
        }
    }

    /// The file as the panel shows it, checked against the diff the person saw.
    fn shown_file(
        &self,
        id: &SessionId,
        scope: memo_protocol::ChangeScope,
        path: &str,
        shown: &str,
    ) -> Result<(ChangesReport, FileChange)> {
        let report = self.session_changes(id, scope)?;
        let file = report
            .files
            .iter()
            .find(|f| f.path == path)
            .cloned()
            .ok_or_else(|| {
                ServiceError::said(
                    ErrorCode::Conflict,
                    Phrase::NothingToRevert {
                        path: path.to_owned(),
                    },
                )
            })?;
        if file.diff.as_ref().map_or("", |d| d.unified.as_str()) != shown {
            return Err(ServiceError::said(
                ErrorCode::Conflict,
                Phrase::GitChangedSinceShown {
                    path: path.to_owned(),
                },
            ));
        }
        Ok((report, file))
    }

    /// Keeps (or takes back) hunks of a file of the panel; returns the list after.
    pub fn keep_change(&self, id: &SessionId, request: &KeepRequest) -> Result<ChangesReport> {
        let (report, file) =
            self.shown_file(id, request.scope, &request.path, &request.shown_diff)?;
        let picked: Vec<u32> = match (&request.hunks, &file.diff) {
            (Some(hunks), _) => hunks.clone(),
            (None, Some(diff)) => diff.hunks.iter().map(|h| h.index).collect(),
            (None, None) => Vec::new(),
        };
        let root = std::path::PathBuf::from(self.session(id)?.cwd);
        if report.git {
            if request.undo && picked.iter().any(|h| file.committed.contains(h)) {
                return Err(ServiceError::invalid(Phrase::GitHunkCommitted {
                    path: file.path.clone(),
                }));
            }
            let repo = Repo::open(&root)?;
            let whole = file.diff.is_none()
                || file.kind == ChangeKind::Deleted
                || (file.kind == ChangeKind::Created && request.undo);
            match (&file.diff, whole) {
                (Some(diff), false) if request.undo => {
                    repo.unstage_patch(&file.path, diff, &picked)?
                }
                (Some(diff), false) => repo.stage_patch(&file.path, diff, &picked)?,
                _ => repo.stage(&GitStageRequest {
                    path: file.path.clone(),
                    unstage: request.undo,
                    hunks: None,
                    shown_diff: None,
                })?,
            }
        } else {
            let store = self.store()?;
            if let Some(diff) = &file.diff {
                for hunk in diff.hunks.iter().filter(|h| picked.contains(&h.index)) {
                    store.set_review_mark(id, &file.path, &hunk_mark(&hunk.text), !request.undo)?;
                }
            }
        }
        self.session_changes(id, request.scope)
    }

    /// Marks a file of the panel reviewed as it stands now (or not any more).
    pub fn mark_reviewed(
        &self,
        id: &SessionId,
        request: &ReviewedRequest,
    ) -> Result<ChangesReport> {
        let (_, file) = self.shown_file(id, request.scope, &request.path, &request.shown_diff)?;
        self.store()?.set_review_mark(
            id,
            &file.path,
            &file_mark(file.diff.as_ref(), &file),
            request.reviewed,
        )?;
        self.session_changes(id, request.scope)
    }
}
