//! `memo-cli mcp ...` and an `exec` turn that calls an MCP tool, with the real binary, a
//! temporary MEMO_HOME, the mock LLM and server-everything from tests/mcp.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::{json_lines, Home, Mock};

fn everything_js() -> String {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        js.exists(),
        "MCP test servers missing: run `npm install` in tests/mcp (scripts/test-all.sh does)"
    );
    js.canonicalize().unwrap().display().to_string()
}

fn names(list: &Value) -> Vec<String> {
    list["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn add_list_get_status_and_remove() {
    let mock = Mock::start(tempfile::tempdir().unwrap().path());
    let home = Home::new(&mock, "");
    let js = everything_js();
    let cwd = home.work.path().to_str().unwrap().to_owned();
    home.json(&[
        "mcp",
        "add",
        "everything",
        "--json",
        "--",
        "node",
        &js,
        "stdio",
    ]);
    home.json(&[
        "mcp",
        "add",
        "remote",
        "--url",
        "http://127.0.0.1:9/sse",
        "--transport",
        "sse",
        "--bearer-token-env-var",
        "REMOTE_TOKEN",
        "--json",
    ]);
    std::fs::write(
        home.work.path().join(".mcp.json"),
        r#"{"mcpServers": {"remote": {"type": "http", "url": "http://127.0.0.1:8/mcp"}, "proj": {"command": "node", "args": ["-e", "process.exit(1)"]}}}"#,
    )
    .unwrap();

    let list = home.json(&["mcp", "list", "--json", "--cwd", &cwd]);
    assert_eq!(names(&list), ["everything", "remote", "proj"]);
    assert_eq!(list["servers"][1]["transport"], "sse");
    assert_eq!(list["servers"][2]["source"]["kind"], "claude");
    assert_eq!(list["clashes"][0]["name"], "remote");

    let get = home.json(&[
        "mcp",
        "get",
        "everything",
        "--status",
        "--json",
        "--cwd",
        &cwd,
    ]);
    assert_eq!(get["status"]["status"], "ready");
    let tools: Vec<&str> = get["status"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"echo") && tools.contains(&"get-sum"),
        "{tools:?}"
    );

    // The project's own server is not started in a folder nobody trusted...
    let status = home.json(&["mcp", "list", "--status", "--json", "--cwd", &cwd]);
    assert_eq!(status["servers"][0]["status"]["status"], "ready");
    assert!(status["servers"][2]["status"].is_null(), "{status}");
    assert_eq!(status["untrusted"], json!(["proj"]));
    let out = home.run(&["mcp", "get", "proj", "--status", "--cwd", &cwd]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not trusted"));
    // ...unless asked to.
    let status = home.json(&[
        "mcp", "list", "--status", "--trust", "--json", "--cwd", &cwd,
    ]);
    assert_eq!(status["servers"][2]["status"]["status"], "failed");
    let text = home.run(&["mcp", "list", "--status", "--cwd", &cwd]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        // The tool count depends on what the client declares (elicitation adds one).
        text.contains("everything") && text.contains("ready (1") && text.contains(" tools)"),
        "{text}"
    );

    // A server only the project file defines cannot be removed from config.toml.
    let out = home.run(&["mcp", "remove", "proj"]);
    assert_eq!(out.status.code(), Some(1));
    home.json(&["mcp", "remove", "remote", "--json"]);
    let out = home.run(&["mcp", "add", "everything", "--", "node"]);
    assert_eq!(out.status.code(), Some(1), "a duplicate name is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    let out = home.run(&["mcp", "login", "everything"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stdio server"));
    let list = home.json(&["mcp", "list", "--json"]);
    assert_eq!(names(&list), ["everything"]);
}

/// The CLI edits MCP servers through the service, as the app does: with a list of active
/// servers, an added one joins it and a removed one leaves it.
#[test]
fn add_and_remove_keep_the_active_list_in_step() {
    let mock = Mock::start(tempfile::tempdir().unwrap().path());
    let home = Home::new(&mock, "active_mcp_servers = [\"kept\"]");
    let config = || std::fs::read_to_string(home.home.path().join("config.toml")).unwrap();
    home.json(&["mcp", "add", "kept", "--json", "--", "true"]);
    home.json(&["mcp", "add", "gone", "--json", "--", "true"]);
    assert!(
        config().contains("active_mcp_servers = [\"kept\", \"gone\"]"),
        "{}",
        config()
    );
    home.json(&["mcp", "remove", "gone", "--json"]);
    let after = config();
    assert!(!after.contains("gone"), "nothing of it is left: {after}");
    assert!(after.contains("active_mcp_servers = [\"kept\"]"), "{after}");
}

