//! Subagents: agent types (built-in, custom, plugins'), the runtime that runs a session's
//! children, the collab tools the model drives it with, and the codebase investigator.
//!
//! A subagent is a child session of the same actor type as any other (its own history
//! in the store, its own turn loop); what makes it a subagent is its prompt (the
//! subagent mode), its tools (no collab tools, maybe fewer) and that its parent's log
//! relays its approval questions. Turned on by `MEMO_ENABLE_COLLAB_TOOLS` (default on) or
//! `enable_collab_tools` in config.toml; at most `MEMO_SUBAGENT_MAX_AGENTS` (or
//! `subagent_max_agents`, default 4) work at once.

pub mod collab;
pub mod definitions;
pub mod investigator;
pub mod runtime;
pub(crate) mod spawn;

pub use definitions::{AgentCatalog, AgentDefinition, AgentRoots};
pub use runtime::{Subagents, DEFAULT_MAX_AGENTS};

use memo_config::Config;

use crate::options::EnvLookup;

pub const ENABLE_ENV: &str = "MEMO_ENABLE_COLLAB_TOOLS";
pub const MAX_AGENTS_ENV: &str = "MEMO_SUBAGENT_MAX_AGENTS";

/// Whether sessions get the collab tools: the environment first, then config.toml.
pub fn collab_enabled(config: &Config, env: &EnvLookup) -> bool {
    if let Some(value) = env(ENABLE_ENV) {
        let value = value.trim().to_ascii_lowercase();
        return !matches!(value.as_str(), "0" | "false" | "off" | "no");
    }
    config
        .extra
        .get("enable_collab_tools")
        .and_then(|v| v.as_bool())
        .unwrap_or(true)
}

/// How many subagents may work at once: the environment first, then config.toml; a
/// value that is not a positive number is ignored (with a warning).
pub fn max_agents(config: &Config, env: &EnvLookup) -> u32 {
    let from_env = env(MAX_AGENTS_ENV).and_then(|v| match v.trim().parse::<u32>() {
        Ok(n) if n > 0 => Some(n),
        _ => {
            tracing::warn!(value = %v, "{MAX_AGENTS_ENV} is not a positive number; ignored");
            None
        }
    });
    from_env
        .or_else(|| {
            config
                .extra
                .get("subagent_max_agents")
                .and_then(|v| v.as_integer())
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n > 0)
        })
        .unwrap_or(DEFAULT_MAX_AGENTS)
}

/// The agent types of a session in `folder`: Memo's built-in ones and the agent files in
/// the folder, Memo's home, the OS home (`HOME` through `env`) and enabled plugins.
pub fn catalog_for(
    memo_home: Option<&std::path::Path>,
    env: &EnvLookup,
    folder: &std::path::Path,
) -> AgentCatalog {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let user_home = env(var)
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from);
    let roots = AgentRoots {
        project: Some(folder.to_path_buf()),
        memo_home: memo_home.map(std::path::Path::to_path_buf),
        plugins: memo_plugins::agent_dirs(memo_plugins::Homes {
            memo: memo_home,
            user: user_home.as_deref(),
            folder: Some(folder),
        }),
        user_home,
    };
    catalog(&roots, env)
}

/// The collab tools a new session in `folder` gets (none when they are turned off), with
/// a runtime that has no way to start children yet: the engine gives it one.
pub(crate) fn session_runtime(
    memo_home: Option<&std::path::Path>,
    config: &Config,
    env: &EnvLookup,
    folder: &std::path::Path,
) -> Option<std::sync::Arc<Subagents>> {
    if !collab_enabled(config, env) {
        return None;
    }
    let catalog = std::sync::Arc::new(catalog_for(memo_home, env, folder));
    Some(std::sync::Arc::new(Subagents::new(
        catalog,
        max_agents(config, env),
    )))
}

/// Memo's own agent types.
pub fn builtin() -> Vec<AgentDefinition> {
    vec![definitions::general(), investigator::definition()]
}

/// The agent types of a session in `folder`, with the investigator's time limit as the
/// environment sets it.
pub fn catalog(roots: &AgentRoots, env: &EnvLookup) -> AgentCatalog {
    let mut catalog = AgentCatalog::load(roots, builtin());
    if let Some(limit) = investigator::time_limit_from(env) {
        catalog.set_time_limit(definitions::INVESTIGATOR, limit);
    }
    catalog
}
