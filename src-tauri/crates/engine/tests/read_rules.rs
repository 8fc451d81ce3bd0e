//! Read-deny rules hold in a running session: a Claude Code `Read(./.env)` deny in the
//! project's settings and a kept Memo `read` rule keep the files' content from the model
//! in every file tool (read, search, edit, write), the tool result says a rule denied it,
//! and a shell command naming such a file asks first, even in dangerous mode, saying why.

mod common;

use common::*;
use memo_config::{NewRule, RuleDecision, RuleKind, RuleStore};
use memo_engine::tools::ToolRegistry;
use memo_engine::{ApprovalMode, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{AgentEvent, Op, ReviewDecision, ToolStatus};
use memo_test_support::MockResponse;
use serde_json::json;

fn call(name: &str, args: serde_json::Value) -> MockResponse {
    MockResponse::tool_call(name, args.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_files_reach_the_model_through_no_tool_and_commands_naming_them_ask() {
    let home = tempfile::tempdir().unwrap();
    let store = RuleStore::at(home.path().join("approval_rules.json"));
    store
        .add(&NewRule {
            decision: RuleDecision::Deny,
            kind: RuleKind::Read,
            pattern: "*.pem".into(),
            project: None,
            exact: false,
        })
        .unwrap();
    let limits = TurnLimits {
        approval_mode: ApprovalMode::Dangerous,
        retry: fast_retry(),
        ..TurnLimits::default()
    };
    let responses = vec![
        call("read_file", json!({"file_path": ".env"})),
        call("read_file", json!({"file_path": "keys/server.pem"})),
        call("grep_files", json!({"pattern": "SECRET|visible"})),
        call(
            "apply_patch",
            json!({"file_path": ".env", "old_string": "SECRET", "new_string": "x"}),
        ),
        call(
            "write_file",
            json!({"file_path": ".env", "content": "replaced"}),
        ),
        call("list_dir", json!({})),
        call("exec_command", json!({"cmd": "cat .en*"})),
        MockResponse::text("done"),
    ];
    let kept = store.clone();
    let mut h = Harness::start_custom(
        WireApi::Openai,
        responses,
        ToolRegistry::builtin(),
        limits,
        move |p| {
            let cwd = p.cwd.clone();
            std::fs::write(cwd.join(".env"), "SECRET=hunter2\n").unwrap();
            std::fs::create_dir_all(cwd.join("keys")).unwrap();
            std::fs::write(cwd.join("keys/server.pem"), "PEMSECRET\n").unwrap();
            std::fs::write(cwd.join("notes.txt"), "visible\n").unwrap();
            std::fs::create_dir_all(cwd.join(".claude")).unwrap();
            std::fs::write(
                cwd.join(".claude/settings.json"),
                r#"{"permissions": {"deny": ["Read(./.env)"]}}"#,
            )
            .unwrap();
            let entries = memo_engine::imported_rules::read(Some(&cwd), None);
            // Deny entries hold in a folder nobody trusted.
            p.context.imported_rules = memo_engine::imported_rules::as_rules(&entries, &cwd, false);
            p.context.approval_rules = Some(kept);
        },
    )
    .await;
    h.submit("look around");
    let asked = h
        .until(|e| {
            matches!(
                e,
                AgentEvent::ApprovalRequested { .. } | AgentEvent::TurnEnded { .. }
            )
        })
        .await;
    let request = match &asked.last().unwrap().event {
        AgentEvent::ApprovalRequested { request } => request.clone(),
        other => panic!("the command naming .env must ask in dangerous mode: {other:?}"),
    };
    assert!(
        request
            .reason
            .contains("names .en*, which a rule denies reading"),
        "{}",
        request.reason
    );
    assert!(request.reason.contains("Read(./.env)") || request.reason.contains("./.env"));
    h.session
        .submit(Op::ResolveApproval {
            request_id: request.request_id.clone(),
            decision: ReviewDecision::Deny { reason: None },
        })
        .unwrap();
    let mut events = asked;
    events.extend(h.until_turn_end().await);
    let ends = tool_ends(&events);
    let by_name = |i: usize| (&ends[i].0, ends[i].1, &ends[i].3);
    for i in [0, 1, 3, 4] {
        let (name, status, output) = by_name(i);
        assert_eq!(status, ToolStatus::Error, "{name}: {output}");
        assert!(
            output.contains("a rule denies reading this file"),
            "{name}: {output}"
        );
    }
    assert!(
        by_name(0).2.contains("settings.json `./.env`"),
        "{}",
        by_name(0).2
    );
    assert!(
        by_name(1).2.contains("your rule `*.pem`"),
        "{}",
        by_name(1).2
    );
    let (_, status, grep) = by_name(2);
    assert_eq!(status, ToolStatus::Ok);
    assert!(grep.contains("notes.txt"), "{grep}");
    assert!(
        grep.contains("2 file(s) not searched: a rule denies reading them"),
        "{grep}"
    );
    let (_, _, listing) = by_name(5);
    assert!(listing.contains(".env"), "names are not content: {listing}");
    assert_eq!(
        std::fs::read_to_string(h.workdir().join(".env")).unwrap(),
        "SECRET=hunter2\n",
        "neither edit nor write touched it"
    );
    for body in h.request_bodies() {
        let text = body.to_string();
        assert!(!text.contains("hunter2"), "the secret reached the model");
        assert!(!text.contains("PEMSECRET"), "the key reached the model");
    }
    h.shutdown().await;
}
