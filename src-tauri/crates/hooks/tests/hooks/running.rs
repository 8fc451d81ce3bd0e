//! Matching, running and combining: real `sh` processes answering by exit code and JSON.

use std::time::Duration;

use memo_hooks::{
    CancellationToken, HookDecision, HookInput, NoticeKind, RunStatus, ToolCall, OUTPUT_LIMIT,
};
use serde_json::json;

use crate::common::{settings, wait_until_dead, Setup};

fn pre(tool: &str, input: serde_json::Value) -> HookInput {
    HookInput::PreToolUse {
        tool: ToolCall::new(tool, input),
    }
}

/// A hook printing a PreToolUse JSON answer.
fn decide(decision: &str, reason: &str) -> String {
    format!(
        "echo '{{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"{decision}\", \"permissionDecisionReason\": \"{reason}\"}}}}'"
    )
}

#[tokio::test]
async fn matchers_use_claude_code_names_and_memo_names() {
    let setup = Setup::new();
    setup.user_settings(settings(&[
        ("PreToolUse", "Bash", "touch out/bash"),
        ("PreToolUse", "exec_command", "touch out/memo-name"),
        ("PreToolUse", "Read", "touch out/read"),
        ("PreToolUse", "Edit|Write", "touch out/edit"),
        ("PreToolUse", "mcp__github__.*", "touch out/github"),
        ("PostToolUse", "*", "touch out/post"),
    ]));
    let loaded = setup.load(true);
    let shell = setup
        .run(&loaded, pre("exec_command", json!({"cmd": "ls"})))
        .await;
    assert_eq!(shell.runs.len(), 2);
    assert!(setup.out_exists("bash") && setup.out_exists("memo-name"));
    assert!(!setup.out_exists("read") && !setup.out_exists("post"));

    setup.run(&loaded, pre("apply_patch", json!({}))).await;
    assert!(setup.out_exists("edit"));
    setup
        .run(&loaded, pre("github__create_issue", json!({})))
        .await;
    assert!(setup.out_exists("github"));
    let other = setup
        .run(&loaded, pre("gitlab__create_issue", json!({})))
        .await;
    assert!(other.runs.is_empty());
}

#[tokio::test]
async fn exit_two_blocks_with_stderr_as_the_reason() {
    let setup = Setup::new();
    setup.user_settings(settings(&[
        (
            "PreToolUse",
            "Bash",
            "grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0",
        ),
        ("Stop", "", "echo 'tests are still failing' >&2; exit 2"),
        ("Notification", "", "echo 'cannot notify' >&2; exit 2"),
    ]));
    let loaded = setup.load(true);
    let denied = setup
        .run(&loaded, pre("exec_command", json!({"cmd": "rm -rf /"})))
        .await;
    assert_eq!(denied.decision, Some(HookDecision::Block));
    assert_eq!(denied.reason.as_deref(), Some("rm -rf is not allowed here"));
    assert_eq!(denied.runs[0].status, RunStatus::Exited { code: 2 });

    let fine = setup
        .run(&loaded, pre("exec_command", json!({"cmd": "ls"})))
        .await;
    assert_eq!(fine.decision, None);
    assert!(fine.notices.is_empty());

    let go_on = setup
        .run(
            &loaded,
            HookInput::Stop {
                stop_hook_active: false,
            },
        )
        .await;
    assert!(go_on.is_blocked());
    assert_eq!(go_on.reason.as_deref(), Some("tests are still failing"));

    // An event that cannot be blocked only shows the error.
    let note = setup
        .run(
            &loaded,
            HookInput::Notification {
                message: "hi".into(),
            },
        )
        .await;
    assert_eq!(note.decision, None);
    assert_eq!(note.notices[0].kind, NoticeKind::Error);
    assert!(note.notices[0].text.contains("cannot notify"));
}

