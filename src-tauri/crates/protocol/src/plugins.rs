//! What Settings → Plugins reads and sends: the installed Claude Code plugins with what
//! each brings (named as sessions see it), and the requests to install one from a folder
//! or a git URL. Turning a plugin on or off and removing it are separate commands.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where an installed plugin came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PluginSourceKind {
    Folder,
    Git,
    /// Installed by Claude Code and used where it is (`source` is its
    /// `name@marketplace`): removed in Claude Code, turned off in Memo only for Memo.
    ClaudeCode,
}

/// A command, skill or agent of a plugin, with the plugin's namespace in its name
/// (`plugin:name`; a command is typed `/plugin:name`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PluginPartInfo {
    pub name: String,
    pub description: Option<String>,
    pub path: String,
}

/// One hook command of a plugin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PluginHookInfo {
    /// `PreToolUse`, `UserPromptSubmit`...
    pub event: String,
    /// Empty: every tool (or every occasion).
    pub matcher: String,
    pub command: String,
}

/// One MCP server of a plugin, under the name sessions give it (`plugin_server`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PluginServerInfo {
    pub name: String,
    /// `stdio`, `streamable_http` or `sse`.
    pub transport: String,
    /// The command line or the URL.
    pub target: String,
}

/// An installed plugin as Settings → Plugins lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PluginInfo {
    pub name: String,
    pub version: Option<String>,
    pub description: Option<String>,
    pub author: Option<String>,
    pub source_kind: PluginSourceKind,
    /// The folder or git URL it was installed from.
    pub source: String,
    /// Memo's copy, in `$MEMO_HOME/plugins/<name>`.
    pub path: String,
    pub enabled: bool,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub installed_at_ms: u64,
    pub commands: Vec<PluginPartInfo>,
    pub skills: Vec<PluginPartInfo>,
    pub agents: Vec<PluginPartInfo>,
    pub hooks: Vec<PluginHookInfo>,
    pub mcp_servers: Vec<PluginServerInfo>,
    /// What could not be read (a broken manifest, a skipped file, a bad server).
    pub problems: Vec<String>,
    /// Installed (by Claude Code, for its project or local scope) for this folder only:
    /// sessions elsewhere do not load it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub for_folder: Option<String>,
}

/// Every installed plugin, in the order installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PluginsPage {
    pub plugins: Vec<PluginInfo>,
    /// `$MEMO_HOME/plugins`.
    pub dir: String,
}

/// What to install.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PluginInstall {
    /// A plugin's folder on this machine; copied, never changed.
    Folder { path: String },
    /// A git repository whose top folder is the plugin (cloned shallow).
    Git { url: String },
}
