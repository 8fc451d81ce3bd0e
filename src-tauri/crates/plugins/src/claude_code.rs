//! Plugins Claude Code installed, used where they are and read unchanged: the install
//! list `~/.claude/plugins/installed_plugins.json` says where each is (its `installPath`,
//! a folder in Claude Code's own format), and `enabledPlugins` in
//! `~/.claude/settings.json` says which are on. A person who already set plugins up in
//! Claude Code has them in Memo without installing them twice.
//!
//! Memo never writes Claude Code's files: turning one off in Memo is kept in
//! `$MEMO_HOME/plugins/claude-code.json` (`{"off": ["name@marketplace"]}`), and removing
//! one is Claude Code's job (`/plugin`). A project- or local-scope install belongs to
//! one folder (its `projectPath`): sessions there load it, with that folder's
//! `.claude/settings.json` and `.claude/settings.local.json` saying whether it is on (as
//! in Claude Code, the local file over the project's over the user's). Those files only
//! decide for installs made for the folder: a folder cannot turn on a user-scope plugin
//! the person turned off.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{PluginError, Result};
use crate::manifest::{check_name, Manifest};

/// Memo's own note of the Claude Code plugins turned off in Memo.
const OVERRIDES_FILE: &str = "claude-code.json";

/// Where a Claude Code install applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every folder.
    User,
    /// Only this folder (Claude Code's project and local scopes).
    Folder(PathBuf),
}

/// One plugin of Claude Code's install list.
#[derive(Debug)]
pub struct ClaudeCodePlugin {
    pub scope: Scope,
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

/// Which installs a reader wants.
#[derive(Debug, Clone, Copy)]
pub enum Applying<'a> {
    /// What a session in this folder loads (none: a session with no folder): the
    /// user-scope installs and those made for the folder, one per id.
    In(Option<&'a Path>),
    /// Every install of every scope, an id installed for several once per scope (the
    /// plugins page).
    Anywhere,
}

/// Claude Code's plugins under `user_home` that `applying` asks for, in id order. Empty
/// when Claude Code has none (or its list cannot be read: a warning is logged, nothing
/// fails).
pub fn installed(
    user_home: &Path,
    memo_home: Option<&Path>,
    applying: Applying<'_>,
) -> Vec<ClaudeCodePlugin> {
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
    let user_on = enabled_in(&[user_home.join(".claude/settings.json")]);
    let off = memo_home.map(overrides).unwrap_or_default();
    let mut out = Vec::new();
    for (id, value) in entries {
        for (scope, entry) in scoped_entries(&value, applying) {
            let Some(root) = entry.get("installPath").and_then(Value::as_str) else {
                continue;
            };
            let on_in_claude = match &scope {
                Scope::User => user_on.get(&id).copied().unwrap_or(false),
                Scope::Folder(dir) => enabled_in(&[
                    user_home.join(".claude/settings.json"),
                    dir.join(".claude/settings.json"),
                    dir.join(".claude/settings.local.json"),
                ])
                .get(&id)
                .copied()
                .unwrap_or(false),
            };
            out.push(entry_plugin(
                &id,
                scope,
                entry,
                root,
                on_in_claude,
                off.contains(&id),
            ));
        }
    }
    out
}

fn entry_plugin(
    id: &str,
    scope: Scope,
    entry: &serde_json::Map<String, Value>,
    root: &str,
    on_in_claude: bool,
    off_in_memo: bool,
) -> ClaudeCodePlugin {
    let root = PathBuf::from(root);
    let name = id.split('@').next().unwrap_or(id).to_owned();
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
    ClaudeCodePlugin {
        scope,
        name: manifest.as_ref().map_or(name, |m| m.name.clone()),
        version: entry
            .get("version")
            .and_then(Value::as_str)
            .map(str::to_owned),
        on_in_claude,
        off_in_memo,
        id: id.to_owned(),
        root,
        manifest,
    }
}

/// The entries of one plugin that `applying` asks for: an array of entries (one per
/// scope) in version 2, a single user-scope object before. In a folder, an install made
/// for it is taken over the user-scope one.
fn scoped_entries<'v>(
    value: &'v Value,
    applying: Applying<'_>,
) -> Vec<(Scope, &'v serde_json::Map<String, Value>)> {
    let entries: Vec<&serde_json::Map<String, Value>> = match value {
        Value::Array(entries) => entries.iter().filter_map(Value::as_object).collect(),
        Value::Object(entry) => vec![entry],
        _ => Vec::new(),
    };
    let mut scoped: Vec<(Scope, &serde_json::Map<String, Value>)> = entries
        .into_iter()
        .filter_map(|entry| {
            match entry.get("scope").and_then(Value::as_str) {
                None | Some("user") => Some((Scope::User, entry)),
                Some("project" | "local") => {
                    let dir = entry.get("projectPath").and_then(Value::as_str)?;
                    Some((Scope::Folder(PathBuf::from(dir)), entry))
                }
                // A scope Claude Code may add later (managed, enterprise) is not guessed.
                Some(_) => None,
            }
        })
        .collect();
    let Applying::In(folder) = applying else {
        return scoped;
    };
    let here = |dir: &Path| {
        folder.is_some_and(|folder| {
            dir == folder
                || matches!((dir.canonicalize(), folder.canonicalize()), (Ok(a), Ok(b)) if a == b)
        })
    };
    scoped.retain(|(scope, _)| match scope {
        Scope::User => true,
        Scope::Folder(dir) => here(dir),
    });
    scoped.sort_by_key(|(scope, _)| *scope == Scope::User);
    scoped.truncate(1);
    scoped
}

