//! `.claude-plugin/plugin.json`, Claude Code's plugin manifest, read as Claude Code reads
//! it: `name` is required; `version`, `description`, `author` (text or `{name, email}`)
//! describe it; `commands`, `agents`, `skills` add folders or files to the default ones;
//! `hooks` and `mcpServers` are a path to a JSON file or the definitions inline. Paths are
//! relative to the plugin's folder, start with `./` and never leave it, so an installed
//! copy works wherever Memo's home is.

use std::path::{Component as PathPart, Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{PluginError, Result};

/// Where the manifest sits inside a plugin's folder.
pub const MANIFEST_PATH: &str = ".claude-plugin/plugin.json";
/// A name longer than this would make MCP tool names (`plugin_server__tool`) too long
/// for providers' 64-character limit.
const MAX_NAME_CHARS: usize = 40;

/// Where a plugin keeps its hooks or MCP servers besides the default file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Component {
    /// In these files (relative to the plugin's folder).
    Files(Vec<String>),
    /// Inline, under the key in plugin.json itself.
    Inline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub name: String,
    pub version: Option<String>,
    pub description: Option<String>,
    pub author: Option<String>,
    /// Extra command folders or files, beside `commands/`.
    pub commands: Vec<String>,
    /// Extra agent folders or files, beside `agents/`.
    pub agents: Vec<String>,
    /// Extra skill folders, beside `skills/`.
    pub skills: Vec<String>,
    pub hooks: Option<Component>,
    pub mcp_servers: Option<Component>,
}

impl Manifest {
    /// A plugin without `plugin.json` (allowed by Claude Code): its name and the default
    /// folders, nothing else.
    pub fn named(name: &str) -> Manifest {
        Manifest {
            name: name.to_owned(),
            version: None,
            description: None,
            author: None,
            commands: Vec::new(),
            agents: Vec::new(),
            skills: Vec::new(),
            hooks: None,
            mcp_servers: None,
        }
    }

    /// Reads and checks the manifest of the plugin in `root`.
    pub fn read(root: &Path) -> Result<Manifest> {
        let path = root.join(MANIFEST_PATH);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PluginError::NoManifest {
                    path: root.to_path_buf(),
                })
            }
            Err(e) => return Err(PluginError::io(path, e)),
        };
        Manifest::parse(&text, &path)
    }

    /// `path` is only used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Manifest> {
        let invalid = |message: String| PluginError::InvalidManifest {
            path: path.to_path_buf(),
            message,
        };
        let root: Value = serde_json::from_str(text).map_err(|e| {
            invalid(format!(
                "invalid JSON at line {}, column {}: {e}",
                e.line(),
                e.column()
            ))
        })?;
        let Value::Object(map) = root else {
            return Err(invalid("the manifest must be a JSON object".into()));
        };
        let name = match map.get("name") {
            Some(Value::String(name)) => name.trim().to_owned(),
            Some(_) => return Err(invalid("\"name\" must be text".into())),
            None => return Err(invalid("\"name\" is required".into())),
        };
        check_name(&name)?;
        let text_field = |key: &str| -> Result<Option<String>> {
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.trim().to_owned()).filter(|s| !s.is_empty())),
                Some(_) => Err(invalid(format!("\"{key}\" must be text"))),
            }
        };
        Ok(Manifest {
            version: text_field("version")?,
            description: text_field("description")?,
            author: author(&map).map_err(invalid)?,
            commands: paths(&map, "commands").map_err(invalid)?,
            agents: paths(&map, "agents").map_err(invalid)?,
            skills: paths(&map, "skills").map_err(invalid)?,
            hooks: component(&map, "hooks").map_err(invalid)?,
            mcp_servers: component(&map, "mcpServers").map_err(invalid)?,
            name,
        })
    }
}

/// A plugin's name becomes a folder name, a command and skill namespace and part of MCP
/// server and tool names, so it is kept to what is valid in all of them.
pub fn check_name(name: &str) -> Result<()> {
    let bad = |reason: &str| {
        Err(PluginError::InvalidName {
            name: name.to_owned(),
            reason: reason.to_owned(),
        })
    };
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return bad("it is longer than 40 characters");
    }
    if name.contains(['/', '\\']) || name == "." || name == ".." {
        return bad("it contains path characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return bad("use letters, digits, '-' and '_' only");
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !name.ends_with(|c: char| c.is_ascii_alphanumeric())
    {
        return bad("it must start and end with a letter or digit");
    }
    if name.contains("__") {
        return bad("\"__\" separates server and tool in MCP tool names");
    }
    Ok(())
}

fn author(map: &Map<String, Value>) -> std::result::Result<Option<String>, String> {
    match map.get("author") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_owned()).filter(|s| !s.is_empty())),
        Some(Value::Object(author)) => {
            let name = author.get("name").and_then(Value::as_str).map(str::trim);
            let email = author.get("email").and_then(Value::as_str).map(str::trim);
            Ok(match (name, email) {
                (Some(n), Some(e)) if !n.is_empty() && !e.is_empty() => Some(format!("{n} <{e}>")),
                (Some(n), _) if !n.is_empty() => Some(n.to_owned()),
                (_, Some(e)) if !e.is_empty() => Some(e.to_owned()),
                _ => None,
            })
        }
        Some(_) => Err("\"author\" must be text or { \"name\": ... }".into()),
    }
}

