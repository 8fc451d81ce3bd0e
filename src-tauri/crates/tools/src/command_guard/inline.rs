//! Interpreter one-liners: `python -c`, `perl -e`, `ruby -e`, `node -e`, `php -r`,
//! `lua -e`, `awk 'PROGRAM'`, and code an interpreter reads from a heredoc or a pipe. The
//! guard cannot run the code, so it reads it the way a reviewer would at a glance:
//! - a call that deletes or writes files (`shutil.rmtree`, `os.remove`, `unlink`,
//!   `rmSync`, `File.delete`, `open(…, 'w')`, …) together with an absolute or home path
//!   outside the workspace and the temp directories is critical;
//! - a recursive deletion of `/`, the home or the workspace is blocked, as `rm -rf` is;
//! - strings handed to `system`, `subprocess`, `exec`, backticks and the like are read
//!   as shell scripts and checked like any other command.
//!
//! It is a heuristic over the source text, not an interpreter: code that builds its paths
//! at run time gets past it, which is what Landlock is for.

use std::path::Path;

use memo_protocol::Phrase;

use super::paths::{is_critical_path, normalize_path, protected_target, resolve_target, Target};
use super::{GuardContext, Invocation};
use crate::shell_parse::SUBSTITUTION;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    Python,
    Perl,
    Ruby,
    Node,
    Deno,
    Php,
    Lua,
    Awk,
}

/// The language of an interpreter command (`python3.11` → Python).
pub(super) fn language(name: &str) -> Option<Lang> {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match stem {
        "python" | "pypy" => Lang::Python,
        "perl" => Lang::Perl,
        "ruby" => Lang::Ruby,
        "node" | "nodejs" | "bun" => Lang::Node,
        "deno" => Lang::Deno,
        "php" => Lang::Php,
        "lua" | "luajit" => Lang::Lua,
        "awk" | "gawk" | "mawk" | "nawk" => Lang::Awk,
        _ => return None,
    })
}

/// The code passed on the command line (`-c CODE`, `-e CODE`, every `-e` of perl).
pub(super) fn inline_code(inv: &Invocation, lang: Lang) -> Vec<String> {
    let args = &inv.args;
    match lang {
        Lang::Python => flagged_code(args, &['c'], &[], &["-W", "-X", "-m"]),
        Lang::Perl => flagged_code(
            args,
            &['e', 'E'],
            &[],
            &["-I", "-M", "-m", "-x", "-0", "-C"],
        ),
        Lang::Ruby => flagged_code(args, &['e'], &[], &["-r", "-I", "-C", "-F", "-E"]),
        Lang::Node => flagged_code(
            args,
            &['e', 'p'],
            &["--eval", "--print"],
            &["-r", "--require", "--import", "--loader"],
        ),
        Lang::Deno => match args.split_first() {
            Some((sub, rest)) if sub == "eval" => rest
                .iter()
                .find(|a| !a.starts_with('-'))
                .cloned()
                .into_iter()
                .collect(),
            _ => Vec::new(),
        },
        Lang::Php => flagged_code(args, &['r'], &[], &["-c", "-d", "-z"]),
        Lang::Lua => flagged_code(args, &['e'], &[], &["-l"]),
        Lang::Awk => {
            if args.iter().any(|a| a == "-f" || a.starts_with("--file")) {
                return Vec::new();
            }
            let mut i = 0;
            while i < args.len() {
                let a = &args[i];
                if a == "--" {
                    return args.get(i + 1).cloned().into_iter().collect();
                }
                if !a.starts_with('-') || a == "-" {
                    return vec![a.clone()];
                }
                // `-F :` and `-v x=1` take a value unless it is attached.
                if a == "-F" || a == "-v" {
                    i += 1;
                }
                i += 1;
            }
            Vec::new()
        }
    }
}

