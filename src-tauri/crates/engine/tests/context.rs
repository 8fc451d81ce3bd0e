//! Prompt layers, slash commands, `$skill`/`@path` expansion and context compaction,
//! through a real Engine (config.toml, Memo home, workspace on disk) against the mock LLM.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{sent_system_prompt, sent_tool_names, ALL_APIS};
use memo_config::{Config, MemoryCredentialStore};
use memo_context::compaction;
use memo_engine::{Engine, EngineOptions, EventReceiver, SessionHandle, SessionOptions};
use memo_model::Message;
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, CompactionStatus, CompactionTrigger, EventEnvelope, HostAction, Op,
    PromptLayerKind, UserInput,
};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};
use serde_json::Value;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

struct World {
    mock: MockLlmServer,
    dir: tempfile::TempDir,
    store: Arc<Store>,
    api: WireApi,
}

impl World {
    async fn new(api: WireApi, responses: Vec<MockResponse>) -> World {
        let mock = MockLlmServer::start_with(responses).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
        let w = World {
            mock,
            dir,
            store,
            api,
        };
        let (home, project) = (w.home(), w.project());
        std::fs::create_dir_all(project.join(".git")).unwrap();
        write(&home.join("SOUL.md"), "Answer like a pirate.");
        write(&home.join("AGENTS.md"), "Home rule: be careful.");
        write(&project.join("AGENTS.md"), "Root rule: use cargo.");
        write(&w.cwd().join("AGENTS.md"), "Engine rule: no tauri.");
        write(&w.cwd().join("notes.md"), "Remember the milk.\n");
        write(
            &project.join(".claude/skills/pdf/SKILL.md"),
            "---\nname: pdf\ndescription: Fill in PDF forms.\n---\nPDF STEPS: open, fill, save.\n",
        );
        write(
            &project.join(".memo/commands/review.md"),
            "---\ndescription: Review something\n---\nReview $ARGUMENTS carefully. See @notes.md",
        );
        w
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }
    fn cwd(&self) -> PathBuf {
        self.project().join("engine")
    }

    fn engine(&self, extra: &str) -> Engine {
        self.engine_with(extra, "")
    }

    /// `provider_extra`: more keys of the mock provider's entry.
    fn engine_with(&self, extra: &str, provider_extra: &str) -> Engine {
        let base = match self.api {
            WireApi::Openai => format!("{}/v1", self.mock.base_url()),
            _ => self.mock.base_url(),
        };
        let api = format!("{:?}", self.api).to_lowercase();
        let toml = format!(
            "current_provider = \"mock\"\n{extra}\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\napi = \"{api}\"\nbase_url = \"{base}\"\n{provider_extra}\n"
        );
        let config = Config::parse(&toml, &self.home().join("config.toml")).unwrap();
        Engine::new(EngineOptions {
            memo_home: Some(self.home()),
            config,
            store: self.store.clone(),
            credentials: Arc::new(MemoryCredentialStore::new()),
            env: Arc::new(|_: &str| None),
            checkpoints: None,
        })
    }

    fn start(&self, engine: &Engine) -> (SessionHandle, EventReceiver) {
        let session = engine
            .start_session(SessionOptions {
                cwd: self.cwd(),
                ..Default::default()
            })
            .unwrap();
        let events = session.subscribe(0).unwrap();
        (session, events)
    }

    fn bodies(&self) -> Vec<Value> {
        self.mock.requests().into_iter().map(|r| r.body).collect()
    }
}

async fn until(
    events: &mut EventReceiver,
    pred: impl Fn(&AgentEvent) -> bool,
) -> Vec<EventEnvelope> {
    let mut seen = Vec::new();
    loop {
        let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "timed out; seen {:?}",
                    seen.iter()
                        .map(|e: &EventEnvelope| e.event.kind())
                        .collect::<Vec<_>>()
                )
            })
            .expect("channel open");
        let hit = pred(&env.event);
        seen.push(env);
        if hit {
            return seen;
        }
    }
}

