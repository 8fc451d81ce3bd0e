//! Custom slash commands: prompt files a user or project keeps for recurring requests.
//!
//! - Markdown (`$MEMO_HOME/commands`, `~/.claude/commands`, `<project>/.memo/commands`,
//!   `<project>/.claude/commands`): optional front matter (`description`,
//!   `argument-hint`), the body is the prompt; `$ARGUMENTS` is the whole argument text and
//!   `$1`..`$9` its words.
//! - TOML (`~/.gemini/commands`, `<project>/.gemini/commands`): `prompt` (required) and
//!   `description`; `{{args}}` is the argument text.
//!
//! Subfolders namespace a command: `.claude/commands/openspec/proposal.md` is
//! `/openspec:proposal`. On a name clash the project's command beats the user's, and the
//! clash is reported. An installed plugin's commands (Markdown, as Claude Code's) carry
//! the plugin's name in front: `commands/review.md` of plugin `tools` is `/tools:review`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use memo_protocol::ContextProblem;

use crate::error::ContextError;
use crate::plugins::NamespacedPath;
use crate::skills::{optional_string, parse_yaml_map};
use crate::slash::{Builtin, SlashCall};
use crate::text::split_front_matter;

/// Folder depth for namespaces (`a:b:c:name`); deeper files are ignored.
const MAX_DEPTH: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandFileScope {
    Project,
    User,
    /// From an installed plugin; always namespaced by the plugin's name.
    Plugin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    Toml,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFile {
    /// Without the slash: `review`, `openspec:proposal`.
    pub name: String,
    pub description: Option<String>,
    pub argument_hint: Option<String>,
    pub scope: CommandFileScope,
    pub path: PathBuf,
    template: String,
    format: Format,
}

impl CommandFile {
    /// The prompt for `/name args`. Arguments that the template does not place are
    /// appended, so they are never silently dropped.
    pub fn expand(&self, args: &str) -> String {
        let args = args.trim();
        let (mut text, placed) = match self.format {
            Format::Markdown => expand_markdown(&self.template, args),
            Format::Toml => (
                self.template.replace("{{args}}", args),
                self.template.contains("{{args}}"),
            ),
        };
        if !placed && !args.is_empty() {
            text = format!("{}\n\nArguments: {args}", text.trim_end());
        }
        text.trim().to_owned()
    }
}

fn expand_markdown(template: &str, args: &str) -> (String, bool) {
    let words = split_args(args);
    let mut out = String::with_capacity(template.len() + args.len());
    let mut placed = false;
    let mut rest = template;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            out.push_str(args);
            placed = true;
            rest = tail;
        } else if let Some(d) = after
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|d| *d >= 1)
        {
            out.push_str(words.get(d as usize - 1).map(String::as_str).unwrap_or(""));
            placed = true;
            rest = &after[1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    (out, placed)
}

/// Splits arguments on whitespace, keeping "quoted phrases" (single or double) together.
pub fn split_args(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in args.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            None => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(current);
    }
    words
}

/// Where commands are searched; `user_home` is the OS home (for `~/.claude`, `~/.gemini`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandFileRoots {
    pub memo_home: Option<PathBuf>,
    pub user_home: Option<PathBuf>,
    pub project_root: Option<PathBuf>,
    /// Enabled plugins' command folders (or single files), searched last.
    pub plugins: Vec<NamespacedPath>,
}

impl CommandFileRoots {
    /// In precedence order: the first command with a name wins.
    fn dirs(&self) -> Vec<(PathBuf, CommandFileScope, Format)> {
        let mut dirs = Vec::new();
        if let Some(root) = &self.project_root {
            dirs.push((
                root.join(".memo/commands"),
                CommandFileScope::Project,
                Format::Markdown,
            ));
            dirs.push((
                root.join(".claude/commands"),
                CommandFileScope::Project,
                Format::Markdown,
            ));
            dirs.push((
                root.join(".gemini/commands"),
                CommandFileScope::Project,
                Format::Toml,
            ));
        }
        if let Some(home) = &self.memo_home {
            dirs.push((
                home.join("commands"),
                CommandFileScope::User,
                Format::Markdown,
            ));
        }
        if let Some(home) = &self.user_home {
            dirs.push((
                home.join(".claude/commands"),
                CommandFileScope::User,
                Format::Markdown,
            ));
            dirs.push((
                home.join(".gemini/commands"),
                CommandFileScope::User,
                Format::Toml,
            ));
        }
        dirs
    }
}

