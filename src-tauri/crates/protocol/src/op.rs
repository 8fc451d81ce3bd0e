use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApprovalId, InputExpansion, ReviewDecision};

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
    /// Summarise the older history now (what `/compact` does), optionally focusing the
    /// summary. Rejected while a turn runs. Ends with a `command_result` event.
    Compact {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        instructions: Option<String>,
    },
    /// Talk to another provider and/or model from the next turn on (`provider` null: the
    /// session's own; `model` null: that provider's configured model). Rejected while a
    /// turn runs; answered with `model_switched` or an error.
    SwitchModel {
        #[serde(default)]
        provider: Option<String>,
        #[serde(default)]
        model: Option<String>,
    },
    /// Stop the session actor after denying whatever is pending.
    Shutdown,
}

/// The user's message for a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UserInput {
    /// What the user typed.
    pub text: String,
    /// Filled in by the engine when the model receives something else (a command's
    /// prompt, `@path` attachments, a `$skill`); clients leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expansion: Option<InputExpansion>,
}

impl UserInput {
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            expansion: None,
        }
    }

    /// The text the model receives for this input.
    pub fn model_text(&self) -> &str {
        match &self.expansion {
            Some(expansion) => &expansion.prompt,
            None => &self.text,
        }
    }
}
