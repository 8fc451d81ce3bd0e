//! From review to commit through the service, on a real repository changed by a real
//! session and a bare remote on disk: hunks kept in the changes panel are staged for real
//! (and last past a restart), a file marked reviewed stays so, the commit message is
//! drafted by the session's model from the staged diff, the commit holds exactly the kept
//! hunks, the push asks for a remote and then lands, and a pull request with no forge says
//! so. Outside git, kept hunks are marks in the store.

mod support;

use std::path::Path;
use std::sync::Arc;

use memo_config::MemoryCredentialStore;
use memo_protocol::{
    ChangeScope, CommitRequest, ErrorCode, KeepRequest, Phrase, PushRequest, PushResult,
    ReviewedRequest,
};
use memo_service::GitPlace;
use memo_test_support::git::git;
use memo_test_support::MockResponse;
use support::{fixture, service_at};

const NUMBERS: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n";

fn three_edits() -> MockResponse {
    let patch = serde_json::json!({
        "file_path": "n.txt",
        "edits": [
            {"old_string": "\n2\n", "new_string": "\nTWO\n"},
            {"old_string": "\n15\n", "new_string": "\nFIFTEEN\n"},
            {"old_string": "\n28\n", "new_string": "\nTWENTY-EIGHT\n"}
        ]
    });
    MockResponse::tool_call("apply_patch", patch.to_string())
}

