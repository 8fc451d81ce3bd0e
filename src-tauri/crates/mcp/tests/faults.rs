//! Servers that fail: exit at startup, crash mid-call, hang, never finish the handshake.
//! Calls end with errors that say what happened (the stderr tail included), hung calls
//! are cancelled on the server, crashed servers come back, and nothing outlives stop().

mod common;

use std::time::{Duration, Instant};

use common::*;
use memo_mcp::{McpManager, McpToolSource, ServerStatus};
use memo_protocol::ToolErrorKind;
use memo_tools::{ToolContext, ToolSource};
use serde_json::json;

fn fixture(name: &str, args: &[&str], log: &std::path::Path) -> memo_mcp::ServerConfig {
    let mut cfg = stdio(name, "node", &[&[fixture_js().as_str()], args].concat());
    if let memo_mcp::TransportConfig::Stdio(s) = &mut cfg.transport {
        s.env
            .insert("FIXTURE_LOG".into(), log.display().to_string());
    }
    cfg
}

fn log_lines(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

async fn wait_log(log: &std::path::Path, needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !log_lines(log).iter().any(|l| l.contains(needle)) {
        assert!(
            Instant::now() < deadline,
            "{needle} never logged: {:?}",
            log_lines(log)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_server_that_exits_at_startup_is_reported_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let manager = McpManager::start(
        vec![
            fixture("broken", &["exit-at-start"], &log),
            stdio("everything", "node", &[&everything_js(), "stdio"]),
        ],
        options(dir.path()),
    );
    let started = Instant::now();
    manager.wait_ready().await;
    assert!(started.elapsed() < Duration::from_secs(15));
    // Failed, or already restarting: either way the reason and stderr are shown.
    let snap = manager.server("broken").unwrap();
    assert!(
        matches!(snap.status, ServerStatus::Failed | ServerStatus::Starting),
        "{snap:#?}"
    );
    assert!(
        snap.stderr_tail
            .as_deref()
            .unwrap_or("")
            .contains("missing FIXTURE_API_KEY"),
        "{snap:#?}"
    );
    assert!(
        snap.message
            .as_deref()
            .unwrap()
            .contains("the server exited with code 3 during the handshake"),
        "{snap:#?}"
    );
    // The other server is unaffected.
    assert_eq!(
        manager.server("everything").unwrap().status,
        ServerStatus::Ready
    );
    let source = McpToolSource::new(manager.clone());
    assert!(source.get("everything__echo").is_some());
    // It keeps failing, so the supervisor gives up after its attempts.
    let last = wait_status(&manager, "broken", |s| {
        s.status == ServerStatus::Failed && s.message.as_deref().unwrap_or("").contains("gave up")
    })
    .await;
    assert_eq!(last.restarts, 3, "{last:#?}");
    manager.stop().await;
}

#[tokio::test]
async fn a_missing_command_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let manager = McpManager::start(
        vec![stdio("ghost", "no-such-mcp-server-binary", &[])],
        options(dir.path()),
    );
    manager.wait_ready().await;
    let snap = manager.server("ghost").unwrap();
    assert_eq!(snap.status, ServerStatus::Failed);
    assert!(snap
        .message
        .unwrap()
        .contains("command \"no-such-mcp-server-binary\" not found in PATH"),);
    manager.stop().await;
}

#[tokio::test]
async fn a_crash_mid_call_is_an_error_with_the_stderr_tail_and_the_server_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let manager = McpManager::start(vec![fixture("fx", &[], &log)], options(dir.path()));
    manager.wait_ready().await;
    let first_pid = manager.server("fx").unwrap().pid.unwrap();
    let source = McpToolSource::new(manager.clone());
    let err = source
        .get("fx__crash")
        .unwrap()
        .run(ToolContext::for_workspace(dir.path()), json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::ExecutionFailed);
    assert!(
        err.message.contains("MCP server \"fx\" is not available"),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("stopped during the call"),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("about to crash on purpose"),
        "{}",
        err.message
    );
    let crashed = wait_status(&manager, "fx", |s| s.restarts >= 1).await;
    assert!(
        matches!(
            crashed.status,
            ServerStatus::Crashed | ServerStatus::Starting | ServerStatus::Ready
        ),
        "{crashed:#?}"
    );
    let back = wait_status(&manager, "fx", ready).await;
    assert_ne!(back.pid, Some(first_pid));
    let out = source
        .get("fx__write_note")
        .unwrap()
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"text": "again"}),
        )
        .await
        .unwrap();
    assert_eq!(out.content, "stored: again");
    let pid = back.pid.unwrap();
    manager.stop().await;
    assert!(!process_alive(pid));
    assert!(!process_alive(first_pid));
}

