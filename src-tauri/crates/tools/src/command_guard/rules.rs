//! The rule table of the dangerous-command guard, one function per family. Each gets a
//! command with its wrappers already peeled off and returns the rule id that blocks it
//! (ids are stable: the model sees them in the denial hint). Rules that should ask rather
//! than block record an [`Verdict::Ask`] instead.

use memo_protocol::Phrase;

use super::paths::{is_block_device, is_critical_path, resolve_target, Target};
use super::{is_option, GuardContext, Invocation, Verdict};

pub(super) fn check(
    inv: &Invocation,
    ctx: &GuardContext,
    ask: &mut Option<Verdict>,
) -> Option<&'static str> {
    let name = inv.name.as_str();
    match name {
        "rm" => rm(inv, ctx, ask),
        "find" => find(inv, ctx),
        "mv" => mv(inv, ctx),
        "dd" => dd(inv),
        "chmod" | "chown" | "chgrp" => recursive_permissions(inv, ctx),
        "tee" => inv
            .args
            .iter()
            .any(|a| !is_option(a) && is_block_device(a))
            .then_some("write_block_device"),
        "cp" | "install" => inv
            .args
            .iter()
            .rfind(|a| !is_option(a))
            .filter(|a| is_block_device(a))
            .map(|_| "write_block_device"),
        "shutdown" | "reboot" | "halt" | "poweroff" => Some("system_power_state"),
        "init" | "telinit" => inv
            .args
            .iter()
            .any(|a| matches!(a.as_str(), "0" | "6"))
            .then_some("system_power_state"),
        "systemctl" | "loginctl" => inv
            .args
            .iter()
            .any(|a| {
                matches!(
                    a.as_str(),
                    "poweroff"
                        | "reboot"
                        | "halt"
                        | "kexec"
                        | "soft-reboot"
                        | "suspend"
                        | "hibernate"
                        | "hybrid-sleep"
                        | "suspend-then-hibernate"
                        | "rescue"
                        | "emergency"
                )
            })
            .then_some("system_power_state"),
        "kill" => kill_all(inv),
        "git" => {
            git_push(inv, ask);
            None
        }
        _ if name == "mkfs"
            || name.starts_with("mkfs.")
            || matches!(name, "mke2fs" | "mkdosfs" | "mkntfs" | "mkexfatfs") =>
        {
            Some("mkfs_filesystem_create")
        }
        "fdisk" | "sfdisk" | "cfdisk" | "parted" | "sgdisk" | "gdisk" | "wipefs" | "blkdiscard"
        | "shred" | "mkswap" | "badblocks" | "cryptsetup" => {
            let listing = inv
                .args
                .iter()
                .any(|a| matches!(a.as_str(), "-l" | "--list" | "print" | "-p" | "--print"));
            let device = inv.args.iter().any(|a| is_block_device(a));
            (device && !listing).then_some("disk_mutation_block_device")
        }
        _ => None,
    }
}

/// Splits GNU-style arguments (options may follow operands until `--`) into
/// (short-option letters and long options, operands).
fn split_args(args: &[String]) -> (Vec<String>, Vec<String>) {
    let mut options = Vec::new();
    let mut operands = Vec::new();
    let mut rest = false;
    for arg in args {
        if rest || !is_option(arg) {
            operands.push(arg.clone());
        } else if arg == "--" {
            rest = true;
        } else {
            options.push(arg.clone());
        }
    }
    (options, operands)
}

fn has_short(options: &[String], letter: char) -> bool {
    options
        .iter()
        .any(|o| !o.starts_with("--") && o[1..].contains(letter))
}

fn rm(inv: &Invocation, ctx: &GuardContext, ask: &mut Option<Verdict>) -> Option<&'static str> {
    let (options, operands) = split_args(&inv.args);
    let recursive = options.iter().any(|o| o == "--recursive")
        || has_short(&options, 'r')
        || has_short(&options, 'R');
    if !recursive {
        return None;
    }
    for target in &operands {
        match resolve_target(target, ctx) {
            Target::Path(path) if is_critical_path(&path, ctx, true) => {
                return Some("rm_recursive_critical_target")
            }
            Target::UnknownVarRoot => {
                ask.get_or_insert(Verdict::Ask {
                    rule: "rm_recursive_variable_root",
                    reason: Phrase::GuardRmVariableRoot {
                        target: target.clone(),
                    },
                });
            }
            _ => {}
        }
    }
    None
}

fn find(inv: &Invocation, ctx: &GuardContext) -> Option<&'static str> {
    let paths: Vec<&String> = inv
        .args
        .iter()
        .take_while(|a| !a.starts_with('-') && *a != "(" && *a != "!")
        .collect();
    let deletes = inv.args.iter().enumerate().any(|(i, a)| {
        a == "-delete"
            || (matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
                && inv.args.get(i + 1).is_some_and(|c| {
                    matches!(super::base_name(c).as_str(), "rm" | "shred" | "unlink")
                }))
    });
    if !deletes {
        return None;
    }
    if find_is_narrowed(&inv.args) {
        return None;
    }
    let dot = ".".to_owned();
    let paths = if paths.is_empty() { vec![&dot] } else { paths };
    paths
        .iter()
        .any(|p| matches!(resolve_target(p, ctx), Target::Path(path) if is_critical_path(&path, ctx, true)))
        .then_some("find_delete_critical_target")
}

