//! The changes panel and file restore: what a session changed (its last turn, all of
//! it) or what git sees as uncommitted, as diffs; reverting hunks of one file; the
//! session's checkpoints; restoring code, conversation or both to an earlier point.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use memo_checkpoints::{Action, BlobId, Checkpoints, Content, Item, Meta, Reviewed};
use memo_engine::changes::{describe, DiffBudget};
use memo_protocol::{
    AgentEvent, ChangeScope, ChangesReport, CheckpointSummary, ErrorCode, FileChange, HeldBack,
    Phrase, RestoreAction, RestoreFile, RestoreMode, RestoreReport, RevertRequest, RevertResult,
    SessionId, ToolCallId, TurnId,
};
use memo_tools::FileHunks;

use crate::error::{Result, ServiceError};
use crate::git;
use crate::service::Service;

/// One file of a scope: its base (before the scope's changes) and what it holds now.
struct Side {
    path: String,
    base: Content,
    base_bytes: Option<Vec<u8>>,
    base_mode: u32,
    now: Content,
    now_bytes: Option<Vec<u8>>,
    sources: Vec<String>,
    /// What the agent left (session scopes): when the file is not that any more, someone
    /// changed it since, and a revert must keep what they wrote.
    agent_after: Option<(Content, Option<Vec<u8>>)>,
}

impl Service {
    fn checkpoint_store(&self) -> Result<Checkpoints> {
        self.checkpoints()?
            .ok_or_else(|| ServiceError::invalid(Phrase::CheckpointsOff))
    }

    fn workspace_of(&self, id: &SessionId) -> Result<PathBuf> {
        Ok(PathBuf::from(self.session(id)?.cwd))
    }

    fn meta(&self, id: &SessionId, source: &str) -> Result<Meta> {
        Ok(Meta {
            session_id: id.0.clone(),
            seq: self.session(id)?.last_seq,
            turn_id: None,
            call_id: None,
            source: source.into(),
        })
    }

    /// The session's last turn, if it had one.
    fn last_turn(&self, id: &SessionId) -> Result<Option<TurnId>> {
        self.session(id)?;
        Ok(self.store()?.last_turn_id(id)?.map(TurnId::new))
    }

    /// Every file changed in `scope`, with its diff from the scope's start to now.
    pub fn session_changes(&self, id: &SessionId, scope: ChangeScope) -> Result<ChangesReport> {
        let root = self.workspace_of(id)?;
        let is_git = git::is_repo(&root);
        let sides = match self.sides(id, &root, scope, is_git) {
            Ok(sides) => sides,
            // Why there is nothing to list (no git, no checkpoints): a note, not a failure.
            Err(
                note @ ServiceError::Said {
                    code: ErrorCode::InvalidInput,
                    ..
                },
            ) => {
                return Ok(ChangesReport {
                    scope,
                    files: Vec::new(),
                    git: is_git,
                    note: note.phrase().cloned(),
                })
            }
            Err(other) => return Err(other),
        };
        let mut files: Vec<FileChange> = sides.iter().map(to_change).collect();
        self.fill_review(id, &root, is_git, &mut files);
        Ok(ChangesReport {
            scope,
            files,
            git: is_git,
            note: None,
        })
    }