async fn turn(
    session: &SessionHandle,
    events: &mut EventReceiver,
    text: &str,
) -> Vec<EventEnvelope> {
    session
        .submit(Op::UserTurn {
            input: UserInput::text(text),
        })
        .unwrap();
    until(events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await
}

async fn command(
    session: &SessionHandle,
    events: &mut EventReceiver,
    text: &str,
) -> (Vec<EventEnvelope>, bool, String, Option<HostAction>) {
    session
        .submit(Op::UserTurn {
            input: UserInput::text(text),
        })
        .unwrap();
    let seen = until(events, |e| matches!(e, AgentEvent::CommandResult { .. })).await;
    let Some(AgentEvent::CommandResult {
        ok, output, action, ..
    }) = seen.last().map(|e| e.event.clone())
    else {
        unreachable!()
    };
    (seen, ok, output, action)
}

/// OpenAI request messages as (role, content) pairs, without the system message, and a
/// first message without the session context before it (tested on its own below).
fn messages(body: &Value) -> Vec<(String, String)> {
    raw_messages(body)
        .into_iter()
        .map(|(role, text)| {
            let plain = match text.split_once("</session_context>\n\n") {
                Some((_, rest)) if text.starts_with("<session_context>") => rest.to_owned(),
                _ => text,
            };
            (role, plain)
        })
        .collect()
}

fn raw_messages(body: &Value) -> Vec<(String, String)> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] != "system")
        .map(|m| {
            (
                m["role"].as_str().unwrap_or_default().to_owned(),
                m["content"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn last_user(body: &Value) -> String {
    messages(body)
        .into_iter()
        .rev()
        .find(|(r, _)| r == "user")
        .unwrap()
        .1
}

async fn stop(session: SessionHandle) {
    session.submit(Op::Shutdown).unwrap();
    session.closed().await;
}

#[tokio::test]
async fn the_system_prompt_sent_carries_every_layer_in_all_wire_formats() {
    for api in ALL_APIS {
        let w = World::new(api, vec![MockResponse::text("Arr.")]).await;
        let engine = w.engine("");
        let (session, mut events) = w.start(&engine);
        turn(&session, &mut events, "hi").await;
        let body = &w.bodies()[0];
        let system = sent_system_prompt(api, body);
        for needle in [
            "You are Memo",
            "# Environment",
            "- Model: mock-model",
            "Answer like a pirate.",
            "soft preference",
            "Home rule: be careful.",
            "Root rule: use cargo.",
            "Engine rule: no tauri.",
            &format!("({})", w.cwd().join("AGENTS.md").display()),
            "- pdf: Fill in PDF forms.",
            "- skill-creator:",
        ] {
            assert!(
                system.contains(needle),
                "{api:?}: {needle} missing from\n{system}"
            );
        }
        // Deeper instructions come later (and win).
        assert!(system.find("Root rule").unwrap() < system.find("Engine rule").unwrap());
        assert!(sent_tool_names(api, body).contains(&"read_skill".to_owned()));

        // The report describes exactly what was sent.
        let report = session.prompt_report().unwrap();
        for layer in &report.layers[..5] {
            assert!(
                system.contains(layer.content.trim()),
                "{api:?} {:?}",
                layer.kind
            );
        }
        assert_eq!(report.layers[5].kind, PromptLayerKind::ToolDefinitions);
        let preview = engine
            .prompt_layers(&SessionOptions {
                cwd: w.cwd(),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(preview.layers, report.layers);
        stop(session).await;
        w.mock.shutdown().await;
    }
}

#[tokio::test]
async fn builtin_commands_answer_without_the_model() {
    let w = World::new(WireApi::Openai, vec![]).await;
    let engine = w.engine("[mcp_servers.github]\ncommand = \"gh-mcp\"\n");
    let (session, mut events) = w.start(&engine);

    let (_, ok, help, _) = command(&session, &mut events, "/help").await;
    assert!(ok);
    assert!(
        help.contains("/compact [focus]") && help.contains("/review — Review something"),
        "{help}"
    );
    let (_, ok, skills, _) = command(&session, &mut events, "/skills").await;
    assert!(
        ok && skills.contains("$pdf — Fill in PDF forms."),
        "{skills}"
    );
    let (_, _, models, action) = command(&session, &mut events, "/models").await;
    assert!(
        models.contains("Current model: mock · mock-model")
            && models.contains("- mock: mock-model via openai (current)"),
        "{models}"
    );
    assert_eq!(action, Some(HostAction::PickModel));
    let (_, _, mcp, _) = command(&session, &mut events, "/mcp").await;
    // The exact wording belongs to the MCP layer; the configured server is listed.
    assert!(mcp.contains("github"), "{mcp}");
    let (_, _, _, action) = command(&session, &mut events, "/new").await;
    assert_eq!(action, Some(HostAction::NewSession));
    let (_, _, _, action) = command(&session, &mut events, "/resume abc").await;
    assert_eq!(
        action,
        Some(HostAction::ResumeSession {
            session_id: Some(memo_protocol::SessionId::new("abc"))
        })
    );
    let (_, ok, unknown, _) = command(&session, &mut events, "/frobnicate now").await;
    assert!(
        !ok && unknown.contains("Unknown command /frobnicate"),
        "{unknown}"
    );

    // None of it reached the model or the conversation.
    assert!(w.mock.requests().is_empty());
    assert!(session.history().is_empty());
    stop(session).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn custom_commands_skills_and_paths_expand_before_the_model_is_called() {
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::text("Reviewed."),
            MockResponse::text("Filled."),
            MockResponse::tool_call("read_skill", r#"{"name":"pdf"}"#),
            MockResponse::text("Done."),
            MockResponse::text("Wrote AGENTS.md."),
        ],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);

    let seen = turn(&session, &mut events, "/review the parser").await;
    let sent = last_user(&w.bodies()[0]);
    assert!(
        sent.starts_with("Review the parser carefully. See @notes.md"),
        "{sent}"
    );
    assert!(
        sent.contains("<file path=\"notes.md\">\nRemember the milk.\n</file>"),
        "{sent}"
    );
    // The log keeps what the user typed next to what the model got.
    let started = seen.iter().find_map(|e| match &e.event {
        AgentEvent::TurnStarted { input } => Some(input.clone()),
        _ => None,
    });
    let input = started.unwrap();
    assert_eq!(input.text, "/review the parser");
    let expansion = input.expansion.unwrap();
    assert_eq!(expansion.command.as_deref(), Some("/review"));
    assert_eq!(expansion.attachments.len(), 1);

    turn(
        &session,
        &mut events,
        "use $pdf on form.pdf and @missing.txt",
    )
    .await;
    let sent = last_user(&w.bodies()[1]);
    assert!(
        sent.starts_with("use $pdf on form.pdf and @missing.txt\n\n<skill name=\"pdf\""),
        "{sent}"
    );
    assert!(sent.contains("PDF STEPS: open, fill, save."));

    let seen = turn(&session, &mut events, "which skill?").await;
    let result = seen.iter().find_map(|e| match &e.event {
        AgentEvent::ToolCallEnd { name, output, .. } if name == "read_skill" => {
            Some(output.clone())
        }
        _ => None,
    });
    assert!(result.unwrap().contains("PDF STEPS"));

    let seen = turn(&session, &mut events, "/init").await;
    let sent = last_user(&w.bodies()[4]);
    assert!(
        sent.contains("Create (or update) the file `AGENTS.md`"),
        "{sent}"
    );
    assert!(seen
        .iter()
        .any(|e| matches!(&e.event, AgentEvent::TurnStarted { input } if input.text == "/init")));
    stop(session).await;
    w.mock.shutdown().await;
}

const SNAPSHOT: &str =
    "<state_snapshot>\n<overall_goal>Fix the parser.</overall_goal>\n</state_snapshot>";

#[tokio::test]
async fn compact_summarises_older_history_and_a_resumed_session_sends_the_same() {
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::tool_call("list_dir", "{}"),
            MockResponse::text(format!("First answer {}", "x".repeat(400))),
            MockResponse::text(format!("Second answer {}", "y".repeat(400))),
            MockResponse::text("Third."),
            MockResponse::text(format!("<scratchpad>thinking</scratchpad>\n{SNAPSHOT}"))
                .with_usage(50, 20),
            MockResponse::text("Fourth."),
            MockResponse::text("Fifth."),
        ],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "first").await;
    turn(&session, &mut events, "second").await;
    turn(&session, &mut events, "third").await;
    let before = session.history();

    let (seen, ok, output, _) =
        command(&session, &mut events, "/compact keep the parser details").await;
    assert!(ok, "{output}");
    let (kept, summary) = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::ContextCompacted {
                trigger: CompactionTrigger::Manual,
                status: CompactionStatus::Compacted,
                kept_messages,
                summary,
                ..
            } => Some((*kept_messages as usize, summary.clone().unwrap())),
            _ => None,
        })
        .unwrap();
    assert_eq!(summary, SNAPSHOT);
    assert!(seen
        .iter()
        .any(|e| matches!(e.event, AgentEvent::Usage { step, .. } if step.input_tokens == 50)));

    // The summarisation request: the compaction prompt, the older part of the history and
    // the request to write the snapshot, with the user's focus.
    let bodies = w.bodies();
    let summarise = &bodies[4];
    assert!(sent_system_prompt(WireApi::Openai, summarise)
        .starts_with("You compress a coding agent's conversation history"));
    let asked = last_user(summarise);
    assert!(
        asked.contains("Write the\n<state_snapshot> now")
            && asked.contains("keep the parser details"),
        "{asked}"
    );
    let split = before.len() - kept;
    assert!(
        matches!(before[split], Message::User { .. }),
        "cut at a user message"
    );
    assert_eq!(messages(summarise).len(), split + 1);

    // The next request carries the snapshot, the acknowledgement and the kept messages.
    turn(&session, &mut events, "fourth").await;
    let sent = messages(&w.bodies()[5]);
    assert!(sent[0].0 == "user" && sent[0].1.ends_with(SNAPSHOT));
    assert_eq!(sent[1].0, "assistant");
    assert_eq!(
        sent.len(),
        2 + kept + 1,
        "snapshot, ack, kept messages, the new one"
    );
    let history = session.history();
    assert_eq!(&history[2..2 + kept], &before[split..]);

    // A resumed session rebuilds the same history from the log and sends it.
    let id = session.id().clone();
    stop(session).await;
    let resumed = engine.resume_session(&id, None).unwrap();
    assert_eq!(resumed.history(), history);
    let mut events = resumed.subscribe(resumed.last_seq()).unwrap();
    turn(&resumed, &mut events, "fifth").await;
    let again = messages(&w.bodies()[6]);
    let mut expected = messages(&w.bodies()[5]);
    expected.push(("assistant".into(), "Fourth.".into()));
    expected.push(("user".into(), "fifth".into()));
    assert_eq!(again, expected);
    stop(resumed).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn clear_forgets_the_conversation() {
    let w = World::new(
        WireApi::Openai,
        vec![MockResponse::text("One."), MockResponse::text("Two.")],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "one").await;
    let (_, ok, _, _) = command(&session, &mut events, "/clear").await;
    assert!(ok);
    assert!(session.history().is_empty());
    turn(&session, &mut events, "two").await;
    assert_eq!(
        messages(&w.bodies()[1]),
        vec![("user".to_owned(), "two".to_owned())]
    );
    stop(session).await;
    w.mock.shutdown().await;
}

/// A config whose window puts the 90% threshold `room` tokens above the fixed prompt.
fn tight_window(w: &World, room: u64) -> String {
    let profile = |window: u64| format!("[model_profiles.mock-model]\ncontext_window = {window}\n");
    let fixed = |config: &str| {
        w.engine(config)
            .prompt_layers(&SessionOptions {
                cwd: w.cwd(),
                ..Default::default()
            })
            .unwrap()
            .total_tokens
    };
    // A window this small gets the compact prompt, so measure the prompt at that size.
    let first = (fixed("") + room) * 100 / 90 + 1;
    let window = (fixed(&profile(first)) + room) * 100 / 90 + 1;
    profile(window)
}

#[tokio::test]
async fn auto_compaction_runs_at_the_threshold_before_the_step() {
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::text("Noted."),
            MockResponse::text(SNAPSHOT),
            MockResponse::text("Answer two."),
        ],
    )
    .await;
    let engine = w.engine(&tight_window(&w, 1500));
    let (session, mut events) = w.start(&engine);
    let big = "word ".repeat(1000); // ~1250 tokens by the byte estimate
    turn(&session, &mut events, &format!("one {big}")).await;
    let seen = turn(&session, &mut events, &format!("two {big}")).await;
    let compacted = seen.iter().find_map(|e| match &e.event {
        AgentEvent::ContextCompacted {
            trigger,
            status,
            kept_messages,
            ..
        } => Some((*trigger, *status, *kept_messages)),
        _ => None,
    });
    assert_eq!(
        compacted,
        Some((CompactionTrigger::Auto, CompactionStatus::Compacted, 1))
    );
    let sent = messages(&w.bodies()[2]);
    assert_eq!(sent.len(), 3, "snapshot, ack, the current message");
    assert!(sent[0].1.ends_with(SNAPSHOT) && sent[2].1.starts_with("two "));
    stop(session).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn an_inflated_summary_leaves_history_alone_and_stops_automatic_attempts() {
    let huge = format!("<state_snapshot>{}</state_snapshot>", "z ".repeat(8000));
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::text("Noted."),
            MockResponse::text(huge),
            MockResponse::text("Answer two."),
            MockResponse::text("Answer three."),
            // The /compact at the end: in a window this small (the summary prompt and the
            // tools take most of it) the two older turns are summarised one at a time.
            MockResponse::text(SNAPSHOT),
            MockResponse::text(SNAPSHOT),
        ],
    )
    .await;
    let engine = w.engine(&tight_window(&w, 1500));
    let (session, mut events) = w.start(&engine);
    let big = "word ".repeat(1000);
    turn(&session, &mut events, &format!("one {big}")).await;
    let seen = turn(&session, &mut events, &format!("two {big}")).await;
    assert!(seen.iter().any(|e| matches!(
        e.event,
        AgentEvent::ContextCompacted {
            status: CompactionStatus::Inflated,
            ..
        }
    )));
    assert_eq!(
        messages(&w.bodies()[2]).len(),
        3,
        "history unchanged: one, answer, two"
    );

    // Still over the threshold, but no automatic retry: the third turn is one request.
    turn(&session, &mut events, "three").await;
    assert_eq!(w.bodies().len(), 4);
    assert_eq!(last_user(&w.bodies()[3]), "three");

    // A manual /compact is still allowed, and succeeds.
    let (_, ok, output, _) = command(&session, &mut events, "/compact").await;
    assert!(ok, "{output}");
    stop(session).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn a_context_overflow_from_the_provider_compacts_and_retries_once() {
    let w = World::new(
        WireApi::Openai,
        vec![
            // Long enough that the snapshot is smaller than what it replaces.
            MockResponse::text(format!("One. {}", "detail ".repeat(300))),
            MockResponse::http_error(400)
                .message("This model's maximum context length is 8192 tokens."),
            MockResponse::text(SNAPSHOT),
            MockResponse::text("Two."),
        ],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "one").await;
    let seen = turn(&session, &mut events, "two").await;
    assert!(matches!(
        seen.last().map(|e| &e.event),
        Some(AgentEvent::TurnEnded {
            reason: memo_protocol::TurnEndReason::Completed,
            ..
        })
    ));
    let sent = messages(&w.bodies()[3]);
    assert!(sent[0].1.ends_with(SNAPSHOT), "{sent:?}");
    assert_eq!(sent.last().unwrap().1, "two");
    stop(session).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn a_thinking_budget_in_the_model_profile_reaches_the_claude_request() {
    let w = World::new(
        WireApi::Anthropic,
        vec![MockResponse::text("Thought about it.")],
    )
    .await;
    let engine = w.engine("[model_profiles.mock-model]\nthinking_budget_tokens = 2048\n");
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "think first").await;
    let body = &w.bodies()[0];
    assert_eq!(body["thinking"]["budget_tokens"], 2048, "{body}");
    assert!(body["max_tokens"].as_u64().unwrap() > 2048);
    stop(session).await;
    w.mock.shutdown().await;
}

/// The prefix every request starts with: the system prompt and the tool definitions.
fn request_prefix(api: WireApi, body: &Value) -> String {
    format!("{}\n{}", sent_system_prompt(api, body), body["tools"])
}

/// Servers that cache the prompt prefix (llama.cpp, vLLM, Anthropic, OpenAI) reuse it
/// only when it is byte-identical: nothing in it may move between the steps of a turn
/// or the turns of a session (no clock, no counter, no per-request id).
#[tokio::test]
async fn the_prompt_prefix_is_byte_identical_across_steps_and_turns() {
    for api in ALL_APIS {
        let w = World::new(
            api,
            vec![
                MockResponse::tool_call("list_dir", "{}"),
                MockResponse::tool_call("read_file", r#"{"file_path":"AGENTS.md"}"#),
                MockResponse::text("First answer."),
                MockResponse::text("Second answer."),
            ],
        )
        .await;
        let engine = w.engine("");
        let (session, mut events) = w.start(&engine);
        turn(&session, &mut events, "look around").await;
        if api == WireApi::Openai {
            // Across a second boundary, once: a clock with seconds in the prompt shows here.
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        turn(&session, &mut events, "and again").await;
        let bodies = w.bodies();
        assert_eq!(bodies.len(), 4, "{api:?}");
        let first = request_prefix(api, &bodies[0]);
        assert!(
            first.contains("You are Memo") && first.contains("read_file"),
            "{api:?}"
        );
        for (i, body) in bodies.iter().enumerate().skip(1) {
            assert_eq!(
                request_prefix(api, body),
                first,
                "{api:?}: request {i} changed the prefix"
            );
        }
        stop(session).await;
        w.mock.shutdown().await;
    }
}

/// A local server reading a long prompt sends nothing for a while: the request is
/// announced (so the UI can say "reading the prompt"), the idle limit does not apply
/// before the first byte, and a first byte past its own limit fails once, not retried.
#[tokio::test]
async fn a_slow_local_server_is_waited_for_and_never_asked_twice() {
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::text("Slow but here.").first_byte_delay(Duration::from_millis(1_500)),
            MockResponse::text("Too late.").first_byte_delay(Duration::from_millis(4_000)),
        ],
    )
    .await;
    let engine = w.engine_with("", "idle_timeout_sec = 1\nfirst_byte_timeout_sec = 2");
    let (session, mut events) = w.start(&engine);
    let seen = turn(&session, &mut events, "one").await;
    let sent = seen
        .iter()
        .position(|e| matches!(e.event, AgentEvent::ModelRequestSent { local: true, step: 0, input_tokens, .. } if input_tokens > 500))
        .expect("the request is announced with its size");
    let first_delta = seen
        .iter()
        .position(|e| matches!(e.event, AgentEvent::TextDelta { .. }))
        .unwrap();
    assert!(sent < first_delta);
    assert!(matches!(
        seen.last().unwrap().event,
        AgentEvent::TurnEnded {
            reason: memo_protocol::TurnEndReason::Completed,
            ..
        }
    ));

    let seen = turn(&session, &mut events, "two").await;
    let message = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Error {
                message, retryable, ..
            } => Some((message.clone(), *retryable)),
            _ => None,
        })
        .expect("a timeout error");
    assert!(
        message.0.contains("may still be reading the prompt"),
        "{}",
        message.0
    );
    assert!(!message.1);
    assert!(!seen
        .iter()
        .any(|e| matches!(e.event, AgentEvent::Retrying { .. })));
    assert_eq!(w.bodies().len(), 2, "the long prompt was not sent again");
    stop(session).await;
    w.mock.shutdown().await;
}

