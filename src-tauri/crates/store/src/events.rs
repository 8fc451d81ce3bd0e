//! The append-only event log.

use std::collections::HashMap;

use memo_protocol::{AgentEvent, EventEnvelope, SessionId, TurnId};
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};

use crate::derive::{index_event, SessionModel};
use crate::usage::PriceTable;
use crate::{from_sql_int, to_sql_int, Result, Store, StoreError};

impl Store {
    /// Appends one event. Its `seq` must be the session's last seq + 1 (1 for the first
    /// event), otherwise [`StoreError::SeqGap`]; the session must exist.
    pub fn append(&self, env: &EventEnvelope) -> Result<()> {
        self.append_batch(std::slice::from_ref(env))
    }

    /// Appends several events in one transaction: all or none are written. Events may
    /// belong to different sessions; each session's seqs must continue densely. The
    /// derived tables (search, usage, approvals) are updated in the same transaction.
    /// Read-only (imported) sessions refuse appends.
    pub fn append_batch(&self, envs: &[EventEnvelope]) -> Result<()> {
        if envs.is_empty() {
            return Ok(());
        }
        // Held, not cloned: this runs for every streamed batch. Always taken before the
        // connection (set_price takes only this lock), so the order cannot deadlock.
        let prices = self.prices();
        let mut conn = self.conn();
        // IMMEDIATE takes the write lock up front, so the "last seq" we read cannot be
        // changed by another process before our insert.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        insert_events(&tx, envs, &prices, false)?;
        tx.commit()?;
        Ok(())
    }

    /// Up to `limit` events with `seq > after_seq`, in order.
    pub fn events(
        &self,
        session: &SessionId,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<EventEnvelope>> {
        // Past i64::MAX there are no rows; clamping keeps that true without an error.
        let after = i64::try_from(after_seq).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let conn = self.conn();
        read_events(
            &conn,
            session,
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
            params![session.as_str(), after, limit],
        )
    }

    /// Every event of the session, in order.
    pub fn all_events(&self, session: &SessionId) -> Result<Vec<EventEnvelope>> {
        self.events(session, 0, usize::MAX)
    }

    /// The turn the session started last, if any (walks the session's events backwards on
    /// the primary key; no event is decoded).
    pub fn last_turn_id(&self, session: &SessionId) -> Result<Option<String>> {
        let conn = self.conn();
        let found = conn
            .prepare_cached(
                "SELECT turn_id FROM events WHERE session_id = ?1 \
                 AND kind IN ('turn_started', 'turn_resumed') ORDER BY seq DESC LIMIT 1",
            )?
            .query_row([session.as_str()], |r| r.get::<_, Option<String>>(0))
            .optional()?;
        Ok(found.flatten())
    }

    /// How many distinct files the session's tool calls changed, over its whole log (the
    /// UI holds only a window of a long session). SQLite reads just the paths out of the
    /// `files_changed` events, so the diffs they carry are never decoded here.
    pub fn changed_file_count(&self, session: &SessionId) -> Result<u64> {
        let conn = self.conn();
        let count: i64 = conn
            .prepare_cached(
                // A payload that is not JSON (a damaged row) is passed over, not an error
                // for the whole count.
                "SELECT COUNT(DISTINCT json_extract(change.value, '$.path')) \
                 FROM events, json_each(events.payload, '$.changes') AS change \
                 WHERE events.session_id = ?1 AND events.kind = 'files_changed' \
                 AND json_valid(events.payload) \
                 AND json_extract(events.payload, '$.call_id') IS NOT NULL",
            )?
            .query_row([session.as_str()], |r| r.get(0))?;
        Ok(from_sql_int(count))
    }

    /// The highest seq written for the session; 0 when it has no events (or does not
    /// exist).
    pub fn last_seq(&self, session: &SessionId) -> Result<u64> {
        let conn = self.conn();
        let last: i64 = conn
            .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?1")?
            .query_row([session.as_str()], |r| r.get(0))?;
        Ok(from_sql_int(last))
    }
}

/// Runs an event query whose columns are `seq, turn_id, payload, ts_ms` and decodes it.
pub(crate) fn read_events(
    conn: &Connection,
    session: &SessionId,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<EventEnvelope>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, turn_id, payload, ts_ms) = row?;
        let seq = from_sql_int(seq);
        let event: AgentEvent =
            serde_json::from_str(&payload).map_err(|source| StoreError::CorruptEvent {
                session: session.clone(),
                seq,
                source,
            })?;
        out.push(EventEnvelope {
            session_id: session.clone(),
            turn_id: turn_id.map(TurnId),
            seq,
            timestamp_ms: from_sql_int(ts_ms),
            event,
        });
    }
    Ok(out)
}

