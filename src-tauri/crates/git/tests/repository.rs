//! memo-git against real repositories and a bare remote on disk: per-hunk staging and
//! unstaging checked with git's own `diff --cached`, commits with hooks and identity,
//! pushes accepted and refused, renames, untracked files and a merge in progress.

use std::path::Path;
use std::sync::Once;

use memo_git::{GitError, Repo};
use memo_protocol::{
    CommitRequest, GitChange, GitOperation, GitStageRequest, Phrase, PushRequest, PushResult,
};
use memo_test_support::git::{git, init_repo};

/// No global or system git config: the tests' repositories say who commits, and a
/// person's own config on the machine cannot change what the tests see.
fn isolated() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let empty = std::env::temp_dir().join("memo-git-tests-empty-gitconfig");
        std::fs::write(&empty, "").unwrap();
        std::env::set_var("GIT_CONFIG_GLOBAL", &empty);
        std::env::set_var("GIT_CONFIG_NOSYSTEM", "1");
    });
}

const TEN: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n";

/// A repository whose `f.txt` then gets three separate changes (three hunks).
fn three_hunks(dir: &Path) -> Repo {
    isolated();
    init_repo(dir, &[("f.txt", TEN)]);
    let changed: String = TEN
        .lines()
        .map(|line| match line {
            "2" => "two\n".to_owned(),
            "15" => "fifteen\n".to_owned(),
            "28" => "twenty-eight\n".to_owned(),
            other => format!("{other}\n"),
        })
        .collect();
    std::fs::write(dir.join("f.txt"), changed).unwrap();
    Repo::open(dir).unwrap()
}

fn stage(repo: &Repo, path: &str, hunks: Option<Vec<u32>>, unstage: bool) {
    let diff = repo.file_diff(path).unwrap();
    let side = if unstage { diff.staged } else { diff.unstaged };
    repo.stage(&GitStageRequest {
        path: path.into(),
        unstage,
        hunks,
        shown_diff: side.map(|d| d.unified),
    })
    .unwrap();
}

#[test]
fn two_of_three_hunks_staged_are_exactly_what_git_diff_cached_shows_and_one_comes_back_out() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    assert_eq!(
        repo.file_diff("f.txt")
            .unwrap()
            .unstaged
            .unwrap()
            .hunks
            .len(),
        3
    );

    stage(&repo, "f.txt", Some(vec![0, 2]), false);
    let cached = git(dir.path(), &["diff", "--cached", "-U0"]);
    assert!(
        cached.contains("+two") && cached.contains("+twenty-eight"),
        "{cached}"
    );
    assert!(!cached.contains("fifteen"), "{cached}");
    let unstaged = git(dir.path(), &["diff", "-U0"]);
    assert!(
        unstaged.contains("+fifteen") && !unstaged.contains("+two"),
        "{unstaged}"
    );

    let diff = repo.file_diff("f.txt").unwrap();
    assert_eq!(diff.staged.as_ref().unwrap().hunks.len(), 2);
    assert_eq!(diff.unstaged.as_ref().unwrap().hunks.len(), 1);
    let status = repo.status().unwrap();
    assert_eq!(status.files[0].staged, Some(GitChange::Modified));
    assert_eq!(status.files[0].unstaged, Some(GitChange::Modified));

    // The second staged hunk (twenty-eight) out again: its numbers were worked out anew.
    stage(&repo, "f.txt", Some(vec![1]), true);
    let cached = git(dir.path(), &["diff", "--cached", "-U0"]);
    assert!(
        cached.contains("+two") && !cached.contains("twenty-eight"),
        "{cached}"
    );
    // The file itself never changed.
    assert!(std::fs::read_to_string(dir.path().join("f.txt"))
        .unwrap()
        .contains("twenty-eight"));
}

#[test]
fn a_diff_that_changed_since_it_was_shown_is_not_staged() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    let shown = repo.file_diff("f.txt").unwrap().unstaged.unwrap().unified;
    std::fs::write(dir.path().join("f.txt"), TEN.replacen("5\n", "five\n", 1)).unwrap();
    let err = repo
        .stage(&GitStageRequest {
            path: "f.txt".into(),
            unstage: false,
            hunks: Some(vec![0]),
            shown_diff: Some(shown),
        })
        .unwrap_err();
    assert!(
        matches!(err, GitError::Refused(Phrase::GitChangedSinceShown { .. })),
        "{err}"
    );
    assert_eq!(git(dir.path(), &["diff", "--cached"]), "");
}

