//! Workspace trust through the service, on real files: a folder's `.mcp.json` starts
//! nothing until the folder is trusted, a changed file is asked about again, and a
//! decision can be forgotten.

mod support;

use std::time::Duration;

use memo_protocol::{ErrorCode, TrustState};
use memo_test_support::MockResponse;
use support::fixture;

/// Waits a little for a server that should not have started to leave its mark anyway.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(400)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projects_servers_start_only_once_the_folder_is_trusted() {
    let f = fixture(vec![MockResponse::text("a"), MockResponse::text("b")]).await;
    let marker = f.work.path().join("started");
    let mcp_json = |script: &str| {
        serde_json::json!({"mcpServers": {"proj": {
            "command": "/bin/sh", "args": ["-c", script], "startup_timeout_sec": 1
        }}})
        .to_string()
    };
    // Never answers the handshake; exits when Memo closes its stdin.
    let script = format!("touch '{}'; exec cat >/dev/null", marker.display());
    std::fs::write(f.work.path().join(".mcp.json"), mcp_json(&script)).unwrap();

    let report = f.service.workspace_trust(f.work.path()).unwrap();
    assert_eq!(report.state, TrustState::Unasked);
    assert!(report.needs_decision);
    assert_eq!(report.servers.len(), 1);
    assert_eq!(report.servers[0].file, ".mcp.json");
    assert!(
        report.servers[0].runs.starts_with("/bin/sh -c \"touch '"),
        "{:?}",
        report.servers
    );

    // Not decided: the session works, the server is not started.
    let session = f.start();
    f.turn(&session.id, "hi").await;
    settle().await;
    assert!(!marker.exists(), "an untrusted folder's server was started");

    let report = f.service.set_workspace_trust(f.work.path(), true).unwrap();
    assert_eq!(report.state, TrustState::Trusted);
    assert!(!report.needs_decision);
    let trusted = f.start();
    f.turn(&trusted.id, "hi").await;
    for _ in 0..50 {
        if marker.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(marker.exists(), "a trusted folder's server did not start");

    // The file now runs something else: asked again.
    std::fs::write(f.work.path().join(".mcp.json"), mcp_json("echo other")).unwrap();
    let report = f.service.workspace_trust(f.work.path()).unwrap();
    assert_eq!(report.state, TrustState::Changed);
    assert!(report.needs_decision);

    let decisions = f.service.trust_decisions().unwrap();
    assert_eq!(decisions.len(), 1);
    assert!(decisions[0].trusted);
    assert!(decisions[0].items[0].contains("touch"));
    f.service.forget_workspace_trust(f.work.path()).unwrap();
    assert!(f.service.trust_decisions().unwrap().is_empty());
    let again = f.service.forget_workspace_trust(f.work.path()).unwrap_err();
    assert_eq!(again.code(), ErrorCode::NotFound);
    assert_eq!(
        f.service.workspace_trust(f.work.path()).unwrap().state,
        TrustState::Unasked
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_trust_file_trusts_nothing_and_says_so() {
    let f = fixture(vec![]).await;
    std::fs::write(
        f.work.path().join(".mcp.json"),
        r#"{"mcpServers": {"p": {"command": "true"}}}"#,
    )
    .unwrap();
    let path = f.home.path().join("trusted_folders.json");
    std::fs::write(&path, "[oops").unwrap();
    let error = f.service.workspace_trust(f.work.path()).unwrap_err();
    assert!(
        error.to_string().contains("trusted_folders.json"),
        "{error}"
    );
    assert!(f.service.set_workspace_trust(f.work.path(), true).is_err());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "[oops",
        "never overwritten"
    );
    f.finish().await;
}
