//! Tables derived from the event log: full-text search docs, token usage, approvals.
//!
//! They are written in the same transaction as the events they come from, so a crash can
//! never leave an event without its derived rows or the reverse. Only events that carry
//! searchable text, usage or approvals produce rows; deltas produce none.

use memo_protocol::{AgentEvent, EventEnvelope, TokenUsage, TurnId};
use rusqlite::{params, Transaction};

use crate::usage::PriceTable;
use crate::{from_sql_int, to_sql_int, Result, StoreError};

use crate::search::{fts_text, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER};

/// What a usage row needs to know about its session.
pub(crate) struct SessionModel {
    pub provider: String,
    pub model: String,
}

/// Event kinds that produce derived rows, for queries that only want those.
pub(crate) const DERIVING_KINDS: &str = "'turn_started', 'assistant_message', 'usage', \
     'context_compacted', 'approval_requested', 'approval_resolved'";

pub(crate) fn index_event(
    tx: &Transaction<'_>,
    env: &EventEnvelope,
    session: &SessionModel,
    prices: &PriceTable,
) -> Result<()> {
    let sid = env.session_id.as_str();
    let seq = to_sql_int("seq", env.seq)?;
    let ts = to_sql_int("timestamp", env.timestamp_ms)?;
    let turn = env.turn_id.as_ref().map(TurnId::as_str);
    match &env.event {
        // The typed text only: images (base64) are stored in the event, never indexed.
        AgentEvent::TurnStarted { input } => add_search_doc(tx, sid, seq, ROLE_USER, &input.text)?,
        AgentEvent::AssistantMessage {
            text, tool_calls, ..
        } => {
            add_search_doc(tx, sid, seq, ROLE_ASSISTANT, text)?;
            let names: Vec<&str> = tool_calls.iter().map(|c| c.name.as_str()).collect();
            add_search_doc(tx, sid, seq, ROLE_TOOL, &names.join(" "))?;
        }
        // A compaction is a model call too; its tokens count like a step's.
        AgentEvent::ContextCompacted { usage, .. } if *usage != TokenUsage::default() => {
            insert_usage(tx, env, session, prices, usage)?
        }
        AgentEvent::Usage { step, .. } => insert_usage(tx, env, session, prices, step)?,
        AgentEvent::ApprovalRequested { request } => {
            let json = encode(env, request)?;
            let risk = encode(env, &request.risk)?;
            tx.prepare_cached(
                "INSERT OR IGNORE INTO approvals (session_id, request_id, turn_id, requested_seq, \
                 tool_name, risk, fingerprint, request, requested_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                sid,
                request.request_id.as_str(),
                turn,
                seq,
                request.tool_name,
                risk.trim_matches('"'),
                request.fingerprint,
                json,
                ts,
            ])?;
        }
        AgentEvent::ApprovalResolved {
            request_id,
            decision,
        } => {
            let json = encode(env, decision)?;
            tx.prepare_cached(
                "UPDATE approvals SET decision = ?3, resolved_seq = ?4, resolved_ms = ?5 \
                 WHERE session_id = ?1 AND request_id = ?2",
            )?
            .execute(params![sid, request_id.as_str(), json, seq, ts])?;
        }
        _ => {}
    }
    Ok(())
}

fn insert_usage(
    tx: &Transaction<'_>,
    env: &EventEnvelope,
    session: &SessionModel,
    prices: &PriceTable,
    usage: &TokenUsage,
) -> Result<()> {
    let cost = prices.cost_usd(&session.provider, &session.model, usage);
    tx.prepare_cached(
        "INSERT OR REPLACE INTO usage (session_id, seq, turn_id, provider, model, \
         input_tokens, output_tokens, cached_input_tokens, reasoning_tokens, cost_usd, \
         ts_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        env.session_id.as_str(),
        to_sql_int("seq", env.seq)?,
        env.turn_id.as_ref().map(TurnId::as_str),
        session.provider,
        session.model,
        to_sql_int("input tokens", usage.input_tokens)?,
        to_sql_int("output tokens", usage.output_tokens)?,
        to_sql_int("cached tokens", usage.cached_input_tokens)?,
        to_sql_int("reasoning tokens", usage.reasoning_tokens)?,
        cost,
        to_sql_int("timestamp", env.timestamp_ms)?,
    ])?;
    Ok(())
}

fn encode<T: serde::Serialize>(env: &EventEnvelope, value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|source| StoreError::Encode {
        session: env.session_id.clone(),
        source,
    })
}

fn add_search_doc(
    tx: &Transaction<'_>,
    session: &str,
    seq: i64,
    role: &str,
    text: &str,
) -> Result<()> {
    if text.trim().is_empty() {
        return Ok(());
    }
    tx.prepare_cached("INSERT INTO search_docs (session_id, seq, role) VALUES (?1, ?2, ?3)")?
        .execute(params![session, seq, role])?;
    let id = tx.last_insert_rowid();
    tx.prepare_cached("INSERT INTO search_fts (rowid, text) VALUES (?1, ?2)")?
        .execute(params![id, fts_text(text)])?;
    Ok(())
}

/// Migration backfill: derives rows for every event already stored. Prices are unknown at
/// this point, so backfilled usage has no cost. An event that cannot be decoded is
/// skipped (and logged) rather than failing the migration, which would lock the user out.
pub(crate) fn backfill_all(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let sql = format!(
        "SELECT e.session_id, e.seq, e.turn_id, e.payload, e.ts_ms, s.provider, s.model \
         FROM events e JOIN sessions s ON s.id = e.session_id \
         WHERE e.kind IN ({DERIVING_KINDS}) ORDER BY e.session_id, e.seq"
    );
    let mut stmt = tx.prepare(&sql)?;
    let mut rows = stmt.query([])?;
    let prices = PriceTable::default();
    while let Some(row) = rows.next()? {
        let session: String = row.get(0)?;
        let seq = from_sql_int(row.get(1)?);
        let payload: String = row.get(3)?;
        let event: AgentEvent = match serde_json::from_str(&payload) {
            Ok(event) => event,
            Err(err) => {
                tracing::warn!(session, seq, error = %err, "skipping undecodable event in backfill");
                continue;
            }
        };
        let env = EventEnvelope {
            session_id: session.into(),
            turn_id: row.get::<_, Option<String>>(2)?.map(TurnId),
            seq,
            timestamp_ms: from_sql_int(row.get(4)?),
            event,
        };
        let meta = SessionModel {
            provider: row.get(5)?,
            model: row.get(6)?,
        };
        index_event(tx, &env, &meta, &prices).map_err(into_sqlite)?;
    }
    Ok(())
}

/// Backfill runs inside the migration, whose error type is rusqlite's.
fn into_sqlite(err: StoreError) -> rusqlite::Error {
    match err {
        StoreError::Sqlite(e) => e,
        other => rusqlite::Error::ToSqlConversionFailure(Box::new(other)),
    }
}
