//! MCP servers as Settings → MCP shows them: every server a session in the open folder
//! would use (with where it comes from), what a check found when it started them, and
//! the form that adds or edits one. Secret values only travel from the form to the OS
//! keychain: nothing here carries one back.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::TrustState;

/// The file a server is defined in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpSourceKind {
    /// Memo's config.toml: the only one the page edits.
    Memo,
    /// The folder's `.mcp.json` (Claude Code).
    Claude,
    /// The folder's `.gemini/settings.json`.
    Gemini,
    /// The folder's `.cursor/mcp.json`.
    Cursor,
    /// An installed plugin's servers.
    Plugin,
    /// `~/.codex/config.toml`.
    Codex,
    /// The editor running the session over ACP (for that session only).
    Editor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpTransportKind {
    Stdio,
    StreamableHttp,
    /// The legacy HTTP+SSE transport.
    Sse,
}

/// An env variable or header; its value is never sent to the front end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpValueInfo {
    pub name: String,
    /// Kept in the OS keychain (else written in the file).
    pub in_keychain: bool,
    /// In the keychain but not there any more (the server will not start).
    pub missing: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerInfo {
    pub name: String,
    pub source: McpSourceKind,
    /// The file it comes from.
    pub source_path: String,
    /// That file as a person names it: `config.toml`, `.mcp.json` (the folder's),
    /// `~/.claude.json` (the user's own, for every folder).
    #[serde(default)]
    pub source_label: String,
    pub transport: McpTransportKind,
    /// stdio: the command and its arguments.
    pub command: Option<String>,
    pub args: Vec<String>,
    /// HTTP: the server's URL.
    pub url: Option<String>,
    pub env: Vec<McpValueInfo>,
    pub headers: Vec<McpValueInfo>,
    /// Starts in new sessions (its own `enabled` and `active_mcp_servers` allow it).
    pub enabled: bool,
    /// Tools turned off (`exclude_tools`).
    pub excluded_tools: Vec<String>,
    /// Only these tools, when the config says so (`include_tools`).
    pub included_tools: Option<Vec<String>>,
    /// A project server of a folder that is not trusted: sessions do not start it, and
    /// neither does a check.
    pub blocked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpSettingsPage {
    /// Memo's config.toml.
    pub config_path: String,
    /// The open folder whose project files were read, if any.
    pub folder: Option<String>,
    /// The folder's trust, when one is open.
    pub trust: Option<TrustState>,
    pub servers: Vec<McpServerInfo>,
    /// config.toml has `active_mcp_servers`: only the servers it names start.
    pub active_list: bool,
    /// What could not be read (a bad table, a name defined twice), one line each.
    pub problems: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpCheckState {
    Ready,
    Failed,
    /// Started, then died.
    Crashed,
    /// An HTTP server that wants an OAuth login first.
    NeedsLogin,
    /// Turned off: not started.
    Disabled,
    /// A project server of an untrusted folder: not started.
    Blocked,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpToolEntry {
    pub name: String,
    pub description: String,
    /// Offered to the model (not in the server's exclude list, and in its include list
    /// when it has one).
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpPromptEntry {
    pub name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpResourceEntry {
    pub uri: String,
    pub name: String,
}

/// What starting one server briefly found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerCheck {
    pub name: String,
    pub state: McpCheckState,
    /// Why it failed (or was not started), in English.
    pub message: Option<String>,
    /// The same, as a phrase, where Memo said it (the server's own errors are its text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<crate::Phrase>")]
    pub phrase: Option<crate::Phrase>,
    /// The last lines it wrote to stderr, when it failed.
    pub stderr_tail: Option<String>,
    /// Every tool it offers, the turned-off ones included.
    pub tools: Vec<McpToolEntry>,
    pub prompts: Vec<McpPromptEntry>,
    pub resources: Vec<McpResourceEntry>,
}

/// An env variable or header from the form. `value: None` keeps the stored value (the
/// form never sees it); a value goes to the OS keychain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpSecretInput {
    pub name: String,
    pub value: Option<String>,
}

/// A server to add to config.toml, or the new definition of one there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerInput {
    pub name: String,
    pub transport: McpTransportKind,
    /// stdio
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<McpSecretInput>,
    /// HTTP
    pub url: String,
    pub headers: Vec<McpSecretInput>,
    /// HTTP: the environment variable holding a bearer token (`None` keeps what an edited
    /// server had).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bearer_token_env_var: Option<String>,
}
