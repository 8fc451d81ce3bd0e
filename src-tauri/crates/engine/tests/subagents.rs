//! Subagents through a real Engine against the mock LLM: children run in parallel as
//! sessions of their own, their approval questions reach the parent, `wait` returns their
//! answers, the cap holds, interrupting the parent stops them, the investigator keeps to
//! its limits, and custom agents narrow tools and add their instructions.
//!
//! The parent and each child talk to the same mock at the same time; every scripted
//! answer carries `when` (a marker of its conversation's first user message), so each
//! request gets its own conversation's next answer whatever order they arrive in.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{sent_system_prompt, sent_tool_names};
use memo_config::{Config, MemoryCredentialStore};
use memo_engine::{Engine, EngineOptions, EventReceiver, SessionHandle, SessionOptions};
use memo_model::WireApi;
use memo_protocol::{
    AgentEvent, EventEnvelope, Op, ReviewDecision, SubagentState, TurnEndReason, UserInput,
};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};
use serde_json::{json, Value};

const API: WireApi = WireApi::Openai;

struct World {
    mock: MockLlmServer,
    dir: tempfile::TempDir,
    store: Arc<Store>,
}

impl World {
    async fn new(responses: Vec<MockResponse>) -> World {
        let mock = MockLlmServer::start_with(responses).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).unwrap());
        let w = World { mock, dir, store };
        std::fs::create_dir_all(w.cwd().join(".git")).unwrap();
        std::fs::create_dir_all(w.os_home()).unwrap();
        std::fs::write(
            w.cwd().join("AGENTS.md"),
            "Project rule: tabs, never spaces.",
        )
        .unwrap();
        std::fs::write(w.home().join("SOUL.md"), "Talk like a pirate.").ok();
        w
    }

    fn home(&self) -> PathBuf {
        let home = self.dir.path().join("memo-home");
        std::fs::create_dir_all(&home).unwrap();
        home
    }
    fn os_home(&self) -> PathBuf {
        self.dir.path().join("os-home")
    }
    fn cwd(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn engine(&self, env: &[(&'static str, &'static str)]) -> Engine {
        let toml = format!(
            "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\napi = \"openai\"\nbase_url = \"{}/v1\"\n",
            self.mock.base_url()
        );
        let config = Config::parse(&toml, &self.home().join("config.toml")).unwrap();
        let env: Vec<(&'static str, String)> =
            env.iter().map(|(k, v)| (*k, v.to_string())).collect();
        let os_home = self.os_home().display().to_string();
        Engine::new(EngineOptions {
            memo_home: Some(self.home()),
            config,
            store: self.store.clone(),
            credentials: Arc::new(MemoryCredentialStore::new()),
            env: Arc::new(move |name: &str| {
                if name == "HOME" {
                    return Some(os_home.clone());
                }
                env.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())
            }),
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

    /// The requests whose first user message holds `marker`.
    fn requests_of(&self, marker: &str) -> Vec<Value> {
        self.mock
            .requests()
            .into_iter()
            .map(|r| r.body)
            .filter(|b| {
                b["messages"]
                    .as_array()
                    .and_then(|m| m.iter().find(|m| m["role"] == "user"))
                    .is_some_and(|m| m.to_string().contains(marker))
            })
            .collect()
    }
}

fn call(name: &str, args: Value) -> MockResponse {
    MockResponse::tool_call(name, args.to_string())
}

fn spawn(task: &str, agent_type: Option<&str>) -> (String, String) {
    let mut args = json!({ "message": task });
    if let Some(t) = agent_type {
        args["agent_type"] = json!(t);
    }
    ("spawn_agent".to_owned(), args.to_string())
}

async fn until(
    events: &mut EventReceiver,
    pred: impl Fn(&AgentEvent) -> bool,
) -> Vec<EventEnvelope> {
    let mut seen = Vec::new();
    loop {
        let env = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "timed out; seen {:?}",
                    seen.iter()
                        .map(|e: &EventEnvelope| format!("{:?}", e.event))
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

fn send(session: &SessionHandle, text: &str) {
    session
        .submit(Op::UserTurn {
            input: UserInput::text(text),
        })
        .unwrap();
}

fn tool_output<'a>(seen: &'a [EventEnvelope], tool: &str) -> Vec<&'a str> {
    seen.iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd { name, output, .. } if name == tool => Some(output.as_str()),
            _ => None,
        })
        .collect()
}

fn write_file(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[tokio::test]
async fn two_children_run_in_parallel_one_asks_through_its_parent_and_wait_returns_both() {
    let world = World::new(vec![
        MockResponse::tool_calls([
            spawn("CHILD-ALPHA: list the files", None),
            spawn("CHILD-BETA: write notes.txt", Some("general")),
        ])
        .when("PARENT-TASK"),
        call("list_dir", json!({"dir_path": "."}))
            .first_byte_delay(Duration::from_millis(400))
            .when("CHILD-ALPHA"),
        MockResponse::text("alpha saw AGENTS.md").when("CHILD-ALPHA"),
        call(
            "write_file",
            json!({"file_path": "notes.txt", "content": "hi\n"}),
        )
        .when("CHILD-BETA"),
        MockResponse::text("beta wrote notes.txt").when("CHILD-BETA"),
        call("wait", json!({})).when("PARENT-TASK"),
        MockResponse::text("Both children are done.").when("PARENT-TASK"),
    ])
    .await;
    // A SubagentStop hook of the user's: it runs when each child answers.
    let stops = world.dir.path().join("subagent-stops.log");
    write_file(
        &world.os_home().join(".claude/settings.json"),
        &json!({"hooks": {"SubagentStop": [{"hooks": [{"type": "command",
            "command": format!("cat >> {}; echo >> {}", stops.display(), stops.display())}]}]}})
        .to_string(),
    );
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-TASK: split this in two");

    // Beta's write asks, in the parent, saying which agent asks.
    let seen = until(&mut events, |e| {
        matches!(e, AgentEvent::ApprovalRequested { request } if request.tool_name == "write_file")
    })
    .await;
    let started: Vec<_> = seen
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::SubagentStarted { agent, task, .. } => Some((agent.clone(), task.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(started.len(), 2, "both children started under their calls");
    let Some(AgentEvent::ApprovalRequested { request }) = seen.last().map(|e| &e.event) else {
        unreachable!()
    };
    let asker = *request
        .agent
        .clone()
        .expect("the relayed question names its agent");
    let beta = started
        .iter()
        .find(|(_, t)| t.contains("CHILD-BETA"))
        .unwrap();
    assert_eq!(asker, beta.0);
    assert!(
        seen.last().unwrap().turn_id.is_some(),
        "relayed within the parent's turn"
    );
    assert!(!world.cwd().join("notes.txt").exists());
    parent
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::approve_once(),
        })
        .unwrap();

    let rest = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    assert!(rest.iter().any(|e| matches!(&e.event,
        AgentEvent::ApprovalResolved { request_id, .. } if *request_id == request.request_id)));
    assert_eq!(
        std::fs::read_to_string(world.cwd().join("notes.txt")).unwrap(),
        "hi\n"
    );
    let waited: Value = serde_json::from_str(tool_output(&rest, "wait")[0]).unwrap();
    assert_eq!(waited["timed_out"], false);
    let mut answers: Vec<(String, String)> = waited["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["state"].as_str().unwrap().to_owned(),
                a["answer"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    answers.sort();
    assert_eq!(
        answers,
        vec![
            ("finished".to_owned(), "alpha saw AGENTS.md".to_owned()),
            ("finished".to_owned(), "beta wrote notes.txt".to_owned())
        ]
    );
    assert!(matches!(
        rest.last().unwrap().event,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Completed,
            ..
        }
    ));

    // The children ran at once: each had its first request answered before either's
    // second (both children's first requests come before any second one).
    let (alpha, beta_requests) = (
        world.requests_of("CHILD-ALPHA"),
        world.requests_of("CHILD-BETA"),
    );
    let order: Vec<String> = world
        .mock
        .requests()
        .iter()
        .filter_map(|r| {
            if alpha.contains(&r.body) {
                Some("a".to_owned())
            } else if beta_requests.contains(&r.body) {
                Some("b".to_owned())
            } else {
                None
            }
        })
        .collect();
    assert_eq!(order.len(), 4, "{order:?}");
    assert!(
        order[..2].contains(&"a".to_owned()) && order[..2].contains(&"b".to_owned()),
        "{order:?}"
    );

    // Each child is its own stored session, linked to its parent and left out of lists.
    let kids = world.store.subagents_of(parent.id()).unwrap();
    assert_eq!(kids.len(), 2);
    assert!(kids
        .iter()
        .all(|k| k.agent_type.as_deref() == Some("general")));
    let listed = world.store.list_sessions(None, 50, 0).unwrap();
    assert_eq!(listed.len(), 1, "only the parent is listed");
    let child_log = world.store.events(&beta.0.session_id, 0, 1000).unwrap();
    assert!(child_log.iter().any(|e| matches!(&e.event,
        AgentEvent::ApprovalRequested { request } if request.agent.as_deref() == Some(&beta.0))));

    // A child's prompt: the subagent template, AGENTS.md, no SOUL.md; no collab tools.
    let alpha_request = &world.requests_of("CHILD-ALPHA")[0];
    let system = sent_system_prompt(API, alpha_request);
    assert!(system.contains("Memo subagent"), "{system}");
    assert!(system.contains("tabs, never spaces"));
    assert!(!system.contains("pirate"));
    let tools = sent_tool_names(API, alpha_request);
    assert!(tools.iter().any(|t| t == "exec_command"));
    assert!(
        !tools.iter().any(|t| t == "spawn_agent" || t == "wait"),
        "{tools:?}"
    );
    // The parent's subagent tools are offered on demand: its first request has only the
    // loader; its call to spawn_agent loaded the group for the requests after it.
    let parent_requests = world.requests_of("PARENT-TASK");
    let first = sent_tool_names(API, &parent_requests[0]);
    assert!(
        first.iter().any(|t| t == "load_tools") && !first.iter().any(|t| t == "spawn_agent"),
        "{first:?}"
    );
    let later = sent_tool_names(API, &parent_requests[1]);
    assert!(
        later.iter().any(|t| t == "spawn_agent") && later.iter().any(|t| t == "wait"),
        "{later:?}"
    );
    // Loaded tools come after the others: what was sent before stays a prefix.
    let in_order = |body: &Value| -> Vec<String> {
        body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
            .collect()
    };
    let (before, after) = (in_order(&parent_requests[0]), in_order(&parent_requests[1]));
    assert_eq!(after[..before.len()], before[..], "{after:?}");
    assert_eq!(after[before.len()], "spawn_agent", "{after:?}");

    // The SubagentStop hook ran once per child, told it was one.
    let log = std::fs::read_to_string(&stops).unwrap();
    let runs: Vec<Value> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(runs.len(), 2, "{log}");
    assert!(runs.iter().all(|r| r["hook_event_name"] == "SubagentStop"));
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn the_cap_refuses_a_spawn_beyond_it() {
    let world = World::new(vec![
        MockResponse::tool_calls([
            spawn("CHILD-ONE: wait a bit", None),
            spawn("CHILD-TWO: too", None),
        ])
        .when("PARENT-CAP"),
        MockResponse::text("one done")
            .first_byte_delay(Duration::from_millis(300))
            .when("CHILD-ONE"),
        MockResponse::text("two done")
            .first_byte_delay(Duration::from_millis(300))
            .when("CHILD-TWO"),
        MockResponse::text("ok").when("PARENT-CAP"),
    ])
    .await;
    let engine = world.engine(&[("MEMO_SUBAGENT_MAX_AGENTS", "1")]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-CAP");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let spawns: Vec<_> = seen
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                name,
                status,
                output,
                ..
            } if name == "spawn_agent" => Some((*status, output.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(spawns.len(), 2);
    let refused: Vec<_> = spawns
        .iter()
        .filter(|(s, _)| *s != memo_protocol::ToolStatus::Ok)
        .collect();
    assert_eq!(refused.len(), 1, "{spawns:?}");
    assert!(
        refused[0].1.contains("the most that may run at once"),
        "{}",
        refused[0].1
    );
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn interrupting_the_parent_stops_its_children() {
    let world = World::new(vec![
        MockResponse::tool_calls([spawn("CHILD-SLOW: think forever", None)]).when("PARENT-INT"),
        MockResponse::text("never finished")
            .hang_after_events(1)
            .when("CHILD-SLOW"),
        call("wait", json!({"timeout_ms": 600000})).when("PARENT-INT"),
    ])
    .await;
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-INT");
    until(
        &mut events,
        |e| matches!(e, AgentEvent::ToolCallBegin { name, .. } if name == "wait"),
    )
    .await;
    // Give the child time to be stuck in its model call.
    tokio::time::sleep(Duration::from_millis(200)).await;
    parent.submit(Op::Interrupt).unwrap();
    let seen = until(&mut events, |e| {
        matches!(
            e,
            AgentEvent::SubagentUpdated {
                state: SubagentState::Interrupted,
                ..
            }
        )
    })
    .await;
    assert!(seen.iter().any(|e| matches!(
        e.event,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Interrupted,
            ..
        }
    )));
    let kid = &world.store.subagents_of(parent.id()).unwrap()[0];
    let log = world.store.events(&kid.id, 0, 1000).unwrap();
    assert!(log.iter().any(|e| matches!(
        e.event,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Interrupted,
            ..
        }
    )));
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn the_investigator_reports_with_read_only_tools_and_stops_at_its_limits() {
    // 1. A report.
    let report = json!({
        "summary": "parse() drops the last line",
        "exploration_trace": ["grepped for parse"],
        "relevant_locations": [{"file_path": "src/lib.rs", "reasoning": "defines parse", "key_symbols": ["parse"]}]
    });
    // 2. Sixteen searches: the fifteenth model call is its last.
    let mut responses = vec![
        MockResponse::tool_calls([
            spawn(
                "CHILD-REPORT: why is the last line lost?",
                Some("codebase_investigator"),
            ),
            spawn(
                "CHILD-ENDLESS: look at everything",
                Some("codebase_investigator"),
            ),
        ])
        .when("PARENT-INV"),
        call("grep_files", json!({"pattern": "parse"})).when("CHILD-REPORT"),
        call("complete_task", report.clone()).when("CHILD-REPORT"),
        MockResponse::text("Reported.").when("CHILD-REPORT"),
    ];
    for i in 0..16 {
        // Each search different: the same call over and over would end the turn as stuck.
        let pattern = format!("**/*{i}.rs");
        responses.push(call("glob", json!({ "pattern": pattern })).when("CHILD-ENDLESS"));
    }
    responses.push(call("wait", json!({})).when("PARENT-INV"));
    responses.push(MockResponse::text("done").when("PARENT-INV"));
    // 3. A time limit (4 s in this test: the sixteen searches above must end by their call
    // limit first, and on a loaded two-core machine they took over 1 s) on a model that
    // never answers. (The parent's
    // conversation still starts with PARENT-INV: that is what its answers match.)
    responses.push(
        MockResponse::tool_calls([spawn("CHILD-STUCK: hmm", Some("codebase_investigator"))])
            .when("PARENT-INV"),
    );
    responses.push(
        MockResponse::text("…")
            .hang_after_events(1)
            .when("CHILD-STUCK"),
    );
    responses.push(call("wait", json!({})).when("PARENT-INV"));
    responses.push(MockResponse::text("done").when("PARENT-INV"));
    let world = World::new(responses).await;
    let engine = world.engine(&[("MEMO_INVESTIGATOR_TIME_LIMIT_SECS", "4")]);

    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-INV");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let waited: Value = serde_json::from_str(tool_output(&seen, "wait")[0]).unwrap();
    let agents = waited["agents"].as_array().unwrap();
    let reported = &agents[0];
    assert_eq!(reported["state"], "finished");
    let got: Value = serde_json::from_str(reported["answer"].as_str().unwrap()).unwrap();
    assert_eq!(got, report);
    let endless = &agents[1];
    assert_eq!(endless["state"], "failed");
    assert!(
        endless["message"]
            .as_str()
            .unwrap()
            .contains("limit of model calls"),
        "{endless}"
    );
    assert_eq!(
        world.requests_of("CHILD-ENDLESS").len(),
        15,
        "at most 15 model calls"
    );
    let tools = sent_tool_names(API, &world.requests_of("CHILD-REPORT")[0]);
    let mut tools: Vec<&str> = tools.iter().map(String::as_str).collect();
    tools.sort();
    assert_eq!(
        tools,
        vec![
            "complete_task",
            "glob",
            "grep_files",
            "list_dir",
            "read_file"
        ]
    );

    send(&parent, "PARENT-TIME");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let waited: Value = serde_json::from_str(tool_output(&seen, "wait")[0]).unwrap();
    let stuck = &waited["agents"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(stuck["state"], "failed", "{waited}");
    assert_eq!(stuck["message"], "stopped at its time limit (4 s)");
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn a_custom_agent_gets_its_tools_and_instructions_and_a_bad_type_is_explained() {
    let world = World::new(vec![
        MockResponse::tool_calls([spawn("CHILD-REVIEW: review src", Some("reviewer"))])
            .when("PARENT-CUSTOM"),
        MockResponse::text("looks fine").when("CHILD-REVIEW"),
        MockResponse::tool_calls([spawn("CHILD-NONE: x", Some("nobody"))]).when("PARENT-CUSTOM"),
        call("wait", json!({})).when("PARENT-CUSTOM"),
        MockResponse::text("ok").when("PARENT-CUSTOM"),
    ])
    .await;
    write_file(
        &world.cwd().join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\n---\nYou are REVIEWER-ROLE: strict and brief.\n",
    );
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-CUSTOM");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let request = &world.requests_of("CHILD-REVIEW")[0];
    let mut tools = sent_tool_names(API, request);
    tools.sort();
    assert_eq!(tools, vec!["grep_files", "read_file"]);
    assert!(sent_system_prompt(API, request).contains("REVIEWER-ROLE"));
    // Its spawn_agent call loaded the subagent tools for the parent's next request.
    let parent_request = world.requests_of("PARENT-CUSTOM").remove(1);
    let spawn_description = &parent_request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "spawn_agent")
        .unwrap()["function"]["description"];
    assert!(spawn_description
        .as_str()
        .unwrap()
        .contains("reviewer: Reviews code for bugs"));
    let outputs = tool_output(&seen, "spawn_agent");
    assert!(
        outputs[1].contains("no agent type \"nobody\""),
        "{}",
        outputs[1]
    );
    assert!(outputs[1].contains("reviewer"));
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn collab_tools_can_be_turned_off() {
    let world = World::new(vec![MockResponse::text("hi").when("PARENT-OFF")]).await;
    let engine = world.engine(&[("MEMO_ENABLE_COLLAB_TOOLS", "0")]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-OFF");
    until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let tools = sent_tool_names(API, &world.requests_of("PARENT-OFF")[0]);
    assert!(!tools.iter().any(|t| t == "spawn_agent"), "{tools:?}");
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn resuming_after_a_crash_closes_the_last_runs_subagents() {
    use memo_protocol::{SessionId, SubagentRef, ToolCallId, TurnId};
    use memo_store::NewSession;
    let world = World::new(vec![]).await;
    let engine = world.engine(&[]);
    let cwd = world.cwd().canonicalize().unwrap().display().to_string();
    let new = |id: &str| NewSession {
        id: SessionId::new(id),
        cwd: cwd.clone(),
        provider: "mock".into(),
        model: "mock-model".into(),
        title: None,
    };
    let (parent, child) = (SessionId::new("parent"), SessionId::new("child"));
    world.store.create_session(&new("parent")).unwrap();
    world.store.create_session(&new("child")).unwrap();
    world
        .store
        .set_subagent(&child, &parent, "general")
        .unwrap();
    let at = |session: &SessionId, seq: u64, turn: &str, event: AgentEvent| EventEnvelope {
        session_id: session.clone(),
        turn_id: Some(TurnId::new(turn)),
        seq,
        timestamp_ms: 1,
        event,
    };
    let agent = SubagentRef {
        agent_id: "agent-1".into(),
        agent_type: "general".into(),
        session_id: child.clone(),
    };
    // The parent's turn ended; its child was still working when the app died.
    world
        .store
        .append_batch(&[
            at(
                &parent,
                1,
                "t1",
                AgentEvent::TurnStarted {
                    input: UserInput::text("go"),
                },
            ),
            at(
                &parent,
                2,
                "t1",
                AgentEvent::SubagentStarted {
                    call_id: ToolCallId::new("c1"),
                    agent,
                    task: "work".into(),
                },
            ),
            at(
                &parent,
                3,
                "t1",
                AgentEvent::TurnEnded {
                    reason: TurnEndReason::Completed,
                    usage: Default::default(),
                },
            ),
            at(
                &child,
                1,
                "k1",
                AgentEvent::TurnStarted {
                    input: UserInput::text("work"),
                },
            ),
        ])
        .unwrap();
    let resumed = engine.resume_session(&parent, None).unwrap();
    let log = world.store.events(&parent, 3, 100).unwrap();
    assert!(
        log.iter()
            .any(|e| matches!(&e.event, AgentEvent::SubagentUpdated {
        agent_id, state: SubagentState::Closed, .. } if agent_id == "agent-1")),
        "{log:?}"
    );
    let child_log = world.store.events(&child, 1, 100).unwrap();
    assert!(
        child_log.iter().any(|e| matches!(
            e.event,
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Interrupted,
                ..
            }
        )),
        "{child_log:?}"
    );
    resumed.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn a_task_that_starts_with_a_slash_is_a_task_and_a_closed_child_is_let_go() {
    let world = World::new(vec![
        MockResponse::tool_calls([spawn("/tmp is full: CHILD-SLASH clean it", None)])
            .when("PARENT-SLASH"),
        MockResponse::text("cleaned").when("CHILD-SLASH"),
        call("wait", json!({})).when("PARENT-SLASH"),
        MockResponse::text("ok").when("PARENT-SLASH"),
    ])
    .await;
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-SLASH");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    let waited: Value = serde_json::from_str(tool_output(&seen, "wait")[0]).unwrap();
    assert_eq!(waited["agents"][0]["answer"], "cleaned", "{waited}");
    let child = world.store.subagents_of(parent.id()).unwrap().remove(0).id;
    assert!(parent.child(&child).is_some());

    // Closed: its actor stops and the parent lets its session go.
    parent.submit(Op::Shutdown).unwrap();
    parent.closed().await;
    let log = world.store.events(parent.id(), 0, 1000).unwrap();
    assert!(log.iter().any(|e| matches!(
        e.event,
        AgentEvent::SubagentUpdated {
            state: SubagentState::Closed,
            ..
        }
    )));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while parent.child(&child).is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the closed child is still held"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn what_the_user_allowed_for_the_session_holds_for_its_subagents() {
    let world = World::new(vec![
        call(
            "write_file",
            json!({"file_path": "notes.txt", "content": "one\n"}),
        )
        .when("PARENT-GRANT"),
        MockResponse::tool_calls([spawn("CHILD-GRANT: rewrite notes.txt", None)])
            .when("PARENT-GRANT"),
        call(
            "write_file",
            json!({"file_path": "notes.txt", "content": "two\n"}),
        )
        .when("CHILD-GRANT"),
        MockResponse::text("rewrote it").when("CHILD-GRANT"),
        call("wait", json!({})).when("PARENT-GRANT"),
        MockResponse::text("done").when("PARENT-GRANT"),
    ])
    .await;
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-GRANT");
    let seen = until(&mut events, |e| {
        matches!(e, AgentEvent::ApprovalRequested { .. })
    })
    .await;
    let Some(AgentEvent::ApprovalRequested { request }) = seen.last().map(|e| &e.event) else {
        unreachable!()
    };
    assert!(request.agent.is_none(), "the parent's own write asks first");
    parent
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::ApproveForSession,
        })
        .unwrap();
    let rest = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    assert!(
        !rest
            .iter()
            .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. })),
        "the child's write of the same file was already allowed for the session"
    );
    assert_eq!(
        std::fs::read_to_string(world.cwd().join("notes.txt")).unwrap(),
        "two\n"
    );
    parent.submit(Op::Shutdown).unwrap();
}

#[tokio::test]
async fn bad_collab_calls_are_told_what_is_wrong() {
    let world = World::new(vec![
        MockResponse::tool_calls([
            (
                "wait".to_owned(),
                json!({"ids": ["agent-nope"]}).to_string(),
            ),
            (
                "send_input".to_owned(),
                json!({"id": "agent-nope", "message": "hi"}).to_string(),
            ),
            (
                "close_agent".to_owned(),
                json!({"id": "agent-nope"}).to_string(),
            ),
            (
                "spawn_agent".to_owned(),
                json!({"message": "   "}).to_string(),
            ),
        ])
        .when("PARENT-BAD"),
        MockResponse::text("ok").when("PARENT-BAD"),
    ])
    .await;
    let engine = world.engine(&[]);
    let (parent, mut events) = world.start(&engine);
    send(&parent, "PARENT-BAD");
    let seen = until(&mut events, |e| matches!(e, AgentEvent::TurnEnded { .. })).await;
    for tool in ["wait", "send_input", "close_agent"] {
        let out = tool_output(&seen, tool)[0];
        assert!(
            out.contains("there is no subagent agent-nope: none was started"),
            "{tool}: {out}"
        );
    }
    assert!(
        tool_output(&seen, "spawn_agent")[0].contains("the message (the subagent's task) is empty")
    );
    assert!(world.store.subagents_of(parent.id()).unwrap().is_empty());
    parent.submit(Op::Shutdown).unwrap();
}
