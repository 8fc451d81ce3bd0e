//! Where hooks come from, what an untrusted folder loses, and how bad files are reported.

use memo_hooks::{HookEvent, HookInput, IssueKind, SourceKind};
use serde_json::json;

use crate::common::{settings, Setup};

fn stop() -> HookInput {
    HookInput::Stop {
        stop_hook_active: false,
    }
}

#[tokio::test]
async fn an_untrusted_folder_skips_project_hooks_and_says_so() {
    let setup = Setup::new();
    setup.user_settings(settings(&[("Stop", "", "touch out/user")]));
    let shared = setup.project_settings(settings(&[
        ("Stop", "", "touch out/project"),
        ("PreToolUse", "Bash", "touch out/project-bash"),
    ]));
    let local = setup.project_local_settings(settings(&[("Stop", "", "touch out/local")]));

    let loaded = setup.load(false);
    let skipped = &loaded.report.skipped_project;
    assert_eq!(skipped.count(), 3);
    assert_eq!(skipped.files, [shared.clone(), local.clone()]);
    assert_eq!(
        skipped.message().as_deref(),
        Some("3 project hooks not run: folder not trusted")
    );
    assert_eq!(loaded.hooks.definitions().len(), 1);
    // The trust prompt lists what the folder would run.
    let items = loaded.project_trust_items();
    assert_eq!(items.len(), 3);
    assert!(items.contains(&"hook PreToolUse Bash: touch out/project-bash".to_string()));

    let outcome = setup.run(&loaded, stop()).await;
    assert_eq!(outcome.runs.len(), 1);
    assert!(setup.out_exists("user"));
    assert!(!setup.out_exists("project"));
    assert!(!setup.out_exists("local"));

    // Trusted, everything runs, each hook knowing where it came from.
    let loaded = setup.load(true);
    assert_eq!(loaded.report.skipped_project.count(), 0);
    let kinds: Vec<(SourceKind, bool)> = loaded
        .hooks
        .definitions()
        .iter()
        .map(|h| (h.source.kind, h.source.is_project()))
        .collect();
    assert_eq!(
        kinds,
        [
            (SourceKind::ClaudeUser, false),
            (SourceKind::ClaudeProject, true),
            (SourceKind::ClaudeProject, true),
            (SourceKind::ClaudeProjectLocal, true),
        ]
    );
    setup.run(&loaded, stop()).await;
    assert!(setup.out_exists("project") && setup.out_exists("local"));
}

#[tokio::test]
async fn a_malformed_file_is_reported_and_the_others_still_load() {
    let setup = Setup::new();
    let broken = setup.project.path().join(".claude/settings.json");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, "{\n  \"hooks\": {\n    \"Stop\": [\n").unwrap();
    setup.user_settings(settings(&[("Stop", "", "touch out/user")]));
    setup.memo_config(
        r#"
model = "some-model"

[[hooks.Stop]]
hooks = [{ type = "command", command = "touch out/memo", timeout = 5 }]
"#,
    );

    let loaded = setup.load(true);
    let issues = &loaded.report.issues;
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind, IssueKind::Malformed);
    assert_eq!(issues[0].file, broken);
    assert!(
        issues[0].message.contains("settings.json:4:"),
        "{}",
        issues[0].message
    );
    assert!(issues[0].message.contains("invalid JSON"));

    let memo = &loaded.hooks.definitions()[1];
    assert_eq!(memo.source.kind, SourceKind::MemoConfig);
    assert_eq!(memo.timeout_ms, 5000);
    setup.run(&loaded, stop()).await;
    assert!(setup.out_exists("user") && setup.out_exists("memo"));
}

