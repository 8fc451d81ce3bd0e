//! Gemini CLI extensions the user installed (`~/.gemini/extensions/<name>/` with a
//! `gemini-extension.json`), read unchanged, as Gemini CLI reads them: their context files
//! (`contextFileName`, `GEMINI.md` by default) join the project context, their
//! `commands/**/*.toml` are custom commands, and their `mcpServers` are the user's servers
//! (memo-mcp reads them through [`enabled`]).
//!
//! An extension counts for a folder unless `~/.gemini/extensions/extension-enablement.json`
//! turns it off there: each extension's `overrides` are path rules (`/home/u/work/*` for a
//! folder and everything below it, a leading `!` for off), and the last rule that matches
//! the folder wins. Every string of a manifest has `${extensionPath}`, `${workspacePath}`
//! and `${/}` replaced first, as Gemini CLI does. Nothing here fails: an extension that
//! cannot be read is left out with a warning in the log.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

const MANIFEST: &str = "gemini-extension.json";
const ENABLEMENT: &str = "extension-enablement.json";
const DEFAULT_CONTEXT: &str = "GEMINI.md";

/// One extension that counts for the folder.
#[derive(Debug, Clone, PartialEq)]
pub struct GeminiExtension {
    pub name: String,
    pub dir: PathBuf,
    pub manifest_path: PathBuf,
    /// Its context files that exist, in the order the manifest names them.
    pub context_files: Vec<PathBuf>,
    /// `commands/`, when the extension has one.
    pub commands_dir: Option<PathBuf>,
    /// `mcpServers` with the variables replaced, when it declares any.
    pub mcp_servers: Option<Value>,
}

/// The extensions installed under `user_home` that count for `workspace`, by name.
pub fn enabled(user_home: &Path, workspace: &Path) -> Vec<GeminiExtension> {
    let root = user_home.join(".gemini/extensions");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let rules = read_json(&root.join(ENABLEMENT)).unwrap_or(Value::Null);
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut out: Vec<GeminiExtension> = Vec::new();
    for dir in dirs {
        let Some(ext) = read_extension(&dir, workspace) else {
            continue;
        };
        if !is_on(&rules, &ext.name, workspace) || out.iter().any(|e| e.name == ext.name) {
            continue;
        }
        out.push(ext);
    }
    out
}

fn read_extension(dir: &Path, workspace: &Path) -> Option<GeminiExtension> {
    let manifest_path = dir.join(MANIFEST);
    let mut manifest = read_json(&manifest_path)?;
    let vars = [
        ("extensionPath", dir.display().to_string()),
        ("workspacePath", workspace.display().to_string()),
        ("/", std::path::MAIN_SEPARATOR.to_string()),
        ("pathSeparator", std::path::MAIN_SEPARATOR.to_string()),
    ];
    hydrate(&mut manifest, &vars);
    let name = manifest.get("name").and_then(Value::as_str)?;
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !valid {
        tracing::warn!(path = %manifest_path.display(), "a Gemini CLI extension with an invalid name is left out");
        return None;
    }
    let names: Vec<String> = match manifest.get("contextFileName") {
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => vec![DEFAULT_CONTEXT.to_owned()],
    };
    let context_files = names
        .iter()
        .filter_map(|n| inside(dir, n))
        .filter(|p| p.is_file())
        .collect();
    let commands = dir.join("commands");
    Some(GeminiExtension {
        name: name.to_owned(),
        context_files,
        commands_dir: commands.is_dir().then_some(commands),
        mcp_servers: manifest
            .get("mcpServers")
            .filter(|v| v.is_object())
            .cloned(),
        dir: dir.to_path_buf(),
        manifest_path,
    })
}

/// `dir/relative`, unless it leaves `dir` (Gemini CLI refuses such a context file too).
fn inside(dir: &Path, relative: &str) -> Option<PathBuf> {
    let rel = Path::new(relative);
    if rel.is_absolute()
        || rel.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::RootDir | Component::Prefix(_)
            )
        })
    {
        return None;
    }
    Some(dir.join(rel))
}

