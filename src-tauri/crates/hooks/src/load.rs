//! Reading hooks from where users already keep them, unchanged:
//!
//! 1. `~/.claude/settings.json` (the user's Claude Code settings),
//! 2. `<project>/.claude/settings.json` (shared with the project),
//! 3. `<project>/.claude/settings.local.json` (the user's, for this project),
//! 4. the `[hooks]` table of Memo's `config.toml`, in the same shape as Claude Code's
//!    JSON (`[[hooks.PreToolUse]]` with `matcher` and `hooks = [{ type, command, timeout }]`).
//!
//! 5. each enabled plugin's hooks (`hooks/hooks.json`, or the `hooks` of its
//!    `plugin.json`), run with `CLAUDE_PLUGIN_ROOT` set to the plugin's folder as Claude
//!    Code does. Plugins are installed by the user, so they are not gated by folder trust.
//!
//! All are merged in that order. Project files can make Memo run programs just by
//! opening a folder, so they are only used when the folder is trusted; otherwise their
//! hooks are listed as skipped, for the UI to say what did not run and why. Nothing here
//! fails as a whole: each problem is an issue in the report, naming its file, and costs
//! only the part it is in.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{IssueKind, LoadError};
use crate::event::HookEvent;
use crate::matcher::Matcher;
use crate::Hooks;

/// How long a hook may run when its settings do not say (Claude Code's default).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Where to look. Every path is given by the caller (tests use temporary folders; the
/// app passes the OS home, the open folder and `MemoHome::config_toml()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookPaths {
    /// The OS home directory, holding `.claude/settings.json`.
    pub user_home: Option<PathBuf>,
    /// The folder the session works in.
    pub project_dir: Option<PathBuf>,
    /// Memo's `config.toml` (`$MEMO_HOME/config.toml`).
    pub memo_config: Option<PathBuf>,
    /// Enabled plugins' hook files, read last.
    pub plugins: Vec<PluginHooks>,
}

/// One plugin's hook file: a `hooks.json` (`{"description": ..., "hooks": {...}}`, or the
/// events at its top level) or the plugin's `plugin.json` with the hooks inline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginHooks {
    pub plugin: String,
    /// The plugin's folder: `CLAUDE_PLUGIN_ROOT` of its hooks.
    pub root: PathBuf,
    pub file: PathBuf,
}

/// Which settings file a hook came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// `~/.claude/settings.json`.
    ClaudeUser,
    /// `<project>/.claude/settings.json`.
    ClaudeProject,
    /// `<project>/.claude/settings.local.json`.
    ClaudeProjectLocal,
    /// `$MEMO_HOME/config.toml`.
    MemoConfig,
    /// An installed plugin's hook file.
    Plugin,
}

impl SourceKind {
    /// From the folder's own files, so only run in a trusted folder.
    pub fn is_project(self) -> bool {
        matches!(
            self,
            SourceKind::ClaudeProject | SourceKind::ClaudeProjectLocal
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookSource {
    pub file: PathBuf,
    pub kind: SourceKind,
    /// For a plugin's hook: the plugin's name and folder (its `CLAUDE_PLUGIN_ROOT`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<(String, PathBuf)>,
}

impl HookSource {
    pub fn new(file: PathBuf, kind: SourceKind) -> HookSource {
        HookSource {
            file,
            kind,
            plugin: None,
        }
    }
}

impl HookSource {
    pub fn is_project(&self) -> bool {
        self.kind.is_project()
    }
}

/// One hook command, with what selects it and where it was written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookDefinition {
    pub event: HookEvent,
    pub matcher: Matcher,
    /// Run with `sh -c`.
    pub command: String,
    pub timeout_ms: u64,
    pub source: HookSource,
}

impl HookDefinition {
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// How this hook appears in the folder's trust prompt: everything a folder would
    /// run is listed, so a new or changed hook asks again.
    pub fn trust_item(&self) -> String {
        if self.matcher.as_str().is_empty() {
            format!("hook {}: {}", self.event, self.command)
        } else {
            format!(
                "hook {} {}: {}",
                self.event,
                self.matcher.as_str(),
                self.command
            )
        }
    }
}

/// A problem found while loading, for the user to fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadIssue {
    pub file: PathBuf,
    pub kind: IssueKind,
    /// Names the file and the place in it.
    pub message: String,
}

impl From<LoadError> for LoadIssue {
    fn from(error: LoadError) -> LoadIssue {
        LoadIssue {
            file: error.path().clone(),
            kind: error.kind(),
            message: error.to_string(),
        }
    }
}

/// A settings file that exists and was read (with or without problems).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadedFile {
    pub source: HookSource,
    /// Hook commands it defines (run or skipped).
    pub hooks: usize,
}

