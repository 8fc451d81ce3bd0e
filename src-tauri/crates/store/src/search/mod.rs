//! Full-text search over every session: user messages, assistant answers and the names of
//! the tools the assistant called, ranked by BM25, with snippets and the seq to jump to.
//!
//! A search runs in three steps: FTS5 finds the matching rows newest first (stopping at
//! `max_candidates`, which is what keeps a very common word fast over a million
//! messages), [`rank`] scores those candidates with BM25, and FTS5 cuts snippets for the
//! page of hits returned.

mod query;
mod rank;

use memo_protocol::SessionId;
use rusqlite::{params, Connection, OptionalExtension};

use crate::{from_sql_int, Result, Store, StoreError};

/// The roles a search doc can have.
pub(crate) const ROLE_USER: &str = "user";
pub(crate) const ROLE_ASSISTANT: &str = "assistant";
pub(crate) const ROLE_TOOL: &str = "tool";

pub(crate) use query::fts_text;

/// What part of the conversation a hit is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchRole {
    User,
    Assistant,
    /// The names of the tools an assistant step called.
    Tool,
}

impl SearchRole {
    pub fn as_str(self) -> &'static str {
        match self {
            SearchRole::User => ROLE_USER,
            SearchRole::Assistant => ROLE_ASSISTANT,
            SearchRole::Tool => ROLE_TOOL,
        }
    }

    fn parse(s: &str) -> SearchRole {
        match s {
            ROLE_USER => SearchRole::User,
            ROLE_TOOL => SearchRole::Tool,
            _ => SearchRole::Assistant,
        }
    }
}

/// A search. `text` is plain words, not FTS syntax: every word must match (in any order),
/// a `"quoted phrase"` must match as a phrase, and a trailing `*` on a word matches any
/// word starting with it.
#[derive(Debug, Clone)]
pub struct SearchQuery {
    pub text: String,
    /// Only sessions of this workspace (cwd).
    pub cwd: Option<String>,
    /// Only this session.
    pub session: Option<SessionId>,
    pub limit: usize,
    pub offset: usize,
    /// Put around each match in the snippet.
    pub highlight: (String, String),
    /// Approximate snippet length, in words (CJK characters count as words).
    pub snippet_words: u32,
    /// Rank only the newest this-many matches. Ranking has to look at every match it
    /// ranks, so a word found in most of a million messages would be slow; past this cap
    /// the search ranks the most recent matches, which is what someone looking for "where
    /// did we talk about X" wants anyway. `None` ranks every match.
    pub max_candidates: Option<usize>,
}

impl SearchQuery {
    pub fn new(text: impl Into<String>) -> SearchQuery {
        SearchQuery {
            text: text.into(),
            cwd: None,
            session: None,
            limit: 20,
            offset: 0,
            highlight: ("[".into(), "]".into()),
            snippet_words: 16,
            max_candidates: Some(1000),
        }
    }
}

/// One matching message.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub session_id: SessionId,
    pub session_title: Option<String>,
    pub cwd: String,
    /// The event to jump to (see [`Store::page_around`]).
    pub seq: u64,
    pub role: SearchRole,
    pub snippet: String,
    /// BM25 relevance; higher is better.
    pub score: f64,
    pub timestamp_ms: u64,
}

/// A matching row before ranking.
struct Candidate {
    rowid: i64,
    tokens: Vec<String>,
    session_id: String,
    seq: i64,
    role: String,
    title: Option<String>,
    cwd: String,
}

