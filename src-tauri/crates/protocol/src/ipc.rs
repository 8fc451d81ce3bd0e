//! Request/response shapes of the desktop shell's commands that are not events. They live
//! here so the UI's TypeScript mirrors are generated, not hand-written.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SessionId;

/// A stored session as listed in the sidebar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionSummary {
    pub id: SessionId,
    pub title: Option<String>,
    pub cwd: String,
    pub provider: String,
    pub model: String,
    #[ts(type = "number")]
    pub created_ms: u64,
    #[ts(type = "number")]
    pub updated_ms: u64,
    /// The seq of the newest stored event; a client subscribes after what it has.
    #[ts(type = "number")]
    pub last_seq: u64,
}

/// A provider from config.toml, for the model picker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderSummary {
    pub name: String,
    pub model: String,
    /// `openai`, `anthropic` or `gemini`.
    pub api: String,
    pub base_url: String,
    pub is_current: bool,
}

/// What rewinding a conversation to before one of its turns gives: a new session holding
/// the history up to that turn (the original is kept), and the turn's message, for the
/// composer to edit and send again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RewindOutcome {
    pub session: SessionSummary,
    pub text: String,
}