/// Scans options for code: `letters` mark a code option in a cluster (`-c`, `-Bc`, `-pe`),
/// `long` are long code options (`--eval CODE`, `--eval=CODE`), `with_value` options whose
/// value is not code. The first operand ends the options: it is a script file, and what
/// follows are its arguments.
fn flagged_code(
    args: &[String],
    letters: &[char],
    long: &[&str],
    with_value: &[&str],
) -> Vec<String> {
    let mut code = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" || !arg.starts_with('-') || arg == "-" {
            break;
        }
        if arg.starts_with("--") {
            if let Some((name, value)) = arg.split_once('=') {
                if long.contains(&name) {
                    code.push(value.to_owned());
                }
            } else if long.contains(&arg.as_str()) {
                code.extend(args.get(i).cloned());
                i += 1;
            } else if with_value.contains(&arg.as_str()) {
                i += 1;
            }
            continue;
        }
        let cluster: Vec<char> = arg[1..].chars().collect();
        for (k, letter) in cluster.iter().enumerate() {
            let rest: String = cluster[k + 1..].iter().collect();
            if letters.contains(letter) {
                // `node -pe CODE`: the rest of the cluster is more code options.
                if rest.chars().all(|c| letters.contains(&c)) {
                    code.extend(args.get(i).cloned());
                    i += 1;
                } else {
                    code.push(rest);
                }
                break;
            }
            if with_value.contains(&format!("-{letter}").as_str()) {
                if rest.is_empty() {
                    i += 1;
                }
                break;
            }
        }
    }
    code
}

/// What reading some code found.
#[derive(Debug, Default)]
pub(super) struct Review {
    /// The rule of a recursive deletion of `/`, the home or the workspace.
    pub block: Option<&'static str>,
    /// (rule, reason) for code that writes outside the workspace or cannot be read.
    pub ask: Option<(&'static str, Phrase)>,
    /// Strings the code hands to a shell, to be checked as scripts.
    pub scripts: Vec<String>,
}

/// Calls that delete, move or write files, across the languages above.
const WRITES: [&str; 46] = [
    "remove(",
    "unlink",
    "rmdir",
    "rmtree",
    "removedirs",
    "rename(",
    "os.replace",
    "shutil.",
    "write_text",
    "write_bytes",
    "truncate",
    "chmod",
    "chown",
    "symlink",
    "mkdir",
    "makedirs",
    "touch(",
    "copyfile",
    "utime",
    "writeFile",
    "appendFile",
    "rmSync",
    "renameSync",
    "copyFile",
    "cpSync",
    "createWriteStream",
    "fs.rm",
    "rimraf",
    "FileUtils",
    "File.delete",
    "File.write",
    "IO.write",
    "File.rename",
    "Dir.delete",
    "remove_tree",
    "make_path",
    "File::Copy",
    "move(",
    "copy(",
    "file_put_contents",
    "io.open",
    "Files.delete",
    "Files.write",
    "os.Remove",
    "WriteFile",
    "deltree",
];

/// Calls that delete a whole tree.
const RECURSIVE_DELETES: [&str; 6] = [
    "rmtree",
    "rm_rf",
    "rm_r",
    "remove_tree",
    "rimraf",
    "deltree",
];

/// Calls that run a command through a shell or directly.
const EXEC: [&str; 21] = [
    "system",
    "popen",
    "subprocess",
    "os.exec",
    "execSync",
    "execFileSync",
    "spawnSync",
    "spawn(",
    "exec(",
    "execv",
    "child_process",
    "shell_exec",
    "passthru",
    "proc_open",
    "IO.popen",
    "Open3",
    "%x",
    "qx",
    "os.execute",
    "getline",
    "Popen",
];

/// Ways code names the home directory without spelling it.
const HOME_MARKERS: [&str; 6] = [
    "expanduser",
    "Path.home",
    "homedir",
    "HOME",
    "Dir.home",
    "USERPROFILE",
];

/// A string literal of the code and what precedes it.
struct Literal {
    text: String,
    /// It follows `,` or `=`: the position of an `open` mode.
    after_separator: bool,
    start: usize,
    end: usize,
}

fn literals(code: &str, backticks: bool) -> Vec<Literal> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let q = chars[i];
        if !(q == '\'' || q == '"' || (backticks && q == '`')) {
            i += 1;
            continue;
        }
        let start = i;
        let before = chars[..i].iter().rev().find(|c| !c.is_whitespace());
        let mut text = String::new();
        i += 1;
        while i < chars.len() && chars[i] != q {
            if chars[i] == '\\' && i + 1 < chars.len() {
                i += 1;
            }
            text.push(chars[i]);
            i += 1;
        }
        i += 1;
        out.push(Literal {
            text,
            after_separator: matches!(before, Some(',' | '=')),
            start,
            end: i.min(chars.len()),
        });
    }
    out
}

