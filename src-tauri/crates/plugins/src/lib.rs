//! Claude Code plugins in Memo.
//!
//! A plugin is a folder with `.claude-plugin/plugin.json` and any of `commands/`,
//! `agents/`, `skills/<name>/SKILL.md`, `hooks/hooks.json` and `.mcp.json`: the format
//! Claude Code defined, read unchanged so plugins written for it work here. This crate
//! owns that format and the installed copies:
//!
//! - [`manifest`]: `plugin.json`, checked (a name usable as a namespace, paths that stay
//!   inside the plugin).
//! - [`Plugins`]: install from a folder (copied) or a git URL (shallow clone) into
//!   `$MEMO_HOME/plugins/<name>/`, recorded in `installed.json`; enable, disable, remove.
//! - [`parts`]: what each plugin brings, for the settings page and for sessions.
//!
//! - [`claude_code`]: the plugins Claude Code installed, used in place (on when Claude
//!   Code has them on, unless turned off in Memo).
//!
//! Sessions read the enabled plugins when they start (as they read hooks): the engine
//! gets command and skill folders ([`session_dirs`]), hook files ([`session_hooks`]), MCP
//! servers ([`session_mcp_servers`]) and agent files ([`agent_dirs`]), each with its
//! plugin's name as a namespace. Installed plugins are the user's own choice, so no folder
//! trust gates them. Nothing here fails a session: a broken plugin is left out and its
//! problem is shown in settings.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod claude_code;
mod error;
mod install;
pub mod manifest;
pub mod parts;
mod registry;

use std::path::{Path, PathBuf};

pub use error::{PluginError, Result};
pub use install::{InstallSource, InstalledPlugin, Plugins};
pub use manifest::{check_name, Manifest, MANIFEST_PATH};
pub use parts::{read_parts, HookPart, Part, PluginParts, ServerPart, PLUGIN_ROOT_VAR};
pub use registry::{Record, Source};

/// Where plugins are found: Memo's own under the Memo home, Claude Code's under the
/// user's home; and the session's folder, for Claude Code's installs made for one folder.
#[derive(Debug, Clone, Copy, Default)]
pub struct Homes<'a> {
    pub memo: Option<&'a Path>,
    pub user: Option<&'a Path>,
    pub folder: Option<&'a Path>,
}

/// The plugins sessions load: Memo's enabled ones, then Claude Code's enabled ones whose
/// name no Memo plugin has (Memo's own copy wins a clash).
fn enabled(homes: Homes<'_>) -> Vec<(String, PathBuf, Manifest)> {
    let mut out = homes
        .memo
        .map(|home| Plugins::at_home(home).enabled())
        .unwrap_or_default();
    if let Some(user) = homes.user {
        let applying = claude_code::Applying::In(homes.folder);
        for plugin in claude_code::installed(user, homes.memo, applying) {
            if !plugin.enabled() || out.iter().any(|(name, _, _)| *name == plugin.name) {
                continue;
            }
            if let Ok(manifest) = plugin.manifest {
                out.push((plugin.name, plugin.root, manifest));
            }
        }
    }
    out
}

/// The enabled plugins' command and skill folders, for a session's workspace context.
pub fn session_dirs(homes: Homes<'_>) -> memo_context::PluginDirs {
    parts::SessionParts::gather(&enabled(homes)).dirs
}

/// The enabled plugins' hook files, for a session's [`memo_hooks::HookPaths`].
pub fn session_hooks(homes: Homes<'_>) -> Vec<memo_hooks::PluginHooks> {
    parts::SessionParts::gather(&enabled(homes)).hooks
}

/// The enabled plugins' MCP servers (named `plugin_server`), for a session's servers.
/// `env` resolves the `${VAR}`s of their definitions besides `${CLAUDE_PLUGIN_ROOT}`.
pub fn session_mcp_servers(
    homes: Homes<'_>,
    env: &dyn Fn(&str) -> Option<String>,
) -> memo_mcp::McpConfigSet {
    let mut set = memo_mcp::McpConfigSet::default();
    for (name, root, manifest) in enabled(homes) {
        let at = parts::Locations::of(&root, &manifest);
        let found = parts::mcp_servers(&name, &root, &at, env);
        set.merge(found.servers, found.problems);
        set.clashes.extend(found.clashes);
    }
    set
}

/// Each enabled plugin's agent folders (or single agent files), with the plugin's name as
/// their namespace (`plugin:agent`): for the engine's agent loader.
pub fn agent_dirs(homes: Homes<'_>) -> Vec<(String, PathBuf)> {
    parts::SessionParts::gather(&enabled(homes)).agents
}
