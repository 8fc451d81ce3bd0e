//! The Landlock sandbox of exec_command: a write outside the workspace is refused, inside
//! and in temp it works, read-only refuses both, and an escalated (approved) call runs
//! unsandboxed. The folders live under Cargo's target tmp dir, not /tmp, because temp
//! directories are writable in the sandbox by design. On a kernel without Landlock the
//! blocking checks are skipped (and reported), and the one-time note is checked instead.

use std::path::{Path, PathBuf};

use memo_protocol::ToolErrorKind;
use memo_tools::exec::sandbox::landlock_available;
use memo_tools::{exec_tools, SandboxPolicy, Tool, ToolContext};
use serde_json::json;

/// A base folder outside every temp directory the sandbox allows (`/tmp`, `/var/tmp`,
/// `$TMPDIR`): Cargo's target tmp dir when the checkout is not itself under one (a CI clone
/// often is), else a folder under `$HOME`.
fn base_outside_temp() -> PathBuf {
    let temps = [
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
        std::env::temp_dir(),
    ];
    let outside_temp = |p: &Path| {
        let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        !temps
            .iter()
            .any(|t| real.starts_with(std::fs::canonicalize(t).unwrap_or_else(|_| t.clone())))
    };
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&target).unwrap();
    if outside_temp(&target) {
        return target;
    }
    let home =
        PathBuf::from(std::env::var("HOME").expect("HOME")).join(".cache/memo-sandbox-tests");
    std::fs::create_dir_all(&home).unwrap();
    assert!(
        outside_temp(&home),
        "no folder outside the temp dirs to test the sandbox with"
    );
    home
}

fn dirs() -> (tempfile::TempDir, tempfile::TempDir) {
    let base = base_outside_temp();
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

    // A login shell (reading the user's profile) works in the sandbox too.
    let out = exec
        .run(
            ctx.clone(),
            json!({"cmd": "echo ok-$((6 * 7))", "login": true}),
        )
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
