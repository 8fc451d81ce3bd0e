//! `memo-cli git` on a real repository and a bare remote on disk, with the mock LLM
//! drafting: stage one hunk of two, a drafted commit with --yes, a push that asks for a
//! remote then sets the upstream, a pull request that says what it would run.

mod support;

use std::path::Path;

use memo_test_support::git::{git, init_repo};
use serde_json::json;
use support::{Home, Mock};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn in_repo(home: &Home, dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = home.command(args);
    cmd.arg("--cwd").arg(dir);
    cmd.output().unwrap()
}

#[test]
fn stage_a_hunk_commit_with_a_drafted_message_push_and_plan_a_pull_request() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let work = home.work.path();
    let lines: String = (1..=20).map(|n| format!("{n}\n")).collect();
    init_repo(work, &[("n.txt", &lines)]);
    let changed = lines
        .replacen("2\n", "two\n", 1)
        .replace("\n19\n", "\nnineteen\n");
    std::fs::write(work.join("n.txt"), changed).unwrap();

    let diff = in_repo(&home, work, &["git", "diff", "n.txt"]);
    let text = stdout(&diff);
    assert!(
        text.contains("# not staged") && text.contains("[0] @@") && text.contains("[1] @@"),
        "{text}"
    );

    let staged = in_repo(&home, work, &["git", "stage", "n.txt", "--hunk", "1"]);
    assert!(staged.status.success(), "{}", stderr(&staged));
    let cached = git(work, &["diff", "--cached", "-U0"]);
    assert!(
        cached.contains("+nineteen") && !cached.contains("+two"),
        "{cached}"
    );

    // Without --yes and no terminal, the draft is printed and nothing is committed.
    mock.push(json!([{"text": "Spell out nineteen"}, {"text": "Spell out nineteen"}]));
    let head = git(work, &["rev-parse", "HEAD"]);
    let asked = in_repo(&home, work, &["git", "commit", "--draft"]);
    assert!(asked.status.success(), "{}", stderr(&asked));
    assert!(stdout(&asked).contains("Spell out nineteen"));
    assert_eq!(git(work, &["rev-parse", "HEAD"]), head);

    let committed = in_repo(&home, work, &["git", "commit", "--draft", "--yes"]);
    assert!(committed.status.success(), "{}", stderr(&committed));
    assert!(
        stdout(&committed).contains("Spell out nineteen"),
        "{}",
        stdout(&committed)
    );
    assert_eq!(
        git(work, &["log", "-1", "--format=%s"]),
        "Spell out nineteen"
    );
    let requests = mock.requests();
    let body = requests.last().unwrap().to_string();
    assert!(
        body.contains("+nineteen") && body.contains("init"),
        "staged diff and log style: {body}"
    );

    let remote = dir.path().join("remote.git");
    git(
        dir.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ],
    );
    git(work, &["remote", "add", "origin", remote.to_str().unwrap()]);
    let push = in_repo(&home, work, &["git", "push"]);
    assert_eq!(push.status.code(), Some(2));
    assert!(
        stderr(&push).contains("--remote origin"),
        "{}",
        stderr(&push)
    );
    let push = in_repo(&home, work, &["git", "push", "--remote", "origin"]);
    assert!(push.status.success(), "{}", stderr(&push));
    assert!(
        stdout(&push).contains("pushed to origin/main (now its upstream)"),
        "{}",
        stdout(&push)
    );
    assert_eq!(
        git(&remote, &["log", "-1", "--format=%s", "main"]),
        "Spell out nineteen"
    );

    // A GitHub remote with no gh installed: the compare page, nothing run.
    git(
        work,
        &[
            "remote",
            "set-url",
            "origin",
            "git@github.com:memo/desk.git",
        ],
    );
    let pr = in_repo(
        &home,
        work,
        &[
            "git",
            "pr",
            "--title",
            "Spell it",
            "--body",
            "Why",
            "--dry-run",
            "--json",
        ],
    );
    assert!(pr.status.success(), "{}", stderr(&pr));
    let plan: serde_json::Value = serde_json::from_slice(&pr.stdout).unwrap();
    assert_eq!(plan["title"], "Spell it");
    assert_eq!(
        plan["compare_url"],
        "https://github.com/memo/desk/compare/main?expand=1"
    );
}

#[test]
fn a_commit_in_the_middle_of_a_merge_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let work = home.work.path();
    init_repo(work, &[("a.txt", "base\n")]);
    git(work, &["checkout", "-q", "-b", "side"]);
    std::fs::write(work.join("a.txt"), "side\n").unwrap();
    git(work, &["commit", "-qam", "side"]);
    git(work, &["checkout", "-q", "main"]);
    std::fs::write(work.join("a.txt"), "main\n").unwrap();
    git(work, &["commit", "-qam", "main"]);
    let _ = std::process::Command::new("git")
        .arg("-C")
        .arg(work)
        .args(["merge", "side"])
        .output();
    let out = in_repo(&home, work, &["git", "commit", "-m", "merged"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a git merge is in progress"),
        "{}",
        stderr(&out)
    );
}
