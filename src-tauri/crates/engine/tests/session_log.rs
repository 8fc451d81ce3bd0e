//! The event log: sessions reopen with the same conversation; approvals and interrupts
//! during tools leave a history every provider accepts.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use futures::future::BoxFuture;
use memo_engine::tools::{Tool, ToolContext, ToolRegistry, ToolResult};
use memo_engine::{spawn_session, SessionStart, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{AgentEvent, Op, ReviewDecision, RiskLevel, ToolErrorKind, TurnEndReason};
use memo_test_support::MockResponse;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopened_session_sends_the_same_conversation() {
    for api in ALL_APIS {
        let mut h = Harness::start(
            api,
            vec![
                MockResponse::tool_call("read_file", r#"{"file_path":"n.txt"}"#),
                MockResponse::text("It says n.").with_reasoning("Let me think."),
                MockResponse::text("second answer"),
            ],
        )
        .await;
        std::fs::write(h.workdir().join("n.txt"), "n\n").unwrap();
        h.run_turn("read n.txt").await;
        let live = h.session.history();
        h.session.submit(Op::Shutdown).unwrap();
        h.session.closed().await;

        // Reopen from the store alone, with a fresh client.
        let params = params(
            api,
            &h.mock,
            &h.workdir(),
            h.store.clone(),
            "s-1",
            ToolRegistry::builtin(),
            TurnLimits::default(),
        );
        let reopened = spawn_session(params, SessionStart::Resume).unwrap();
        assert_eq!(
            reopened.history(),
            live,
            "{api:?}: rebuilt history equals the live one"
        );
        let mut events = reopened.subscribe(reopened.last_seq()).unwrap();
        reopened
            .submit(Op::UserTurn {
                input: memo_protocol::UserInput::text("and then?"),
            })
            .unwrap();
        loop {
            let env = tokio::time::timeout(Duration::from_secs(10), events.recv())
                .await
                .unwrap()
                .unwrap();
            if matches!(env.event, AgentEvent::TurnEnded { .. }) {
                break;
            }
        }
        let bodies = h.request_bodies();
        assert_eq!(bodies.len(), 3);
        // The third request carries the whole first turn: both tool pairing and text.
        assert_eq!(
            sent_tool_results(api, &bodies[2]),
            sent_tool_results(api, &bodies[1])
        );
        let first_conversation_len = match api {
            WireApi::Gemini => bodies[1]["contents"].as_array().unwrap().len(),
            _ => bodies[1]["messages"].as_array().unwrap().len(),
        };
        let third_len = match api {
            WireApi::Gemini => bodies[2]["contents"].as_array().unwrap().len(),
            _ => bodies[2]["messages"].as_array().unwrap().len(),
        };
        assert_eq!(
            third_len,
            first_conversation_len + 2,
            "{api:?}: + final answer + new user message"
        );
        reopened.submit(Op::Shutdown).unwrap();
        reopened.closed().await;
        h.mock.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_an_unknown_session_is_a_clear_error() {
    let mock = memo_test_support::MockLlmServer::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(memo_store::Store::open(dir.path().join("db.sqlite")).unwrap());
    let p = params(
        WireApi::Openai,
        &mock,
        dir.path(),
        store,
        "nope",
        ToolRegistry::builtin(),
        TurnLimits::default(),
    );
    let err = spawn_session(p, SessionStart::Resume)
        .err()
        .expect("must fail");
    assert!(err.to_string().contains("nope"), "{err}");
    mock.shutdown().await;
}

/// A tool with side effects, to exercise the approval gate.
struct TouchTool;

impl Tool for TouchTool {
    fn name(&self) -> &str {
        "touch"
    }
    fn description(&self) -> &str {
        "create an empty file"
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    }
    fn risk(&self) -> RiskLevel {
        RiskLevel::Write
    }
    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let name = args["name"].as_str().unwrap_or("x").to_owned();
            std::fs::write(ctx.resolve(&name), "")
                .map_err(|e| memo_engine::tools::ToolError::failed(e.to_string()))?;
            Ok(format!("created {name}").into())
        })
    }
}

/// Sleeps until aborted, to exercise interrupts during tool execution.
struct SlowTool;

impl Tool for SlowTool {
    fn name(&self) -> &str {
        "slow"
    }
    fn description(&self) -> &str {
        "takes forever"
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object"})
    }
    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }
    fn run(&self, _ctx: ToolContext, _args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Ok("finished".into())
        })
    }
}

fn registry() -> ToolRegistry {
    let mut r = ToolRegistry::builtin();
    r.register(Arc::new(TouchTool));
    r.register(Arc::new(SlowTool));
    r
}

