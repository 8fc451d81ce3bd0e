//! The narrow interface the components of a turn (step, approvals, tool calls,
//! compaction) work through instead of the session's state: where the turn's events go,
//! the conversation they read and record to, and the turn's cancellation. Each component
//! takes this plus the few settings it needs and returns what happened; what happens next
//! is decided in `turn.rs`, the one orchestrator of a turn. So a component can be read,
//! tested and reused (a subagent's turn, a hook around it) without the whole session.

use std::sync::Arc;

use memo_model::Message;
use memo_protocol::{AgentEvent, TurnId};
use tokio_util::sync::CancellationToken;

use super::conversation::Conversation;
use super::emitter::Emitter;
use crate::EngineError;

#[derive(Clone)]
pub(crate) struct TurnScope {
    emitter: Arc<Emitter>,
    conversation: Arc<Conversation>,
    /// `None` for the session's own task outside any turn (`/compact`, `/clear`).
    turn_id: Option<TurnId>,
    cancel: CancellationToken,
}

impl TurnScope {
    pub fn new(
        emitter: Arc<Emitter>,
        conversation: Arc<Conversation>,
        turn_id: Option<TurnId>,
        cancel: CancellationToken,
    ) -> Self {
        Self {
            emitter,
            conversation,
            turn_id,
            cancel,
        }
    }

    pub fn turn_id(&self) -> Option<&TurnId> {
        self.turn_id.as_ref()
    }

    /// Cancelled when the user interrupts (or the session shuts down).
    pub fn cancel(&self) -> &CancellationToken {
        &self.cancel
    }

    /// Persists and delivers an event that does not change the conversation.
    pub fn emit(&self, event: AgentEvent) -> Result<u64, EngineError> {
        self.emitter.emit(self.turn_id.as_ref(), event)
    }

    /// Persists several events in one commit (commits are what a step costs).
    pub fn emit_batch(&self, events: Vec<AgentEvent>) -> Result<(), EngineError> {
        self.emitter.emit_batch(self.turn_id.as_ref(), events)
    }

    /// Persists and delivers an event AND applies it to the live conversation.
    pub fn record(&self, event: AgentEvent) -> Result<(), EngineError> {
        self.emit(event.clone())?;
        self.conversation.apply(&event);
        Ok(())
    }

    /// Applies an event persisted by [`TurnScope::emit_batch`] to the conversation.
    pub fn apply(&self, event: &AgentEvent) {
        self.conversation.apply(event);
    }

    /// The conversation as the next request would send it.
    pub fn history(&self) -> Arc<Vec<Message>> {
        self.conversation.snapshot()
    }

    /// Per-message token estimates of `messages` (the history, or a request's messages).
    pub fn token_counts(&self, messages: &[Message]) -> Vec<u64> {
        self.conversation.counts(messages)
    }

    /// The sequence number of the last persisted event.
    pub fn last_seq(&self) -> u64 {
        self.emitter.last_seq()
    }

    /// Emits into this turn from anywhere (a tool's own thread, a spawned task). A failed
    /// write is already reported to subscribers by the emitter, so it is not returned.
    pub fn detached_emit(&self) -> impl Fn(AgentEvent) + Send + Sync + 'static {
        let emitter = self.emitter.clone();
        let turn_id = self.turn_id.clone();
        move |event| {
            let _ = emitter.emit(turn_id.as_ref(), event);
        }
    }
}