#[test]
fn untracked_files_renames_and_deletions_are_staged_and_unstaged_whole() {
    let dir = tempfile::tempdir().unwrap();
    isolated();
    init_repo(
        dir.path(),
        &[("old.rs", "fn a() {}\n"), ("gone.txt", "x\n")],
    );
    git(dir.path(), &["mv", "old.rs", "new.rs"]);
    std::fs::remove_file(dir.path().join("gone.txt")).unwrap();
    std::fs::write(dir.path().join("notes.md"), "hello\n").unwrap();
    let repo = Repo::open(dir.path()).unwrap();

    let status = repo.status().unwrap();
    let find = |p: &str| status.files.iter().find(|f| f.path == p).cloned().unwrap();
    assert_eq!(find("new.rs").renamed_from.as_deref(), Some("old.rs"));
    assert_eq!(find("gone.txt").unstaged, Some(GitChange::Deleted));
    assert!(find("notes.md").untracked);

    stage(&repo, "notes.md", None, false);
    stage(&repo, "gone.txt", None, false);
    let names = git(dir.path(), &["diff", "--cached", "--name-status"]);
    assert!(
        names.contains("A\tnotes.md") && names.contains("D\tgone.txt"),
        "{names}"
    );

    // Unstaging the rename brings its source back to the index as well.
    stage(&repo, "new.rs", None, true);
    let names = git(dir.path(), &["diff", "--cached", "--name-status"]);
    assert!(
        !names.contains("new.rs") && !names.contains("old.rs"),
        "{names}"
    );
    assert!(dir.path().join("new.rs").exists());
}

#[test]
fn a_hunk_of_a_sessions_own_diff_is_kept_in_the_index_and_found_there() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    // The same change as Memo's changes panel cuts it (its own diff, not git's).
    let mut session = repo.file_diff("f.txt").unwrap().unstaged.unwrap();
    session.unified = session.unified[session.unified.find("\n@@").unwrap() + 1..].to_owned();
    session.unified = format!("--- a/f.txt\n+++ b/f.txt\n{}", session.unified);

    repo.stage_patch("f.txt", &session, &[1]).unwrap();
    let cached = git(dir.path(), &["diff", "--cached", "-U0"]);
    assert!(
        cached.contains("+fifteen") && !cached.contains("+two"),
        "{cached}"
    );
    assert!(repo.index_has("f.txt", &session, 1).unwrap());
    assert!(!repo.index_has("f.txt", &session, 0).unwrap());

    repo.unstage_patch("f.txt", &session, &[1]).unwrap();
    assert_eq!(git(dir.path(), &["diff", "--cached"]), "");
}

#[test]
fn a_failing_pre_commit_hook_commits_nothing_and_its_output_is_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    stage(&repo, "f.txt", Some(vec![0]), false);
    let hook = dir.path().join(".git/hooks/pre-commit");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho 'lint: f.txt has a problem' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let head = git(dir.path(), &["rev-parse", "HEAD"]);

    let err = repo
        .commit(&CommitRequest {
            message: "Change two".into(),
            allow_flagged: false,
        })
        .unwrap_err();
    match err {
        GitError::Refused(Phrase::GitCommitRefused { output }) => {
            assert!(output.contains("lint: f.txt has a problem"), "{output}")
        }
        other => panic!("{other}"),
    }
    assert_eq!(git(dir.path(), &["rev-parse", "HEAD"]), head);
    assert!(
        git(dir.path(), &["diff", "--cached"]).contains("+two"),
        "still staged"
    );

    std::fs::remove_file(&hook).unwrap();
    let done = repo
        .commit(&CommitRequest {
            message: "Change two\n\nOnly the first hunk.".into(),
            allow_flagged: false,
        })
        .unwrap();
    assert_eq!(done.summary, "Change two");
    assert_eq!(
        git(dir.path(), &["log", "-1", "--format=%an <%ae>"]),
        "Test <test@example.com>"
    );
    let committed = git(dir.path(), &["show", "--format=", "-U0", "HEAD"]);
    assert!(
        committed.contains("+two") && !committed.contains("fifteen"),
        "{committed}"
    );
}

