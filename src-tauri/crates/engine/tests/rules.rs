//! Kept approval rules in a running session: an "always for this project" answer saves a
//! rule that stops the next prompt for the same command, a deny rule refuses a call
//! without asking (in dangerous mode too), strict mode still asks, and a command that
//! only starts like an allowed one is asked about.

mod common;

use common::*;
use memo_config::{NewRule, RuleDecision, RuleKind, RuleStore};
use memo_engine::tools::ToolRegistry;
use memo_engine::{ApprovalMode, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{AgentEvent, ApprovalRequest, Op, ReviewDecision, ToolStatus};
use memo_test_support::MockResponse;

fn exec(cmd: &str) -> MockResponse {
    MockResponse::tool_call(
        "exec_command",
        serde_json::json!({ "cmd": cmd }).to_string(),
    )
}

async fn harness(mode: ApprovalMode, store: &RuleStore, responses: Vec<MockResponse>) -> Harness {
    let limits = TurnLimits {
        approval_mode: mode,
        retry: fast_retry(),
        ..TurnLimits::default()
    };
    let store = store.clone();
    Harness::start_custom(
        WireApi::Openai,
        responses,
        ToolRegistry::builtin(),
        limits,
        |p| {
            p.context.approval_rules = Some(store);
        },
    )
    .await
}

async fn next_approval(h: &mut Harness) -> ApprovalRequest {
    let events = h
        .until(|e| {
            matches!(
                e,
                AgentEvent::ApprovalRequested { .. } | AgentEvent::TurnEnded { .. }
            )
        })
        .await;
    match &events.last().unwrap().event {
        AgentEvent::ApprovalRequested { request } => request.clone(),
        other => panic!("expected an approval request, got {other:?}"),
    }
}

fn approvals(events: &[memo_protocol::EventEnvelope]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. }))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_for_this_project_keeps_a_rule_that_stops_the_next_prompt() {
    let home = tempfile::tempdir().unwrap();
    let store = RuleStore::at(home.path().join("approval_rules.json"));
    let mut h = harness(
        ApprovalMode::Auto,
        &store,
        vec![
            exec("true"),
            MockResponse::text("ran it"),
            exec("true --quiet"),
            exec("true; touch made-by-x"),
            MockResponse::text("done"),
        ],
    )
    .await;
    h.submit("run it");
    let request = next_approval(&mut h).await;
    assert_eq!(request.rule_patterns, ["true"]);
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::ApproveAlways { project: true },
        })
        .unwrap();
    h.until_turn_end().await;
    let rules = store.list().unwrap();
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].pattern, "true");
    let folder = std::fs::canonicalize(h.workdir()).unwrap();
    assert_eq!(rules[0].project.as_deref(), Some(folder.to_str().unwrap()));

    // Same prefix: no prompt, and the call says which rule let it through. A chain with
    // another command: asked.
    h.submit("again");
    let before = h
        .until(|e| matches!(e, AgentEvent::ApprovalRequested { .. }))
        .await;
    let allowed: Vec<_> = before
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallAllowed { rules, .. } => Some(rules.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(allowed, [vec!["true".to_owned()]]);
    let AgentEvent::ApprovalRequested { request } = &before.last().unwrap().event else {
        unreachable!("until stops at the request")
    };
    assert!(
        request.command.as_deref().unwrap().contains("touch"),
        "{request:?}"
    );
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::Deny { reason: None },
        })
        .unwrap();
    let events = h.until_turn_end().await;
    assert_eq!(approvals(&events), 0, "only the chained command asked");
    assert!(store.list().unwrap()[0].last_used_at.is_some());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deny_rule_refuses_without_asking_even_in_dangerous_mode_and_strict_still_asks() {
    let home = tempfile::tempdir().unwrap();
    let store = RuleStore::at(home.path().join("approval_rules.json"));
    let rule = |decision, pattern: &str| NewRule {
        decision,
        kind: RuleKind::Command,
        pattern: pattern.into(),
        project: None,
        exact: false,
    };
    store.add(&rule(RuleDecision::Deny, "touch")).unwrap();
    store.add(&rule(RuleDecision::Allow, "echo")).unwrap();
    let mut h = harness(
        ApprovalMode::Dangerous,
        &store,
        vec![exec("touch x"), MockResponse::text("refused")],
    )
    .await;
    let events = h.run_turn("make x").await;
    assert_eq!(approvals(&events), 0);
    let end = tool_ends(&events);
    assert_eq!(end[0].1, ToolStatus::Error);
    assert!(
        end[0]
            .3
            .contains("rule refuses this call (command `touch`)"),
        "{}",
        end[0].3
    );
    assert!(!h.workdir().join("x").exists());
    h.shutdown().await;

    let mut h = harness(
        ApprovalMode::Strict,
        &store,
        vec![exec("echo hi"), MockResponse::text("ok")],
    )
    .await;
    h.submit("say hi");
    let request = next_approval(&mut h).await;
    assert_eq!(
        request.command.as_deref(),
        Some("echo hi"),
        "strict asks despite the allow rule"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gemini_core_list_limits_the_shell_to_its_commands_in_every_mode() {
    let limits = TurnLimits {
        approval_mode: ApprovalMode::Dangerous,
        retry: fast_retry(),
        ..TurnLimits::default()
    };
    let mut h = Harness::start_custom(
        WireApi::Openai,
        vec![
            exec("ls -a"),
            exec("touch made"),
            MockResponse::text("done"),
        ],
        ToolRegistry::builtin(),
        limits,
        |p| {
            let cwd = p.cwd.clone();
            std::fs::create_dir_all(cwd.join(".gemini")).unwrap();
            std::fs::write(
                cwd.join(".gemini/settings.json"),
                r#"{"coreTools": ["ShellTool(ls)", "ReadFileTool"]}"#,
            )
            .unwrap();
            let entries = memo_engine::imported_rules::read(Some(&cwd), None);
            p.context.command_limits = memo_engine::imported_rules::command_limits(&entries);
        },
    )
    .await;
    let events = h.run_turn("look").await;
    let ends = tool_ends(&events);
    assert_eq!(ends[0].1, ToolStatus::Ok, "{}", ends[0].3);
    assert_eq!(ends[1].1, ToolStatus::Error);
    assert!(
        ends[1]
            .3
            .contains("allow only shell commands starting with `ls`"),
        "{}",
        ends[1].3
    );
    assert!(!h.workdir().join("made").exists());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_for_a_command_that_writes_keeps_exactly_that_command() {
    let home = tempfile::tempdir().unwrap();
    let store = RuleStore::at(home.path().join("approval_rules.json"));
    let mut h = harness(
        ApprovalMode::Auto,
        &store,
        vec![
            exec("sed -i 's/a/b/' notes.txt"),
            MockResponse::text("edited"),
            exec("sed -i 's/a/b/' notes.txt"),
            exec("sed -i 's/a/b/' notes.txt other.txt"),
            MockResponse::text("done"),
            exec("for i in 1 2; do echo build step $i; sleep 0; done"),
            MockResponse::text("looped"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("notes.txt"), "a\n").unwrap();
    std::fs::write(h.workdir().join("other.txt"), "a\n").unwrap();
    h.submit("edit");
    let request = next_approval(&mut h).await;
    assert_eq!(request.rule_patterns, ["sed -i s/a/b/ notes.txt"]);
    assert_eq!(
        request.rule_summary.as_deref(),
        Some("run exactly `sed -i s/a/b/ notes.txt` without asking")
    );
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::ApproveAlways { project: true },
        })
        .unwrap();
    h.until_turn_end().await;
    let rules = store.list().unwrap();
    assert!(rules[0].exact, "{rules:?}");

    // The same command runs unasked; one more file is not what was approved.
    h.submit("again");
    let request = next_approval(&mut h).await;
    assert!(
        request.command.as_deref().unwrap().contains("other.txt"),
        "{request:?}"
    );
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::Deny { reason: None },
        })
        .unwrap();
    h.until_turn_end().await;
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("notes.txt")).unwrap(),
        "b\n"
    );
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("other.txt")).unwrap(),
        "a\n"
    );

    // A loop's rule names its commands, not its data.
    h.submit("loop");
    let request = next_approval(&mut h).await;
    assert_eq!(request.rule_patterns, ["echo", "sleep"]);
    assert_eq!(
        request.rule_summary.as_deref(),
        Some("run `echo …`; `sleep …` without asking")
    );
    // The same as a phrase, which the window words in the person's language.
    assert_eq!(
        request.rule_words,
        Some(memo_protocol::Phrase::RuleRunWithoutAsking {
            rules: vec![
                memo_protocol::Phrase::RuleCommandPrefix {
                    pattern: "echo".into()
                },
                memo_protocol::Phrase::RuleCommandPrefix {
                    pattern: "sleep".into()
                },
            ]
        })
    );
    h.shutdown().await;
}
