use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApprovalId, ReviewDecision};

/// What a client asks a session to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Op {
    /// Start a turn with the user's input. Rejected with an error event while a turn runs.
    UserTurn { input: UserInput },
    /// Cancel the running turn: the model stream and running tools stop, pending approvals
    /// are denied, and the turn ends with reason `interrupted`.
    Interrupt,
    /// Answer a pending approval.
    ResolveApproval {
        request_id: ApprovalId,
        decision: ReviewDecision,
    },
    /// Stop the session actor after denying whatever is pending.
    Shutdown,
}

/// The user's message for a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UserInput {
    pub text: String,
}

impl UserInput {
    pub fn text(text: impl Into<String>) -> Self {
        Self { text: text.into() }
    }
}