/// A component path field: one path or a list of them.
fn paths(map: &Map<String, Value>, key: &str) -> std::result::Result<Vec<String>, String> {
    let list = match map.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("\"{key}\" must list paths as text"))
            })
            .collect::<std::result::Result<_, _>>()?,
        Some(_) => return Err(format!("\"{key}\" must be a path or a list of paths")),
    };
    for path in &list {
        check_relative(path).map_err(|why| format!("\"{key}\": {path}: {why}"))?;
    }
    Ok(list)
}

/// `hooks` / `mcpServers`: a path (or several), or the definitions inline.
fn component(
    map: &Map<String, Value>,
    key: &str,
) -> std::result::Result<Option<Component>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(_)) => Ok(Some(Component::Inline)),
        Some(Value::String(_) | Value::Array(_)) => Ok(Some(Component::Files(paths(map, key)?))),
        Some(_) => Err(format!(
            "\"{key}\" must be a path, a list of paths or an object"
        )),
    }
}

/// Claude Code's rule for component paths: relative, starting with `./`, never leaving
/// the plugin's folder.
fn check_relative(path: &str) -> std::result::Result<(), &'static str> {
    if !path.starts_with("./") {
        return Err("paths must start with ./");
    }
    let parsed = Path::new(path);
    if parsed.components().any(|c| {
        matches!(
            c,
            PathPart::ParentDir | PathPart::RootDir | PathPart::Prefix(_)
        )
    }) {
        return Err("paths must stay inside the plugin's folder");
    }
    Ok(())
}

/// `root` joined with a checked `./relative` path.
pub fn resolve(root: &Path, relative: &str) -> PathBuf {
    root.join(relative.trim_start_matches("./"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest> {
        Manifest::parse(text, Path::new("/p/.claude-plugin/plugin.json"))
    }

    #[test]
    fn a_full_manifest_is_read() {
        let m = parse(
            r#"{"name": "deploy-tools", "version": "1.2.0", "description": "Ships it",
                "author": {"name": "Dev", "email": "dev@example.com"},
                "commands": ["./extra/cmd.md", "./more"], "agents": "./team",
                "hooks": "./config/hooks.json", "mcpServers": {"db": {"command": "x"}}}"#,
        )
        .unwrap();
        assert_eq!(m.name, "deploy-tools");
        assert_eq!(m.version.as_deref(), Some("1.2.0"));
        assert_eq!(m.author.as_deref(), Some("Dev <dev@example.com>"));
        assert_eq!(m.commands, vec!["./extra/cmd.md", "./more"]);
        assert_eq!(m.agents, vec!["./team"]);
        assert!(m.skills.is_empty());
        assert_eq!(
            m.hooks,
            Some(Component::Files(vec!["./config/hooks.json".into()]))
        );
        assert_eq!(m.mcp_servers, Some(Component::Inline));
    }

    #[test]
    fn bad_manifests_say_what_is_wrong() {
        for (text, wanted) in [
            ("{", "invalid JSON"),
            ("[]", "must be a JSON object"),
            ("{}", "\"name\" is required"),
            (r#"{"name": 3}"#, "\"name\" must be text"),
            (r#"{"name": "a", "version": 1}"#, "\"version\" must be text"),
            (r#"{"name": "a", "commands": "cmds"}"#, "must start with ./"),
            (
                r#"{"name": "a", "agents": ["./x/../../etc"]}"#,
                "inside the plugin",
            ),
            (r#"{"name": "a", "hooks": 3}"#, "\"hooks\" must be"),
        ] {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(wanted), "{text}: {err}");
            assert!(err.starts_with("/p/.claude-plugin/plugin.json"), "{err}");
        }
    }

    #[test]
    fn names_with_path_characters_or_separators_are_refused() {
        for name in ["../evil", "a/b", "a\\b", "..", "", "a b", "-a", "a__b", "é"] {
            let err = check_name(name).unwrap_err();
            assert!(matches!(err, PluginError::InvalidName { .. }), "{name}");
        }
        for name in ["a", "code-review", "Tools_2"] {
            check_name(name).unwrap();
        }
        let err = parse(r#"{"name": "../x"}"#).unwrap_err();
        assert!(err.to_string().contains("path characters"), "{err}");
    }
}
