//! What a command writes to, truncates or deletes, read from its arguments: the operands
//! of `rm`, `tee`, `truncate`, `touch`; the destination of `cp`, `mv`, `install`, `ln`,
//! `rsync`; `dd of=`; the files of `sed -i` and `perl -i`; the operands after the mode of
//! `chmod`/`chown`; the output files of `curl -o`, `wget -O`, `tar -C` and any `-o FILE`.
//! The guard checks each target against the protected areas
//! ([`super::paths::protected_target`]); the command's name alone decides nothing.

use super::{base_name, is_option, Invocation};

/// One path a command changes.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WriteTarget {
    pub arg: String,
    /// Everything under the path is changed too (`rm -r`, `chmod -R`, `cp -r` into it).
    pub recursive: bool,
    /// The path is removed (or moved away) rather than written.
    pub deletes: bool,
}

/// A command's options and operands, GNU style (options may follow operands until `--`).
struct Parsed {
    /// Short options one letter each (`-rf` is `-r`, `-f`), long options without value.
    flags: Vec<String>,
    /// Options that took a value: (`-t`, `dir`), (`--output`, `f`).
    values: Vec<(String, String)>,
    operands: Vec<String>,
}

impl Parsed {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    fn value(&self, names: &[&str]) -> Option<&String> {
        self.values
            .iter()
            .find(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, v)| v)
    }
}

/// `with_value` lists the options that take a value (`-t`, `--target-directory`).
fn parse(args: &[String], with_value: &[&str]) -> Parsed {
    let mut out = Parsed {
        flags: Vec::new(),
        values: Vec::new(),
        operands: Vec::new(),
    };
    let mut i = 0;
    let mut rest = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if rest || !is_option(arg) {
            out.operands.push(arg.clone());
        } else if arg == "--" {
            rest = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) => out.values.push((format!("--{name}"), value.to_owned())),
                None if with_value.contains(&arg.as_str()) => {
                    let value = args.get(i).cloned().unwrap_or_default();
                    i += 1;
                    out.values.push((arg.clone(), value));
                }
                None => out.flags.push(arg.clone()),
            }
        } else {
            // A cluster of short options; one that takes a value takes the rest of the
            // cluster, or the next argument.
            let letters: Vec<char> = arg[1..].chars().collect();
            for (k, letter) in letters.iter().enumerate() {
                let flag = format!("-{letter}");
                if with_value.contains(&flag.as_str()) {
                    let attached: String = letters[k + 1..].iter().collect();
                    let value = if attached.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned().unwrap_or_default()
                    } else {
                        attached
                    };
                    out.values.push((flag, value));
                    break;
                }
                out.flags.push(flag);
            }
        }
    }
    out
}

fn each(args: &[String], recursive: bool, deletes: bool) -> Vec<WriteTarget> {
    args.iter()
        .map(|arg| WriteTarget {
            arg: arg.clone(),
            recursive,
            deletes,
        })
        .collect()
}

/// A `host:path` operand of scp/rsync names another machine.
fn is_remote(arg: &str) -> bool {
    match arg.find(':') {
        Some(colon) => !arg[..colon].contains('/'),
        None => false,
    }
}

/// The paths `inv` writes, truncates or deletes.
pub(super) fn targets(inv: &Invocation) -> Vec<WriteTarget> {
    let args = &inv.args;
    match inv.name.as_str() {
        "rm" | "srm" => {
            let p = parse(args, &[]);
            let recursive = p.has("-r") || p.has("-R") || p.has("--recursive");
            each(&p.operands, recursive, true)
        }
        "rmdir" | "unlink" => each(&parse(args, &[]).operands, false, true),
        "shred" | "wipe" => each(
            &parse(
                args,
                &["-n", "-s", "--iterations", "--size", "--random-source"],
            )
            .operands,
            false,
            true,
        ),
        "truncate" | "fallocate" => each(
            &parse(
                args,
                &[
                    "-s",
                    "-r",
                    "--size",
                    "--reference",
                    "-l",
                    "-o",
                    "--length",
                    "--offset",
                ],
            )
            .operands,
            false,
            false,
        ),
        "touch" | "mkdir" | "mkfifo" | "mknod" | "sponge" | "tee" => each(
            &parse(
                args,
                &[
                    "-d",
                    "-t",
                    "-r",
                    "--date",
                    "--reference",
                    "-m",
                    "--mode",
                    "-Z",
                ],
            )
            .operands,
            false,
            false,
        ),
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => copy_like(inv),
        "dd" => args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .map(|of| WriteTarget {
                arg: of.to_owned(),
                recursive: false,
                deletes: false,
            })
            .collect(),
        "sed" | "gsed" => sed(args),
        "perl" | "ruby" => in_place_script(args),
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" | "chcon" => permissions(inv),
        "tar" | "gtar" | "bsdtar" => tar(args),
        "unzip" => {
            let p = parse(args, &["-d", "-x", "-P"]);
            each(
                &[p.value(&["-d"]).cloned().unwrap_or_else(|| ".".into())],
                true,
                false,
            )
        }
        "git" => git_clone(args),
        "curl" => {
            let p = parse(
                args,
                &["-o", "--output", "--output-dir", "-c", "--cookie-jar"],
            );
            output_values(
                &p,
                &["-o", "--output", "-c", "--cookie-jar"],
                &["--output-dir"],
            )
        }
        "wget" => {
            let p = parse(
                args,
                &[
                    "-O",
                    "--output-document",
                    "-P",
                    "--directory-prefix",
                    "-o",
                    "--output-file",
                    "-a",
                    "--append-output",
                ],
            );
            output_values(
                &p,
                &[
                    "-O",
                    "--output-document",
                    "-o",
                    "--output-file",
                    "-a",
                    "--append-output",
                ],
                &["-P", "--directory-prefix"],
            )
        }
        _ => generic_output(args),
    }
}

