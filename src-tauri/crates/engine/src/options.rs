//! What an engine and its sessions are set up with: the engine's shared parts (config,
//! store, keys, environment), a new session's options, and the per-session overrides a
//! front end may set. Plain data, read by the engine, the prompt preview and the
//! subagents' runtime alike.

use std::path::PathBuf;
use std::sync::Arc;

use memo_config::{Config, CredentialStore};
use memo_store::Store;

use crate::session::ApprovalMode;
use crate::EngineError;

/// Reads an environment variable; injectable so tests never touch the process env.
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

pub struct EngineOptions {
    /// `$MEMO_HOME`, handed to tools that read Memo's own files.
    pub memo_home: Option<PathBuf>,
    pub config: Config,
    pub store: Arc<Store>,
    pub credentials: Arc<dyn CredentialStore>,
    pub env: EnvLookup,
    /// Checkpoints of the sessions' workspaces (`None`: not recorded).
    pub checkpoints: Option<memo_checkpoints::Checkpoints>,
}

#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    pub cwd: PathBuf,
    /// Provider name from config; `None` uses `current_provider`.
    pub provider: Option<String>,
    /// Overrides the provider's configured model.
    pub model: Option<String>,
    pub max_steps: Option<u32>,
    /// Starts the project's own MCP servers whatever the folder's trust says (memo-cli
    /// `--trust`); `None` follows the recorded decision.
    pub trust_project: Option<bool>,
    /// Overrides config.toml's `approval_mode` for this session.
    pub approval_mode: Option<ApprovalMode>,
    /// MCP servers for this run of the session only, beside the configured ones (an
    /// editor's, over ACP). A configured server of the same name keeps its definition.
    pub mcp_servers: Vec<memo_mcp::ServerConfig>,
    /// Where the tools read, write and run commands instead of the disk and Memo's own
    /// terminal (an editor's buffers and terminals, over ACP); default: Memo's.
    pub hosts: memo_tools::Hosts,
}

/// What a front end may set for one session instead of config.toml.
#[derive(Debug, Clone, Default)]
pub struct SessionOverrides {
    pub max_steps: Option<u32>,
    /// See [`SessionOptions::trust_project`].
    pub trust_project: Option<bool>,
    pub approval_mode: Option<ApprovalMode>,
    /// See [`SessionOptions::mcp_servers`].
    pub mcp_servers: Vec<memo_mcp::ServerConfig>,
    /// See [`SessionOptions::hosts`].
    pub hosts: memo_tools::Hosts,
}

/// The folder a session works in, as the OS names it; it must be a directory.
pub(crate) fn usable_cwd(path: PathBuf) -> Result<PathBuf, EngineError> {
    let canonical = std::fs::canonicalize(&path).map_err(|e| EngineError::BadWorkingDirectory {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    if !canonical.is_dir() {
        return Err(EngineError::BadWorkingDirectory {
            path: path.display().to_string(),
            reason: "not a directory".into(),
        });
    }
    Ok(canonical)
}
