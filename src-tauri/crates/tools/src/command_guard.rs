//! The dangerous-command guard: a rule table checked against every simple command of a
//! shell script before it runs. Commands are read with [`crate::shell_parse`] (lists,
//! pipelines, subshells, substitutions), wrappers are peeled off (`sudo`, `env`, `nice`,
//! `nohup`, `timeout`, …), and `sh -c` / `bash -c` / `eval` scripts are read recursively.
//!
//! A blocked command is refused whatever the approval mode, with the `<system_hint>` Memo
//! Code uses; a few risky-but-legitimate commands (a force-push to main) are escalated to
//! "always ask" instead. The guard is a safety net for honest mistakes, not a sandbox: an
//! obfuscated command (`$(echo rm) -rf /`) gets past it, which is what Landlock and the
//! approvals are for.

use std::path::{Component, Path, PathBuf};

use crate::shell_parse::{self, Script, SimpleCommand, MAX_DEPTH, SUBSTITUTION};

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
        }
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
        reason: String,
    },
    /// Never run.
    Block {
        rule: &'static str,
        /// The simple command that matched.
        segment: String,
    },
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

/// A command with its wrappers peeled off.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invocation {
    /// The program's base name (`/usr/bin/rm` → `rm`).
    pub name: String,
    pub args: Vec<String>,
    /// Run through `sudo`, `doas` or `su`.
    pub privileged: bool,
    /// Scripts this command runs: `sh -c SCRIPT`, `eval ARGS`, `su -c SCRIPT`, `env -S`.
    pub nested: Vec<String>,
}

const SHELLS: [&str; 9] = [
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "busybox-sh",
];
const INTERPRETERS: [&str; 8] = [
    "python", "python2", "python3", "perl", "ruby", "node", "php", "lua",
];
const DOWNLOADERS: [&str; 6] = ["curl", "wget", "fetch", "aria2c", "http", "https"];