async fn harness(responses: Vec<MockResponse>) -> Harness {
    Harness::start_with(
        WireApi::Openai,
        responses,
        registry(),
        TurnLimits {
            retry: fast_retry(),
            ..TurnLimits::default()
        },
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_tools_wait_for_approval_and_denial_reaches_the_model() {
    let mut h = harness(vec![
        MockResponse::tool_call("touch", r#"{"name":"a.txt"}"#),
        MockResponse::tool_call("touch", r#"{"name":"b.txt"}"#),
        MockResponse::text("done"),
    ])
    .await;
    h.submit("make files");
    let seen = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    let request = match &seen.last().unwrap().event {
        AgentEvent::ApprovalRequested { request } => request.clone(),
        _ => unreachable!(),
    };
    assert_eq!(request.risk, RiskLevel::Write);
    assert_eq!(request.arguments, json!({"name": "a.txt"}));
    assert!(
        !h.workdir().join("a.txt").exists(),
        "nothing runs before approval"
    );
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::approve_once(),
        })
        .unwrap();
    let seen = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    assert!(h.workdir().join("a.txt").exists());
    let second = match &seen.last().unwrap().event {
        AgentEvent::ApprovalRequested { request } => request.clone(),
        _ => unreachable!(),
    };
    h.session
        .submit(Op::ResolveApproval {
            request_id: second.request_id,
            decision: ReviewDecision::Deny {
                reason: Some("not b".into()),
            },
        })
        .unwrap();
    let events = h.until_turn_end().await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    assert!(!h.workdir().join("b.txt").exists());
    let ends = tool_ends(&events);
    assert_eq!(ends.last().unwrap().2, Some(ToolErrorKind::ApprovalDenied));
    let sent = sent_tool_results(WireApi::Openai, &h.request_bodies()[2]);
    assert!(sent[1].content.contains("not b"), "{:?}", sent[1]);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_denies_pending_approval_and_keeps_history_valid() {
    let mut h = harness(vec![
        MockResponse::tool_call("touch", r#"{"name":"a.txt"}"#),
        MockResponse::text("next"),
    ])
    .await;
    h.submit("make a file");
    h.until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    h.session.submit(Op::Interrupt).unwrap();
    let events = h.until_turn_end().await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Interrupted);
    assert!(events.iter().any(|e| matches!(
        &e.event,
        AgentEvent::ApprovalResolved {
            decision: ReviewDecision::Unanswered {
                because: memo_protocol::Phrase::TurnStoppedBeforeAnswer
            },
            ..
        }
    )));
    assert_eq!(tool_ends(&events)[0].2, Some(ToolErrorKind::Interrupted));
    assert!(!h.workdir().join("a.txt").exists());
    // Next turn: the dangling call has its result, so the request is well formed.
    h.run_turn("continue").await;
    let body = &h.request_bodies()[1];
    assert_eq!(
        sent_tool_results(WireApi::Openai, body).len(),
        sent_tool_calls(WireApi::Openai, body).len()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_stops_a_running_tool() {
    let mut h = harness(vec![MockResponse::tool_calls([
        ("slow", "{}"),
        ("list_dir", "{}"),
    ])])
    .await;
    h.submit("wait");
    h.until(|e| matches!(e, AgentEvent::ToolCallEnd { name, .. } if name == "list_dir"))
        .await;
    let asked = std::time::Instant::now();
    h.session.submit(Op::Interrupt).unwrap();
    let events = h.until_turn_end().await;
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert_eq!(end_reason(&events).0, TurnEndReason::Interrupted);
    assert_eq!(tool_ends(&events)[0].2, Some(ToolErrorKind::Interrupted));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_turn_while_one_runs_is_refused_not_queued() {
    let mut h = harness(vec![
        MockResponse::text("slow answer streaming").hang_after_events(2)
    ])
    .await;
    h.submit("first");
    h.until(|e| matches!(e, AgentEvent::TextDelta { .. })).await;
    h.submit("second");
    let seen = h.until(|e| matches!(e, AgentEvent::Error { .. })).await;
    match &seen.last().unwrap().event {
        AgentEvent::Error { kind, .. } => assert_eq!(*kind, memo_protocol::ErrorKind::InvalidOp),
        _ => unreachable!(),
    }
    h.session.submit(Op::Interrupt).unwrap();
    h.until_turn_end().await;
    assert_eq!(h.request_bodies().len(), 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_subscribers_replay_from_the_store_without_gaps() {
    let mut h = harness(vec![MockResponse::text("one two three four")]).await;
    let events = h.run_turn("hi").await;
    let mut late = h.session.subscribe(0).unwrap();
    let mut replayed = Vec::new();
    while let Ok(env) = late.try_recv() {
        replayed.push(env.seq);
    }
    let expected: Vec<u64> = (1..=events.last().unwrap().seq).collect();
    assert_eq!(replayed, expected);
    h.shutdown().await;
}
