//! The changes panel and restore through the service, on a real git repository changed
//! by a real session: apply_patch and a shell `sed -i`, hunk revert, conflicts, restore
//! of code and conversation, and undo.

mod support;

use std::process::Command;

use memo_protocol::{ChangeScope, ErrorCode, RestoreAction, RestoreMode, RevertRequest};
use memo_test_support::MockResponse;
use support::fixture;

const A: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";

fn sh(dir: &std::path::Path, script: &str) {
    assert!(Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .status()
        .unwrap()
        .success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_revert_and_restore_on_a_git_repository() {
    let patch = serde_json::json!({
        "file_path": "a.txt",
        "edits": [
            {"old_string": "two\n", "new_string": "TWO\n"},
            {"old_string": "eleven\n", "new_string": "ELEVEN\n"}
        ]
    });
    let f = fixture(vec![
        MockResponse::tool_call("apply_patch", patch.to_string()),
        MockResponse::tool_call("exec_command", r#"{"cmd":"sed -i 's/beta/BETA/' b.txt"}"#),
        MockResponse::text("Both edited."),
    ])
    .await;
    f.configure("approval_mode = \"dangerous\"", "");
    let work = f.work.path();
    std::fs::write(work.join("a.txt"), A).unwrap();
    std::fs::write(work.join("b.txt"), "alpha\nbeta\n").unwrap();
    sh(work, "git init -q . && git -c user.email=t@e -c user.name=t commit -qm init --allow-empty && git add -A && git -c user.email=t@e -c user.name=t commit -qm files");

    let session = f.start();
    let id = session.id.clone();
    f.turn(&id, "edit a and b").await;
    // The header's count, read from the whole log: both tool calls' files.
    assert_eq!(f.service.session_status(&id).unwrap().changed_files, 2);

    for scope in [
        ChangeScope::LastTurn,
        ChangeScope::Session,
        ChangeScope::Uncommitted,
    ] {
        let report = f.service.session_changes(&id, scope).unwrap();
        let files: Vec<(&str, u32, u32)> = report
            .files
            .iter()
            .map(|c| (c.path.as_str(), c.added, c.removed))
            .collect();
        assert_eq!(files, [("a.txt", 2, 2), ("b.txt", 1, 1)], "{scope:?}");
        assert!(report.git);
    }
    let session_report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    assert_eq!(session_report.files[0].sources, ["apply_patch"]);
    assert_eq!(session_report.files[1].sources, ["exec_command"]);

    // Revert the first hunk of a.txt: "two" comes back, "ELEVEN" stays.
    let a = &session_report.files[0];
    let shown = a.diff.as_ref().unwrap().unified.clone();
    assert_eq!(a.diff.as_ref().unwrap().hunks.len(), 2);
    let stale = RevertRequest {
        scope: ChangeScope::Session,
        path: "a.txt".into(),
        hunks: Some(vec![0]),
        shown_diff: "--- something else\n".into(),
        force: false,
    };
    assert_eq!(
        f.service.revert_change(&id, &stale).unwrap_err().code(),
        ErrorCode::Conflict
    );
    let after = f
        .service
        .revert_change(
            &id,
            &RevertRequest {
                shown_diff: shown,
                ..stale
            },
        )
        .unwrap();
    let on_disk = std::fs::read_to_string(work.join("a.txt")).unwrap();
    assert_eq!(on_disk, A.replace("eleven", "ELEVEN"));
    assert_eq!(after.changes.files[0].diff.as_ref().unwrap().hunks.len(), 1);
    assert!(after.undo_checkpoint.is_some() && after.held_back.is_none());

    // A user edit after the agent's makes b.txt a conflict for the restore.
    std::fs::write(work.join("b.txt"), "alpha\nBETA\nmine\n").unwrap();
    let started = f.turn_starts(&id)[0].0;
    let preview = f.service.preview_restore(&id, started - 1).unwrap();
    let actions: Vec<(&str, RestoreAction)> = preview
        .files
        .iter()
        .map(|r| (r.path.as_str(), r.action))
        .collect();
    assert_eq!(
        actions,
        [
            ("a.txt", RestoreAction::Write),
            ("b.txt", RestoreAction::Conflict)
        ]
    );

    let restored = f
        .service
        .restore(&id, started - 1, RestoreMode::Both, &[])
        .unwrap();
    assert_eq!(std::fs::read_to_string(work.join("a.txt")).unwrap(), A);
    assert_eq!(
        std::fs::read_to_string(work.join("b.txt")).unwrap(),
        "alpha\nBETA\nmine\n"
    );
    assert_eq!(restored.message.as_deref(), Some("edit a and b"));
    let forked = restored.session.unwrap();
    assert_ne!(forked.id, id);

    // Undo the restore: the reviewed state of a.txt is back.
    let undo = restored.undo_checkpoint.unwrap();
    f.service.undo_restore(&id, undo, &[]).unwrap();
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        A.replace("eleven", "ELEVEN")
    );

    // The checkpoints list names what made each change.
    let sources: Vec<String> = f
        .service
        .session_checkpoints(&id)
        .unwrap()
        .into_iter()
        .map(|c| c.source)
        .collect();
    assert!(
        sources.starts_with(&["apply_patch".to_owned(), "exec_command".to_owned()]),
        "{sources:?}"
    );
    assert!(sources.contains(&"review".to_owned()) && sources.contains(&"restore".to_owned()));
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revert_keeps_the_lines_a_person_added_after_the_agent_or_refuses_naming_them() {
    let f = fixture(vec![
        MockResponse::tool_call(
            "exec_command",
            r#"{"cmd":"sed -i 's/two/TWO/; s/three/THREE/' a.txt"}"#,
        ),
        MockResponse::text("Edited."),
    ])
    .await;
    f.configure("approval_mode = \"dangerous\"", "");
    let work = f.work.path();
    std::fs::write(work.join("a.txt"), A).unwrap();
    let session = f.start();
    let id = session.id.clone();
    f.turn(&id, "shout two and three").await;
    let agent = A.replace("two", "TWO").replace("three", "THREE");
    assert_eq!(std::fs::read_to_string(work.join("a.txt")).unwrap(), agent);

    // The person adds a line inside the agent's change, by hand, before any new turn.
    let mine = agent.replace("TWO\n", "TWO\nmy own line\n");
    std::fs::write(work.join("a.txt"), &mine).unwrap();
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    let file = &report.files[0];
    assert_eq!(
        file.sources,
        ["exec_command", "outside"],
        "shown as the person's too"
    );
    let whole = RevertRequest {
        scope: ChangeScope::Session,
        path: "a.txt".into(),
        hunks: None,
        shown_diff: file.diff.as_ref().unwrap().unified.clone(),
        force: false,
    };
    let refused = f.service.revert_change(&id, &whole).unwrap();
    let held = refused.held_back.expect("held back");
    assert_eq!(held.lines, "3");
    assert!(
        held.message
            .contains("line(s) 3 were changed after the agent's edit"),
        "{}",
        held.message
    );
    assert!(refused.undo_checkpoint.is_none());
    let per_hunk = RevertRequest {
        hunks: Some(vec![0]),
        ..whole.clone()
    };
    let refused = f.service.revert_change(&id, &per_hunk).unwrap();
    assert_eq!(refused.held_back.map(|h| h.lines).as_deref(), Some("3"));
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        mine,
        "nothing lost"
    );

    // A line of theirs away from the agent's change: the revert keeps it.
    let far = agent.replace("ten\n", "ten\nmy own line\n");
    std::fs::write(work.join("a.txt"), &far).unwrap();
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    let whole = RevertRequest {
        shown_diff: report.files[0].diff.as_ref().unwrap().unified.clone(),
        ..whole
    };
    let kept = f.service.revert_change(&id, &whole).unwrap();
    let reverted = A.replace("ten\n", "ten\nmy own line\n");
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        reverted
    );
    // An undo offered after the file changed again is held back, not written over.
    std::fs::write(work.join("a.txt"), format!("{reverted}later\n")).unwrap();
    let undone = f
        .service
        .undo_revert(&id, kept.undo_checkpoint.unwrap(), "a.txt", false)
        .unwrap();
    assert_eq!(undone.files[0].action, RestoreAction::Conflict);
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        format!("{reverted}later\n")
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revert_anyway_drops_the_persons_line_and_undo_brings_it_back() {
    let f = fixture(vec![
        MockResponse::tool_call("exec_command", r#"{"cmd":"sed -i 's/two/TWO/' a.txt"}"#),
        MockResponse::text("Edited."),
    ])
    .await;
    f.configure("approval_mode = \"dangerous\"", "");
    let work = f.work.path();
    std::fs::write(work.join("a.txt"), A).unwrap();
    let session = f.start();
    let id = session.id.clone();
    f.turn(&id, "shout two").await;
    let mine = A.replace("two\n", "TWO\nmy own line\n");
    std::fs::write(work.join("a.txt"), &mine).unwrap();
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    let whole = RevertRequest {
        scope: ChangeScope::Session,
        path: "a.txt".into(),
        hunks: None,
        shown_diff: report.files[0].diff.as_ref().unwrap().unified.clone(),
        force: false,
    };
    assert!(f
        .service
        .revert_change(&id, &whole)
        .unwrap()
        .held_back
        .is_some());
    // "Revert anyway" drops the person's line, and Undo brings it back.
    let forced = f
        .service
        .revert_change(
            &id,
            &RevertRequest {
                force: true,
                ..whole.clone()
            },
        )
        .unwrap();
    assert_eq!(std::fs::read_to_string(work.join("a.txt")).unwrap(), A);
    assert!(
        forced.changes.files.is_empty(),
        "{:?}",
        forced.changes.files
    );
    let undo = forced.undo_checkpoint.expect("an undo checkpoint");
    let undone = f.service.undo_revert(&id, undo, "a.txt", false).unwrap();
    assert_eq!(
        undone
            .files
            .iter()
            .map(|r| (r.path.as_str(), r.action))
            .collect::<Vec<_>>(),
        [("a.txt", RestoreAction::Write)]
    );
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        mine,
        "the person's line is back"
    );
    // ...as theirs: the undo is no change of Memo's, so a second revert asks again
    // (and a rewind would call the file a conflict) instead of taking the line for the
    // agent's.
    let report = f
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    assert!(report.files[0].sources.contains(&"outside".to_owned()));
    let again = f
        .service
        .revert_change(
            &id,
            &RevertRequest {
                shown_diff: report.files[0].diff.as_ref().unwrap().unified.clone(),
                ..whole
            },
        )
        .unwrap();
    assert!(again.held_back.is_some(), "{again:?}");
    assert_eq!(std::fs::read_to_string(work.join("a.txt")).unwrap(), mine);
    f.finish().await;
}
