//! Checkpoints in a real session: an edit by apply_patch and a `sed -i` run by
//! exec_command are both recorded, announced as `files_changed` with their diffs, and put
//! back by a restore, while a file the user made stays.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::*;
use memo_checkpoints::{Checkpoints, Limits, Meta};
use memo_engine::tools::ToolRegistry;
use memo_engine::{spawn_session, ApprovalMode, SessionStart, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{AgentEvent, ChangeKind, Op, UserInput};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_and_shell_edits_are_announced_and_restorable() {
    let mock = MockLlmServer::start_with(vec![
        MockResponse::tool_call(
            "apply_patch",
            r#"{"file_path":"a.txt","old_string":"alpha","new_string":"ALPHA"}"#,
        ),
        MockResponse::tool_call(
            "exec_command",
            r#"{"cmd":"sed -i 's/beta/BETA/' b.txt && echo made > new.txt"}"#,
        ),
        MockResponse::text("Done."),
    ])
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("a.txt"), "alpha\n").unwrap();
    std::fs::write(work.join("b.txt"), "beta\n").unwrap();
    let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
    let checkpoints =
        Checkpoints::open(&dir.path().join("checkpoints"), Limits::default()).unwrap();
    let mut p = params(
        WireApi::Openai,
        &mock,
        &work,
        store,
        "s-cp",
        ToolRegistry::builtin(),
        TurnLimits {
            retry: fast_retry(),
            approval_mode: ApprovalMode::Dangerous,
            ..TurnLimits::default()
        },
    );
    p.checkpoints = Some(checkpoints.clone());
    let session = spawn_session(p, SessionStart::New).unwrap();
    let mut events = session.subscribe(0).unwrap();
    session
        .submit(Op::UserTurn {
            input: UserInput::text("edit both"),
        })
        .unwrap();
    let mut seen = Vec::new();
    loop {
        let env = tokio::time::timeout(std::time::Duration::from_secs(20), events.recv())
            .await
            .unwrap()
            .unwrap();
        let end = matches!(env.event, AgentEvent::TurnEnded { .. });
        seen.push(env);
        if end {
            break;
        }
    }
    // The user saves a file of their own after the turn.
    std::fs::write(work.join("mine.txt"), "mine\n").unwrap();

    let announced: Vec<(String, Vec<String>, ChangeKind)> = seen
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::FilesChanged { changes, .. } => Some(changes),
            _ => None,
        })
        .flatten()
        .map(|c| (c.path.clone(), c.sources.clone(), c.kind))
        .collect();
    assert_eq!(
        announced,
        [
            (
                "a.txt".to_owned(),
                vec!["apply_patch".to_owned()],
                ChangeKind::Modified
            ),
            (
                "b.txt".to_owned(),
                vec!["exec_command".to_owned()],
                ChangeKind::Modified
            ),
            (
                "new.txt".to_owned(),
                vec!["exec_command".to_owned()],
                ChangeKind::Created
            ),
        ]
    );
    // Each announcement comes before its call's result, with the diff.
    let first = seen
        .iter()
        .position(|e| matches!(e.event, AgentEvent::FilesChanged { .. }))
        .unwrap();
    let AgentEvent::FilesChanged {
        changes, call_id, ..
    } = &seen[first].event
    else {
        unreachable!()
    };
    assert!(call_id.is_some());
    assert!(changes[0].diff.as_ref().unwrap().unified.contains("+ALPHA"));
    assert!(matches!(
        seen[first + 1].event,
        AgentEvent::ToolCallEnd { .. }
    ));

    // Restore the code to before the message.
    let started = seen
        .iter()
        .find(|e| matches!(e.event, AgentEvent::TurnStarted { .. }))
        .unwrap()
        .seq;
    let from = checkpoints
        .first_after_seq("s-cp", started)
        .unwrap()
        .unwrap();
    let meta = Meta {
        session_id: "s-cp".into(),
        seq: 100,
        turn_id: None,
        call_id: None,
        source: "restore".into(),
    };
    checkpoints
        .restore(&work, from, &HashSet::new(), &meta)
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(work.join("a.txt")).unwrap(),
        "alpha\n"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("b.txt")).unwrap(),
        "beta\n"
    );
    assert!(!work.join("new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(work.join("mine.txt")).unwrap(),
        "mine\n"
    );

    let _ = session.submit(Op::Shutdown);
    session.closed().await;
    mock.shutdown().await;
}