/// Needs a Secret Service (scripts/lib/desktop-session.sh with MEMO_TEST_KEYRING=1): a
/// value given with `--env` lives in the keychain, never in config.toml, reaches the
/// server, and leaves the keychain with the server.
#[test]
fn keyring_holds_an_added_servers_env_value_until_it_is_removed() {
    if std::env::var("MEMO_TEST_KEYRING").as_deref() != Ok("1") {
        eprintln!("skipped: needs MEMO_TEST_KEYRING=1 and an unlocked Secret Service");
        return;
    }
    let mock = Mock::start(tempfile::tempdir().unwrap().path());
    let home = Home::new(&mock, "");
    // A name no real user has, so the test never touches a real server's values.
    let name = format!("memo-test-{}", std::process::id());
    let secret = "s3cret-value-0123456789";
    let seen = home.work.path().join("seen.txt");
    let script = format!("printf %s \"$TOKEN\" > {}", seen.display());
    let env = format!("TOKEN={secret}");
    home.json(&[
        "mcp", "add", &name, "--env", &env, "--json", "--", "sh", "-c", &script,
    ]);
    let config = std::fs::read_to_string(home.home.path().join("config.toml")).unwrap();
    assert!(
        config.contains(&name) && !config.contains(secret),
        "{config}"
    );

    // Started once (it is no MCP server, so it fails): it was given the value.
    let cwd = home.work.path().to_str().unwrap().to_owned();
    home.run(&["mcp", "get", &name, "--status", "--cwd", &cwd]);
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), secret);

    let store = memo_config::KeyringStore::new().unwrap();
    let account = memo_mcp::secrets::account(&name, memo_mcp::secrets::SecretKind::Env, "TOKEN");
    use memo_config::CredentialStore;
    assert!(store.get(&account).unwrap().is_some());
    home.json(&["mcp", "remove", &name, "--json"]);
    assert!(
        store.get(&account).unwrap().is_none(),
        "the value left with the server"
    );
}

#[test]
fn exec_starts_a_projects_own_servers_only_with_trust() {
    let mock = Mock::start(tempfile::tempdir().unwrap().path());
    let home = Home::new(&mock, "");
    let marker = home.work.path().join("started");
    // The server leaves a mark when it starts: proof that nothing ran, not just that no
    // tool was offered.
    std::fs::write(
        home.work.path().join(".mcp.json"),
        json!({"mcpServers": {"proj": {"command": "sh", "args": [
            "-c", format!("touch {:?} && exec node {:?} stdio", marker, everything_js())
        ]}}})
        .to_string(),
    )
    .unwrap();
    let call = json!([
        {"tool_calls": [{"name": "proj__echo", "arguments": "{\"message\":\"hi\"}"}]},
        {"text": "Done."}
    ]);
    mock.push(call.clone());
    let out = home
        .exec_command("echo", &["--yes"])
        .env("MEMO_MCP_LOGIN_SHELL", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("not using 1 MCP server(s)") && stderr.contains("proj (.mcp.json): sh -c"),
        "{stderr}"
    );
    assert!(stderr.contains("--trust"), "{stderr}");
    let events = json_lines(&out.stdout);
    let end = events
        .iter()
        .find(|e| e["event"]["type"] == "tool_call_end")
        .unwrap();
    assert_ne!(end["event"]["output"], "Echo: hi");
    // Give a server that was wrongly started time to leave its mark.
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        !marker.exists(),
        "an untrusted project's server was started"
    );

    mock.push(call);
    let out = home
        .exec_command("echo", &["--yes", "--trust"])
        .env("MEMO_MCP_LOGIN_SHELL", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = json_lines(&out.stdout);
    let end = events
        .iter()
        .find(|e| e["event"]["type"] == "tool_call_end")
        .unwrap();
    assert_eq!(end["event"]["output"], "Echo: hi");
    assert!(marker.exists());
}

#[test]
fn exec_calls_an_mcp_tool() {
    let mock = Mock::start(tempfile::tempdir().unwrap().path());
    let config = format!(
        "[mcp_servers.everything]\ncommand = \"node\"\nargs = [{:?}, \"stdio\"]\n",
        everything_js()
    );
    let home = Home::new(&mock, &config);
    mock.push(json!([
        {"tool_calls": [{"name": "everything__echo", "arguments": "{\"message\":\"from exec\"}"}]},
        {"text": "Echoed."}
    ]));
    let out = home
        .exec_command("echo over mcp", &["--yes"])
        .env("MEMO_MCP_LOGIN_SHELL", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let events = json_lines(&out.stdout);
    let end = events
        .iter()
        .find(|e| e["event"]["type"] == "tool_call_end")
        .unwrap();
    assert_eq!(end["event"]["name"], "everything__echo");
    assert_eq!(end["event"]["output"], "Echo: from exec");
    assert!(events
        .iter()
        .any(|e| e["event"]["type"] == "mcp_server_status" && e["event"]["status"] == "ready"));
}
