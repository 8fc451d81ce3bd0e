//! Other agents in Memo's sessions, over the Agent Client Protocol: Memo is the client.
//! It starts the agent (Claude Code's, Codex's, Gemini CLI's, OpenCode's… ACP command) as
//! a process for one session, sends it the person's prompts, and renders what it streams
//! with Memo's own cards, while serving what it asks for — permission, files, terminals —
//! through Memo's approvals, path policy, guard, sandbox and checkpoints
//! ([`memo_engine::peer`]).
//!
//! - [`process`]: the agent's process tree, its stderr, stopping it for good.
//! - [`client`]: the connection, the session, updates as events, requests served.
//! - [`connector`]: the agent as a session holds it, started on its first prompt.
//! - [`presets`]: the agents people already use, and how to install them.
//! - `settings`: the agent's own settings (mode, model…), however it speaks of them.
//! - [`views`]: the agent's tool calls as typed views, and as approval questions.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod client;
pub mod connector;
pub mod presets;
pub mod process;
mod settings;
pub mod views;

pub use client::{AgentInfo, ExternalAgent};
pub use connector::{Connector, McpServersFor};
pub use process::Launch;

/// Why an external agent could not be started or used. The texts are for people: they
/// say what the agent or its OS said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    #[error("could not start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the agent stopped: {why}{}", stderr_line(stderr))]
    Gone { why: String, stderr: String },
    #[error("the agent did not answer {method} in time")]
    Timeout { method: String },
    #[error("the agent refused {method}: {message}")]
    Refused {
        method: String,
        message: String,
        /// It wants to be signed in first (`authenticate`).
        auth: bool,
    },
    /// A pick of a setting or value the agent does not offer; `offered` says what it does.
    #[error("it offers no such choice (it offers {offered})")]
    UnknownSetting { offered: String },
    #[error("the agent broke the protocol: {0}")]
    Protocol(String),
}

fn stderr_line(stderr: &str) -> String {
    if stderr.is_empty() {
        return String::new();
    }
    // The end says most: the error, after the noise of starting.
    let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    format!("; it said: {}", tail.join(" / "))
}
