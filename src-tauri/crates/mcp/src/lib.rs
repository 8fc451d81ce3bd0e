//! The MCP client of Memo Desktop, on the official Rust SDK (rmcp).
//!
//! - [`config`]: which servers a session gets (Memo's `[mcp_servers]`, Claude's
//!   `.mcp.json`, Gemini's and Cursor's settings), with their source and clashes.
//! - [`McpManager`]: starts them in parallel (stdio processes on the login shell's PATH,
//!   streamable HTTP, legacy SSE), supervises them (crash reports with stderr, restarts
//!   with backoff), and calls them (timeouts, cancellation, progress).
//! - [`McpToolSource`]: their tools as `server__tool` agent tools plus the resource tools,
//!   deferred behind `search_mcp_tools` when there are many.
//! - prompts as `/server:prompt` commands, OAuth login with tokens in the OS keychain.
//! - [`Elicitor`]: where servers' requests for user input go (declined by default).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod calls;
pub mod config;
pub mod config_edit;
mod config_files;
mod config_json;
mod config_values;
mod connect;
pub mod content;
pub mod elicitation;
mod error;
mod handler;
pub mod http;
mod http_client;
mod manager;
pub mod oauth;
mod oauth_callback;
mod oauth_discovery;
pub mod oauth_flow;
mod oauth_store;
pub mod oauth_token;
/// Where stdio servers' commands are found (moved to memo-child-env, shared with the
/// external agents Memo starts).
pub use memo_child_env::path_env;
mod process;
pub mod prompts;
mod search;
pub mod secrets;
mod servers;
pub mod sse_legacy;
mod supervisor;
mod tools;
pub mod trust;

use std::sync::Arc;

pub use calls::{CallError, ToolAnswer};
pub use config::{McpConfigSet, ServerConfig, SourceKind, TransportConfig};
pub use config_files::{load as load_config, load_project, PROJECT_FILES};
pub use config_json::{parse_json_file, JsonFlavor};
pub use elicitation::{DeclineElicitor, ElicitationAnswer, ElicitationRequest, Elicitor};
pub use error::McpError;
pub use manager::{
    McpEvent, McpManager, McpOptions, McpToolInfo, PromptArgument, PromptInfo, RestartPolicy,
    ServerSnapshot, ServerStatus, DEFAULT_DEFER_THRESHOLD,
};
pub use prompts::PromptCommand;
pub use search::SEARCH_TOOL;
pub use tools::{McpTool, McpToolSource, ResourceTool, RESOURCE_TOOL_NAMES};
pub use trust::{project_servers, ProjectServer};

/// Reads an environment variable; injectable so tests never touch the process env.
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The MCP servers of a session in `cwd`: Memo's config plus, when the folder is trusted
/// (`trust_project`), the project's files, started in the background. `None` when no
/// server is configured. With `MEMO_MCP_LOGIN_SHELL=0`, stdio servers get this process's
/// PATH instead of the login shell's.
///
/// Top-level config.toml keys: `mcp_project_configs = false` ignores the project's
/// `.mcp.json`/Gemini/Cursor files altogether, and `mcp_tool_defer_threshold = N` changes
/// when tool definitions are deferred (64).
pub fn start_for_session(
    config: &memo_config::Config,
    cwd: &std::path::Path,
    env: EnvLookup,
    credentials: Option<Arc<dyn memo_config::CredentialStore>>,
    trust_project: bool,
    elicitor: Option<Arc<dyn Elicitor>>,
) -> Option<McpManager> {
    start_for_session_with(
        config,
        cwd,
        env,
        credentials,
        trust_project,
        elicitor,
        McpConfigSet::default(),
    )
}

/// [`start_for_session`] plus servers from elsewhere (installed plugins' servers, already
/// named with their plugin), merged after config.toml's and the project's: a name that
/// is already taken keeps the first definition and the clash is reported. They are the
/// user's own choice, so the folder's trust does not gate them.
pub fn start_for_session_with(
    config: &memo_config::Config,
    cwd: &std::path::Path,
    env: EnvLookup,
    credentials: Option<Arc<dyn memo_config::CredentialStore>>,
    trust_project: bool,
    elicitor: Option<Arc<dyn Elicitor>>,
    extra: McpConfigSet,
) -> Option<McpManager> {
    let enabled = trust::project_configs_enabled(config);
    let project = (enabled && trust_project).then_some(cwd);
    let mut set = load_config(config, project, &|name: &str| env(name));
    set.merge(extra.servers, extra.problems);
    let defer_threshold = config
        .extra
        .get("mcp_tool_defer_threshold")
        .and_then(toml::Value::as_integer)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(DEFAULT_DEFER_THRESHOLD);
    let mut notes: Vec<String> = set.problems.iter().map(|p| p.to_string()).collect();
    notes.extend(set.clashes.iter().map(|c| c.to_string()));
    if enabled && !trust_project {
        let skipped = project_servers(config, cwd, &|name: &str| env(name));
        if !skipped.is_empty() {
            let names: Vec<String> = skipped
                .iter()
                .map(|s| format!("{} ({})", s.name, s.file))
                .collect();
            notes.push(format!(
                "not started because this folder is not trusted: {}. Trust the folder to start them.",
                names.join(", ")
            ));
        }
    }
    for note in &notes {
        tracing::warn!("MCP config: {note}");
    }
    if set.servers.is_empty() && notes.is_empty() {
        return None;
    }
    let path = match env("MEMO_MCP_LOGIN_SHELL").as_deref() {
        Some("0") => env("PATH"),
        _ => None,
    };
    Some(McpManager::start(
        set.servers,
        McpOptions {
            path,
            env,
            credentials,
            notes,
            defer_threshold,
            elicitor: elicitor.unwrap_or_else(elicitation::default_elicitor),
            ..McpOptions::new(cwd)
        },
    ))
}