/// The custom commands available in a workspace.
#[derive(Debug, Clone, Default)]
pub struct CommandFiles {
    commands: BTreeMap<String, CommandFile>,
    problems: Vec<ContextProblem>,
}

impl CommandFiles {
    pub fn discover(roots: &CommandFileRoots) -> CommandFiles {
        let mut set = CommandFiles::default();
        let mut seen_dirs = Vec::new();
        for (dir, scope, format) in roots.dirs() {
            let Ok(real) = std::fs::canonicalize(&dir) else {
                continue;
            };
            // A project opened at the home folder has the same `.claude/commands` twice.
            if seen_dirs.contains(&real) {
                continue;
            }
            seen_dirs.push(real);
            let mut files = Vec::new();
            collect(&dir, &dir, format, MAX_DEPTH, &mut files);
            set.load_all(files, scope, format);
        }
        // Gemini CLI extensions' commands, after the user's own: a name taken already
        // becomes `extension.name`, as Gemini CLI renames it.
        if let (Some(home), Some(root)) = (&roots.user_home, &roots.project_root) {
            for ext in crate::gemini_extensions::enabled(home, root) {
                let Some(dir) = &ext.commands_dir else {
                    continue;
                };
                let mut files = Vec::new();
                collect(dir, dir, Format::Toml, MAX_DEPTH, &mut files);
                let files = files
                    .into_iter()
                    .map(|(name, path)| {
                        if set.commands.contains_key(&name) {
                            (format!("{}.{name}", ext.name), path)
                        } else {
                            (name, path)
                        }
                    })
                    .collect();
                set.load_all(files, CommandFileScope::User, Format::Toml);
            }
        }
        for plugin in &roots.plugins {
            let mut files = Vec::new();
            if plugin.path.is_dir() {
                collect(
                    &plugin.path,
                    &plugin.path,
                    Format::Markdown,
                    MAX_DEPTH,
                    &mut files,
                );
            } else if plugin.path.extension().is_some_and(|e| e == "md") {
                if let Some(parent) = plugin.path.parent() {
                    files.extend(
                        command_name(parent, &plugin.path).map(|n| (n, plugin.path.clone())),
                    );
                }
            }
            let files = files
                .into_iter()
                .map(|(name, path)| (format!("{}:{name}", plugin.namespace), path))
                .collect();
            set.load_all(files, CommandFileScope::Plugin, Format::Markdown);
        }
        set
    }

    fn load_all(&mut self, files: Vec<(String, PathBuf)>, scope: CommandFileScope, format: Format) {
        for (name, path) in files {
            match load(&path, format) {
                Ok((template, description, argument_hint)) => self.insert(CommandFile {
                    name,
                    description,
                    argument_hint,
                    scope,
                    path,
                    template,
                    format,
                }),
                Err(reason) => self.problems.push(ContextProblem {
                    path: path.display().to_string(),
                    message: format!("command /{name} skipped: {reason}"),
                }),
            }
        }
    }

    fn insert(&mut self, command: CommandFile) {
        if Builtin::parse(&command.name).is_some() {
            self.problems.push(ContextProblem {
                path: command.path.display().to_string(),
                message: format!(
                    "/{} is a built-in command; this file is ignored",
                    command.name
                ),
            });
            return;
        }
        if let Some(winner) = self.commands.get(&command.name) {
            let why = if winner.scope == CommandFileScope::Project
                && command.scope == CommandFileScope::User
            {
                "the project's command wins"
            } else {
                "the first one found wins"
            };
            self.problems.push(ContextProblem {
                path: command.path.display().to_string(),
                message: format!(
                    "/{} is also defined in {}; {why}, this one is ignored",
                    command.name,
                    winner.path.display()
                ),
            });
            return;
        }
        self.commands.insert(command.name.clone(), command);
    }

    pub fn get(&self, name: &str) -> Option<&CommandFile> {
        self.commands.get(name)
    }

    /// Sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &CommandFile> {
        self.commands.values()
    }

    pub fn problems(&self) -> &[ContextProblem] {
        &self.problems
    }
}

