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

/// One message that matched a search across sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SearchResult {
    pub session: SessionSummary,
    /// The matching event, to scroll to once the session is open.
    #[ts(type = "number")]
    pub seq: u64,
    /// `user`, `assistant` or `tool` (the tool names an assistant step called).
    pub role: String,
    /// Words around the match; each matched term sits between
    /// [`SEARCH_MARK_START`] and [`SEARCH_MARK_END`].
    pub snippet: String,
    #[ts(type = "number")]
    pub timestamp_ms: u64,
}

/// Marks a matched term's start in [`SearchResult::snippet`] (a private-use character,
/// so it never collides with message text).
pub const SEARCH_MARK_START: char = '\u{E000}';
/// Marks a matched term's end in [`SearchResult::snippet`].
pub const SEARCH_MARK_END: char = '\u{E001}';

/// Where a provider's API key would come from, without the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct KeyStatus {
    pub provider: String,
    /// `OS keychain` or `environment variable NAME`; `None` when there is no key.
    pub source: Option<String>,
    /// False for a server on this machine, which needs no key.
    pub required: bool,
    /// Why the keychain could not be read, when it could not.
    pub keychain_error: Option<String>,
}