/// `git clone URL DIR` fills DIR.
fn git_clone(args: &[String]) -> Vec<WriteTarget> {
    // Global options come before the subcommand; `-C` and `-c` take a value.
    let mut i = 0;
    while i < args.len() && is_option(&args[i]) {
        i += if matches!(args[i].as_str(), "-C" | "-c") {
            2
        } else {
            1
        };
    }
    if args.get(i).map(String::as_str) != Some("clone") {
        return Vec::new();
    }
    let rest = &args[i + 1..];
    let clone = parse(
        rest,
        &[
            "-b",
            "--branch",
            "-o",
            "--origin",
            "--depth",
            "--reference",
            "-c",
            "--config",
            "--template",
            "-u",
            "--upload-pack",
            "--separate-git-dir",
            "--filter",
            "-j",
            "--jobs",
        ],
    );
    clone
        .operands
        .get(1)
        .map(|dir| each(std::slice::from_ref(dir), true, false))
        .unwrap_or_default()
}

fn output_values(p: &Parsed, files: &[&str], dirs: &[&str]) -> Vec<WriteTarget> {
    p.values
        .iter()
        .filter(|(n, v)| (files.contains(&n.as_str()) || dirs.contains(&n.as_str())) && v != "-")
        .map(|(n, v)| WriteTarget {
            arg: v.clone(),
            recursive: dirs.contains(&n.as_str()),
            deletes: false,
        })
        .collect()
}

/// Compilers, converters, sorters: whatever they are, `-o FILE` and `--output FILE` name
/// the file they write. (Other meanings of `-o`, such as `ssh -o Option=x`, do not look
/// like protected paths.)
fn generic_output(args: &[String]) -> Vec<WriteTarget> {
    const OUTPUT: [&str; 9] = [
        "-o",
        "-out",
        "--out",
        "--output",
        "--output-file",
        "--outfile",
        "--out-file",
        "--log-file",
        "--output-dir",
    ];
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let value = if OUTPUT.contains(&arg.as_str()) {
            args.get(i + 1).cloned()
        } else {
            arg.split_once('=')
                .filter(|(name, _)| OUTPUT.contains(name) && name.starts_with("--"))
                .map(|(_, v)| v.to_owned())
        };
        if let Some(arg) = value {
            out.push(WriteTarget {
                arg,
                recursive: false,
                deletes: false,
            });
        }
    }
    out
}