#[tokio::test]
async fn json_decisions_combine_deny_over_ask_over_allow() {
    let setup = Setup::new();
    let allow = decide("allow", "looks fine");
    let ask = decide("ask", "touches prod");
    let deny = decide("deny", "secrets");
    setup.user_settings(settings(&[
        ("PreToolUse", "Read", &allow),
        ("PreToolUse", "Read|Bash", &ask),
        ("PreToolUse", "Bash", &deny),
    ]));
    let loaded = setup.load(true);
    let read = setup.run(&loaded, pre("read_file", json!({}))).await;
    assert_eq!(read.decision, Some(HookDecision::Ask));
    assert_eq!(read.reason.as_deref(), Some("touches prod"));
    let bash = setup.run(&loaded, pre("exec_command", json!({}))).await;
    assert_eq!(bash.decision, Some(HookDecision::Block));
    assert_eq!(bash.reason.as_deref(), Some("secrets"));

    let setup = Setup::new();
    setup.user_settings(settings(&[("PreToolUse", "", &allow)]));
    let loaded = setup.load(true);
    let all = setup.run(&loaded, pre("glob", json!({}))).await;
    assert_eq!(all.decision, Some(HookDecision::Allow));
}

#[tokio::test]
async fn updated_input_and_additional_context_are_read() {
    let setup = Setup::new();
    let rewrite = r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "cargo test --offline"}, "additionalContext": "offline mode"}, "systemMessage": "rewrote the command"}'"#;
    let context = r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CI is red"}}'"#;
    setup.user_settings(settings(&[
        ("PreToolUse", "Bash", rewrite),
        ("PreToolUse", "Bash", context),
        ("UserPromptSubmit", "", "echo 'branch: main'"),
        (
            "UserPromptSubmit",
            "",
            r#"echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "today is Monday"}}'"#,
        ),
    ]));
    let loaded = setup.load(true);
    let outcome = setup
        .run(
            &loaded,
            pre(
                "exec_command",
                json!({"cmd": "cargo test", "workdir": "src"}),
            ),
        )
        .await;
    assert_eq!(outcome.decision, Some(HookDecision::Allow));
    // Back in Memo's shape: Claude Code's `command` becomes `cmd`.
    assert_eq!(
        outcome.updated_input,
        Some(json!({"cmd": "cargo test --offline"}))
    );
    assert_eq!(
        outcome.additional_context.as_deref(),
        Some("offline mode\n\nCI is red")
    );
    assert_eq!(outcome.notices.len(), 1);
    assert_eq!(outcome.notices[0].kind, NoticeKind::Message);
    assert_eq!(outcome.notices[0].text, "rewrote the command");

    let prompt = setup
        .run(
            &loaded,
            HookInput::UserPromptSubmit {
                prompt: "hi".into(),
            },
        )
        .await;
    assert_eq!(
        prompt.additional_context.as_deref(),
        Some("branch: main\n\ntoday is Monday")
    );
}

#[tokio::test]
async fn failures_and_bad_answers_are_non_blocking_errors() {
    let setup = Setup::new();
    setup.user_settings(settings(&[
        ("PreToolUse", "", "echo 'lint crashed' >&2; exit 1"),
        ("PreToolUse", "", "echo '{\"decision\": '"),
        (
            "PreToolUse",
            "",
            "echo '{\"continue\": false, \"stopReason\": \"budget spent\"}'",
        ),
    ]));
    let loaded = setup.load(true);
    let outcome = setup.run(&loaded, pre("read_file", json!({}))).await;
    assert_eq!(outcome.decision, None);
    let errors: Vec<&str> = outcome
        .notices
        .iter()
        .filter(|n| n.kind == NoticeKind::Error)
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0], "exited with code 1: lint crashed");
    assert!(errors[1].contains("does not parse"), "{}", errors[1]);
    assert_eq!(
        outcome.stop.and_then(|s| s.reason).as_deref(),
        Some("budget spent")
    );
}

#[tokio::test]
async fn a_hanging_hook_is_killed_at_its_timeout_with_its_children() {
    let setup = Setup::new();
    setup.user_settings(json!({"hooks": {"Stop": [{"hooks": [{
        "type": "command",
        "command": "sleep 30 & echo $! > out/child.pid; sleep 30",
        "timeout": 1
    }]}]}}));
    let loaded = setup.load(true);
    let started = std::time::Instant::now();
    let outcome = setup
        .run(
            &loaded,
            HookInput::Stop {
                stop_hook_active: false,
            },
        )
        .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        outcome.runs[0].status,
        RunStatus::TimedOut { after_ms: 1000 }
    );
    assert_eq!(outcome.decision, None);
    assert!(outcome.notices[0].text.contains("timed out after 1 s"));
    let child: i32 = setup.read_out("child.pid").trim().parse().unwrap();
    assert!(wait_until_dead(child), "background child {child} survived");
}