/// A project's hooks that were not loaded because the folder is not trusted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SkippedProjectHooks {
    pub hooks: Vec<HookDefinition>,
    /// The files they are in, each once.
    pub files: Vec<PathBuf>,
}

impl SkippedProjectHooks {
    pub fn count(&self) -> usize {
        self.hooks.len()
    }

    /// "3 project hooks not run: folder not trusted", or `None` when nothing was skipped.
    pub fn message(&self) -> Option<String> {
        match self.count() {
            0 => None,
            1 => Some("1 project hook not run: folder not trusted".into()),
            n => Some(format!("{n} project hooks not run: folder not trusted")),
        }
    }
}

/// What loading found, beside the hooks themselves.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LoadReport {
    pub files: Vec<LoadedFile>,
    pub issues: Vec<LoadIssue>,
    pub skipped_project: SkippedProjectHooks,
    /// A file with `"disableAllHooks": true`: no hook runs.
    pub disabled_by: Option<PathBuf>,
}

/// The hooks to run and the report on how they were read.
#[derive(Debug, Clone, Default)]
pub struct LoadedHooks {
    pub hooks: Hooks,
    pub report: LoadReport,
}

impl LoadedHooks {
    /// Everything the project's files would run, loaded or skipped, for the folder's trust
    /// decision (see memo-config's `TrustStore::status`).
    pub fn project_trust_items(&self) -> Vec<String> {
        self.hooks
            .definitions()
            .iter()
            .chain(&self.report.skipped_project.hooks)
            .filter(|h| h.source.is_project())
            .map(HookDefinition::trust_item)
            .collect()
    }
}

/// Reads every source in order. Project hooks are returned only when `project_trusted`;
/// otherwise they are in `report.skipped_project`.
pub fn load_hooks(paths: &HookPaths, project_trusted: bool) -> LoadedHooks {
    let mut sources = Vec::new();
    if let Some(home) = &paths.user_home {
        sources.push((home.join(".claude/settings.json"), SourceKind::ClaudeUser));
    }
    if let Some(project) = &paths.project_dir {
        let claude = project.join(".claude");
        sources.push((claude.join("settings.json"), SourceKind::ClaudeProject));
        sources.push((
            claude.join("settings.local.json"),
            SourceKind::ClaudeProjectLocal,
        ));
    }
    if let Some(config) = &paths.memo_config {
        sources.push((config.clone(), SourceKind::MemoConfig));
    }

    let mut sources: Vec<HookSource> = sources
        .into_iter()
        .map(|(file, kind)| HookSource::new(file, kind))
        .collect();
    sources.extend(paths.plugins.iter().map(|p| HookSource {
        file: p.file.clone(),
        kind: SourceKind::Plugin,
        plugin: Some((p.plugin.clone(), p.root.clone())),
    }));

    let mut report = LoadReport::default();
    let mut definitions = Vec::new();
    for source in sources {
        let kind = source.kind;
        let Some(parsed) = read_source(&source, &mut report.issues) else {
            continue;
        };
        report.files.push(LoadedFile {
            source: source.clone(),
            hooks: parsed.hooks.len(),
        });
        if kind.is_project() && !project_trusted {
            if !parsed.hooks.is_empty() {
                report.skipped_project.files.push(source.file.clone());
                report.skipped_project.hooks.extend(parsed.hooks);
            }
            continue;
        }
        if parsed.disable_all && report.disabled_by.is_none() {
            report.disabled_by = Some(source.file.clone());
        }
        definitions.extend(parsed.hooks);
    }
    if report.disabled_by.is_some() {
        definitions.clear();
    }
    LoadedHooks {
        hooks: Hooks::new(definitions),
        report,
    }
}

struct ParsedSource {
    hooks: Vec<HookDefinition>,
    disable_all: bool,
}

