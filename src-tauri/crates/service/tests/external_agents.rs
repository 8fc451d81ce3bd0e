//! Sessions on an external agent through the service, against real agents: Claude Code's
//! ACP agent from npm (`@zed-industries/claude-code-acp`, in tests/acp) pointed at the
//! mock LLM, and small shell programs that crash, print junk or hang.
//!
//! The agent's edits are asked on Memo's approval card, written by Memo (its fs requests),
//! shown in the changes panel and reverted there hunk by hunk; its command runs on
//! Memo's PTY; a refusal is a refusal; nothing it started outlives the session.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use memo_config::{MemoHome, MemoryCredentialStore};
use memo_protocol::{
    AgentEvent, ApprovalRequest, ChangeScope, EnvValue, ExternalAgentInput, Op, RevertRequest,
    ReviewDecision, RiskLevel, SecretInput, SessionId, ToolStatus, ToolView, TurnEndReason,
    UserInput,
};
use memo_service::{ExternalSessionRequest, Service};
use memo_test_support::{MockLlmServer, MockResponse, MockToolCall};

const A: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";

fn agent_script() -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/acp/node_modules/@zed-industries/claude-code-acp/dist/index.js");
    assert!(
        script.is_file(),
        "Claude Code's ACP agent is not installed: run `npm ci` in tests/acp (the README's test command does)"
    );
    script
}

struct Setup {
    service: Service,
    home: tempfile::TempDir,
    work: tempfile::TempDir,
    /// Marks the agent's processes (in their environment), to find any left behind.
    mark: String,
}

async fn setup(agent: ExternalAgentInput) -> Setup {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), "").unwrap();
    // PATH only: whether an agent's command is installed is looked up on it.
    let service = Service::new(
        Ok(MemoHome::at(home.path())),
        Arc::new(MemoryCredentialStore::new()),
        Arc::new(|name: &str| (name == "PATH").then(|| std::env::var(name).ok()).flatten()),
    );
    // Unique per setup: the tests of this file run at once.
    let mark = format!("memo-test-{}-{}", std::process::id(), setup_number());
    let mut agent = agent;
    agent.env.push(EnvValue {
        name: "MEMO_TEST_MARK".into(),
        value: mark.clone(),
    });
    service.save_external_agent(&agent, false).await.unwrap();
    Setup {
        service,
        home,
        work,
        mark,
    }
}

/// A number no other setup of this process has.
fn setup_number() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

fn claude_code(mock: &MockLlmServer, user_home: &Path) -> ExternalAgentInput {
    let env = |name: &str, value: &str| EnvValue {
        name: name.into(),
        value: value.into(),
    };
    std::fs::create_dir_all(user_home.join(".claude")).unwrap();
    let home = user_home.display().to_string();
    ExternalAgentInput {
        name: "claude".into(),
        command: "node".into(),
        args: vec![agent_script().display().to_string()],
        env: vec![
            env("ANTHROPIC_BASE_URL", &mock.base_url()),
            env("HOME", &home),
            env("CLAUDE_CONFIG_DIR", &format!("{home}/.claude")),
            env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
            env("DISABLE_TELEMETRY", "1"),
            env("DISABLE_AUTOUPDATER", "1"),
            env("DISABLE_ERROR_REPORTING", "1"),
            // Claude Code refuses to run as root otherwise (CI runs as root).
            env("IS_SANDBOX", "1"),
        ],
        // Through the keychain, as a person's key would go.
        secrets: vec![SecretInput {
            name: "ANTHROPIC_API_KEY".into(),
            value: Some("sk-test-external-agent".into()),
        }],
        offer_mcp_servers: true,
    }
}

/// A new session in `cwd` on agent `agent`.
fn start(s: &Setup, cwd: &Path, agent: &str) -> memo_protocol::SessionSummary {
    s.service
        .start_external_session(ExternalSessionRequest {
            cwd: cwd.to_path_buf(),
            agent: agent.into(),
            approval_mode: None,
        })
        .unwrap()
}

/// Claude Code counts tokens once per session with a one-word request first.
fn count_answer() -> MockResponse {
    MockResponse::text("x").when("\"count\"")
}