/// Replaces `${name}` of `vars` in every string; other `${…}` are left for the
/// environment expansion that comes later.
fn hydrate(value: &mut Value, vars: &[(&str, String)]) {
    match value {
        Value::String(s) if s.contains("${") => {
            for (name, with) in vars {
                *s = s.replace(&format!("${{{name}}}"), with);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| hydrate(v, vars)),
        Value::Object(map) => map.values_mut().for_each(|v| hydrate(v, vars)),
        _ => {}
    }
}

/// Whether the enablement rules leave `name` on in `workspace`: on by default, the last
/// matching rule decides.
fn is_on(rules: &Value, name: &str, workspace: &Path) -> bool {
    let Some(overrides) = rules
        .get(name)
        .and_then(|e| e.get("overrides"))
        .and_then(Value::as_array)
    else {
        return true;
    };
    let here = with_slash(&workspace.display().to_string());
    let mut on = true;
    for rule in overrides.iter().filter_map(Value::as_str) {
        let (negated, path) = match rule.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, rule),
        };
        let matches = match path.strip_suffix('*') {
            Some(prefix) => here.starts_with(&with_slash(prefix)),
            None => here == with_slash(path),
        };
        if matches {
            on = !negated;
        }
    }
    on
}

fn with_slash(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    format!("{trimmed}/")
}

fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    match serde_json::from_str(&text) {
        Ok(v) => Some(v),
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "a Gemini CLI extension file is not valid JSON");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn extensions_are_read_with_their_variables_and_the_last_matching_rule_wins() {
        let home = tempfile::tempdir().unwrap();
        let ext = home.path().join(".gemini/extensions/db-tools");
        write(
            &ext.join(MANIFEST),
            &json!({
                "name": "db-tools", "version": "1.0.0",
                "contextFileName": ["DB.md", "missing.md", "../outside.md"],
                "mcpServers": {"db": {"command": "node", "args": ["${extensionPath}${/}server.js"],
                                      "cwd": "${workspacePath}"}}
            })
            .to_string(),
        );
        write(&ext.join("DB.md"), "Use the db tools.");
        write(
            &ext.join("commands/db/migrate.toml"),
            "prompt = \"migrate {{args}}\"",
        );
        let plain = home.path().join(".gemini/extensions/plain");
        write(
            &plain.join(MANIFEST),
            r#"{"name": "plain", "version": "0.1.0"}"#,
        );
        write(&plain.join("GEMINI.md"), "Plain rules.");
        write(
            &home
                .path()
                .join(".gemini/extensions/broken/gemini-extension.json"),
            "{ nope",
        );

        let work = Path::new("/home/u/work/app");
        let found = enabled(home.path(), work);
        let names: Vec<&str> = found.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["db-tools", "plain"]);
        let db = &found[0];
        assert_eq!(db.context_files, [ext.join("DB.md")]);
        assert_eq!(
            db.commands_dir.as_deref(),
            Some(ext.join("commands").as_path())
        );
        let server = &db.mcp_servers.as_ref().unwrap()["db"];
        assert_eq!(server["args"][0], format!("{}/server.js", ext.display()));
        assert_eq!(server["cwd"], "/home/u/work/app");
        assert_eq!(found[1].context_files, [plain.join("GEMINI.md")]);

        // Off everywhere under home, back on for one project: the last match wins.
        write(
            &home.path().join(".gemini/extensions").join(ENABLEMENT),
            &json!({"db-tools": {"overrides": ["!/home/u/*", "/home/u/work/app/*"]},
                    "plain": {"overrides": ["/home/u/*", "!/home/u/work/*"]}})
            .to_string(),
        );
        let names: Vec<String> = enabled(home.path(), work)
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["db-tools"]);
        let names: Vec<String> = enabled(home.path(), Path::new("/home/u/other"))
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["plain"]);
    }
}