/// The error bodies of Ollama and llama.cpp come through as their own words.
#[tokio::test]
async fn local_server_error_bodies_are_shown_as_they_say() {
    let ollama = r#"{"error":"model \"qwen9:7b\" not found, try pulling it first"}"#;
    let llama_cpp = r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}"#;
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::raw(404, "application/json", ollama),
            MockResponse::raw(400, "application/json", llama_cpp),
        ],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    let error_of = |seen: &[EventEnvelope]| {
        seen.iter()
            .find_map(|e| match &e.event {
                AgentEvent::Error { kind, message, .. } => Some((*kind, message.clone())),
                _ => None,
            })
            .unwrap()
    };
    let (_, message) = error_of(&turn(&session, &mut events, "hello").await);
    assert!(
        message.contains("model \"qwen9:7b\" not found, try pulling it first"),
        "{message}"
    );
    let (kind, message) = error_of(&turn(&session, &mut events, "hello again").await);
    assert!(
        message.contains("exceeds the available context size"),
        "{message}"
    );
    assert_eq!(kind, memo_protocol::ErrorKind::ContextOverflow, "{message}");
    stop(session).await;
    w.mock.shutdown().await;
}

/// Tokens of a recorded OpenAI request the way the engine estimates them (the byte
/// estimate): the system prompt and each message's text and tool calls with their framing,
/// and the tool definitions as JSON. The tools' wire JSON is larger than the engine's own,
/// so this errs high.
fn request_tokens(body: &Value) -> u64 {
    let counter = memo_context::TokenCounter::bytes();
    let messages: u64 = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let calls = m
                .get("tool_calls")
                .map_or(0, |c| counter.count(&c.to_string()));
            4 + counter.count(m["content"].as_str().unwrap_or_default()) + calls
        })
        .sum();
    let tools = body["tools"].as_array().map_or(0, |tools| {
        70 + tools
            .iter()
            .map(|t| (t.to_string().len() as u64 * 2).div_ceil(7) + 14)
            .sum::<u64>()
    });
    messages + tools
}