/// `'w'`, `"a+"`, `'wb'`, perl's `'>'`: the mode of an `open` that writes.
fn is_write_mode(lit: &Literal) -> bool {
    let t = lit.text.as_str();
    let short_mode = !t.is_empty()
        && t.len() <= 3
        && t.chars().all(|c| "rwaxbtU+".contains(c))
        && t.contains(['w', 'a', 'x', '+']);
    (lit.after_separator && short_mode)
        || matches!(t, ">" | ">>" | "+<" | "+>" | "|-")
        || (t.starts_with('>') && t.len() > 2)
}

/// Places the guard does not mind code writing to.
fn is_scratch(path: &Path) -> bool {
    const SCRATCH: [&str; 9] = [
        "/tmp",
        "/var/tmp",
        "/private/tmp",
        "/var/folders",
        "/private/var/folders",
        "/dev/null",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/shm",
    ];
    SCRATCH.iter().any(|s| path.starts_with(s)) || path.starts_with(std::env::temp_dir())
}

fn inside_workspace(path: &Path, ctx: &GuardContext) -> bool {
    ctx.workspace_roots
        .iter()
        .any(|root| path.starts_with(normalize_path(root)))
}

pub(super) fn review(lang: Lang, code: &str, ctx: &GuardContext) -> Review {
    let mut review = Review::default();
    let trimmed = code.trim();
    if trimmed == SUBSTITUTION
        || (trimmed.starts_with('$') && !trimmed.contains(char::is_whitespace))
    {
        review.ask = Some((
            "dynamic_code",
            Phrase::GuardCodeUnknown {
                snippet: trimmed.to_owned(),
            },
        ));
        return review;
    }
    let shell_backticks = matches!(lang, Lang::Perl | Lang::Ruby);
    let lits = literals(code, !matches!(lang, Lang::Awk));
    let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let runs_commands = EXEC.iter().any(|e| code.contains(e))
        || (shell_backticks && code.contains('`'))
        || (lang == Lang::Awk && (squeezed.contains("|\"") || squeezed.contains("\"|")));
    if runs_commands {
        review.scripts = argv_groups(code, &lits);
    }
    let recursive = RECURSIVE_DELETES.iter().any(|d| code.contains(d))
        || (code.contains("recursive")
            && ["rmSync", "fs.rm", "rmdirSync", "rm("]
                .iter()
                .any(|d| code.contains(d)));
    let awk_writes = lang == Lang::Awk
        && ["print>\"", "print>>\"", ">\"/", ">>\"/", "printf>\""]
            .iter()
            .any(|p| squeezed.contains(p));
    let writes = recursive
        || awk_writes
        || WRITES.iter().any(|w| code.contains(w))
        || lits.iter().any(is_write_mode);
    if !writes {
        return review;
    }
    let mut paths = Vec::new();
    for candidate in candidates(code, &lits) {
        if let Target::Path(path) = resolve_target(&candidate, ctx) {
            if recursive && is_critical_path(&path, ctx, true) {
                review.block = Some("interpreter_delete_critical_target");
                return review;
            }
            paths.push((candidate, path));
        }
    }
    // A protected area is the more precise reason, so it is looked for first.
    let protected = paths
        .iter()
        .find_map(|(candidate, _)| protected_target(candidate, ctx, recursive));
    if let Some(hit) = protected {
        review.ask = Some((
            "interpreter_write_protected_path",
            Phrase::GuardInlineCodeProtected {
                area: hit.area(),
                what: hit.what(),
            },
        ));
    } else if let Some((_, path)) = paths
        .iter()
        .find(|(_, path)| !inside_workspace(path, ctx) && !is_scratch(path))
    {
        review.ask = Some((
            "interpreter_write_outside_workspace",
            Phrase::GuardInlineCodeOutside {
                path: path.display().to_string(),
            },
        ));
    }
    review
}

