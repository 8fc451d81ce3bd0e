//! Stored history besides talking in it: search, rename, delete, fork, rewind, usage, and
//! Memo Code's JSONL export and import.
//!
//! Rewinding never destroys anything: the history up to the chosen turn is forked into a
//! new session (the original stays), and the turn's message comes back for the composer.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use memo_protocol::{
    AgentEvent, ExportFormat, ImportFailure, ImportReport, ImportStatus, ImportedFile,
    ModelUsageReport, Phrase, RewindOutcome, SearchResult, SessionId, SessionStatus,
    SessionSummary, SkippedLine, UsageReport, SEARCH_MARK_END, SEARCH_MARK_START,
};
use memo_store::memo_code;
use memo_store::SearchQuery;

use crate::error::{Result, ServiceError};
use crate::service::Service;
use crate::sessions::session_not_found;
use crate::sessions::{canonical_string, first_message, one_line, StartRequest};

/// Longest title accepted, in characters (the sidebar shows far fewer).
const MAX_TITLE_CHARS: usize = 200;
/// Characters of the first message used to name a rewound session that had no title.
const TITLE_FROM_MESSAGE_CHARS: usize = 60;

/// A search across stored messages. Matched terms come back between
/// [`SEARCH_MARK_START`] and [`SEARCH_MARK_END`].
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// Words that must all match; "quoted phrase"; word* for a prefix.
    pub text: String,
    pub cwd: Option<PathBuf>,
    pub session: Option<SessionId>,
    pub limit: usize,
    pub offset: usize,
}

impl SearchRequest {
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            cwd: None,
            session: None,
            limit: 30,
            offset: 0,
        }
    }
}

impl Service {
    /// Messages matching the request, best first. Blank text finds nothing.
    pub fn search_sessions(&self, request: &SearchRequest) -> Result<Vec<SearchResult>> {
        let store = self.store()?;
        let mut query = SearchQuery::new(request.text.clone());
        query.cwd = request.cwd.as_deref().map(canonical_string);
        query.session = request.session.clone();
        query.limit = request.limit;
        query.offset = request.offset;
        query.highlight = (SEARCH_MARK_START.to_string(), SEARCH_MARK_END.to_string());
        let hits = store.search(&query)?;
        let mut summaries: HashMap<SessionId, SessionSummary> = HashMap::new();
        let mut results = Vec::with_capacity(hits.len());
        for hit in hits {
            let session = match summaries.get(&hit.session_id) {
                Some(summary) => summary.clone(),
                None => {
                    let summary = self.session(&hit.session_id)?;
                    summaries.insert(hit.session_id.clone(), summary.clone());
                    summary
                }
            };
            results.push(SearchResult {
                session,
                seq: hit.seq,
                role: hit.role.as_str().to_owned(),
                snippet: hit.snippet,
                timestamp_ms: hit.timestamp_ms,
            });
        }
        Ok(results)
    }

    /// The one owner of session titles: trimmed, not empty, at most 200 characters.
    pub fn rename_session(&self, id: &SessionId, title: &str) -> Result<SessionSummary> {
        let title = title.trim();
        if title.is_empty() {
            return Err(ServiceError::invalid(Phrase::SessionTitleEmpty));
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(ServiceError::invalid(Phrase::SessionTitleTooLong {
                max: MAX_TITLE_CHARS as u64,
            }));
        }
        self.store()?.set_title(id, title)?;
        self.session(id)
    }

    /// Deletes a session and its events. A session open here is stopped first (a running
    /// turn is interrupted, its commands killed). Its forks are kept.
    pub async fn delete_session(&self, id: &SessionId) -> Result<()> {
        let store = self.store()?;
        if store.session(id)?.is_none() {
            return Err(session_not_found(id));
        }
        self.close_session(id).await;
        match store.delete_session(id)? {
            true => Ok(()),
            false => Err(session_not_found(id)),
        }
    }

    /// A new stored session sharing `id`'s history up to and including `at_seq` (default:
    /// all of it). Resume it to talk in it.
    pub fn fork_session(&self, id: &SessionId, at_seq: Option<u64>) -> Result<SessionSummary> {
        self.session(id)?;
        let record = self.engine()?.fork_session(id, at_seq)?;
        self.session(&record.id)
    }

