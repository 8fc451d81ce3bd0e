//! A subscriber's view of a session's events: what the store holds after the point it asked
//! for, then live events, with no gap, no duplicate and a bounded amount in memory.
//!
//! The stored part is read a page at a time as the subscriber takes it, not copied into a
//! queue up front (a long session's log can be hundreds of megabytes). Live events wait in
//! a bounded queue; a subscriber that falls behind by a whole queue is dropped by the
//! emitter and, because every event is persisted before it is delivered, reads what it
//! missed from the store and rejoins. A slow window costs a re-read, never memory without
//! end and never a lost event.

use std::collections::VecDeque;
use std::sync::{Arc, Weak};

use memo_protocol::{AgentEvent, ErrorKind, EventEnvelope, SessionId};
use memo_store::Store;
use tokio::sync::mpsc;

use super::emitter::{now_ms, Emitter};

/// Events read from the store at a time.
const PAGE: usize = 1000;

/// Nothing is ready now (`try_recv`); `recv` waits for the next event instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no event is ready")]
pub struct Empty;

pub struct EventReceiver {
    emitter: Weak<Emitter>,
    store: Arc<Store>,
    session_id: SessionId,
    /// The seq of the last event handed out (or the point subscribed after).
    delivered: u64,
    /// Events up to this seq are read from the store.
    stored_until: u64,
    page: VecDeque<EventEnvelope>,
    live: mpsc::Receiver<EventEnvelope>,
    /// The store failed: its error was handed out and nothing more comes.
    failed: bool,
}

impl EventReceiver {
    /// Events after `after_seq` from the store (read as they are taken), then every live
    /// one, with no gap or duplicate.
    pub(super) fn subscribe(emitter: &Arc<Emitter>, after_seq: u64) -> Self {
        let (live, last_seq) = emitter.register();
        Self::new(emitter, after_seq, live, last_seq)
    }

    fn new(
        emitter: &Arc<Emitter>,
        after_seq: u64,
        live: mpsc::Receiver<EventEnvelope>,
        last_seq: u64,
    ) -> Self {
        Self {
            emitter: Arc::downgrade(emitter),
            store: emitter.store().clone(),
            session_id: emitter.session_id().clone(),
            delivered: after_seq,
            stored_until: last_seq,
            page: VecDeque::new(),
            live,
            failed: false,
        }
    }

    /// The stored events of a session no actor runs (a subagent's that has ended): they
    /// are read page by page, and then the receiver ends.
    pub fn stored(store: Arc<Store>, session_id: SessionId, after_seq: u64) -> Self {
        // A queue nothing sends to: once the stored events are read, `recv` ends.
        let (_, live) = mpsc::channel(1);
        Self {
            emitter: Weak::new(),
            store,
            session_id,
            delivered: after_seq,
            stored_until: u64::MAX,
            page: VecDeque::new(),
            live,
            failed: false,
        }
    }

    /// The next event; `None` once the session is gone (or its store failed).
    pub async fn recv(&mut self) -> Option<EventEnvelope> {
        loop {
            if let Some(envelope) = self.next_stored() {
                return Some(envelope);
            }
            if self.failed {
                return None;
            }
            match self.live.recv().await {
                Some(envelope) => {
                    if let Some(envelope) = self.accept(envelope) {
                        return Some(envelope);
                    }
                }
                None => {
                    if !self.rejoin() {
                        return None;
                    }
                }
            }
        }
    }