    fn sides(
        &self,
        id: &SessionId,
        root: &Path,
        scope: ChangeScope,
        is_git: bool,
    ) -> Result<Vec<Side>> {
        let max = self
            .checkpoints()?
            .map_or(2 * 1024 * 1024, |c| c.limits().max_file_bytes);
        match scope {
            ChangeScope::Uncommitted => {
                if !is_git {
                    return Err(ServiceError::invalid(Phrase::FolderNotGitRepo));
                }
                let repo = memo_git::Repo::open(root)?;
                let paths = git::changed_paths(&repo).unwrap_or_default();
                Ok(paths
                    .into_iter()
                    .filter_map(|path| {
                        let base_bytes = repo.head_content(&path);
                        let base = base_bytes.as_deref().map_or(Content::Absent, content_of);
                        let (now, now_bytes) = on_disk(root, &path, max);
                        (now != base).then_some(Side {
                            path,
                            base,
                            base_bytes,
                            base_mode: 0,
                            now,
                            now_bytes,
                            sources: vec!["git".into()],
                            agent_after: None,
                        })
                    })
                    .collect())
            }
            ChangeScope::Session | ChangeScope::LastTurn => {
                let store = self.checkpoint_store()?;
                if let Some(reason) = store.untracked_reason(root) {
                    return Err(ServiceError::invalid(Phrase::ChangesNotTracked { reason }));
                }
                let turn = match scope {
                    ChangeScope::LastTurn => match self.last_turn(id)? {
                        Some(turn) => Some(turn),
                        None => return Ok(Vec::new()),
                    },
                    _ => None,
                };
                let spans = store
                    .changed_files(&id.0, turn.as_ref().map(|t| t.0.as_str()))
                    .map_err(checkpoint_error)?;
                let mut out = Vec::new();
                for span in spans {
                    let (now, now_bytes) = on_disk(root, &span.path, max);
                    if now == span.before {
                        continue;
                    }
                    let mut sources = span.sources;
                    // Changed since the agent's last change, before any scan said so: the
                    // person's, shown as theirs.
                    if now != span.agent_after && !sources.iter().any(|s| s == "outside") {
                        sources.push("outside".into());
                    }
                    let after_bytes = store.read(&span.agent_after).ok().flatten();
                    out.push(Side {
                        base_bytes: store.read(&span.before).ok().flatten(),
                        path: span.path,
                        base: span.before,
                        base_mode: span.before_mode,
                        agent_after: (now != span.agent_after)
                            .then_some((span.agent_after, after_bytes)),
                        now,
                        now_bytes,
                        sources,
                    });
                }
                Ok(out)
            }
        }
    }

    /// Puts back hunks of one file of the panel (or the whole file) as they were at the
    /// scope's start. Refused as a conflict when the file changed since the diff shown.
    /// When lines changed after the agent's edit would go too, nothing is written and the
    /// result says which ([`RevertResult::held_back`]) unless the request forces it.
    pub fn revert_change(&self, id: &SessionId, request: &RevertRequest) -> Result<RevertResult> {
        let root = self.workspace_of(id)?;
        let is_git = git::is_repo(&root);
        let sides = self.sides(id, &root, request.scope, is_git)?;
        let side = sides
            .into_iter()
            .find(|s| s.path == request.path)
            .ok_or_else(|| {
                ServiceError::said(
                    ErrorCode::Conflict,
                    Phrase::NothingToRevert {
                        path: request.path.clone(),
                    },
                )
            })?;
        let shown = to_change(&side);
        if shown
            .diff
            .as_ref()
            .map(|d| d.unified.as_str())
            .unwrap_or("")
            != request.shown_diff
        {
            return Err(ServiceError::said(
                ErrorCode::Conflict,
                Phrase::ChangedSinceShown {
                    path: request.path.clone(),
                },
            ));
        }
        if !request.force {
            match self.revert_keeping_theirs(&side, request)? {
                Keeping::NotNeeded => {}
                Keeping::Kept(kept) => {
                    let undo = self.write_reviewed(id, &root, &side, Some(kept.as_bytes()))?;
                    return self.reverted(id, request.scope, undo, None);
                }
                Keeping::HeldBack(held) => {
                    return self.reverted(id, request.scope, None, Some(held))
                }
            }
        }
        let new_bytes: Option<Vec<u8>> = match (&request.hunks, &side.base_bytes, &side.now_bytes) {
            (None, base, _) => {
                if side.base.is_absent() {
                    None
                } else {
                    Some(base.clone().ok_or_else(|| not_kept(&request.path))?)
                }
            }
            (Some(hunks), base, now) => {
                let text = |b: &Option<Vec<u8>>| -> Result<String> {
                    match b {
                        Some(bytes) => memo_engine::changes::as_text(bytes)
                            .map(str::to_owned)
                            .ok_or_else(|| {
                                ServiceError::invalid(Phrase::RevertNotText {
                                    path: request.path.clone(),
                                })
                            }),
                        None => Ok(String::new()),
                    }
                };
                let (old, new) = (text(base)?, text(now)?);
                let diff = FileHunks::new(&old, &new);
                let chosen: HashSet<u32> = hunks.iter().copied().collect();
                if let Some(bad) = chosen.iter().find(|i| **i as usize >= diff.hunks.len()) {
                    return Err(ServiceError::invalid(Phrase::NoSuchHunk {
                        path: request.path.clone(),
                        hunks: diff.hunks.len() as u64,
                        hunk: u64::from(*bad),
                    }));
                }
                // Keep every hunk except the reverted ones.
                Some(diff.apply(|i| !chosen.contains(&(i as u32))).into_bytes())
            }
        };
        let undo = self.write_reviewed(id, &root, &side, new_bytes.as_deref())?;
        self.reverted(id, request.scope, undo, None)
    }