/// Paths the code names: absolute and `~` literals (a perl mode prefix such as `>` taken
/// off), and, when the code finds the home directory itself, the home joined with each
/// relative literal (`Path.home() / '.ssh'`).
fn candidates(code: &str, lits: &[Literal]) -> Vec<String> {
    let mut out = Vec::new();
    let mut relative = Vec::new();
    let mut tilde = false;
    for lit in lits {
        let t = lit
            .text
            .trim_start_matches(['>', '<', '+', '|', ' '])
            .trim_end();
        if t == "~" {
            // Usually joined with more below (`expanduser('~')`): handled with them.
            tilde = true;
        } else if t.starts_with('/') || t.starts_with("~/") {
            out.push(t.to_owned());
        } else if !t.is_empty()
            && t.len() < 256
            && !t.contains(char::is_whitespace)
            && t.starts_with(|c: char| c == '.' || c.is_ascii_alphanumeric())
        {
            relative.push(t.to_owned());
        }
    }
    if tilde || HOME_MARKERS.iter().any(|m| code.contains(m)) {
        // The home itself only when nothing more precise names where in it.
        if relative.is_empty() && out.is_empty() {
            out.push("~".to_owned());
        }
        // `HOME + '/.npmrc'`: an absolute-looking literal may be a suffix of the home.
        let suffixes: Vec<String> = out
            .iter()
            .filter(|p| p.starts_with('/'))
            .map(|p| format!("~{p}"))
            .collect();
        out.extend(suffixes);
        out.extend(relative.iter().map(|r| format!("~/{r}")));
    }
    out
}

