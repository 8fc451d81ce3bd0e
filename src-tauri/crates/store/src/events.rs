//! The append-only event log.

use std::collections::HashMap;

use memo_protocol::{AgentEvent, EventEnvelope, SessionId, TurnId};
use rusqlite::{params, OptionalExtension, Transaction, TransactionBehavior};

use crate::{from_sql_int, to_sql_int, Result, Store, StoreError};

impl Store {
    /// Appends one event. Its `seq` must be the session's last seq + 1 (1 for the first
    /// event), otherwise [`StoreError::SeqGap`]; the session must exist.
    pub fn append(&self, env: &EventEnvelope) -> Result<()> {
        self.append_batch(std::slice::from_ref(env))
    }

    /// Appends several events in one transaction: all or none are written. Events may
    /// belong to different sessions; each session's seqs must continue densely.
    pub fn append_batch(&self, envs: &[EventEnvelope]) -> Result<()> {
        if envs.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn();
        // IMMEDIATE takes the write lock up front, so the "last seq" we read cannot be
        // changed by another process before our insert.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Per session: (last seq so far, newest timestamp in this batch).
        let mut touched: HashMap<&str, (u64, u64)> = HashMap::new();

        for env in envs {
            let session = env.session_id.as_str();
            let (last, newest_ts) = match touched.get(session) {
                Some(state) => *state,
                None => (last_seq_checked(&tx, &env.session_id)?, 0),
            };
            let expected = last.saturating_add(1);
            if env.seq != expected {
                return Err(StoreError::SeqGap {
                    session: env.session_id.clone(),
                    expected,
                    got: env.seq,
                });
            }
            let payload =
                serde_json::to_string(&env.event).map_err(|source| StoreError::Encode {
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
            touched.insert(session, (env.seq, newest_ts.max(env.timestamp_ms)));
        }

        for (session, (_, newest_ts)) in &touched {
            // MAX: an event stamped slightly earlier than the session's creation (clock
            // skew between threads) must not move the session back in the list.
            tx.prepare_cached(
                "UPDATE sessions SET updated_ms = MAX(updated_ms, ?2) WHERE id = ?1",
            )?
            .execute(params![session, to_sql_int("timestamp", *newest_ts)?])?;
        }
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
        let mut stmt = conn.prepare_cached(
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![session.as_str(), after, limit], |r| {
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

    /// Every event of the session, in order.
    pub fn all_events(&self, session: &SessionId) -> Result<Vec<EventEnvelope>> {
        self.events(session, 0, usize::MAX)
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

/// The session's last seq, or [`StoreError::UnknownSession`].
fn last_seq_checked(tx: &Transaction<'_>, session: &SessionId) -> Result<u64> {
    let last: Option<Option<i64>> = tx
        .prepare_cached(
            "SELECT (SELECT MAX(seq) FROM events WHERE session_id = ?1) \
             FROM sessions WHERE id = ?1",
        )?
        .query_row([session.as_str()], |r| r.get(0))
        .optional()?;
    match last {
        None => Err(StoreError::UnknownSession(session.clone())),
        Some(last) => Ok(last.map(from_sql_int).unwrap_or(0)),
    }
}
