//! What every live session is doing, at a glance: the sidebar's status dots, the "needs
//! you" list with its approve and deny buttons, the window badge and desktop notifications
//! all read this instead of each session's full event stream.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApprovalId, RiskLevel, SessionId, TurnEndReason};

/// A live session's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActivityState {
    /// No turn running.
    Idle,
    /// A turn is running and nothing waits for the user.
    Running,
    /// A turn waits for the user: an approval or an MCP server's question.
    Waiting,
}

/// One approval a session waits for, short enough for a sidebar row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PendingApproval {
    pub request_id: ApprovalId,
    pub tool_name: String,
    /// The command, the file, or the tool and its arguments, on one line and cut short.
    pub summary: String,
    pub risk: RiskLevel,
    /// A file change: approving it from a summary approves every hunk.
    pub has_diff: bool,
    /// The subagent that asks, for a question relayed from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent: Option<crate::SubagentRef>,
}

/// A live session as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionActivity {
    pub session_id: SessionId,
    pub cwd: String,
    /// The title, else the first message, else empty (a session nothing was said in yet).
    pub label: String,
    pub state: ActivityState,
    /// Oldest first.
    pub approvals: Vec<PendingApproval>,
    /// MCP servers' questions waiting for an answer.
    pub questions: u32,
    /// Turns ended since the session became live: the UI marks a session unread when this
    /// grows while the session is not in front of the user.
    pub turns_ended: u32,
    /// How the last turn ended, once one has.
    pub last_outcome: Option<TurnEndReason>,
    /// The last error of the current or last turn.
    pub last_error: Option<String>,
    #[ts(type = "number")]
    pub updated_ms: u64,
}