#[tokio::test]
async fn a_hung_call_times_out_and_is_cancelled_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let mut cfg = fixture("fx", &[], &log);
    cfg.tool_timeout = Duration::from_millis(800);
    let manager = McpManager::start(vec![cfg], options(dir.path()));
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    let started = Instant::now();
    let err = source
        .get("fx__hang")
        .unwrap()
        .run(ToolContext::for_workspace(dir.path()), json!({}))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(err.kind, ToolErrorKind::Timeout, "{err:?}");
    assert!(
        err.message
            .contains("timed out after 0.8s and was cancelled"),
        "{}",
        err.message
    );
    wait_log(&log, "cancelled").await;
    // The server is still usable.
    assert_eq!(manager.server("fx").unwrap().status, ServerStatus::Ready);
    manager.stop().await;
}

#[tokio::test]
async fn progress_keeps_a_long_call_alive_past_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = stdio("ev", "node", &[&everything_js(), "stdio"]);
    cfg.tool_timeout = Duration::from_millis(1200);
    let manager = McpManager::start(vec![cfg], options(dir.path()));
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    let (ctx, progress) = ctx_with_progress(dir.path());
    // 2.5 s in all, a progress report every 0.5 s.
    let out = source
        .get("ev__trigger-long-running-operation")
        .unwrap()
        .run(ctx, json!({"duration": 2.5, "steps": 5}))
        .await
        .unwrap();
    assert!(out.content.contains("completed"), "{}", out.content);
    assert_eq!(progress.lock().unwrap().len(), 5);
    manager.stop().await;
}

#[tokio::test]
async fn an_interrupted_call_is_cancelled_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let manager = McpManager::start(vec![fixture("fx", &[], &log)], options(dir.path()));
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    let ctx = ToolContext::for_workspace(dir.path());
    let cancel = ctx.cancel.clone();
    let call = tokio::spawn(source.get("fx__hang").unwrap().run(ctx, json!({})));
    wait_log(&log, "hang started").await;
    cancel.cancel();
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::Interrupted);
    wait_log(&log, "cancelled").await;

    // An aborted task (how the engine stops a turn's tools) cancels too.
    let task = tokio::spawn(
        source
            .get("fx__hang")
            .unwrap()
            .run(ToolContext::for_workspace(dir.path()), json!({})),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while log_lines(&log)
        .iter()
        .filter(|l| l.starts_with("hang started"))
        .count()
        < 2
    {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    task.abort();
    let deadline = Instant::now() + Duration::from_secs(10);
    while log_lines(&log)
        .iter()
        .filter(|l| l.starts_with("cancelled"))
        .count()
        < 2
    {
        assert!(Instant::now() < deadline, "{:?}", log_lines(&log));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    manager.stop().await;
}

#[tokio::test]
async fn a_server_that_never_answers_does_not_hold_up_the_session_past_its_startup_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mut silent = stdio("silent", "sleep", &["60"]);
    silent.startup_timeout = Duration::from_millis(700);
    let manager = McpManager::start(vec![silent], options(dir.path()));
    let started = Instant::now();
    manager.wait_ready().await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let snap = manager.server("silent").unwrap();
    assert_eq!(snap.status, ServerStatus::Failed);
    assert!(snap.message.unwrap().contains("did not start within 0.7s"));
    manager.stop().await;
}

#[tokio::test]
async fn list_changed_refreshes_the_tools() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let manager = McpManager::start(vec![fixture("fx", &[], &log)], options(dir.path()));
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    assert!(source.get("fx__added_tool").is_none());
    // The fixture offers no resources, so the resource tools stay out of the list.
    assert!(!source
        .tools()
        .iter()
        .any(|t| t.name() == "list_mcp_resources"));
    let generation = source.generation();
    let mut events = manager.subscribe();
    source
        .get("fx__add_tool")
        .unwrap()
        .run(ToolContext::for_workspace(dir.path()), json!({}))
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while source.get("fx__added_tool").is_none() {
        assert!(
            Instant::now() < deadline,
            "tools/list_changed did not refresh"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_ne!(source.generation(), generation);
    let out = source
        .get("fx__added_tool")
        .unwrap()
        .run(ToolContext::for_workspace(dir.path()), json!({}))
        .await
        .unwrap();
    assert_eq!(out.content, "added tool ran");
    let memo_mcp::McpEvent::Status(snap) = events.recv().await.unwrap();
    assert!(snap.tools.contains(&"added_tool".to_owned()), "{snap:#?}");
    manager.stop().await;
}

#[tokio::test]
async fn calls_to_a_stopped_or_unknown_server_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let mut off = fixture("off", &[], &log);
    off.enabled = false;
    let manager = McpManager::start(vec![off], options(dir.path()));
    manager.wait_ready().await;
    assert_eq!(
        manager.server("off").unwrap().status,
        ServerStatus::Disabled
    );
    let err = manager
        .call_tool("off", "x", json!({}), Default::default(), None)
        .await
        .unwrap_err();
    assert!(format!("{err:?}").contains("disabled"), "{err:?}");
    let err = manager
        .call_tool("nope", "x", json!({}), Default::default(), None)
        .await
        .unwrap_err();
    assert!(format!("{err:?}").contains("UnknownServer"), "{err:?}");
    manager.stop().await;
}
