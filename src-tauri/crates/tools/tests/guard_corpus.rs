//! The command guard against the corpus in `tests/data/guard_corpus.txt`: destructive
//! commands in many spellings (redirections, writers, find/xargs, substitutions,
//! `sh -c` in every form, interpreter one-liners) must be blocked or asked about, and as
//! many ordinary commands must pass. Every misjudged line is reported with its line
//! number, the command, what was expected and what the guard said.

use std::path::PathBuf;

use memo_tools::command_guard::{check_command, GuardContext, Verdict};

const CORPUS: &str = include_str!("data/guard_corpus.txt");

fn ctx() -> GuardContext {
    GuardContext::with_home(
        PathBuf::from("/work/proj"),
        Some(PathBuf::from("/home/u")),
        vec![PathBuf::from("/work/proj")],
    )
}

struct Case {
    line: usize,
    expected: &'static str,
    command: String,
}

fn cases() -> Vec<Case> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (expected, command) = l
                .split_once(char::is_whitespace)
                .unwrap_or_else(|| panic!("line {}: no command: {l:?}", i + 1));
            let expected = match expected {
                "ok" => "ok",
                "ask" => "ask",
                "block" => "block",
                other => panic!("line {}: unknown verdict {other:?}", i + 1),
            };
            Case {
                line: i + 1,
                expected,
                command: command.trim_start().replace('␤', "\n").replace('⇥', "\t"),
            }
        })
        .collect()
}

fn class(v: &Verdict) -> &'static str {
    match v {
        Verdict::Allow => "ok",
        Verdict::Ask { .. } => "ask",
        Verdict::Block { .. } => "block",
    }
}

#[test]
fn the_corpus_is_judged_as_written() {
    let cases = cases();
    let count = |k: &str| cases.iter().filter(|c| c.expected == k).count();
    assert!(cases.len() >= 200, "corpus too small: {}", cases.len());
    assert!(
        count("ok") >= 100,
        "too few ordinary commands: {}",
        count("ok")
    );
    assert!(count("ask") + count("block") >= 150);
    let ctx = ctx();
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = check_command(&c.command, &ctx);
            (class(&got) != c.expected).then(|| {
                format!(
                    "line {}: expected {}, got {got:?}\n    {}",
                    c.line,
                    c.expected,
                    c.command.replace('\n', "␤")
                )
            })
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} commands misjudged ({} ok / {} ask / {} block expected):\n{}",
        wrong.len(),
        cases.len(),
        count("ok"),
        count("ask"),
        count("block"),
        wrong.join("\n")
    );
}

#[test]
fn asks_say_why_and_blocks_name_the_command() {
    let ctx = ctx();
    match check_command("echo x | sudo tee -a /etc/sudoers", &ctx) {
        Verdict::Ask { rule, reason } => {
            let reason = reason.english();
            assert_eq!(rule, "write_protected_path");
            assert!(
                reason.contains("/etc/sudoers") && reason.contains("system files"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    match check_command("rm -rf ~/.ssh", &ctx) {
        Verdict::Ask { reason, .. } => {
            let reason = reason.english();
            assert!(reason.contains("credentials"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        check_command("ls; $(echo rm) -rf /", &ctx),
        Verdict::Block {
            rule: "rm_recursive_critical_target",
            segment: "$(echo rm) -rf /".into()
        }
    );
    assert!(matches!(
        check_command("$(which rm) -rf x", &ctx),
        Verdict::Ask {
            rule: "dynamic_command_word",
            ..
        }
    ));
}