    /// A new, open session with `id`'s history up to just before the turn that starts at
    /// event `turn_seq`, plus that turn's message. Must run inside the Tokio runtime.
    pub fn rewind_session(&self, id: &SessionId, turn_seq: u64) -> Result<RewindOutcome> {
        let store = self.store()?;
        let record = self.session(id)?;
        let text = match store
            .events_range(id, turn_seq, turn_seq)?
            .into_iter()
            .next()
            .map(|e| e.event)
        {
            Some(AgentEvent::TurnStarted { input }) => input.text,
            Some(other) => {
                return Err(ServiceError::invalid(Phrase::EventNotTurnStart {
                    id: id.to_string(),
                    seq: turn_seq,
                    kind: other.kind().to_string(),
                }))
            }
            None => {
                return Err(ServiceError::not_found(Phrase::SessionNoEvent {
                    id: id.to_string(),
                    seq: turn_seq,
                }))
            }
        };
        let base_title = match record.title.clone() {
            Some(title) => title,
            None => first_message(&store, id)?.unwrap_or_else(|| text.clone()),
        };
        // The mark goes first: the sidebar cuts long titles at the end.
        let title = format!(
            "Rewound: {}",
            one_line(&base_title, TITLE_FROM_MESSAGE_CHARS)
        );
        let session = if turn_seq > 1 {
            let fork = self.engine()?.fork_session(id, Some(turn_seq - 1))?;
            store.set_title(&fork.id, &title)?;
            self.resume_session(&fork.id, None)?
        } else {
            // Imported history can start with its first turn: nothing comes before it,
            // so the rewound conversation is a new one in the same folder.
            let provider = Some(record.provider.clone()).filter(|p| !p.is_empty());
            let model = provider.as_ref().map(|_| record.model.clone());
            let fresh = self.start_session(StartRequest {
                cwd: PathBuf::from(&record.cwd),
                provider,
                model,
                ..StartRequest::default()
            })?;
            store.set_title(&fresh.id, &title)?;
            self.session(&fresh.id)?
        };
        Ok(RewindOutcome { session, text })
    }

    /// Token usage and cost of one session, or of all of them.
    pub fn usage(&self, id: Option<&SessionId>) -> Result<UsageReport> {
        if let Some(id) = id {
            self.session(id)?;
        }
        let summary = self.store()?.usage_summary(id)?;
        Ok(UsageReport {
            session_id: id.cloned(),
            calls: summary.calls(),
            tokens: summary.tokens(),
            cost_usd: summary.cost_usd(),
            by_model: summary
                .by_model
                .into_iter()
                .map(|m| ModelUsageReport {
                    provider: m.provider,
                    model: m.model,
                    calls: m.calls,
                    tokens: m.tokens,
                    cost_usd: m.cost_usd,
                    unpriced_calls: m.unpriced_calls,
                })
                .collect(),
        })
    }

    /// The header's meter: how full the session's context is, against its model's window,
    /// and what the session cost.
    pub fn session_status(&self, id: &SessionId) -> Result<SessionStatus> {
        let summary = self.session(id)?;
        let store = self.store()?;
        let config = self.config()?;
        let usage = store.usage_summary(Some(id))?;
        // An external agent's model calls are its own: its context is what it says.
        let external = summary
            .provider
            .starts_with(memo_protocol::EXTERNAL_AGENT_PROVIDER_PREFIX);
        let (used_tokens, context_window, cost_usd) = if external {
            self.external_agent_usage(id)?.unwrap_or((0, 0, None))
        } else {
            let profile = config.model_profile(&summary.provider, &summary.model);
            let used = match store.last_usage(id)? {
                Some(usage) => usage.input_tokens + usage.output_tokens,
                None => self.live_prompt(id).map_or(0, |report| report.total_tokens),
            };
            (used, profile.context_window, usage.cost_usd())
        };
        Ok(SessionStatus {
            session_id: id.clone(),
            context_window,
            used_tokens,
            compact_at_percent: config.auto_compact_threshold_percent,
            cost_usd,
            calls: usage.calls(),
            approval_mode: self.live_approval_mode(id),
            changed_files: store.changed_file_count(id)?,
            agent_settings: if external {
                self.last_agent_settings(id)?
            } else {
                Vec::new()
            },
        })
    }