/// `None` when the file does not exist or cannot be used at all (the issue is recorded).
fn read_source(source: &HookSource, issues: &mut Vec<LoadIssue>) -> Option<ParsedSource> {
    let path = &source.file;
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(source) => {
            issues.push(
                LoadError::Read {
                    path: path.clone(),
                    source,
                }
                .into(),
            );
            return None;
        }
    };
    let (hooks_value, disable_all) = match source.kind {
        SourceKind::MemoConfig => match toml::from_str::<toml::Table>(&text) {
            // config.toml has much else in it; only `[hooks]` is ours.
            Ok(table) => {
                let hooks = table.get("hooks").map(toml_to_json);
                (hooks, false)
            }
            Err(e) => {
                issues.push(
                    LoadError::Toml {
                        path: path.clone(),
                        message: e.to_string().trim().to_owned(),
                    }
                    .into(),
                );
                return None;
            }
        },
        // A plugin's hooks never turn off the user's (`disableAllHooks` is not read); its
        // file may hold the events at the top level instead of under "hooks".
        SourceKind::Plugin => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(mut root)) => match root.remove("hooks") {
                Some(hooks) => (Some(hooks), false),
                None => {
                    root.remove("description");
                    (Some(Value::Object(root)), false)
                }
            },
            Ok(_) => {
                issues.push(
                    LoadError::Entry {
                        path: path.clone(),
                        at: "(top level)".into(),
                        message: "a plugin's hooks must be a JSON object; none of them are used"
                            .into(),
                    }
                    .into(),
                );
                return None;
            }
            Err(e) => {
                issues.push(
                    LoadError::Json {
                        path: path.clone(),
                        line: e.line(),
                        column: e.column(),
                        message: e.to_string(),
                    }
                    .into(),
                );
                return None;
            }
        },
        _ => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(mut root)) => {
                let disable = root.get("disableAllHooks") == Some(&Value::Bool(true));
                (root.remove("hooks"), disable)
            }
            Ok(_) => {
                issues.push(
                    LoadError::Entry {
                        path: path.clone(),
                        at: "(top level)".into(),
                        message: "settings must be a JSON object; none of its hooks are used"
                            .into(),
                    }
                    .into(),
                );
                return None;
            }
            Err(e) => {
                issues.push(
                    LoadError::Json {
                        path: path.clone(),
                        line: e.line(),
                        column: e.column(),
                        message: e.to_string(),
                    }
                    .into(),
                );
                return None;
            }
        },
    };
    let mut parser = EntryParser {
        source,
        issues,
        hooks: Vec::new(),
    };
    if let Some(value) = hooks_value {
        parser.hooks_table(&value);
    }
    Some(ParsedSource {
        hooks: parser.hooks,
        disable_all,
    })
}

/// TOML and JSON hold the same shape; converting lets one parser read both. A TOML date
/// (which has no JSON form) becomes a string, which the parser then rejects by position.
fn toml_to_json(value: &toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(toml_to_json).collect()),
        toml::Value::Table(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

/// Walks `hooks` entry by entry so that one bad entry is reported and skipped while its
/// neighbours load.
struct EntryParser<'a> {
    source: &'a HookSource,
    issues: &'a mut Vec<LoadIssue>,
    hooks: Vec<HookDefinition>,
}

