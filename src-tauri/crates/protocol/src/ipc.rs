//! Request/response shapes of the desktop shell's commands that are not events. They live
//! here so the UI's TypeScript mirrors are generated, not hand-written.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{EventEnvelope, SessionId};

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
    /// The first message, on one line and cut short: what names a session with no title.
    pub preview: Option<String>,
    /// Set for a fork: the session it was forked from, and the last seq it shares.
    pub parent_session_id: Option<SessionId>,
    #[ts(type = "number | null")]
    pub fork_seq: Option<u64>,
    /// Imported history, kept as it was: continuing it forks a new session.
    pub read_only: bool,
    /// Where imported history came from (`memo-code`), and its id there.
    pub origin: Option<String>,
    pub origin_id: Option<String>,
    /// Set for a subagent's session: the agent type it ran as; `parent_session_id` is
    /// then the session that spawned it (and `fork_seq` is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_type: Option<String>,
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

/// A stretch of a stored session, whole turns only, for a window that shows a long session
/// a page at a time: from its end reaching back, or from a search hit reaching forward.
/// Streamed deltas of steps that ended are left out: each step's `assistant_message`
/// repeats them whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct HistoryPage {
    pub events: Vec<EventEnvelope>,
    /// The first seq the page covers (a turn's start, or 1).
    #[ts(type = "number")]
    pub from_seq: u64,
    /// The last seq it covers; when `has_after` is false, live events follow after it.
    #[ts(type = "number")]
    pub to_seq: u64,
    /// Whether the session has events before `from_seq`.
    pub has_more: bool,
    /// Whether the session had events after `to_seq` when the page was read: the page does
    /// not reach the live end, and the next one starts at `to_seq + 1`.
    pub has_after: bool,
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

/// Stable, machine-readable categories of a failed request, shared by every front end: the
/// desktop UI switches on them, memo-cli picks its exit code from them. Renaming a variant
/// is a breaking change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request itself was malformed (bad argument, unknown id).
    InvalidInput,
    /// Something the request refers to does not exist.
    NotFound,
    /// Filesystem or OS-level failure.
    Io,
    /// A dependency is temporarily unavailable; retrying may succeed.
    Unavailable,
    /// The environment is not set up the way Memo needs (no home, a broken config.toml).
    Config,
    /// A provider needs an API key and none is stored or set in the environment.
    MissingKey,
    /// A file changed on disk since it was read; saving would lose that change.
    Conflict,
    /// A bug or an invariant violation on the Rust side.
    Internal,
}

impl ErrorCode {
    /// Every code, in declaration order (the UI gets this list generated).
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::InvalidInput,
        ErrorCode::NotFound,
        ErrorCode::Io,
        ErrorCode::Unavailable,
        ErrorCode::Config,
        ErrorCode::MissingKey,
        ErrorCode::Conflict,
        ErrorCode::Internal,
    ];

    /// The wire name (`not_found`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Io => "io",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::Config => "config",
            ErrorCode::MissingKey => "missing_key",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Internal => "internal",
        }
    }
}

/// Facts about the running app that the UI shows (status bar, about box, bug reports).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AppInfo {
    /// The app's own version.
    pub version: String,
    /// Absolute path of Memo's data folder, as the Rust side resolved it.
    pub memo_home: String,
    /// `<os>-<arch>`, e.g. `linux-x86_64`.
    pub platform: String,
    /// `memo-engine <version>`.
    pub engine: String,
    /// The computer's time zone over the years around now; `None` where the shell cannot
    /// read it (the page then uses the web engine's own clock).
    pub time_zone: Option<ZoneOffsets>,
    /// The desktop's languages for messages, most wanted first, as POSIX locales set them
    /// (`LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`): "zh_CN", "en_US". The web
    /// engine's own `navigator.languages` misses them when the locale is not installed.
    pub languages: Vec<String>,
}

/// A time zone as offsets from UTC over a span: the offset at `from_ms` and each change
/// after it. The page turns a moment into a local time with these, not with a `Date`'s
/// local getters: those make WebKit load ICU's calendar and time-zone data (~1.3 MiB the
/// web process keeps for the window's life) to print an hour and a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ZoneOffsets {
    /// Start of the span (ms since the epoch).
    #[ts(type = "number")]
    pub from_ms: i64,
    /// End of the span, excluded. Outside the span the offsets are not known.
    #[ts(type = "number")]
    pub until_ms: i64,
    /// Seconds east of UTC at `from_ms`.
    pub offset_seconds: i32,
    /// The changes in the span, in order.
    pub changes: Vec<ZoneChange>,
}

/// From `at_ms` on, the zone is `offset_seconds` east of UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ZoneChange {
    #[ts(type = "number")]
    pub at_ms: i64,
    pub offset_seconds: i32,
}