    /// Writes the session as Memo Code JSONL; returns the number of lines.
    pub fn export_memo_code(&self, id: &SessionId, out: &mut dyn Write) -> Result<u64> {
        self.session(id)?;
        Ok(self.store()?.export_memo_code(id, out)?)
    }

    /// Writes the session as Markdown, for reading; returns the bytes written.
    pub fn export_markdown(&self, id: &SessionId, out: &mut dyn Write) -> Result<u64> {
        self.session(id)?;
        Ok(self.store()?.export_markdown(id, out)?)
    }

    /// Writes the session to `path` as Markdown or Memo Code JSONL, replacing what is
    /// there (the save dialog asked): to a temporary file beside it first, so a failure
    /// leaves the old file whole. Returns the bytes written.
    pub fn export_session(&self, id: &SessionId, path: &Path, format: ExportFormat) -> Result<u64> {
        self.session(id)?;
        let store = self.store()?;
        let name = path.file_name().ok_or_else(|| {
            ServiceError::invalid(Phrase::NotAFileName {
                path: path.display().to_string(),
            })
        })?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(".memo-export.tmp");
        let tmp = path.with_file_name(tmp_name);
        let written = (|| -> Result<u64> {
            let file =
                std::fs::File::create(&tmp).map_err(|e| ServiceError::io(tmp.display(), e))?;
            let mut out = std::io::BufWriter::new(file);
            let bytes = match format {
                ExportFormat::Markdown => store.export_markdown(id, &mut out)?,
                ExportFormat::MemoCodeJsonl => {
                    store.export_memo_code(id, &mut out)?;
                    out.get_ref().metadata().map(|m| m.len()).unwrap_or(0)
                }
            };
            let file = out
                .into_inner()
                .map_err(|e| ServiceError::io(tmp.display(), e.into_error()))?;
            file.sync_all()
                .map_err(|e| ServiceError::io(tmp.display(), e))?;
            std::fs::rename(&tmp, path).map_err(|e| ServiceError::io(path.display(), e))?;
            Ok(bytes)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// Imports Memo Code sessions as read-only history: every file under the given paths
    /// (folders are walked), or under `$MEMO_HOME/sessions` when none is given.
    pub fn import_memo_code(&self, paths: &[PathBuf]) -> Result<ImportReport> {
        let store = self.store()?;
        let defaults;
        let paths = if paths.is_empty() {
            defaults = [self.home()?.memo_code_sessions_dir()];
            &defaults[..]
        } else {
            paths
        };
        let mut report = memo_code::ImportReport::default();
        for path in paths {
            if path.is_dir() {
                let part = store.import_memo_code_dir(path);
                report.files.extend(part.files);
                report.failed.extend(part.failed);
            } else {
                match store.import_memo_code_file(path) {
                    Ok(Ok(file)) => report.files.push(file),
                    Ok(Err(e)) => report.failed.push((path.clone(), e.to_string())),
                    Err(e) => report.failed.push((path.clone(), e.to_string())),
                }
            }
        }
        Ok(import_report(report))
    }
}

fn import_report(report: memo_code::ImportReport) -> ImportReport {
    ImportReport {
        files: report
            .files
            .into_iter()
            .map(|f| ImportedFile {
                path: display(&f.path),
                status: match f.status {
                    memo_code::ImportStatus::New => ImportStatus::New,
                    memo_code::ImportStatus::Updated => ImportStatus::Updated,
                    memo_code::ImportStatus::Unchanged => ImportStatus::Unchanged,
                    memo_code::ImportStatus::Empty => ImportStatus::Empty,
                },
                session_id: f.session_id,
                origin_id: f.origin_id,
                events: f.events,
                skipped_lines: f
                    .skipped_lines
                    .into_iter()
                    .map(|l| SkippedLine {
                        line: l.line as u64,
                        reason: l.reason,
                    })
                    .collect(),
            })
            .collect(),
        failed: report
            .failed
            .into_iter()
            .map(|(path, error)| ImportFailure {
                path: display(&path),
                error,
            })
            .collect(),
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