#[tokio::test]
async fn bad_entries_cost_only_themselves() {
    let setup = Setup::new();
    let file = setup.user_settings(json!({
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "PermissionRequest": [{"hooks": [{"type": "command", "command": "true"}]}],
            "Stopp": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [
                {"matcher": "(Bash", "hooks": [{"type": "command", "command": "bad-regex"}]},
                {"matcher": "Bash", "hooks": [
                    {"type": "prompt", "prompt": "Is this safe?"},
                    {"type": "command"},
                    {"type": "command", "command": "guard", "timeout": "soon"},
                    {"type": "command", "command": "audit"}
                ]}
            ],
            "Stop": {"not": "a list"}
        }
    }));
    let loaded = setup.load(true);
    let kinds: Vec<IssueKind> = loaded.report.issues.iter().map(|i| i.kind).collect();
    let count = |k: IssueKind| kinds.iter().filter(|x| **x == k).count();
    assert_eq!(count(IssueKind::UnknownEvent), 2, "{kinds:?}");
    assert_eq!(count(IssueKind::InvalidMatcher), 1);
    assert_eq!(count(IssueKind::UnsupportedType), 1);
    // The command-less hook, the bad timeout (default used) and the Stop table.
    assert_eq!(count(IssueKind::InvalidEntry), 3);
    assert!(loaded.report.issues.iter().all(|i| i.file == file));
    let timeout = loaded
        .report
        .issues
        .iter()
        .find(|i| i.message.contains("timeout"))
        .unwrap();
    assert!(
        timeout
            .message
            .contains("hooks.PreToolUse[1].hooks[2].timeout"),
        "{}",
        timeout.message
    );

    let commands: Vec<(&str, u64)> = loaded
        .hooks
        .definitions()
        .iter()
        .map(|h| (h.command.as_str(), h.timeout_ms))
        .collect();
    assert_eq!(commands, [("guard", 60_000), ("audit", 60_000)]);
    assert_eq!(loaded.report.files.len(), 1);
    assert_eq!(loaded.report.files[0].hooks, 2);
}

#[tokio::test]
async fn memo_config_hooks_use_claude_codes_shape_in_toml() {
    let setup = Setup::new();
    setup.memo_config(
        r#"
[[hooks.PreToolUse]]
matcher = "Bash"
hooks = [{ type = "command", command = "echo '{\"decision\": \"block\", \"reason\": \"from toml\"}'", timeout = 30 }]

[[hooks.SessionStart]]
matcher = "startup"
hooks = [{ type = "command", command = "echo started" }]
"#,
    );
    let loaded = setup.load(true);
    assert!(
        loaded.report.issues.is_empty(),
        "{:?}",
        loaded.report.issues
    );
    assert!(loaded.hooks.has(HookEvent::PreToolUse));
    let outcome = setup
        .run(
            &loaded,
            HookInput::PreToolUse {
                tool: memo_hooks::ToolCall::new("exec_command", json!({"cmd": "ls"})),
            },
        )
        .await;
    assert!(outcome.is_blocked());
    assert_eq!(outcome.reason.as_deref(), Some("from toml"));

    // SessionStart matches on its source.
    let resumed = setup
        .run(
            &loaded,
            HookInput::SessionStart {
                source: memo_hooks::SessionStartSource::Resume,
            },
        )
        .await;
    assert!(resumed.runs.is_empty());
    let started = setup
        .run(
            &loaded,
            HookInput::SessionStart {
                source: memo_hooks::SessionStartSource::Startup,
            },
        )
        .await;
    assert_eq!(started.additional_context.as_deref(), Some("started"));

    // A config.toml with a syntax error is reported, not fatal.
    setup.memo_config("[hooks\n");
    let loaded = setup.load(true);
    assert_eq!(loaded.report.issues[0].kind, IssueKind::Malformed);
    assert!(loaded.hooks.is_empty());
}

#[tokio::test]
async fn disable_all_hooks_turns_every_hook_off() {
    let setup = Setup::new();
    setup.user_settings(settings(&[("Stop", "", "touch out/user")]));
    let local = setup.project_local_settings(json!({"disableAllHooks": true}));
    // Untrusted, the project cannot switch anything off either.
    assert_eq!(setup.load(false).hooks.definitions().len(), 1);
    let loaded = setup.load(true);
    assert!(loaded.hooks.is_empty());
    assert_eq!(loaded.report.disabled_by, Some(local));
}