/// Whether a name, path, time or size test narrows what `find` matches; `-type f` alone
/// does not.
pub(super) fn find_is_narrowed(args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-name"
                | "-iname"
                | "-path"
                | "-ipath"
                | "-wholename"
                | "-iwholename"
                | "-regex"
                | "-iregex"
                | "-newer"
                | "-mtime"
                | "-mmin"
                | "-ctime"
                | "-cmin"
                | "-atime"
                | "-amin"
                | "-size"
                | "-empty"
                | "-user"
                | "-group"
                | "-perm"
                | "-inum"
                | "-samefile"
                | "-lname"
        )
    })
}

fn mv(inv: &Invocation, ctx: &GuardContext) -> Option<&'static str> {
    let (_, operands) = split_args(&inv.args);
    let sources = operands.split_last().map(|(_, s)| s).unwrap_or(&[]);
    sources
        .iter()
        .any(|s| matches!(resolve_target(s, ctx), Target::Path(path) if is_critical_path(&path, ctx, true)))
        .then_some("mv_critical_target")
}

fn dd(inv: &Invocation) -> Option<&'static str> {
    inv.args
        .iter()
        .filter_map(|a| a.strip_prefix("of="))
        .any(is_block_device)
        .then_some("dd_write_block_device")
}

fn recursive_permissions(inv: &Invocation, ctx: &GuardContext) -> Option<&'static str> {
    let (options, operands) = split_args(&inv.args);
    let recursive = options.iter().any(|o| o == "--recursive") || has_short(&options, 'R');
    if !recursive {
        return None;
    }
    operands
        .iter()
        .any(|t| matches!(resolve_target(t, ctx), Target::Path(path) if is_critical_path(&path, ctx, false)))
        .then_some("recursive_permission_change_critical")
}

/// `kill -9 -1` signals every process the user may signal.
fn kill_all(inv: &Invocation) -> Option<&'static str> {
    let mut signal_seen = false;
    let mut operands_only = false;
    let mut args = inv.args.iter();
    while let Some(arg) = args.next() {
        if operands_only || !arg.starts_with('-') {
            if arg == "-1" {
                return Some("kill_all_processes");
            }
            continue;
        }
        match arg.as_str() {
            "--" => operands_only = true,
            "-s" | "-n" | "--signal" => {
                args.next();
                signal_seen = true;
            }
            "-1" if signal_seen => return Some("kill_all_processes"),
            _ if !signal_seen => signal_seen = true,
            _ => {}
        }
    }
    None
}

/// A force-push (or a deletion) of main/master rewrites shared history: always ask.
fn git_push(inv: &Invocation, ask: &mut Option<Verdict>) {
    let args = &inv.args;
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        if matches!(
            args[i].as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
        ) {
            i += 1;
        }
        i += 1;
    }
    if args.get(i).map(String::as_str) != Some("push") {
        return;
    }
    let mut force = false;
    let mut delete = false;
    let mut all = false;
    let mut operands = Vec::new();
    let mut rest = args[i + 1..].iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--force" | "--mirror" | "--force-if-includes" => force = true,
            a if a.starts_with("--force-with-lease") => force = true,
            "--delete" => delete = true,
            "--all" | "--branches" => all = true,
            "-o" | "--push-option" | "--repo" | "--receive-pack" | "--exec" => {
                rest.next();
            }
            a if a.starts_with("--") => {}
            a if a.starts_with('-') => {
                force |= a.contains('f');
                delete |= a.contains('d');
            }
            _ => operands.push(arg.clone()),
        }
    }
    let refspecs = operands.get(1..).unwrap_or(&[]);
    let protected = |branch: &str| {
        let branch = branch.strip_prefix("refs/heads/").unwrap_or(branch);
        matches!(branch, "main" | "master")
    };
    let mut hits_protected = all;
    let mut deletes_protected = false;
    for spec in refspecs {
        let plus = spec.starts_with('+');
        let spec = spec.trim_start_matches('+');
        let (src, dst) = spec.split_once(':').unwrap_or((spec, spec));
        if protected(dst) {
            hits_protected = true;
            force |= plus;
            if delete || src.is_empty() {
                deletes_protected = true;
            }
        }
    }
    if deletes_protected {
        ask.get_or_insert(Verdict::Ask {
            rule: "git_delete_protected_branch",
            reason: Phrase::GuardDeletesMainBranch,
        });
    } else if force && (hits_protected || refspecs.is_empty()) {
        ask.get_or_insert(Verdict::Ask {
            rule: "git_force_push_protected_branch",
            reason: Phrase::GuardForcePushMain,
        });
    }
}