fn edit(id: &str, path: &Path, old: &str, new: &str) -> MockResponse {
    let args = serde_json::json!({
        "file_path": path, "old_string": old, "new_string": new
    });
    MockResponse::empty()
        .with_tool(MockToolCall::new("mcp__acp__Edit", args.to_string()).with_id(id))
}

/// Sends `text` and answers each approval with `answer`; returns the turn's events and
/// the questions asked.
async fn turn(
    service: &Service,
    id: &SessionId,
    text: &str,
    answer: impl Fn(&ApprovalRequest) -> ReviewDecision,
) -> (Vec<AgentEvent>, Vec<ApprovalRequest>) {
    let after = service.session(id).unwrap().last_seq;
    let mut events = service.subscribe(id, after).unwrap();
    service
        .submit(
            id,
            Op::UserTurn {
                input: UserInput::text(text),
            },
        )
        .unwrap();
    let (mut seen, mut asked) = (Vec::new(), Vec::new());
    loop {
        let env = tokio::time::timeout(Duration::from_secs(90), events.recv())
            .await
            .expect("the turn did not end in time")
            .unwrap();
        if let AgentEvent::ApprovalRequested { request } = &env.event {
            service
                .submit(
                    id,
                    Op::ResolveApproval {
                        request_id: request.request_id.clone(),
                        decision: answer(request),
                    },
                )
                .unwrap();
            asked.push(request.clone());
        }
        let end = matches!(env.event, AgentEvent::TurnEnded { .. });
        seen.push(env.event);
        if end {
            return (seen, asked);
        }
    }
}

fn ended(events: &[AgentEvent]) -> TurnEndReason {
    events
        .iter()
        .find_map(|e| match e {
            AgentEvent::TurnEnded { reason, .. } => Some(*reason),
            _ => None,
        })
        .unwrap()
}

