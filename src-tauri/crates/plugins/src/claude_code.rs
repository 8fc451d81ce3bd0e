//! Plugins Claude Code installed, used where they are and read unchanged: the install
//! list `~/.claude/plugins/installed_plugins.json` says where each is (its `installPath`,
//! a folder in Claude Code's own format), and `enabledPlugins` in
//! `~/.claude/settings.json` says which are on. A person who already set plugins up in
//! Claude Code has them in Memo without installing them twice.
//!
//! Memo never writes Claude Code's files: turning one off in Memo is kept in
//! `$MEMO_HOME/plugins/claude-code.json` (`{"off": ["name@marketplace"]}`), and removing
//! one is Claude Code's job (`/plugin`). Only user-scope installs are read: a project- or
//! local-scope install belongs to one folder, which the plugin list of a session does not
//! know yet.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{PluginError, Result};
use crate::manifest::{check_name, Manifest};

/// Memo's own note of the Claude Code plugins turned off in Memo.
const OVERRIDES_FILE: &str = "claude-code.json";

/// One plugin of Claude Code's install list.
#[derive(Debug)]
pub struct ClaudeCodePlugin {
    /// `name@marketplace`, as Claude Code names it.
    pub id: String,
    /// The plugin's name: its namespace (`/name:command`).
    pub name: String,
    /// Claude Code's copy (`installPath`).
    pub root: PathBuf,
    pub version: Option<String>,
    /// `enabledPlugins` in Claude Code's user settings has it on.
    pub on_in_claude: bool,
    /// Turned off in Memo.
    pub off_in_memo: bool,
    /// Its manifest (one without `plugin.json` takes its name from the id), or why it
    /// cannot be used.
    pub manifest: Result<Manifest>,
}

impl ClaudeCodePlugin {
    /// Whether sessions load it.
    pub fn enabled(&self) -> bool {
        self.on_in_claude && !self.off_in_memo && self.manifest.is_ok()
    }
}

/// Claude Code's user-scope plugins under `user_home`, in id order; empty when Claude Code
/// has none (or its list cannot be read: a warning is logged, nothing fails).
pub fn installed(user_home: &Path, memo_home: Option<&Path>) -> Vec<ClaudeCodePlugin> {
    let list_path = user_home.join(".claude/plugins/installed_plugins.json");
    let Some(list) = read_json(&list_path) else {
        return Vec::new();
    };
    // Version 2 keeps the entries under "plugins"; the first format had them at the top.
    let entries = match list.get("plugins").and_then(Value::as_object) {
        Some(plugins) => plugins.clone(),
        None => match list {
            Value::Object(mut top) => {
                top.remove("version");
                top
            }
            _ => return Vec::new(),
        },
    };
    let on = enabled_in_claude(user_home);
    let off = memo_home.map(overrides).unwrap_or_default();
    let mut out = Vec::new();
    for (id, value) in entries {
        let Some(entry) = user_entry(&value) else {
            continue;
        };
        let Some(root) = entry.get("installPath").and_then(Value::as_str) else {
            continue;
        };
        let root = PathBuf::from(root);
        let name = id.split('@').next().unwrap_or(&id).to_owned();
        let manifest = match Manifest::read(&root) {
            // A manifest is optional in Claude Code: the name comes from the id then.
            Err(PluginError::NoManifest { .. }) if root.is_dir() => {
                check_name(&name).map(|()| Manifest::named(&name))
            }
            Err(PluginError::NoManifest { .. }) => {
                Err(PluginError::SourceMissing { path: root.clone() })
            }
            other => other,
        };
        out.push(ClaudeCodePlugin {
            name: manifest.as_ref().map_or(name, |m| m.name.clone()),
            version: entry
                .get("version")
                .and_then(Value::as_str)
                .map(str::to_owned),
            on_in_claude: on.contains(&id),
            off_in_memo: off.contains(&id),
            id,
            root,
            manifest,
        });
    }
    out
}

/// The user-scope entry of one plugin: an array of entries (one per scope) in version 2,
/// a single object before.
fn user_entry(value: &Value) -> Option<&serde_json::Map<String, Value>> {
    let user = |e: &&Value| {
        e.get("scope")
            .and_then(Value::as_str)
            .is_none_or(|s| s == "user")
    };
    match value {
        Value::Array(entries) => entries.iter().find(user)?.as_object(),
        Value::Object(entry) => user(&value).then_some(entry),
        _ => None,
    }
}

/// The ids `enabledPlugins` in `~/.claude/settings.json` has on.
fn enabled_in_claude(user_home: &Path) -> BTreeSet<String> {
    read_json(&user_home.join(".claude/settings.json"))
        .and_then(|v| v.get("enabledPlugins").cloned())
        .and_then(|v| match v {
            Value::Object(map) => Some(
                map.into_iter()
                    .filter(|(_, on)| on.as_bool() == Some(true))
                    .map(|(id, _)| id)
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

fn overrides(memo_home: &Path) -> BTreeSet<String> {
    read_json(&memo_home.join("plugins").join(OVERRIDES_FILE))
        .and_then(|v| v.get("off").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

/// Turns a Claude Code plugin on or off in Memo (written atomically; Claude Code's own
/// files are not touched).
pub fn set_enabled_in_memo(memo_home: &Path, id: &str, enabled: bool) -> Result<()> {
    let mut off = overrides(memo_home);
    if enabled {
        off.remove(id);
    } else {
        off.insert(id.to_owned());
    }
    let dir = memo_home.join("plugins");
    std::fs::create_dir_all(&dir).map_err(|e| PluginError::io(&dir, e))?;
    let path = dir.join(OVERRIDES_FILE);
    let tmp = dir.join(format!(".{OVERRIDES_FILE}.tmp"));
    let text = serde_json::json!({ "off": off }).to_string();
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            PluginError::io(&path, e)
        })
}

fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "Claude Code's plugin file not read");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_install_list_format_and_broken_files_are_read_without_failing() {
        let home = tempfile::tempdir().unwrap();
        let root = home.path().join("p");
        std::fs::create_dir_all(root.join(".claude-plugin")).unwrap();
        std::fs::write(
            root.join(".claude-plugin/plugin.json"),
            r#"{"name": "named-in-manifest", "version": "2.0.0"}"#,
        )
        .unwrap();
        std::fs::create_dir_all(home.path().join(".claude/plugins")).unwrap();
        std::fs::write(
            home.path().join(".claude/plugins/installed_plugins.json"),
            serde_json::json!({"version": 1, "old@mkt": {"installPath": root, "version": "2.0.0"},
                               "gone@mkt": {"installPath": "/no/such/folder"}})
            .to_string(),
        )
        .unwrap();
        let found = installed(home.path(), None);
        assert_eq!(found.len(), 2);
        let gone = found.iter().find(|p| p.id == "gone@mkt").unwrap();
        assert!(gone.manifest.is_err() && !gone.enabled());
        let old = found.iter().find(|p| p.id == "old@mkt").unwrap();
        assert_eq!(old.name, "named-in-manifest");
        // No enabledPlugins in Claude Code's settings: off.
        assert!(!old.on_in_claude && !old.enabled());
        std::fs::write(
            home.path().join(".claude/plugins/installed_plugins.json"),
            "{ not json",
        )
        .unwrap();
        assert!(installed(home.path(), None).is_empty());
    }
}
