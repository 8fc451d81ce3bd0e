//! Memo Code's JSONL session files: export a session in their event types, and import
//! their sessions as read-only history.
//!
//! Memo Code writes one file per session under `$MEMO_HOME/sessions/`, bucketed by
//! project: `sessions/-home-me-proj/2026-02-23T16-22-21-<sessionId>.jsonl` (the folder is
//! the cwd with separators turned into `-`, which is lossy, so the cwd is taken from the
//! `session_start` line). Each line is
//! `{"ts", "sessionId", "turn"?, "step"?, "type", "content"?, "role"?, "meta"?}` with
//! `type` one of `session_start`, `session_title`, `turn_start`, `assistant` (the model's
//! text of one step), `action` (the tool calls of that step: `meta.tool/input/action_id`,
//! or `meta.toolBlocks` for parallel calls), `observation` (one tool result:
//! `meta.action_id/tool/status`), `final` (the turn's answer), `turn_end`
//! (`meta.status`, `meta.tokens`) and `session_end`; `context_usage` and
//! `context_compact` are informational. Turns count from 1, steps from 0.

mod export;
mod import;
pub mod time;

use std::path::PathBuf;

use memo_protocol::SessionId;

pub use import::parse_file;

/// The `origin` of imported sessions in the store.
pub const ORIGIN: &str = "memo-code";

/// A line of an imported file that was not used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIssue {
    /// 1-based.
    pub line: usize,
    pub reason: String,
}

/// What happened to one imported file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportStatus {
    /// A session not seen before.
    New,
    /// Imported before, and the file has grown since: the read-only copy was replaced.
    Updated,
    /// Imported before and unchanged.
    Unchanged,
    /// Nothing usable in the file (no turns); nothing stored.
    Empty,
}

/// One imported file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedFile {
    pub path: PathBuf,
    pub status: ImportStatus,
    /// The store's id of the imported session (`mc-` + Memo Code's session id).
    pub session_id: Option<SessionId>,
    /// Memo Code's session id.
    pub origin_id: String,
    pub events: u64,
    pub skipped_lines: Vec<LineIssue>,
}

/// What an import did, file by file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub files: Vec<ImportedFile>,
    /// Files that could not be read at all, with the reason.
    pub failed: Vec<(PathBuf, String)>,
}

impl ImportReport {
    pub fn skipped_lines(&self) -> usize {
        self.files.iter().map(|f| f.skipped_lines.len()).sum()
    }
}

/// The store id of an imported Memo Code session.
pub fn session_id_for(origin_id: &str) -> SessionId {
    SessionId::new(format!("mc-{origin_id}"))
}
