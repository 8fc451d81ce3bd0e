//! Claude Code hooks in real sessions: real settings files in temporary folders, real
//! `sh` processes that write what they read on stdin to files, and the mock LLM whose
//! recorded requests show what the model was told.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use memo_engine::tools::ToolRegistry;
use memo_engine::{ApprovalMode, TurnLimits};
use memo_hooks::{load_hooks, HookPaths, Hooks};
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, EventEnvelope, HookEventName, HookRunStatus, HookVerdict, Op, ReviewDecision,
    ToolErrorKind, ToolStatus, TurnEndReason, UserInput,
};
use memo_test_support::MockResponse;
use serde_json::{json, Value};

/// A folder holding `.claude/settings.json` with `hooks`, read as the user's settings.
fn user_hooks(hooks: Value) -> (tempfile::TempDir, Hooks) {
    let home = tempfile::tempdir().unwrap();
    write_settings(home.path(), &hooks);
    let loaded = load_hooks(
        &HookPaths {
            user_home: Some(home.path().to_path_buf()),
            ..HookPaths::default()
        },
        true,
    );
    assert!(
        loaded.report.issues.is_empty(),
        "{:?}",
        loaded.report.issues
    );
    (home, loaded.hooks)
}

fn write_settings(folder: &Path, hooks: &Value) {
    std::fs::create_dir_all(folder.join(".claude")).unwrap();
    std::fs::write(
        folder.join(".claude/settings.json"),
        serde_json::to_string_pretty(&json!({ "hooks": hooks })).unwrap(),
    )
    .unwrap();
}

/// One matcher group running `command` for `event`.
fn group(matcher: &str, command: &str) -> Value {
    json!([{ "matcher": matcher, "hooks": [{ "type": "command", "command": command }] }])
}

/// A command that saves its stdin to `file`, then runs `then`.
fn saving(file: &Path, then: &str) -> String {
    format!("cat > '{}'; {then}", file.display())
}

fn read_json(file: &Path) -> Value {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{} was not written: {e}", file.display()));
    serde_json::from_str(&text).unwrap()
}

async fn session(responses: Vec<MockResponse>, hooks: Hooks, mode: ApprovalMode) -> Harness {
    Harness::start_custom(
        WireApi::Openai,
        responses,
        ToolRegistry::builtin(),
        TurnLimits {
            retry: fast_retry(),
            approval_mode: mode,
            ..TurnLimits::default()
        },
        move |p| p.context.hooks = hooks,
    )
    .await
}

fn hook_runs(events: &[EventEnvelope]) -> Vec<&AgentEvent> {
    events
        .iter()
        .map(|e| &e.event)
        .filter(|e| matches!(e, AgentEvent::HookRan { .. }))
        .collect()
}

fn ran_for(events: &[EventEnvelope], name: HookEventName) -> Option<&AgentEvent> {
    hook_runs(events)
        .into_iter()
        .find(|e| matches!(e, AgentEvent::HookRan { event, .. } if *event == name))
}

