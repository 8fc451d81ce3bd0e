//! Reading a session's log in pages, so a client can show a long session without loading
//! all of it: the last page first, then older pages as the user scrolls up, or pages
//! from a search hit on towards the end as the user scrolls down.

use memo_protocol::{AgentEvent, EventEnvelope, SessionId, TurnEndReason, TurnId};
use rusqlite::params;

use crate::events::read_events;
use crate::{Result, Store, StoreError};

/// A contiguous run of a session's events, with what lies beyond it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventPage {
    /// In seq order.
    pub events: Vec<EventEnvelope>,
    /// Whether events exist before the first one in this page...
    pub has_before: bool,
    /// ...and after the last one.
    pub has_after: bool,
    /// The session's newest seq when the page was read.
    pub last_seq: u64,
}

fn sql_seq(seq: u64) -> i64 {
    // Past i64::MAX there are no rows; clamping keeps every comparison meaningful.
    i64::try_from(seq).unwrap_or(i64::MAX)
}

fn sql_limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl Store {
    /// Up to `limit` events with `seq < before_seq`, the newest of them, in seq order.
    /// `before_seq = u64::MAX` gives the last page.
    pub fn events_before(
        &self,
        session: &SessionId,
        before_seq: u64,
        limit: usize,
    ) -> Result<Vec<EventEnvelope>> {
        let conn = self.conn();
        let mut events = read_events(
            &conn,
            session,
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3",
            params![session.as_str(), sql_seq(before_seq), sql_limit(limit)],
        )?;
        events.reverse();
        Ok(events)
    }

    /// Events with `from <= seq <= to`, in order.
    pub fn events_range(
        &self,
        session: &SessionId,
        from: u64,
        to: u64,
    ) -> Result<Vec<EventEnvelope>> {
        let conn = self.conn();
        read_events(
            &conn,
            session,
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq",
            params![session.as_str(), sql_seq(from), sql_seq(to)],
        )
    }

    /// The last page of a session: what a client shows when it opens one.
    pub fn last_page(&self, session: &SessionId, limit: usize) -> Result<EventPage> {
        let last_seq = self.last_seq(session)?;
        let events = self.events_before(session, u64::MAX, limit)?;
        Ok(page(events, last_seq))
    }

    /// The page around one event (a search hit): up to `before` events before it, the
    /// event itself, and up to `after` events after it. Fails with
    /// [`StoreError::NoSuchEvent`] when the session has no such event.
    pub fn page_around(
        &self,
        session: &SessionId,
        seq: u64,
        before: usize,
        after: usize,
    ) -> Result<EventPage> {
        let last_seq = self.last_seq(session)?;
        if seq == 0 || seq > last_seq {
            return Err(StoreError::NoSuchEvent {
                session: session.clone(),
                seq,
                last: last_seq,
            });
        }
        let mut events = self.events_before(session, seq, before)?;
        events.extend(self.events(session, seq - 1, after.saturating_add(1))?);
        Ok(page(events, last_seq))
    }

    /// The seqs of up to `count` turn starts before `before_seq`, newest first: where a
    /// page of whole turns begins.
    pub fn turn_starts_before(
        &self,
        session: &SessionId,
        before_seq: u64,
        count: usize,
    ) -> Result<Vec<u64>> {
        self.turn_starts(
            "SELECT seq FROM events WHERE session_id = ?1 AND seq < ?2 \
             AND kind = 'turn_started' ORDER BY seq DESC LIMIT ?3",
            session,
            before_seq,
            count,
        )
    }

    /// The seqs of up to `count` turn starts after `after_seq`, oldest first: where a page
    /// read forward (from a search hit towards the session's end) stops.
    pub fn turn_starts_after(
        &self,
        session: &SessionId,
        after_seq: u64,
        count: usize,
    ) -> Result<Vec<u64>> {
        self.turn_starts(
            "SELECT seq FROM events WHERE session_id = ?1 AND seq > ?2 \
             AND kind = 'turn_started' ORDER BY seq LIMIT ?3",
            session,
            after_seq,
            count,
        )
    }

    /// Runs one of the two turn-start queries above (`?1` session, `?2` seq, `?3` count).
    fn turn_starts(
        &self,
        sql: &str,
        session: &SessionId,
        seq: u64,
        count: usize,
    ) -> Result<Vec<u64>> {
        let conn = self.conn();
        let mut statement = conn.prepare_cached(sql)?;
        let rows = statement.query_map(
            params![session.as_str(), sql_seq(seq), sql_limit(count)],
            |row| row.get::<_, i64>(0),
        )?;
        let mut seqs = Vec::new();
        for seq in rows {
            seqs.push(u64::try_from(seq?).unwrap_or(0));
        }
        Ok(seqs)
    }

    /// Every event except the streamed deltas, which make up most of a long log and are
    /// repeated whole by the `assistant_message` that ends their step. Resuming needs
    /// just these. (Deltas are excluded rather than the rest listed, so an event kind
    /// added later is never silently dropped from a resume.)
    pub fn conversation_events(&self, session: &SessionId) -> Result<Vec<EventEnvelope>> {
        self.conversation_events_until(session, u64::MAX)
    }

    /// [`Store::conversation_events`] up to and including `until_seq`: what a session held
    /// when it was reopened, read later (a reopened session reads its conversation only
    /// when it is first needed).
    pub fn conversation_events_until(
        &self,
        session: &SessionId,
        until_seq: u64,
    ) -> Result<Vec<EventEnvelope>> {
        let conn = self.conn();
        read_events(
            &conn,
            session,
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND seq <= ?2 AND kind NOT IN ('text_delta', \
             'reasoning_delta', 'tool_call_begin', 'tool_call_args_delta') ORDER BY seq",
            params![session.as_str(), sql_seq(until_seq)],
        )
    }

    /// The session's events of these kinds (`turn_started`, `context_compacted`...), in
    /// order: a few among many, found without reading the others' payloads.
    pub fn events_of_kinds(
        &self,
        session: &SessionId,
        kinds: &[&str],
    ) -> Result<Vec<EventEnvelope>> {
        let conn = self.conn();
        let marks = vec!["?"; kinds.len()].join(", ");
        let sql = format!(
            "SELECT seq, turn_id, payload, ts_ms FROM events \
             WHERE session_id = ?1 AND kind IN ({marks}) ORDER BY seq"
        );
        let mut values: Vec<&dyn rusqlite::ToSql> = vec![&session.0];
        values.extend(kinds.iter().map(|k| k as &dyn rusqlite::ToSql));
        read_events(&conn, session, &sql, values.as_slice())
    }

    /// The session's last event of `kind`, found without reading the others.
    pub fn last_event_of_kind(
        &self,
        session: &SessionId,
        kind: &str,
    ) -> Result<Option<EventEnvelope>> {
        let conn = self.conn();
        let sql = "SELECT seq, turn_id, payload, ts_ms FROM events \
                   WHERE session_id = ?1 AND kind = ?2 ORDER BY seq DESC LIMIT 1";
        let values: [&dyn rusqlite::ToSql; 2] = [&session.0, &kind];
        Ok(read_events(&conn, session, sql, values)?.pop())
    }

    /// The seq of the session's last `turn_started` when no `turn_ended` follows it: a
    /// turn the log left open (the process stopped mid-turn).
    pub fn open_turn_start(&self, session: &SessionId) -> Result<Option<u64>> {
        let conn = self.conn();
        let last = |kind: &str| -> Result<Option<i64>> {
            Ok(conn
                .prepare_cached("SELECT MAX(seq) FROM events WHERE session_id = ?1 AND kind = ?2")?
                .query_row(params![session.as_str(), kind], |r| r.get(0))?)
        };
        let (started, resumed, ended) = (
            last("turn_started")?,
            last("turn_resumed")?,
            last("turn_ended")?,
        );
        let started = started.max(resumed);
        Ok(match (started, ended) {
            (Some(s), Some(e)) if e > s => None,
            (Some(s), _) => Some(u64::try_from(s).unwrap_or(0)),
            (None, _) => None,
        })
    }
}

impl Store {
    /// The session's last turn and how it ended (`None`: the log left it open, the
    /// process stopped in it); `None` when the session has no turn yet.
    pub fn last_turn_outcome(
        &self,
        session: &SessionId,
    ) -> Result<Option<(TurnId, Option<TurnEndReason>)>> {
        let conn = self.conn();
        let sql = "SELECT seq, turn_id, payload, ts_ms FROM events WHERE session_id = ?1 \
                   AND kind IN ('turn_started', 'turn_resumed', 'turn_ended') \
                   ORDER BY seq DESC LIMIT 1";
        let last = read_events(&conn, session, sql, params![session.as_str()])?;
        Ok(last.into_iter().next().and_then(|env| {
            let turn = env.turn_id?;
            Some(match env.event {
                AgentEvent::TurnEnded { reason, .. } => (turn, Some(reason)),
                _ => (turn, None),
            })
        }))
    }
}

fn page(events: Vec<EventEnvelope>, last_seq: u64) -> EventPage {
    let has_before = events.first().is_some_and(|e| e.seq > 1);
    let has_after = events.last().is_some_and(|e| e.seq < last_seq);
    EventPage {
        events,
        has_before,
        has_after,
        last_seq,
    }
}
