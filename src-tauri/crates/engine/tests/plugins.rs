//! An installed Claude Code plugin in real sessions started by the Engine: its command
//! expands as `/plugin:command`, its skill is listed as `plugin:skill`, its hook runs with
//! `CLAUDE_PLUGIN_ROOT`, its MCP server's tools are offered as `plugin_server__tool`, and
//! its agent folder is handed to the agent loader; after the plugin is disabled, a new
//! session has none of them. The plugin is memo-plugins' fixture; its MCP server is the
//! fixture server in tests/mcp (installed by scripts/test-all.sh).

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{sent_system_prompt, sent_tool_names};
use memo_config::{Config, MemoryCredentialStore};
use memo_engine::{Engine, EngineOptions, EventReceiver, SessionHandle, SessionOptions};
use memo_model::WireApi;
use memo_plugins::{agent_dirs, InstallSource, Plugins};
use memo_protocol::{AgentEvent, EventEnvelope, Op, UserInput};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};

fn fixture_plugin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/tests/fixtures/memo-demo")
}

fn fixture_server() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp/fixture-server.mjs");
    assert!(
        path.parent()
            .unwrap()
            .join("node_modules/@modelcontextprotocol/sdk")
            .exists(),
        "MCP test servers missing: run `npm install` in tests/mcp (scripts/test-all.sh does)"
    );
    path.canonicalize().unwrap().display().to_string()
}

struct World {
    mock: MockLlmServer,
    dir: tempfile::TempDir,
    engine: Engine,
}

impl World {
    async fn new(responses: Vec<MockResponse>) -> World {
        let mock = MockLlmServer::start_with(responses).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        let toml = format!(
            "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\nbase_url = \"{}/v1\"\n",
            mock.base_url()
        );
        let config = Config::parse(&toml, &dir.path().join("home/config.toml")).unwrap();
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
        let path = std::env::var("PATH").unwrap_or_default();
        let server = fixture_server();
        let engine = Engine::new(EngineOptions {
            memo_home: Some(dir.path().join("home")),
            config,
            store,
            credentials: Arc::new(MemoryCredentialStore::new()),
            env: Arc::new(move |name: &str| match name {
                "MEMO_MCP_LOGIN_SHELL" => Some("0".into()),
                "PATH" => Some(path.clone()),
                "MEMO_TEST_FIXTURE_SERVER" => Some(server.clone()),
                _ => None,
            }),
            checkpoints: None,
        });
        World { mock, dir, engine }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
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

async fn close(session: SessionHandle) {
    session.submit(Op::Shutdown).unwrap();
    session.closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugins_command_skill_hook_server_and_agents_work_after_install_and_are_gone_after_disable(
) {
    let world = World::new(vec![
        // Subagent tools are offered on demand: loading them shows the plugin's agent.
        MockResponse::tool_call("load_tools", r#"{"groups":["subagents"]}"#),
        MockResponse::text("Hello, Ada."),
        MockResponse::text("Plain answer."),
    ])
    .await;
    let plugins = Plugins::at_home(&world.home());
    plugins
        .install(&InstallSource::Folder(fixture_plugin()), false)
        .unwrap();
    let root = world.home().join("plugins/memo-demo");

    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "/memo-demo:greet Ada");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    // The command expanded from the installed copy.
    let input = seen
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::TurnStarted { input } => Some(input.clone()),
            _ => None,
        })
        .unwrap();
    let expansion = input.expansion.unwrap();
    assert_eq!(expansion.command.as_deref(), Some("/memo-demo:greet"));
    assert_eq!(
        expansion.prompt,
        "Say hello to Ada on behalf of the memo-demo plugin."
    );
    let body = &world.mock.requests()[0].body;
    let text = body.to_string();
    assert!(text.contains("Say hello to Ada on behalf of the memo-demo plugin."));
    // The skill is listed under the plugin's name.
    let system = sent_system_prompt(WireApi::Openai, body);
    assert!(system.contains("memo-demo:release-notes"), "{system}");
    // The hook ran with CLAUDE_PLUGIN_ROOT, and what it printed reached the model.
    let hook_line = format!("memo-demo hook ran from {}", root.display());
    assert!(text.contains(&hook_line), "{text}");
    // The server's tools are offered under the namespaced server name.
    let tools = sent_tool_names(WireApi::Openai, body);
    assert!(
        tools.iter().any(|t| t == "memo-demo_notes__write_note"),
        "{tools:?}"
    );
    assert!(tools.iter().all(|t| t
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')));
    // The agent loader gets the plugin's agent folder with its namespace, and the model
    // is offered the agent as a subagent type.
    assert_eq!(
        agent_dirs(memo_plugins::Homes {
            memo: Some(&world.home()),
            user: None,
            folder: None,
        }),
        vec![("memo-demo".to_owned(), root.join("agents"))]
    );
    assert!(
        !text.contains("memo-demo:reviewer"),
        "not before the group is loaded"
    );
    let loaded = world.mock.requests()[1].body.to_string();
    assert!(loaded.contains("memo-demo:reviewer"), "{loaded}");
    close(session).await;

    plugins.set_enabled("memo-demo", false).unwrap();
    let (session, mut events) = world.start();
    let mut seen = Vec::new();
    submit(&session, "/memo-demo:greet Ada");
    match until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::CommandResult { .. })
    })
    .await
    {
        AgentEvent::CommandResult { ok, output, .. } => {
            assert!(!ok);
            assert!(
                output.contains("Unknown command /memo-demo:greet"),
                "{output}"
            );
        }
        _ => unreachable!(),
    }
    submit(&session, "hello");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    let requests = world.mock.requests();
    assert_eq!(
        requests.len(),
        3,
        "the unknown command never reached the model"
    );
    let body = &requests[2].body;
    assert!(
        !body.to_string().contains("memo-demo"),
        "a disabled plugin still reached the model: {body}"
    );
    assert!(agent_dirs(memo_plugins::Homes {
        memo: Some(&world.home()),
        user: None,
        folder: None,
    })
    .is_empty());
    close(session).await;
    world.mock.shutdown().await;
}