    fn reverted(
        &self,
        id: &SessionId,
        scope: ChangeScope,
        undo_checkpoint: Option<u64>,
        held_back: Option<HeldBack>,
    ) -> Result<RevertResult> {
        Ok(RevertResult {
            changes: self.session_changes(id, scope)?,
            undo_checkpoint,
            held_back,
        })
    }

    /// Undoes a revert of the panel: `path` gets back what it held before the revert
    /// recorded as `checkpoint`. A file changed since is left alone (a conflict in the
    /// report) unless `overwrite`; other files are not touched.
    pub fn undo_revert(
        &self,
        id: &SessionId,
        checkpoint: u64,
        path: &str,
        overwrite: bool,
    ) -> Result<RestoreReport> {
        let root = self.workspace_of(id)?;
        let store = self.checkpoint_store()?;
        let only: HashSet<String> = std::iter::once(path.to_owned()).collect();
        let overwrite = if overwrite {
            only.clone()
        } else {
            HashSet::new()
        };
        let restored = store
            .restore_only(
                &root,
                checkpoint,
                &only,
                &overwrite,
                &self.meta(id, "restore")?,
            )
            .map_err(checkpoint_error)?;
        Ok(report(restored.items, restored.checkpoint))
    }

    /// Writes the reverted file; returns the checkpoint that can undo it (none without a
    /// checkpoint store).
    fn write_reviewed(
        &self,
        id: &SessionId,
        root: &Path,
        side: &Side,
        bytes: Option<&[u8]>,
    ) -> Result<Option<u64>> {
        let full = root.join(&side.path);
        match self.checkpoints()? {
            Some(store) => {
                let meta = self.meta(id, "review")?;
                match store
                    .write_reviewed(root, &side.path, &side.now, bytes, &meta)
                    .map_err(checkpoint_error)?
                {
                    Reviewed::Stale => Err(ServiceError::said(
                        ErrorCode::Conflict,
                        Phrase::ChangedWhileReverting {
                            path: side.path.clone(),
                        },
                    )),
                    Reviewed::Written { checkpoint } => Ok(checkpoint),
                }
            }
            None => {
                match bytes {
                    Some(bytes) => {
                        memo_checkpoints::write_atomic(&full, bytes, Some(side.base_mode))
                            .map_err(checkpoint_error)?
                    }
                    None => std::fs::remove_file(&full)
                        .map_err(|e| ServiceError::io(full.display(), e))?,
                }
                Ok(None)
            }
        }
    }

