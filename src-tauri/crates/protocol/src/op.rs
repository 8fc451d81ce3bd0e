use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApprovalId, InputExpansion, ReviewDecision};

/// What a client asks a session to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Op {
    /// Start a turn with the user's input. Rejected with an error event while a turn runs,
    /// and when its images are invalid (`invalid_op`) or the model takes no images
    /// (`config`); a rejected input starts no turn and sends nothing.
    UserTurn { input: UserInput },
    /// Run the session's last turn again when it failed, was interrupted, or was left open
    /// by a stopped process ("Retry", "Continue"): no message is added, so the request
    /// carries the user's message once. Answered with `turn_resumed` and a turn; rejected
    /// (`invalid_op`) while a turn runs or when the last turn completed.
    RetryTurn,
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
    /// Ask before tool calls as `mode` says, from the next call on (also during a turn).
    /// Answered with `approval_mode_changed`.
    SetApprovalMode { mode: crate::ApprovalMode },
    /// Answer an MCP server's request for input (`elicitation_requested`): `content` holds
    /// the form's values when `action` is accept.
    ResolveElicitation {
        request_id: String,
        #[ts(type = "\"accept\" | \"decline\" | \"cancel\"")]
        action: ElicitationAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "Record<string, unknown>")]
        content: Option<serde_json::Map<String, serde_json::Value>>,
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
    /// Set one of an external agent's own settings (`external_agent_settings`) to `value`:
    /// applied by the agent now when it runs, or when it starts. Answered with
    /// `external_agent_settings`, or an error when the agent refuses it; rejected
    /// (`invalid_op`) in a session Memo's own model runs.
    SetAgentSetting { setting: String, value: String },
    /// Stop the session actor after denying whatever is pending.
    Shutdown,
}

/// The user's message for a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UserInput {
    /// What the user typed.
    pub text: String,
    /// Images pasted, dropped or picked in the composer, sent to the model with the text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    // ts-rs allows `optional` on `Option` fields only; this renders `images?: Array<..>`.
    #[ts(as = "Option<Vec<ImageInput>>", optional)]
    pub images: Vec<ImageInput>,
    /// Filled in by the engine when the model receives something else (a command's
    /// prompt, `@path` attachments, a `$skill`); clients leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expansion: Option<InputExpansion>,
    /// What the engine puts before a session's first message for the model: the date and
    /// the repository's state (kept out of the system prompt so it stays the same across
    /// days and sessions). Filled in by the engine; clients leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_context: Option<String>,
}

impl UserInput {
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            images: Vec::new(),
            expansion: None,
            session_context: None,
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

/// An image of a user message. The engine refuses a turn whose images are not one of the
/// four media types, not valid base64, larger than 5 MiB each or more than 8, and one for
/// a model whose profile does not take images (`supports_vision`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageInput {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// The bytes, base64 (standard alphabet, padded).
    pub data: String,
    /// The file name, when it had one (shown in the transcript).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_optional_on_the_wire() {
        // What clients without images (and events stored before images) send.
        let plain: UserInput = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
        assert_eq!(plain, UserInput::text("hi"));
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#"{"text":"hi"}"#);

        let input = UserInput {
            images: vec![ImageInput {
                media_type: "image/png".into(),
                data: "iVBORw0KGgo=".into(),
                name: None,
            }],
            ..UserInput::text("see")
        };
        let wire = serde_json::to_value(&input).unwrap();
        assert_eq!(
            wire,
            serde_json::json!({"text": "see", "images": [
                {"media_type": "image/png", "data": "iVBORw0KGgo="}
            ]})
        );
        assert_eq!(serde_json::from_value::<UserInput>(wire).unwrap(), input);
    }
}

/// The user's answer to an MCP server's request for input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ElicitationAction {
    /// Submitted the form.
    Accept,
    /// Said no: the server goes on without the input.
    Decline,
    /// Dismissed it: the server's operation should stop.
    Cancel,
}