/// The plugin's MCP tool runs and its agent works as a subagent type: each part works,
/// not only appears.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugins_mcp_tool_runs_and_its_agent_runs_as_a_subagent() {
    let world = World::new(vec![
        MockResponse::tool_calls([
            (
                "memo-demo_notes__write_note",
                serde_json::json!({ "text": "from the plugin test" }).to_string(),
            ),
            (
                "spawn_agent",
                serde_json::json!({
                    "message": "CHILD-PLUGIN: review the last change",
                    "agent_type": "memo-demo:reviewer"
                })
                .to_string(),
            ),
        ])
        .when("PARENT-PLUGIN"),
        MockResponse::text("No bugs found.").when("CHILD-PLUGIN"),
        MockResponse::tool_call("wait", "{}").when("PARENT-PLUGIN"),
        MockResponse::text("Done.").when("PARENT-PLUGIN"),
    ])
    .await;
    Plugins::at_home(&world.home())
        .install(&InstallSource::Folder(fixture_plugin()), false)
        .unwrap();
    let session = world
        .engine
        .start_session(SessionOptions {
            cwd: world.dir.path().join("work"),
            // The MCP call would ask; this test is about the plugin's parts working.
            approval_mode: Some(memo_engine::ApprovalMode::Dangerous),
            ..Default::default()
        })
        .unwrap();
    let mut events = session.subscribe(0).unwrap();
    let mut seen = Vec::new();
    submit(&session, "PARENT-PLUGIN: note it and have it reviewed");
    until(&mut events, &mut seen, |e| {
        matches!(e, AgentEvent::TurnEnded { .. })
    })
    .await;
    let output = |tool: &str| {
        seen.iter()
            .find_map(|e| match &e.event {
                AgentEvent::ToolCallEnd { name, output, .. } if name == tool => {
                    Some(output.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {tool} result"))
    };
    assert!(
        output("memo-demo_notes__write_note").contains("stored: from the plugin test"),
        "{}",
        output("memo-demo_notes__write_note")
    );
    let waited: serde_json::Value = serde_json::from_str(&output("wait")).unwrap();
    assert_eq!(waited["agents"][0]["agent_type"], "memo-demo:reviewer");
    assert_eq!(waited["agents"][0]["answer"], "No bugs found.");
    // The child ran as the plugin's agent: its instructions and its tools only.
    let child = world
        .mock
        .requests()
        .into_iter()
        .map(|r| r.body)
        .find(|b| {
            b.to_string().contains("CHILD-PLUGIN") && !b.to_string().contains("PARENT-PLUGIN")
        })
        .unwrap();
    assert!(sent_system_prompt(WireApi::Openai, &child).contains("You review diffs"));
    let mut tools = sent_tool_names(WireApi::Openai, &child);
    tools.sort();
    assert_eq!(tools, vec!["grep_files", "read_file"]);
    close(session).await;
    world.mock.shutdown().await;
}
