//! Commands whose targets arrive from elsewhere: what `find -exec`/`-delete` runs on the
//! files it finds, what `xargs` runs on the words piped into it, and the text an `echo`,
//! `printf` or `cat <<EOF` pipes into a shell. The command `find`/`xargs` would run is
//! rebuilt with its real arguments and checked like any other; a deletion or write that
//! reaches into a protected area through the files found is critical.

use memo_protocol::Phrase;

use super::paths::protected_target;
use super::rules::find_is_narrowed;
use super::writes::writes_something;
use super::{ask_once, check_invocation, is_option, normalize, preview, GuardContext, Verdict};
use super::{Invocation, SimpleCommand};

/// Stands for "something `find` found below the start path": two levels down, so a
/// narrowed `find / -name x -exec rm -rf {} +` does not read as deleting a top-level
/// directory (the block rules are about deleting the start itself).
const FOUND: &str = "\u{2026}found\u{2026}/\u{2026}";

/// The text a command prints when it is fully known: `echo`/`printf` of literals, or
/// `cat` of its heredoc.
pub(super) fn printed_text(cmd: &SimpleCommand) -> Option<String> {
    let inv = normalize(&cmd.words)?;
    let literal = |w: &String| !w.contains('$') && !w.contains('`');
    match inv.name.as_str() {
        "echo" => {
            let args: Vec<&String> = inv
                .args
                .iter()
                .skip_while(|a| {
                    a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "neE".contains(c))
                })
                .collect();
            args.iter().all(|a| literal(a)).then(|| {
                let words: Vec<&str> = args.iter().map(|a| a.as_str()).collect();
                words.join(" ")
            })
        }
        "printf" => inv
            .args
            .first()
            .filter(|f| literal(f))
            .map(|f| f.replace("\\n", "\n")),
        "cat" if inv.args.is_empty() => cmd.heredocs.first().cloned(),
        _ => None,
    }
}

/// The start paths of `find` (the operands before the first expression).
fn find_starts(args: &[String]) -> Vec<String> {
    let mut starts: Vec<String> = args
        .iter()
        .skip_while(|a| {
            matches!(a.as_str(), "-H" | "-L" | "-P") || a.starts_with("-O") || a.starts_with("-D")
        })
        .take_while(|a| !a.starts_with('-') && *a != "(" && *a != "!")
        .cloned()
        .collect();
    if starts.is_empty() {
        starts.push(".".into());
    }
    starts
}

/// The commands of `-exec … ;`, `-execdir … +`, `-ok …`.
fn exec_clauses(args: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if matches!(args[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let clause: Vec<String> = args[i + 1..]
                .iter()
                .take_while(|a| *a != ";" && *a != "+")
                .cloned()
                .collect();
            i += clause.len() + 1;
            out.push(clause);
        }
        i += 1;
    }
    out
}

pub(super) fn find(
    inv: &Invocation,
    segment: &str,
    ctx: &GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    if inv.name != "find" {
        return None;
    }
    let starts = find_starts(&inv.args);
    let narrowed = find_is_narrowed(&inv.args);
    let protected = |start: &str, deletes: bool, ask: &mut Option<Verdict>| {
        if let Some(hit) = protected_target(start, ctx, true) {
            let (command, start, area, what) =
                (preview(segment), start.to_owned(), hit.area(), hit.what());
            let reason = if deletes {
                Phrase::GuardFindDeletesProtected {
                    command,
                    start,
                    area,
                    what,
                }
            } else {
                Phrase::GuardFindChangesProtected {
                    command,
                    start,
                    area,
                    what,
                }
            };
            ask_once(ask, "find_changes_protected_path", reason);
        }
    };
    if inv.args.iter().any(|a| a == "-delete") {
        for start in &starts {
            protected(start, true, ask);
        }
    }
    for clause in exec_clauses(&inv.args) {
        let on_found = clause.iter().any(|w| w.contains("{}"));
        for start in &starts {
            // Not narrowed, `{}` includes the start itself; narrowed, only what lies
            // below it.
            let found = if narrowed {
                format!("{}/{FOUND}", start.trim_end_matches('/'))
            } else {
                start.clone()
            };
            let words: Vec<String> = clause.iter().map(|w| w.replace("{}", &found)).collect();
            let Some(exec) = normalize(&words) else {
                continue;
            };
            if let Some(found) = check_invocation(&exec, segment, &[], ctx, depth, ask) {
                return Some(found);
            }
            if on_found && writes_something(&exec) {
                protected(start, false, ask);
            }
        }
    }
    None
}

