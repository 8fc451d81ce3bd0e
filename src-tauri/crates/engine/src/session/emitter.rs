//! Assigns sequence numbers, persists, then delivers. Persist-before-deliver is the
//! invariant that lets a client reconnect with `after_seq` and miss nothing, and what lets
//! each subscriber's queue be bounded: one that falls a whole queue behind is dropped and
//! reads what it missed from the store (see `subscription`).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use memo_protocol::{AgentEvent, ErrorKind, EventEnvelope, SessionId, TurnId};
use memo_store::Store;
use tokio::sync::mpsc;

use crate::EngineError;

/// Live events waiting for one subscriber, at most. A window drains its queue every frame;
/// this many is seconds of the fastest stream.
const QUEUE: usize = 16_384;

pub(crate) struct Emitter {
    session_id: SessionId,
    store: Arc<Store>,
    /// Live events waiting for one subscriber, at most (QUEUE but in tests).
    queue: usize,
    state: Mutex<EmitterState>,
}

struct EmitterState {
    last_seq: u64,
    // Bounded: a subscriber whose queue is full is dropped (its receiver then reads what
    // it missed from the store and subscribes again); the engine never waits for one.
    subscribers: Vec<mpsc::Sender<EventEnvelope>>,
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Emitter {
    pub fn new(session_id: SessionId, store: Arc<Store>, last_seq: u64) -> Self {
        Self {
            session_id,
            store,
            queue: QUEUE,
            state: Mutex::new(EmitterState {
                last_seq,
                subscribers: Vec::new(),
            }),
        }
    }

    pub fn session_id(&self) -> &SessionId {
        &self.session_id
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn lock(&self) -> MutexGuard<'_, EmitterState> {
        // A panic while holding this lock cannot leave the state half-updated (seq is only
        // bumped after the store accepted the event), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Persists and delivers one event. When the store refuses it, subscribers get an
    /// unpersisted `error` envelope with `seq = 0` and the caller gets the error.
    pub fn emit(&self, turn_id: Option<&TurnId>, event: AgentEvent) -> Result<u64, EngineError> {
        let mut state = self.lock();
        let envelope = EventEnvelope {
            session_id: self.session_id.clone(),
            turn_id: turn_id.cloned(),
            seq: state.last_seq + 1,
            timestamp_ms: now_ms(),
            event,
        };
        if let Err(err) = self.store.append(&envelope) {
            let notice = storage_error_notice(&self.session_id, turn_id, &err);
            state
                .subscribers
                .retain(|s| s.try_send(notice.clone()).is_ok());
            return Err(err.into());
        }
        state.last_seq = envelope.seq;
        let seq = envelope.seq;
        state
            .subscribers
            .retain(|s| s.try_send(envelope.clone()).is_ok());
        Ok(seq)
    }

    /// Persists several events in one transaction, then delivers them in order.
    pub fn emit_batch(
        &self,
        turn_id: Option<&TurnId>,
        events: Vec<AgentEvent>,
    ) -> Result<(), EngineError> {
        match events.len() {
            0 => return Ok(()),
            1 => {
                for event in events {
                    self.emit(turn_id, event)?;
                }
                return Ok(());
            }
            _ => {}
        }
        let mut state = self.lock();
        let timestamp_ms = now_ms();
        let envelopes: Vec<EventEnvelope> = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| EventEnvelope {
                session_id: self.session_id.clone(),
                turn_id: turn_id.cloned(),
                seq: state.last_seq + 1 + i as u64,
                timestamp_ms,
                event,
            })
            .collect();
        if let Err(err) = self.store.append_batch(&envelopes) {
            let notice = storage_error_notice(&self.session_id, turn_id, &err);
            state
                .subscribers
                .retain(|s| s.try_send(notice.clone()).is_ok());
            return Err(err.into());
        }
        state.last_seq += envelopes.len() as u64;
        for envelope in envelopes {
            state
                .subscribers
                .retain(|s| s.try_send(envelope.clone()).is_ok());
        }
        Ok(())
    }

    /// A new live queue, and the seq of the last event before its first: taken under the
    /// lock that orders events, so everything up to that seq is in the store and
    /// everything after it comes through the queue.
    pub(super) fn register(&self) -> (mpsc::Receiver<EventEnvelope>, u64) {
        let mut state = self.lock();
        let (tx, rx) = mpsc::channel(self.queue);
        state.subscribers.push(tx);
        (rx, state.last_seq)
    }

    #[cfg(test)]
    pub(super) fn with_queue(mut self, queue: usize) -> Self {
        self.queue = queue;
        self
    }

    #[cfg(test)]
    pub(super) fn subscriber_count(&self) -> usize {
        self.lock().subscribers.len()
    }

    pub fn last_seq(&self) -> u64 {
        self.lock().last_seq
    }
}

/// Told to live subscribers when the store refuses an event; `seq = 0` marks it as not
/// persisted (it will not be replayed).
fn storage_error_notice(
    session_id: &SessionId,
    turn_id: Option<&TurnId>,
    err: &memo_store::StoreError,
) -> EventEnvelope {
    EventEnvelope {
        session_id: session_id.clone(),
        turn_id: turn_id.cloned(),
        seq: 0,
        timestamp_ms: now_ms(),
        event: AgentEvent::Error {
            kind: ErrorKind::Storage,
            message: format!("could not save the session: {err}"),
            retryable: false,
            detail: None,
            phrase: None,
        },
    }
}
