//! Settings → MCP through the service, on real files with a real MCP server
//! (server-everything from npm, run with node): a server added in the form lands in
//! config.toml with its env value in the keychain, a check starts it and lists its tools,
//! prompts and resources, a tool and the server are turned off and on again, and an
//! untrusted folder's own server is listed but never started.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memo_config::{CredentialStore, MemoHome, MemoryCredentialStore};
use memo_protocol::{
    ErrorCode, McpCheckState, McpSecretInput, McpServerInput, McpSourceKind, McpTransportKind,
};
use memo_service::Service;

fn everything_js() -> String {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        js.exists(),
        "the MCP test servers are not installed: run `npm install` in tests/mcp (scripts/test-all.sh does)"
    );
    js.display().to_string()
}

fn service(home: &Path, keys: Arc<MemoryCredentialStore>) -> Service {
    // This process's PATH (for node), without asking the login shell.
    Service::new(
        Ok(MemoHome::at(home)),
        keys,
        Arc::new(|name: &str| match name {
            "MEMO_MCP_LOGIN_SHELL" => Some("0".into()),
            "PATH" => std::env::var("PATH").ok(),
            _ => None,
        }),
    )
}

fn everything(env: Vec<McpSecretInput>) -> McpServerInput {
    McpServerInput {
        name: "everything".into(),
        transport: McpTransportKind::Stdio,
        command: "node".into(),
        args: vec![everything_js()],
        env,
        url: String::new(),
        headers: Vec::new(),
        bearer_token_env_var: None,
    }
}

