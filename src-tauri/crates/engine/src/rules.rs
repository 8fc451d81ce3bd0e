//! Matching the user's approval rules against a call. A call is described by its tool's
//! fingerprint (see each tool's preview): `exec:cargo test; git status` lists every simple
//! command of a shell script by its prefix, `write:/p/a.rs,/p/b.rs` the files a change
//! touches, `mcp:server:tool`, `webfetch:<origin>`. A rule allows a call only when it
//! covers every part (`git status` does not cover `git status; rm -rf x`), by whole words
//! (`git status` does not cover `git statusx`); a deny rule that covers any part wins over
//! every allow rule. Critical calls are never allowed by a rule: they always ask.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use memo_config::{ApprovalRule, NewRule, RuleDecision, RuleKind};
use memo_protocol::{Phrase, RiskLevel};

/// What the rules say about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleVerdict {
    Deny(ApprovalRule),
    /// Allowed by these rules (ids), one or more per part of the call.
    Allow(Vec<String>),
    Unmatched,
}

/// The parts of a call a rule is matched against.
enum Subject<'a> {
    Commands(Vec<&'a str>),
    Paths(Vec<&'a str>),
    Mcp(&'a str),
    Web(&'a str),
    /// Fingerprints rules do not describe (a running command's stdin, plan updates).
    Other,
}

/// The marker exec fingerprints end with when the call asks to leave the sandbox.
const UNSANDBOXED: &str = " [unsandboxed]";

fn subject(fingerprint: &str) -> Subject<'_> {
    if let Some(script) = fingerprint.strip_prefix("exec:") {
        let script = script.strip_suffix(UNSANDBOXED).unwrap_or(script);
        Subject::Commands(script.split("; ").filter(|p| !p.is_empty()).collect())
    } else if let Some(paths) = fingerprint.strip_prefix("write:") {
        Subject::Paths(paths.split(',').filter(|p| !p.is_empty()).collect())
    } else if let Some(tool) = fingerprint.strip_prefix("mcp:") {
        Subject::Mcp(tool)
    } else if let Some(origin) = fingerprint.strip_prefix("webfetch:") {
        Subject::Web(origin)
    } else {
        Subject::Other
    }
}

/// Whether `rule` applies to a session in `cwd`: a project rule in its folder and below.
fn applies_in(rule: &ApprovalRule, cwd: &Path) -> bool {
    match &rule.project {
        None => true,
        Some(folder) => cwd.starts_with(folder),
    }
}

fn covers(
    rule: &ApprovalRule,
    kind: RuleKind,
    item: &str,
    cwd: &Path,
    args: Option<&serde_json::Value>,
) -> bool {
    if rule.kind != kind {
        return false;
    }
    let pattern = rule.pattern.as_str();
    match kind {
        RuleKind::Command => {
            let prefix =
                item == pattern || (!rule.exact && item.starts_with(&format!("{pattern} ")));
            // A part that writes through a redirection: an allow rule must say so itself
            // (`echo hi` does not cover `echo hi > ~/.profile`). Deny rules match whatever
            // the part writes.
            let writes = memo_tools::exec::fingerprint::writes_through_redirect(item)
                && !memo_tools::exec::fingerprint::writes_through_redirect(pattern);
            prefix && (rule.decision == RuleDecision::Deny || !writes)
        }
        RuleKind::Write => {
            let base = rule.project.as_deref().map(Path::new).unwrap_or(cwd);
            let absolute = if Path::new(pattern).is_absolute() {
                PathBuf::from(pattern)
            } else {
                base.join(pattern)
            };
            GlobBuilder::new(&absolute.to_string_lossy())
                .literal_separator(true)
                .build()
                .map(|g| g.compile_matcher().is_match(item))
                .unwrap_or(false)
        }
        RuleKind::Mcp => {
            // `server:tool`, or `server:*`, then optional `name=glob` conditions on the
            // call's arguments (`github:create_issue repo=memo-*`).
            let mut words = pattern.split_whitespace();
            let tool = words.next().unwrap_or("");
            let named = match tool.strip_suffix(":*") {
                Some(server) => item.split(':').next() == Some(server),
                None => item == tool,
            };
            named && words.all(|condition| argument_matches(condition, args))
        }
        // Read rules are matched against paths by the tools (see `read_denials`).
        RuleKind::Read => false,
        RuleKind::Web => match pattern.strip_prefix("domain:") {
            // Claude Code's form: the host, whatever the scheme and port.
            Some(domain) => host(item) == domain,
            None => item.trim_end_matches('/') == pattern.trim_end_matches('/'),
        },
    }
}

/// `name=glob` against the call's argument `name` (its text, or its JSON for other
/// values). A call without that argument does not match.
fn argument_matches(condition: &str, args: Option<&serde_json::Value>) -> bool {
    let Some((name, glob)) = condition.split_once('=') else {
        return false;
    };
    let Some(value) = args.and_then(|a| a.get(name)) else {
        return false;
    };
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    GlobBuilder::new(glob)
        .build()
        .map(|g| g.compile_matcher().is_match(&text))
        .unwrap_or(false)
}

/// `docs.rs` of `https://docs.rs:443/x`.
fn host(origin: &str) -> &str {
    let rest = origin.split_once("://").map_or(origin, |(_, r)| r);
    rest.split(['/', ':']).next().unwrap_or(rest)
}

/// What `rules` decide for a call with `fingerprint` and `risk` in a session in `cwd`.
pub fn evaluate(
    rules: &[ApprovalRule],
    fingerprint: &str,
    risk: RiskLevel,
    cwd: &Path,
    args: Option<&serde_json::Value>,
) -> RuleVerdict {
    let (kind, items): (RuleKind, Vec<&str>) = match subject(fingerprint) {
        Subject::Commands(parts) => (RuleKind::Command, parts),
        Subject::Paths(paths) => (RuleKind::Write, paths),
        Subject::Mcp(tool) => (RuleKind::Mcp, vec![tool]),
        Subject::Web(origin) => (RuleKind::Web, vec![origin]),
        Subject::Other => return RuleVerdict::Unmatched,
    };
    if items.is_empty() {
        return RuleVerdict::Unmatched;
    }
    let here: Vec<&ApprovalRule> = rules.iter().filter(|r| applies_in(r, cwd)).collect();
    for item in &items {
        if let Some(deny) = here
            .iter()
            .find(|r| r.decision == RuleDecision::Deny && covers(r, kind, item, cwd, args))
        {
            return RuleVerdict::Deny((*deny).clone());
        }
    }
    if risk >= RiskLevel::Critical {
        return RuleVerdict::Unmatched;
    }
    let mut used = Vec::new();
    for item in &items {
        match here
            .iter()
            .find(|r| r.decision == RuleDecision::Allow && covers(r, kind, item, cwd, args))
        {
            Some(rule) => {
                if !used.contains(&rule.id) {
                    used.push(rule.id.clone());
                }
            }
            None => return RuleVerdict::Unmatched,
        }
    }
    RuleVerdict::Allow(used)
}

/// Why a call with `fingerprint` is outside the shell's `limits` (other agents' core
/// lists: each a set of command prefixes, by whole words), or `None` when it is inside
/// them or not a command.
pub fn outside_command_limits(limits: &[Vec<String>], fingerprint: &str) -> Option<String> {
    let Subject::Commands(parts) = subject(fingerprint) else {
        return None;
    };
    for limit in limits {
        let inside = |part: &&str| {
            limit
                .iter()
                .any(|p| *part == p || part.starts_with(&format!("{p} ")))
        };
        if let Some(outside) = parts.iter().find(|p| !inside(p)) {
            let listed: Vec<String> = limit.iter().map(|p| format!("`{p}`")).collect();
            return Some(format!(
                "the project's Gemini CLI settings (coreTools) allow only shell commands starting with {}; `{}` is not one of them",
                listed.join(", "),
                outside.trim_end_matches(" >")
            ));
        }
    }
    None
}

/// The deny rules for reading among the user's `kept` rules and other agents' `imported`
/// ones that apply in `cwd`, ready for the tools to match paths against. A rule for one
/// folder is relative to that folder; `home` is where `~/` points.
pub fn read_denials(
    kept: &[ApprovalRule],
    imported: &[ApprovalRule],
    cwd: &Path,
    home: Option<&Path>,
) -> Vec<memo_tools::DeniedRead> {
    let kept = kept.iter().map(|r| (r, "your rule".to_owned()));
    // An imported rule's id is `<file>: <entry as written>`.
    let imported = imported.iter().map(|r| {
        let file =
            r.id.split_once(": ")
                .map_or(r.id.as_str(), |(file, _)| file);
        (r, format!("rule in {file}"))
    });
    kept.chain(imported)
        .filter(|(r, _)| r.kind == RuleKind::Read && r.decision == RuleDecision::Deny)
        .filter(|(r, _)| applies_in(r, cwd))
        .filter_map(|(r, source)| {
            let base = r.project.as_deref().map(Path::new).unwrap_or(cwd);
            let denied = memo_tools::DeniedRead::new(&r.pattern, &source, base, home);
            if denied.is_none() {
                tracing::warn!(pattern = %r.pattern, "a read rule's pattern is not a glob; not applied");
            }
            denied
        })
        .collect()
}

/// The allow rules an "always" answer to a call with `fingerprint` creates: one per part,
/// files relative to the session's folder when inside it. Empty when no rule can describe
/// the call (or it is critical: those always ask).
pub fn proposed(
    fingerprint: &str,
    risk: RiskLevel,
    cwd: &Path,
    project: Option<&Path>,
) -> Vec<NewRule> {
    if risk >= RiskLevel::Critical {
        return Vec::new();
    }
    let rule = |kind, pattern: String| NewRule {
        decision: RuleDecision::Allow,
        kind,
        pattern,
        project: project.map(Path::to_path_buf),
        exact: false,
    };
    let mut out: Vec<NewRule> = match subject(fingerprint) {
        // A command that writes is kept exactly as approved; the others as the prefix
        // the fingerprint gives (`cargo test`).
        Subject::Commands(parts) => parts
            .into_iter()
            .map(|p| NewRule {
                exact: memo_tools::exec::fingerprint::exact_part(p),
                ..rule(RuleKind::Command, p.to_owned())
            })
            .collect(),
        Subject::Paths(paths) => paths
            .into_iter()
            .map(|p| {
                let relative = Path::new(p)
                    .strip_prefix(cwd)
                    .map(|r| r.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| p.to_owned());
                rule(RuleKind::Write, escape_glob(&relative))
            })
            .collect(),
        Subject::Mcp(tool) => vec![rule(RuleKind::Mcp, tool.to_owned())],
        Subject::Web(origin) => vec![rule(RuleKind::Web, origin.to_owned())],
        Subject::Other => Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    out.retain(|r| seen.insert(r.pattern.clone()));
    out
}

/// What keeping `rules` (an "always" answer) would allow, as a phrase for the card
/// (which adds where): "run `cargo test …`; `git status …` without asking", "run
/// exactly `sed -i s/a/b/ notes.txt` without asking".
pub fn describe_proposed(rules: &[NewRule]) -> Option<Phrase> {
    let first = rules.first()?;
    let quoted = |r: &NewRule| {
        let pattern = r.pattern.clone();
        match (r.kind, r.exact) {
            (RuleKind::Command, true) => Phrase::RuleCommandExactly { pattern },
            (RuleKind::Command, false) => Phrase::RuleCommandPrefix { pattern },
            // An MCP rule is `server:tool`; it reads as the card names it.
            (RuleKind::Mcp, _) => Phrase::RulePattern {
                pattern: pattern.replacen(':', " · ", 1),
            },
            _ => Phrase::RulePattern { pattern },
        }
    };
    let rules: Vec<Phrase> = rules.iter().map(quoted).collect();
    Some(match first.kind {
        RuleKind::Command => Phrase::RuleRunWithoutAsking { rules },
        RuleKind::Write => Phrase::RuleChangeWithoutAsking { rules },
        RuleKind::Mcp => Phrase::RuleMcpWithoutAsking { rules },
        RuleKind::Web => Phrase::RuleFetchWithoutAsking { rules },
        RuleKind::Read => return None,
    })
}

/// A file name used as a glob matches only itself.
fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        id: &str,
        decision: RuleDecision,
        kind: RuleKind,
        pattern: &str,
        project: Option<&str>,
    ) -> ApprovalRule {
        ApprovalRule {
            id: id.into(),
            decision,
            kind,
            pattern: pattern.into(),
            project: project.map(str::to_owned),
            exact: false,
            created_at: 0,
            last_used_at: None,
        }
    }

    fn allow(pattern: &str) -> ApprovalRule {
        rule(
            pattern,
            RuleDecision::Allow,
            RuleKind::Command,
            pattern,
            None,
        )
    }

    const CWD: &str = "/p";

    fn check(rules: &[ApprovalRule], fingerprint: &str) -> RuleVerdict {
        evaluate(rules, fingerprint, RiskLevel::Execute, Path::new(CWD), None)
    }

    #[test]
    fn command_limits_let_only_listed_prefixes_through() {
        let limits = vec![vec!["ls".to_owned(), "git log".to_owned()]];
        assert_eq!(outside_command_limits(&limits, "exec:ls -la"), None);
        assert_eq!(outside_command_limits(&limits, "exec:git log; ls >"), None);
        let why = outside_command_limits(&limits, "exec:ls; rm -rf x").unwrap();
        assert!(why.contains("`rm -rf x` is not one of them"), "{why}");
        assert!(
            outside_command_limits(&limits, "exec:lsblk").is_some(),
            "whole words"
        );
        assert!(outside_command_limits(&limits, "exec:git logx").is_some());
        assert_eq!(outside_command_limits(&limits, "write:/p/a"), None);
        assert_eq!(outside_command_limits(&[], "exec:rm -rf x"), None);
    }

    #[test]
    fn command_prefixes_match_whole_words_and_every_part() {
        let rules = [allow("git status"), allow("cargo test")];
        assert_eq!(
            check(&rules, "exec:git status"),
            RuleVerdict::Allow(vec!["git status".into()])
        );
        assert_eq!(
            check(&rules, "exec:git status -s"),
            RuleVerdict::Allow(vec!["git status".into()])
        );
        assert_eq!(check(&rules, "exec:git statusx"), RuleVerdict::Unmatched);
        assert_eq!(
            check(&rules, "exec:git status; rm -rf x"),
            RuleVerdict::Unmatched
        );
        assert_eq!(
            check(&rules, "exec:git status; cargo test"),
            RuleVerdict::Allow(vec!["git status".into(), "cargo test".into()])
        );
        // A write through a redirection needs a rule that says so.
        assert_eq!(
            check(&[allow("echo")], "exec:echo hi >"),
            RuleVerdict::Unmatched
        );
        assert_eq!(
            check(&[allow("echo hi >")], "exec:echo hi >"),
            RuleVerdict::Allow(vec!["echo hi >".into()])
        );
    }

    #[test]
    fn deny_wins_and_critical_calls_are_never_allowed() {
        let deny = rule("d", RuleDecision::Deny, RuleKind::Command, "git push", None);
        let rules = [allow("git"), deny.clone()];
        assert_eq!(
            check(&rules, "exec:git push origin main"),
            RuleVerdict::Deny(deny.clone())
        );
        assert_eq!(
            check(&rules, "exec:git log; git push >"),
            RuleVerdict::Deny(deny)
        );
        assert_eq!(
            check(&rules, "exec:git log"),
            RuleVerdict::Allow(vec!["git".into()])
        );
        assert_eq!(
            evaluate(
                &rules,
                "exec:git log [unsandboxed]",
                RiskLevel::Critical,
                Path::new(CWD),
                None,
            ),
            RuleVerdict::Unmatched
        );
    }

    #[test]
    fn project_rules_apply_in_their_folder_only() {
        let mine = rule(
            "m",
            RuleDecision::Allow,
            RuleKind::Command,
            "npm test",
            Some("/p"),
        );
        assert_eq!(
            check(std::slice::from_ref(&mine), "exec:npm test"),
            RuleVerdict::Allow(vec!["m".into()])
        );
        assert_eq!(
            evaluate(
                std::slice::from_ref(&mine),
                "exec:npm test",
                RiskLevel::Execute,
                Path::new("/p/sub"),
                None,
            ),
            RuleVerdict::Allow(vec!["m".into()])
        );
        assert_eq!(
            evaluate(
                &[mine],
                "exec:npm test",
                RiskLevel::Execute,
                Path::new("/other"),
                None,
            ),
            RuleVerdict::Unmatched
        );
    }

    #[test]
    fn writes_match_globs_relative_to_the_folder_and_mcp_and_web_match_names() {
        let src = rule(
            "s",
            RuleDecision::Allow,
            RuleKind::Write,
            "src/**",
            Some("/p"),
        );
        assert_eq!(
            check(std::slice::from_ref(&src), "write:/p/src/a/b.rs"),
            RuleVerdict::Allow(vec!["s".into()])
        );
        assert_eq!(
            check(
                std::slice::from_ref(&src),
                "write:/p/src/a.rs,/p/Cargo.toml"
            ),
            RuleVerdict::Unmatched
        );
        let one = rule("o", RuleDecision::Allow, RuleKind::Write, "*.md", None);
        assert_eq!(
            check(std::slice::from_ref(&one), "write:/p/README.md"),
            RuleVerdict::Allow(vec!["o".into()])
        );
        assert_eq!(
            check(&[one], "write:/p/docs/a.md"),
            RuleVerdict::Unmatched,
            "* stops at /"
        );
        let server = rule(
            "e",
            RuleDecision::Allow,
            RuleKind::Mcp,
            "everything:*",
            None,
        );
        assert_eq!(
            check(std::slice::from_ref(&server), "mcp:everything:echo"),
            RuleVerdict::Allow(vec!["e".into()])
        );
        assert_eq!(check(&[server], "mcp:other:echo"), RuleVerdict::Unmatched);
        let web = rule(
            "w",
            RuleDecision::Allow,
            RuleKind::Web,
            "https://docs.rs/",
            None,
        );
        assert_eq!(
            check(&[web], "webfetch:https://docs.rs"),
            RuleVerdict::Allow(vec!["w".into()])
        );
        assert_eq!(
            check(&[allow("x")], "stdin:3:python3"),
            RuleVerdict::Unmatched
        );
    }

    #[test]
    fn an_always_answer_proposes_one_rule_per_part_and_none_for_critical_calls() {
        let cwd = Path::new(CWD);
        let rules = proposed(
            "exec:cargo test; git status",
            RiskLevel::Execute,
            cwd,
            Some(cwd),
        );
        let patterns: Vec<&str> = rules.iter().map(|r| r.pattern.as_str()).collect();
        assert_eq!(patterns, ["cargo test", "git status"]);
        assert_eq!(rules[0].project.as_deref(), Some(cwd));
        let files = proposed(
            "write:/p/src/[x].rs,/etc/hosts",
            RiskLevel::Write,
            cwd,
            None,
        );
        let patterns: Vec<&str> = files.iter().map(|r| r.pattern.as_str()).collect();
        assert_eq!(patterns, ["src/[[]x[]].rs", "/etc/hosts"]);
        assert!(proposed(
            "exec:rm -rf / [unsandboxed]",
            RiskLevel::Critical,
            cwd,
            None
        )
        .is_empty());
        // The escaped name matches only itself.
        let rule = ApprovalRule {
            id: "x".into(),
            decision: RuleDecision::Allow,
            kind: RuleKind::Write,
            pattern: files[0].pattern.clone(),
            project: None,
            exact: false,
            created_at: 0,
            last_used_at: None,
        };
        assert_eq!(
            check(&[rule], "write:/p/src/[x].rs"),
            RuleVerdict::Allow(vec!["x".into()])
        );
    }

    #[test]
    fn a_domain_rule_matches_the_host_only() {
        let domain = rule(
            "d",
            RuleDecision::Allow,
            RuleKind::Web,
            "domain:docs.rs",
            None,
        );
        assert_eq!(
            check(
                std::slice::from_ref(&domain),
                "webfetch:https://docs.rs:443"
            ),
            RuleVerdict::Allow(vec!["d".into()])
        );
        assert_eq!(
            check(&[domain], "webfetch:https://docs.rs.evil.example"),
            RuleVerdict::Unmatched
        );
    }

    #[test]
    fn an_mcp_rule_may_also_match_the_calls_arguments() {
        let rule = rule(
            "g",
            RuleDecision::Allow,
            RuleKind::Mcp,
            "github:create_issue repo=memo-* draft=true",
            None,
        );
        let call = |args: serde_json::Value| {
            evaluate(
                std::slice::from_ref(&rule),
                "mcp:github:create_issue",
                RiskLevel::Write,
                Path::new(CWD),
                Some(&args),
            )
        };
        assert_eq!(
            call(serde_json::json!({"repo": "memo-desktop", "draft": true})),
            RuleVerdict::Allow(vec!["g".into()])
        );
        assert_eq!(
            call(serde_json::json!({"repo": "other", "draft": true})),
            RuleVerdict::Unmatched
        );
        assert_eq!(
            call(serde_json::json!({"repo": "memo-desktop"})),
            RuleVerdict::Unmatched,
            "a missing argument"
        );
    }
}