/// Where the words piped into `xargs` come from: paths `find` finds, words `echo` and
/// `printf` print, and paths other commands list from.
struct Source {
    path: String,
    /// The word may be the path itself (`echo /etc`, an unnarrowed `find /etc`).
    itself: bool,
    /// The words may be paths below it (`find`, `ls DIR`, `grep -rl x DIR`).
    below: bool,
}

fn xargs_sources(upstream: &[SimpleCommand]) -> Vec<Source> {
    let mut out = Vec::new();
    for cmd in upstream {
        let Some(inv) = normalize(&cmd.words) else {
            continue;
        };
        match inv.name.as_str() {
            "find" => {
                let itself = !find_is_narrowed(&inv.args);
                out.extend(find_starts(&inv.args).into_iter().map(|path| Source {
                    path,
                    itself,
                    below: true,
                }));
            }
            "echo" | "printf" => {
                // `echo "$HOME"` prints a word the guard resolves like an argument.
                let text = printed_text(cmd).or_else(|| {
                    (inv.name == "echo").then(|| {
                        let words: Vec<&str> = inv
                            .args
                            .iter()
                            .filter(|a| !is_option(a))
                            .map(String::as_str)
                            .collect();
                        words.join(" ")
                    })
                });
                if let Some(text) = text {
                    out.extend(text.split_whitespace().map(|w| Source {
                        path: w.to_owned(),
                        itself: true,
                        below: false,
                    }));
                }
            }
            // `cat <<EOF` / `cat <<< x`, and xargs's own here-string (see `stdin_source`).
            "cat" if inv.args.is_empty() => {
                if let Some(text) = cmd.heredocs.first() {
                    out.extend(text.split_whitespace().map(|w| Source {
                        path: w.to_owned(),
                        itself: true,
                        below: false,
                    }));
                }
            }
            _ => out.extend(
                inv.args
                    .iter()
                    .filter(|a| !is_option(a) && (a.contains('/') || a.starts_with('~')))
                    .map(|a| Source {
                        path: a.clone(),
                        itself: false,
                        below: true,
                    }),
            ),
        }
    }
    out
}

/// What a command reads on stdin from the script itself (its heredocs and here-strings),
/// as the `cat` that would pipe it in: `xargs rm -rf <<< ~` is `cat <<< ~ | xargs rm -rf`.
pub(super) fn stdin_source(cmd: &SimpleCommand) -> Option<SimpleCommand> {
    (!cmd.heredocs.is_empty()).then(|| SimpleCommand {
        raw: cmd.raw.clone(),
        words: vec!["cat".to_owned()],
        heredocs: vec![cmd.heredocs.join("\n")],
        ..SimpleCommand::default()
    })
}

pub(super) fn xargs(
    inv: &Invocation,
    segment: &str,
    upstream: &[SimpleCommand],
    ctx: &GuardContext,
    depth: usize,
    ask: &mut Option<Verdict>,
) -> Option<Verdict> {
    if !inv.stdin_args {
        return None;
    }
    for source in xargs_sources(upstream) {
        let below = format!("{}/{FOUND}", source.path.trim_end_matches('/'));
        let items = [
            source.itself.then(|| source.path.clone()),
            source.below.then_some(below),
        ];
        for item in items.into_iter().flatten() {
            let mut exec = inv.clone();
            exec.stdin_args = false;
            if exec.args.iter().any(|a| a.contains("{}")) {
                exec.args = exec.args.iter().map(|a| a.replace("{}", &item)).collect();
            } else {
                exec.args.push(item);
            }
            if let Some(found) = check_invocation(&exec, segment, &[], ctx, depth, ask) {
                return Some(found);
            }
            if source.below && writes_something(&exec) {
                if let Some(hit) = protected_target(&source.path, ctx, true) {
                    ask_once(
                        ask,
                        "xargs_changes_protected_path",
                        Phrase::GuardXargsChangesProtected {
                            command: preview(segment),
                            source: source.path.clone(),
                            area: hit.area(),
                            what: hit.what(),
                        },
                    );
                }
            }
        }
    }
    None
}