fn is_summary_request(body: &Value) -> bool {
    sent_system_prompt(WireApi::Openai, body)
        .starts_with("You compress a coding agent's conversation history")
}

/// The window of the smaller model a long session moves to.
const SMALL_WINDOW: u64 = 20_000;

/// Runs `turns` turns of about 3,900 tokens each (the first one with a tool call) with a
/// model of the default window (120k), and returns the session's id and history. With
/// the summary request's fixed part (compaction prompt and tool definitions, about 3k
/// tokens) a piece may take (20k - 3k) * 60% = about 10k tokens in [`SMALL_WINDOW`]:
/// two of these turns, not three, for anything between 2k and 6k of fixed part.
async fn long_session(w: &World, turns: usize) -> (memo_protocol::SessionId, Vec<Message>) {
    w.mock.push(MockResponse::tool_call("list_dir", "{}"));
    w.mock
        .extend((0..turns).map(|i| MockResponse::text(format!("Answer {i}."))));
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    for i in 0..turns {
        turn(
            &session,
            &mut events,
            &format!("turn {i} {}", "word ".repeat(3_120)),
        )
        .await;
    }
    let id = session.id().clone();
    let history = session.history();
    stop(session).await;
    (id, history)
}

/// The same session, resumed by an engine whose model has a [`SMALL_WINDOW`].
fn resume_small(
    w: &World,
    id: &memo_protocol::SessionId,
) -> (Engine, SessionHandle, EventReceiver) {
    let engine = w.engine(&format!(
        "[model_profiles.mock-model]\ncontext_window = {SMALL_WINDOW}\n"
    ));
    let session = engine.resume_session(id, None).unwrap();
    let events = session.subscribe(session.last_seq()).unwrap();
    (engine, session, events)
}