/// How full a session's context is and what it cost so far, for the header's meter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SessionStatus {
    pub session_id: SessionId,
    /// Tokens the session's model accepts in one request.
    #[ts(type = "number")]
    pub context_window: u64,
    /// Tokens the conversation takes now: the newest model call's input and output, or
    /// before any call the system prompt and tool definitions.
    #[ts(type = "number")]
    pub used_tokens: u64,
    /// Compaction starts when a request reaches this share of the window.
    pub compact_at_percent: u8,
    /// Sum over the priced calls; `None` when no call had a price.
    pub cost_usd: Option<f64>,
    #[ts(type = "number")]
    pub calls: u64,
    /// The mode the session asks in now; `None` when it is not open.
    pub approval_mode: Option<crate::ApprovalMode>,
    /// Distinct files the session's tool calls changed, over its whole history (the
    /// transcript may hold only the end of a long one).
    #[ts(type = "number")]
    pub changed_files: u64,
    /// An external agent's own settings (its mode, model…) as last recorded, over its
    /// whole history; empty for Memo's own sessions and agents that offer none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<crate::AgentSetting>>", optional)]
    pub agent_settings: Vec<crate::AgentSetting>,
}

/// What the composer completes after `/`, `@` or `$`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CompletionKind {
    /// `/help`, a custom command, an MCP prompt.
    Command,
    /// `@src/main.rs`: a file or folder of the workspace.
    Path,
    /// `$release-notes`: an enabled skill.
    Skill,
}

/// One suggestion for the composer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Completion {
    pub kind: CompletionKind,
    /// What replaces the typed word, with its sigil (`/review`, `@src/`, `$pdf`).
    pub value: String,
    /// A short explanation (a command's description, "folder").
    pub detail: Option<String>,
}

/// A page of stored sessions, newest first, with how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionPage {
    #[ts(type = "number")]
    pub total: u64,
    pub sessions: Vec<SessionSummary>,
}

/// Token usage and cost of one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ModelUsageReport {
    pub provider: String,
    pub model: String,
    #[ts(type = "number")]
    pub calls: u64,
    pub tokens: crate::TokenUsage,
    /// Sum over the calls that had a price; `None` when none had one.
    pub cost_usd: Option<f64>,
    /// Calls recorded without a price (their cost is unknown, not zero).
    #[ts(type = "number")]
    pub unpriced_calls: u64,
}

/// Token usage and cost of a session (or of every session), per model and in total.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct UsageReport {
    pub session_id: Option<SessionId>,
    #[ts(type = "number")]
    pub calls: u64,
    pub tokens: crate::TokenUsage,
    pub cost_usd: Option<f64>,
    pub by_model: Vec<ModelUsageReport>,
}

/// What happened to one imported Memo Code file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ImportStatus {
    New,
    Updated,
    Unchanged,
    Empty,
}

/// A line of an imported file that was not used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SkippedLine {
    #[ts(type = "number")]
    pub line: u64,
    pub reason: String,
}

/// One imported file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImportedFile {
    pub path: String,
    pub status: ImportStatus,
    pub session_id: Option<SessionId>,
    pub origin_id: String,
    #[ts(type = "number")]
    pub events: u64,
    pub skipped_lines: Vec<SkippedLine>,
}

/// A file that could not be imported at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImportFailure {
    pub path: String,
    pub error: String,
}

/// What an import of Memo Code history did, file by file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImportReport {
    pub files: Vec<ImportedFile>,
    pub failed: Vec<ImportFailure>,
}

/// How a session is written out from its menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// For reading: the messages, and each tool call with what it returned.
    Markdown,
    /// For moving: Memo Code's session format, which `Import` (here or in Memo Code)
    /// reads back.
    MemoCodeJsonl,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_code_names_are_their_wire_names_and_all_lists_each_once() {
        for code in ErrorCode::ALL {
            let wire = serde_json::to_value(code).unwrap();
            assert_eq!(wire, serde_json::Value::from(code.as_str()));
            let back: ErrorCode = serde_json::from_value(wire).unwrap();
            assert_eq!(back, code);
        }
        let mut names: Vec<_> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}

/// What the shell tells the window on its own, through the channel the window opens once
/// at start (`subscribe_window_signals`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WindowSignal {
    /// A desktop notification about this session was clicked: show it.
    OpenSession { session_id: SessionId },
    /// Folders were asked for from outside (a second launch): take them with
    /// `take_open_requests`.
    OpenRequests,
    /// The caret stopped blinking: place it again where it is, so WebKit reads the new
    /// blink period (the desktop shell's `caret.rs`).
    PlaceCaret,
}

/// One message of a channel the page passed to a command, as `receive_messages` hands it
/// over (see the desktop shell's `page_channel`).
#[derive(Debug, Serialize, Deserialize, TS)]
pub struct PageMessage {
    /// The page's callback for the channel.
    pub channel: u32,
    /// The message's place in its channel, from 0: the page puts them back in order.
    pub index: u32,
    /// The message as JSON; absent on the channel's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "unknown")]
    pub message: Option<Box<serde_json::value::RawValue>>,
}
