//! Peeling a simple command down to the program it runs: wrappers (`sudo`, `env`,
//! `nice`, `timeout`, `xargs`, `watch`, `flock`, …) and shell keywords come off, and the
//! scripts it runs as text (`sh -c`, `eval`, `su -c`, `env -S`) are collected so the
//! guard can read them too.

use crate::shell_parse::Script;

/// A command with its wrappers peeled off.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invocation {
    /// The program's base name (`/usr/bin/rm` → `rm`).
    pub name: String,
    pub args: Vec<String>,
    /// Run through `sudo`, `doas` or `su`.
    pub privileged: bool,
    /// Scripts this command runs: `sh -c SCRIPT`, `eval ARGS`, `su -c SCRIPT`, `env -S`,
    /// `watch CMD`.
    pub nested: Vec<String>,
    /// Run by `xargs`: more arguments arrive on standard input.
    pub stdin_args: bool,
}

pub(crate) const SHELLS: [&str; 9] = [
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
/// Interpreters that run a script from their standard input.
const INTERPRETERS: [&str; 9] = [
    "python", "pypy", "perl", "ruby", "node", "nodejs", "php", "lua", "bun",
];
pub(crate) const DOWNLOADERS: [&str; 6] = ["curl", "wget", "fetch", "aria2c", "http", "https"];

/// `python3.11` → `python`, `perl5.36` → `perl`, `node` → `node`.
fn is_interpreter(name: &str) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS.contains(&stem)
}

pub(crate) fn base_name(word: &str) -> String {
    word.rsplit('/').next().unwrap_or(word).to_owned()
}

pub(crate) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

pub(crate) fn is_option(word: &str) -> bool {
    word.starts_with('-') && word != "-"
}

/// Peels wrappers and shell keywords off a command's words.
pub(crate) fn normalize(words: &[String]) -> Option<Invocation> {
    let mut i = 0;
    let mut privileged = false;
    let mut nested = Vec::new();
    let mut stdin_args = false;
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
        let Some(word) = words.get(i) else {
            // `env -S 'cmd args'` with nothing after it: the split string is the command.
            return (!nested.is_empty()).then(|| Invocation {
                name: "env".into(),
                args: Vec::new(),
                privileged,
                nested,
                stdin_args,
            });
        };
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
                stdin_args = true;
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
            "watch" | "flock" | "script" => {
                // They run a command line through `sh -c`: `watch -n1 'cmd'`,
                // `flock [-w 5] LOCKFILE cmd args` or `flock LOCKFILE -c 'cmd'`,
                // `script -c 'cmd' log`.
                let rest = &words[i + 1..];
                let with_value: &[&str] = match name.as_str() {
                    "watch" => &["-n", "--interval", "-g", "-q"],
                    "flock" => &["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
                    _ => &[
                        "-c",
                        "--command",
                        "-E",
                        "--echo",
                        "-I",
                        "-O",
                        "-B",
                        "-T",
                        "-m",
                    ],
                };
                let mut j = 0;
                let mut script = None;
                let skip = |j: &mut usize, script: &mut Option<String>| {
                    while *j < rest.len() && is_option(&rest[*j]) {
                        let opt = rest[*j].as_str();
                        if matches!(opt, "-c" | "--command") {
                            *script = rest.get(*j + 1).cloned();
                        }
                        *j += if with_value.contains(&opt) || opt == "-c" {
                            2
                        } else {
                            1
                        };
                    }
                };
                skip(&mut j, &mut script);
                if name == "flock" && script.is_none() {
                    j += 1; // the lock file (or descriptor)
                    skip(&mut j, &mut script);
                }
                let command = match (name.as_str(), script) {
                    (_, Some(s)) => Some(s),
                    ("watch" | "flock", None) if j < rest.len() => Some(rest[j..].join(" ")),
                    _ => None,
                };
                nested.extend(command);
                return Some(Invocation {
                    name,
                    args: rest.to_vec(),
                    privileged,
                    nested,
                    stdin_args,
                });
            }
            "su" | "runuser" => {
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
                    stdin_args,
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
                } else if name == "alias" {
                    // `alias x='rm -rf ~'` makes the text a command under another name.
                    nested.extend(
                        args.iter()
                            .filter_map(|a| a.split_once('='))
                            .map(|(_, v)| v.to_owned()),
                    );
                } else if name == "trap" {
                    // `trap 'CMD' EXIT` runs CMD later, in this shell.
                    nested.extend(args.first().filter(|a| !is_option(a)).cloned());
                }
                return Some(Invocation {
                    name,
                    args,
                    privileged,
                    nested,
                    stdin_args,
                });
            }
        }
    }
}

/// The script of `sh -c SCRIPT` (also `-lc`, `-ec`, `-xc`, … option clusters, and with
/// options that take a value before it: `bash -o pipefail -c SCRIPT`).
fn shell_c_script(args: &[String]) -> Option<String> {
    let mut saw_c = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if saw_c && !is_option(arg) {
            return Some(arg.to_owned());
        }
        if matches!(arg, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
            i += 1;
        } else if (arg.starts_with('-') || arg.starts_with('+'))
            && !arg.starts_with("--")
            && arg[1..].contains('c')
        {
            saw_c = true;
        } else if !is_option(arg) && !arg.starts_with('+') {
            return None;
        }
    }
    None
}

pub(crate) fn has_shell_c(inv: &Invocation) -> bool {
    SHELLS.contains(&inv.name.as_str()) && shell_c_script(&inv.args).is_some()
}

/// A shell or interpreter that would run whatever arrives on its standard input.
pub(crate) fn reads_stdin(inv: &Invocation) -> bool {
    let name = inv.name.as_str();
    let operands: Vec<&String> = inv.args.iter().filter(|a| !is_option(a)).collect();
    if SHELLS.contains(&name) {
        !has_shell_c(inv) && (operands.is_empty() || inv.args.iter().any(|a| a == "-s" || a == "-"))
    } else if is_interpreter(name) {
        let inline = inv.args.iter().any(|a| a == "-c" || a == "-e");
        !inline && (operands.is_empty() || operands[0] == "-")
    } else {
        false
    }
}

pub(crate) fn runs_text_as_code(inv: &Invocation) -> bool {
    SHELLS.contains(&inv.name.as_str())
        || is_interpreter(&inv.name)
        || matches!(inv.name.as_str(), "eval" | "source" | ".")
}

pub(crate) fn script_downloads(script: &Script) -> bool {
    script.pipelines.iter().any(|p| {
        p.commands.iter().any(|c| {
            normalize(&c.words).is_some_and(|inv| DOWNLOADERS.contains(&inv.name.as_str()))
                || c.substitutions.iter().any(script_downloads)
        })
    })
}
