//! The live conversation: what the next request sends. It changes only through
//! [`apply_event`], the function a resumed session replays, so a live session and a
//! reopened one always agree. It also keeps each message's token estimate, because the
//! history only grows between compactions: only new messages need counting.

use std::sync::{Arc, Mutex, MutexGuard};

use memo_context::TokenCounter;
use memo_model::Message;
use memo_protocol::{AgentEvent, SessionId};
use memo_store::Store;

use super::history::{apply_event, rebuild_history};
use crate::EngineError;

/// A reopened session's history, still in the log: read when first needed.
struct Pending {
    store: Arc<Store>,
    session: SessionId,
    /// The history is the log up to here; later events are applied live.
    until_seq: u64,
}

pub(crate) struct Conversation {
    /// Copy-on-write: requests hold a clone of the Arc while streaming, so appending
    /// copies only if a request is still alive, and a step never copies the history.
    messages: Mutex<Arc<Vec<Message>>>,
    /// Set for a reopened session until its history is read (opening a long session to
    /// read it must not hold every tool output it produced in memory).
    pending: Mutex<Option<Pending>>,
    counter: TokenCounter,
    /// Token estimate of each message, in order; a compaction resets it.
    counts: Mutex<Vec<u64>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here is a single push/replace/clone, so a poisoned lock
    // still holds consistent data.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Conversation {
    pub fn new(messages: Vec<Message>, counter: TokenCounter) -> Self {
        Self {
            messages: Mutex::new(Arc::new(messages)),
            pending: Mutex::new(None),
            counter,
            counts: Mutex::new(Vec::new()),
        }
    }

    /// A reopened session's conversation: the log up to `until_seq`, read when first
    /// needed.
    pub fn reopened(
        store: Arc<Store>,
        session: SessionId,
        until_seq: u64,
        counter: TokenCounter,
    ) -> Self {
        let conversation = Self::new(Vec::new(), counter);
        *lock(&conversation.pending) = Some(Pending {
            store,
            session,
            until_seq,
        });
        conversation
    }

    /// Reads the history from the log if it has not been yet. A turn calls this first,
    /// so a log that cannot be read fails the turn instead of sending a history without
    /// its past.
    pub fn load(&self) -> Result<(), EngineError> {
        // Held while reading: a second caller waits for the first read, not a second one.
        let mut pending = lock(&self.pending);
        if let Some(p) = pending.as_ref() {
            let events = p.store.conversation_events_until(&p.session, p.until_seq)?;
            *lock(&self.messages) = Arc::new(rebuild_history(&events));
            *pending = None;
        }
        Ok(())
    }

    /// [`Conversation::load`] for callers that cannot fail; turns have loaded already, so
    /// this reads only for what comes before any turn (a SessionStart hook's context).
    fn ensure_loaded(&self) {
        if let Err(error) = self.load() {
            tracing::error!(%error, "could not read the session's history");
        }
    }

    pub fn snapshot(&self) -> Arc<Vec<Message>> {
        self.ensure_loaded();
        lock(&self.messages).clone()
    }

    /// Applies an event that was just persisted.
    pub fn apply(&self, event: &AgentEvent) {
        self.ensure_loaded();
        let mut messages = lock(&self.messages);
        apply_event(Arc::make_mut(&mut messages), event);
        if matches!(event, AgentEvent::ContextCompacted { .. }) {
            // The history was replaced: count it afresh next time.
            lock(&self.counts).clear();
        }
    }

    /// Per-message token estimates of `messages` (this conversation, or a request built
    /// from it).
    pub fn counts(&self, messages: &[Message]) -> Vec<u64> {
        let mut counts = lock(&self.counts);
        if counts.len() > messages.len() {
            counts.clear();
        }
        let start = counts.len();
        let counter = self.counter;
        counts.extend(messages[start..].iter().map(|m| counter.message(m)));
        counts.clone()
    }
}