fn config_text(home: &Path) -> String {
    std::fs::read_to_string(home.join("config.toml")).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_added_in_settings_is_checked_and_its_tools_and_state_are_switched() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        "# my settings\nmcp_tool_defer_threshold = 64\n",
    )
    .unwrap();
    // The folder's own server would leave a mark if it ever started.
    let marker: PathBuf = work.path().join("started");
    let script = format!("touch '{}'; exec cat >/dev/null", marker.display());
    std::fs::write(
        work.path().join(".mcp.json"),
        serde_json::json!({"mcpServers": {"proj": {"command": "/bin/sh", "args": ["-c", script]}}})
            .to_string(),
    )
    .unwrap();
    let keys = Arc::new(MemoryCredentialStore::new());
    let service = service(home.path(), keys.clone());
    let cwd = Some(work.path());

    let page = service
        .save_mcp_server(
            &everything(vec![McpSecretInput {
                name: "SECRET_TOKEN".into(),
                value: Some("s3cret-value".into()),
            }]),
            false,
            cwd,
        )
        .unwrap();
    let text = config_text(home.path());
    assert!(
        text.starts_with("# my settings\nmcp_tool_defer_threshold = 64\n"),
        "{text}"
    );
    assert!(text.contains("keychain_env = [\"SECRET_TOKEN\"]"), "{text}");
    assert!(
        !text.contains("s3cret"),
        "the value stays out of config.toml: {text}"
    );
    let stored = keys
        .get("mcp-secret:everything:env:SECRET_TOKEN")
        .unwrap()
        .unwrap();
    assert_eq!(stored.expose(), "s3cret-value");

    assert_eq!(page.servers.len(), 2, "{:?}", page.servers);
    let ours = &page.servers[0];
    assert_eq!(ours.source, McpSourceKind::Memo);
    assert!(ours.enabled && !ours.blocked);
    assert_eq!(ours.env.len(), 1);
    assert!(ours.env[0].in_keychain && !ours.env[0].missing);
    let proj = &page.servers[1];
    assert_eq!(proj.source, McpSourceKind::Claude);
    assert!(proj.blocked, "the folder is not trusted");

    // A second add of the same name is refused.
    let again = service
        .save_mcp_server(&everything(Vec::new()), false, cwd)
        .unwrap_err();
    assert_eq!(again.code(), ErrorCode::InvalidInput);

    let checks = service.check_mcp_servers(cwd, None).await.unwrap();
    let check = checks.iter().find(|c| c.name == "everything").unwrap();
    assert_eq!(check.state, McpCheckState::Ready, "{check:?}");
    let names: Vec<&str> = check.tools.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"echo") && names.contains(&"get-sum"),
        "{names:?}"
    );
    assert!(check.tools.iter().all(|t| t.enabled));
    assert!(!check.prompts.is_empty(), "{check:?}");
    assert!(!check.resources.is_empty(), "{check:?}");
    let proj = checks.iter().find(|c| c.name == "proj").unwrap();
    assert_eq!(proj.state, McpCheckState::Blocked);
    assert!(!marker.exists(), "an untrusted folder's server was started");

    // A tool turned off is still listed by a check, as off, and can come back.
    let page = service
        .set_mcp_tool_enabled("everything", "echo", false, cwd)
        .unwrap();
    assert_eq!(page.servers[0].excluded_tools, ["echo"]);
    assert!(config_text(home.path()).contains("exclude_tools = [\"echo\"]"));
    let checks = service
        .check_mcp_servers(cwd, Some(vec!["everything".into()]))
        .await
        .unwrap();
    assert_eq!(checks.len(), 1);
    let echo = checks[0].tools.iter().find(|t| t.name == "echo").unwrap();
    assert!(!echo.enabled);
    service
        .set_mcp_tool_enabled("everything", "echo", true, cwd)
        .unwrap();
    assert!(!config_text(home.path()).contains("exclude_tools"));
    let not_ours = service
        .set_mcp_tool_enabled("proj", "x", false, cwd)
        .unwrap_err();
    assert!(not_ours.to_string().contains(".mcp.json"), "{not_ours}");

    // Off through active_mcp_servers: listed, not started.
    let page = service
        .set_mcp_server_enabled("everything", false, cwd)
        .unwrap();
    assert!(page.active_list && !page.servers[0].enabled);
    assert!(config_text(home.path()).contains("active_mcp_servers = [\"proj\"]"));
    let checks = service
        .check_mcp_servers(cwd, Some(vec!["everything".into()]))
        .await
        .unwrap();
    assert_eq!(checks[0].state, McpCheckState::Disabled);
    let page = service
        .set_mcp_server_enabled("everything", true, cwd)
        .unwrap();
    assert!(page.servers[0].enabled);

    // Edited without retyping the value: it stays in the keychain.
    let mut edited = everything(vec![McpSecretInput {
        name: "SECRET_TOKEN".into(),
        value: None,
    }]);
    edited.args.push("stdio".into());
    service.save_mcp_server(&edited, true, cwd).unwrap();
    assert!(config_text(home.path()).contains("keychain_env = [\"SECRET_TOKEN\"]"));
    assert!(keys
        .get("mcp-secret:everything:env:SECRET_TOKEN")
        .unwrap()
        .is_some());

    // A value missing from the keychain fails the start and says where to enter it.
    keys.delete("mcp-secret:everything:env:SECRET_TOKEN")
        .unwrap();
    let page = service.mcp_settings(cwd).unwrap();
    assert!(page.servers[0].env[0].missing);
    let checks = service
        .check_mcp_servers(cwd, Some(vec!["everything".into()]))
        .await
        .unwrap();
    assert_eq!(checks[0].state, McpCheckState::Failed);
    let message = checks[0].message.clone().unwrap_or_default();
    assert!(message.contains("Settings → MCP"), "{message}");

    // Removing takes the server out of config.toml (and the active list).
    service
        .save_mcp_server(
            &everything(vec![McpSecretInput {
                name: "SECRET_TOKEN".into(),
                value: Some("again".into()),
            }]),
            true,
            cwd,
        )
        .unwrap();
    service
        .set_mcp_server_enabled("everything", false, cwd)
        .unwrap();
    let page = service.remove_mcp_server("everything", cwd).unwrap();
    assert_eq!(page.servers.len(), 1);
    let text = config_text(home.path());
    assert!(!text.contains("everything"), "{text}");
    assert!(keys
        .get("mcp-secret:everything:env:SECRET_TOKEN")
        .unwrap()
        .is_none());
    let project = service.remove_mcp_server("proj", cwd).unwrap_err();
    assert_eq!(project.code(), ErrorCode::InvalidInput);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_folders_server_is_checked_and_active_mcp_servers_is_honoured() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join(".mcp.json"),
        serde_json::json!({"mcpServers": {"proj": {"command": "node", "args": [everything_js()]}}})
            .to_string(),
    )
    .unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        "active_mcp_servers = [\"proj\"]\n[mcp_servers.off]\ncommand = \"/nonexistent\"\n",
    )
    .unwrap();
    let service = service(home.path(), Arc::new(MemoryCredentialStore::new()));
    service.set_workspace_trust(work.path(), true).unwrap();
    let page = service.mcp_settings(Some(work.path())).unwrap();
    let off = page.servers.iter().find(|s| s.name == "off").unwrap();
    assert!(!off.enabled, "not in active_mcp_servers");
    let proj = page.servers.iter().find(|s| s.name == "proj").unwrap();
    assert!(proj.enabled && !proj.blocked);
    let checks = service
        .check_mcp_servers(Some(work.path()), None)
        .await
        .unwrap();
    let proj = checks.iter().find(|c| c.name == "proj").unwrap();
    assert_eq!(proj.state, McpCheckState::Ready, "{proj:?}");
    assert!(!proj.tools.is_empty());
    let off = checks.iter().find(|c| c.name == "off").unwrap();
    assert_eq!(off.state, McpCheckState::Disabled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_in_is_for_http_servers_and_a_failure_says_why() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "[mcp_servers.local]\ncommand = \"node\"\nargs = [{:?}]\n[mcp_servers.remote]\nurl = \"http://127.0.0.1:9/mcp\"\n",
            everything_js()
        ),
    )
    .unwrap();
    let svc = service(home.path(), Arc::new(MemoryCredentialStore::new()));
    let unknown = svc.mcp_login(None, "nope", None).await.unwrap_err();
    assert_eq!(unknown.code(), memo_protocol::ErrorCode::NotFound);
    let stdio = svc.mcp_login(None, "local", None).await.unwrap_err();
    assert_eq!(stdio.code(), memo_protocol::ErrorCode::InvalidInput);
    assert!(
        stdio.to_string().contains("only HTTP servers sign in"),
        "{stdio}"
    );
    // Nothing listens on port 9: the discovery fails before any browser is opened.
    let unreachable = svc.mcp_login(None, "remote", None).await.unwrap_err();
    assert_eq!(unreachable.code(), memo_protocol::ErrorCode::Unavailable);
    assert!(
        unreachable
            .to_string()
            .contains("signing in to \"remote\" failed"),
        "{unreachable}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_reaches_the_open_sessions_that_have_the_server() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    // The provider is never called: the sessions only start their servers.
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "current_provider = \"local\"\n[[providers.local]]\nname = \"local\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n\
             [mcp_servers.everything]\ncommand = \"node\"\nargs = [{:?}, \"stdio\"]\n",
            everything_js()
        ),
    )
    .unwrap();
    let svc = service(home.path(), Arc::new(MemoryCredentialStore::new()));
    assert_eq!(
        svc.restart_mcp_server("everything"),
        0,
        "no open session yet"
    );
    let request = memo_service::StartRequest {
        cwd: work.path().to_path_buf(),
        ..Default::default()
    };
    svc.start_session(request.clone()).unwrap();
    svc.start_session(request).unwrap();
    assert_eq!(svc.restart_mcp_server("everything"), 2);
    assert_eq!(svc.restart_mcp_server("nope"), 0);
    svc.shutdown().await;
}
