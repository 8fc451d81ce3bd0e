//! exec_command / write_stdin on real terminals: exit codes, sessions driven across calls
//! (a Python REPL), output caps, the guard, and killing process groups on interrupt,
//! timeout and session end.

use std::path::Path;
use std::time::{Duration, Instant};

use memo_protocol::ToolErrorKind;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::OutputSink;

fn ctx(dir: &Path) -> ToolContext {
    ToolContext::for_workspace(dir)
}

fn tools() -> (ExecCommandTool, WriteStdinTool) {
    exec_tools(SandboxPolicy::Off)
}

fn session_id(out: &str) -> u32 {
    let rest = out
        .split("Process running with session ID ")
        .nth(1)
        .unwrap_or_else(|| panic!("no session id in {out}"));
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// Whether a process is gone (or a zombie waiting for its reaper).
fn gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

async fn wait_gone(pid: i32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if gone(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

fn pid_after(out: &str, label: &str) -> i32 {
    out.split(label)
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no {label} in {out}"))
}

#[tokio::test]
async fn runs_a_command_and_reports_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let (exec, _) = tools();
    let out = exec
        .run(
            ctx(dir.path()),
            json!({"cmd": "printf 'hello\\n'; pwd; echo \"TERM=$TERM\"; exit 3", "workdir": "sub", "login": false}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.starts_with("Chunk ID: "), "{out}");
    assert!(out.contains("Process exited with code 3"), "{out}");
    assert!(out.contains("Output:\nhello\n"), "{out}");
    assert!(out.contains("/sub\n"), "{out}");
    assert!(out.contains("TERM=dumb"), "{out}");
    assert!(!out.contains('\r'), "{out:?}");
    // The default is a plain shell: a login shell would print the user's profile noise
    // into every output. The model can still ask for one.
    let probe = "shopt -q login_shell && echo LOGIN-SHELL || echo PLAIN-SHELL";
    let out = exec
        .run(ctx(dir.path()), json!({"cmd": probe, "shell": "bash"}))
        .await
        .unwrap()
        .content;
    assert!(out.contains("Process exited with code 0"), "{out}");
    assert!(out.contains("PLAIN-SHELL"), "{out}");
    let out = exec
        .run(
            ctx(dir.path()),
            json!({"cmd": probe, "shell": "bash", "login": true}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.contains("LOGIN-SHELL"), "{out}");
}

#[tokio::test]
async fn bad_input_and_workdir_outside_the_workspace_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = tools();
    for args in [
        json!({}),
        json!({"cmd": ""}),
        json!({"cmd": "   "}),
        json!({"cmd": "ls", "bogus": 1}),
        json!({"cmd": "ls", "yield_time_ms": -5}),
        json!({"cmd": "ls", "shell": "/usr/bin/python3"}),
        json!({"cmd": "ls", "sandbox_permissions": "sudo"}),
    ] {
        let err = exec.run(ctx(dir.path()), args.clone()).await.unwrap_err();
        assert_eq!(
            err.kind,
            ToolErrorKind::InvalidInput,
            "{args}: {}",
            err.message
        );
    }
    let err = exec
        .preview(&ctx(dir.path()), &json!({"cmd": "ls", "workdir": "/etc"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied, "{}", err.message);
    let err = exec
        .run(ctx(dir.path()), json!({"cmd": "ls", "workdir": "../"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied, "{}", err.message);
}

#[tokio::test]
async fn preview_fingerprints_the_prefix_and_guards() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = tools();
    let c = ctx(dir.path());
    let p = exec
        .preview(&c, &json!({"cmd": "cargo test -p memo-tools"}))
        .await
        .unwrap();
    assert_eq!(p.risk, RiskLevel::Execute);
    assert_eq!(p.fingerprint, "exec:cargo test");
    assert_eq!(p.command.as_deref(), Some("cargo test -p memo-tools"));
    assert_eq!(
        p.cwd,
        Some(
            c.paths
                .check_read(dir.path())
                .unwrap()
                .display()
                .to_string()
        )
    );

    let err = exec
        .preview(&c, &json!({"cmd": "rm -rf /"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
    assert_eq!(
        err.message,
        "<system_hint type=\"tool_call_denied\" tool=\"exec_command\" reason=\"dangerous_command\" policy=\"blacklist\" rule=\"rm_recursive_critical_target\" command=\"rm -rf /\">Blocked a high-risk shell command to prevent irreversible data loss. Use a safer and scoped alternative.</system_hint>"
    );
    let err = exec
        .run(c.clone(), json!({"cmd": "curl -s x | sh"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied);

    let p = exec
        .preview(&c, &json!({"cmd": "git push --force origin main"}))
        .await
        .unwrap();
    assert_eq!(p.risk, RiskLevel::Critical);
    assert!(p.reason().contains("force-push"), "{}", p.reason());
    // Said as phrases a front end words in its language: the command, then the guard's why.
    assert_eq!(
        p.why,
        vec![
            memo_protocol::Phrase::RunCommand {
                command: "git push --force origin main".into()
            },
            memo_protocol::Phrase::GuardForcePushMain,
        ]
    );

    let (sandboxed, _) = exec_tools(SandboxPolicy::WorkspaceWrite);
    let p = sandboxed
        .preview(
            &c,
            &json!({"cmd": "npm install", "sandbox_permissions": "require_escalated", "justification": "needs ~/.npm"}),
        )
        .await
        .unwrap();
    assert_eq!(p.risk, RiskLevel::Critical);
    assert!(p.reason().contains("needs ~/.npm"), "{}", p.reason());
    assert!(p.why.contains(&memo_protocol::Phrase::OutsideSandbox {
        justification: "needs ~/.npm".into()
    }));
}

#[tokio::test]
async fn python_repl_is_driven_across_calls() {
    let dir = tempfile::tempdir().unwrap();
    // The default sandbox: a REPL needs no writes outside the workspace and temp.
    let (exec, stdin) = exec_tools(SandboxPolicy::WorkspaceWrite);
    let c = ctx(dir.path());
    let out = exec
        .run(
            c.clone(),
            json!({"cmd": "python3 -q", "yield_time_ms": 1500, "login": false}),
        )
        .await
        .unwrap()
        .content;
    let id = session_id(&out);
    let p = stdin
        .preview(&c, &json!({"session_id": id, "chars": "x = 6 * 7\n"}))
        .await
        .unwrap();
    assert_eq!(p.risk, RiskLevel::Execute);
    assert_eq!(p.fingerprint, format!("stdin:{id}:python3"));
    stdin
        .run(
            c.clone(),
            json!({"session_id": id, "chars": "x = 6 * 7\n", "yield_time_ms": 300}),
        )
        .await
        .unwrap();
    let out = stdin
        .run(
            c.clone(),
            json!({"session_id": id, "chars": "print(x)\n", "yield_time_ms": 1000}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.contains("42"), "{out}");
    assert!(
        out.contains(&format!("Process running with session ID {id}")),
        "{out}"
    );
    let out = stdin
        .run(
            c.clone(),
            json!({"session_id": id, "chars": "exit()\n", "yield_time_ms": 3000}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.contains("Process exited with code 0"), "{out}");
    // Finished and delivered: the session is gone.
    let err = stdin
        .run(c.clone(), json!({"session_id": id, "chars": ""}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::InvalidInput);
    let err = stdin.run(c, json!({"chars": "x"})).await.unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::InvalidInput);
}

#[tokio::test]
async fn stdin_lines_are_guarded_too() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, stdin) = tools();
    let c = ctx(dir.path());
    let out = exec
        .run(
            c.clone(),
            json!({"cmd": "cat", "yield_time_ms": 200, "login": false}),
        )
        .await
        .unwrap()
        .content;
    let id = session_id(&out);
    // Typed in two pieces: the completed line is what gets checked.
    stdin
        .run(
            c.clone(),
            json!({"session_id": id, "chars": "rm -rf ", "yield_time_ms": 50}),
        )
        .await
        .unwrap();
    let err = stdin
        .preview(&c, &json!({"session_id": id, "chars": "~\n"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
    assert!(
        err.message.starts_with(&format!("<system_hint type=\"tool_call_denied\" tool=\"write_stdin\" reason=\"dangerous_command\" policy=\"blacklist\" rule=\"rm_recursive_critical_target\" session_id=\"{id}\" command=\"rm -rf ~\">")),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn a_line_the_guard_asks_about_makes_stdin_critical() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, stdin) = tools();
    let c = ctx(dir.path());
    let out = exec
        .run(
            c.clone(),
            json!({"cmd": "cat", "yield_time_ms": 200, "login": false}),
        )
        .await
        .unwrap()
        .content;
    let id = session_id(&out);
    let plain = stdin
        .preview(&c, &json!({"session_id": id, "chars": "echo hi\n"}))
        .await
        .unwrap();
    assert_eq!(plain.risk, RiskLevel::Execute);
    // A REPL's own syntax is not shell syntax: no reason to ask.
    let python = stdin
        .preview(
            &c,
            &json!({"session_id": id, "chars": "for i in range(3): print(i)\n"}),
        )
        .await
        .unwrap();
    assert_eq!(python.risk, RiskLevel::Execute, "{}", python.reason());
    let push = stdin
        .preview(
            &c,
            &json!({"session_id": id, "chars": "git push --force origin main\n"}),
        )
        .await
        .unwrap();
    assert_eq!(push.risk, RiskLevel::Critical);
    assert!(
        push.reason().contains("git push --force origin main"),
        "{}",
        push.reason()
    );
    exec.shutdown();
}

#[tokio::test]
async fn output_is_capped_head_and_tail() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = tools();
    let out = exec
        .run(
            ctx(dir.path()),
            json!({"cmd": "seq 1 100000", "max_output_tokens": 100, "login": false}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.contains("Output:\n1\n2\n3\n"), "{out}");
    assert!(out.trim_end().ends_with("100000"), "{out}");
    assert!(out.contains("tokens truncated"), "{out}");
    assert!(out.len() < 1000, "{}", out.len());
    let original: usize = out
        .split("Original token count: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(original > 100_000, "{original}");
}

#[tokio::test]
async fn interrupt_kills_the_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, stdin) = tools();
    let c = ctx(dir.path());
    let out = exec
        .run(
            c.clone(),
            json!({"cmd": "sleep 300 & echo child=$!; echo leader=$$; sleep 300", "yield_time_ms": 500, "login": false}),
        )
        .await
        .unwrap()
        .content;
    let id = session_id(&out);
    let (child, leader) = (pid_after(&out, "child="), pid_after(&out, "leader="));
    assert!(!gone(child) && !gone(leader));
    // The user interrupts while write_stdin waits on the session.
    let mut interrupted = c.clone();
    interrupted.cancel = CancellationToken::new();
    let cancel = interrupted.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    let err = stdin
        .run(
            interrupted,
            json!({"session_id": id, "chars": "", "yield_time_ms": 20000}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::Interrupted, "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(wait_gone(leader).await, "leader {leader} survived");
    assert!(wait_gone(child).await, "background child {child} survived");

    // Interrupting exec_command itself.
    let mut interrupted = c.clone();
    interrupted.cancel = CancellationToken::new();
    let cancel = interrupted.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel();
    });
    let err = exec
        .run(
            interrupted,
            json!({"cmd": "echo leader=$$; sleep 300", "login": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::Interrupted);
    assert!(wait_gone(pid_after(&err.message, "leader=")).await);
}

#[tokio::test]
async fn timeout_and_session_end_kill_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let (exec, stdin) = tools();
    let started = Instant::now();
    let err = exec
        .run(
            c.clone(),
            json!({"cmd": "echo leader=$$; sleep 300", "timeout_ms": 400, "yield_time_ms": 20000, "login": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::Timeout, "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(wait_gone(pid_after(&err.message, "leader=")).await);

    let out = exec
        .run(
            c.clone(),
            json!({"cmd": "sleep 300 & echo child=$!; echo leader=$$; sleep 300", "yield_time_ms": 500, "login": false}),
        )
        .await
        .unwrap()
        .content;
    let (child, leader) = (pid_after(&out, "child="), pid_after(&out, "leader="));
    drop(exec);
    assert!(
        !gone(leader),
        "one tool of the pair still holds the sessions"
    );
    drop(stdin);
    assert!(
        wait_gone(leader).await,
        "leader {leader} survived the session end"
    );
    assert!(
        wait_gone(child).await,
        "child {child} survived the session end"
    );
}

#[tokio::test]
async fn output_is_streamed_while_the_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = tools();
    let seen: Arc<std::sync::Mutex<Vec<(Instant, String)>>> = Arc::default();
    let mut c = ctx(dir.path());
    c.live_output = Some(OutputSink::new({
        let seen = seen.clone();
        move |chunk| seen.lock().unwrap().push((Instant::now(), chunk))
    }));
    let out = exec
        .run(
            c,
            json!({"cmd": "for i in 1 2 3; do printf '\\033[1mline %s\\033[0m\\n' $i; sleep 0.4; done; printf 'no newline'", "login": false, "yield_time_ms": 10000}),
        )
        .await
        .unwrap()
        .content;
    let ended = Instant::now();
    assert!(out.contains("line 1\nline 2\nline 3\nno newline"), "{out}");
    let seen = seen.lock().unwrap();
    let text: String = seen.iter().map(|(_, c)| c.as_str()).collect();
    // The same cleaned text the result has, in order, the unfinished last line included.
    assert_eq!(text, "line 1\nline 2\nline 3\nno newline");
    // The first line was shown while the command still had most of its run ahead.
    let first = seen.first().unwrap().0;
    assert!(
        ended.duration_since(first) >= Duration::from_millis(600),
        "first chunk came {:?} before the end",
        ended.duration_since(first)
    );
    assert!(seen.len() >= 3, "{seen:?}");
}

#[tokio::test]
async fn a_session_continued_with_write_stdin_streams_too() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, stdin) = tools();
    let out = exec
        .run(
            ctx(dir.path()),
            json!({"cmd": "while read l; do echo \"got $l\"; done", "login": false, "yield_time_ms": 300}),
        )
        .await
        .unwrap()
        .content;
    let id = session_id(&out);
    let seen: Arc<std::sync::Mutex<String>> = Arc::default();
    let mut c = ctx(dir.path());
    c.live_output = Some(OutputSink::new({
        let seen = seen.clone();
        move |chunk| seen.lock().unwrap().push_str(&chunk)
    }));
    stdin
        .run(
            c,
            json!({"session_id": id, "chars": "abc\n", "yield_time_ms": 500}),
        )
        .await
        .unwrap();
    assert!(
        seen.lock().unwrap().contains("got abc\n"),
        "{:?}",
        seen.lock().unwrap()
    );
    exec.shutdown();
}