fn snapshot(i: usize) -> String {
    format!("<state_snapshot>piece {i}</state_snapshot>")
}

#[tokio::test]
async fn a_history_many_times_the_window_is_summarised_in_pieces_that_each_fit() {
    let w = World::new(WireApi::Openai, Vec::new()).await;
    // 15 turns, ~59k tokens: about three times the small window.
    let (id, before) = long_session(&w, 15).await;
    let counter = memo_context::TokenCounter::bytes();
    assert!(counter.messages(&before) > 2 * SMALL_WINDOW);
    let asked = w.bodies().len();

    // The last turn (~3.9k tokens, under 30% of the window) is kept; the 14 before it are
    // summarised two at a time: seven summary requests.
    w.mock
        .extend((1..=7).map(|i| MockResponse::text(snapshot(i)).with_usage(1_000, 10)));
    w.mock.push(MockResponse::text("After."));
    let (engine, session, mut events) = resume_small(&w, &id);
    let (seen, ok, output, _) = command(&session, &mut events, "/compact").await;
    assert!(ok, "{output}");
    let bodies = w.bodies();
    let summaries = &bodies[asked..];
    assert_eq!(summaries.len(), 7, "one request a piece");
    assert!(summaries.iter().all(is_summary_request));
    for (i, body) in summaries.iter().enumerate() {
        let tokens = request_tokens(body);
        assert!(tokens <= SMALL_WINDOW, "request {i}: {tokens} tokens");
        let sent = messages(body);
        assert_eq!(sent[0].0, "user", "request {i} starts with a user message");
        if i == 0 {
            assert!(sent[0].1.starts_with("turn 0 "), "the oldest piece first");
        } else {
            // The rolling summary: the snapshot so far, as a compacted history has it.
            assert!(
                sent[0].1.ends_with(&snapshot(i)),
                "request {i}: {:?}",
                sent[0]
            );
            assert_eq!(
                sent[1],
                ("assistant".into(), compaction::SNAPSHOT_ACK.into())
            );
            assert!(
                sent[2].1.starts_with(&format!("turn {} ", 2 * i)),
                "{:?}",
                sent[2]
            );
        }
    }
    // The tool call and its result travel together in the first piece.
    let first = summaries[0]["messages"].as_array().unwrap();
    assert!(first.iter().any(|m| m["role"] == "tool"));

    // Before each request, how far the compaction got, ahead of the one event that ends it.
    let progress: Vec<(u32, u32)> = seen
        .iter()
        .filter_map(|e| match e.event {
            AgentEvent::CompactionProgress { done, total } => Some((done, total)),
            _ => None,
        })
        .collect();
    assert_eq!(progress, (0..7).map(|done| (done, 7)).collect::<Vec<_>>());
    let last_progress = seen
        .iter()
        .rposition(|e| matches!(e.event, AgentEvent::CompactionProgress { .. }))
        .unwrap();
    assert!(seen[last_progress..]
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ContextCompacted { .. })));

    // One event: the last snapshot, the usage of all seven calls.
    let (summary, kept, compacted) = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::ContextCompacted {
                status: CompactionStatus::Compacted,
                summary,
                kept_messages,
                compacted_messages,
                usage,
                ..
            } => {
                assert_eq!(usage.input_tokens, 7_000);
                Some((
                    summary.clone().unwrap(),
                    *kept_messages as usize,
                    *compacted_messages as usize,
                ))
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(summary, snapshot(7));
    assert_eq!((kept, compacted), (2, before.len() - 2));

    // The history now fits the window with room to spare, and so does the next request.
    let history = session.history();
    assert!(counter.messages(&history) <= SMALL_WINDOW * 30 / 100 + 100);
    turn(&session, &mut events, "go on").await;
    let next = w.bodies().last().cloned().unwrap();
    assert!(!is_summary_request(&next));
    assert!(
        request_tokens(&next) <= SMALL_WINDOW,
        "{}",
        request_tokens(&next)
    );

    // The event replays to the same history.
    let history = session.history();
    stop(session).await;
    let resumed = engine.resume_session(&id, None).unwrap();
    assert_eq!(resumed.history(), history);
    stop(resumed).await;
    w.mock.shutdown().await;
}