#[tokio::test]
async fn cancelling_stops_running_hooks() {
    let setup = Setup::new();
    setup.user_settings(settings(&[(
        "SessionEnd",
        "",
        "sleep 30 & echo $! > out/child.pid; sleep 30",
    )]));
    let loaded = setup.load(true);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    let out = setup.out();
    tokio::spawn(async move {
        // Cancel once the hook is surely running: its child's pid written, not just the
        // file created (a loaded machine can stop between the two). Up to 20 s.
        for _ in 0..400 {
            let written = std::fs::read_to_string(out.join("child.pid")).unwrap_or_default();
            if !written.trim().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        trigger.cancel();
    });
    let outcome = loaded
        .hooks
        .run(
            &setup.ctx(),
            &HookInput::SessionEnd {
                reason: memo_hooks::SessionEndReason::Other,
            },
            &cancel,
        )
        .await;
    assert_eq!(outcome.runs[0].status, RunStatus::Cancelled);
    assert!(outcome.notices.is_empty());
    let child: i32 = setup.read_out("child.pid").trim().parse().unwrap();
    assert!(wait_until_dead(child));
}

#[tokio::test]
async fn hooks_of_one_event_run_at_the_same_time() {
    let setup = Setup::new();
    // Each announces itself and waits for the other: run one after the other, the
    // first would give up after 10 s and fail.
    let hook = |me: &str, other: &str| {
        format!(
            "touch out/{me}.started; i=0; while [ ! -e out/{other}.started ]; do i=$((i+1)); [ $i -gt 100 ] && exit 1; sleep 0.1; done; exit 0"
        )
    };
    let a = hook("a", "b");
    let b = hook("b", "a");
    setup.user_settings(settings(&[
        ("PreCompact", "manual", &a),
        ("PreCompact", "manual|auto", &b),
    ]));
    let loaded = setup.load(true);
    let outcome = setup
        .run(
            &loaded,
            HookInput::PreCompact {
                trigger: memo_hooks::CompactTrigger::Manual,
                custom_instructions: String::new(),
            },
        )
        .await;
    let statuses: Vec<&RunStatus> = outcome.runs.iter().map(|r| &r.status).collect();
    assert_eq!(
        statuses,
        [
            &RunStatus::Exited { code: 0 },
            &RunStatus::Exited { code: 0 }
        ]
    );
}

#[tokio::test]
async fn identical_commands_run_once() {
    let setup = Setup::new();
    setup.user_settings(settings(&[
        ("Stop", "", "echo x >> out/count"),
        ("Stop", "", "echo x >> out/count"),
    ]));
    setup.memo_config(
        "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo x >> out/count\" }]\n",
    );
    let loaded = setup.load(true);
    assert_eq!(loaded.hooks.definitions().len(), 3);
    let outcome = setup
        .run(
            &loaded,
            HookInput::Stop {
                stop_hook_active: false,
            },
        )
        .await;
    assert_eq!(outcome.runs.len(), 1);
    assert_eq!(setup.read_out("count"), "x\n");
}

#[tokio::test]
async fn output_is_cut_at_the_bound_and_says_so() {
    let setup = Setup::new();
    setup.user_settings(settings(&[(
        "PostToolUse",
        "",
        "head -c 200000 /dev/zero | tr '\\0' a; head -c 100000 /dev/zero | tr '\\0' b >&2",
    )]));
    let loaded = setup.load(true);
    let outcome = setup
        .run(
            &loaded,
            HookInput::PostToolUse {
                tool: ToolCall::new("read_file", json!({})),
                tool_response: json!("text"),
            },
        )
        .await;
    let run = &outcome.runs[0];
    assert_eq!(run.status, RunStatus::Exited { code: 0 });
    assert_eq!(run.stdout.cut_bytes, (200_000 - OUTPUT_LIMIT) as u64);
    assert_eq!(run.stderr.cut_bytes, (100_000 - OUTPUT_LIMIT) as u64);
    let kept = run.stdout.text.chars().take_while(|c| *c == 'a').count();
    assert_eq!(kept, OUTPUT_LIMIT);
    assert!(run
        .stdout
        .text
        .ends_with("more bytes after the first 64 KiB]"));
}

#[tokio::test]
async fn of_several_rewrites_the_last_is_used_and_none_when_denied() {
    let rewrite = |to: &str| {
        format!(
            "echo '{{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", \"updatedInput\": {{\"file_path\": \"{to}\"}}}}}}'"
        )
    };
    let first = rewrite("first.txt");
    let second = rewrite("second.txt");
    let setup = Setup::new();
    setup.user_settings(settings(&[("PreToolUse", "Read", &first)]));
    setup.project_settings(settings(&[("PreToolUse", "Read", &second)]));
    let loaded = setup.load(true);
    let outcome = setup
        .run(&loaded, pre("read_file", json!({"file_path": "a.txt"})))
        .await;
    assert_eq!(
        outcome.updated_input,
        Some(json!({"file_path": "second.txt"}))
    );
    assert_eq!(outcome.notices.len(), 1);
    assert_eq!(outcome.notices[0].command, second);

    let deny = decide("deny", "no");
    setup.project_local_settings(settings(&[("PreToolUse", "Read", &deny)]));
    let loaded = setup.load(true);
    let outcome = setup
        .run(&loaded, pre("read_file", json!({"file_path": "a.txt"})))
        .await;
    assert!(outcome.is_blocked());
    assert_eq!(outcome.updated_input, None);
}

#[tokio::test]
async fn a_background_child_holding_stdout_does_not_hold_the_hook_up() {
    let setup = Setup::new();
    setup.user_settings(settings(&[(
        "Stop",
        "",
        "sleep 60 & echo $! > out/child.pid; echo done",
    )]));
    let loaded = setup.load(true);
    let started = std::time::Instant::now();
    let outcome = setup
        .run(
            &loaded,
            HookInput::Stop {
                stop_hook_active: false,
            },
        )
        .await;
    // Generous: the point is not waiting for the child's 60 s.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(outcome.runs[0].status, RunStatus::Exited { code: 0 });
    assert_eq!(outcome.runs[0].stdout.text, "done\n");
    let child: i32 = setup.read_out("child.pid").trim().parse().unwrap();
    // A hook's background work is its own business: it is left running.
    assert!(!crate::common::process_is_dead(child));
    let _ = std::process::Command::new("kill")
        .arg(child.to_string())
        .status();
}

#[tokio::test]
async fn before_agent_start_hooks_chain_the_turns_system_prompt_in_order() {
    let setup = Setup::new();
    // The first appends to what it is given (read with python's json, as a real script
    // would), the second prints nothing, the third wraps the first one's result.
    let append = r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemPrompt": d["system_prompt"] + "\nFIRST"}))'"#;
    let wrap = r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"hookSpecificOutput": {"hookEventName": "BeforeAgentStart", "systemPrompt": "[" + d["system_prompt"] + "] for " + d["prompt"]}}))'"#;
    setup.user_settings(settings(&[
        ("BeforeAgentStart", "", append),
        ("BeforeAgentStart", "", "cat > out/seen.json"),
        ("BeforeAgentStart", "", wrap),
    ]));
    let loaded = setup.load(true);
    let chain = loaded
        .hooks
        .run_system_prompt_chain(&setup.ctx(), "fix it", "BASE", &CancellationToken::new())
        .await;
    assert_eq!(
        chain.system_prompt.as_deref(),
        Some("[BASE\nFIRST] for fix it")
    );
    let changed: Vec<&str> = chain.changed_by.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(changed, [append, wrap]);
    assert_eq!(chain.outcome.runs.len(), 3);
    // The second hook saw the first one's prompt, not the base.
    let seen = setup.out_json("seen.json");
    assert_eq!(seen["hook_event_name"], "BeforeAgentStart");
    assert_eq!(seen["system_prompt"], "BASE\nFIRST");
    assert_eq!(seen["prompt"], "fix it");
}

#[tokio::test]
async fn a_before_agent_start_hook_that_answers_badly_changes_nothing() {
    let setup = Setup::new();
    setup.user_settings(settings(&[
        ("BeforeAgentStart", "", r#"echo '{"systemPrompt": "   "}'"#),
        ("BeforeAgentStart", "", r#"echo '{"systemPrompt": 3}'"#),
        ("BeforeAgentStart", "", "echo plain words"),
    ]));
    let loaded = setup.load(true);
    let chain = loaded
        .hooks
        .run_system_prompt_chain(&setup.ctx(), "hi", "BASE", &CancellationToken::new())
        .await;
    assert_eq!(chain.system_prompt, None);
    assert!(chain.changed_by.is_empty());
    let errors: Vec<&str> = chain
        .outcome
        .notices
        .iter()
        .filter(|n| n.kind == NoticeKind::Error)
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("empty systemPrompt"), "{errors:?}");
}
