//! Approval settings through the service, on real files: the default mode goes to
//! config.toml and new sessions start in it; rules are added, edited, listed and deleted;
//! an "always for this project" answer in one session stops the prompt in the next; a
//! damaged rules file is reported, not fatal.

mod support;

use std::time::Duration;

use memo_protocol::{
    AgentEvent, ApprovalMode, ErrorCode, Op, ReviewDecision, RuleDecision, RuleInput, RuleKind,
    UserInput,
};
use memo_test_support::MockResponse;
use support::fixture;

fn exec(cmd: &str) -> MockResponse {
    MockResponse::tool_call(
        "exec_command",
        serde_json::json!({ "cmd": cmd }).to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_mode_and_rules_are_kept_and_an_always_answer_lasts_across_sessions() {
    let f = fixture(vec![
        exec("true --first"),
        MockResponse::text("one"),
        exec("true --second"),
        MockResponse::text("two"),
    ])
    .await;
    let settings = f.service.approval_settings(None).unwrap();
    assert_eq!(settings.default_mode, ApprovalMode::Auto);
    assert!(settings.rules.is_empty());
    assert!(settings.rules_path.ends_with("approval_rules.json"));

    // First session: asked, answered "always for this project".
    let session = f.start();
    let mut events = f.service.subscribe(&session.id, 0).unwrap();
    f.service
        .submit(
            &session.id,
            Op::UserTurn {
                input: UserInput::text("go"),
            },
        )
        .unwrap();
    let request = loop {
        let env = tokio::time::timeout(Duration::from_secs(10), events.recv())
            .await
            .unwrap()
            .unwrap();
        if let AgentEvent::ApprovalRequested { request } = env.event {
            break request;
        }
    };
    assert_eq!(request.rule_patterns, ["true"]);
    f.service
        .submit(
            &session.id,
            Op::ResolveApproval {
                request_id: request.request_id,
                decision: ReviewDecision::ApproveAlways { project: true },
            },
        )
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
    let rules = f.service.approval_settings(None).unwrap().rules;
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].pattern, "true");
    assert_eq!(rules[0].decision, RuleDecision::Allow);

    // A new session in the folder runs the same command without asking.
    let next = f.start();
    f.turn(&next.id, "again").await;
    let asked = f
        .service
        .events(&next.id, 0, usize::MAX)
        .unwrap()
        .into_iter()
        .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. }));
    assert!(!asked, "the kept rule should have answered");

    // Edit it into a deny rule, add another, delete one.
    let input = |decision, pattern: &str| RuleInput {
        decision,
        kind: RuleKind::Command,
        pattern: pattern.into(),
        project: None,
        exact: false,
    };
    let page = f
        .service
        .save_approval_rule(Some(&rules[0].id), &input(RuleDecision::Deny, "git push"))
        .unwrap();
    assert_eq!(page.rules[0].pattern, "git push");
    assert_eq!(page.rules[0].decision, RuleDecision::Deny);
    let page = f
        .service
        .save_approval_rule(None, &input(RuleDecision::Allow, "cargo test"))
        .unwrap();
    assert_eq!(page.rules.len(), 2);
    let page = f.service.delete_approval_rule(&page.rules[0].id).unwrap();
    assert_eq!(page.rules.len(), 1);
    let missing = f.service.delete_approval_rule("nope").unwrap_err();
    assert_eq!(missing.code(), ErrorCode::NotFound);
    let bad = f
        .service
        .save_approval_rule(None, &input(RuleDecision::Allow, "  "))
        .unwrap_err();
    assert_eq!(bad.code(), ErrorCode::InvalidInput);

    // The default mode goes to config.toml and new sessions start in it.
    let page = f
        .service
        .set_default_approval_mode(ApprovalMode::Strict)
        .unwrap();
    assert_eq!(page.default_mode, ApprovalMode::Strict);
    let text = std::fs::read_to_string(f.home.path().join("config.toml")).unwrap();
    assert!(text.contains("approval_mode = \"strict\""), "{text}");
    f.service
        .set_default_approval_mode(ApprovalMode::Auto)
        .unwrap();
    let text = std::fs::read_to_string(f.home.path().join("config.toml")).unwrap();
    assert!(!text.contains("approval_mode"), "{text}");
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_rules_file_is_reported_and_left_alone() {
    let f = fixture(vec![]).await;
    let path = f.home.path().join("approval_rules.json");
    std::fs::write(&path, "not json").unwrap();
    let page = f.service.approval_settings(None).unwrap();
    assert!(page.rules_error.unwrap().contains("approval_rules.json:1:"));
    let input = RuleInput {
        decision: RuleDecision::Allow,
        kind: RuleKind::Command,
        pattern: "ls".into(),
        project: None,
        exact: false,
    };
    assert!(f.service.save_approval_rule(None, &input).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "not json");
    f.finish().await;
}

