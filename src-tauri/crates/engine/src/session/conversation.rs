//! The live conversation: what the next request sends. It changes only through
//! [`apply_event`], the function a resumed session replays, so a live session and a
//! reopened one always agree. It also keeps each message's token estimate, because the
//! history only grows between compactions: only new messages need counting.

use std::sync::{Arc, Mutex, MutexGuard};

use memo_context::TokenCounter;
use memo_protocol::AgentEvent;
use memo_providers::Message;

use super::history::apply_event;

pub(crate) struct Conversation {
    /// Copy-on-write: requests hold a clone of the Arc while streaming, so appending
    /// copies only if a request is still alive, and a step never copies the history.
    messages: Mutex<Arc<Vec<Message>>>,
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
            counter,
            counts: Mutex::new(Vec::new()),
        }
    }

    pub fn snapshot(&self) -> Arc<Vec<Message>> {
        lock(&self.messages).clone()
    }

    /// Applies an event that was just persisted.
    pub fn apply(&self, event: &AgentEvent) {
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
