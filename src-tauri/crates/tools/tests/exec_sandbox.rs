//! The Landlock sandbox of exec_command: a write outside the workspace is refused, inside
//! and in temp it works, read-only refuses both, and an escalated (approved) call runs
//! unsandboxed. The folders live under Cargo's target tmp dir, not /tmp, because temp
//! directories are writable in the sandbox by design. On a kernel without Landlock the
//! blocking checks are skipped (and reported), and the one-time note is checked instead.

use std::path::{Path, PathBuf};

use memo_protocol::ToolErrorKind;
use memo_tools::sandbox::landlock_available;
use memo_tools::{exec_tools, SandboxPolicy, Tool, ToolContext};
use serde_json::json;

fn dirs() -> (tempfile::TempDir, tempfile::TempDir) {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&base).unwrap();
    (
        tempfile::tempdir_in(&base).unwrap(),
        tempfile::tempdir_in(&base).unwrap(),
    )
}

fn cmd_writing(inside: &Path, outside: &Path) -> String {
    format!(
        "echo in > '{}'; echo out > '{}'",
        inside.join("inside.txt").display(),
        outside.join("outside.txt").display()
    )
}

#[tokio::test]
async fn workspace_write_blocks_writes_outside_the_workspace() {
    let (ws, outside) = dirs();
    let ctx = ToolContext::for_workspace(ws.path());
    let (exec, _stdin) = exec_tools(SandboxPolicy::WorkspaceWrite);
    if !landlock_available() {
        eprintln!("SKIP: this kernel has no Landlock; checking the one-time note instead");
        let first = exec
            .run(ctx.clone(), json!({"cmd": "true", "login": false}))
            .await
            .unwrap()
            .content;
        assert!(first.contains("sandbox_unavailable"), "{first}");
        let second = exec
            .run(ctx, json!({"cmd": "true", "login": false}))
            .await
            .unwrap()
            .content;
        assert!(!second.contains("sandbox_unavailable"), "{second}");
        return;
    }
    let err = exec
        .run(
            ctx.clone(),
            json!({"cmd": cmd_writing(ws.path(), outside.path()), "login": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::SandboxDenied, "{}", err.message);
    assert!(err.message.contains("Permission denied"), "{}", err.message);
    assert!(err.message.contains("require_escalated"), "{}", err.message);
    assert!(ws.path().join("inside.txt").exists());
    assert!(
        !outside.path().join("outside.txt").exists(),
        "the write escaped the sandbox"
    );

    // Temp stays writable; so does a child process of the command (the sandbox is
    // inherited), and it cannot write outside either.
    let tmp = tempfile::tempdir().unwrap();
    let out = exec
        .run(
            ctx.clone(),
            json!({"cmd": format!("sh -c \"echo t > '{}'\"; python3 -c \"open('{}', 'w')\" 2>&1 | tail -1", tmp.path().join("t").display(), outside.path().join("py.txt").display()), "login": false}),
        )
        .await
        .unwrap()
        .content;
    assert!(tmp.path().join("t").exists(), "{out}");
    assert!(out.contains("PermissionError"), "{out}");
    assert!(!outside.path().join("py.txt").exists());

    // The default call (a login shell reading the user's profile) works in the sandbox.
    let out = exec
        .run(ctx.clone(), json!({"cmd": "echo ok-$((6 * 7))"}))
        .await
        .unwrap()
        .content;
    assert!(out.contains("Process exited with code 0"), "{out}");
    assert!(out.contains("ok-42"), "{out}");
    eprintln!("login shell under the sandbox:\n{out}");

    // An approved escalation runs outside the sandbox.
    exec.run(
        ctx,
        json!({"cmd": cmd_writing(ws.path(), outside.path()), "login": false, "sandbox_permissions": "require_escalated", "justification": "test"}),
    )
    .await
    .unwrap();
    assert!(outside.path().join("outside.txt").exists());
}

#[tokio::test]
async fn read_only_and_off_policies() {
    let (ws, outside) = dirs();
    let ctx = ToolContext::for_workspace(ws.path());
    if landlock_available() {
        let (exec, _stdin) = exec_tools(SandboxPolicy::ReadOnly);
        let err = exec
            .run(
                ctx.clone(),
                json!({"cmd": format!("echo x > '{}'", ws.path().join("a.txt").display()), "login": false}),
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::SandboxDenied, "{}", err.message);
        assert!(err.message.contains("read-only"), "{}", err.message);
        assert!(!ws.path().join("a.txt").exists());
        // Reading and the null device still work.
        let out = exec
            .run(
                ctx.clone(),
                json!({"cmd": "ls / > /dev/null && echo ok", "login": false}),
            )
            .await
            .unwrap()
            .content;
        assert!(out.contains("ok"), "{out}");
    } else {
        eprintln!("SKIP: this kernel has no Landlock");
    }
    let (exec, _stdin) = exec_tools(SandboxPolicy::Off);
    exec.run(
        ctx,
        json!({"cmd": cmd_writing(ws.path(), outside.path()), "login": false}),
    )
    .await
    .unwrap();
    assert!(outside.path().join("outside.txt").exists());
}
