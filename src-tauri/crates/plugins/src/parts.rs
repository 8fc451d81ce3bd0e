//! What an installed plugin brings, found where Claude Code looks: `commands/`,
//! `agents/`, `skills/`, `hooks/hooks.json` and `.mcp.json` in its folder, plus the extra
//! paths (or inline `hooks` / `mcpServers`) its manifest names. The same reading serves
//! the settings page (every part, with the problems found) and sessions (the enabled
//! plugins' folders, hook files and servers), so what is listed is what a session gets.
//!
//! Every part carries the plugin's name: commands are `/plugin:command`, skills and
//! agents `plugin:name`, MCP servers `plugin_server` (tool names stay within
//! `[a-zA-Z0-9_-]`), and `${CLAUDE_PLUGIN_ROOT}` means the plugin's installed folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use memo_context::{
    CommandFileRoots, CommandFiles, NamespacedPath, SkillRoots, SkillScope, SkillSet,
};
use memo_hooks::{HookPaths, PluginHooks};
use memo_mcp::config::{McpConfigSet, SourceKind, TransportConfig};
use memo_mcp::{parse_json_file, JsonFlavor};
use serde_json::Value;

use crate::manifest::{resolve, Component, Manifest, MANIFEST_PATH};

/// The variable Claude Code gives a plugin's hooks and servers: the plugin's folder.
pub const PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";

/// A command, skill or agent of a plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// With the plugin's namespace: `plugin:name`.
    pub name: String,
    pub description: Option<String>,
    pub path: PathBuf,
}

/// One hook command of a plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookPart {
    pub event: String,
    pub matcher: String,
    pub command: String,
}

/// One MCP server of a plugin, as a session names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerPart {
    pub name: String,
    pub transport: String,
    /// The command line or the URL.
    pub target: String,
}

/// Everything one plugin brings, and what could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginParts {
    pub commands: Vec<Part>,
    pub skills: Vec<Part>,
    pub agents: Vec<Part>,
    pub hooks: Vec<HookPart>,
    pub mcp_servers: Vec<ServerPart>,
    pub problems: Vec<String>,
}

/// Where one plugin keeps each kind of part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locations {
    pub commands: Vec<PathBuf>,
    pub skills: Vec<PathBuf>,
    pub agents: Vec<PathBuf>,
    pub hook_files: Vec<PathBuf>,
    pub mcp_files: Vec<PathBuf>,
    /// Paths the manifest names that are not there.
    pub missing: Vec<PathBuf>,
}

impl Locations {
    /// The default folders that exist, then the manifest's own paths.
    pub fn of(root: &Path, manifest: &Manifest) -> Locations {
        let mut at = Locations::default();
        let manifest_file = root.join(MANIFEST_PATH);
        let defaults = [
            (root.join("commands"), &mut at.commands),
            (root.join("skills"), &mut at.skills),
            (root.join("agents"), &mut at.agents),
            (root.join("hooks/hooks.json"), &mut at.hook_files),
            (root.join(".mcp.json"), &mut at.mcp_files),
        ];
        for (path, list) in defaults {
            if path.exists() {
                list.push(path);
            }
        }
        let extra = |paths: &[String], list: &mut Vec<PathBuf>, missing: &mut Vec<PathBuf>| {
            for relative in paths {
                let path = resolve(root, relative);
                if !path.exists() {
                    missing.push(path);
                } else if !list.contains(&path) {
                    list.push(path);
                }
            }
        };
        extra(&manifest.commands, &mut at.commands, &mut at.missing);
        extra(&manifest.skills, &mut at.skills, &mut at.missing);
        extra(&manifest.agents, &mut at.agents, &mut at.missing);
        for (component, list) in [
            (&manifest.hooks, &mut at.hook_files),
            (&manifest.mcp_servers, &mut at.mcp_files),
        ] {
            match component {
                Some(Component::Files(paths)) => extra(paths, list, &mut at.missing),
                // Read from plugin.json itself, under its key.
                Some(Component::Inline) => list.push(manifest_file.clone()),
                None => {}
            }
        }
        at
    }
}

fn namespaced(name: &str, paths: &[PathBuf]) -> Vec<NamespacedPath> {
    paths
        .iter()
        .map(|p| NamespacedPath::new(name, p.clone()))
        .collect()
}

/// The plugin's hook files, for memo-hooks.
pub fn hook_files(name: &str, root: &Path, at: &Locations) -> Vec<PluginHooks> {
    at.hook_files
        .iter()
        .map(|file| PluginHooks {
            plugin: name.to_owned(),
            root: root.to_path_buf(),
            file: file.clone(),
        })
        .collect()
}

/// The plugin's MCP servers, renamed `plugin_server`, with `${CLAUDE_PLUGIN_ROOT}`
/// expanded and exported to stdio servers. `env` resolves other `${VAR}`s.
pub fn mcp_servers(
    name: &str,
    root: &Path,
    at: &Locations,
    env: &dyn Fn(&str) -> Option<String>,
) -> McpConfigSet {
    let mut set = McpConfigSet::default();
    let root_text = root.display().to_string();
    let lookup = |var: &str| {
        if var == PLUGIN_ROOT_VAR {
            Some(root_text.clone())
        } else {
            env(var)
        }
    };
    for file in &at.mcp_files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                set.problems.push(memo_mcp::config::ConfigProblem {
                    path: file.clone(),
                    key: "mcpServers".into(),
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        let (servers, problems) =
            parse_json_file(&wrapped(&text), file, JsonFlavor::Claude, &lookup);
        set.problems.extend(problems);
        for mut server in servers {
            let original = server.name.clone();
            server.name = format!("{name}_{original}");
            if server.name.contains("__") {
                set.problems.push(memo_mcp::config::ConfigProblem {
                    path: file.clone(),
                    key: format!("mcpServers.{original}"),
                    message: format!(
                        "as \"{}\" its tool names would hold \"__\"; rename the server",
                        server.name
                    ),
                });
                continue;
            }
            server.source.kind = SourceKind::Plugin;
            if let TransportConfig::Stdio(stdio) = &mut server.transport {
                stdio
                    .env
                    .entry(PLUGIN_ROOT_VAR.to_owned())
                    .or_insert_with(|| root_text.clone());
            }
            set.merge(vec![server], Vec::new());
        }
    }
    set
}

/// A plugin's `.mcp.json` may hold the servers at its top level instead of under
/// `mcpServers`; memo-mcp reads the wrapped form.
fn wrapped(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) if !map.contains_key("mcpServers") && !map.contains_key("name") => {
            serde_json::json!({ "mcpServers": Value::Object(map) }).to_string()
        }
        _ => text.to_owned(),
    }
}