/// Whether a session's events hold an approval request.
fn asked(f: &support::Fixture, id: &memo_protocol::SessionId) -> bool {
    f.service
        .events(id, 0, usize::MAX)
        .unwrap()
        .into_iter()
        .any(|e| matches!(e.event, AgentEvent::ApprovalRequested { .. }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_agents_permissions_apply_a_projects_allows_only_once_trusted() {
    let f = fixture(vec![
        exec("touch refused"),
        MockResponse::text("refused"),
        exec("true --x"),
        MockResponse::text("trusted"),
    ])
    .await;
    std::fs::create_dir_all(f.work.path().join(".claude")).unwrap();
    std::fs::write(
        f.work.path().join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(true:*)"], "deny": ["Bash(touch:*)"]}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(f.work.path().join(".gemini")).unwrap();
    std::fs::write(
        f.work.path().join(".gemini/settings.json"),
        r#"{"excludeTools": ["web_fetch"]}"#,
    )
    .unwrap();
    // The allow rule is what the trust prompt lists; the settings page says it waits.
    let trust = f.service.workspace_trust(f.work.path()).unwrap();
    assert!(trust.needs_decision);
    assert_eq!(trust.permissions[0].file, ".claude/settings.json");
    assert_eq!(trust.permissions[0].text, "Bash(true:*)");
    let page = f.service.approval_settings(Some(f.work.path())).unwrap();
    let allow = page
        .imported
        .iter()
        .find(|p| p.text == "Bash(true:*)")
        .unwrap();
    assert!(
        !allow.applied && allow.effect.contains("once the folder is trusted"),
        "{allow:?}"
    );

    // The deny applies untrusted: refused without asking; web_fetch is not offered.
    let session = f.start();
    f.turn(&session.id, "make a file").await;
    assert!(!asked(&f, &session.id));
    assert!(!f.work.path().join("refused").exists());
    let tools = f.mock.requests()[0].body["tools"].to_string();
    assert!(
        !tools.contains("\"webfetch\""),
        "excluded tool offered: {tools}"
    );

    // Trusted: the allow rule answers.
    f.service.set_workspace_trust(f.work.path(), true).unwrap();
    let trusted = f.start();
    f.turn(&trusted.id, "run true").await;
    assert!(
        !asked(&f, &trusted.id),
        "the trusted folder's allow rule should have answered"
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_turned_off_in_settings_is_not_offered() {
    let f = fixture(vec![MockResponse::text("ok")]).await;
    let page = f.service.set_tool_disabled("webfetch", true).unwrap();
    assert!(page
        .tools
        .iter()
        .any(|t| t.name == "webfetch" && t.disabled));
    assert!(f.service.set_tool_disabled("nope", true).is_err());
    let session = f.start();
    f.turn(&session.id, "hi").await;
    let tools = f.mock.requests()[0].body["tools"].to_string();
    assert!(!tools.contains("\"webfetch\""), "{tools}");
    assert!(tools.contains("\"read_file\""));
    let page = f.service.set_tool_disabled("webfetch", false).unwrap();
    assert!(page.tools.iter().all(|t| !t.disabled));
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_are_exported_as_a_file_of_their_own() {
    let f = fixture(vec![]).await;
    let input = RuleInput {
        decision: RuleDecision::Deny,
        kind: RuleKind::Mcp,
        pattern: "github:create_issue repo=private-*".into(),
        project: None,
        exact: false,
    };
    f.service.save_approval_rule(None, &input).unwrap();
    let out = f.work.path().join("exported.json");
    assert_eq!(f.service.export_approval_rules(&out).unwrap(), 1);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        json["rules"][0]["pattern"],
        "github:create_issue repo=private-*"
    );
    assert_eq!(json["rules"][0]["decision"], "deny");
    let nowhere = f
        .service
        .export_approval_rules(std::path::Path::new("/nonexistent/dir/x.json"));
    assert!(nowhere.is_err());
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saving_to_memory_is_asked_with_the_added_line_and_lands_in_memory_md() {
    let f = fixture(vec![
        MockResponse::tool_call(
            "save_memory",
            serde_json::json!({ "fact": "The user deploys with `make ship`." }).to_string(),
        ),
        MockResponse::text("Noted."),
    ])
    .await;
    let session = f.start();
    let mut events = f.service.subscribe(&session.id, 0).unwrap();
    f.service
        .submit(
            &session.id,
            Op::UserTurn {
                input: UserInput::text("remember how I deploy"),
            },
        )
        .unwrap();
    let request = loop {
        let env = tokio::time::timeout(Duration::from_secs(10), events.recv())
            .await
            .unwrap()
            .unwrap();
        if let AgentEvent::ApprovalRequested { request } = env.event {
            break request;
        }
    };
    let memory = f.home.path().join("MEMORY.md");
    assert!(!memory.exists(), "written before it was approved");
    let diff = request.diff.expect("the added line is shown");
    assert!(diff
        .unified
        .contains("+- The user deploys with `make ship`."));
    f.service
        .submit(
            &session.id,
            Op::ResolveApproval {
                request_id: request.request_id,
                decision: ReviewDecision::approve_once(),
            },
        )
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
    assert_eq!(
        std::fs::read_to_string(&memory).unwrap(),
        "- The user deploys with `make ship`.\n"
    );
    f.service.shutdown().await;
    f.mock.shutdown().await;
}
