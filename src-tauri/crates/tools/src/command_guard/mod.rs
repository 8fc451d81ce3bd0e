//! The dangerous-command guard: every simple command of a shell script is checked before
//! it runs. Scripts are read with [`crate::shell_parse`] (tree-sitter's bash grammar:
//! lists, pipelines, subshells, substitutions, heredocs), wrappers are peeled off (`sudo`,
//! `env`, `nice`, `timeout`, `xargs`, …), and the scripts a command runs as text (`sh -c`,
//! `eval`, heredocs and pipes into a shell, strings inline code hands to `system`) are
//! read recursively. Targets fed on standard input from the script itself count as
//! arguments: `xargs rm -rf <<< ~`, `$(cat <<< /)`, `read d <<< /etc; rm -rf "$d"`.
//!
//! Commands are judged by what they do, not by how they are spelled:
//! - Blocked whatever the approval mode (the `<system_hint>` Memo Code uses): deleting or
//!   re-permissioning `/`, the home or the workspace, wiping disks, fork bombs, power
//!   state, remote scripts piped into a shell ([`rules`]), and inline code that
//!   recursively deletes one of those.
//! - Critical, asked about every time even in dangerous mode ([`Verdict::Ask`]): any
//!   write, truncation or deletion aimed at system, boot or credential paths and shell
//!   profiles ([`paths`]), whether through a redirection, a command that writes
//!   ([`writes`]), `find -exec`/`-delete` or `xargs`; interpreter one-liners that write
//!   outside the workspace ([`inline`]); a force-push to main; removing or replacing the
//!   user's scheduled jobs, a permission change on the home folder itself or a system
//!   folder, and git pointed at one through `-C`/`--work-tree` ([`effects`]); and commands the guard
//!   cannot read: a program name that comes from a variable or a substitution, `eval` or
//!   `source` of text only known at run time, a script with a syntax error. Asking rather
//!   than blocking there, because such commands are often legitimate (`$CC -o x x.c`)
//!   and the user can judge what the guard cannot.
//!
//! The guard is a safety net, not a sandbox: code that computes its targets at run time
//! gets past it, which is what Landlock is for.

use memo_protocol::Phrase;
use std::path::PathBuf;

use crate::shell_parse::{self, Script, SimpleCommand, MAX_DEPTH, SUBSTITUTION};

pub(crate) use invocation::{base_name, normalize, Invocation};
use invocation::{
    is_option, reads_stdin, runs_text_as_code, script_downloads, DOWNLOADERS, SHELLS,
};
pub(crate) use paths::normalize_path;
use paths::{is_block_device, protected_target, resolve_target, Target};

/// What the guard needs to know about where a command runs.
#[derive(Debug, Clone, Default)]
pub struct GuardContext {
    /// The command's working directory (relative targets resolve against it). A `cd` in
    /// the script moves it for the commands after it.
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    /// Workspace roots: deleting one of them (or a parent) is blocked.
    pub workspace_roots: Vec<PathBuf>,
    /// Set after `cd $SOMEWHERE`: relative targets can no longer be resolved.
    cwd_unknown: bool,
    /// Lines typed into a running program ([`GuardContext::typed_lines`]).
    typed_lines: bool,
}