pub(crate) fn base_name(word: &str) -> String {
    word.rsplit('/').next().unwrap_or(word).to_owned()
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

fn is_option(word: &str) -> bool {
    word.starts_with('-') && word != "-"
}

/// Peels wrappers and shell keywords off a command's words.
pub(crate) fn normalize(words: &[String]) -> Option<Invocation> {
    let mut i = 0;
    let mut privileged = false;
    let mut nested = Vec::new();
    let skip_opts = |i: &mut usize, with_value: &[&str]| {
        while *i < words.len() && is_option(&words[*i]) {
            let opt = words[*i].as_str();
            *i += 1;
            if opt == "--" {
                break;
            }
            if with_value.contains(&opt) && *i < words.len() {
                *i += 1;
            }
        }
    };
    loop {
        while i < words.len() && is_assignment(&words[i]) {
            i += 1;
        }
        let word = words.get(i)?;
        let name = base_name(word);
        match name.as_str() {
            "{" | "}" | "!" | "if" | "then" | "else" | "elif" | "do" | "while" | "until"
            | "nohup" | "builtin" | "unbuffer" | "busybox" => i += 1,
            "sudo" | "doas" => {
                privileged = true;
                i += 1;
                skip_opts(
                    &mut i,
                    &[
                        "-u",
                        "--user",
                        "-g",
                        "--group",
                        "-h",
                        "--host",
                        "-p",
                        "--prompt",
                        "-C",
                        "--close-from",
                        "-T",
                        "--command-timeout",
                        "-r",
                        "--role",
                        "-t",
                        "--type",
                        "-D",
                        "--chdir",
                    ],
                );
            }
            "env" => {
                i += 1;
                while i < words.len() {
                    let w = words[i].as_str();
                    if w == "-S" || w == "--split-string" {
                        // `env -S "cmd args"` runs its argument as a command line.
                        if let Some(s) = words.get(i + 1) {
                            nested.push(s.clone());
                        }
                        i += 2;
                    } else if w == "-u" || w == "--unset" || w == "-C" || w == "--chdir" {
                        i += 2;
                    } else if is_option(w) || is_assignment(w) {
                        i += 1;
                    } else {
                        break;
                    }
                }
            }
            "nice" => {
                i += 1;
                skip_opts(&mut i, &["-n", "--adjustment"]);
            }
            "ionice" => {
                i += 1;
                skip_opts(&mut i, &["-c", "--class", "-n", "--classdata", "-p", "-t"]);
            }
            "setsid" | "command" | "exec" | "time" | "stdbuf" | "chrt" | "taskset" => {
                i += 1;
                skip_opts(&mut i, &["-a", "-o", "-e", "-i", "-f"]);
                if name == "chrt" || name == "taskset" {
                    // Priority / CPU mask operand.
                    i += 1;
                }
            }
            "timeout" => {
                i += 1;
                skip_opts(&mut i, &["-s", "--signal", "-k", "--kill-after"]);
                i += 1; // the duration
            }
            "xargs" => {
                i += 1;
                skip_opts(
                    &mut i,
                    &[
                        "-a",
                        "-d",
                        "-E",
                        "-I",
                        "-L",
                        "-n",
                        "-P",
                        "-s",
                        "--arg-file",
                        "--delimiter",
                        "--max-args",
                        "--max-procs",
                    ],
                );
            }
            "watch" => {
                i += 1;
                skip_opts(&mut i, &["-n", "--interval", "-d"]);
            }
            "su" => {
                privileged = true;
                let mut j = i + 1;
                while j < words.len() {
                    if words[j] == "-c" || words[j] == "--command" {
                        if let Some(s) = words.get(j + 1) {
                            nested.push(s.clone());
                        }
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                return Some(Invocation {
                    name,
                    args: words[i + 1..].to_vec(),
                    privileged,
                    nested,
                });
            }
            _ => {
                let args = words[i + 1..].to_vec();
                if SHELLS.contains(&name.as_str()) {
                    if let Some(script) = shell_c_script(&args) {
                        nested.push(script);
                    }
                } else if name == "eval" {
                    nested.push(args.join(" "));
                }
                return Some(Invocation {
                    name,
                    args,
                    privileged,
                    nested,
                });
            }
        }
    }
}

/// The script of `sh -c SCRIPT` (also `-lc`, `-ec`, `-xc`, … option clusters).
fn shell_c_script(args: &[String]) -> Option<String> {
    let mut saw_c = false;
    for arg in args {
        if saw_c && !is_option(arg) {
            return Some(arg.clone());
        }
        if arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains('c') {
            saw_c = true;
        } else if !is_option(arg) {
            return None;
        }
    }
    None
}

fn has_shell_c(inv: &Invocation) -> bool {
    SHELLS.contains(&inv.name.as_str()) && shell_c_script(&inv.args).is_some()
}

/// A shell or interpreter that would run whatever arrives on its standard input.
fn reads_stdin(inv: &Invocation) -> bool {
    let name = inv.name.as_str();
    let operands: Vec<&String> = inv.args.iter().filter(|a| !is_option(a)).collect();
    if SHELLS.contains(&name) {
        !has_shell_c(inv) && (operands.is_empty() || inv.args.iter().any(|a| a == "-s" || a == "-"))
    } else if INTERPRETERS.iter().any(|i| name.starts_with(i)) {
        let inline = inv.args.iter().any(|a| a == "-c" || a == "-e");
        !inline && (operands.is_empty() || operands[0] == "-")
    } else {
        false
    }
}

fn runs_text_as_code(inv: &Invocation) -> bool {
    SHELLS.contains(&inv.name.as_str())
        || INTERPRETERS.iter().any(|i| inv.name.starts_with(i))
        || matches!(inv.name.as_str(), "eval" | "source" | ".")
}

fn script_downloads(script: &Script) -> bool {
    script.pipelines.iter().any(|p| {
        p.commands.iter().any(|c| {
            normalize(&c.words).is_some_and(|inv| DOWNLOADERS.contains(&inv.name.as_str()))
                || c.substitutions.iter().any(script_downloads)
        })
    })
}

fn scan(
    script: &Script,
    ctx: &mut GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    for pipeline in &script.pipelines {
        let mut downloading = false;
        for cmd in &pipeline.commands {
            if let Some(block) = check_simple(cmd, ctx, depth, downloading, ask) {
                return Some(block);
            }
            if let Some(inv) = normalize(&cmd.words) {
                if DOWNLOADERS.contains(&inv.name.as_str()) {
                    downloading = true;
                }
                // A `cd` inside a pipeline runs in a subshell and moves nothing after it.
                if pipeline.commands.len() == 1 && matches!(inv.name.as_str(), "cd" | "pushd") {
                    ctx.change_dir(&inv);
                }
            }
        }
    }
    None
}

fn block(rule: &'static str, cmd: &SimpleCommand) -> Option<Verdict> {
    Some(Verdict::Block {
        rule,
        segment: cmd.raw.clone(),
    })
}

fn check_simple(
    cmd: &SimpleCommand,
    ctx: &mut GuardContext,
    depth: usize,
    after_download: bool,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    for redirect in cmd.redirects.iter().filter(|r| r.writes()) {
        if is_block_device(&redirect.target) {
            return block("redirect_block_device", cmd);
        }
        if redirect.target == "/proc/sysrq-trigger" {
            return block("system_power_state", cmd);
        }
    }
    if depth < MAX_DEPTH {
        for sub in &cmd.substitutions {
            // Substitutions and `sh -c` scripts run in a subshell: their `cd` stays there.
            if let Some(found) = scan(sub, &mut ctx.clone(), depth + 1, ask) {
                return Some(found);
            }
        }
    }
    let inv = normalize(&cmd.words)?;
    if depth < MAX_DEPTH {
        for nested in &inv.nested {
            let script = shell_parse::parse_at_depth(nested, depth + 1);
            if let Some(found) = scan(&script, &mut ctx.clone(), depth + 1, ask) {
                return Some(found);
            }
        }
    }
    if depth < MAX_DEPTH && SHELLS.contains(&inv.name.as_str()) {
        // `bash <<EOF … EOF` runs the heredoc: check it like a `sh -c` script.
        for body in &cmd.heredocs {
            let script = shell_parse::parse_at_depth(body, depth + 1);
            if let Some(found) = scan(&script, &mut ctx.clone(), depth + 1, ask) {
                return Some(found);
            }
        }
    }
    if after_download && reads_stdin(&inv) {
        return block("pipe_remote_script", cmd);
    }
    if runs_text_as_code(&inv) && cmd.substitutions.iter().any(script_downloads) {
        return block("pipe_remote_script", cmd);
    }
    if let Some(rule) = rules::check(&inv, ctx, ask) {
        return block(rule, cmd);
    }
    None
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

/// Block devices and raw memory: writing to one destroys a disk (or the running system).
pub(crate) fn is_block_device(path: &str) -> bool {
    let Some(dev) = path.trim().strip_prefix("/dev/") else {
        return false;
    };
    let rest_after = |prefix: &str| dev.strip_prefix(prefix);
    let letters_then_digits = |s: &str| {
        let letters = s.chars().take_while(|c| c.is_ascii_lowercase()).count();
        letters > 0 && s[letters..].chars().all(|c| c.is_ascii_digit())
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    for prefix in ["sd", "hd", "vd", "xvd"] {
        if rest_after(prefix).is_some_and(letters_then_digits) {
            return true;
        }
    }
    if let Some(rest) = rest_after("nvme") {
        return rest.starts_with(|c: char| c.is_ascii_digit());
    }
    if let Some(rest) = rest_after("mmcblk") {
        return rest.starts_with(|c: char| c.is_ascii_digit());
    }
    for prefix in [
        "md", "loop", "nbd", "sr", "disk", "rdisk", "mtdblock", "dm-",
    ] {
        if rest_after(prefix).is_some_and(digits) {
            return true;
        }
    }
    dev.starts_with("disk/")
        || dev.starts_with("mapper/")
        || matches!(dev, "root" | "mem" | "kmem" | "port")
}

/// Where a path argument points, as far as can be told without running anything.
pub(crate) enum Target {
    /// A concrete path (lexically normalized, absolute).
    Path(PathBuf),
    /// `$VAR/` or `$VAR/*` with an unknown variable: `/` if it is empty or unset.
    UnknownVarRoot,
    Unknown,
}

/// Resolves a target argument. Trailing match-all globs (`dir/*`, `dir/.*`) stand for the
/// directory itself (they empty it); other globs are resolved to the directory they
/// search, which is only dangerous at the filesystem root (`/u*`).
pub(crate) fn resolve_target(arg: &str, ctx: &GuardContext) -> Target {
    let expanded = match expand_known_vars(arg, ctx) {
        Some(e) => e,
        None => {
            return match strip_leading_var(arg) {
                Some("/" | "/*" | "/.*" | "/**") => Target::UnknownVarRoot,
                _ => Target::Unknown,
            };
        }
    };
    let path = if expanded.starts_with('/') {
        PathBuf::from(&expanded)
    } else if ctx.cwd_unknown {
        return Target::Unknown;
    } else {
        ctx.cwd.join(&expanded)
    };
    let mut prefix = PathBuf::new();
    for component in path.components() {
        let part = component.as_os_str().to_string_lossy();
        if part.contains(['*', '?', '[']) {
            let base = normalize_path(&prefix);
            let match_all = matches!(
                part.as_ref(),
                "*" | ".*" | "*.*" | "**" | ".[!.]*" | "..?*" | ".??*"
            );
            if match_all || base == Path::new("/") {
                return Target::Path(base);
            }
            return Target::Unknown;
        }
        prefix.push(component);
    }
    Target::Path(normalize_path(&path))
}

fn expand_known_vars(arg: &str, ctx: &GuardContext) -> Option<String> {
    let home = ctx.home.as_ref().map(|h| h.display().to_string());
    let pwd = ctx.cwd.display().to_string();
    let replaced = if arg == "~" || arg.starts_with("~/") {
        format!("{}{}", home?, &arg[1..])
    } else if let Some(rest) = arg
        .strip_prefix("${HOME}")
        .or_else(|| arg.strip_prefix("$HOME").filter(|r| !starts_ident(r)))
    {
        format!("{}{rest}", home?)
    } else if let Some(rest) = arg
        .strip_prefix("${PWD}")
        .or_else(|| arg.strip_prefix("$PWD").filter(|r| !starts_ident(r)))
    {
        format!("{pwd}{rest}")
    } else {
        arg.to_owned()
    };
    if replaced.contains('$') || replaced.contains('`') || replaced.contains(SUBSTITUTION) {
        None
    } else {
        Some(replaced)
    }
}

fn starts_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

fn strip_leading_var(arg: &str) -> Option<&str> {
    let rest = arg.strip_prefix('$')?;
    if let Some(inner) = rest.strip_prefix('{') {
        let end = inner.find('}')?;
        return Some(&inner[end + 1..]);
    }
    let len = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .count();
    (len > 0).then(|| &rest[len..])
}

/// `.` and `..` resolved lexically (symlinks are not followed: `rm` removes a link, not
/// what it points to).
pub(crate) fn normalize_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
        }
    }
    out
}

/// Whether deleting (or recursively re-permissioning) `path` would wreck the system, the
/// user's home, or — when `include_workspace` — the workspace.
pub(crate) fn is_critical_path(path: &Path, ctx: &GuardContext, include_workspace: bool) -> bool {
    if path.components().count() <= 2 {
        // `/` itself or a top-level directory such as /usr, /etc, /home.
        return true;
    }
    let protects = |root: &Path| root.starts_with(path);
    let mut roots: Vec<PathBuf> = ctx.home.iter().cloned().collect();
    if include_workspace {
        roots.extend(ctx.workspace_roots.iter().cloned());
    }
    roots.iter().any(|root| {
        let lexical = normalize_path(root);
        protects(&lexical)
            || std::fs::canonicalize(root)
                .map(|real| protects(&real))
                .unwrap_or(false)
    })
}

#[path = "command_rules.rs"]
mod rules;

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