/// Every message text of an OpenAI request body, in order.
fn sent_texts(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_fires_with_the_documented_json() {
    let out = tempfile::tempdir().unwrap();
    let file = |name: &str| out.path().join(format!("{name}.json"));
    let (_home, hooks) = user_hooks(json!({
        "SessionStart": group("startup", &saving(&file("start"), "echo 'branch: feature-x'")),
        "UserPromptSubmit": group("", &saving(&file("prompt"), "echo 'ticket: MEMO-42'")),
        "PreToolUse": group("Bash", &saving(&file("pre"), "exit 0")),
        "PostToolUse": group("Bash", &saving(&file("post"), "exit 0")),
        "Notification": group("", &saving(&file("notify"), "exit 0")),
        "Stop": group("", &saving(&file("stop"), "exit 0")),
        "PreCompact": group("manual", &saving(&file("compact"), "exit 0")),
        "SessionEnd": group("", &saving(&file("end"), "exit 0")),
    }));
    let mut h = session(
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo hooked-output"}"#),
            MockResponse::text("Done."),
        ],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    h.submit("run it");
    // Auto mode asks before a command: the Notification hooks run beside the question.
    let seen = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    let Some(AgentEvent::ApprovalRequested { request }) = seen.last().map(|e| &e.event) else {
        unreachable!()
    };
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::approve_once(),
        })
        .unwrap();
    let mut events = seen.clone();
    events.extend(h.until_turn_end().await);
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);

    h.session
        .submit(Op::UserTurn {
            input: UserInput::text("/compact keep the hooks"),
        })
        .unwrap();
    events.extend(
        h.until(|e| matches!(e, AgentEvent::CommandResult { .. }))
            .await,
    );
    let store = h.store.clone();
    let id = h.session.id().clone();
    let bodies = h.request_bodies();
    h.shutdown().await;

    let common = |doc: &Value, event: &str| {
        assert_eq!(doc["hook_event_name"], event, "{doc}");
        assert_eq!(doc["session_id"], "s-1", "{doc}");
        assert_eq!(doc["transcript_path"], "", "{doc}");
        assert_eq!(doc["permission_mode"], "default", "{doc}");
        assert!(
            Path::new(doc["cwd"].as_str().unwrap()).ends_with("work"),
            "{doc}"
        );
    };
    let start = read_json(&file("start"));
    common(&start, "SessionStart");
    assert_eq!(start["source"], "startup");

    let prompt = read_json(&file("prompt"));
    common(&prompt, "UserPromptSubmit");
    assert_eq!(prompt["prompt"], "run it");

    let pre = read_json(&file("pre"));
    common(&pre, "PreToolUse");
    assert_eq!(pre["tool_name"], "Bash");
    assert_eq!(pre["memo_tool_name"], "exec_command");
    assert_eq!(pre["tool_input"]["command"], "echo hooked-output");
    assert_eq!(pre["tool_input"]["cmd"], "echo hooked-output");
    assert!(pre["tool_use_id"].as_str().is_some_and(|s| !s.is_empty()));

    let post = read_json(&file("post"));
    common(&post, "PostToolUse");
    assert_eq!(post["tool_name"], "Bash");
    assert_eq!(post["tool_use_id"], pre["tool_use_id"]);
    assert!(post["tool_response"]["output"]
        .as_str()
        .unwrap()
        .contains("hooked-output"));

    let notify = read_json(&file("notify"));
    common(&notify, "Notification");
    assert_eq!(notify["message"], "Memo needs your permission to use Bash");

    let stop = read_json(&file("stop"));
    common(&stop, "Stop");
    assert_eq!(stop["stop_hook_active"], false);

    let compact = read_json(&file("compact"));
    common(&compact, "PreCompact");
    assert_eq!(compact["trigger"], "manual");
    assert_eq!(compact["custom_instructions"], "keep the hooks");

    let end = read_json(&file("end"));
    common(&end, "SessionEnd");
    assert_eq!(end["reason"], "other");

    // Plain stdout of SessionStart and UserPromptSubmit is context for the model.
    let first = sent_texts(&bodies[0]).join("\n");
    assert!(first.contains("branch: feature-x"), "{first}");
    assert!(first.contains("ticket: MEMO-42"), "{first}");

    // Every event that ran a hook is in the log, tool hooks with their call.
    let stored = store.all_events(&id).unwrap();
    for name in [
        HookEventName::SessionStart,
        HookEventName::UserPromptSubmit,
        HookEventName::PreToolUse,
        HookEventName::PostToolUse,
        HookEventName::Notification,
        HookEventName::Stop,
        HookEventName::PreCompact,
        HookEventName::SessionEnd,
    ] {
        let Some(AgentEvent::HookRan { hooks, call_id, .. }) = ran_for(&stored, name) else {
            panic!("no hook_ran for {name:?}: {:?}", kinds(&stored));
        };
        assert_eq!(hooks.len(), 1);
        assert_eq!(hooks[0].status, HookRunStatus::Ok, "{name:?}");
        assert!(hooks[0].source.ends_with("settings.json"));
        let tool_event = matches!(name, HookEventName::PreToolUse | HookEventName::PostToolUse);
        assert_eq!(call_id.is_some(), tool_event, "{name:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pre_tool_use_hook_blocks_a_command_and_the_model_reads_why() {
    let work_marker = "hook-marker";
    let (_home, hooks) = user_hooks(json!({
        "PreToolUse": group("Bash", "echo 'touching files is not allowed here' >&2; exit 2"),
    }));
    let mut h = session(
        vec![
            MockResponse::tool_call(
                "exec_command",
                format!(r#"{{"cmd":"touch {work_marker}"}}"#),
            ),
            MockResponse::text("Understood."),
        ],
        hooks,
        ApprovalMode::Dangerous,
    )
    .await;
    let events = h.run_turn("make the marker").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    assert!(!h.workdir().join(work_marker).exists(), "the command ran");
    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].1, ToolStatus::Error);
    assert_eq!(ends[0].2, Some(ToolErrorKind::PolicyDenied));
    let Some(AgentEvent::HookRan {
        decision,
        reason,
        hooks,
        call_id,
        ..
    }) = ran_for(&events, HookEventName::PreToolUse)
    else {
        panic!("no hook_ran: {:?}", kinds(&events));
    };
    assert_eq!(*decision, Some(HookVerdict::Block));
    assert_eq!(
        reason.as_deref(),
        Some("touching files is not allowed here")
    );
    assert_eq!(hooks[0].status, HookRunStatus::Blocked);
    assert_eq!(hooks[0].exit_code, Some(2));
    assert!(call_id.is_some());
    // No approval was asked for a call that was never going to run.
    assert!(!events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. })));
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 2);
    let results = sent_tool_results(WireApi::Openai, &bodies[1]);
    assert!(
        results[0]
            .content
            .contains("touching files is not allowed here"),
        "{results:?}"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hook_that_hangs_is_killed_at_its_timeout_and_the_turn_goes_on() {
    let (_home, hooks) = user_hooks(json!({
        "PreToolUse": [{ "matcher": "Bash", "hooks": [
            { "type": "command", "command": "sleep 30", "timeout": 1 }
        ]}],
    }));
    let mut h = session(
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo still-ran"}"#),
            MockResponse::text("Done."),
        ],
        hooks,
        ApprovalMode::Dangerous,
    )
    .await;
    let started = Instant::now();
    let events = h.run_turn("go").await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let Some(AgentEvent::HookRan {
        hooks, decision, ..
    }) = ran_for(&events, HookEventName::PreToolUse)
    else {
        panic!("no hook_ran: {:?}", kinds(&events));
    };
    assert_eq!(hooks[0].status, HookRunStatus::TimedOut);
    assert!(hooks[0].duration_ms >= 900, "{}", hooks[0].duration_ms);
    assert!(hooks[0]
        .message
        .as_deref()
        .unwrap_or("")
        .contains("timed out"));
    assert_eq!(*decision, None);
    // A failed hook does not stop the call.
    let ends = tool_ends(&events);
    assert_eq!(ends[0].1, ToolStatus::Ok, "{ends:?}");
    assert!(ends[0].3.contains("still-ran"));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupting_the_turn_stops_a_running_hook() {
    let (_home, hooks) = user_hooks(json!({
        "PreToolUse": group("Bash", "sleep 30"),
    }));
    let mut h = session(
        vec![MockResponse::tool_call(
            "exec_command",
            r#"{"cmd":"echo never"}"#,
        )],
        hooks,
        ApprovalMode::Dangerous,
    )
    .await;
    h.submit("go");
    h.until(|e| matches!(e, AgentEvent::AssistantMessage { .. }))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    h.session.submit(Op::Interrupt).unwrap();
    let events = h.until_turn_end().await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(end_reason(&events).0, TurnEndReason::Interrupted);
    let Some(AgentEvent::HookRan { hooks, .. }) = ran_for(&events, HookEventName::PreToolUse)
    else {
        panic!("no hook_ran: {:?}", kinds(&events));
    };
    assert_eq!(hooks[0].status, HookRunStatus::Cancelled);
    assert_eq!(tool_ends(&events)[0].2, Some(ToolErrorKind::Interrupted));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_hook_block_makes_one_more_request_then_the_turn_ends() {
    // Blocks the first stop only: the second is told `stop_hook_active`.
    let (_home, hooks) = user_hooks(json!({
        "Stop": group("", "grep -q '\"stop_hook_active\":false' && { echo 'run the tests first' >&2; exit 2; }; exit 0"),
    }));
    let mut h = session(
        vec![
            MockResponse::text("All done."),
            MockResponse::text("Tests pass."),
        ],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    let events = h.run_turn("fix it").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 2);
    let last = sent_texts(&bodies[1]).pop().unwrap_or_default();
    assert!(last.contains("run the tests first"), "{last}");
    let runs = hook_runs(&events);
    assert_eq!(runs.len(), 2);
    assert!(matches!(
        runs[0],
        AgentEvent::HookRan {
            decision: Some(HookVerdict::Block),
            for_model: Some(_),
            ..
        }
    ));
    assert!(matches!(
        runs[1],
        AgentEvent::HookRan {
            decision: None,
            for_model: None,
            ..
        }
    ));
    // A resumed session sends what the live one did.
    let live = h.session.history();
    h.session.submit(Op::Shutdown).unwrap();
    h.session.closed().await;
    let resumed = memo_engine::spawn_session(
        params(
            h.api,
            &h.mock,
            &h.workdir(),
            h.store.clone(),
            "s-1",
            ToolRegistry::builtin(),
            TurnLimits::default(),
        ),
        memo_engine::SessionStart::Resume,
    )
    .unwrap();
    assert_eq!(resumed.history(), live);
    resumed.submit(Op::Shutdown).unwrap();
    resumed.closed().await;
    h.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_hook_that_always_blocks_is_capped() {
    let (_home, hooks) = user_hooks(json!({
        "Stop": group("", "echo 'keep going' >&2; exit 2"),
    }));
    let responses = (0..6)
        .map(|i| MockResponse::text(format!("answer {i}")))
        .collect();
    let mut h = session(responses, hooks, ApprovalMode::Auto).await;
    let events = h.run_turn("go").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    // The first answer and three continuations.
    assert_eq!(h.request_bodies().len(), 4);
    let runs = hook_runs(&events);
    assert_eq!(runs.len(), 4);
    let AgentEvent::HookRan {
        reason, for_model, ..
    } = runs[3]
    else {
        unreachable!()
    };
    assert!(for_model.is_none());
    assert!(
        reason.as_deref().unwrap_or("").contains("not continued"),
        "{reason:?}"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_prompt_submit_block_sends_nothing_to_the_model() {
    let (_home, hooks) = user_hooks(json!({
        "UserPromptSubmit": group("", "grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; }; exit 0"),
    }));
    let mut h = session(
        vec![MockResponse::text("Hello.")],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    h.submit("my secret is hunter2");
    let events = h
        .until(|e| matches!(e, AgentEvent::CommandResult { .. }))
        .await;
    let AgentEvent::CommandResult { ok, output, .. } = &events.last().unwrap().event else {
        unreachable!()
    };
    assert!(!ok);
    assert!(output.contains("no secrets in prompts"), "{output}");
    assert!(events.iter().all(|e| e.turn_id.is_none()));
    assert!(!events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::TurnStarted { .. })));
    let Some(AgentEvent::HookRan { decision, .. }) =
        ran_for(&events, HookEventName::UserPromptSubmit)
    else {
        panic!("no hook_ran: {:?}", kinds(&events));
    };
    assert_eq!(*decision, Some(HookVerdict::Block));
    assert!(h.request_bodies().is_empty());

    // The next message goes through, without the blocked one.
    let events = h.run_turn("hello").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 1);
    assert!(!bodies[0].to_string().contains("hunter2"));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pre_tool_use_answers_allow_ask_and_rewrite() {
    // Allow: a command runs without the question auto mode would ask.
    let allow = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"known safe"}}'"#;
    // Ask: a read, which never asks, asks.
    let ask = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"secrets nearby"}}'"#;
    let (_home, hooks) = user_hooks(json!({
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": allow }] },
            { "matcher": "Read", "hooks": [{ "type": "command", "command": ask }] },
        ],
    }));
    let mut h = session(
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo allowed"}"#),
            MockResponse::tool_call("read_file", r#"{"file_path":"notes.txt"}"#),
            MockResponse::text("Done."),
        ],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    std::fs::write(h.workdir().join("notes.txt"), "hello\n").unwrap();
    h.submit("go");
    let seen = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    let Some(AgentEvent::ApprovalRequested { request }) = seen.last().map(|e| &e.event) else {
        unreachable!()
    };
    assert_eq!(request.tool_name, "read_file", "the allowed command asked");
    assert!(
        request.reason.contains("secrets nearby"),
        "{}",
        request.reason
    );
    let ends = tool_ends(&seen);
    assert_eq!(ends[0].1, ToolStatus::Ok);
    assert!(ends[0].3.contains("allowed"));
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::Deny { reason: None },
        })
        .unwrap();
    let events = h.until_turn_end().await;
    assert_eq!(tool_ends(&events)[0].2, Some(ToolErrorKind::ApprovalDenied));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updated_input_is_used_when_valid_and_an_error_when_not() {
    let rewrite = r#"grep -q first && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}' || echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"cmd":42}}}'"#;
    let (_home, hooks) = user_hooks(json!({ "PreToolUse": group("Bash", rewrite) }));
    let mut h = session(
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo first"}"#),
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo second"}"#),
            MockResponse::text("Done."),
        ],
        hooks,
        ApprovalMode::Dangerous,
    )
    .await;
    let events = h.run_turn("go").await;
    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 2);
    assert_eq!(ends[0].1, ToolStatus::Ok);
    assert!(ends[0].3.contains("rewritten"), "{}", ends[0].3);
    assert_eq!(ends[1].2, Some(ToolErrorKind::InvalidInput));
    assert!(
        ends[1].3.contains("PreToolUse hook rewrote"),
        "{}",
        ends[1].3
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_tool_use_feedback_reaches_the_model_with_the_result() {
    let (_home, hooks) = user_hooks(json!({
        "PostToolUse": group("Bash", "echo 'lint found 2 problems' >&2; exit 2"),
    }));
    let mut h = session(
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo built"}"#),
            MockResponse::text("Done."),
        ],
        hooks,
        ApprovalMode::Dangerous,
    )
    .await;
    let events = h.run_turn("build").await;
    let ends = tool_ends(&events);
    assert!(ends[0].3.contains("built") && ends[0].3.contains("lint found 2 problems"));
    let results = sent_tool_results(WireApi::Openai, &h.request_bodies()[1]);
    assert!(results[0].content.contains("lint found 2 problems"));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_ends_and_starts_the_session_for_hooks_and_their_context_survives() {
    let out = tempfile::tempdir().unwrap();
    let end_file = out.path().join("end.json");
    let start_file = out.path().join("start.json");
    let (_home, hooks) = user_hooks(json!({
        "SessionEnd": group("", &saving(&end_file, "exit 0")),
        "SessionStart": group("clear", &saving(&start_file, "echo 'remember: use tabs'")),
    }));
    let mut h = session(
        vec![MockResponse::text("one"), MockResponse::text("two")],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    h.run_turn("first").await;
    assert!(
        !start_file.exists(),
        "a startup ran the clear matcher's hook"
    );
    h.submit("/clear");
    h.until(|e| matches!(e, AgentEvent::CommandResult { .. }))
        .await;
    assert_eq!(read_json(&end_file)["reason"], "clear");
    assert_eq!(read_json(&start_file)["source"], "clear");
    h.run_turn("second").await;
    let texts = sent_texts(&h.request_bodies()[1]).join("\n");
    assert!(!texts.contains("first"), "{texts}");
    assert!(texts.contains("remember: use tabs"), "{texts}");
    h.shutdown().await;
}

mod trust {
    use super::*;
    use memo_config::{Config, MemoryCredentialStore};
    use memo_engine::{Engine, EngineOptions, SessionOptions};
    use memo_store::Store;
    use memo_test_support::MockLlmServer;

    struct World {
        mock: MockLlmServer,
        dir: tempfile::TempDir,
        engine: Engine,
    }

    impl World {
        fn home(&self) -> PathBuf {
            self.dir.path().join("home")
        }
        fn work(&self) -> PathBuf {
            self.dir.path().join("work")
        }
    }

    async fn world() -> World {
        let mock =
            MockLlmServer::start_with(vec![MockResponse::text("one"), MockResponse::text("two")])
                .await
                .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let toml = format!(
            "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\nbase_url = \"{}/v1\"\n",
            mock.base_url()
        );
        let config = Config::parse(&toml, &dir.path().join("config.toml")).unwrap();
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
        let home_var = home.display().to_string();
        let engine = Engine::new(EngineOptions {
            memo_home: None,
            config,
            store,
            credentials: Arc::new(MemoryCredentialStore::new()),
            env: Arc::new(move |name: &str| (name == "HOME").then(|| home_var.clone())),
            checkpoints: None,
        });
        World { mock, dir, engine }
    }

    async fn one_turn(world: &World, trust: Option<bool>) -> Vec<EventEnvelope> {
        let session = world
            .engine
            .start_session(SessionOptions {
                cwd: world.work(),
                trust_project: trust,
                ..Default::default()
            })
            .unwrap();
        let mut events = session.subscribe(0).unwrap();
        session
            .submit(Op::UserTurn {
                input: UserInput::text("hi"),
            })
            .unwrap();
        let mut seen = Vec::new();
        loop {
            let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
                .await
                .unwrap()
                .unwrap();
            let end = matches!(env.event, AgentEvent::TurnEnded { .. });
            seen.push(env);
            if end {
                break;
            }
        }
        session.submit(Op::Shutdown).unwrap();
        session.closed().await;
        seen
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_untrusted_folders_hooks_do_not_run_while_the_users_do() {
        let w = world().await;
        let out = w.dir.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        let user_file = out.join("user.json");
        let project_file = out.join("project.json");
        write_settings(
            &w.home(),
            &json!({ "UserPromptSubmit": group("", &saving(&user_file, "exit 0")) }),
        );
        write_settings(
            &w.work(),
            &json!({ "UserPromptSubmit": group("", &saving(&project_file, "exit 0")) }),
        );

        // Nothing recorded about the folder: not trusted.
        let events = one_turn(&w, None).await;
        assert!(user_file.exists(), "the user's hook did not run");
        assert!(!project_file.exists(), "the untrusted folder's hook ran");
        let skipped: Vec<_> = events
            .iter()
            .filter_map(|e| match &e.event {
                AgentEvent::HooksSkipped {
                    count,
                    message,
                    files,
                } => Some((*count, message.clone(), files.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(skipped.len(), 1, "{:?}", kinds(&events));
        assert_eq!(skipped[0].0, 1);
        assert_eq!(skipped[0].1, "1 project hook not run: folder not trusted");
        assert!(skipped[0].2[0].ends_with(".claude/settings.json"));
        // The trust prompt lists the hook, so trusting the folder covers it.
        let trust = w.engine.workspace_trust(&w.work()).unwrap();
        assert!(trust.needs_decision());
        assert_eq!(trust.hooks.len(), 1);
        assert!(trust.hooks[0].starts_with("hook UserPromptSubmit: cat > "));

        // Trusted: both run, and nothing is reported as skipped.
        std::fs::remove_file(&user_file).unwrap();
        let events = one_turn(&w, Some(true)).await;
        assert!(user_file.exists() && project_file.exists());
        assert!(!events
            .iter()
            .any(|e| matches!(e.event, AgentEvent::HooksSkipped { .. })));
        w.mock.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_agent_start_hooks_replace_one_turns_system_prompt_in_a_chain() {
    // pi's before_agent_start: the first hook replaces the prompt for messages that ask
    // for it, the second adds to whatever it is given; the next turn starts from the
    // session's own prompt again.
    let first = r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemPrompt": "AUDIT MODE\n" + d["system_prompt"]}) if "audit" in d["prompt"] else "")'"#;
    let second = r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemPrompt": d["system_prompt"] + "\nSIGNED"}) if d["system_prompt"].startswith("AUDIT") else "")'"#;
    let (_home, hooks) = user_hooks(json!({
        "BeforeAgentStart": [
            { "matcher": "", "hooks": [{ "type": "command", "command": first }] },
            { "matcher": "", "hooks": [{ "type": "command", "command": second }] }
        ],
    }));
    let mut h = session(
        vec![MockResponse::text("One."), MockResponse::text("Two.")],
        hooks,
        ApprovalMode::Auto,
    )
    .await;
    let events = h.run_turn("please audit this").await;
    let Some(AgentEvent::HookRan { hooks: ran, .. }) =
        ran_for(&events, HookEventName::BeforeAgentStart)
    else {
        panic!("no hook_ran: {:?}", kinds(&events));
    };
    assert_eq!(ran.len(), 2);
    h.run_turn("and now something else").await;
    let bodies = h.request_bodies();
    let first_system = sent_system_prompt(WireApi::Openai, &bodies[0]);
    let second_system = sent_system_prompt(WireApi::Openai, &bodies[1]);
    assert!(first_system.starts_with("AUDIT MODE\n"), "{first_system}");
    assert!(first_system.ends_with("\nSIGNED"), "{first_system}");
    assert!(!second_system.contains("AUDIT MODE"), "{second_system}");
    assert!(!second_system.contains("SIGNED"));
    assert_eq!(
        first_system,
        format!("AUDIT MODE\n{second_system}\nSIGNED"),
        "the chain started from the session's own prompt"
    );
    h.shutdown().await;
}