impl GuardContext {
    /// `home` comes from `$HOME`.
    pub fn new(cwd: PathBuf, workspace_roots: Vec<PathBuf>) -> Self {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from);
        Self::with_home(cwd, home, workspace_roots)
    }

    pub fn with_home(cwd: PathBuf, home: Option<PathBuf>, workspace_roots: Vec<PathBuf>) -> Self {
        Self {
            cwd,
            home,
            workspace_roots,
            cwd_unknown: false,
            typed_lines: false,
        }
    }

    /// For keystrokes sent to a running session (`write_stdin`): a REPL or an editor reads
    /// them, so a line that is not shell syntax (`for i in x: …`) is no reason to ask; what
    /// the guard does read is still checked.
    pub fn typed_lines(mut self) -> Self {
        self.typed_lines = true;
        self
    }

    /// Follows a `cd`/`pushd` so that `cd build && rm -rf *` empties build/, not the
    /// workspace.
    fn change_dir(&mut self, inv: &Invocation) {
        let operands: Vec<&String> = inv.args.iter().filter(|a| !is_option(a)).collect();
        let Some(dir) = operands.first() else {
            match self.home.clone() {
                Some(home) => self.cwd = home,
                None => self.cwd_unknown = true,
            }
            return;
        };
        match resolve_target(dir, self) {
            Target::Path(path) => self.cwd = path,
            _ => self.cwd_unknown = true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Allowed only with the user's explicit consent, every time (risk critical).
    Ask {
        rule: &'static str,
        reason: Phrase,
    },
    /// Never run.
    Block {
        rule: &'static str,
        /// The simple command that matched.
        segment: String,
    },
}

/// Whether the command writes, truncates or deletes files named in its arguments
/// (`sed -i`, `cp`, `chmod`, `curl -o`): an approval of it covers those arguments only.
pub(crate) fn writes_files(inv: &Invocation) -> bool {
    !writes::targets(inv).is_empty()
}

/// Checks a whole script. A block anywhere wins over an ask anywhere.
pub fn check_command(command: &str, ctx: &GuardContext) -> Verdict {
    if let Some(rule) = fork_bomb(command) {
        return Verdict::Block {
            rule,
            segment: command.trim().to_owned(),
        };
    }
    let mut ask = None;
    let script = shell_parse::parse(command);
    let mut ctx = ctx.clone();
    match scan(&script, &mut ctx, 0, &mut ask) {
        Some(block) => block,
        None => ask.unwrap_or(Verdict::Allow),
    }
}

/// The `<system_hint>` returned to the model for a blocked command (Memo Code's format).
pub fn denial_hint(tool: &str, rule: &str, command: &str, session_id: Option<u32>) -> String {
    let session = session_id
        .map(|id| format!(" session_id=\"{id}\""))
        .unwrap_or_default();
    format!(
        "<system_hint type=\"tool_call_denied\" tool=\"{}\" reason=\"dangerous_command\" policy=\"blacklist\" rule=\"{}\"{session} command=\"{}\">Blocked a high-risk shell command to prevent irreversible data loss. Use a safer and scoped alternative.</system_hint>",
        xml_attr(tool),
        xml_attr(rule),
        xml_attr(&preview(command))
    )
}

fn preview(command: &str) -> String {
    const MAX: usize = 220;
    let compact = command.split_whitespace().collect::<Vec<_>>().join(" ");
    if compact.chars().count() > MAX {
        let cut: String = compact.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        compact
    }
}

pub(crate) fn xml_attr(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Records a reason to ask; the first one found is the one shown.
fn ask_once(ask: &mut Option<Verdict>, rule: &'static str, reason: Phrase) {
    ask.get_or_insert(Verdict::Ask { rule, reason });
}

fn scan(
    script: &Script,
    ctx: &mut GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    // The working directory of each enclosing subshell when it was entered: a `cd` inside
    // `( … )` or one part of a pipeline moves nothing after it.
    let mut entered: Vec<(u32, PathBuf, bool)> = Vec::new();
    for pipeline in &script.pipelines {
        let mut downloading = false;
        for (i, cmd) in pipeline.commands.iter().enumerate() {
            enter_scope(&mut entered, &cmd.scope, ctx);
            let upstream = &pipeline.commands[..i];
            if let Some(block) = check_simple(cmd, upstream, ctx, depth, downloading, ask) {
                return Some(block);
            }
            if let Some(inv) = normalize(&cmd.words) {
                if DOWNLOADERS.contains(&inv.name.as_str()) {
                    downloading = true;
                }
                if matches!(inv.name.as_str(), "cd" | "pushd") {
                    ctx.change_dir(&inv);
                }
            }
        }
    }
    // Last, so a precise reason found in the part that was read is the one shown.
    if script.unreadable && !ctx.typed_lines {
        ask_once(ask, "unreadable_shell_syntax", Phrase::GuardUnreadable);
    }
    None
}

/// Leaves the subshells `scope` is not in (restoring the directory they were entered
/// from) and enters the new ones.
fn enter_scope(entered: &mut Vec<(u32, PathBuf, bool)>, scope: &[u32], ctx: &mut GuardContext) {
    let common = entered
        .iter()
        .zip(scope)
        .take_while(|((id, _, _), s)| id == *s)
        .count();
    if let Some((_, cwd, unknown)) = entered.get(common).cloned() {
        ctx.cwd = cwd;
        ctx.cwd_unknown = unknown;
    }
    entered.truncate(common);
    for id in &scope[common..] {
        entered.push((*id, ctx.cwd.clone(), ctx.cwd_unknown));
    }
}

fn block(rule: &'static str, segment: &str) -> Option<Verdict> {
    Some(Verdict::Block {
        rule,
        segment: segment.to_owned(),
    })
}

/// Reads text a command runs as a script (a `sh -c` argument, a heredoc fed to a shell):
/// in a subshell, so its `cd` stays there.
fn scan_text(
    text: &str,
    ctx: &GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    if depth >= MAX_DEPTH {
        ask_once(ask, "unreadable_shell_syntax", Phrase::GuardNestedTooDeep);
        return None;
    }
    let script = shell_parse::parse_at_depth(text, depth + 1);
    scan(&script, &mut ctx.clone(), depth + 1, ask)
}

fn check_simple(
    cmd: &SimpleCommand,
    upstream: &[SimpleCommand],
    ctx: &mut GuardContext,
    depth: usize,
    after_download: bool,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    for redirect in cmd.redirects.iter().filter(|r| r.writes()) {
        if is_block_device(&redirect.target) {
            return block("redirect_block_device", &cmd.raw);
        }
        if redirect.target == "/proc/sysrq-trigger" {
            return block("system_power_state", &cmd.raw);
        }
        if let Some(hit) = protected_target(&redirect.target, ctx, false) {
            ask_once(
                ask,
                "redirect_protected_path",
                Phrase::GuardWritesProtected {
                    command: preview(&cmd.raw),
                    target: redirect.target.clone(),
                    what: hit.what(),
                    area: hit.area(),
                },
            );
        }
    }
    if depth < MAX_DEPTH {
        for sub in &cmd.substitutions {
            // Substitutions run in a subshell: their `cd` stays there.
            if let Some(found) = scan(sub, &mut ctx.clone(), depth + 1, ask) {
                return Some(found);
            }
        }
    }
    let inv = normalize(&cmd.words)?;
    let shell = SHELLS.contains(&inv.name.as_str());
    // What the command reads on stdin from the script itself: its heredocs, and the text
    // an `echo`/`printf`/`cat <<EOF` before it in the pipeline prints.
    let piped = upstream.last().and_then(flow::printed_text);
    if shell {
        for body in cmd
            .heredocs
            .iter()
            .chain(piped.iter().filter(|_| reads_stdin(&inv)))
        {
            if let Some(found) = scan_text(body, ctx, depth, ask) {
                return Some(found);
            }
        }
    } else if reads_stdin(&inv) {
        if let Some(lang) = inline::language(&inv.name) {
            for code in cmd.heredocs.iter().chain(piped.iter()) {
                if let Some(found) = review_code(lang, code, &cmd.raw, ctx, depth, ask) {
                    return Some(found);
                }
            }
        }
    }
    if after_download && reads_stdin(&inv) {
        return block("pipe_remote_script", &cmd.raw);
    }
    if let (true, None, Some(prev)) = (reads_stdin(&inv), &piped, upstream.last()) {
        // `… | base64 -d | sh`: the script only exists once the command runs. (`cat FILE |
        // sh` runs a file, like `sh FILE`.)
        let file = normalize(&prev.words).is_some_and(|p| p.name == "cat" && !p.args.is_empty());
        if !file {
            ask_once(
                ask,
                "dynamic_script",
                Phrase::GuardScriptFromCommand {
                    program: inv.name.clone(),
                    producer: preview(&prev.raw),
                },
            );
        }
    }
    if runs_text_as_code(&inv) && cmd.substitutions.iter().any(script_downloads) {
        return block("pipe_remote_script", &cmd.raw);
    }
    if inv.stdin_args {
        if let Some(source) = flow::stdin_source(cmd) {
            let mut fed: Vec<SimpleCommand> = upstream.to_vec();
            fed.push(source);
            return check_invocation(&inv, &cmd.raw, &fed, ctx, depth, ask);
        }
    }
    check_invocation(&inv, &cmd.raw, upstream, ctx, depth, ask)
}

/// Everything about one program run: the scripts it runs, the block rules, what it
/// writes, and inline code. Also used for the commands `find -exec` and `xargs` run.
fn check_invocation(
    inv: &Invocation,
    segment: &str,
    upstream: &[SimpleCommand],
    ctx: &GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    for nested in &inv.nested {
        if let Some(found) = scan_text(nested, ctx, depth, ask) {
            return Some(found);
        }
    }
    dynamic(inv, ask);
    if let Some(rule) = rules::check(inv, ctx, ask) {
        return block(rule, segment);
    }
    effects::check(inv, segment, ctx, ask);
    for target in writes::targets(inv) {
        if let Some(hit) = protected_target(&target.arg, ctx, target.recursive) {
            let target_deletes = target.deletes;
            let (command, what, area) = (preview(segment), hit.what(), hit.area());
            let target = target.arg.clone();
            let reason = if target_deletes {
                Phrase::GuardDeletesProtected {
                    command,
                    target,
                    what,
                    area,
                }
            } else {
                Phrase::GuardWritesProtected {
                    command,
                    target,
                    what,
                    area,
                }
            };
            ask_once(ask, "write_protected_path", reason);
        }
    }
    if let Some(found) = flow::find(inv, segment, ctx, depth, ask) {
        return Some(found);
    }
    if let Some(found) = flow::xargs(inv, segment, upstream, ctx, depth, ask) {
        return Some(found);
    }
    if let Some(lang) = inline::language(&inv.name) {
        for code in inline::inline_code(inv, lang) {
            if let Some(found) = review_code(lang, &code, segment, ctx, depth, ask) {
                return Some(found);
            }
        }
    }
    None
}

fn review_code(
    lang: inline::Lang,
    code: &str,
    segment: &str,
    ctx: &GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    let review = inline::review(lang, code, ctx);
    if let Some(rule) = review.block {
        return block(rule, segment);
    }
    if let Some((rule, reason)) = review.ask {
        ask_once(ask, rule, reason);
    }
    for script in &review.scripts {
        // A string is only a guess at a command line: one the grammar cannot read is
        // taken for plain text.
        if depth >= MAX_DEPTH || shell_parse::parse_at_depth(script, depth + 1).unreadable {
            continue;
        }
        if let Some(found) = scan_text(script, ctx, depth, ask) {
            return Some(found);
        }
    }
    None
}

/// A program, or a script for `source`/a shell/an interpreter, that only exists once the
/// command runs: `$(echo x) …`, `$CMD …`, `source <(…)`, `bash /dev/stdin`.
fn dynamic(inv: &Invocation, ask: &mut Option<Verdict>) {
    let unknown = |w: &str| w.contains('$') || w.contains('`') || w.contains(SUBSTITUTION);
    if unknown(&inv.name) {
        ask_once(
            ask,
            "dynamic_command_word",
            Phrase::GuardProgramUnknown {
                program: inv.name.clone(),
            },
        );
        return;
    }
    let sources = matches!(inv.name.as_str(), "source" | ".");
    if !(sources || SHELLS.contains(&inv.name.as_str()) || inline::language(&inv.name).is_some()) {
        return;
    }
    let Some(script) = inv.args.iter().find(|a| !is_option(a)) else {
        return;
    };
    let from_stdin = matches!(script.as_str(), "/dev/stdin" | "-")
        || script.starts_with("/dev/fd/")
        || script.starts_with("/proc/self/fd/");
    // A variable path (`. "$VENV/bin/activate"`) is still a file, like any script the
    // guard does not open; text produced by a command or read from stdin is not.
    if script == SUBSTITUTION || (sources && from_stdin) {
        ask_once(
            ask,
            "dynamic_script",
            Phrase::GuardScriptUnknown {
                command: format!("{} {script}", inv.name),
            },
        );
    }
}

/// `:(){ :|:& };:` and its renamed variants: a function that pipes into itself, plus the
/// common one-liners in other languages.
fn fork_bomb(command: &str) -> Option<&'static str> {
    let squeezed: String = command.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed.contains("forkwhilefork") || squeezed.contains("while(1){fork") {
        return Some("fork_bomb");
    }
    let mut from = 0;
    while let Some(found) = squeezed[from..].find("(){") {
        let at = from + found;
        let name: String = squeezed[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || "_:.-".contains(*c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let name = name.strip_prefix("function").unwrap_or(&name);
        if !name.is_empty() {
            let body = &squeezed[at..];
            if body.contains(&format!("{name}|{name}")) || body.contains(&format!("{name}&{name}"))
            {
                return Some("fork_bomb");
            }
        }
        from = at + 3;
    }
    None
}

mod effects;
mod flow;
mod inline;
mod invocation;
mod paths;
mod rules;
mod writes;

#[cfg(test)]
mod tests {
    use super::paths::is_critical_path;
    use super::*;
    use std::path::Path;

    fn ctx() -> GuardContext {
        GuardContext::with_home(
            PathBuf::from("/work/proj"),
            Some(PathBuf::from("/home/u")),
            vec![PathBuf::from("/work/proj")],
        )
    }

    #[test]
    fn hint_has_memo_format_and_escapes() {
        let hint = denial_hint(
            "exec_command",
            "rm_recursive_critical_target",
            "rm -rf /",
            None,
        );
        assert_eq!(
            hint,
            "<system_hint type=\"tool_call_denied\" tool=\"exec_command\" reason=\"dangerous_command\" policy=\"blacklist\" rule=\"rm_recursive_critical_target\" command=\"rm -rf /\">Blocked a high-risk shell command to prevent irreversible data loss. Use a safer and scoped alternative.</system_hint>"
        );
        let hint = denial_hint("write_stdin", "r", "echo \"<x>\" > /dev/sda", Some(3));
        assert!(
            hint.contains("session_id=\"3\" command=\"echo &quot;&lt;x&gt;&quot; &gt; /dev/sda\"")
        );
    }

    #[test]
    fn targets_resolve_globs_and_variables() {
        let c = ctx();
        let path = |a: &str| match resolve_target(a, &c) {
            Target::Path(p) => Some(p),
            _ => None,
        };
        assert_eq!(path("/usr/.."), Some(PathBuf::from("/")));
        assert_eq!(path("~/*"), Some(PathBuf::from("/home/u")));
        assert_eq!(path("${HOME}/"), Some(PathBuf::from("/home/u")));
        assert_eq!(path("*"), Some(PathBuf::from("/work/proj")));
        assert_eq!(path("/u*"), Some(PathBuf::from("/")));
        assert_eq!(path("build/*.o"), None);
        assert!(matches!(
            resolve_target("$DIR/*", &c),
            Target::UnknownVarRoot
        ));
        assert!(matches!(resolve_target("$DIR/x", &c), Target::Unknown));
        assert!(is_critical_path(Path::new("/work"), &c, true));
        assert!(!is_critical_path(Path::new("/work/proj/target"), &c, true));
        assert!(!is_critical_path(Path::new("/work/proj"), &c, false));
    }

    #[test]
    fn wrappers_are_peeled() {
        let words = |s: &str| shell_words::split(s).unwrap();
        let inv = normalize(&words(
            "FOO=1 sudo -u root env -i A=b nice -n 5 nohup rm -rf x",
        ))
        .unwrap();
        assert_eq!(inv.name, "rm");
        assert!(inv.privileged);
        let inv = normalize(&words("timeout -s KILL 10 bash -lc 'rm -rf /'")).unwrap();
        assert_eq!(inv.name, "bash");
        assert_eq!(inv.nested, vec!["rm -rf /"]);
        for (line, script) in [
            ("bash -o pipefail -c 'rm x'", "rm x"),
            ("watch -n 1 ls -la", "ls -la"),
            ("flock /tmp/l cargo build", "cargo build"),
            ("flock -n -w 5 /tmp/l rm -rf x", "rm -rf x"),
            ("flock /tmp/l -c 'make all'", "make all"),
            ("script -q -c 'npm test' /dev/null", "npm test"),
            ("env -S 'rm -rf x'", "rm -rf x"),
            ("trap 'rm -f lock' EXIT", "rm -f lock"),
            ("alias ll='ls -l'", "ls -l"),
        ] {
            assert_eq!(normalize(&words(line)).unwrap().nested, [script], "{line}");
        }
        assert!(normalize(&words("xargs rm")).unwrap().stdin_args);
    }
}