#[test]
fn commits_are_refused_with_the_reason_mid_merge_without_identity_or_with_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    let message = |m: &str, allow: bool| CommitRequest {
        message: m.into(),
        allow_flagged: allow,
    };
    assert!(matches!(
        repo.commit(&message("x", false)).unwrap_err(),
        GitError::Refused(Phrase::GitNothingStaged)
    ));

    std::fs::write(
        dir.path().join(".env"),
        // A made-up key, put together so that no scanner takes the test for one.
        format!(
            "OPENAI_API_KEY={}-{}\n",
            "sk-proj", "abcdefghijklmnopqrstuvwxyz0123456789"
        ),
    )
    .unwrap();
    stage(&repo, ".env", None, false);
    let preview = repo.commit_preview().unwrap();
    assert_eq!(preview.flagged.len(), 1);
    assert!(matches!(
        repo.commit(&message("add env", false)).unwrap_err(),
        GitError::Refused(Phrase::GitSecretsStaged { count: 1 })
    ));

    git(dir.path(), &["config", "--unset", "user.name"]);
    assert_eq!(
        repo.commit_preview().unwrap().blocked,
        Some(Phrase::GitNoIdentity)
    );
    git(dir.path(), &["config", "user.name", "Test"]);
    repo.commit(&message("add env", true)).unwrap();

    // A merge stopped on a conflict.
    git(dir.path(), &["checkout", "-q", "-b", "other", "HEAD~1"]);
    std::fs::write(dir.path().join(".env"), "A=1\n").unwrap();
    git(dir.path(), &["add", ".env"]);
    git(dir.path(), &["commit", "-q", "-m", "other env"]);
    let merge = memo_git::run::output(dir.path(), &["merge", "main"]).unwrap();
    assert!(!merge.ok);
    assert_eq!(repo.operation().unwrap(), Some(GitOperation::Merge));
    assert!(repo.status().unwrap().files.iter().any(|f| f.conflicted));
    match repo.commit(&message("merge", true)).unwrap_err() {
        GitError::Refused(Phrase::GitOperationInProgress { operation }) => {
            assert_eq!(operation, "merge")
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_push_asks_for_a_remote_sets_the_upstream_and_a_diverged_remote_is_explained() {
    let root = tempfile::tempdir().unwrap();
    let (work, bare, other) = (
        root.path().join("work"),
        root.path().join("remote.git"),
        root.path().join("other"),
    );
    std::fs::create_dir(&work).unwrap();
    let repo = three_hunks(&work);
    git(
        root.path(),
        &["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()],
    );
    git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);

    match repo
        .push(&PushRequest {
            remote: None,
            force: false,
        })
        .unwrap()
    {
        PushResult::ChooseRemote { branch, remotes } => {
            assert_eq!(
                (branch.as_str(), remotes),
                ("main", vec!["origin".to_owned()])
            )
        }
        other => panic!("{other:?}"),
    }
    let pushed = repo
        .push(&PushRequest {
            remote: Some("origin".into()),
            force: false,
        })
        .unwrap();
    assert!(
        matches!(
            pushed,
            PushResult::Pushed {
                set_upstream: true,
                ..
            }
        ),
        "{pushed:?}"
    );
    assert_eq!(
        git(&work, &["rev-parse", "--abbrev-ref", "@{upstream}"]),
        "origin/main"
    );
    assert_eq!(
        git(&bare, &["rev-parse", "main"]),
        git(&work, &["rev-parse", "HEAD"])
    );

    // Someone else pushes first.
    git(
        root.path(),
        &[
            "clone",
            "-q",
            bare.to_str().unwrap(),
            other.to_str().unwrap(),
        ],
    );
    for (k, v) in [("user.name", "Other"), ("user.email", "o@example.com")] {
        git(&other, &["config", k, v]);
    }
    std::fs::write(other.join("theirs.txt"), "x\n").unwrap();
    git(&other, &["add", "-A"]);
    git(&other, &["commit", "-q", "-m", "theirs"]);
    git(&other, &["push", "-q"]);

    stage(&repo, "f.txt", None, false);
    repo.commit(&CommitRequest {
        message: "ours".into(),
        allow_flagged: false,
    })
    .unwrap();
    assert_eq!(repo.unpushed().unwrap().len(), 1);
    let theirs = git(&bare, &["rev-parse", "main"]);
    match repo
        .push(&PushRequest {
            remote: None,
            force: false,
        })
        .unwrap()
    {
        PushResult::Rejected {
            reason: Phrase::GitPushBehind { remote, branch },
            ..
        } => {
            assert_eq!((remote.as_str(), branch.as_str()), ("origin", "main"))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        git(&bare, &["rev-parse", "main"]),
        theirs,
        "the remote is as it was"
    );
}

#[test]
fn a_pull_request_plan_names_the_cli_command_or_the_compare_page() {
    let dir = tempfile::tempdir().unwrap();
    let repo = three_hunks(dir.path());
    git(dir.path(), &["checkout", "-q", "-b", "memo/fix"]);
    git(
        dir.path(),
        &["remote", "add", "origin", "git@github.com:memo/desk.git"],
    );
    let with_gh = repo
        .pull_request_plan("Fix it", "Body", &|name| {
            (name == "gh").then(|| "/usr/bin/gh".into())
        })
        .unwrap();
    assert_eq!(
        with_gh.command,
        ["gh", "pr", "create", "--head", "memo/fix", "--title", "Fix it", "--body", "Body"]
    );
    let without = repo.pull_request_plan("Fix it", "Body", &|_| None).unwrap();
    assert!(without.command.is_empty());
    assert_eq!(
        without.compare_url.as_deref(),
        Some("https://github.com/memo/desk/compare/memo/fix?expand=1")
    );
}

#[test]
fn a_worktree_commits_on_its_own_branch_and_leaves_the_main_checkout_alone() {
    let root = tempfile::tempdir().unwrap();
    let main = root.path().join("main");
    std::fs::create_dir(&main).unwrap();
    let repo = three_hunks(&main);
    let tree = root.path().join("tree");
    git(
        &main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "memo/task",
            tree.to_str().unwrap(),
        ],
    );
    std::fs::write(tree.join("task.txt"), "done\n").unwrap();
    let in_tree = Repo::open(&tree).unwrap();
    assert_eq!(
        in_tree.status().unwrap().branch.as_deref(),
        Some("memo/task")
    );
    stage(&in_tree, "task.txt", None, false);
    in_tree
        .commit(&CommitRequest {
            message: "Do the task".into(),
            allow_flagged: false,
        })
        .unwrap();
    assert_eq!(
        git(&main, &["log", "-1", "--format=%s", "memo/task"]),
        "Do the task"
    );
    assert_eq!(git(&main, &["log", "-1", "--format=%s", "main"]), "init");
    // The main checkout's own change is still there, unstaged.
    assert!(repo.file_diff("f.txt").unwrap().unstaged.is_some());
    assert_eq!(git(&main, &["diff", "--cached"]), "");
}

#[test]
fn a_rebase_stopped_on_a_conflict_refuses_a_commit_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    isolated();
    init_repo(dir.path(), &[("a.txt", "base\n")]);
    git(dir.path(), &["checkout", "-q", "-b", "topic"]);
    std::fs::write(dir.path().join("a.txt"), "topic\n").unwrap();
    git(dir.path(), &["commit", "-qam", "topic"]);
    git(dir.path(), &["checkout", "-q", "main"]);
    std::fs::write(dir.path().join("a.txt"), "main\n").unwrap();
    git(dir.path(), &["commit", "-qam", "main"]);
    git(dir.path(), &["checkout", "-q", "topic"]);
    assert!(
        !memo_git::run::output(dir.path(), &["rebase", "main"])
            .unwrap()
            .ok
    );
    let repo = Repo::open(dir.path()).unwrap();
    assert_eq!(repo.operation().unwrap(), Some(GitOperation::Rebase));
    match repo.commit_preview().unwrap().blocked {
        Some(Phrase::GitOperationInProgress { operation }) => assert_eq!(operation, "rebase"),
        other => panic!("{other:?}"),
    }
}