#[tokio::test]
async fn a_piece_that_fails_or_is_interrupted_leaves_the_history_as_it_was() {
    let w = World::new(WireApi::Openai, Vec::new()).await;
    // Five turns: four summarised, in two pieces.
    let (id, before) = long_session(&w, 5).await;
    let asked = w.bodies().len();

    // The second piece is refused: the compaction fails with the provider's error, and
    // the usage of the first call is still counted.
    w.mock.extend([
        MockResponse::text(snapshot(1)).with_usage(1_000, 10),
        MockResponse::http_error(400).message("prompt is too long"),
    ]);
    let (_engine, session, mut events) = resume_small(&w, &id);
    let (seen, ok, output, _) = command(&session, &mut events, "/compact").await;
    assert!(!ok && output.contains("prompt is too long"), "{output}");
    assert!(seen.iter().any(|e| matches!(
        &e.event,
        AgentEvent::ContextCompacted { status: CompactionStatus::Failed, summary: None, usage, .. }
            if usage.input_tokens == 1_000
    )));
    assert_eq!(w.bodies().len(), asked + 2);
    assert_eq!(session.history(), before);

    // Interrupted while the second piece is being written: nothing is recorded.
    w.mock.extend([
        MockResponse::text(snapshot(1)),
        MockResponse::text(snapshot(2)).hang_after_events(0),
    ]);
    session
        .submit(Op::UserTurn {
            input: UserInput::text("/compact"),
        })
        .unwrap();
    w.mock
        .wait_for_requests(asked + 4, Duration::from_secs(20))
        .await
        .unwrap();
    session.submit(Op::Interrupt).unwrap();
    let seen = until(&mut events, |e| {
        matches!(e, AgentEvent::CommandResult { .. })
    })
    .await;
    let Some(AgentEvent::CommandResult { ok, output, .. }) = seen.last().map(|e| &e.event) else {
        unreachable!()
    };
    assert!(!ok && output.contains("interrupted"), "{output}");
    assert!(!seen
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ContextCompacted { .. })));
    assert_eq!(session.history(), before);
    stop(session).await;
    w.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_created_or_turned_off_in_settings_reach_a_session_already_open() {
    let w = World::new(
        WireApi::Openai,
        vec![MockResponse::text("first"), MockResponse::text("second")],
    )
    .await;
    let engine = w.engine("");
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "hello").await;
    assert!(sent_system_prompt(WireApi::Openai, &w.bodies()[0]).contains("pdf"));

    // Meanwhile, in Settings: a new skill, and only it is on (pdf turned off).
    write(
        &w.home().join("skills/beta/SKILL.md"),
        "---\nname: beta\ndescription: Ship a beta.\n---\nBETA STEPS: tag, build, upload.\n",
    );
    write(
        &w.home().join("config.toml"),
        "active_skills = [\"beta\"]\n",
    );
    turn(&session, &mut events, "use $beta, not $pdf").await;
    let body = &w.bodies()[1];
    let user = last_user(body);
    assert!(
        user.contains("BETA STEPS"),
        "the new skill's body is sent: {user}"
    );
    assert!(
        !user.contains("PDF STEPS"),
        "a skill turned off does not expand"
    );
    let system = sent_system_prompt(WireApi::Openai, body);
    assert!(system.contains("beta"), "the prompt lists the new skill");
    session.submit(Op::Shutdown).unwrap();
    session.closed().await;
}