    /// A revert of a file someone changed after the agent: the agent's change taken out of
    /// what is on disk now, with the other edits kept, or held back naming the lines of
    /// theirs it would drop. [`Keeping::NotNeeded`] when nobody changed the file since the
    /// agent (or the chosen hunks hold none of their lines).
    fn revert_keeping_theirs(&self, side: &Side, request: &RevertRequest) -> Result<Keeping> {
        let Some((after, after_bytes)) = &side.agent_after else {
            return Ok(Keeping::NotNeeded);
        };
        let text = |b: &Option<Vec<u8>>| {
            b.as_deref()
                .and_then(memo_engine::changes::as_text)
                .map(str::to_owned)
        };
        let held = |lines: &str, why: String| {
            Keeping::HeldBack(HeldBack {
                path: request.path.clone(),
                lines: lines.to_owned(),
                message: format!(
                    "{}: {why}; nothing was written. Revert anyway to drop them (Undo brings them back), or edit the file by hand",
                    request.path
                ),
            })
        };
        let changed_since = || {
            held(
                "all",
                "it was changed after the agent changed it, and Memo cannot tell those lines apart here".into(),
            )
        };
        let (Some(now), Some(agent)) = (text(&side.now_bytes), text(after_bytes)) else {
            return Ok(changed_since());
        };
        let before = match (&side.base, text(&side.base_bytes)) {
            (Content::Absent, _) => {
                return Ok(held(
                    "all",
                    "it was created by the agent and changed since; reverting deletes what was added after".into(),
                ))
            }
            (_, Some(before)) => before,
            (_, None) => return Ok(changed_since()),
        };
        if after.is_absent() {
            return Ok(changed_since());
        }
        let overlapping = |lines: &[std::ops::Range<usize>]| {
            let named = crate::merge::lines_named(lines);
            held(
                &named,
                format!("line(s) {named} were changed after the agent's edit, inside or next to it, and reverting would drop them"),
            )
        };
        // The hunks shown compare the agent's start with the file now: a hunk that holds
        // none of the later edits is the agent's alone and reverts as usual.
        if let Some(hunks) = &request.hunks {
            let theirs = crate::merge::edited_lines(&agent, &now);
            let shown = FileHunks::new(&before, &now);
            let hit: Vec<std::ops::Range<usize>> = theirs
                .into_iter()
                .filter(|t| {
                    hunks.iter().any(|&i| {
                        shown
                            .hunks
                            .get(i as usize)
                            .is_some_and(|h| t.start <= h.new.end && h.new.start <= t.end)
                    })
                })
                .map(|t| t.start + 1..t.end.max(t.start + 1) + 1)
                .collect();
            return Ok(if hit.is_empty() {
                Keeping::NotNeeded
            } else {
                overlapping(&hit)
            });
        }
        Ok(match crate::merge::revert_onto(&before, &agent, &now) {
            crate::merge::Reverted::Clean(text) => Keeping::Kept(text),
            crate::merge::Reverted::Overlaps(lines) => overlapping(&lines),
        })
    }

    /// A session's checkpoints, oldest first.
    pub fn session_checkpoints(&self, id: &SessionId) -> Result<Vec<CheckpointSummary>> {
        self.session(id)?;
        let rows = self
            .checkpoint_store()?
            .list(&id.0)
            .map_err(checkpoint_error)?;
        Ok(rows
            .into_iter()
            .map(|r| CheckpointSummary {
                id: r.id,
                seq: r.seq,
                turn_id: r.turn_id.map(TurnId::new),
                call_id: r.call_id.map(ToolCallId::new),
                source: r.source,
                created_ms: r.created_ms,
                files: r.changes.into_iter().map(|c| c.path).collect(),
            })
            .collect())
    }

    /// What restoring the code to just after event `to_seq` would do.
    pub fn preview_restore(&self, id: &SessionId, to_seq: u64) -> Result<RestoreReport> {
        let root = self.workspace_of(id)?;
        let store = self.checkpoint_store()?;
        let items = match store
            .first_after_seq(&id.0, to_seq)
            .map_err(checkpoint_error)?
        {
            Some(from) => store
                .plan_restore(&root, from, &self.meta(id, "restore")?)
                .map_err(checkpoint_error)?,
            None => Vec::new(),
        };
        Ok(report(items, None))
    }

