//! Which files a session's MCP servers come from, in which order: Memo's config.toml
//! (`[mcp_servers]`), then what the user set up for other agents in their home folder
//! (Claude Code's `~/.claude.json`, its servers for all projects and those for this one;
//! `~/.gemini/settings.json` and the Gemini CLI extensions that count for the folder,
//! `~/.cursor/mcp.json`, `~/.codex/config.toml`), read
//! unchanged and trusted as the user's own, then the project's own files (Claude Code's
//! `.mcp.json`, Gemini CLI's and Cursor's settings), which only a trusted folder starts;
//! `active_mcp_servers` decides which start. A name already taken keeps its first
//! definition and the clash is reported.

use std::path::Path;

use crate::config::{
    active_servers, parse_memo_config, ConfigProblem, McpConfigSet, SourceKind, ACTIVE_SERVERS,
};
use crate::config_json::{parse_json_file, JsonFlavor};

/// Reads Memo's `mcp_servers` table and the project files under `project_dir`.
/// `env` resolves `${VAR}` references in the project files.
pub fn load(
    config: &memo_config::Config,
    project_dir: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> McpConfigSet {
    let mut set = McpConfigSet::default();
    let (servers, problems) = parse_memo_config(&config.extra, &config.path);
    set.merge(servers, problems);
    if let Some(home) = env("HOME").filter(|h| !h.is_empty()) {
        merge_user(&mut set, Path::new(&home), project_dir, env);
    }
    if let Some(dir) = project_dir {
        merge_project(&mut set, dir, env);
    }
    match active_servers(&config.extra) {
        Ok(Some(active)) => {
            for server in &mut set.servers {
                if !active.contains(&server.name) {
                    server.enabled = false;
                }
            }
        }
        Ok(None) => {}
        Err(message) => set.problems.push(ConfigProblem {
            path: config.path.clone(),
            key: ACTIVE_SERVERS.into(),
            message,
        }),
    }
    set
}

/// Only the servers the project's own files under `dir` declare.
pub fn load_project(dir: &Path, env: &dyn Fn(&str) -> Option<String>) -> McpConfigSet {
    let mut set = McpConfigSet::default();
    merge_project(&mut set, dir, env);
    set
}

/// Reads a file that may be missing; a missing one is simply not there.
fn read_optional(set: &mut McpConfigSet, path: &Path, key: &str) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            set.problems.push(ConfigProblem {
                path: path.to_owned(),
                key: key.into(),
                message: format!("cannot read: {e}"),
            });
            None
        }
    }
}

/// Adds the servers other agents' user-level files declare (see the module doc).
fn merge_user(
    set: &mut McpConfigSet,
    home: &Path,
    project_dir: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) {
    let claude = home.join(".claude.json");
    if let Some(text) = read_optional(set, &claude, "mcpServers") {
        let (servers, problems) = parse_json_file(&text, &claude, JsonFlavor::Claude, env);
        set.merge(servers, problems);
        // Claude Code's "local" servers: the user's, for one project, kept under its path.
        let local = project_dir.and_then(|dir| {
            let root: serde_json::Value = serde_json::from_str(&text).ok()?;
            let projects = root.get("projects")?;
            let entry = projects.get(dir.to_string_lossy().as_ref()).or_else(|| {
                let real = dir.canonicalize().ok()?;
                projects.get(real.to_string_lossy().as_ref())
            })?;
            let servers = entry.get("mcpServers")?;
            Some(serde_json::json!({ "mcpServers": servers }).to_string())
        });
        if let Some(local) = local {
            let (servers, problems) = parse_json_file(&local, &claude, JsonFlavor::Claude, env);
            set.merge(servers, problems);
        }
    }
    for (flavor, rel) in [
        (JsonFlavor::Gemini, ".gemini/settings.json"),
        (JsonFlavor::Cursor, ".cursor/mcp.json"),
    ] {
        let path = home.join(rel);
        if let Some(text) = read_optional(set, &path, "mcpServers") {
            let (servers, problems) = parse_json_file(&text, &path, flavor, env);
            set.merge(servers, problems);
        }
        // A Gemini CLI extension's servers come after Gemini's own settings, which win
        // a name both use (as in Gemini CLI).
        if flavor == JsonFlavor::Gemini {
            if let Some(dir) = project_dir {
                for ext in memo_context::gemini_extensions::enabled(home, dir) {
                    let Some(servers) = ext.mcp_servers else {
                        continue;
                    };
                    let text = serde_json::json!({ "mcpServers": servers }).to_string();
                    let (servers, problems) =
                        parse_json_file(&text, &ext.manifest_path, JsonFlavor::Gemini, env);
                    set.merge(servers, problems);
                }
            }
        }
    }
    let codex = home.join(".codex/config.toml");
    if let Some(text) = read_optional(set, &codex, "mcp_servers") {
        match toml::from_str::<toml::Table>(&text) {
            Ok(table) => {
                let (servers, problems) =
                    crate::config::parse_server_tables(&table, &codex, SourceKind::Codex);
                set.merge(servers, problems);
            }
            Err(e) => set.problems.push(ConfigProblem {
                path: codex,
                key: "mcp_servers".into(),
                message: format!("invalid TOML: {e}"),
            }),
        }
    }
}

/// Adds the project files' servers to `set`, file by file in precedence order.
fn merge_project(set: &mut McpConfigSet, dir: &Path, env: &dyn Fn(&str) -> Option<String>) {
    for (flavor, rel) in PROJECT_FILES {
        let path = dir.join(rel);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                set.problems.push(ConfigProblem {
                    path,
                    key: "mcpServers".into(),
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        let (servers, problems) = parse_json_file(&text, &path, *flavor, env);
        set.merge(servers, problems);
    }
}

/// Project files, in precedence order.
pub const PROJECT_FILES: &[(JsonFlavor, &str)] = &[
    (JsonFlavor::Claude, ".mcp.json"),
    (JsonFlavor::Gemini, ".gemini/settings.json"),
    (JsonFlavor::Cursor, ".cursor/mcp.json"),
];
