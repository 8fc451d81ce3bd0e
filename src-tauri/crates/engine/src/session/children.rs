//! What a session needs from its subagents' runtime, and what it lends that runtime.
//!
//! The runtime (`crate::agents`) starts child sessions, so it depends on this layer; the
//! actor only needs to pass an interrupt, a shutdown or an approval answer on to it, which
//! this trait allows without the session layer knowing the runtime's types. In return the
//! session lends its emitter ([`ParentLink`]): the runtime writes its children's state
//! changes and relayed approval questions into the parent's log, in the turn running then.

use std::sync::{Arc, Mutex};

use memo_protocol::{AgentEvent, ApprovalId, ApprovalMode, ReviewDecision, TurnId};

use super::emitter::Emitter;
use crate::EngineError;

/// Fingerprints of writes the user allowed for the rest of a session; shared with the
/// subagents it starts.
pub type Grants = Arc<Mutex<std::collections::HashSet<String>>>;

/// The subagents a session started.
pub trait ChildAgents: Send + Sync {
    /// Called once, when the parent session starts.
    fn attach(&self, parent: ParentLink);
    /// Passes the answer to a relayed approval question on to the child that asked;
    /// false when no child asked it.
    fn resolve_approval(&self, id: &ApprovalId, decision: ReviewDecision) -> bool;
    /// Interrupts every running child; returns how many were running.
    fn interrupt_all(&self) -> usize;
    /// Stops every child for good (the parent shuts down); resolves when they have
    /// stopped (their commands killed), or after a few seconds.
    fn shutdown_all(&self) -> futures::future::BoxFuture<'static, ()>;
    /// The parent's approval mode changed: its children ask in the new one too.
    fn set_approval_mode(&self, mode: ApprovalMode);
    /// The agent types children can run as, and the agent files that could not be read.
    fn agent_types(&self) -> (Vec<memo_protocol::AgentInfo>, Vec<String>);
    /// The live session of a child, by its session id (it may have ended since).
    fn session(&self, id: &memo_protocol::SessionId) -> Option<super::SessionHandle>;
}

/// The parent session as its subagents' runtime sees it.
#[derive(Clone)]
pub struct ParentLink {
    emitter: Arc<Emitter>,
    turn: Arc<Mutex<Option<TurnId>>>,
    approvals: Arc<dyn Fn() -> ApprovalMode + Send + Sync>,
    grants: Grants,
}

impl ParentLink {
    pub(crate) fn new(
        emitter: Arc<Emitter>,
        turn: Arc<Mutex<Option<TurnId>>>,
        approvals: Arc<dyn Fn() -> ApprovalMode + Send + Sync>,
        grants: Grants,
    ) -> Self {
        Self {
            emitter,
            turn,
            approvals,
            grants,
        }
    }

    /// What the user allowed for the parent's session: it holds for its children too.
    pub fn grants(&self) -> Grants {
        self.grants.clone()
    }

    /// Writes `event` into the parent's log, in the turn running now (outside any turn
    /// when none is: a child may outlive the turn that started it).
    pub fn emit(&self, event: AgentEvent) -> Result<u64, EngineError> {
        let turn = self.turn.lock().unwrap_or_else(|p| p.into_inner()).clone();
        self.emitter.emit(turn.as_ref(), event)
    }

    pub fn session_id(&self) -> &memo_protocol::SessionId {
        self.emitter.session_id()
    }

    /// The parent's approval mode now: a child asks as its parent would.
    pub fn approval_mode(&self) -> ApprovalMode {
        (self.approvals)()
    }
}

/// A session's subagents' runtime, as its context holds it.
#[derive(Clone)]
pub struct Children(pub Arc<dyn ChildAgents>);

impl std::fmt::Debug for Children {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Children")
    }
}

/// What makes a session a subagent's.
#[derive(Debug, Clone)]
pub struct SubagentRole {
    pub agent: memo_protocol::SubagentRef,
    /// The session that spawned it.
    pub parent: memo_protocol::SessionId,
    /// Its agent type's instructions, added to the subagent prompt (empty for `general`).
    pub instructions: String,
}
