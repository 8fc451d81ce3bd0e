//! Which files a session's MCP servers come from, in which order: Memo's config.toml
//! (`[mcp_servers]`), then the project's own files (Claude Code's `.mcp.json`, Gemini CLI's
//! and Cursor's settings), with `active_mcp_servers` deciding which start.

use std::path::Path;

use crate::config::{
    active_servers, parse_memo_config, ConfigProblem, McpConfigSet, ACTIVE_SERVERS,
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
