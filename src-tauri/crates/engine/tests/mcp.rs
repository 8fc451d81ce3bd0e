//! MCP servers in real sessions: configured in config.toml, started by the Engine, their
//! tools called by the (mock) model through approvals, progress and server state as
//! events, crashes as tool errors the turn survives, prompts as `/server:prompt`.
//! The servers are the npm packages in tests/mcp (installed by scripts/test-all.sh).

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{sent_system_prompt, sent_tool_names};
use memo_config::{Config, MemoryCredentialStore};
use memo_engine::{Engine, EngineOptions, EventReceiver, SessionHandle, SessionOptions};
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, ApprovalRequest, EventEnvelope, McpServerState, Op, ReviewDecision, RiskLevel,
    ToolStatus, TurnEndReason, UserInput,
};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};

fn servers_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/server-everything")
            .exists(),
        "MCP test servers missing: run `npm install` in {} (scripts/test-all.sh does)",
        dir.display()
    );
    dir.canonicalize().unwrap()
}

fn everything_js() -> String {
    servers_dir()
        .join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
        .display()
        .to_string()
}

fn fixture_js() -> String {
    servers_dir()
        .join("fixture-server.mjs")
        .display()
        .to_string()
}

struct World {
    mock: MockLlmServer,
    dir: tempfile::TempDir,
    engine: Engine,
}

impl World {
    async fn new(mcp_toml: &str, responses: Vec<MockResponse>) -> World {
        let mock = MockLlmServer::start_with(responses).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        let toml = format!(
            "current_provider = \"mock\"\n{mcp_toml}\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\nbase_url = \"{}/v1\"\n",
            mock.base_url()
        );
        let config = Config::parse(&toml, &dir.path().join("config.toml")).unwrap();
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
        let path = std::env::var("PATH").unwrap_or_default();
        let engine = Engine::new(EngineOptions {
            memo_home: None,
            config,
            store,
            credentials: Arc::new(MemoryCredentialStore::new()),
            // Hermetic: stdio servers get this PATH, not a login shell's.
            env: Arc::new(move |name: &str| match name {
                "MEMO_MCP_LOGIN_SHELL" => Some("0".into()),
                "PATH" => Some(path.clone()),
                _ => None,
            }),
            checkpoints: Some(
                memo_checkpoints::Checkpoints::open(
                    &dir.path().join("checkpoints"),
                    memo_checkpoints::Limits::default(),
                )
                .unwrap(),
            ),
        });
        World { mock, dir, engine }
    }

    fn start(&self) -> (SessionHandle, EventReceiver) {
        let session = self
            .engine
            .start_session(SessionOptions {
                cwd: self.dir.path().join("work"),
                ..Default::default()
            })
            .unwrap();
        let events = session.subscribe(0).unwrap();
        (session, events)
    }
}

fn everything_toml() -> String {
    format!(
        "[mcp_servers.everything]\ncommand = \"node\"\nargs = [{:?}, \"stdio\"]\n",
        everything_js()
    )
}

async fn until(
    events: &mut EventReceiver,
    seen: &mut Vec<EventEnvelope>,
    pred: impl Fn(&AgentEvent) -> bool,
) -> AgentEvent {
    loop {
        let env = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "timed out; seen {:?}",
                    seen.iter().map(|e| e.event.kind()).collect::<Vec<_>>()
                )
            })
            .expect("channel open");
        let event = env.event.clone();
        seen.push(env);
        if pred(&event) {
            return event;
        }
    }
}

fn submit(session: &SessionHandle, text: &str) {
    session
        .submit(Op::UserTurn {
            input: UserInput::text(text),
        })
        .unwrap();
}

async fn approval(events: &mut EventReceiver, seen: &mut Vec<EventEnvelope>) -> ApprovalRequest {
    match until(events, seen, |e| {
        matches!(
            e,
            AgentEvent::ApprovalRequested { .. } | AgentEvent::TurnEnded { .. }
        )
    })
    .await
    {
        AgentEvent::ApprovalRequested { request } => request,
        other => panic!("expected an approval request, got {other:?}"),
    }
}