#[tokio::test]
async fn the_date_and_git_state_go_before_the_first_message_and_the_system_prompt_stays_the_same() {
    let w = World::new(
        WireApi::Openai,
        vec![
            MockResponse::text("one"),
            MockResponse::text("two"),
            MockResponse::text("three"),
            MockResponse::text("four"),
        ],
    )
    .await;
    let engine = w.engine("");
    let today = chrono_free_today();
    let (session, mut events) = w.start(&engine);
    turn(&session, &mut events, "first task").await;
    turn(&session, &mut events, "second task").await;
    let id = session.id().clone();
    stop(session).await;
    let bodies = w.bodies();
    let system = sent_system_prompt(WireApi::Openai, &bodies[0]);
    assert!(
        !system.contains(&today),
        "no date in the system prompt:\n{system}"
    );
    assert!(!system.contains("session_context"), "{system}");
    let first = &raw_messages(&bodies[0])[0].1;
    assert!(
        first.starts_with("<session_context>\nToday's date: "),
        "{first}"
    );
    assert!(
        first.contains(&today) && first.ends_with("first task"),
        "{first}"
    );
    // Only the first message carries it.
    let later = raw_messages(&bodies[1]);
    assert_eq!(
        &later[0].1, first,
        "the first message is sent again as it was"
    );
    assert_eq!(later.last().unwrap().1, "second task");

    // Reopened, the session sends the same first message; a new session in the same
    // folder sends the same system prompt.
    let resumed = engine.resume_session(&id, None).unwrap();
    let mut events = resumed.subscribe(w.store.last_seq(&id).unwrap()).unwrap();
    turn(&resumed, &mut events, "third task").await;
    stop(resumed).await;
    let (fresh, mut events) = w.start(&engine);
    turn(&fresh, &mut events, "another session").await;
    stop(fresh).await;
    let bodies = w.bodies();
    assert_eq!(bodies.len(), 4);
    assert_eq!(&raw_messages(&bodies[2])[0].1, first);
    assert_eq!(sent_system_prompt(WireApi::Openai, &bodies[3]), system);
    w.mock.shutdown().await;
}

/// Today as the session context writes it (`YYYY-MM-DD`, local time), from `date`.
fn chrono_free_today() -> String {
    let out = std::process::Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}
