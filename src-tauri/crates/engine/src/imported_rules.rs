//! Tool permissions users already wrote for other agents, read unchanged and applied as
//! Memo rules:
//! - Claude Code: `permissions.allow` / `permissions.deny` in `~/.claude/settings.json`,
//!   and the project's `.claude/settings.json` and `.claude/settings.local.json`
//!   (`Bash(npm run test:*)`, `Edit(src/**)`, `WebFetch(domain:docs.rs)`,
//!   `mcp__server__tool`, a bare tool name).
//! - Gemini CLI: `excludeTools` / `tools.exclude` (tools not offered; `run_shell_command(rm)`
//!   a refused command), `coreTools` / `tools.core` (only these built-in tools are offered),
//!   `allowedTools` / `tools.allowed` (run without asking), in `~/.gemini/settings.json` and
//!   the project's `.gemini/settings.json`.
//!
//! An entry Memo cannot apply as written is listed with the reason, never guessed at. A
//! project's allow entries let commands run unasked, so they only apply in a trusted
//! folder (they are part of what the trust prompt lists); deny and exclude entries only
//! restrict, and always apply.

use std::path::{Path, PathBuf};

use memo_config::{ApprovalRule, RuleDecision, RuleKind};
use serde_json::Value;

/// One entry as written in another agent's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedEntry {
    pub file: PathBuf,
    /// From the folder's own files (not the user's home).
    pub project: bool,
    /// As written: `Bash(npm test:*)`.
    pub text: String,
    pub decision: RuleDecision,
    pub effect: Effect,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Matched like a kept rule.
    Rule { kind: RuleKind, pattern: String },
    /// This built-in or MCP tool is not offered to the model.
    Exclude(String),
    /// Only the listed built-in tools are offered (Gemini's core list).
    Only(Vec<String>),
    /// The shell runs only commands starting with one of these prefixes, by whole words
    /// (Gemini's `coreTools: ["ShellTool(ls)"]`).
    OnlyCommands(Vec<String>),
    /// Not applied, and why.
    Unsupported(String),
}

/// Gemini's and Claude Code's names for Memo's built-in tools.
fn memo_tool(name: &str) -> Option<&'static str> {
    Some(match name {
        "run_shell_command" | "ShellTool" | "Bash" => "exec_command",
        "write_file" | "WriteFileTool" | "Write" => "write_file",
        "replace" | "EditTool" | "Edit" | "MultiEdit" => "apply_patch",
        "read_file" | "ReadFileTool" | "Read" | "read_many_files" | "ReadManyFilesTool" => {
            "read_file"
        }
        "glob" | "GlobTool" | "Glob" => "glob",
        "search_file_content" | "GrepTool" | "Grep" => "grep_files",
        "list_directory" | "LSTool" | "LS" => "list_dir",
        "web_fetch" | "WebFetchTool" | "WebFetch" => "webfetch",
        "save_memory" | "MemoryTool" => "save_memory",
        "write_todos" | "TodoWrite" => "update_plan",
        _ => return None,
    })
}

/// Every entry that applies to a session in `cwd` (`home`: the OS home directory); only
/// the home's without a folder.
pub fn read(cwd: Option<&Path>, home: Option<&Path>) -> Vec<ImportedEntry> {
    let mut out = Vec::new();
    let mut claude = Vec::new();
    let mut gemini = Vec::new();
    if let Some(home) = home {
        claude.push((home.join(".claude/settings.json"), false));
        gemini.push((home.join(".gemini/settings.json"), false));
    }
    if let Some(cwd) = cwd {
        claude.push((cwd.join(".claude/settings.json"), true));
        claude.push((cwd.join(".claude/settings.local.json"), true));
        gemini.push((cwd.join(".gemini/settings.json"), true));
    }
    for (file, project) in claude {
        if let Some(json) = read_json(&file) {
            read_claude(&json, &file, project, &mut out);
        }
    }
    for (file, project) in gemini {
        if let Some(json) = read_json(&file) {
            read_gemini(&json, &file, project, &mut out);
        }
    }
    out
}