/// `cp`/`mv`/`install`/`ln`/`rsync`/`scp`: the destination is written; `mv` also removes
/// its sources, and `rsync --delete` prunes the destination.
fn copy_like(inv: &Invocation) -> Vec<WriteTarget> {
    let name = inv.name.as_str();
    let with_value: &[&str] = match name {
        "install" => &[
            "-t",
            "-m",
            "-o",
            "-g",
            "-S",
            "--target-directory",
            "--mode",
            "--owner",
            "--group",
            "--suffix",
        ],
        "rsync" => &[
            "-e",
            "--rsh",
            "-f",
            "--filter",
            "--exclude",
            "--include",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "-T",
            "--temp-dir",
            "--partial-dir",
            "--backup-dir",
            "--rsync-path",
            "--chmod",
            "--log-file",
            "-B",
            "--block-size",
        ],
        "scp" => &["-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J"],
        _ => &["-t", "-S", "--target-directory", "--suffix"],
    };
    let p = parse(&inv.args, with_value);
    if name == "install" && p.has("-d") {
        return each(&p.operands, false, false);
    }
    let recursive = match name {
        "cp" => {
            p.has("-r") || p.has("-R") || p.has("-a") || p.has("--recursive") || p.has("--archive")
        }
        "rsync" => p.flags.iter().any(|f| f.starts_with("--delete")),
        _ => false,
    };
    let operands: Vec<String> = p
        .operands
        .iter()
        .filter(|o| !is_remote(o))
        .cloned()
        .collect();
    let mut out = Vec::new();
    let target_dir = p
        .values
        .iter()
        .find(|(n, _)| n == "-t" || n == "--target-directory")
        .map(|(_, v)| v.clone());
    let (sources, destination) = match target_dir {
        Some(dir) => (operands.as_slice(), Some(dir)),
        None if operands.len() >= 2 || name == "ln" => match operands.split_last() {
            Some((last, rest)) if !rest.is_empty() => (rest, Some(last.clone())),
            // `ln -s target` links into the working directory.
            _ => (&operands[..0], Some(".".into())),
        },
        None => (&operands[..0], None),
    };
    if let Some(dest) = destination {
        out.push(WriteTarget {
            arg: dest,
            recursive,
            deletes: false,
        });
    }
    if name == "mv" {
        out.extend(each(sources, true, true));
    }
    if let Some(log) = p.value(&["--log-file"]) {
        out.push(WriteTarget {
            arg: log.clone(),
            recursive: false,
            deletes: false,
        });
    }
    out
}

/// `sed -i` edits its files in place; without `-e`/`-f` the first operand is the script.
fn sed(args: &[String]) -> Vec<WriteTarget> {
    let in_place = args.iter().any(|a| {
        a.starts_with("--in-place")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
    });
    if !in_place {
        return Vec::new();
    }
    let p = parse(
        args,
        &["-e", "-f", "--expression", "--file", "-l", "--line-length"],
    );
    let script_given = p.value(&["-e", "-f", "--expression", "--file"]).is_some();
    let files = if script_given {
        &p.operands[..]
    } else {
        p.operands.get(1..).unwrap_or(&[])
    };
    each(files, false, false)
}

/// `perl -i`/`ruby -i` edit files in place; the code comes from `-e` or the first operand.
fn in_place_script(args: &[String]) -> Vec<WriteTarget> {
    // Options that take a value end a cluster, so `-Ilib` and `-Mstrict` are not `-i`.
    let p = parse(
        args,
        &["-e", "-E", "-I", "-M", "-m", "-x", "-0", "-C", "-r", "-F"],
    );
    if !p.has("-i") {
        return Vec::new();
    }
    let inline = p.value(&["-e", "-E"]).is_some();
    let files = if inline {
        &p.operands[..]
    } else {
        p.operands.get(1..).unwrap_or(&[])
    };
    each(files, false, false)
}

/// `chmod MODE FILES`, `chown OWNER FILES`: every operand after the first, or all of them
/// with `--reference`. A mode such as `-w` looks like an option but is one.
fn permissions(inv: &Invocation) -> Vec<WriteTarget> {
    let with_value: &[&str] = match inv.name.as_str() {
        "setfacl" => &[
            "-m",
            "-x",
            "-M",
            "-X",
            "--modify",
            "--remove",
            "--set",
            "--set-file",
        ],
        _ => &[],
    };
    let p = parse(&inv.args, with_value);
    let recursive = p.has("-R") || p.has("--recursive");
    let mode_as_option = inv.name == "chmod"
        && inv.args.iter().any(|a| {
            a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "rwxXst".contains(c))
        });
    let reference = p.values.iter().any(|(n, _)| n == "--reference");
    let files = if reference || mode_as_option || inv.name == "setfacl" {
        &p.operands[..]
    } else {
        p.operands.get(1..).unwrap_or(&[])
    };
    each(files, recursive, false)
}

/// `tar -x` writes into `-C DIR` (or the working directory); `tar -c -f FILE` writes FILE.
fn tar(args: &[String]) -> Vec<WriteTarget> {
    // Old-style `tar xzf a.tgz`: the first word is a cluster without a dash.
    let old_style = args
        .first()
        .filter(|a| !a.starts_with('-') && a.chars().all(|c| c.is_ascii_alphabetic()));
    let mut words: Vec<String> = args.to_vec();
    if let Some(first) = old_style {
        words[0] = format!("-{first}");
    }
    let p = parse(
        &words,
        &[
            "-f",
            "-C",
            "--file",
            "--directory",
            "-T",
            "-X",
            "--exclude",
            "-b",
            "-H",
            "--format",
        ],
    );
    let extract = p.has("-x") || p.has("--extract") || p.has("--get");
    let create =
        p.has("-c") || p.has("--create") || p.has("-r") || p.has("-u") || p.has("--append");
    let mut out = Vec::new();
    if extract {
        let dir = p
            .value(&["-C", "--directory"])
            .cloned()
            .unwrap_or_else(|| ".".into());
        out.push(WriteTarget {
            arg: dir,
            recursive: true,
            deletes: false,
        });
    }
    if create {
        if let Some(file) = p.value(&["-f", "--file"]).filter(|f| *f != "-") {
            out.push(WriteTarget {
                arg: file.clone(),
                recursive: false,
                deletes: false,
            });
        }
    }
    out
}

