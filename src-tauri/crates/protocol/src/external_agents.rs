//! External agents (other agents run over the Agent Client Protocol) as the settings
//! page shows them and edits them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Settings → External agents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalAgentsPage {
    pub agents: Vec<ExternalAgentEntry>,
    /// Known agents a person can add in one step (never installed by Memo).
    pub presets: Vec<ExternalAgentPreset>,
    /// Where they are kept.
    pub config_path: String,
}

/// One configured agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalAgentEntry {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// Plain values, as written in config.toml.
    pub env: Vec<EnvValue>,
    /// Variables whose values are in the keychain.
    pub secrets: Vec<SecretState>,
    /// The command was found (on PATH, or as the path given).
    pub found: bool,
    /// Memo's MCP servers are offered to its sessions.
    pub offer_mcp_servers: bool,
    /// The preset it matches, for its install hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub preset: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EnvValue {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SecretState {
    pub name: String,
    /// A value is in the keychain.
    pub stored: bool,
}

/// A known agent and how to install it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalAgentPreset {
    /// Also the name it is added under.
    pub id: String,
    pub label: String,
    pub command: String,
    pub args: Vec<String>,
    /// Keys it reads from the environment (stored in the keychain when given).
    pub secrets: Vec<String>,
    /// The command that installs it, shown to copy; Memo does not run it.
    pub install: String,
}

/// What the settings form saves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalAgentInput {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<EnvValue>,
    pub secrets: Vec<SecretInput>,
    /// Offer Memo's MCP servers to its sessions.
    pub offer_mcp_servers: bool,
}

/// A secret variable; `value` `None` keeps what the keychain holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SecretInput {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<String>,
}

/// What starting an agent and asking it `initialize` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalAgentCheck {
    pub name: String,
    pub ok: bool,
    /// What it calls itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// Its ways to sign in.
    pub auth_methods: Vec<String>,
    /// Why it failed, as the agent or the OS said it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    #[ts(type = "number")]
    pub elapsed_ms: u64,
}

/// One of an external agent's own settings for a session, as it offers them (ACP's
/// session config options, or its modes and models): its mode ("Plan", "Accept edits"),
/// its model, its thinking level… The session's header shows each as a menu; a pick is
/// `Op::SetAgentSetting`, answered with `external_agent_settings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentSetting {
    /// The agent's id of it.
    pub id: String,
    /// Its name, as the agent words it.
    pub name: String,
    /// What it is for (`mode`, `model`, `thought_level`, or the agent's own), when said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub category: Option<String>,
    /// The value chosen now.
    pub current: String,
    pub choices: Vec<AgentSettingChoice>,
}

/// A value an [`AgentSetting`] can take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentSettingChoice {
    pub value: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
}