    /// Restores the code (files the agent changed after event `to_seq`), the conversation
    /// (a new session with the history up to `to_seq`; when the next event starts a turn,
    /// its message comes back for the composer), or both. Conflicting files are written
    /// only when named in `overwrite`.
    pub fn restore(
        &self,
        id: &SessionId,
        to_seq: u64,
        mode: RestoreMode,
        overwrite: &[String],
    ) -> Result<RestoreReport> {
        let mut out = RestoreReport {
            files: Vec::new(),
            undo_checkpoint: None,
            session: None,
            message: None,
        };
        if matches!(mode, RestoreMode::Code | RestoreMode::Both) {
            let root = self.workspace_of(id)?;
            let store = self.checkpoint_store()?;
            if let Some(from) = store
                .first_after_seq(&id.0, to_seq)
                .map_err(checkpoint_error)?
            {
                let overwrite: HashSet<String> = overwrite.iter().cloned().collect();
                let restored = store
                    .restore(&root, from, &overwrite, &self.meta(id, "restore")?)
                    .map_err(checkpoint_error)?;
                out = report(restored.items, restored.checkpoint);
            }
        }
        if matches!(mode, RestoreMode::Conversation | RestoreMode::Both) {
            let next = self.events(id, to_seq, 1)?.into_iter().next();
            match next {
                Some(e) if matches!(e.event, AgentEvent::TurnStarted { .. }) => {
                    let rewound = self.rewind_session(id, e.seq)?;
                    out.session = Some(rewound.session);
                    out.message = Some(rewound.text);
                }
                _ => {
                    let fork = self.fork_session(id, Some(to_seq))?;
                    out.session = Some(self.resume_session(&fork.id, None)?);
                }
            }
        }
        Ok(out)
    }

    /// Undoes a restore: puts back what it overwrote (its `undo_checkpoint`).
    pub fn undo_restore(
        &self,
        id: &SessionId,
        checkpoint: u64,
        overwrite: &[String],
    ) -> Result<RestoreReport> {
        let root = self.workspace_of(id)?;
        let store = self.checkpoint_store()?;
        let overwrite: HashSet<String> = overwrite.iter().cloned().collect();
        let restored = store
            .restore(&root, checkpoint, &overwrite, &self.meta(id, "restore")?)
            .map_err(checkpoint_error)?;
        Ok(report(restored.items, restored.checkpoint))
    }
}

fn report(items: Vec<Item>, undo: Option<u64>) -> RestoreReport {
    RestoreReport {
        files: items
            .into_iter()
            .map(|i| RestoreFile {
                path: i.path,
                action: match i.action {
                    Action::Write => RestoreAction::Write,
                    Action::Delete => RestoreAction::Delete,
                    Action::Conflict => RestoreAction::Conflict,
                    Action::NotRestorable => RestoreAction::NotRestorable,
                    Action::Unchanged => RestoreAction::Unchanged,
                },
                detail: i.detail,
            })
            .collect(),
        undo_checkpoint: undo,
        session: None,
        message: None,
    }
}

fn to_change(side: &Side) -> FileChange {
    describe(
        &side.path,
        &side.base,
        side.base_bytes.as_deref(),
        &side.now,
        side.now_bytes.as_deref(),
        side.sources.clone(),
        DiffBudget::Panel,
    )
}

fn content_of(bytes: &[u8]) -> Content {
    Content::Blob(BlobId::of(bytes))
}

/// What a file holds now: absent, its bytes (within the cap), or too large to read.
fn on_disk(root: &Path, path: &str, max: u64) -> (Content, Option<Vec<u8>>) {
    let full = root.join(path);
    match std::fs::symlink_metadata(&full) {
        Ok(meta) if meta.is_file() && meta.len() > max => {
            (Content::Large { size: meta.len() }, None)
        }
        Ok(meta) if meta.is_file() => match std::fs::read(&full) {
            Ok(bytes) => (content_of(&bytes), Some(bytes)),
            Err(_) => (Content::Large { size: meta.len() }, None),
        },
        _ => (Content::Absent, None),
    }
}

fn not_kept(path: &str) -> ServiceError {
    ServiceError::invalid(Phrase::OverSizeCap {
        path: path.to_owned(),
    })
}

fn checkpoint_error(error: memo_checkpoints::CheckpointError) -> ServiceError {
    ServiceError::checkpoints(error)
}

/// What reverting a file someone changed after the agent comes to.
enum Keeping {
    /// Nobody's lines are in the way: revert as usual.
    NotNeeded,
    /// The agent's change taken out of the file now, the later edits kept.
    Kept(String),
    /// The revert would drop lines changed after the agent's edit.
    HeldBack(HeldBack),
}
