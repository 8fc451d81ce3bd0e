//! The orchestrator with the real built-in tools: approval modes and session grants keyed
//! by fingerprint, partial hunk acceptance, guards, and tools stopped at session end.

mod common;

use std::time::Duration;

use common::*;
use memo_engine::ApprovalMode;
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, ApprovalRequest, EditKind, Op, ReviewDecision, ToolErrorKind, ToolStatus, ToolView,
    TurnEndReason,
};
use memo_test_support::MockResponse;

async fn harness(mode: ApprovalMode, responses: Vec<MockResponse>) -> Harness {
    Harness::builtin(mode, responses).await
}

fn edit(file: &str, old: &str, new: &str) -> String {
    serde_json::json!({"file_path": file, "old_string": old, "new_string": new}).to_string()
}

async fn next_approval(h: &mut Harness) -> ApprovalRequest {
    let seen = h
        .until(|e| {
            matches!(
                e,
                AgentEvent::ApprovalRequested { .. } | AgentEvent::TurnEnded { .. }
            )
        })
        .await;
    match &seen.last().unwrap().event {
        AgentEvent::ApprovalRequested { request } => request.clone(),
        other => panic!("expected an approval request, got {other:?}"),
    }
}

fn resolve(h: &Harness, request: &ApprovalRequest, decision: ReviewDecision) {
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision,
        })
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_mode_caches_a_session_grant_per_file_not_per_tool() {
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_call("apply_patch", edit("a.txt", "one", "ONE")),
            MockResponse::tool_call("apply_patch", edit("a.txt", "two", "TWO")),
            MockResponse::tool_call("apply_patch", edit("b.txt", "three", "THREE")),
            MockResponse::text("done"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.txt"), "one\ntwo\n").unwrap();
    std::fs::write(h.workdir().join("b.txt"), "three\n").unwrap();
    h.submit("edit");
    let first = next_approval(&mut h).await;
    assert!(
        first.diff.as_ref().unwrap().unified.contains("+ONE"),
        "{:?}",
        first.diff
    );
    resolve(&h, &first, ReviewDecision::ApproveForSession);
    // The second edit of a.txt runs without asking; b.txt is another fingerprint.
    let third = next_approval(&mut h).await;
    assert!(third.fingerprint.contains("b.txt"), "{}", third.fingerprint);
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("a.txt")).unwrap(),
        "ONE\nTWO\n"
    );
    resolve(&h, &third, ReviewDecision::approve_once());
    let events = h.until_turn_end().await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("b.txt")).unwrap(),
        "THREE\n"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_mode_asks_every_time_and_dangerous_never_asks_for_writes() {
    let mut h = harness(
        ApprovalMode::Strict,
        vec![
            MockResponse::tool_call("apply_patch", edit("a.txt", "one", "1")),
            MockResponse::tool_call("apply_patch", edit("a.txt", "two", "2")),
            MockResponse::text("done"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.txt"), "one\ntwo\n").unwrap();
    h.submit("edit");
    let first = next_approval(&mut h).await;
    resolve(&h, &first, ReviewDecision::ApproveForSession);
    let second = next_approval(&mut h).await;
    assert_eq!(
        second.fingerprint, first.fingerprint,
        "same file, asked again in strict mode"
    );
    resolve(&h, &second, ReviewDecision::approve_once());
    h.until_turn_end().await;
    h.shutdown().await;

    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call("apply_patch", edit("a.txt", "one", "1")),
            MockResponse::text("done"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.txt"), "one\n").unwrap();
    let events = h.run_turn("edit").await;
    assert!(!events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. })));
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("a.txt")).unwrap(),
        "1\n"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepting_some_hunks_applies_exactly_those() {
    let original: String = (1..=40).map(|i| format!("line {i}\n")).collect();
    let args = serde_json::json!({
        "file_path": "f.txt",
        "edits": [
            {"old_string": "line 2\n", "new_string": "line two\n"},
            {"old_string": "line 38\n", "new_string": "line thirty-eight\n"}
        ]
    })
    .to_string();
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_call("apply_patch", args),
            MockResponse::text("ok"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("f.txt"), &original).unwrap();
    h.submit("edit twice");
    let seen = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    let AgentEvent::ApprovalRequested { request } = &seen[seen.len() - 1].event else {
        unreachable!("until stops at an approval request")
    };
    let request = request.clone();
    let diff = request.diff.clone().expect("a diff");
    assert_eq!(diff.hunks.len(), 2, "{}", diff.unified);
    // Before the answer the call's card has its file and the proposed change.
    assert!(seen.iter().any(|e| matches!(&e.event,
        AgentEvent::ToolCallView { view: ToolView::FileEdit(edit), .. }
            if edit.files[0].path == "f.txt"
                && edit.files[0].diff.as_ref().map(|d| d.hunks.len()) == Some(2))));
    resolve(
        &h,
        &request,
        ReviewDecision::ApproveOnce {
            accepted_hunks: Some(vec![1]),
            accepted_edits: None,
        },
    );
    let events = h.until_turn_end().await;
    assert_eq!(
        tool_ends(&events)[0].1,
        ToolStatus::Ok,
        "{:?}",
        tool_ends(&events)
    );
    // Its end says which hunks were written.
    assert!(events.iter().any(|e| matches!(&e.event,
        AgentEvent::ToolCallEnd { view: Some(ToolView::FileEdit(edit)), .. }
            if edit.files[0].change == EditKind::Modify
                && edit.files[0].applied_hunks == Some(vec![1]))));
    let expected = original.replace("line 38\n", "line thirty-eight\n");
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("f.txt")).unwrap(),
        expected
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepting_some_edits_applies_exactly_those_and_tells_the_model() {
    let args = serde_json::json!({
        "file_path": "f.txt",
        "edits": [
            {"old_string": "one\n", "new_string": "ONE\n"},
            {"old_string": "two\n", "new_string": "TWO\n"}
        ]
    })
    .to_string();
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_call("apply_patch", args),
            MockResponse::text("ok"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("f.txt"), "one\ntwo\n").unwrap();
    h.submit("edit twice");
    let request = next_approval(&mut h).await;
    let diff = request.diff.clone().expect("a diff");
    assert_eq!(diff.hunks.len(), 1, "{}", diff.unified);
    assert_eq!(diff.edits.len(), 2, "{:?}", diff.edits);
    resolve(
        &h,
        &request,
        ReviewDecision::ApproveOnce {
            accepted_hunks: None,
            accepted_edits: Some(vec![1]),
        },
    );
    let events = h.until_turn_end().await;
    assert_eq!(
        tool_ends(&events)[0].1,
        ToolStatus::Ok,
        "{:?}",
        tool_ends(&events)
    );
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("f.txt")).unwrap(),
        "one\nTWO\n"
    );
    let last = h.mock.last_request().unwrap().body.to_string();
    assert!(last.contains("refused edit(s) 1"), "{last}");
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_naming_an_edit_that_does_not_exist_writes_nothing() {
    let args = serde_json::json!({
        "file_path": "f.txt", "old_string": "one", "new_string": "ONE"
    })
    .to_string();
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_call("apply_patch", args),
            MockResponse::text("ok"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("f.txt"), "one\n").unwrap();
    h.submit("edit");
    let request = next_approval(&mut h).await;
    resolve(
        &h,
        &request,
        ReviewDecision::ApproveOnce {
            accepted_hunks: None,
            accepted_edits: Some(vec![0]),
        },
    );
    let events = h.until_turn_end().await;
    assert_eq!(
        tool_ends(&events)[0].1,
        ToolStatus::Error,
        "{:?}",
        tool_ends(&events)
    );
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("f.txt")).unwrap(),
        "one\n"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_commands_and_path_escapes_go_back_as_policy_errors() {
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_calls([
                ("exec_command", r#"{"cmd":"rm -rf /"}"#),
                ("read_file", r#"{"file_path":"../../../../etc/passwd"}"#),
            ]),
            MockResponse::text("ok"),
        ],
    )
    .await;
    let events = h.run_turn("do bad things").await;
    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 2);
    for end in &ends {
        assert_eq!(end.2, Some(ToolErrorKind::PolicyDenied), "{end:?}");
    }
    let exec = ends.iter().find(|e| e.0 == "exec_command").unwrap();
    assert!(exec.3.contains("<system_hint type=\"tool_call_denied\" tool=\"exec_command\" reason=\"dangerous_command\""), "{}", exec.3);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_end_kills_commands_still_running() {
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call(
                "exec_command",
                r#"{"cmd":"echo $$ > pid.txt; exec sleep 300","yield_time_ms":500}"#,
            ),
            MockResponse::text("started"),
        ],
    )
    .await;
    let events = h.run_turn("start a server").await;
    assert!(
        tool_ends(&events)[0].3.contains("session"),
        "{}",
        tool_ends(&events)[0].3
    );
    let pid: i32 = std::fs::read_to_string(h.workdir().join("pid.txt"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let alive = |pid: i32| {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_default()
                .contains(") Z")
    };
    assert!(alive(pid));
    h.session.submit(Op::Shutdown).unwrap();
    h.session.closed().await;
    let mut gone = false;
    for _ in 0..50 {
        if !alive(pid) {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "process {pid} survived the session");
    h.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_command_streams_its_output_as_events_before_its_result() {
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call(
                "exec_command",
                r#"{"cmd":"for i in 1 2 3; do echo step $i; sleep 0.3; done","login":false,"yield_time_ms":10000}"#,
            ),
            MockResponse::text("built"),
        ],
    )
    .await;
    let events = h.run_turn("build it").await;
    let end_at = events
        .iter()
        .position(|e| matches!(e.event, AgentEvent::ToolCallEnd { .. }))
        .unwrap();
    let live: Vec<(usize, &str)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.event {
            AgentEvent::ToolOutput { chunk, .. } => Some((i, chunk.as_str())),
            _ => None,
        })
        .collect();
    assert!(live.len() >= 2, "output came in one piece: {live:?}");
    assert!(live.iter().all(|(i, _)| *i < end_at), "{live:?}");
    let text: String = live.iter().map(|(_, c)| *c).collect();
    assert_eq!(text, "step 1\nstep 2\nstep 3\n");
    // The model sees the tool result as before, and nothing else from the live view.
    let bodies = h.request_bodies();
    let results = sent_tool_results(WireApi::Openai, &bodies[1]);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].content.contains("step 1\nstep 2\nstep 3"),
        "{results:?}"
    );
    assert_eq!(
        bodies[1]["messages"].as_array().unwrap().len(),
        4,
        "{}",
        bodies[1]
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_sees_what_an_earlier_call_of_the_same_step_did() {
    // One step: create a file, then edit it. The edit is previewed only after the write
    // ran, so it finds the file instead of failing with "does not exist".
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_calls([
                (
                    "write_file",
                    serde_json::json!({"file_path": "new.txt", "content": "one\ntwo\n"})
                        .to_string(),
                ),
                ("apply_patch", edit("new.txt", "two", "three")),
            ]),
            MockResponse::text("done"),
        ],
    )
    .await;
    let events = h.run_turn("make it").await;
    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 2);
    assert!(ends.iter().all(|e| e.1 == ToolStatus::Ok), "{ends:?}");
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("new.txt")).unwrap(),
        "one\nthree\n"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_auto_mode_a_command_asks_every_time_even_after_approve_for_session() {
    // Memo Code's auto mode: writes can be granted for the session, commands cannot
    // (a kept rule can allow them: tests/rules.rs).
    let exec = |cmd: &str| {
        serde_json::json!({"cmd": cmd, "login": false, "yield_time_ms": 2000}).to_string()
    };
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_call("exec_command", exec("ls -a")),
            MockResponse::tool_call("exec_command", exec("ls -a")),
            MockResponse::text("done"),
        ],
    )
    .await;
    h.submit("run it twice");
    let first = next_approval(&mut h).await;
    assert_eq!(first.command.as_deref(), Some("ls -a"));
    resolve(&h, &first, ReviewDecision::ApproveForSession);
    let second = next_approval(&mut h).await;
    assert_eq!(second.command.as_deref(), Some("ls -a"), "asked again");
    resolve(&h, &second, ReviewDecision::Deny { reason: None });
    let events = h.until_turn_end().await;
    let ends = tool_ends(&events);
    assert_eq!(ends.last().unwrap().2, Some(ToolErrorKind::ApprovalDenied));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_critical_command_asks_despite_a_grant_and_in_dangerous_mode() {
    let exec = |cmd: &str| {
        serde_json::json!({"cmd": cmd, "login": false, "yield_time_ms": 2000}).to_string()
    };
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call("exec_command", exec("git push --force origin main")),
            MockResponse::text("done"),
        ],
    )
    .await;
    h.submit("push it");
    let request = next_approval(&mut h).await;
    assert_eq!(request.risk, memo_protocol::RiskLevel::Critical);
    // Shutting the session down denies what is pending: the turn ends, nothing runs.
    h.session.submit(Op::Shutdown).unwrap();
    let seen = h.until(|e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    assert!(
        seen.iter().any(|e| matches!(
            &e.event,
            AgentEvent::ApprovalResolved {
                request_id,
                decision: ReviewDecision::Unanswered { because: memo_protocol::Phrase::TurnStoppedBeforeAnswer },
            } if *request_id == request.request_id
        )),
        "{:?}",
        kinds(&seen)
    );
    assert!(tool_ends(&seen).iter().all(|e| e.1 != ToolStatus::Ok));
    h.session.closed().await;
    h.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approve_step_covers_the_rest_of_the_steps_calls_to_that_tool_only() {
    let mut h = harness(
        ApprovalMode::Auto,
        vec![
            MockResponse::tool_calls([
                ("apply_patch", edit("a.txt", "one", "ONE")),
                ("apply_patch", edit("b.txt", "two", "TWO")),
                (
                    "exec_command",
                    serde_json::json!({"cmd": "true"}).to_string(),
                ),
                ("apply_patch", edit("c.txt", "three", "THREE")),
            ]),
            MockResponse::tool_call("apply_patch", edit("a.txt", "ONE", "uno")),
            MockResponse::text("done"),
        ],
    )
    .await;
    for (file, text) in [("a.txt", "one\n"), ("b.txt", "two\n"), ("c.txt", "three\n")] {
        std::fs::write(h.workdir().join(file), text).unwrap();
    }
    h.submit("edit all");
    let first = next_approval(&mut h).await;
    assert!(first.fingerprint.contains("a.txt"));
    resolve(&h, &first, ReviewDecision::ApproveStep);
    // b.txt and c.txt need no answer; the command in between still asks.
    let command = next_approval(&mut h).await;
    assert_eq!(command.tool_name, "exec_command");
    resolve(&h, &command, ReviewDecision::approve_once());
    // The next step's edit asks again.
    let next_step = next_approval(&mut h).await;
    assert!(next_step.fingerprint.contains("a.txt"));
    resolve(&h, &next_step, ReviewDecision::Deny { reason: None });
    h.until_turn_end().await;
    for (file, text) in [("a.txt", "ONE\n"), ("b.txt", "TWO\n"), ("c.txt", "THREE\n")] {
        assert_eq!(
            std::fs::read_to_string(h.workdir().join(file)).unwrap(),
            text
        );
    }
    h.shutdown().await;
}
