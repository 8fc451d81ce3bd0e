//! `start_for_session`: what a session gets from config.toml and the project's files.

mod common;

use std::sync::Arc;

use common::*;
use memo_mcp::{start_for_session, McpToolSource};
use memo_tools::ToolSource;

fn env() -> memo_mcp::EnvLookup {
    let path = std::env::var("PATH").unwrap_or_default();
    Arc::new(move |name: &str| match name {
        "MEMO_MCP_LOGIN_SHELL" => Some("0".into()),
        "PATH" => Some(path.clone()),
        _ => None,
    })
}

#[tokio::test]
async fn project_files_start_only_when_trusted_unless_turned_off_and_the_defer_threshold_is_configurable(
) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".mcp.json"),
        serde_json::json!({"mcpServers": {"ev": {"command": "node", "args": [everything_js(), "stdio"]}}})
            .to_string(),
    )
    .unwrap();
    let config_path = dir.path().join("config.toml");
    let off = memo_config::Config::parse("mcp_project_configs = false\n", &config_path).unwrap();
    assert!(start_for_session(&off, dir.path(), env(), None, true, None).is_none());

    let on = memo_config::Config::parse("mcp_tool_defer_threshold = 2\n", &config_path).unwrap();
    // Not trusted: nothing starts, and /mcp says why.
    let untrusted = start_for_session(&on, dir.path(), env(), None, false, None).unwrap();
    assert!(untrusted.servers().is_empty());
    assert!(
        untrusted
            .describe()
            .contains("not started because this folder is not trusted: ev (.mcp.json)"),
        "{}",
        untrusted.describe()
    );
    untrusted.stop().await;
    let manager = start_for_session(&on, dir.path(), env(), None, true, None).unwrap();
    manager.wait_ready().await;
    let snap = manager.server("ev").unwrap();
    assert_eq!(snap.source.kind, memo_mcp::SourceKind::Claude);
    let names: Vec<String> = McpToolSource::new(manager.clone())
        .tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert!(names.contains(&"search_mcp_tools".to_owned()), "{names:?}");
    assert!(!names.contains(&"ev__echo".to_owned()), "{names:?}");
    assert!(
        manager.describe().contains("ev — ready (stdio"),
        "{}",
        manager.describe()
    );
    manager.stop().await;
}

#[tokio::test]
async fn config_problems_are_kept_as_notes() {
    let dir = tempfile::tempdir().unwrap();
    let config = memo_config::Config::parse(
        "[mcp_servers.ok]\ncommand = \"sleep\"\nargs = [\"30\"]\nstartup_timeout_ms = 200\n[mcp_servers.bad]\nargz = 1\n",
        &dir.path().join("config.toml"),
    )
    .unwrap();
    let manager = start_for_session(&config, dir.path(), env(), None, false, None).unwrap();
    assert_eq!(manager.servers().len(), 1);
    assert!(
        manager
            .notes()
            .iter()
            .any(|n| n.contains("mcp_servers.bad.command: missing")),
        "{:?}",
        manager.notes()
    );
    assert!(manager.describe().contains("! "), "{}", manager.describe());
    manager.stop().await;
}

#[tokio::test]
async fn a_restart_stops_the_server_and_starts_a_new_process() {
    let dir = tempfile::tempdir().unwrap();
    let server = stdio("ev", "node", &[&everything_js(), "stdio"]);
    let manager = memo_mcp::McpManager::start(vec![server], options(dir.path()));
    manager.wait_ready().await;
    let before = manager.server("ev").unwrap();
    assert_eq!(before.status, memo_mcp::ServerStatus::Ready);
    let pid = before.pid.unwrap();
    assert!(!manager.restart("nope"), "an unknown server");
    assert!(manager.restart("ev"));
    let mut after = None;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let now = manager.server("ev").unwrap();
        if now.status == memo_mcp::ServerStatus::Ready && now.pid.is_some_and(|p| p != pid) {
            after = Some(now);
            break;
        }
    }
    let after = after.expect("the server came back with a new process");
    assert!(after.tools.iter().any(|t| t == "echo"));
    assert!(
        after.message.is_none(),
        "a requested restart is not a failure"
    );
    manager.stop().await;
}