/// A missing or unreadable file is simply not there: other agents' settings are theirs to
/// keep valid, and a broken one must not stop a session.
fn read_json(file: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(file).ok()?;
    match serde_json::from_str(&text) {
        Ok(json) => Some(json),
        Err(error) => {
            tracing::warn!(file = %file.display(), %error, "other agent's settings not read");
            None
        }
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn read_claude(json: &Value, file: &Path, project: bool, out: &mut Vec<ImportedEntry>) {
    let permissions = json.get("permissions");
    for (key, decision) in [("allow", RuleDecision::Allow), ("deny", RuleDecision::Deny)] {
        for text in strings(permissions.and_then(|p| p.get(key))) {
            let effect = claude_effect(&text, decision);
            out.push(ImportedEntry {
                file: file.to_path_buf(),
                project,
                text,
                decision,
                effect,
            });
        }
    }
}

/// `Tool(specifier)` or a bare `Tool`.
fn split_call(text: &str) -> (&str, Option<&str>) {
    match text.split_once('(') {
        Some((tool, rest)) if rest.ends_with(')') => (tool.trim(), Some(&rest[..rest.len() - 1])),
        _ => (text.trim(), None),
    }
}

fn claude_effect(text: &str, decision: RuleDecision) -> Effect {
    if let Some(rest) = text.strip_prefix("mcp__") {
        return match rest.split_once("__") {
            Some((server, tool)) => rule(RuleKind::Mcp, format!("{server}:{tool}")),
            None if decision == RuleDecision::Deny => Effect::Exclude(format!("{rest}__*")),
            None => rule(RuleKind::Mcp, format!("{rest}:*")),
        };
    }
    let (tool, spec) = split_call(text);
    let Some(memo) = memo_tool(tool) else {
        return Effect::Unsupported(format!("Memo has no tool like {tool}"));
    };
    match (memo, spec) {
        ("exec_command", Some(spec)) => command_effect(spec.trim(), decision),
        ("apply_patch" | "write_file", Some(glob)) => {
            rule(RuleKind::Write, claude_path(glob.trim()))
        }
        ("webfetch", Some(spec)) => match spec.trim().strip_prefix("domain:") {
            Some(domain) => rule(RuleKind::Web, format!("domain:{domain}")),
            None => Effect::Unsupported("a WebFetch rule Memo reads is domain:<host>".into()),
        },
        ("read_file", Some(glob)) if decision == RuleDecision::Deny => {
            rule(RuleKind::Read, claude_path(glob.trim()))
        }
        ("read_file", Some(_)) => {
            Effect::Unsupported("reads never ask, so a rule allowing reads changes nothing".into())
        }
        (memo, None) if decision == RuleDecision::Deny => Effect::Exclude(memo.to_owned()),
        (_, _) => Effect::Unsupported(
            "allowing a whole tool is not applied: allow command prefixes or paths instead".into(),
        ),
    }
}

/// `npm run test:*` (prefix) or `npm run test` (that command only: allowed only as a
/// prefix would be too wide, so an exact allow is not applied; an exact deny is applied as
/// a prefix, which refuses at least as much).
fn command_effect(spec: &str, decision: RuleDecision) -> Effect {
    let prefix = spec
        .strip_suffix(":*")
        .or_else(|| spec.strip_suffix(" *"))
        .map(str::trim);
    match (prefix, decision) {
        (Some(""), _) => Effect::Unsupported("an empty command prefix".into()),
        (Some(prefix), _) => rule(RuleKind::Command, prefix.to_owned()),
        (None, RuleDecision::Deny) => rule(RuleKind::Command, spec.to_owned()),
        (None, RuleDecision::Allow) => Effect::Unsupported(format!(
            "Memo allows command prefixes: write Bash({spec}:*) to allow it and what follows"
        )),
    }
}

/// Claude's path forms: `//abs` and `~/x` stay as they are (Memo resolves `~` itself no
/// further, so it is kept literal), `/x` is relative to the project root, like a bare one.
fn claude_path(glob: &str) -> String {
    if let Some(abs) = glob.strip_prefix("//") {
        format!("/{abs}")
    } else if let Some(rel) = glob.strip_prefix('/') {
        rel.to_owned()
    } else {
        glob.to_owned()
    }
}

fn rule(kind: RuleKind, pattern: String) -> Effect {
    Effect::Rule { kind, pattern }
}

fn read_gemini(json: &Value, file: &Path, project: bool, out: &mut Vec<ImportedEntry>) {
    let tools = json.get("tools");
    let pick = |legacy: &str, nested: &str| {
        let mut list = strings(json.get(legacy));
        list.extend(strings(tools.and_then(|t| t.get(nested))));
        list
    };
    let mut push = |text: String, decision, effect| {
        out.push(ImportedEntry {
            file: file.to_path_buf(),
            project,
            text,
            decision,
            effect,
        })
    };
    for text in pick("excludeTools", "exclude") {
        let (tool, spec) = split_call(&text);
        let effect = match (memo_tool(tool), spec) {
            (Some("exec_command"), Some(cmd)) => {
                command_effect(&format!("{}:*", cmd.trim()), RuleDecision::Deny)
            }
            (Some(memo), None) => Effect::Exclude(memo.to_owned()),
            (Some(_), Some(_)) => {
                Effect::Unsupported("only shell commands take a specifier".into())
            }
            (None, _) => Effect::Unsupported(format!("Memo has no tool like {tool}")),
        };
        push(text, RuleDecision::Deny, effect);
    }
    let core = pick("coreTools", "core");
    if !core.is_empty() {
        let mut only = Vec::new();
        // `ShellTool(ls)` offers the shell for `ls` only; a bare `ShellTool` for anything.
        let mut commands: Option<Vec<String>> = Some(Vec::new());
        let mut shell_entries = Vec::new();
        for text in &core {
            let (tool, spec) = split_call(text);
            let Some(memo) = memo_tool(tool) else {
                push(
                    text.clone(),
                    RuleDecision::Deny,
                    Effect::Unsupported(format!("Memo has no tool like {tool}")),
                );
                continue;
            };
            if !only.contains(&memo.to_owned()) {
                only.push(memo.to_owned());
            }
            if memo == "exec_command" {
                match spec.map(str::trim).filter(|s| !s.is_empty()) {
                    Some(prefix) => {
                        shell_entries.push(text.clone());
                        if let Some(list) = commands.as_mut() {
                            list.push(prefix.to_owned());
                        }
                    }
                    None => commands = None,
                }
            }
        }
        push(core.join(", "), RuleDecision::Deny, Effect::Only(only));
        if let Some(list) = commands.filter(|l| !l.is_empty()) {
            push(
                shell_entries.join(", "),
                RuleDecision::Deny,
                Effect::OnlyCommands(list),
            );
        }
    }
    for text in pick("allowedTools", "allowed") {
        let (tool, spec) = split_call(&text);
        let effect = match (memo_tool(tool), spec) {
            (Some("exec_command"), Some(cmd)) => rule(RuleKind::Command, cmd.trim().to_owned()),
            (Some(_), _) | (None, _) => Effect::Unsupported(
                "Memo applies allowed shell commands, run_shell_command(<prefix>)".into(),
            ),
        };
        push(text, RuleDecision::Allow, effect);
    }
}

/// The entries as rules to match calls against, ids naming their source. A project's
/// allow entries are left out unless the folder is `trusted`.
pub fn as_rules(entries: &[ImportedEntry], cwd: &Path, trusted: bool) -> Vec<ApprovalRule> {
    entries
        .iter()
        .filter(|e| trusted || !e.project || e.decision == RuleDecision::Deny)
        .filter_map(|e| match &e.effect {
            Effect::Rule { kind, pattern } => Some(ApprovalRule {
                id: format!("{}: {}", e.file.display(), e.text),
                decision: e.decision,
                kind: *kind,
                pattern: pattern.clone(),
                project: e.project.then(|| cwd.display().to_string()),
                exact: false,
                created_at: 0,
                last_used_at: None,
            }),
            _ => None,
        })
        .collect()
}

/// The command prefixes the shell is limited to, when an entry limits it (several
/// limits: a command must pass each).
pub fn command_limits(entries: &[ImportedEntry]) -> Vec<Vec<String>> {
    entries
        .iter()
        .filter_map(|e| match &e.effect {
            Effect::OnlyCommands(list) => Some(list.clone()),
            _ => None,
        })
        .collect()
}

/// Tools the entries take away: excluded names (`server__*` for a whole MCP server) and,
/// when a core list exists, every built-in not on it.
pub fn excluded_tools(entries: &[ImportedEntry], builtin: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for entry in entries {
        match &entry.effect {
            Effect::Exclude(name) => out.push(name.clone()),
            Effect::Only(keep) => out.extend(builtin.iter().filter(|b| !keep.contains(b)).cloned()),
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(entries: &[ImportedEntry]) -> Vec<(String, Effect)> {
        entries
            .iter()
            .map(|e| (e.text.clone(), e.effect.clone()))
            .collect()
    }

    #[test]
    fn claude_permissions_become_rules_exclusions_or_say_why_not() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".claude")).unwrap();
        std::fs::write(
            home.path().join(".claude/settings.json"),
            r#"{"permissions": {
                "allow": ["Bash(npm run test:*)", "Bash(git status)", "Edit(src/**)", "WebFetch(domain:docs.rs)", "mcp__github__get_issue", "Bash"],
                "deny": ["Bash(git push)", "WebFetch", "mcp__shady", "Read(./.env)"]
            }}"#,
        )
        .unwrap();
        let entries = read(Some(project.path()), Some(home.path()));
        let got = effects(&entries);
        let cmd = |p: &str| Effect::Rule {
            kind: RuleKind::Command,
            pattern: p.into(),
        };
        assert_eq!(got[0], ("Bash(npm run test:*)".into(), cmd("npm run test")));
        assert!(
            matches!(&got[1].1, Effect::Unsupported(why) if why.contains("Bash(git status:*)"))
        );
        assert_eq!(
            got[2].1,
            Effect::Rule {
                kind: RuleKind::Write,
                pattern: "src/**".into()
            }
        );
        assert_eq!(
            got[3].1,
            Effect::Rule {
                kind: RuleKind::Web,
                pattern: "domain:docs.rs".into()
            }
        );
        assert_eq!(
            got[4].1,
            Effect::Rule {
                kind: RuleKind::Mcp,
                pattern: "github:get_issue".into()
            }
        );
        assert!(
            matches!(&got[5].1, Effect::Unsupported(_)),
            "a whole tool is not allowed"
        );
        assert_eq!(got[6].1, cmd("git push"));
        assert_eq!(got[7].1, Effect::Exclude("webfetch".into()));
        assert_eq!(got[8].1, Effect::Exclude("shady__*".into()));
        assert_eq!(
            got[9].1,
            Effect::Rule {
                kind: RuleKind::Read,
                pattern: "./.env".into()
            },
            "a read deny is applied"
        );
        assert!(entries.iter().all(|e| !e.project));
    }

    #[test]
    fn gemini_lists_exclude_restrict_and_allow() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join(".gemini")).unwrap();
        std::fs::write(
            project.path().join(".gemini/settings.json"),
            r#"{"excludeTools": ["write_file", "run_shell_command(rm -rf)"],
                "tools": {"core": ["ReadFileTool", "GlobTool", "ShellTool(ls)"], "allowed": ["run_shell_command(git status)"]}}"#,
        )
        .unwrap();
        let entries = read(Some(project.path()), None);
        let got = effects(&entries);
        assert_eq!(got[0].1, Effect::Exclude("write_file".into()));
        assert_eq!(
            got[1].1,
            Effect::Rule {
                kind: RuleKind::Command,
                pattern: "rm -rf".into()
            }
        );
        assert_eq!(
            got[2].1,
            Effect::Only(vec![
                "read_file".into(),
                "glob".into(),
                "exec_command".into()
            ])
        );
        assert_eq!(
            got[3],
            (
                "ShellTool(ls)".into(),
                Effect::OnlyCommands(vec!["ls".into()])
            ),
            "the shell is offered for ls only"
        );
        assert_eq!(command_limits(&entries), [vec!["ls".to_owned()]]);
        assert_eq!(
            got[4].1,
            Effect::Rule {
                kind: RuleKind::Command,
                pattern: "git status".into()
            }
        );
        let builtin: Vec<String> = [
            "read_file",
            "glob",
            "exec_command",
            "write_file",
            "webfetch",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            excluded_tools(&entries, &builtin),
            ["webfetch", "write_file"]
        );
        // The project's allow entry applies only in a trusted folder; its deny always.
        let untrusted = as_rules(&entries, project.path(), false);
        assert_eq!(untrusted.len(), 1);
        assert_eq!(untrusted[0].decision, RuleDecision::Deny);
        assert_eq!(as_rules(&entries, project.path(), true).len(), 2);
    }

    #[test]
    fn gemini_names_mean_the_tools_gemini_means() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join(".gemini")).unwrap();
        std::fs::write(
            project.path().join(".gemini/settings.json"),
            r#"{"excludeTools": ["save_memory", "MemoryTool", "google_web_search"],
                "coreTools": ["ShellTool", "ShellTool(git log)", "read_many_files", "LSTool", "replace"]}"#,
        )
        .unwrap();
        let entries = read(Some(project.path()), None);
        let got = effects(&entries);
        assert_eq!(got[0].1, Effect::Exclude("save_memory".into()));
        assert_eq!(got[1].1, Effect::Exclude("save_memory".into()));
        assert!(matches!(&got[2].1, Effect::Unsupported(_)));
        assert_eq!(
            got[3].1,
            Effect::Only(vec![
                "exec_command".into(),
                "read_file".into(),
                "list_dir".into(),
                "apply_patch".into()
            ])
        );
        assert!(
            command_limits(&entries).is_empty(),
            "a bare ShellTool beside a specifier offers every command"
        );
    }

    #[test]
    fn a_broken_or_missing_file_is_skipped() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join(".claude")).unwrap();
        std::fs::write(project.path().join(".claude/settings.json"), "{ nope").unwrap();
        assert!(read(Some(project.path()), None).is_empty());
    }
}