impl Store {
    /// Searches every session (or the ones the query narrows to), best match first; equal
    /// scores put the newer message first.
    pub fn search(&self, query: &SearchQuery) -> Result<Vec<SearchHit>> {
        let Some(parsed) = query::parse(&query.text) else {
            return Ok(Vec::new());
        };
        let conn = self.conn();
        let cap = query
            .max_candidates
            .map_or(i64::MAX, |c| i64::try_from(c).unwrap_or(i64::MAX));
        let mut candidates = Vec::new();
        {
            let mut stmt = conn.prepare_cached(
                "SELECT search_fts.rowid, search_fts.text, d.session_id, d.seq, d.role, \
                        s.title, s.cwd \
                 FROM search_fts \
                 JOIN search_docs d ON d.id = search_fts.rowid \
                 JOIN sessions s ON s.id = d.session_id \
                 WHERE search_fts MATCH ?1 \
                   AND (?2 IS NULL OR d.session_id = ?2) \
                   AND (?3 IS NULL OR s.workspace_id = \
                        (SELECT id FROM workspaces WHERE path = ?3)) \
                 ORDER BY search_fts.rowid DESC LIMIT ?4",
            )?;
            let mut rows = stmt
                .query(params![
                    parsed.fts,
                    query.session.as_ref().map(SessionId::as_str),
                    query.cwd,
                    cap
                ])
                .map_err(query_error)?;
            while let Some(r) = rows.next().map_err(query_error)? {
                candidates.push(Candidate {
                    rowid: r.get(0)?,
                    tokens: rank::tokenize(&r.get::<_, String>(1)?),
                    session_id: r.get(2)?,
                    seq: r.get(3)?,
                    role: r.get(4)?,
                    title: r.get(5)?,
                    cwd: r.get(6)?,
                });
            }
        }
        if candidates.is_empty() {
            return Ok(Vec::new());
        }

        // Rowids are never reused, so the largest one bounds the row count from above;
        // deleted sessions make it an overestimate, which BM25 barely notices.
        let docs = conn
            .prepare_cached("SELECT COALESCE(MAX(id), 0) FROM search_docs")?
            .query_row([], |r| r.get::<_, i64>(0))? as f64;
        let stats = rank::Stats {
            docs,
            doc_freq: parsed
                .terms
                .iter()
                .map(|t| doc_freq(&conn, t, docs))
                .collect::<Result<_>>()?,
            avg_len: candidates.iter().map(|c| c.tokens.len()).sum::<usize>() as f64
                / candidates.len() as f64,
        };
        let mut scored: Vec<(f64, Candidate)> = candidates
            .into_iter()
            .map(|c| (rank::score(&parsed.terms, &stats, &c.tokens), c))
            .collect();
        // Candidates arrive newest first and the sort is stable: ties stay newest first.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));

        let mut hits = Vec::new();
        for (score, c) in scored.into_iter().skip(query.offset).take(query.limit) {
            let snippet: Option<String> = conn
                .prepare_cached(
                    "SELECT snippet(search_fts, 0, ?3, ?4, '…', ?5) FROM search_fts \
                     WHERE search_fts MATCH ?1 AND rowid = ?2",
                )?
                .query_row(
                    params![
                        parsed.fts,
                        c.rowid,
                        query.highlight.0,
                        query.highlight.1,
                        i64::from(query.snippet_words.clamp(1, 64))
                    ],
                    |r| r.get(0),
                )
                .optional()
                .map_err(query_error)?;
            let ts: i64 = conn
                .prepare_cached("SELECT ts_ms FROM events WHERE session_id = ?1 AND seq = ?2")?
                .query_row(params![c.session_id, c.seq], |r| r.get(0))
                .optional()?
                .unwrap_or(0);
            hits.push(SearchHit {
                session_id: SessionId(c.session_id),
                session_title: c.title,
                cwd: c.cwd,
                seq: from_sql_int(c.seq),
                role: SearchRole::parse(&c.role),
                snippet: query::strip_marks(&snippet.unwrap_or_default()),
                score,
                timestamp_ms: from_sql_int(ts),
            });
        }
        Ok(hits)
    }
}

/// How many matches of a term [`doc_freq`] counts exactly; past that it extrapolates.
const DF_PROBE: i64 = 256;

/// Rows containing a term. Counting every match of a word found in most messages would
/// cost as much as the ranking it saves, so past [`DF_PROBE`] matches the count is
/// extrapolated from how far back the newest `DF_PROBE` of them reach: rowids grow with
/// time, so `DF_PROBE` matches among the last `span` rows means a share of
/// `DF_PROBE / span` of all rows. That is exact for rare words (where BM25's weight
/// matters) and close for common ones.
fn doc_freq(conn: &Connection, term: &query::Term, docs: f64) -> Result<f64> {
    let fts = query::term_fts(term);
    let nth: Option<i64> = conn
        .prepare_cached(
            "SELECT rowid FROM search_fts WHERE search_fts MATCH ?1 \
             ORDER BY rowid DESC LIMIT 1 OFFSET ?2",
        )?
        .query_row(params![fts, DF_PROBE - 1], |r| r.get(0))
        .optional()
        .map_err(query_error)?;
    match nth {
        Some(oldest) => {
            let newest: i64 = conn
                .prepare_cached("SELECT COALESCE(MAX(id), 0) FROM search_docs")?
                .query_row([], |r| r.get(0))?;
            let span = (newest - oldest + 1).max(DF_PROBE) as f64;
            Ok((DF_PROBE as f64 / span * docs).min(docs))
        }
        None => {
            let n: i64 = conn
                .prepare_cached("SELECT count(*) FROM search_fts WHERE search_fts MATCH ?1")?
                .query_row([fts], |r| r.get(0))
                .map_err(query_error)?;
            Ok(n as f64)
        }
    }
}

fn query_error(e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        // A query FTS5 cannot parse is the user's input, not a broken database.
        Some(rusqlite::ErrorCode::Unknown) => StoreError::BadQuery(e.to_string()),
        _ => StoreError::Sqlite(e),
    }
}
