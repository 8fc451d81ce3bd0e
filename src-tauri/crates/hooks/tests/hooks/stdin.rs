//! What each event's hooks read on stdin: Claude Code's documented fields.

use memo_hooks::{
    CompactTrigger, HookEvent, HookInput, SessionEndReason, SessionStartSource, ToolCall,
};
use serde_json::json;

use crate::common::{settings, Setup};

fn capture_all_events(setup: &Setup) {
    let groups: Vec<(String, String)> = HookEvent::ALL
        .iter()
        .map(|e| {
            let name = e.name().to_string();
            let command = format!("cat > \"$CLAUDE_PROJECT_DIR/out/{name}.json\"");
            (name, command)
        })
        .collect();
    let refs: Vec<(&str, &str, &str)> = groups
        .iter()
        .map(|(event, command)| (event.as_str(), "*", command.as_str()))
        .collect();
    setup.user_settings(settings(&refs));
}

#[tokio::test]
async fn every_event_sends_its_documented_fields() {
    let setup = Setup::new();
    capture_all_events(&setup);
    let loaded = setup.load(true);
    assert!(
        loaded.report.issues.is_empty(),
        "{:?}",
        loaded.report.issues
    );
    let project = setup.project.path().to_string_lossy().into_owned();

    let inputs = [
        HookInput::PreToolUse {
            tool: ToolCall::new("exec_command", json!({"cmd": "cargo test"})).with_id("call_7"),
        },
        HookInput::PostToolUse {
            tool: ToolCall::new("write_file", json!({"file_path": "a.txt", "content": "x"})),
            tool_response: json!({"ok": true}),
        },
        HookInput::UserPromptSubmit {
            prompt: "fix the build".into(),
        },
        HookInput::Notification {
            message: "Memo needs your approval".into(),
        },
        HookInput::Stop {
            stop_hook_active: false,
        },
        HookInput::SubagentStop {
            stop_hook_active: true,
        },
        HookInput::PreCompact {
            trigger: CompactTrigger::Manual,
            custom_instructions: "keep the plan".into(),
        },
        HookInput::SessionStart {
            source: SessionStartSource::Resume,
        },
        HookInput::SessionEnd {
            reason: SessionEndReason::Clear,
        },
    ];
    for input in inputs {
        let outcome = setup.run(&loaded, input.clone()).await;
        assert_eq!(outcome.runs.len(), 1, "{input:?}");
        assert!(outcome.notices.is_empty(), "{:?}", outcome.notices);
    }

    let common = |name: &str| {
        let doc = setup.out_json(&format!("{name}.json"));
        assert_eq!(doc["session_id"], "session-1", "{name}");
        assert_eq!(doc["transcript_path"], "", "{name}");
        assert_eq!(doc["cwd"], project.as_str(), "{name}");
        assert_eq!(doc["hook_event_name"], name, "{name}");
        doc
    };

    let pre = common("PreToolUse");
    assert_eq!(pre["tool_name"], "Bash");
    assert_eq!(pre["memo_tool_name"], "exec_command");
    assert_eq!(pre["tool_input"]["command"], "cargo test");
    assert_eq!(pre["tool_input"]["cmd"], "cargo test");
    assert_eq!(pre["tool_use_id"], "call_7");

    let post = common("PostToolUse");
    assert_eq!(post["tool_name"], "Write");
    assert_eq!(post["memo_tool_name"], "write_file");
    assert_eq!(post["tool_input"]["file_path"], "a.txt");
    assert_eq!(post["tool_response"], json!({"ok": true}));

    assert_eq!(common("UserPromptSubmit")["prompt"], "fix the build");
    assert_eq!(
        common("Notification")["message"],
        "Memo needs your approval"
    );
    assert_eq!(common("Stop")["stop_hook_active"], false);
    assert_eq!(common("SubagentStop")["stop_hook_active"], true);
    let compact = common("PreCompact");
    assert_eq!(compact["trigger"], "manual");
    assert_eq!(compact["custom_instructions"], "keep the plan");
    assert_eq!(common("SessionStart")["source"], "resume");
    assert_eq!(common("SessionEnd")["reason"], "clear");
}

#[tokio::test]
async fn hooks_run_in_the_project_with_its_path_in_the_environment() {
    let setup = Setup::new();
    setup.user_settings(settings(&[(
        "Stop",
        "",
        "pwd > out/pwd; printf '%s\\n%s\\n' \"$CLAUDE_PROJECT_DIR\" \"$MEMO_PROJECT_DIR\" > out/env",
    )]));
    let loaded = setup.load(true);
    setup
        .run(
            &loaded,
            HookInput::Stop {
                stop_hook_active: false,
            },
        )
        .await;
    let project = std::fs::canonicalize(setup.project.path()).unwrap();
    let pwd = std::fs::canonicalize(setup.read_out("pwd").trim()).unwrap();
    assert_eq!(pwd, project);
    let env = setup.read_out("env");
    let lines: Vec<&str> = env.lines().collect();
    let given = setup.project.path().to_string_lossy();
    assert_eq!(lines, [given.as_ref(), given.as_ref()]);
}
