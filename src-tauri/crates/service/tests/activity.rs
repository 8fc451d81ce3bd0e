//! The activity board through the service: two sessions in two folders run at once; the
//! board says which one waits for an approval (with the command), which one finished, and
//! follows each through to the end; a closed session leaves the board.

mod support;

use std::time::Duration;

use memo_protocol::{ActivityState, Op, ReviewDecision, SessionActivity, UserInput};
use memo_service::{Service, StartRequest};
use memo_test_support::MockResponse;
use support::fixture;

/// Waits (on the board's own change signal) until `check` holds for the snapshot.
async fn until(
    service: &Service,
    check: impl Fn(&[SessionActivity]) -> bool,
) -> Vec<SessionActivity> {
    let mut changes = service.activity_changes();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        changes.mark_unchanged();
        let now = service.activity();
        if check(&now) {
            return now;
        }
        match tokio::time::timeout_at(deadline, changes.changed()).await {
            Ok(Ok(())) => {}
            _ => panic!("the board never got there; last: {now:#?}"),
        }
    }
}

fn find<'a>(all: &'a [SessionActivity], id: &str) -> Option<&'a SessionActivity> {
    all.iter().find(|a| a.session_id.as_str() == id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_run_at_once_and_the_board_follows_each() {
    let f = fixture(vec![
        MockResponse::tool_call(
            "exec_command",
            serde_json::json!({ "cmd": "touch approved.txt" }).to_string(),
        ),
        MockResponse::text("the other one is done"),
        MockResponse::text("created it"),
    ])
    .await;
    let other = tempfile::tempdir().unwrap();
    let waiting = f.start();
    let quick = f
        .service
        .start_session(StartRequest {
            cwd: other.path().to_path_buf(),
            ..StartRequest::default()
        })
        .unwrap();
    let board = f.service.activity();
    assert_eq!(board.len(), 2);
    assert!(board.iter().all(|a| a.state == ActivityState::Idle));

    f.service
        .submit(
            &waiting.id,
            Op::UserTurn {
                input: UserInput::text("make a file"),
            },
        )
        .unwrap();
    let board = until(&f.service, |all| {
        find(all, waiting.id.as_str()).is_some_and(|a| a.state == ActivityState::Waiting)
    })
    .await;
    let entry = find(&board, waiting.id.as_str()).unwrap();
    assert_eq!(entry.approvals.len(), 1);
    assert_eq!(entry.approvals[0].summary, "touch approved.txt");
    assert_eq!(entry.approvals[0].tool_name, "exec_command");
    assert_eq!(entry.label, "make a file");
    let request_id = entry.approvals[0].request_id.clone();

    // The other folder's session runs a whole turn while the first one waits.
    let text = f.turn(&quick.id, "hello").await;
    assert_eq!(text, "the other one is done");
    let board = until(&f.service, |all| {
        find(all, quick.id.as_str()).is_some_and(|a| a.turns_ended == 1)
    })
    .await;
    let done = find(&board, quick.id.as_str()).unwrap();
    assert_eq!(done.state, ActivityState::Idle);
    assert_eq!(
        done.last_outcome,
        Some(memo_protocol::TurnEndReason::Completed)
    );
    assert_eq!(done.cwd, support_canonical(other.path()));
    assert_eq!(
        find(&board, waiting.id.as_str()).unwrap().state,
        ActivityState::Waiting,
        "still waiting: the other session's turn changed nothing of it"
    );

    // Approved (as the sidebar does): the turn goes on and ends.
    f.service
        .submit(
            &waiting.id,
            Op::ResolveApproval {
                request_id,
                decision: ReviewDecision::approve_once(),
            },
        )
        .unwrap();
    let board = until(&f.service, |all| {
        find(all, waiting.id.as_str()).is_some_and(|a| a.turns_ended == 1)
    })
    .await;
    let entry = find(&board, waiting.id.as_str()).unwrap();
    assert_eq!(entry.state, ActivityState::Idle);
    assert!(entry.approvals.is_empty());
    assert!(f.work.path().join("approved.txt").exists());

    // A closed session leaves the board.
    assert!(f.service.close_session(&quick.id).await);
    until(&f.service, |all| find(all, quick.id.as_str()).is_none()).await;
    f.service.shutdown().await;
    until(&f.service, |all| all.is_empty()).await;
    f.mock.shutdown().await;
}

fn support_canonical(path: &std::path::Path) -> String {
    std::fs::canonicalize(path).unwrap().display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subagents_question_after_its_parents_turn_waits_on_the_board_until_answered() {
    let f = fixture(vec![
        MockResponse::tool_call(
            "spawn_agent",
            serde_json::json!({ "message": "CHILD-LATE: make a file" }).to_string(),
        )
        .when("PARENT-LATE"),
        // The parent ends its turn without waiting; the child asks afterwards.
        MockResponse::text("started it").when("PARENT-LATE"),
        MockResponse::tool_call(
            "exec_command",
            serde_json::json!({ "cmd": "touch late.txt" }).to_string(),
        )
        .first_byte_delay(Duration::from_millis(300))
        .when("CHILD-LATE"),
        MockResponse::text("made it").when("CHILD-LATE"),
    ])
    .await;
    let parent = f.start();
    f.turn(&parent.id, "PARENT-LATE").await;
    let board = until(&f.service, |all| {
        find(all, parent.id.as_str()).is_some_and(|a| a.state == ActivityState::Waiting)
    })
    .await;
    let entry = find(&board, parent.id.as_str()).unwrap();
    assert_eq!(entry.turns_ended, 1, "asked after the parent's turn ended");
    assert_eq!(entry.approvals.len(), 1);
    assert_eq!(entry.approvals[0].summary, "touch late.txt");
    let agent = entry.approvals[0]
        .agent
        .clone()
        .expect("names the subagent");
    assert_eq!(agent.agent_type, "general");

    f.service
        .submit(
            &parent.id,
            Op::ResolveApproval {
                request_id: entry.approvals[0].request_id.clone(),
                decision: ReviewDecision::approve_once(),
            },
        )
        .unwrap();
    let board = until(&f.service, |all| {
        find(all, parent.id.as_str()).is_some_and(|a| a.approvals.is_empty())
    })
    .await;
    // No turn of the parent's runs: answered, it is idle, not "running" for good.
    assert_eq!(
        find(&board, parent.id.as_str()).unwrap().state,
        ActivityState::Idle
    );
    f.service.shutdown().await;
}