fn collect(
    root: &Path,
    dir: &Path,
    format: Format,
    depth: usize,
    out: &mut Vec<(String, PathBuf)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    entries.sort();
    let ext = match format {
        Format::Markdown => "md",
        Format::Toml => "toml",
    };
    for path in entries {
        if path.is_dir() {
            if depth > 0 {
                collect(root, &path, format, depth - 1, out);
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            if let Some(name) = command_name(root, &path) {
                out.push((name, path));
            }
        }
    }
}

/// `root/a/b/name.md` -> `a:b:name`.
fn command_name(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?.with_extension("");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let name = parts.join(":");
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'));
    valid.then_some(name)
}

type Loaded = (String, Option<String>, Option<String>);

fn load(path: &Path, format: Format) -> Result<Loaded, ContextError> {
    let text = std::fs::read_to_string(path).map_err(|e| ContextError::unreadable(&e))?;
    match format {
        Format::Markdown => {
            let parts = split_front_matter(&text)?;
            let (description, hint) = match parts.yaml {
                Some(yaml) if !yaml.trim().is_empty() => {
                    let map = parse_yaml_map(yaml)?;
                    (
                        optional_string(&map, "description"),
                        optional_string(&map, "argument-hint"),
                    )
                }
                _ => (None, None),
            };
            if parts.body.trim().is_empty() {
                return Err(ContextError::EmptyPrompt);
            }
            Ok((parts.body.to_owned(), description, hint))
        }
        Format::Toml => {
            let table: toml::Table = toml::from_str(&text)
                .map_err(|e| ContextError::InvalidToml(e.message().to_owned()))?;
            let prompt = match table.get("prompt") {
                Some(toml::Value::String(p)) if !p.trim().is_empty() => p.clone(),
                Some(toml::Value::String(_)) => return Err(ContextError::EmptyPromptKey),
                Some(other) => {
                    return Err(ContextError::PromptNotString(other.type_str().to_owned()))
                }
                None => return Err(ContextError::NoPromptKey),
            };
            let description = table
                .get("description")
                .and_then(|d| d.as_str())
                .map(|d| d.trim().to_owned())
                .filter(|d| !d.is_empty());
            Ok((prompt, description, None))
        }
    }
}

/// What a slash command turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved<'a> {
    Builtin(Builtin),
    Custom(&'a CommandFile),
    Unknown,
}

/// What `/name` is: a built-in (which always wins), one of `commands`, or nothing.
pub fn resolve<'a>(call: &SlashCall<'_>, commands: &'a CommandFiles) -> Resolved<'a> {
    if let Some(builtin) = Builtin::parse(call.name) {
        return Resolved::Builtin(builtin);
    }
    match commands.get(call.name) {
        Some(command) => Resolved::Custom(command),
        None => Resolved::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(template: &str) -> CommandFile {
        CommandFile {
            name: "t".into(),
            description: None,
            argument_hint: None,
            scope: CommandFileScope::User,
            path: PathBuf::from("t.md"),
            template: template.into(),
            format: Format::Markdown,
        }
    }

    #[test]
    fn markdown_arguments_and_positionals() {
        let cmd = md("Fix issue $1 in $2 ($ARGUMENTS). Cost: $5 and $x.");
        assert_eq!(
            cmd.expand("42 \"src/a b.rs\""),
            "Fix issue 42 in src/a b.rs (42 \"src/a b.rs\"). Cost:  and $x."
        );
    }

    #[test]
    fn unplaced_arguments_are_appended() {
        assert_eq!(
            md("Review the diff.").expand("carefully"),
            "Review the diff.\n\nArguments: carefully"
        );
        assert_eq!(md("Review the diff.").expand("  "), "Review the diff.");
    }

    #[test]
    fn args_split_on_whitespace_with_quotes() {
        assert_eq!(
            split_args(r#"a "b c" 'd e' f"#),
            vec!["a", "b c", "d e", "f"]
        );
        assert_eq!(split_args(r#"x "" y"#), vec!["x", "", "y"]);
        assert!(split_args("   ").is_empty());
    }

    #[test]
    fn names_are_namespaced_by_folder() {
        assert_eq!(
            command_name(Path::new("/c"), Path::new("/c/openspec/proposal.md")).as_deref(),
            Some("openspec:proposal")
        );
        assert_eq!(
            command_name(Path::new("/c"), Path::new("/c/has space.md")),
            None
        );
    }
}