fn repo_with_remote(work: &Path, remote: &Path) {
    git(work, &["init", "-q", "-b", "main"]);
    for (k, v) in [
        ("user.name", "Pat Doe"),
        ("user.email", "pat@example.com"),
        ("commit.gpgsign", "false"),
    ] {
        git(work, &["config", k, v]);
    }
    std::fs::write(work.join("n.txt"), NUMBERS).unwrap();
    git(work, &["add", "-A"]);
    git(work, &["commit", "-q", "-m", "numbers: start"]);
    git(
        work,
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_hunks_are_staged_and_committed_with_a_drafted_message_then_pushed() {
    let f = fixture(vec![
        three_edits(),
        MockResponse::text("Edited three lines."),
        MockResponse::text("<think>short</think>numbers: spell out two and twenty-eight\n\nFifteen stays for later."),
        MockResponse::text("Title: Spell out two numbers\n\nAsked to spell out numbers; two of three done."),
    ])
    .await;
    f.configure("approval_mode = \"dangerous\"", "");
    let remote_dir = tempfile::tempdir().unwrap();
    let remote = remote_dir.path().join("remote.git");
    repo_with_remote(f.work.path(), &remote);
    let id = f.start().id;
    f.turn(&id, "spell out the numbers").await;

    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    let file = &report.files[0];
    let diff = file.diff.clone().unwrap();
    assert_eq!(diff.hunks.len(), 3);
    assert!(file.kept.is_empty() && !file.reviewed);

    let keep = |hunks: Vec<u32>, shown: &str, undo: bool| KeepRequest {
        scope: ChangeScope::Session,
        path: "n.txt".into(),
        hunks: Some(hunks),
        shown_diff: shown.into(),
        undo,
    };
    let after = f
        .service
        .keep_change(&id, &keep(vec![0, 1, 2], &diff.unified, false))
        .unwrap();
    assert_eq!(after.files[0].kept, [0, 1, 2]);
    // Taken back, one hunk is unstaged again.
    let after = f
        .service
        .keep_change(&id, &keep(vec![1], &diff.unified, true))
        .unwrap();
    assert_eq!(after.files[0].kept, [0, 2]);
    let cached = git(f.work.path(), &["diff", "--cached", "-U0"]);
    assert!(
        cached.contains("+TWO") && cached.contains("+TWENTY-EIGHT") && !cached.contains("FIFTEEN"),
        "{cached}"
    );

    // A diff shown before the file changed again is not acted on.
    let stale = format!("{}x", diff.unified);
    let err = f
        .service
        .keep_change(&id, &keep(vec![1], &stale, false))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Conflict);

    f.service
        .mark_reviewed(
            &id,
            &ReviewedRequest {
                scope: ChangeScope::Session,
                path: "n.txt".into(),
                shown_diff: diff.unified.clone(),
                reviewed: true,
            },
        )
        .unwrap();
    // The panel closed and the app restarted: git and the store remember.
    let again = service_at(f.home.path(), Arc::new(MemoryCredentialStore::new()));
    let report = again.session_changes(&id, ChangeScope::Session).unwrap();
    assert_eq!(report.files[0].kept, [0, 2]);
    assert!(report.files[0].reviewed);

    let preview = f.service.commit_preview(GitPlace::Session(&id)).unwrap();
    assert_eq!(
        (preview.files.clone(), preview.blocked.clone()),
        (vec!["n.txt".to_owned()], None)
    );
    let message = f
        .service
        .draft_commit_message(GitPlace::Session(&id))
        .await
        .unwrap();
    assert_eq!(
        message,
        "numbers: spell out two and twenty-eight\n\nFifteen stays for later."
    );
    let asked = f.mock.last_request().unwrap().body.to_string();
    assert!(
        asked.contains("+TWO") && !asked.contains("+FIFTEEN"),
        "the staged diff only: {asked}"
    );
    assert!(asked.contains("numbers: start"), "the log's style: {asked}");

    let done = f
        .service
        .commit(
            GitPlace::Session(&id),
            &CommitRequest {
                message,
                allow_flagged: false,
            },
        )
        .unwrap();
    assert_eq!(done.summary, "numbers: spell out two and twenty-eight");
    assert_eq!(
        git(f.work.path(), &["log", "-1", "--format=%an <%ae>"]),
        "Pat Doe <pat@example.com>"
    );
    let committed = git(f.work.path(), &["show", "--format=", "-U0", "HEAD"]);
    assert!(
        committed.contains("+TWO") && !committed.contains("FIFTEEN"),
        "{committed}"
    );
    // What was not kept is still there, unstaged.
    assert!(git(f.work.path(), &["diff"]).contains("+FIFTEEN"));
    // In the panel the committed hunks say so, and cannot be "unstaged" into a revert.
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    assert_eq!(report.files[0].committed, [0, 2]);
    assert!(report.files[0].kept.is_empty());
    let shown = report.files[0].diff.as_ref().unwrap().unified.clone();
    let err = f
        .service
        .keep_change(&id, &keep(vec![0], &shown, true))
        .unwrap_err();
    assert_eq!(
        err.phrase(),
        Some(&Phrase::GitHunkCommitted {
            path: "n.txt".into()
        })
    );
    assert_eq!(
        git(f.work.path(), &["diff", "--cached"]),
        "",
        "the index is as committed"
    );

    match f
        .service
        .push(
            GitPlace::Session(&id),
            &PushRequest {
                remote: None,
                force: false,
            },
        )
        .unwrap()
    {
        PushResult::ChooseRemote { remotes, .. } => assert_eq!(remotes, ["origin"]),
        other => panic!("{other:?}"),
    }
    let pushed = f
        .service
        .push(
            GitPlace::Session(&id),
            &PushRequest {
                remote: Some("origin".into()),
                force: false,
            },
        )
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
        git(&remote, &["log", "-1", "--format=%s", "main"]),
        done.summary
    );

    // A remote on no forge: the drafted request can only be said, not opened.
    let plan = f
        .service
        .draft_pull_request(GitPlace::Session(&id))
        .await
        .unwrap();
    assert_eq!(plan.title, "Spell out two numbers");
    assert!(plan.body.contains("two of three done"));
    assert!(plan.command.is_empty() && plan.compare_url.is_none());
    let err = f
        .service
        .open_pull_request(
            GitPlace::Session(&id),
            &memo_protocol::PullRequestRequest {
                title: plan.title,
                body: plan.body,
            },
        )
        .unwrap_err();
    assert_eq!(err.phrase(), Some(&Phrase::GitNoForge));
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outside_git_kept_hunks_are_marks_that_last() {
    let f = fixture(vec![three_edits(), MockResponse::text("Edited.")]).await;
    f.configure("approval_mode = \"dangerous\"", "");
    std::fs::write(f.work.path().join("n.txt"), NUMBERS).unwrap();
    let id = f.start().id;
    f.turn(&id, "spell out the numbers").await;
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    assert!(!report.git);
    let diff = report.files[0].diff.clone().unwrap();
    f.service
        .keep_change(
            &id,
            &KeepRequest {
                scope: ChangeScope::Session,
                path: "n.txt".into(),
                hunks: Some(vec![1]),
                shown_diff: diff.unified,
                undo: false,
            },
        )
        .unwrap();
    let again = service_at(f.home.path(), Arc::new(MemoryCredentialStore::new()));
    assert_eq!(
        again
            .session_changes(&id, ChangeScope::Session)
            .unwrap()
            .files[0]
            .kept,
        [1]
    );
    f.finish().await;
}