fn errors(events: &[AgentEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// Processes still running with the test's mark in their environment.
fn left_behind(mark: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let needle = format!("MEMO_TEST_MARK={mark}");
        if environ.split(|b| *b == 0).any(|v| v == needle.as_bytes()) {
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            // A zombie is gone already; only its parent has not reaped it.
            if !stat.contains(") Z ") {
                found.push(pid);
            }
        }
    }
    found
}

async fn gone(mark: &str) -> Vec<String> {
    for _ in 0..50 {
        if left_behind(mark).is_empty() {
            return Vec::new();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    left_behind(mark)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_codes_edits_ask_in_memos_card_land_show_in_changes_revert_by_hunk_and_its_command_runs_in_memos_terminal(
) {
    let mock = MockLlmServer::start_with(Vec::new()).await.unwrap();
    let user_home = tempfile::tempdir().unwrap();
    let s = setup(claude_code(&mock, user_home.path())).await;
    let work = s.work.path().canonicalize().unwrap();
    let file = work.join("a.txt");
    std::fs::write(&file, A).unwrap();
    assert!(Command::new("sh")
        .arg("-c")
        .arg("git init -q . && git add -A && git -c user.email=t@e -c user.name=t commit -qm init")
        .current_dir(&work)
        .status()
        .unwrap()
        .success());
    // The key went to the keychain, not config.toml.
    let config = std::fs::read_to_string(s.home.path().join("config.toml")).unwrap();
    assert!(config.contains("[external_agents.claude]") && !config.contains("sk-test"));
    let page = s.service.external_agents_page().await.unwrap();
    assert!(page.agents[0].secrets[0].stored && page.agents[0].found);

    let prompt = "Please edit a.txt";
    mock.extend([
        count_answer(),
        edit("toolu_e1", &file, "two\n", "TWO\n").with_text("Editing.").when(prompt),
        edit("toolu_e2", &file, "eleven\n", "ELEVEN\n").when(prompt),
        MockResponse::empty()
            .with_tool(
                MockToolCall::new(
                    "mcp__acp__Bash",
                    r#"{"command":"echo hi-from-memo-pty && sleep 0.6 && grep -c TWO a.txt","timeout":10000,"description":"Count"}"#,
                )
                .with_id("toolu_b1"),
            )
            .when(prompt),
        MockResponse::text("Both edited.").when(prompt),
        // The next prompt: its edit is refused.
        edit("toolu_e3", &file, "three\n", "THREE\n").when(prompt),
        MockResponse::text("Left it.").when(prompt),
    ]);

    let summary = start(&s, &work, "claude");
    assert_eq!(summary.provider, "acp:claude");
    let id = summary.id.clone();
    let approve = |_: &ApprovalRequest| ReviewDecision::ApproveOnce {
        accepted_hunks: None,
        accepted_edits: None,
    };
    let (events, asked) = turn(&s.service, &id, prompt, approve).await;
    assert_eq!(
        ended(&events),
        TurnEndReason::Completed,
        "{:?}",
        errors(&events)
    );
    assert!(events.iter().any(|e| matches!(
        e,
        AgentEvent::ExternalAgentStarted { label, resumed: false, .. } if label == "Claude Code"
    )));
    // Memo's card asked for each edit (with its diff) and the command.
    let risks: Vec<RiskLevel> = asked.iter().map(|r| r.risk).collect();
    assert_eq!(
        risks,
        [RiskLevel::Write, RiskLevel::Write, RiskLevel::Execute]
    );
    assert!(asked[0].diff.as_ref().unwrap().unified.contains("+TWO"));
    assert_eq!(asked[0].fingerprint, format!("write:{}", file.display()));
    assert_eq!(
        asked[2].command.as_deref(),
        Some("echo hi-from-memo-pty && sleep 0.6 && grep -c TWO a.txt")
    );
    // What it printed showed on its card while it ran, before its end.
    let live = events.iter().position(|e| matches!(
        e,
        AgentEvent::ToolOutput { call_id, chunk } if call_id.0 == "toolu_b1" && chunk.contains("hi-from-memo-pty")
    ));
    let end = events.iter().position(|e| {
        matches!(
            e,
            AgentEvent::ToolCallEnd { call_id, .. } if call_id.0 == "toolu_b1"
        )
    });
    assert!(
        live.is_some() && live < end,
        "no live output before the command's end"
    );
    let on_disk = std::fs::read_to_string(&file).unwrap();
    assert_eq!(on_disk, A.replace("two", "TWO").replace("eleven", "ELEVEN"));
    // The command ran on Memo's terminal, after the edits.
    let command = events
        .iter()
        .find_map(|e| match e {
            AgentEvent::ToolCallEnd {
                view: Some(ToolView::Command(view)),
                output,
                status,
                ..
            } => Some((view.clone(), output.clone(), *status)),
            _ => None,
        })
        .expect("a command card");
    assert_eq!(command.2, ToolStatus::Ok);
    assert!(command.1.contains("hi-from-memo-pty"), "{}", command.1);
    assert!(command.1.contains('1'), "{}", command.1);
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::TextDelta { delta } => Some(delta.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        text.contains("Editing.") && text.contains("Both edited."),
        "{text}"
    );

    // The changes panel has the agent's edits, and reverts one hunk of them.
    let report = s
        .service
        .session_changes(&id, ChangeScope::Session)
        .unwrap();
    assert_eq!(report.files.len(), 1, "{:?}", report.files);
    let change = &report.files[0];
    assert_eq!(change.path, "a.txt");
    let diff = change.diff.as_ref().unwrap();
    assert_eq!(diff.hunks.len(), 2);
    s.service
        .revert_change(
            &id,
            &RevertRequest {
                scope: ChangeScope::Session,
                path: "a.txt".into(),
                hunks: Some(vec![0]),
                shown_diff: diff.unified.clone(),
                force: false,
            },
        )
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        A.replace("eleven", "ELEVEN")
    );

    // A deny is a deny: the file stays as it is, the call's card ends failed.
    let before = std::fs::read_to_string(&file).unwrap();
    let deny = |_: &ApprovalRequest| ReviewDecision::Deny { reason: None };
    let (events, asked) = turn(&s.service, &id, "And three?", deny).await;
    assert_eq!(asked.len(), 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    assert!(events.iter().any(|e| matches!(
        e,
        AgentEvent::ToolCallEnd { status: ToolStatus::Error, call_id, .. } if call_id.0 == "toolu_e3"
    )));
    assert_eq!(ended(&events), TurnEndReason::Completed);

    // The key reached the agent's requests (from the keychain, through its environment).
    let requests = mock.requests();
    assert!(!requests.is_empty());
    assert!(requests
        .iter()
        .all(|r| r.header("x-api-key") == Some("sk-test-external-agent")));

    assert!(s.service.close_session(&id).await);
    assert_eq!(
        gone(&s.mark).await,
        Vec::<String>::new(),
        "processes left behind"
    );
    s.service.shutdown().await;
    mock.shutdown().await;
}

fn script_agent(name: &str, script: &str) -> ExternalAgentInput {
    ExternalAgentInput {
        name: name.into(),
        command: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: Vec::new(),
        secrets: Vec::new(),
        offer_mcp_servers: true,
    }
}

async fn first_turn(s: &Setup, agent: &str) -> (SessionId, Vec<AgentEvent>) {
    let summary = start(s, s.work.path(), agent);
    let (events, _) = turn(&s.service, &summary.id, "hello", |_| ReviewDecision::Deny {
        reason: None,
    })
    .await;
    (summary.id, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_prints_junk_or_dies_ends_the_turn_with_what_it_said_and_loses_nothing() {
    let s = setup(script_agent(
        "junk",
        // Its stderr first: stopped at its junk, it would not get to say more.
        "echo 'starting up' >&2; echo 'Welcome to my agent!'; sleep 60",
    ))
    .await;
    let (id, events) = first_turn(&s, "junk").await;
    assert_eq!(ended(&events), TurnEndReason::Failed);
    let said = errors(&events).join("\n");
    assert!(said.contains("junk could not be used"), "{said}");
    assert!(said.contains("Welcome to my agent!"), "{said}");
    assert!(said.contains("starting up"), "{said}");
    // The message is stored with the failure; the session takes the next one.
    let stored = s.service.events(&id, 0, usize::MAX).unwrap();
    assert!(stored
        .iter()
        .any(|e| matches!(&e.event, AgentEvent::TurnStarted { input } if input.text == "hello")));
    assert_eq!(gone(&s.mark).await, Vec::<String>::new());

    let s2 = setup(script_agent("dies", "echo 'no such model' >&2; exit 3")).await;
    let (_, events) = first_turn(&s2, "dies").await;
    assert_eq!(ended(&events), TurnEndReason::Failed);
    let said = errors(&events).join("\n");
    assert!(
        said.contains("no such model") && said.contains("exit"),
        "{said}"
    );

    let s3 = setup(script_agent("missing", "exec /nonexistent/agent")).await;
    let check = s3
        .service
        .check_external_agent("missing", None)
        .await
        .unwrap();
    assert!(!check.ok && check.error.is_some());
    // A command on no PATH: said before anything starts, and so is a session's turn.
    let mut absent = script_agent("absent", "");
    absent.command = "memo-no-such-agent".into();
    absent.args.clear();
    s3.service
        .save_external_agent(&absent, false)
        .await
        .unwrap();
    let page = s3.service.external_agents_page().await.unwrap();
    assert!(
        !page
            .agents
            .iter()
            .find(|a| a.name == "absent")
            .unwrap()
            .found
    );
    let check = s3
        .service
        .check_external_agent("absent", None)
        .await
        .unwrap();
    assert!(check.error.unwrap().contains("not installed"));
    let (_, events) = first_turn(&s3, "absent").await;
    assert_eq!(ended(&events), TurnEndReason::Failed);
    assert!(
        errors(&events).join("\n").contains("not installed"),
        "{:?}",
        errors(&events)
    );
    s.service.shutdown().await;
    s2.service.shutdown().await;
    s3.service.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_hangs_is_stopped_by_an_interrupt_and_by_closing_the_session() {
    let s = setup(script_agent("hangs", "sleep 600")).await;
    let summary = start(&s, s.work.path(), "hangs");
    let id = summary.id.clone();
    let mut events = s.service.subscribe(&id, summary.last_seq).unwrap();
    s.service
        .submit(
            &id,
            Op::UserTurn {
                input: UserInput::text("hello"),
            },
        )
        .unwrap();
    // Running: the agent never answers `initialize`.
    for _ in 0..200 {
        if !left_behind(&s.mark).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!left_behind(&s.mark).is_empty(), "the agent did not start");
    s.service.submit(&id, Op::Interrupt).unwrap();
    let reason = loop {
        let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .expect("the interrupt did not end the turn")
            .unwrap();
        if let AgentEvent::TurnEnded { reason, .. } = env.event {
            break reason;
        }
    };
    assert_eq!(reason, TurnEndReason::Interrupted);
    assert_eq!(gone(&s.mark).await, Vec::<String>::new());
    assert!(s.service.close_session(&id).await);
    s.service.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_rule_answers_claude_code_a_stop_cancels_it_and_a_resumed_session_continues_its_own()
{
    let mock = MockLlmServer::start_with(Vec::new()).await.unwrap();
    let user_home = tempfile::tempdir().unwrap();
    let s = setup(claude_code(&mock, user_home.path())).await;
    let work = s.work.path().canonicalize().unwrap();
    let file = work.join("a.txt");
    std::fs::write(&file, A).unwrap();
    let first = "Please fix a.txt";
    let long: String = (1..=300).map(|n| format!("word{n} ")).collect();
    mock.extend([
        count_answer(),
        edit("toolu_k1", &file, "two\n", "TWO\n").when(first),
        edit("toolu_k2", &file, "eleven\n", "ELEVEN\n").when(first),
        MockResponse::text("Fixed.").when(first),
        // The second prompt streams slowly and is stopped.
        MockResponse::text(long)
            .chunk_chars(4)
            .drip(Duration::from_millis(30))
            .when(first),
    ]);
    let summary = start(&s, &work, "claude");
    let id = summary.id.clone();

    // "Always in this folder" keeps a rule for the file: the second edit runs unasked,
    // its card saying which rule let it.
    let always = |_: &ApprovalRequest| ReviewDecision::ApproveAlways { project: true };
    let (events, asked) = turn(&s.service, &id, first, always).await;
    assert_eq!(
        ended(&events),
        TurnEndReason::Completed,
        "{:?}",
        errors(&events)
    );
    assert_eq!(
        asked.len(),
        1,
        "the kept rule did not answer the second edit"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        AgentEvent::ToolCallAllowed { call_id, .. } if call_id.0 == "toolu_k2"
    )));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        A.replace("two", "TWO").replace("eleven", "ELEVEN")
    );
    // Claude Code's own modes and models, as the session's status keeps them for the
    // header (also when the page of history that said them is not loaded).
    let settings = s.service.session_status(&id).unwrap().agent_settings;
    let mode = settings.iter().find(|s| s.id == "mode").expect("no modes");
    assert!(mode.choices.iter().any(|c| c.value == "plan"), "{mode:?}");
    assert!(settings.iter().any(|s| s.id == "model"), "{settings:?}");

    // Stop while it streams: the agent is told (session/cancel) and the turn ends so.
    let after = s.service.session(&id).unwrap().last_seq;
    let mut events = s.service.subscribe(&id, after).unwrap();
    s.service
        .submit(
            &id,
            Op::UserTurn {
                input: UserInput::text("Say a lot"),
            },
        )
        .unwrap();
    let mut stopped = false;
    let reason = loop {
        let env = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .expect("the stopped turn did not end")
            .unwrap();
        match env.event {
            AgentEvent::TextDelta { .. } if !stopped => {
                stopped = true;
                s.service.submit(&id, Op::Interrupt).unwrap();
            }
            AgentEvent::TurnEnded { reason, .. } => break reason,
            _ => {}
        }
    };
    assert!(stopped);
    assert_eq!(reason, TurnEndReason::Interrupted);

    // Closed and opened again: the agent starts anew and continues its own session.
    assert!(s.service.close_session(&id).await);
    assert_eq!(gone(&s.mark).await, Vec::<String>::new());
    mock.extend([
        count_answer(),
        MockResponse::text("Still here.").when(first),
    ]);
    s.service.resume_session(&id, None).unwrap();
    let (events, _) = turn(&s.service, &id, "Are you still there?", |_| {
        ReviewDecision::Deny { reason: None }
    })
    .await;
    assert_eq!(
        ended(&events),
        TurnEndReason::Completed,
        "{:?}",
        errors(&events)
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, AgentEvent::ExternalAgentStarted { resumed: true, .. })),
        "the agent did not continue its session"
    );
    // It answered with the earlier conversation in front of it.
    let last = mock.last_request().unwrap();
    assert!(last.body.to_string().contains(first), "{}", last.body);
    assert!(s.service.close_session(&id).await);
    assert_eq!(gone(&s.mark).await, Vec::<String>::new());
    s.service.shutdown().await;
    mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_on_claude_code_and_one_of_memos_own_run_at_once_in_the_active_list() {
    let mock = MockLlmServer::start_with(Vec::new()).await.unwrap();
    let user_home = tempfile::tempdir().unwrap();
    let s = setup(claude_code(&mock, user_home.path())).await;
    // Memo's own provider too, on the same mock.
    let config = s.home.path().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!(
            "current_provider = \"mock\"\n{text}\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"{}/v1\"\n",
            mock.base_url()
        ),
    )
    .unwrap();
    let work = s.work.path().canonicalize().unwrap();
    let slow = |text: &str, when: &str| {
        MockResponse::text(text)
            .chunk_chars(3)
            .drip(Duration::from_millis(40))
            .when(when)
    };
    mock.extend([
        count_answer(),
        count_answer(),
        slow("Alpha answers slowly, word by word.", "Alpha"),
        slow("Beta answers slowly too, word by word.", "Beta"),
        slow("Gamma is Memo's own answer.", "Gamma"),
    ]);
    let a = start(&s, &work, "claude").id;
    let b = start(&s, &work, "claude").id;
    let c = s
        .service
        .start_session(memo_service::StartRequest {
            cwd: work.clone(),
            ..memo_service::StartRequest::default()
        })
        .unwrap()
        .id;
    let mut streams = Vec::new();
    for (id, prompt) in [(&a, "Alpha"), (&b, "Beta"), (&c, "Gamma")] {
        streams.push(s.service.subscribe(id, 0).unwrap());
        s.service
            .submit(
                id,
                Op::UserTurn {
                    input: UserInput::text(prompt),
                },
            )
            .unwrap();
    }
    // The Active list has all three running at the same moment.
    let mut most = 0;
    let ended = async {
        let mut answers = Vec::new();
        for stream in &mut streams {
            let mut said = String::new();
            loop {
                let env = tokio::time::timeout(Duration::from_secs(60), stream.recv())
                    .await
                    .expect("a turn did not end")
                    .unwrap();
                match env.event {
                    AgentEvent::TextDelta { delta } => said.push_str(&delta),
                    AgentEvent::TurnEnded { reason, .. } => {
                        assert_eq!(reason, TurnEndReason::Completed, "{said}");
                        break;
                    }
                    _ => {}
                }
            }
            answers.push(said);
        }
        answers
    };
    tokio::pin!(ended);
    let answers = loop {
        tokio::select! {
            answers = &mut ended => break answers,
            _ = tokio::time::sleep(Duration::from_millis(20)) => {
                let running = s
                    .service
                    .activity()
                    .iter()
                    .filter(|a| a.state == memo_protocol::ActivityState::Running)
                    .count();
                most = most.max(running);
            }
        }
    };
    assert_eq!(most, 3, "the three sessions did not run at once");
    assert_eq!(
        answers,
        [
            "Alpha answers slowly, word by word.",
            "Beta answers slowly too, word by word.",
            "Gamma is Memo's own answer."
        ]
    );
    s.service.shutdown().await;
    assert_eq!(gone(&s.mark).await, Vec::<String>::new());
    mock.shutdown().await;
}