/// Per session in a batch: its last seq so far, newest timestamp, and model.
struct Touched {
    last: u64,
    newest_ts: u64,
    model: SessionModel,
}

/// Inserts a dense run of events (and their derived rows) inside `tx`. `allow_read_only`
/// is for the import, which fills read-only sessions.
pub(crate) fn insert_events(
    tx: &Transaction<'_>,
    envs: &[EventEnvelope],
    prices: &PriceTable,
    allow_read_only: bool,
) -> Result<()> {
    let mut touched: HashMap<&str, Touched> = HashMap::new();
    for env in envs {
        let session = env.session_id.as_str();
        if !touched.contains_key(session) {
            let (last, model, read_only) = session_state(tx, &env.session_id)?;
            if read_only && !allow_read_only {
                return Err(StoreError::ReadOnly(env.session_id.clone()));
            }
            touched.insert(
                session,
                Touched {
                    last,
                    newest_ts: 0,
                    model,
                },
            );
        }
        let Some(state) = touched.get_mut(session) else {
            continue; // Inserted just above.
        };
        let expected = state.last.saturating_add(1);
        if env.seq != expected {
            return Err(StoreError::SeqGap {
                session: env.session_id.clone(),
                expected,
                got: env.seq,
            });
        }
        let payload = serde_json::to_string(&env.event).map_err(|source| StoreError::Encode {
            session: env.session_id.clone(),
            source,
        })?;
        tx.prepare_cached(
            "INSERT INTO events (session_id, seq, turn_id, kind, payload, ts_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            session,
            to_sql_int("seq", env.seq)?,
            env.turn_id.as_ref().map(TurnId::as_str),
            env.event.kind(),
            payload,
            to_sql_int("timestamp", env.timestamp_ms)?,
        ])?;
        index_event(tx, env, &state.model, prices)?;
        state.last = env.seq;
        state.newest_ts = state.newest_ts.max(env.timestamp_ms);
    }

    for (session, state) in &touched {
        // MAX: an event stamped slightly earlier than the session's creation (clock
        // skew between threads) must not move the session back in the list.
        tx.prepare_cached("UPDATE sessions SET updated_ms = MAX(updated_ms, ?2) WHERE id = ?1")?
            .execute(params![session, to_sql_int("timestamp", state.newest_ts)?])?;
    }
    Ok(())
}

/// The session's last seq, model and read-only flag, or [`StoreError::UnknownSession`].
fn session_state(tx: &Transaction<'_>, session: &SessionId) -> Result<(u64, SessionModel, bool)> {
    let row = tx
        .prepare_cached(
            "SELECT (SELECT MAX(seq) FROM events WHERE session_id = ?1), provider, model, \
             read_only FROM sessions WHERE id = ?1",
        )?
        .query_row([session.as_str()], |r| {
            Ok((
                r.get::<_, Option<i64>>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, bool>(3)?,
            ))
        })
        .optional()?;
    match row {
        None => Err(StoreError::UnknownSession(session.clone())),
        Some((last, provider, model, read_only)) => Ok((
            last.map(from_sql_int).unwrap_or(0),
            SessionModel { provider, model },
            read_only,
        )),
    }
}
