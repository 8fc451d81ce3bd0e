//! Stored history through the engine: resume sends exactly what the live session would,
//! a crash mid-turn resumes with a valid history, forks are isolated, imported history
//! resumes as a fork, auto titles, usage cost, and Memo Code export/import round trips.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use memo_config::{Config, MemoryCredentialStore};
use memo_engine::session::history::{rebuild_history, INTERRUPTED_RESULT};
use memo_engine::tools::ToolRegistry;
use memo_engine::{spawn_session, Engine, EngineOptions, SessionHandle, SessionOptions};
use memo_engine::{SessionStart, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, EventEnvelope, Op, Phrase, ReviewDecision, RiskLevel,
    SessionId, TokenUsage, ToolCallId, ToolCallSummary, ToolErrorKind, ToolStatus, TurnEndReason,
    TurnId, UserInput,
};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse, MockToolCall};
use serde_json::Value;

/// The conversation part of a request body (without the system prompt, which names the
/// temporary working directory).
fn conversation(api: WireApi, body: &Value) -> Value {
    match api {
        WireApi::Openai => Value::Array(
            body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["role"] != "system")
                .cloned()
                .collect(),
        ),
        WireApi::Anthropic => body["messages"].clone(),
        WireApi::Gemini => body["contents"].clone(),
    }
}

