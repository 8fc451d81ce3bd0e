//! Subagents as their parent session sees them, and agent definitions as `/agents` and the
//! settings list them.
//!
//! A subagent is a child session with its own history in the store. Its parent's log does
//! not copy the child's work: it records when a child starts (under the tool call that
//! spawned it) and how its state changes, and it relays the child's approval questions,
//! which carry a [`SubagentRef`] so the parent's UI can say which agent asks. The child's
//! own transcript is read from its session.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SessionId;

/// Which subagent: its id as the model uses it in the collab tools, its agent type and
/// the child session that holds its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SubagentRef {
    /// `agent-3f9a2c1b`: what `send_input`, `wait` and `close_agent` take.
    pub agent_id: String,
    /// The agent type it runs as (`general`, `codebase_investigator`, a custom agent's
    /// name such as `reviewer` or `my-plugin:reviewer`).
    pub agent_type: String,
    pub session_id: SessionId,
}

/// Where a subagent is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SubagentState {
    /// Working on its task (or on input sent to it).
    Running,
    /// Its turn ended with an answer; it can be sent more input or closed.
    Finished,
    /// Its turn ended without an answer (an error, a limit).
    Failed,
    /// Stopped by an interrupt (its parent's, or the user's).
    Interrupted,
    /// Closed (`close_agent`, or its parent shut down); it takes no more input.
    Closed,
}

impl SubagentState {
    /// Whether it is doing something now.
    pub fn is_running(self) -> bool {
        self == SubagentState::Running
    }
}

/// Where an agent definition comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AgentSource {
    /// Memo's own (`general`, `codebase_investigator`).
    Builtin,
    /// `~/.memo/agents` or `~/.claude/agents`.
    User,
    /// The folder's `.claude/agents`.
    Project,
    /// An installed plugin's `agents/` (namespaced `plugin:agent`).
    Plugin,
}

/// One agent type a subagent can run as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentInfo {
    pub name: String,
    pub description: String,
    pub source: AgentSource,
    /// The file it was read from (none for built-in agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub path: Option<String>,
    /// The tools it may use; `None`: all of its parent's (but the collab tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tools: Option<Vec<String>>,
    /// The model it asks for (`None` or `inherit`: its parent's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// Another definition of the same name that this one hides (project over user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shadows: Option<String>,
}

/// The agents a session in a folder can use, and what was wrong with the files read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentsPage {
    pub agents: Vec<AgentInfo>,
    /// One line per file that could not be read as an agent (with its path).
    pub problems: Vec<String>,
    /// Whether the model is offered the collab tools (`MEMO_ENABLE_COLLAB_TOOLS`).
    pub collab_enabled: bool,
    /// At most this many subagents run at once (`MEMO_SUBAGENT_MAX_AGENTS`).
    pub max_agents: u32,
}
