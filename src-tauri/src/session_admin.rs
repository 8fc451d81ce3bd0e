//! What the sidebar and the transcript do to stored sessions besides talking in them:
//! search, rename, delete, and rewind to before a turn.
//!
//! Rewinding never destroys anything: the history up to the chosen turn is forked into a
//! new session (the original stays in the list), and the turn's message comes back for
//! the composer. Files the agent changed are not restored; the UI says so.

use std::path::PathBuf;

use std::collections::HashMap;

use memo_protocol::{
    AgentEvent, RewindOutcome, SearchResult, SessionId, SessionSummary, SEARCH_MARK_END,
    SEARCH_MARK_START,
};
use memo_store::SearchQuery;

use crate::bridge::{canonical_string, Bridge};
use crate::error::{CommandError, ErrorCode};

/// Longest title accepted, in characters (the sidebar shows far fewer).
const MAX_TITLE_CHARS: usize = 200;
/// Characters of the first message used to name a rewound session that had no title.
const TITLE_FROM_MESSAGE_CHARS: usize = 60;
/// Search results returned at once (the sidebar shows them all).
const SEARCH_LIMIT: usize = 30;

impl Bridge {
    /// Messages matching `text` (words, "phrases", prefix*), best first, in the sessions
    /// of `cwd` when given. Blank text finds nothing.
    pub fn search_sessions(
        &self,
        text: &str,
        cwd: Option<&str>,
    ) -> Result<Vec<SearchResult>, CommandError> {
        let store = self.store()?;
        let mut query = SearchQuery::new(text);
        query.cwd = cwd.map(canonical_string);
        query.limit = SEARCH_LIMIT;
        query.highlight = (SEARCH_MARK_START.to_string(), SEARCH_MARK_END.to_string());
        let hits = store.search(&query)?;
        let mut summaries: HashMap<SessionId, SessionSummary> = HashMap::new();
        let mut results = Vec::with_capacity(hits.len());
        for hit in hits {
            let session = match summaries.get(&hit.session_id) {
                Some(summary) => summary.clone(),
                None => {
                    let summary = self.summary(&hit.session_id)?;
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

    pub fn rename_session(
        &self,
        id: &SessionId,
        title: &str,
    ) -> Result<SessionSummary, CommandError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(CommandError::new(
                ErrorCode::InvalidInput,
                "a session title cannot be empty",
            ));
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(CommandError::new(
                ErrorCode::InvalidInput,
                format!("a session title has at most {MAX_TITLE_CHARS} characters"),
            ));
        }
        self.store()?.set_title(id, title)?;
        self.summary(id)
    }

    /// Deletes a session and its events. A session open here is stopped first (a running
    /// turn is interrupted, its commands killed). Its forks are kept.
    pub async fn delete_session(&self, id: &SessionId) -> Result<(), CommandError> {
        let store = self.store()?;
        if store.session(id)?.is_none() {
            return Err(CommandError::new(
                ErrorCode::NotFound,
                format!("session {id} not found"),
            ));
        }
        self.close_session(id).await;
        match store.delete_session(id)? {
            true => Ok(()),
            false => Err(CommandError::new(
                ErrorCode::NotFound,
                format!("session {id} not found"),
            )),
        }
    }

    /// A new, open session with `id`'s history up to just before the turn that starts at
    /// event `turn_seq`, plus that turn's message. Must run inside the Tokio runtime.
    pub fn rewind_session(
        &self,
        id: &SessionId,
        turn_seq: u64,
    ) -> Result<RewindOutcome, CommandError> {
        let store = self.store()?;
        let record = store.session(id)?.ok_or_else(|| {
            CommandError::new(ErrorCode::NotFound, format!("session {id} not found"))
        })?;
        let text = match store
            .events_range(id, turn_seq, turn_seq)?
            .into_iter()
            .next()
            .map(|e| e.event)
        {
            Some(AgentEvent::TurnStarted { input }) => input.text,
            Some(other) => {
                return Err(CommandError::new(
                    ErrorCode::InvalidInput,
                    format!(
                        "event {turn_seq} of session {id} is a {}, not the start of a turn",
                        other.kind()
                    ),
                ))
            }
            None => {
                return Err(CommandError::new(
                    ErrorCode::NotFound,
                    format!("session {id} has no event {turn_seq}"),
                ))
            }
        };
        let base_title = match record.title.clone() {
            Some(title) => title,
            None => self.first_message(id)?.unwrap_or_else(|| text.clone()),
        };
        // The mark goes first: the sidebar cuts long titles at the end.
        let title = format!(
            "Rewound: {}",
            one_line(&base_title, TITLE_FROM_MESSAGE_CHARS)
        );
        let session = if turn_seq > 1 {
            let fork = self
                .engine()?
                .fork_session(id, Some(turn_seq - 1))
                .map_err(CommandError::from)?;
            store.set_title(&fork.id, &title)?;
            self.resume_session(&fork.id)?
        } else {
            // Imported history can start with its first turn: nothing comes before it,
            // so the rewound conversation is a new one in the same folder.
            let provider = Some(record.provider.clone()).filter(|p| !p.is_empty());
            let model = provider.as_ref().map(|_| record.model.clone());
            let fresh = self.start_session(PathBuf::from(&record.cwd), provider, model)?;
            store.set_title(&fresh.id, &title)?;
            self.summary(&fresh.id)?
        };
        Ok(RewindOutcome { session, text })
    }

    /// The text of the session's first turn, looked for in its first events.
    fn first_message(&self, id: &SessionId) -> Result<Option<String>, CommandError> {
        let events = self.store()?.events_range(id, 1, 16)?;
        Ok(events.into_iter().find_map(|e| match e.event {
            AgentEvent::TurnStarted { input } => Some(input.text),
            _ => None,
        }))
    }
}

fn one_line(text: &str, max_chars: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

#[cfg(test)]
#[path = "session_admin_tests.rs"]
mod tests;
