//! Effect classes of the guard that ask (critical, every mode) rather than block, for
//! commands whose damage does not show in a path on their command line:
//! - removing or replacing the user's scheduled jobs (`crontab -r`, `crontab FILE`,
//!   `echo | crontab -`, `atrm`): the table is gone with no copy;
//! - a permission or ownership change on the home folder itself or a system folder,
//!   without `-R` (`chmod 777 ~`, `chown nobody /etc`): with `-R` it is blocked by
//!   [`super::rules`], but one level is enough to lock the user out of `~` or open it up;
//! - a git command pointed at the home folder or a system folder through `-C`,
//!   `--work-tree` or `--git-dir` that changes files there (`git -C ~ clean -fdx`).

use std::path::{Path, PathBuf};

use memo_protocol::Phrase;

use super::paths::{is_critical_path, protected_target, resolve_target, Target};
use super::{is_option, GuardContext, Invocation, Verdict};

pub(super) fn check(
    inv: &Invocation,
    segment: &str,
    ctx: &GuardContext,
    ask: &mut Option<Verdict>,
) {
    let command = super::preview(segment);
    let found = match inv.name.as_str() {
        "crontab" => crontab(inv, command),
        "atrm" => Some((
            "scheduled_jobs_removed",
            Phrase::GuardAtJobsRemoved { command },
        )),
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" => permissions(inv, ctx, command),
        "git" => git_elsewhere(inv, ctx, command),
        _ => None,
    };
    if let Some((rule, reason)) = found {
        ask.get_or_insert(Verdict::Ask { rule, reason });
    }
}

/// `crontab -r` (with `-i` or `-u USER` around it) deletes the table; `crontab FILE` and
/// `crontab -` replace it whole. `-l` lists and `-e` edits in an editor the user sees.
fn crontab(inv: &Invocation, command: String) -> Option<(&'static str, Phrase)> {
    let mut args = inv.args.iter();
    let mut operand = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-u" => {
                args.next();
            }
            "-l" | "-e" | "-V" => return None,
            a if a.starts_with('-') && a.len() > 1 && !a.starts_with("--") => {
                if a.contains('r') {
                    return Some((
                        "scheduled_jobs_removed",
                        Phrase::GuardCrontabRemoved { command },
                    ));
                }
                if a.contains('l') || a.contains('e') {
                    return None;
                }
            }
            _ => operand = Some(arg.clone()),
        }
    }
    // No file: crontab reads the new table from standard input.
    let reason = match operand.filter(|from| from != "-") {
        Some(source) => Phrase::GuardCrontabReplaced { command, source },
        None => Phrase::GuardCrontabReplacedFromStdin { command },
    };
    Some(("scheduled_jobs_replaced", reason))
}

/// The folder a target names, when it is the home folder itself or a system folder (`/`,
/// a top-level folder, or one the guard protects such as `/usr/bin`).
/// `with_protected`: also a folder inside a protected area (`/usr/local/src/x`, `~/.ssh`).
fn critical_folder(arg: &str, ctx: &GuardContext, with_protected: bool) -> Option<PathBuf> {
    let Target::Path(path) = resolve_target(arg, ctx) else {
        return None;
    };
    let home = ctx.home.as_deref().map(super::paths::normalize_path);
    let is_home = home.as_deref() == Some(path.as_path());
    let system = is_critical_path(&path, ctx, false) && !inside_home(&path, home.as_deref());
    let protected = with_protected && protected_target(arg, ctx, false).is_some();
    (is_home || system || protected).then_some(path)
}

fn inside_home(path: &Path, home: Option<&Path>) -> bool {
    home.is_some_and(|h| path.starts_with(h) && path != h)
}

/// `chmod MODE TARGETS`, `chown OWNER TARGETS`, `setfacl -m SPEC TARGETS`: a target that
/// is the home folder or a system folder. (`-R` on those is blocked by the rule table.)
fn permissions(
    inv: &Invocation,
    ctx: &GuardContext,
    command: String,
) -> Option<(&'static str, Phrase)> {
    let operands: Vec<&String> = inv.args.iter().filter(|a| !is_option(a)).collect();
    // The first operand is the mode or owner, except for setfacl and chattr, whose specs
    // come as options' values or `+i`-style words.
    let skip = match inv.name.as_str() {
        "chmod" | "chown" | "chgrp" => 1,
        _ => 0,
    };
    operands.iter().skip(skip).find_map(|arg| {
        let folder = critical_folder(arg, ctx, false)?;
        let home = ctx.home.as_deref().map(super::paths::normalize_path) == Some(folder.clone());
        let (command, folder) = (command.clone(), folder.display().to_string());
        let reason = if home {
            Phrase::GuardPermissionsHome { command, folder }
        } else {
            Phrase::GuardPermissionsSystem { command, folder }
        };
        Some(("permission_change_critical_folder", reason))
    })
}

/// Subcommands that only read: pointed anywhere, they change nothing.
const GIT_READS: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "describe",
    "blame",
    "grep",
    "shortlog",
    "cat-file",
    "remote",
    "config",
    "branch",
    "tag",
    "reflog",
    "help",
    "version",
    "rev-list",
    "for-each-ref",
    "name-rev",
    "count-objects",
    "fsck",
    "whatchanged",
];

/// `git -C DIR`, `--work-tree=DIR`, `--git-dir=DIR/.git` with a subcommand that changes
/// files, where DIR is the home folder or a system folder.
fn git_elsewhere(
    inv: &Invocation,
    ctx: &GuardContext,
    command: String,
) -> Option<(&'static str, Phrase)> {
    let mut dirs = Vec::new();
    let mut args = inv.args.iter();
    let mut sub = None;
    while let Some(arg) = args.next() {
        let (flag, value) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        match flag {
            "-C" | "--work-tree" | "--git-dir" => {
                let value = value.or_else(|| args.next().cloned());
                if let Some(mut dir) = value {
                    if flag == "--git-dir" {
                        // The repository's folder is where its files are.
                        dir = dir
                            .trim_end_matches('/')
                            .strip_suffix("/.git")
                            .unwrap_or(&dir)
                            .to_owned();
                    }
                    dirs.push(dir);
                }
            }
            "-c" | "--namespace" | "--exec-path" => {
                if value.is_none() {
                    args.next();
                }
            }
            a if a.starts_with('-') => {}
            _ => {
                sub = Some(arg.clone());
                break;
            }
        }
    }
    let sub = sub?;
    if GIT_READS.contains(&sub.as_str()) {
        return None;
    }
    dirs.iter().find_map(|dir| {
        let folder = critical_folder(dir, ctx, true)?;
        Some((
            "git_outside_workspace_critical",
            Phrase::GuardGitOutside {
                command: command.clone(),
                subcommand: sub.clone(),
                folder: folder.display().to_string(),
            },
        ))
    })
}