/// The strings code hands to a shell: each literal, and each run of literals separated
/// only by commas joined with blanks (an argv list such as `['rm', '-rf', '/']`).
fn argv_groups(code: &str, lits: &[Literal]) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out: Vec<String> = lits.iter().map(|l| l.text.clone()).collect();
    let mut group: Vec<&str> = Vec::new();
    let mut last_end: Option<usize> = None;
    for lit in lits {
        let joined = last_end.is_some_and(|end| {
            let between: String = chars[end.min(lit.start)..lit.start].iter().collect();
            between.trim() == ","
        });
        if !joined && group.len() > 1 {
            out.push(group.join(" "));
        }
        if !joined {
            group.clear();
        }
        group.push(&lit.text);
        last_end = Some(lit.end);
    }
    if group.len() > 1 {
        out.push(group.join(" "));
    }
    out.retain(|s| !s.trim().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command_guard::normalize;
    use std::path::PathBuf;

    fn ctx() -> GuardContext {
        GuardContext::with_home(
            PathBuf::from("/work/proj"),
            Some(PathBuf::from("/home/u")),
            vec![PathBuf::from("/work/proj")],
        )
    }

    fn code(cmd: &str) -> Vec<String> {
        let inv = normalize(&shell_words::split(cmd).unwrap()).unwrap();
        inline_code(&inv, language(&inv.name).unwrap())
    }

    #[test]
    fn code_is_found_in_every_spelling() {
        assert_eq!(code("python3 -c 'print(1)'"), ["print(1)"]);
        assert_eq!(code("python3.11 -Bc 'x'"), ["x"]);
        assert_eq!(code("python3 script.py -c 'x'"), Vec::<String>::new());
        assert_eq!(code("perl -pi -e 's/a/b/' -e 'y' f"), ["s/a/b/", "y"]);
        assert_eq!(code("perl -Mstrict -le 'x'"), ["x"]);
        assert_eq!(code("node --eval='x' "), ["x"]);
        assert_eq!(code("node -pe 'x'"), ["x"]);
        assert_eq!(code("ruby -rfileutils -e 'x'"), ["x"]);
        assert_eq!(code("deno eval 'x'"), ["x"]);
        assert_eq!(code("php -r 'x'"), ["x"]);
        assert_eq!(code("awk -F: '{print $1}' /etc/passwd"), ["{print $1}"]);
    }

    fn verdict(lang: Lang, src: &str) -> (Option<&'static str>, Option<&'static str>) {
        let r = review(lang, src, &ctx());
        (r.block, r.ask.map(|(rule, _)| rule))
    }

    #[test]
    fn deletions_and_writes_outside_the_workspace_are_found() {
        use Lang::*;
        assert_eq!(
            verdict(Python, "import shutil; shutil.rmtree('/')").0,
            Some("interpreter_delete_critical_target")
        );
        assert_eq!(
            verdict(
                Python,
                "import shutil,pathlib; shutil.rmtree(pathlib.Path.home())"
            )
            .0,
            Some("interpreter_delete_critical_target")
        );
        assert_eq!(
            verdict(
                Node,
                "require('fs').rmSync('/', {recursive: true, force: true})"
            )
            .0,
            Some("interpreter_delete_critical_target")
        );
        assert_eq!(
            verdict(Ruby, "require 'fileutils'; FileUtils.rm_rf('/usr')").0,
            Some("interpreter_delete_critical_target")
        );
        assert_eq!(
            verdict(Python, "import os; os.remove('/etc/passwd')").1,
            Some("interpreter_write_protected_path")
        );
        assert_eq!(
            verdict(Python, "open('/etc/hosts', 'w').write('x')").1,
            Some("interpreter_write_protected_path")
        );
        assert_eq!(
            verdict(Perl, "open(F, \">/etc/hosts\"); print F 1").1,
            Some("interpreter_write_protected_path")
        );
        assert_eq!(
            verdict(
                Python,
                "import shutil, os; shutil.rmtree(os.path.join(os.path.expanduser('~'), '.ssh'))"
            )
            .1,
            Some("interpreter_write_protected_path")
        );
        assert_eq!(
            verdict(Node, "require('fs').writeFileSync('/opt/x', 'y')").1,
            Some("interpreter_write_outside_workspace")
        );
        assert_eq!(
            verdict(Awk, "{ print > \"/etc/x\" }").1,
            Some("interpreter_write_protected_path")
        );
        for ordinary in [
            "print(1)",
            "import json; print(json.load(open('/etc/os-release')))",
            "open('/tmp/x', 'w').write('1')",
            "open('out.txt', 'w').write('1')",
            "import shutil; shutil.rmtree('build')",
            "open('/work/proj/x', 'w')",
        ] {
            assert_eq!(verdict(Python, ordinary), (None, None), "{ordinary}");
        }
    }

    #[test]
    fn strings_handed_to_a_shell_are_returned_as_scripts() {
        let r = review(
            Lang::Python,
            "import subprocess; subprocess.run(['rm', '-rf', '/'])",
            &ctx(),
        );
        assert!(
            r.scripts.contains(&"rm -rf /".to_owned()),
            "{:?}",
            r.scripts
        );
        let r = review(Lang::Perl, "`rm -rf ~`", &ctx());
        assert!(r.scripts.contains(&"rm -rf ~".to_owned()));
        let r = review(Lang::Python, "print('rm -rf /')", &ctx());
        assert!(r.scripts.is_empty());
        assert_eq!(
            review(Lang::Python, "$CODE", &ctx()).ask.map(|a| a.0),
            Some("dynamic_code")
        );
    }
}