    /// The next event if one is ready now.
    pub fn try_recv(&mut self) -> Result<EventEnvelope, Empty> {
        loop {
            if let Some(envelope) = self.next_stored() {
                return Ok(envelope);
            }
            if self.failed {
                return Err(Empty);
            }
            match self.live.try_recv() {
                Ok(envelope) => {
                    if let Some(envelope) = self.accept(envelope) {
                        return Ok(envelope);
                    }
                }
                Err(mpsc::error::TryRecvError::Empty) => return Err(Empty),
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    if !self.rejoin() {
                        return Err(Empty);
                    }
                }
            }
        }
    }

    /// The next event the store holds before the live ones, reading a page when needed.
    fn next_stored(&mut self) -> Option<EventEnvelope> {
        loop {
            if let Some(envelope) = self.page.pop_front() {
                if envelope.seq > self.delivered {
                    self.delivered = envelope.seq;
                    return Some(envelope);
                }
                continue;
            }
            if self.failed || self.delivered >= self.stored_until {
                return None;
            }
            match self.store.events(&self.session_id, self.delivered, PAGE) {
                Ok(page) if page.is_empty() => {
                    // The store has nothing more: what is missing can only come live.
                    self.stored_until = self.delivered;
                    return None;
                }
                Ok(page) => self.page = page.into(),
                Err(err) => {
                    self.failed = true;
                    return Some(EventEnvelope {
                        session_id: self.session_id.clone(),
                        turn_id: None,
                        seq: 0,
                        timestamp_ms: now_ms(),
                        event: AgentEvent::Error {
                            kind: ErrorKind::Storage,
                            message: format!("could not read the session's events: {err}"),
                            retryable: false,
                            detail: None,
                            phrase: None,
                        },
                    });
                }
            }
        }
    }

    /// A live event, unless it was already read from the store. One past a gap (events
    /// this subscriber was never sent) sends the reader to the store for the gap and it.
    fn accept(&mut self, envelope: EventEnvelope) -> Option<EventEnvelope> {
        if envelope.seq == 0 {
            // Not persisted (a storage failure notice): it has no place in the order.
            return Some(envelope);
        }
        if envelope.seq <= self.delivered {
            return None;
        }
        if envelope.seq > self.delivered + 1 {
            self.stored_until = self.stored_until.max(envelope.seq);
            return None;
        }
        self.delivered = envelope.seq;
        Some(envelope)
    }

    /// The emitter dropped this subscriber (it fell a whole queue behind): subscribe again
    /// and read what was missed from the store. False once the session is gone.
    fn rejoin(&mut self) -> bool {
        let Some(emitter) = self.emitter.upgrade() else {
            return false;
        };
        let (live, last_seq) = emitter.register();
        self.live = live;
        self.stored_until = self.stored_until.max(last_seq);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_store::NewSession;

    fn emitter_on_disk(dir: &std::path::Path) -> Arc<Emitter> {
        let store = Arc::new(Store::open(dir.join("db.sqlite")).unwrap());
        let id = SessionId::new("s");
        store
            .create_session(&NewSession {
                id: id.clone(),
                cwd: "/w".into(),
                provider: "p".into(),
                model: "m".into(),
                title: None,
            })
            .unwrap();
        Arc::new(Emitter::new(id, store, 0).with_queue(QUEUE))
    }

    /// A small queue, so falling behind takes few events.
    const QUEUE: usize = 64;

    fn delta(n: usize) -> AgentEvent {
        AgentEvent::TextDelta {
            delta: format!("{n} "),
        }
    }

    fn seqs(received: &[EventEnvelope]) -> Vec<u64> {
        received.iter().map(|e| e.seq).collect()
    }

    #[tokio::test]
    async fn a_subscriber_a_whole_queue_behind_reads_what_it_missed_from_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let emitter = emitter_on_disk(dir.path());
        let mut slow = EventReceiver::subscribe(&emitter, 0);
        let total = QUEUE * 3 + 5;
        for n in 0..total {
            emitter.emit(None, delta(n)).unwrap();
        }
        // The queue held at most QUEUE of them: the subscriber was dropped, not waited for.
        assert_eq!(emitter.subscriber_count(), 0);
        let mut received = Vec::new();
        while received.len() < total {
            received.push(slow.recv().await.unwrap());
        }
        assert_eq!(seqs(&received), (1..=total as u64).collect::<Vec<_>>());
        // It rejoined: live events reach it again, once each.
        emitter.emit(None, delta(total)).unwrap();
        assert_eq!(slow.recv().await.unwrap().seq, total as u64 + 1);
        assert!(slow.try_recv().is_err());
        assert_eq!(emitter.subscriber_count(), 1);
    }

    #[tokio::test]
    async fn a_late_subscriber_reads_the_log_page_by_page_then_live_events() {
        let dir = tempfile::tempdir().unwrap();
        let emitter = emitter_on_disk(dir.path());
        for n in 0..2_500 {
            emitter.emit(None, delta(n)).unwrap();
        }
        let mut late = EventReceiver::subscribe(&emitter, 1_000);
        // Nothing was copied up front: the stored part is read as it is taken.
        assert!(late.page.is_empty());
        let first = late.recv().await.unwrap();
        assert_eq!(first.seq, 1_001);
        assert!(late.page.len() <= PAGE);
        emitter.emit(None, delta(2_500)).unwrap();
        let mut received = vec![first];
        while let Ok(envelope) = late.try_recv() {
            received.push(envelope);
        }
        assert_eq!(seqs(&received), (1_001..=2_501).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn the_receiver_ends_with_the_session() {
        let dir = tempfile::tempdir().unwrap();
        let emitter = emitter_on_disk(dir.path());
        let mut events = EventReceiver::subscribe(&emitter, 0);
        emitter.emit(None, delta(0)).unwrap();
        drop(emitter);
        assert_eq!(events.recv().await.unwrap().seq, 1);
        assert!(events.recv().await.is_none());
    }
}