fn tool_end(seen: &[EventEnvelope], name: &str) -> (ToolStatus, String) {
    seen.iter()
        .find_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                name: n,
                status,
                output,
                ..
            } if n == name => Some((*status, output.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no tool_call_end for {name}"))
}

/// Every file change the events announced, in order.
fn files_changed(seen: &[EventEnvelope]) -> Vec<memo_protocol::FileChange> {
    seen.iter()
        .filter_map(|e| match &e.event {
            AgentEvent::FilesChanged { changes, .. } => Some(changes.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

async fn shutdown(session: SessionHandle, world: World) {
    session.submit(Op::Shutdown).unwrap();
    session.closed().await;
    world.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_tool_runs_end_to_end_with_approval_and_progress() {
    let world = World::new(
        &everything_toml(),
        vec![
            // No readOnlyHint of true: rated by its name, a write, so it asks.
            MockResponse::tool_call("everything__toggle-simulated-logging", "{}"),
            MockResponse::tool_call("everything__echo", r#"{"message":"hello mcp"}"#),
            MockResponse::text("It echoed."),
            MockResponse::tool_call("everything__toggle-simulated-logging", "{}"),
            MockResponse::tool_call(
                "everything__trigger-long-running-operation",
                r#"{"duration":1,"steps":2}"#,
            ),
            MockResponse::text("All done."),
        ],
    )
    .await;
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "echo something over MCP");
    let request = approval(&mut events, &mut seen).await;
    assert_eq!(request.tool_name, "everything__toggle-simulated-logging");
    assert_eq!(
        request.fingerprint,
        "mcp:everything:toggle-simulated-logging"
    );
    assert_eq!(request.risk, RiskLevel::Write);
    assert!(
        request
            .reason
            .contains("the server marks it as changing things"),
        "{}",
        request.reason
    );
    session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::ApproveForSession,
        })
        .unwrap();
    let end = until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    assert!(matches!(
        end,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Completed,
            ..
        }
    ));
    // The server marks echo read-only: it ran without a question.
    assert_eq!(
        seen.iter()
            .filter(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. }))
            .count(),
        1
    );
    assert_eq!(
        tool_end(&seen, "everything__echo"),
        (ToolStatus::Ok, "Echo: hello mcp".to_owned())
    );
    assert!(seen.iter().any(|e| matches!(
        &e.event,
        AgentEvent::McpServerStatus { server, status: McpServerState::Ready, tools, .. }
            if server == "everything" && *tools > 5
    )));

    // The first request already listed the server's tools, and the prompt's tool layer
    // groups them under the server.
    let bodies: Vec<_> = world.mock.requests().into_iter().map(|r| r.body).collect();
    let names = sent_tool_names(WireApi::Openai, &bodies[0]);
    for expected in [
        "everything__echo",
        "list_mcp_resources",
        "read_mcp_resource",
        "read_file",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not in {names:?}"
        );
    }
    let system = sent_system_prompt(WireApi::Openai, &bodies[0]);
    // The prompt names each server's tools once; their definitions travel as JSON.
    let server_line = system
        .lines()
        .find(|l| l.starts_with("- everything: "))
        .unwrap_or_else(|| panic!("no line for the server in\n{system}"));
    assert!(server_line.contains("echo"), "{server_line}");

    // The session grant covers the same tool of the same server; the slow tool is marked
    // read-only by its server, so nothing asks; its progress is reported.
    let mut seen = Vec::new();
    submit(&session, "again, then something slow");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. })),
        "{seen:?}"
    );
    assert_eq!(
        tool_end(&seen, "everything__toggle-simulated-logging").0,
        ToolStatus::Ok
    );
    let slow_call = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::ToolCallBegin { call_id, name }
                if name == "everything__trigger-long-running-operation" =>
            {
                Some(call_id.clone())
            }
            _ => None,
        })
        .expect("the slow tool ran");
    let progress: Vec<(f64, Option<f64>)> = seen
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolProgress {
                call_id,
                progress,
                total,
                ..
            } if call_id.0 == slow_call.0 => Some((*progress, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(progress, [(1.0, Some(2.0)), (2.0, Some(2.0))]);
    let (status, output) = tool_end(&seen, "everything__trigger-long-running-operation");
    assert_eq!(status, ToolStatus::Ok, "{output}");
    shutdown(session, world).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crashing_hanging_and_broken_servers_give_tool_errors_and_the_turn_goes_on() {
    let toml = format!(
        "approval_mode = \"dangerous\"\n[mcp_servers.fx]\ncommand = \"node\"\nargs = [{:?}]\n[mcp_servers.slow]\ncommand = \"node\"\nargs = [{:?}]\ntool_timeout_ms = 800\n[mcp_servers.broken]\ncommand = \"node\"\nargs = [{:?}, \"exit-at-start\"]\nstartup_timeout_sec = 5\n",
        fixture_js(),
        fixture_js(),
        fixture_js()
    );
    let world = World::new(
        &toml,
        vec![
            MockResponse::tool_call("fx__crash", "{}"),
            MockResponse::tool_call("slow__hang", "{}"),
            MockResponse::text("The servers failed; carrying on."),
        ],
    )
    .await;
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "crash it");
    let end = until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    assert!(matches!(
        end,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Completed,
            ..
        }
    ));
    let (status, output) = tool_end(&seen, "slow__hang");
    assert_eq!(status, ToolStatus::Error);
    assert!(
        output.contains("timed out after 0.8s and was cancelled"),
        "{output}"
    );
    let (status, output) = tool_end(&seen, "fx__crash");
    assert_eq!(status, ToolStatus::Error);
    assert!(
        output.contains("MCP server \"fx\" is not available"),
        "{output}"
    );
    assert!(output.contains("about to crash on purpose"), "{output}");
    // The broken server was reported (with its stderr) and did not hold up the turn.
    assert!(seen.iter().any(|e| matches!(
        &e.event,
        AgentEvent::McpServerStatus { server, status: McpServerState::Failed, stderr_tail: Some(tail), .. }
            if server == "broken" && tail.contains("missing FIXTURE_API_KEY")
    )), "{:#?}", seen.iter().filter(|e| e.event.kind() == "mcp_server_status").collect::<Vec<_>>());
    // Why it failed is a phrase the window words, and the English is that phrase's.
    let failed = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::McpServerStatus {
                server,
                status: McpServerState::Failed,
                message,
                phrase,
                ..
            } if server == "broken" => Some((message.clone(), phrase.clone())),
            _ => None,
        })
        .unwrap();
    let (Some(message), Some(phrase)) = failed else {
        panic!("{failed:?}")
    };
    assert_eq!(message, phrase.english());
    // Memo's own sentence (it exited in the handshake, it restarts), not a text passed on.
    assert!(
        !matches!(phrase, memo_protocol::Phrase::AsSaid { .. }),
        "{phrase:?}"
    );
    // The crash itself becomes a server state the UI shows, with its phrase.
    let crashed = |e: &AgentEvent| matches!(e, AgentEvent::McpServerStatus { server, status: McpServerState::Crashed, .. } if server == "fx");
    if !seen.iter().any(|e| crashed(&e.event)) {
        until(&mut events, &mut seen, crashed).await;
    }
    let crash = seen.iter().rev().find(|e| crashed(&e.event)).unwrap();
    let AgentEvent::McpServerStatus {
        phrase: Some(memo_protocol::Phrase::McpRestartingIn { reason, .. }),
        ..
    } = &crash.event
    else {
        panic!("{:?}", crash.event)
    };
    assert!(
        !matches!(**reason, memo_protocol::Phrase::AsSaid { .. }),
        "{reason:?}"
    );
    shutdown(session, world).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_prompts_are_slash_commands_and_mcp_lists_the_servers() {
    let world = World::new(
        &everything_toml(),
        vec![MockResponse::text("Weather noted.")],
    )
    .await;
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "/everything:args-prompt \"San Francisco\"");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    let started = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::TurnStarted { input } => Some(input.clone()),
            _ => None,
        })
        .unwrap();
    let expansion = started.expansion.unwrap();
    assert_eq!(
        expansion.command.as_deref(),
        Some("/everything:args-prompt")
    );
    assert!(
        expansion.prompt.contains("San Francisco"),
        "{}",
        expansion.prompt
    );
    let body = &world.mock.requests()[0].body;
    assert!(body.to_string().contains("San Francisco"));

    let mut seen = Vec::new();
    submit(&session, "/everything:args-prompt");
    match until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::CommandResult { .. })
    })
    .await
    {
        AgentEvent::CommandResult {
            command,
            ok,
            output,
            ..
        } => {
            assert_eq!(command, "/everything:args-prompt");
            assert!(!ok);
            assert!(output.contains("missing argument: city"), "{output}");
        }
        _ => unreachable!(),
    }
    submit(&session, "/mcp");
    match until(
        &mut events,
        &mut seen,
        |e| matches!(e, AgentEvent::CommandResult { command, .. } if command == "/mcp"),
    )
    .await
    {
        AgentEvent::CommandResult { ok, output, .. } => {
            assert!(ok);
            assert!(output.contains("everything — ready (stdio"), "{output}");
            assert!(
                output.contains("/everything:args-prompt <city> [state]"),
                "{output}"
            );
        }
        _ => unreachable!(),
    }
    submit(&session, "/help");
    let help = until(
        &mut events,
        &mut seen,
        |e| matches!(e, AgentEvent::CommandResult { command, .. } if command == "/help"),
    )
    .await;
    let AgentEvent::CommandResult { output, .. } = help else {
        unreachable!()
    };
    assert!(output.contains("MCP prompts:"), "{output}");
    assert!(
        output.contains("/everything:args-prompt <city> [state]"),
        "{output}"
    );
    assert_eq!(
        world.mock.requests().len(),
        1,
        "failed prompts never reach the model"
    );
    shutdown(session, world).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ending_the_session_stops_the_servers() {
    let world = World::new(&everything_toml(), vec![MockResponse::text("hi")]).await;
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "hello");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    let work = world.dir.path().join("work").canonicalize().unwrap();
    let pids = child_pids(std::process::id(), &work);
    assert!(!pids.is_empty(), "the server should run as our child");
    shutdown(session, world).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| alive(*p)) {
        assert!(
            std::time::Instant::now() < deadline,
            "server processes outlived the session"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Direct children of `pid` running node in `cwd` (this session's MCP server; other
/// tests run servers of their own).
fn child_pids(pid: u32, cwd: &Path) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            let after = stat.rsplit_once(") ").map(|(_, rest)| rest).unwrap_or("");
            let ppid = after
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse::<u32>().ok());
            ppid == Some(pid)
                && stat.contains("(node)")
                && std::fs::read_link(format!("/proc/{p}/cwd")).ok().as_deref() == Some(cwd)
        })
        .collect()
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.contains(") Z "))
        .unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_an_mcp_server_writes_is_a_recorded_change() {
    let toml = format!(
        "approval_mode = \"dangerous\"\n[mcp_servers.fx]\ncommand = \"node\"\nargs = [{:?}]\n",
        fixture_js()
    );
    let world = World::new(&toml, Vec::new()).await;
    let target = world.dir.path().join("work").join("from-mcp.txt");
    std::fs::write(&target, "before\n").unwrap();
    world.mock.push(MockResponse::tool_call(
        "fx__write_file",
        serde_json::json!({"path": target.display().to_string(), "text": "after\n"}).to_string(),
    ));
    world.mock.push(MockResponse::text("Written."));
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "write it");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    let changes = files_changed(&seen);
    assert_eq!(changes.len(), 1, "{seen:?}");
    assert_eq!(changes[0].path, "from-mcp.txt");
    assert_eq!(changes[0].sources, ["fx__write_file"]);
    assert!(changes[0]
        .diff
        .as_ref()
        .unwrap()
        .unified
        .contains("-before\n+after"));
    // And restorable: the store the session wrote to puts the earlier content back.
    let store = memo_checkpoints::Checkpoints::open(
        &world.dir.path().join("checkpoints"),
        memo_checkpoints::Limits::default(),
    )
    .unwrap();
    let session_id = session.id().0.clone();
    let first = store.list(&session_id).unwrap()[0].id;
    let meta = memo_checkpoints::Meta {
        session_id,
        seq: 1000,
        turn_id: None,
        call_id: None,
        source: "restore".into(),
    };
    store
        .restore(
            &world.dir.path().join("work"),
            first,
            &Default::default(),
            &meta,
        )
        .unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "before\n");
    shutdown(session, world).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_the_server_calls_read_only_runs_unasked_and_what_it_writes_is_still_recorded() {
    // Auto mode: a write would ask; the server's readOnlyHint makes this one a read.
    let toml = format!(
        "[mcp_servers.fx]\ncommand = \"node\"\nargs = [{:?}]\n",
        fixture_js()
    );
    let world = World::new(&toml, Vec::new()).await;
    let target = world.dir.path().join("work").join("summary.txt");
    std::fs::write(&target, "old\n").unwrap();
    world.mock.push(MockResponse::tool_call(
        "fx__get_summary",
        serde_json::json!({"path": target.display().to_string(), "text": "new\n"}).to_string(),
    ));
    world.mock.push(MockResponse::text("Done."));
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "summarise");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. })),
        "rated read by the server's hint: no question"
    );
    let changes = files_changed(&seen);
    assert_eq!(changes.len(), 1, "{seen:?}");
    assert_eq!(changes[0].path, "summary.txt");
    assert_eq!(changes[0].sources, ["fx__get_summary"]);
    shutdown(session, world).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_request_for_input_reaches_the_user_and_the_answer_reaches_the_server() {
    let world = World::new(
        &everything_toml(),
        vec![
            MockResponse::tool_call("everything__trigger-elicitation-request", "{}"),
            MockResponse::text("Thanks."),
            MockResponse::tool_call("everything__trigger-elicitation-request", "{}"),
            MockResponse::text("Fine."),
        ],
    )
    .await;
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    for (text, action, content) in [
        (
            "ask me",
            memo_protocol::ElicitationAction::Accept,
            Some(
                serde_json::json!({"name": "Ada Lovelace", "check": true})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        ),
        ("ask again", memo_protocol::ElicitationAction::Decline, None),
    ] {
        submit(&session, text);
        let request = approval(&mut events, &mut seen).await;
        session
            .submit(Op::ResolveApproval {
                request_id: request.request_id,
                decision: ReviewDecision::approve_once(),
            })
            .unwrap();
        let asked = until(&mut events, &mut seen, |e| {
            matches!(e, AgentEvent::ElicitationRequested { .. })
        })
        .await;
        let AgentEvent::ElicitationRequested {
            request_id,
            server,
            message,
            schema,
        } = asked
        else {
            unreachable!()
        };
        assert_eq!(server, "everything");
        assert!(message.contains("Please provide"), "{message}");
        assert!(schema["properties"]["name"].is_object(), "{schema}");
        session
            .submit(Op::ResolveElicitation {
                request_id,
                action,
                content,
            })
            .unwrap();
        until(&mut events, &mut seen, |e| {
            matches!(e, AgentEvent::TurnEnded { .. })
        })
        .await;
    }
    let outputs: Vec<String> = seen
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd { output, .. } => Some(output.clone()),
            _ => None,
        })
        .collect();
    assert!(
        outputs[0].contains("Ada Lovelace"),
        "the answer reached the server: {}",
        outputs[0]
    );
    assert!(
        outputs[1].to_lowercase().contains("decline"),
        "{}",
        outputs[1]
    );
    assert!(seen.iter().any(|e| matches!(
        e.event,
        AgentEvent::ElicitationResolved {
            action: memo_protocol::ElicitationAction::Decline,
            ..
        }
    )));
    shutdown(session, world).await;
}