/// Whether `inv` changes files at all (used for commands fed by `xargs` or `find -exec`,
/// whose targets arrive later).
pub(super) fn writes_something(inv: &Invocation) -> bool {
    !targets(inv).is_empty()
        || matches!(
            base_name(&inv.name).as_str(),
            "rm" | "srm"
                | "rmdir"
                | "unlink"
                | "shred"
                | "truncate"
                | "tee"
                | "touch"
                | "chmod"
                | "chown"
                | "chgrp"
                | "mv"
                | "cp"
                | "ln"
                | "install"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command_guard::normalize;

    fn args(cmd: &str) -> Vec<(String, bool, bool)> {
        let words = shell_words::split(cmd).unwrap();
        let inv = normalize(&words).unwrap();
        targets(&inv)
            .into_iter()
            .map(|t| (t.arg, t.recursive, t.deletes))
            .collect()
    }

    fn paths(cmd: &str) -> Vec<String> {
        args(cmd).into_iter().map(|(a, _, _)| a).collect()
    }

    #[test]
    fn targets_of_common_writers() {
        assert_eq!(
            args("rm -rf a b"),
            [("a".into(), true, true), ("b".into(), true, true)]
        );
        assert_eq!(paths("tee -a x y"), ["x", "y"]);
        assert_eq!(paths("truncate -s 0 /etc/passwd"), ["/etc/passwd"]);
        assert_eq!(paths("cp /dev/null /etc/passwd"), ["/etc/passwd"]);
        assert_eq!(paths("cp -t /etc a b"), ["/etc"]);
        assert_eq!(paths("mv a b c"), ["c", "a", "b"]);
        assert_eq!(paths("ln -sf /bin/sh /usr/bin/x"), ["/usr/bin/x"]);
        assert_eq!(
            paths("install -m 755 tool /usr/local/bin/"),
            ["/usr/local/bin/"]
        );
        assert_eq!(paths("dd if=/dev/zero of=/etc/x bs=1"), ["/etc/x"]);
        assert_eq!(
            paths("rsync -a --delete src/ host:/etc/"),
            Vec::<String>::new()
        );
        assert_eq!(
            args("rsync -a --delete src/ ~/"),
            [("~/".into(), true, false)]
        );
    }

    #[test]
    fn in_place_editors_permissions_archives_and_outputs() {
        assert_eq!(paths("sed -i 's/a/b/' /etc/hosts x"), ["/etc/hosts", "x"]);
        assert_eq!(paths("sed -i.bak -e s/a/b/ /etc/hosts"), ["/etc/hosts"]);
        assert_eq!(paths("sed -n p /etc/hosts"), Vec::<String>::new());
        assert_eq!(paths("perl -pi -e 's/a/b/' /etc/hosts"), ["/etc/hosts"]);
        assert_eq!(paths("perl -e 'print 1' /etc/hosts"), Vec::<String>::new());
        assert_eq!(paths("chmod 600 ~/.ssh/id_rsa"), ["~/.ssh/id_rsa"]);
        assert_eq!(paths("chmod -w /etc/x"), ["/etc/x"]);
        assert_eq!(
            args("chown -R u:u /usr/local"),
            [("/usr/local".into(), true, false)]
        );
        assert_eq!(paths("tar xzf a.tgz -C /etc"), ["/etc"]);
        assert_eq!(paths("tar -czf /etc/b.tgz src"), ["/etc/b.tgz"]);
        assert_eq!(
            paths("curl -sSLo /usr/local/bin/x https://e"),
            ["/usr/local/bin/x"]
        );
        assert_eq!(paths("wget -O /etc/x https://e"), ["/etc/x"]);
        assert_eq!(paths("gcc -o /usr/bin/x x.c"), ["/usr/bin/x"]);
        assert_eq!(
            paths("ssh -o StrictHostKeyChecking=no host"),
            ["StrictHostKeyChecking=no"]
        );
        assert_eq!(paths("cat /etc/passwd"), Vec::<String>::new());
        assert_eq!(paths("git clone --depth 1 https://e/r ~/.ssh"), ["~/.ssh"]);
        assert_eq!(paths("git clone https://e/r"), Vec::<String>::new());
        assert_eq!(paths("git -C repo status"), Vec::<String>::new());
    }
}
