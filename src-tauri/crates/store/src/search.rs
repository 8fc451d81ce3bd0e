//! Full-text search over every session: user messages, assistant answers and the names of
//! the tools the assistant called, ranked by BM25, with snippets and the seq to jump to.
//!
//! SQLite's `unicode61` tokenizer splits on spaces and punctuation, which leaves a run of
//! Chinese or Japanese text as one giant token. So before indexing (and querying) every
//! CJK character is set apart with zero-width spaces: each becomes its own token, a CJK
//! query becomes a phrase of them, and the marks are stripped from snippets again.

use memo_protocol::SessionId;
use rusqlite::params;

use crate::{from_sql_int, Result, Store, StoreError};

/// Set around CJK characters in indexed text; `unicode61` treats it as a separator, and
/// it is invisible if it ever leaks.
const CJK_MARK: char = '\u{200B}';

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
            SearchRole::User => crate::derive::ROLE_USER,
            SearchRole::Assistant => crate::derive::ROLE_ASSISTANT,
            SearchRole::Tool => crate::derive::ROLE_TOOL,
        }
    }

    fn parse(s: &str) -> SearchRole {
        match s {
            crate::derive::ROLE_USER => SearchRole::User,
            crate::derive::ROLE_TOOL => SearchRole::Tool,
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
    /// Put around each matched word in the snippet.
    pub highlight: (String, String),
    /// Approximate snippet length, in words (CJK characters count as words).
    pub snippet_words: u32,
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
    /// BM25 relevance; lower is better (SQLite's convention).
    pub score: f64,
    pub timestamp_ms: u64,
}

impl Store {
    /// Searches every session (or the ones the query narrows to), best match first.
    pub fn search(&self, query: &SearchQuery) -> Result<Vec<SearchHit>> {
        let Some(fts) = fts_query(&query.text) else {
            return Ok(Vec::new());
        };
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(query.offset).unwrap_or(i64::MAX);
        let conn = self.conn();
        // `ORDER BY rank` lets FTS5 sort by BM25 itself and compute snippets only for the
        // rows that are returned.
        let mut stmt = conn.prepare_cached(
            "SELECT d.session_id, s.title, s.cwd, d.seq, d.role, \
                    snippet(search_fts, 0, ?2, ?3, '…', ?4), search_fts.rank, e.ts_ms \
             FROM search_fts \
             JOIN search_docs d ON d.id = search_fts.rowid \
             JOIN sessions s ON s.id = d.session_id \
             JOIN events e ON e.session_id = d.session_id AND e.seq = d.seq \
             WHERE search_fts MATCH ?1 \
               AND (?5 IS NULL OR d.session_id = ?5) \
               AND (?6 IS NULL OR s.workspace_id = (SELECT id FROM workspaces WHERE path = ?6)) \
             ORDER BY search_fts.rank LIMIT ?7 OFFSET ?8",
        )?;
        let rows = stmt.query_map(
            params![
                fts,
                query.highlight.0,
                query.highlight.1,
                i64::from(query.snippet_words.clamp(1, 64)),
                query.session.as_ref().map(SessionId::as_str),
                query.cwd,
                limit,
                offset
            ],
            |r| {
                Ok(SearchHit {
                    session_id: SessionId(r.get(0)?),
                    session_title: r.get(1)?,
                    cwd: r.get(2)?,
                    seq: from_sql_int(r.get(3)?),
                    role: SearchRole::parse(&r.get::<_, String>(4)?),
                    snippet: strip_marks(&r.get::<_, String>(5)?),
                    score: r.get(6)?,
                    timestamp_ms: from_sql_int(r.get(7)?),
                })
            },
        )?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| match e.sqlite_error_code() {
                // A query FTS5 cannot parse is the user's input, not a broken database.
                Some(rusqlite::ErrorCode::Unknown) => StoreError::BadQuery(e.to_string()),
                _ => StoreError::Sqlite(e),
            })
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xF900..=0xFAFF   // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F   // Half-width Katakana
        | 0x20000..=0x2FFFF // CJK Extensions B and later
    )
}

/// Text as it is stored in the index: CJK characters set apart so each is a token.
pub(crate) fn fts_text(text: &str) -> String {
    if !text.chars().any(is_cjk) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for c in text.chars() {
        if is_cjk(c) {
            out.push(CJK_MARK);
            out.push(c);
            out.push(CJK_MARK);
        } else {
            out.push(c);
        }
    }
    out
}

fn strip_marks(snippet: &str) -> String {
    snippet.chars().filter(|&c| c != CJK_MARK).collect()
}

/// Turns what the user typed into an FTS5 query that cannot be a syntax error: every
/// term becomes a quoted string (so `AND`, `-`, `:` and quotes are just text), joined by
/// FTS5's implicit AND. `None` when there is nothing to search for.
pub(crate) fn fts_query(input: &str) -> Option<String> {
    let mut terms = Vec::new();
    let mut rest = input.trim();
    while !rest.is_empty() {
        let (term, phrase, after) = if let Some(quoted) = rest.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], true, &quoted[end + 1..]),
                None => (quoted, true, ""),
            }
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], false, &rest[end..])
        };
        rest = after.trim_start();
        let (word, prefix) = match term.strip_suffix('*') {
            Some(w) if !phrase => (w, true),
            _ => (term, false),
        };
        // A term of only punctuation would tokenize to nothing and match nothing, which
        // FTS5 reports as an error in some positions; drop it.
        if !word.chars().any(char::is_alphanumeric) {
            continue;
        }
        let quoted = format!("\"{}\"", fts_text(word).replace('"', "\"\""));
        terms.push(if prefix { format!("{quoted}*") } else { quoted });
    }
    (!terms.is_empty()).then(|| terms.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_always_quoted() {
        assert_eq!(fts_query("  "), None);
        assert_eq!(fts_query("-- :: \"\""), None);
        assert_eq!(
            fts_query("quick sort").as_deref(),
            Some("\"quick\" \"sort\"")
        );
        assert_eq!(
            fts_query("a AND b OR -c").as_deref(),
            Some("\"a\" \"AND\" \"b\" \"OR\" \"-c\"")
        );
        assert_eq!(
            fts_query("\"exact phrase\" read*").as_deref(),
            Some("\"exact phrase\" \"read\"*")
        );
        assert_eq!(fts_query("say \"hi").as_deref(), Some("\"say\" \"hi\""));
        assert_eq!(
            fts_query("it's \"a\"b").as_deref(),
            Some("\"it's\" \"a\" \"b\"")
        );
    }

    #[test]
    fn cjk_is_split_into_characters() {
        let indexed = fts_text("用rust写快排");
        assert_eq!(
            indexed,
            "\u{200B}用\u{200B}rust\u{200B}写\u{200B}\u{200B}快\u{200B}\u{200B}排\u{200B}"
        );
        assert_eq!(strip_marks(&indexed), "用rust写快排");
        assert_eq!(fts_text("plain ascii"), "plain ascii");
    }
}