/// What `enabledPlugins` says of each id across `files`, a later file over an earlier.
fn enabled_in(files: &[PathBuf]) -> std::collections::BTreeMap<String, bool> {
    let mut out = std::collections::BTreeMap::new();
    for file in files {
        if let Some(Value::Object(map)) =
            read_json(file).and_then(|v| v.get("enabledPlugins").cloned())
        {
            for (id, on) in map {
                if let Some(on) = on.as_bool() {
                    out.insert(id, on);
                }
            }
        }
    }
    out
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
        let found = installed(home.path(), None, Applying::Anywhere);
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
        assert!(installed(home.path(), None, Applying::Anywhere).is_empty());
    }

    #[test]
    fn an_install_for_one_folder_loads_there_only_and_that_folder_says_whether_it_is_on() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let plugin = |name: &str| {
            let root = h.join("cache").join(name);
            std::fs::create_dir_all(&root).unwrap();
            root
        };
        let (shop, other) = (h.join("shop"), h.join("other"));
        std::fs::create_dir_all(shop.join(".claude")).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        std::fs::create_dir_all(h.join(".claude/plugins")).unwrap();
        std::fs::write(
            h.join(".claude/plugins/installed_plugins.json"),
            serde_json::json!({"version": 2, "plugins": {
                "lint@mkt": [{"scope": "project", "projectPath": shop, "installPath": plugin("lint")}],
                "fmt@mkt": [
                    {"scope": "user", "installPath": plugin("fmt-user"), "version": "1.0.0"},
                    {"scope": "local", "projectPath": shop, "installPath": plugin("fmt-local"), "version": "2.0.0"}
                ],
                "mgr@mkt": [{"scope": "managed", "installPath": plugin("mgr")}]
            }})
            .to_string(),
        )
        .unwrap();
        // On for the user; the folder's own files decide for the installs made for it
        // (the local file over the project's), and cannot turn on a user-scope install.
        std::fs::write(
            h.join(".claude/settings.json"),
            r#"{"enabledPlugins": {"fmt@mkt": true}}"#,
        )
        .unwrap();
        std::fs::write(
            shop.join(".claude/settings.json"),
            r#"{"enabledPlugins": {"lint@mkt": true, "fmt@mkt": true}}"#,
        )
        .unwrap();
        std::fs::write(
            shop.join(".claude/settings.local.json"),
            r#"{"enabledPlugins": {"fmt@mkt": false}}"#,
        )
        .unwrap();

        let in_shop = installed(h, None, Applying::In(Some(&shop)));
        let seen: Vec<(&str, Option<&str>, bool)> = in_shop
            .iter()
            .map(|p| (p.id.as_str(), p.version.as_deref(), p.enabled()))
            .collect();
        assert_eq!(
            seen,
            [("fmt@mkt", Some("2.0.0"), false), ("lint@mkt", None, true)],
            "the local install over the user's, off by the local file; lint on by the project's"
        );
        let elsewhere = installed(h, None, Applying::In(Some(&other)));
        let seen: Vec<(&str, Option<&str>, bool)> = elsewhere
            .iter()
            .map(|p| (p.id.as_str(), p.version.as_deref(), p.enabled()))
            .collect();
        assert_eq!(seen, [("fmt@mkt", Some("1.0.0"), true)]);
        assert_eq!(installed(h, None, Applying::In(None)).len(), 1);
        let page = installed(h, None, Applying::Anywhere);
        let scopes: Vec<(&str, &Scope)> = page.iter().map(|p| (p.id.as_str(), &p.scope)).collect();
        assert_eq!(
            scopes,
            [
                ("fmt@mkt", &Scope::User),
                ("fmt@mkt", &Scope::Folder(shop.clone())),
                ("lint@mkt", &Scope::Folder(shop.clone())),
            ],
            "a scope Memo does not know (managed) is left out"
        );
    }
}