/// The plugin's agent files (`*.md` in its agent folders, or listed one by one).
pub fn agent_files(at: &Locations) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in &at.agents {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
                .collect();
            found.sort();
            files.extend(found);
        } else if path.extension().is_some_and(|e| e == "md") {
            files.push(path.clone());
        }
    }
    files
}

/// Reads every part of the plugin `name` installed in `root`.
pub fn read_parts(
    name: &str,
    root: &Path,
    manifest: &Manifest,
    env: &dyn Fn(&str) -> Option<String>,
) -> PluginParts {
    let at = Locations::of(root, manifest);
    let mut parts = PluginParts::default();
    for path in &at.missing {
        parts.problems.push(format!(
            "{}: named in plugin.json but not there",
            path.display()
        ));
    }

    let commands = CommandFiles::discover(&CommandFileRoots {
        plugins: namespaced(name, &at.commands),
        ..CommandFileRoots::default()
    });
    parts.commands = commands
        .iter()
        .map(|c| Part {
            name: c.name.clone(),
            description: c.description.clone(),
            path: c.path.clone(),
        })
        .collect();
    parts.problems.extend(
        commands
            .problems()
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message)),
    );

    let skills = SkillSet::discover(
        &SkillRoots {
            plugins: namespaced(name, &at.skills),
            ..SkillRoots::default()
        },
        None,
    );
    parts.skills = skills
        .skills()
        .iter()
        .filter(|s| s.scope == SkillScope::Plugin)
        .map(|s| Part {
            name: s.name.clone(),
            description: Some(s.description.clone()),
            path: PathBuf::from(s.display_path()),
        })
        .collect();
    parts.problems.extend(
        skills
            .problems()
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message)),
    );

    for file in agent_files(&at) {
        match read_agent(&file) {
            Ok((agent, description)) => parts.agents.push(Part {
                name: format!("{name}:{agent}"),
                description,
                path: file,
            }),
            Err(message) => parts
                .problems
                .push(format!("{}: agent skipped: {message}", file.display())),
        }
    }

    let hooks = memo_hooks::load_hooks(
        &HookPaths {
            plugins: hook_files(name, root, &at),
            ..HookPaths::default()
        },
        false,
    );
    parts.hooks = hooks
        .hooks
        .definitions()
        .iter()
        .map(|h| HookPart {
            event: h.event.to_string(),
            matcher: h.matcher.as_str().to_owned(),
            command: h.command.clone(),
        })
        .collect();
    parts
        .problems
        .extend(hooks.report.issues.iter().map(|i| i.message.clone()));

    let servers = mcp_servers(name, root, &at, env);
    parts.mcp_servers = servers
        .servers
        .iter()
        .map(|s| ServerPart {
            name: s.name.clone(),
            transport: s.transport_name().to_owned(),
            target: match &s.transport {
                TransportConfig::Stdio(stdio) => std::iter::once(stdio.command.as_str())
                    .chain(stdio.args.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" "),
                TransportConfig::StreamableHttp(http) | TransportConfig::Sse(http) => {
                    http.url.clone()
                }
            },
        })
        .collect();
    parts
        .problems
        .extend(servers.problems.iter().map(ToString::to_string));
    parts
        .problems
        .extend(servers.clashes.iter().map(ToString::to_string));
    parts
}

/// An agent file's name and description, read as sessions read it (a file sessions
/// would refuse is a problem here too).
fn read_agent(file: &Path) -> Result<(String, Option<String>), String> {
    let agent = memo_context::agents::read_agent_file(file)?;
    Ok((agent.name, Some(agent.description)))
}

/// Parts of every enabled plugin a session needs, gathered in one pass.
#[derive(Debug, Clone, Default)]
pub struct SessionParts {
    pub dirs: memo_context::PluginDirs,
    pub hooks: Vec<PluginHooks>,
    /// Agent folders or files, with their plugin's name.
    pub agents: Vec<(String, PathBuf)>,
    /// Each enabled plugin's root, by name.
    pub roots: BTreeMap<String, PathBuf>,
}

impl SessionParts {
    pub(crate) fn gather(enabled: &[(String, PathBuf, Manifest)]) -> SessionParts {
        let mut parts = SessionParts::default();
        for (name, root, manifest) in enabled {
            let at = Locations::of(root, manifest);
            parts.dirs.commands.extend(namespaced(name, &at.commands));
            parts.dirs.skills.extend(namespaced(name, &at.skills));
            parts.hooks.extend(hook_files(name, root, &at));
            parts
                .agents
                .extend(at.agents.iter().map(|p| (name.clone(), p.clone())));
            parts.roots.insert(name.clone(), root.clone());
        }
        parts
    }
}