impl EntryParser<'_> {
    fn issue(&mut self, error: LoadError) {
        self.issues.push(error.into());
    }

    fn entry_issue(&mut self, at: &str, message: impl Into<String>) {
        self.issue(LoadError::Entry {
            path: self.source.file.clone(),
            at: at.to_owned(),
            message: message.into(),
        });
    }

    fn hooks_table(&mut self, value: &Value) {
        let Some(events) = value.as_object() else {
            self.entry_issue(
                "hooks",
                "expected a table of events (\"PreToolUse\": [...]); none of its hooks are used",
            );
            return;
        };
        for (name, groups) in events {
            let at = format!("hooks.{name}");
            let Some(event) = HookEvent::from_name(name) else {
                self.issue(LoadError::UnknownEvent {
                    path: self.source.file.clone(),
                    at,
                    name: name.clone(),
                });
                continue;
            };
            let Some(groups) = groups.as_array() else {
                self.entry_issue(&at, "expected a list of matcher groups; not used");
                continue;
            };
            for (i, group) in groups.iter().enumerate() {
                self.group(event, &format!("{at}[{i}]"), group);
            }
        }
    }

    fn group(&mut self, event: HookEvent, at: &str, group: &Value) {
        let Some(group) = group.as_object() else {
            self.entry_issue(
                at,
                "expected { \"matcher\": ..., \"hooks\": [...] }; not used",
            );
            return;
        };
        let matcher = match group.get("matcher") {
            None | Some(Value::Null) => Matcher::all(),
            Some(Value::String(text)) => match Matcher::parse(text) {
                Ok(m) => m,
                Err(e) => {
                    self.issue(LoadError::InvalidMatcher {
                        path: self.source.file.clone(),
                        at: format!("{at}.matcher"),
                        matcher: text.clone(),
                        message: e.to_string(),
                    });
                    return;
                }
            },
            Some(_) => {
                self.entry_issue(
                    &format!("{at}.matcher"),
                    "the matcher must be a string; this group is not used",
                );
                return;
            }
        };
        let Some(hooks) = group.get("hooks").and_then(Value::as_array) else {
            self.entry_issue(
                &format!("{at}.hooks"),
                "expected a list of hooks; this group is not used",
            );
            return;
        };
        for (i, hook) in hooks.iter().enumerate() {
            self.hook(event, &matcher, &format!("{at}.hooks[{i}]"), hook);
        }
    }

    fn hook(&mut self, event: HookEvent, matcher: &Matcher, at: &str, hook: &Value) {
        let Some(hook) = hook.as_object() else {
            self.entry_issue(
                at,
                "expected { \"type\": \"command\", \"command\": ... }; not used",
            );
            return;
        };
        match hook.get("type").and_then(Value::as_str) {
            Some("command") => {}
            Some(other) => {
                self.issue(LoadError::UnsupportedType {
                    path: self.source.file.clone(),
                    at: format!("{at}.type"),
                    kind: other.to_owned(),
                });
                return;
            }
            None => {
                self.entry_issue(
                    &format!("{at}.type"),
                    "missing \"type\" (\"command\"); not used",
                );
                return;
            }
        }
        let command = match hook.get("command").and_then(Value::as_str) {
            Some(c) if !c.trim().is_empty() => c.to_owned(),
            _ => {
                self.entry_issue(
                    &format!("{at}.command"),
                    "a command hook needs a non-empty \"command\" string; not used",
                );
                return;
            }
        };
        let timeout = self.timeout(at, hook);
        self.hooks.push(HookDefinition {
            event,
            matcher: matcher.clone(),
            command,
            timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            source: self.source.clone(),
        });
    }

    /// Seconds, as Claude Code reads them. A bad value is reported and the default used:
    /// dropping the hook over it would silently turn a guard off.
    fn timeout(&mut self, at: &str, hook: &Map<String, Value>) -> Duration {
        let Some(value) = hook.get("timeout") else {
            return DEFAULT_TIMEOUT;
        };
        match value.as_f64() {
            Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
                Duration::from_secs_f64(secs)
            }
            _ => {
                self.entry_issue(
                    &format!("{at}.timeout"),
                    format!(
                        "timeout must be a number of seconds between 0 and 86400, not {value}; {} s used",
                        DEFAULT_TIMEOUT.as_secs()
                    ),
                );
                DEFAULT_TIMEOUT
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_items_name_event_matcher_and_command() {
        let source = HookSource::new(
            PathBuf::from("/p/.claude/settings.json"),
            SourceKind::ClaudeProject,
        );
        let mut hook = HookDefinition {
            event: HookEvent::PreToolUse,
            matcher: Matcher::parse("Bash").unwrap(),
            command: "./guard.sh".into(),
            timeout_ms: 1000,
            source,
        };
        assert_eq!(hook.trust_item(), "hook PreToolUse Bash: ./guard.sh");
        hook.matcher = Matcher::all();
        assert_eq!(hook.trust_item(), "hook PreToolUse: ./guard.sh");
    }

    #[test]
    fn skipped_message_counts() {
        let mut skipped = SkippedProjectHooks::default();
        assert_eq!(skipped.message(), None);
        let hook = HookDefinition {
            event: HookEvent::Stop,
            matcher: Matcher::all(),
            command: "true".into(),
            timeout_ms: 1,
            source: HookSource::new(PathBuf::from("x"), SourceKind::ClaudeProject),
        };
        skipped.hooks = vec![hook.clone(), hook.clone(), hook];
        assert_eq!(
            skipped.message().as_deref(),
            Some("3 project hooks not run: folder not trusted")
        );
    }
}