/// Two tool steps and an answer with reasoning. Ids and signatures are fixed so two runs
/// of it are byte-for-byte comparable.
fn script() -> Vec<MockResponse> {
    vec![
        MockResponse::empty()
            .with_text("Reading a.")
            .with_thinking_signature("sig-0")
            .with_tool(
                MockToolCall::new("read_file", r#"{"file_path":"a.txt"}"#).with_id("call_a"),
            ),
        MockResponse::empty()
            .with_reasoning("Now b.")
            .with_thinking_signature("sig-1")
            .with_tool(
                MockToolCall::new("read_file", r#"{"file_path":"b.txt"}"#).with_id("call_b"),
            ),
        MockResponse::text("a and b.")
            .with_reasoning("Both read.")
            .with_thinking_signature("sig-2"),
        MockResponse::text("second answer"),
    ]
}

async fn turn(session: &SessionHandle, text: &str) {
    let mut events = session.subscribe(session.last_seq()).unwrap();
    session
        .submit(Op::UserTurn {
            input: UserInput::text(text),
        })
        .unwrap();
    loop {
        let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .expect("turn end in time")
            .expect("events");
        if matches!(env.event, AgentEvent::TurnEnded { .. }) {
            return;
        }
    }
}

fn resume(h: &Harness, id: &str) -> SessionHandle {
    spawn_session(
        params(
            h.api,
            &h.mock,
            &h.workdir(),
            h.store.clone(),
            id,
            ToolRegistry::builtin(),
            TurnLimits::default(),
        ),
        SessionStart::Resume,
    )
    .unwrap()
}

async fn stop(session: SessionHandle) {
    let _ = session.submit(Op::Shutdown);
    session.closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_session_sends_exactly_what_the_live_one_would() {
    for api in ALL_APIS {
        // Live: two turns in one process.
        let mut live = Harness::start(api, script()).await;
        for f in ["a.txt", "b.txt"] {
            std::fs::write(live.workdir().join(f), format!("{f}\n")).unwrap();
        }
        live.run_turn("read a and b").await;
        live.run_turn("and then?").await;
        let live_bodies = live.request_bodies();

        // Resumed: the same first turn, the process "restarts", the second turn.
        let mut h = Harness::start(api, script()).await;
        for f in ["a.txt", "b.txt"] {
            std::fs::write(h.workdir().join(f), format!("{f}\n")).unwrap();
        }
        h.run_turn("read a and b").await;
        let before = h.session.history();
        stop(h.session.clone()).await;
        let reopened = resume(&h, "s-1");
        assert_eq!(reopened.history(), before, "{api:?}");
        turn(&reopened, "and then?").await;
        let bodies = h.request_bodies();

        assert_eq!(bodies.len(), 4);
        assert_eq!(
            conversation(api, &bodies[3]),
            conversation(api, &live_bodies[3]),
            "{api:?}: the request after resume equals the live one"
        );
        assert_eq!(bodies[3]["tools"], live_bodies[3]["tools"], "{api:?}");
        stop(reopened).await;
        live.shutdown().await;
        h.mock.shutdown().await;
    }
}

fn append(store: &Store, session: &str, turn: &str, events: Vec<AgentEvent>) {
    let id = SessionId::new(session);
    let mut seq = store.last_seq(&id).unwrap();
    let envs: Vec<EventEnvelope> = events
        .into_iter()
        .map(|event| {
            seq += 1;
            EventEnvelope {
                session_id: id.clone(),
                turn_id: Some(TurnId::new(turn)),
                seq,
                timestamp_ms: 1,
                event,
            }
        })
        .collect();
    store.append_batch(&envs).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_cut_by_a_crash_is_closed_and_the_history_stays_valid() {
    for api in ALL_APIS {
        let h = Harness::start(api, vec![MockResponse::text("recovered")]).await;
        stop(h.session.clone()).await;
        // What a process killed while running tools leaves in the log.
        append(
            &h.store,
            "s-1",
            "t-crash",
            vec![
                AgentEvent::TurnStarted {
                    input: UserInput::text("edit both files"),
                },
                AgentEvent::Usage {
                    step: TokenUsage::default(),
                    turn_total: TokenUsage {
                        input_tokens: 11,
                        ..TokenUsage::default()
                    },
                },
                AgentEvent::AssistantMessage {
                    text: String::new(),
                    reasoning: None,
                    tool_calls: ["call_1", "call_2"]
                        .iter()
                        .map(|id| ToolCallSummary {
                            call_id: ToolCallId::new(*id),
                            name: if *id == "call_1" {
                                "read_file"
                            } else {
                                "write_file"
                            }
                            .into(),
                            arguments: "{}".into(),
                        })
                        .collect(),
                    provider_data: None,
                },
                AgentEvent::ToolCallEnd {
                    view: None,
                    call_id: ToolCallId::new("call_1"),
                    name: "read_file".into(),
                    status: ToolStatus::Ok,
                    error_kind: None,
                    output: "contents".into(),
                    full_length: None,
                },
                AgentEvent::ApprovalRequested {
                    request: ApprovalRequest {
                        request_id: ApprovalId::new("ap-1"),
                        call_id: ToolCallId::new("call_2"),
                        tool_name: "write_file".into(),
                        risk: RiskLevel::Write,
                        reason: "writes".into(),
                        why: Vec::new(),
                        fingerprint: "write:x".into(),
                        command: None,
                        cwd: None,
                        diff: None,
                        arguments: serde_json::json!({}),
                        rule_patterns: Vec::new(),
                        rule_summary: None,
                        rule_words: None,
                        agent: None,
                    },
                },
            ],
        );
        let before = h.store.last_seq(&SessionId::new("s-1")).unwrap();
        let reopened = resume(&h, "s-1");

        // The log now ends the turn: approval denied, call interrupted, turn ended.
        let tail: Vec<AgentEvent> = h
            .store
            .events(&SessionId::new("s-1"), before, 10)
            .unwrap()
            .into_iter()
            .map(|e| {
                assert_eq!(e.turn_id, Some(TurnId::new("t-crash")));
                e.event
            })
            .collect();
        assert_eq!(tail.len(), 3, "{tail:?}");
        assert!(matches!(
            &tail[0],
            AgentEvent::ApprovalResolved {
                request_id,
                decision: ReviewDecision::Unanswered { because: Phrase::SessionStoppedBeforeAnswer },
            } if request_id.as_str() == "ap-1"
        ));
        assert!(matches!(
            &tail[1],
            AgentEvent::ToolCallEnd { call_id, error_kind: Some(ToolErrorKind::Interrupted), .. }
                if call_id.as_str() == "call_2"
        ));
        assert!(matches!(
            tail[2],
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Interrupted,
                usage: TokenUsage {
                    input_tokens: 11,
                    ..
                }
            }
        ));
        assert_eq!(
            h.store.approvals(&SessionId::new("s-1")).unwrap()[0]
                .decision
                .as_ref()
                .map(ReviewDecision::is_approved),
            Some(false)
        );

        // The next request pairs every call with a result.
        turn(&reopened, "try again").await;
        let body = h.request_bodies().pop().unwrap();
        let results = sent_tool_results(api, &body);
        assert_eq!(results.len(), 2, "{api:?}: {results:?}");
        assert_eq!(results[0].content, "contents");
        assert_eq!(results[1].content, INTERRUPTED_RESULT);
        assert!(results[1].is_error);
        // A second resume finds nothing to close.
        stop(reopened).await;
        let last = h.store.last_seq(&SessionId::new("s-1")).unwrap();
        let again = resume(&h, "s-1");
        assert_eq!(h.store.last_seq(&SessionId::new("s-1")).unwrap(), last);
        stop(again).await;
        h.mock.shutdown().await;
    }
}

/// An engine over the mock server, configured through config.toml text.
fn engine(mock: &MockLlmServer, dir: &Path, extra: &str) -> Engine {
    let toml = format!(
        "current_provider = \"mock\"\n{extra}\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\nbase_url = \"{}/v1\"\n\
         [model_profiles.mock-model]\ninput_price_per_mtok = 2.0\noutput_price_per_mtok = 10.0\n",
        mock.base_url()
    );
    let config = Config::parse(&toml, &dir.join("config.toml")).unwrap();
    Engine::new(EngineOptions {
        memo_home: None,
        config,
        store: Arc::new(Store::open(dir.join("memo.sqlite")).unwrap()),
        credentials: Arc::new(MemoryCredentialStore::new()),
        env: Arc::new(|_: &str| None),
        checkpoints: None,
    })
}

fn user_texts(store: &Store, id: &SessionId) -> Vec<String> {
    store
        .all_events(id)
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.event {
            AgentEvent::TurnStarted { input } => Some(input.text),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_shares_history_up_to_its_point_and_then_diverges() {
    let mock = MockLlmServer::start_with([
        MockResponse::text("one"),
        MockResponse::text("two"),
        MockResponse::text("fork answer"),
        MockResponse::text("parent answer"),
    ])
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&mock, dir.path(), "");
    let parent = engine
        .start_session(SessionOptions {
            cwd: dir.path().to_path_buf(),
            ..SessionOptions::default()
        })
        .unwrap();
    turn(&parent, "first").await;
    let fork_point = parent.last_seq();
    turn(&parent, "second").await;
    let parent_id = parent.id().clone();
    stop(parent).await;

    let record = engine.fork_session(&parent_id, Some(fork_point)).unwrap();
    assert_eq!(record.parent_session_id.as_ref(), Some(&parent_id));
    let fork = engine.resume_session(&record.id, None).unwrap();
    assert_eq!(fork.id(), &record.id);
    turn(&fork, "fork only").await;
    stop(fork).await;

    let parent = engine.resume_session(&parent_id, None).unwrap();
    turn(&parent, "parent only").await;
    stop(parent).await;

    let store = engine.store();
    assert_eq!(user_texts(store, &record.id), ["first", "fork only"]);
    assert_eq!(
        user_texts(store, &parent_id),
        ["first", "second", "parent only"]
    );
    let bodies: Vec<Value> = mock.requests().into_iter().map(|r| r.body).collect();
    let users = |body: &Value| -> Vec<String> {
        body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "user")
            .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
            // The session context before the first message goes with it into the fork.
            .map(|text| match text.split_once("</session_context>\n\n") {
                Some((_, rest)) => rest.to_owned(),
                None => text,
            })
            .collect()
    };
    assert!(users_raw_first(&bodies[2]).starts_with("<session_context>"));
    assert_eq!(users(&bodies[2]), ["first", "fork only"]);
    assert_eq!(users(&bodies[3]), ["first", "second", "parent only"]);
    mock.shutdown().await;
}

fn users_raw_first(body: &Value) -> String {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imported_history_resumes_as_a_fork_and_stays_untouched() {
    let mock = MockLlmServer::start_with([MockResponse::text("continuing")])
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&mock, dir.path(), "");
    let cwd = dir.path().canonicalize().unwrap();
    let file = dir
        .path()
        .join("sessions/-p/2026-02-23T16-22-21-imp-1.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let lines = [
        format!(r#"{{"ts":"2026-02-23T16:22:21.000Z","sessionId":"imp-1","type":"session_start","meta":{{"cwd":{:?}}}}}"#, cwd.display().to_string()),
        r#"{"ts":"2026-02-23T16:22:22.000Z","sessionId":"imp-1","turn":1,"type":"turn_start","content":"list files"}"#.into(),
        r#"{"ts":"2026-02-23T16:22:23.000Z","sessionId":"imp-1","turn":1,"step":0,"type":"assistant","content":"","role":"assistant"}"#.into(),
        r#"{"ts":"2026-02-23T16:22:23.100Z","sessionId":"imp-1","turn":1,"step":0,"type":"action","meta":{"tool":"list_dir","input":{"path":"."},"action_id":"call_ls"}}"#.into(),
        r#"{"ts":"2026-02-23T16:22:24.000Z","sessionId":"imp-1","turn":1,"step":0,"type":"observation","content":"a.txt","meta":{"tool":"list_dir","action_id":"call_ls","status":"success"}}"#.into(),
        r#"{"ts":"2026-02-23T16:22:25.000Z","sessionId":"imp-1","turn":1,"step":1,"type":"assistant","content":"One file: a.txt","role":"assistant"}"#.into(),
        r#"{"ts":"2026-02-23T16:22:25.100Z","sessionId":"imp-1","turn":1,"type":"turn_end","meta":{"status":"ok"}}"#.into(),
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let imported = engine
        .store()
        .import_memo_code_file(&file)
        .unwrap()
        .unwrap()
        .session_id
        .unwrap();
    let before = engine.store().all_events(&imported).unwrap();

    // Opening it twice without talking in it reuses the same, still empty fork.
    let peek = engine.resume_session(&imported, None).unwrap();
    let peek_id = peek.id().clone();
    stop(peek).await;
    let session = engine.resume_session(&imported, None).unwrap();
    assert_ne!(
        session.id(),
        &imported,
        "continuing imported history forks it"
    );
    assert_eq!(session.id(), &peek_id);
    turn(&session, "and now?").await;
    let fork_id = session.id().clone();
    stop(session).await;

    assert_eq!(engine.store().all_events(&imported).unwrap(), before);
    assert_eq!(engine.store().forks_of(&imported).unwrap().len(), 1);
    let fork = engine.store().session(&fork_id).unwrap().unwrap();
    assert!(!fork.read_only);
    assert_eq!(fork.provider, "mock", "the import named no provider");
    assert_eq!(fork.parent_session_id.as_ref(), Some(&imported));
    let body = mock.requests().pop().unwrap().body;
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "assistant", "user"]
    );
    assert_eq!(messages[3]["tool_call_id"], "call_ls");
    assert_eq!(messages[3]["content"], "a.txt");
    // Once the fork has its own turns, opening the import again starts a fresh fork.
    let again = engine.resume_session(&imported, None).unwrap();
    assert_ne!(again.id(), &fork_id);
    stop(again).await;
    mock.shutdown().await;
}

async fn wait_for_title(store: &Store, id: &SessionId) -> Option<String> {
    for _ in 0..100 {
        if let Some(title) = store.session(id).unwrap().and_then(|r| r.title) {
            return Some(title);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_title_names_a_new_session_after_its_first_exchange() {
    let mock = MockLlmServer::start_with([
        MockResponse::text("Here is a quicksort.").with_usage(100, 20),
        MockResponse::text("<think>short</think>Title: \"Quicksort in Rust.\""),
    ])
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&mock, dir.path(), "auto_title = true");
    let session = engine
        .start_session(SessionOptions {
            cwd: dir.path().to_path_buf(),
            ..SessionOptions::default()
        })
        .unwrap();
    turn(&session, "write a quicksort in rust").await;
    let id = session.id().clone();
    assert_eq!(
        wait_for_title(engine.store(), &id).await.as_deref(),
        Some("Quicksort in Rust")
    );
    let title_request = mock.requests().pop().unwrap().body;
    assert!(title_request
        .get("tools")
        .is_none_or(|t| t.as_array().is_none_or(Vec::is_empty)));
    let sent = title_request.to_string();
    assert!(sent.contains("write a quicksort in rust"), "{sent}");
    assert!(sent.contains("Here is a quicksort."), "{sent}");

    // Usage of the turn was recorded with its cost at the configured price.
    let usage = engine.store().usage_summary(Some(&id)).unwrap();
    let cost = usage.cost_usd().unwrap();
    assert!(
        (cost - (100.0 * 2.0 + 20.0 * 10.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );
    stop(session).await;
    mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_title_is_optional_and_never_overrides_a_rename() {
    // Off by default: one request, no title.
    let mock = MockLlmServer::start_with([MockResponse::text("answer")])
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine_off = engine(&mock, dir.path(), "");
    let session = engine_off
        .start_session(SessionOptions {
            cwd: dir.path().to_path_buf(),
            ..SessionOptions::default()
        })
        .unwrap();
    turn(&session, "hello").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(mock.requests().len(), 1);
    assert_eq!(
        engine_off
            .store()
            .session(session.id())
            .unwrap()
            .unwrap()
            .title,
        None
    );
    stop(session).await;
    mock.shutdown().await;

    // On, but the user renamed the session while the title call ran.
    let mock = MockLlmServer::start_with([
        MockResponse::text("answer"),
        MockResponse::text("Model title").drip(Duration::from_millis(300)),
    ])
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine_on = engine(&mock, dir.path(), "auto_title = true");
    let session = engine_on
        .start_session(SessionOptions {
            cwd: dir.path().to_path_buf(),
            ..SessionOptions::default()
        })
        .unwrap();
    turn(&session, "hello").await;
    engine_on.store().set_title(session.id(), "Mine").unwrap();
    mock.wait_for_requests(2, Duration::from_secs(5))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        engine_on
            .store()
            .session(session.id())
            .unwrap()
            .unwrap()
            .title
            .as_deref(),
        Some("Mine")
    );
    stop(session).await;
    mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memo_code_export_then_import_rebuilds_the_same_conversation() {
    let mut h = Harness::start(WireApi::Openai, script()).await;
    for f in ["a.txt", "b.txt"] {
        std::fs::write(h.workdir().join(f), format!("{f}\n")).unwrap();
    }
    h.run_turn("read a and b").await;
    h.run_turn("and then?").await;
    let id = SessionId::new("s-1");
    let original = rebuild_history(&h.store.all_events(&id).unwrap());

    let mut jsonl = Vec::new();
    h.store.export_memo_code(&id, &mut jsonl).unwrap();
    let file = h
        .dir
        .path()
        .join("sessions/-x/2026-01-01T00-00-00-s-1.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &jsonl).unwrap();
    let other = Store::open_in_memory().unwrap();
    let imported = other.import_memo_code_file(&file).unwrap().unwrap();
    assert!(
        imported.skipped_lines.is_empty(),
        "{:?}",
        imported.skipped_lines
    );
    let back = rebuild_history(&other.all_events(&imported.session_id.unwrap()).unwrap());
    assert_eq!(back, original);
    h.shutdown().await;
}
