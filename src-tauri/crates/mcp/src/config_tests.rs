use super::*;
use crate::config_files::load;

fn memo(text: &str) -> (Vec<ServerConfig>, Vec<ConfigProblem>) {
    let table: toml::Table = toml::from_str(text).unwrap();
    parse_memo_config(&table, Path::new("/h/config.toml"))
}

#[test]
fn memo_code_forms_parse_with_every_key() {
    let (servers, problems) = memo(
        r#"
[mcp_servers]
github = { type = "stdio", command = "npx", args = ["-y", "@modelcontextprotocol/server-github"] }

[mcp_servers.local_tools]
command = "/bin/srv"
args = ["--flag"]
cwd = "/tmp"
stderr = "inherit"
include_tools = ["a"]
exclude_tools = ["b"]
enabled = false
startup_timeout_sec = 2.5
tool_timeout_sec = 30
[mcp_servers.local_tools.env]
FOO = "bar"

[mcp_servers.remote]
type = "streamable_http"
url = "https://example.com/mcp"
bearer_token_env_var = "MCP_TOKEN"
http_headers = { "X-Team" = "platform" }
headers = { "X-Other" = "1" }
env_http_headers = { "X-Key" = "KEY_VAR" }
oauth = { client_id = "cid", scopes = ["read", "write"], callback_port = 8765 }

[mcp_servers.old]
type = "sse"
url = "http://127.0.0.1:9/sse"
startup_timeout_ms = 500
tool_timeout_ms = 1500
"#,
    );
    assert!(problems.is_empty(), "{problems:?}");
    let by = |n: &str| servers.iter().find(|s| s.name == n).unwrap();
    let gh = by("github");
    assert!(gh.enabled);
    assert_eq!(gh.startup_timeout, DEFAULT_STARTUP_TIMEOUT);
    assert_eq!(gh.tool_timeout, DEFAULT_TOOL_TIMEOUT);
    let local = by("local_tools");
    let TransportConfig::Stdio(s) = &local.transport else {
        panic!("{local:?}")
    };
    assert_eq!(s.command, "/bin/srv");
    assert_eq!(s.args, ["--flag"]);
    assert_eq!(s.env["FOO"], "bar");
    assert_eq!(s.cwd.as_deref(), Some(Path::new("/tmp")));
    assert_eq!(s.stderr, StderrMode::Inherit);
    assert!(!local.enabled);
    assert_eq!(local.startup_timeout, Duration::from_millis(2500));
    assert_eq!(local.tool_timeout, Duration::from_secs(30));
    assert!(local.allows_tool("a") && !local.allows_tool("b") && !local.allows_tool("c"));
    let remote = by("remote");
    let TransportConfig::StreamableHttp(h) = &remote.transport else {
        panic!("{remote:?}")
    };
    assert_eq!(h.url, "https://example.com/mcp");
    assert_eq!(h.bearer_token_env_var.as_deref(), Some("MCP_TOKEN"));
    assert_eq!(h.headers["X-Team"], "platform");
    assert_eq!(h.headers["X-Other"], "1");
    assert_eq!(h.env_headers["X-Key"], "KEY_VAR");
    assert_eq!(h.oauth.client_id.as_deref(), Some("cid"));
    assert_eq!(h.oauth.scopes, ["read", "write"]);
    assert_eq!(h.oauth.callback_port, Some(8765));
    let old = by("old");
    assert!(matches!(old.transport, TransportConfig::Sse(_)));
    assert_eq!(old.startup_timeout, Duration::from_millis(500));
    assert_eq!(old.tool_timeout, Duration::from_millis(1500));
    assert_eq!(old.source.kind, SourceKind::Memo);
}

#[test]
fn bad_servers_are_reported_by_key_and_skipped() {
    let (servers, problems) = memo(
        r#"
[mcp_servers.ok]
command = "x"
[mcp_servers.nocmd]
args = ["a"]
[mcp_servers.badtype]
type = "websocket"
url = "ws://x"
[mcp_servers.badargs]
command = "x"
args = "one"
[mcp_servers.badurl]
type = "streamable_http"
url = "ftp://x"
[mcp_servers.badtimeout]
command = "x"
tool_timeout_sec = -1
[mcp_servers.typo]
command = "x"
argz = ["a"]
[mcp_servers."a:b"]
command = "x"
"#,
    );
    let names: Vec<_> = servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ok", "typo"]);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    let has = |needle: &str| {
        assert!(
            shown.iter().any(|p| p.contains(needle)),
            "{needle} not in {shown:#?}"
        )
    };
    has("/h/config.toml: mcp_servers.nocmd.command: missing");
    has("mcp_servers.badtype.type: unknown transport \"websocket\"");
    has("mcp_servers.badargs.args: expected an array of strings, got a string");
    has("mcp_servers.badurl.url: expected an http(s) URL");
    has("mcp_servers.badtimeout.tool_timeout_sec: expected a positive number");
    has("mcp_servers.typo.argz: unknown key");
    has("mcp_servers.a:b: server name \"a:b\" contains ':'");
}

#[test]
fn project_files_load_after_memo_config_and_clashes_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".mcp.json"),
        r#"{"mcpServers": {"shared": {"command": "claude-one"}, "c": {"command": "c"}}}"#,
    )
    .unwrap();
    std::fs::create_dir(dir.path().join(".gemini")).unwrap();
    std::fs::write(
        dir.path().join(".gemini/settings.json"),
        r#"{"mcpServers": {"c": {"command": "gemini-c"}, "g": {"httpUrl": "http://127.0.0.1:1/mcp"}}}"#,
    )
    .unwrap();
    std::fs::create_dir(dir.path().join(".cursor")).unwrap();
    std::fs::write(
        dir.path().join(".cursor/mcp.json"),
        r#"{"mcpServers": {"k": {"url": "http://127.0.0.1:1/sse"}}}"#,
    )
    .unwrap();
    let config = memo_config::Config::parse(
        "[mcp_servers.shared]\ncommand = \"memo-one\"\n",
        &dir.path().join("config.toml"),
    )
    .unwrap();
    let set = load(&config, Some(dir.path()), &|_| None);
    let names: Vec<_> = set
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.source.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("shared", SourceKind::Memo),
            ("c", SourceKind::Claude),
            ("g", SourceKind::Gemini),
            ("k", SourceKind::Cursor)
        ]
    );
    let TransportConfig::Stdio(shared) = &set.servers[0].transport else {
        panic!()
    };
    assert_eq!(shared.command, "memo-one");
    assert_eq!(set.clashes.len(), 2, "{:?}", set.clashes);
    let clash = set.clashes[0].to_string();
    assert!(
        clash.contains("\"shared\"")
            && clash.contains("config.toml (memo)")
            && clash.contains(".mcp.json (claude)"),
        "{clash}"
    );
    assert_eq!(set.clashes[1].kept.kind, SourceKind::Claude);
    assert_eq!(set.clashes[1].ignored.kind, SourceKind::Gemini);
    assert!(set.problems.is_empty(), "{:?}", set.problems);
}

#[test]
fn redacted_copies_hide_env_and_header_values() {
    let (servers, _) = memo(
        "[mcp_servers.a]\ncommand = \"x\"\nenv = { TOKEN = \"s3cret\" }\n[mcp_servers.b]\nurl = \"http://h/mcp\"\nheaders = { Authorization = \"Bearer s3cret\" }\n",
    );
    let shown =
        serde_json::to_string(&servers.iter().map(|s| s.redacted()).collect::<Vec<_>>()).unwrap();
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(shown.contains("TOKEN") && shown.contains("Authorization"));
}

#[test]
fn oauth_grants_metadata_documents_and_keys_parse_and_are_checked() {
    let (servers, problems) = memo(
        r#"
[mcp_servers.machine]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { grant = "client_credentials", client_id = "svc", private_key_env_var = "SVC_KEY" }
[mcp_servers.cimd]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { client_metadata_url = "https://memo.example/oauth/client.json" }
[mcp_servers.nogrant]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { grant = "password" }
[mcp_servers.noid]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { grant = "client_credentials" }
[mcp_servers.plainurl]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { client_metadata_url = "http://memo.example/client.json" }
[mcp_servers.xaa]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { grant = "cross_app_access", client_id = "c", idp_token_endpoint = "https://idp/token", idp_client_id = "i", id_token_env_var = "IDT" }
[mcp_servers.xaa_half]
type = "streamable_http"
url = "https://example.com/mcp"
oauth = { grant = "cross_app_access", client_id = "c", idp_token_endpoint = "https://idp/token" }
"#,
    );
    let oauth = |name: &str| {
        let server = servers
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name}: {problems:?}"));
        let TransportConfig::StreamableHttp(h) = &server.transport else {
            panic!("{server:?}")
        };
        h.oauth.clone()
    };
    let machine = oauth("machine");
    assert_eq!(machine.grant, OAuthGrant::ClientCredentials);
    assert_eq!(machine.private_key_env_var.as_deref(), Some("SVC_KEY"));
    assert_eq!(
        oauth("cimd").client_metadata_url.as_deref(),
        Some("https://memo.example/oauth/client.json")
    );
    assert_eq!(oauth("cimd").grant, OAuthGrant::AuthorizationCode);
    let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
    assert!(
        keys.contains(&"mcp_servers.nogrant.oauth.grant"),
        "{problems:?}"
    );
    assert!(
        keys.contains(&"mcp_servers.noid.oauth.client_id"),
        "{problems:?}"
    );
    assert!(
        keys.contains(&"mcp_servers.plainurl.oauth.client_metadata_url"),
        "{problems:?}"
    );
    let xaa = oauth("xaa");
    assert_eq!(xaa.grant, OAuthGrant::CrossAppAccess);
    assert_eq!(xaa.id_token_env_var.as_deref(), Some("IDT"));
    assert!(
        keys.contains(&"mcp_servers.xaa_half.oauth.idp_client_id"),
        "{problems:?}"
    );
}

#[test]
fn other_agents_user_level_servers_are_read_unchanged_between_memos_and_the_projects() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let h = home.path();
    std::fs::write(
        h.join(".claude.json"),
        serde_json::json!({
            "mcpServers": {"claude-user": {"command": "cu"}},
            "projects": {
                project.path().to_string_lossy(): {"mcpServers": {"claude-local": {"command": "cl"}}},
                "/some/other/project": {"mcpServers": {"elsewhere": {"command": "no"}}}
            }
        })
        .to_string(),
    )
    .unwrap();
    std::fs::create_dir_all(h.join(".gemini")).unwrap();
    std::fs::write(
        h.join(".gemini/settings.json"),
        r#"{"mcpServers": {"gemini-user": {"command": "gu"}}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(h.join(".cursor")).unwrap();
    std::fs::write(
        h.join(".cursor/mcp.json"),
        r#"{"mcpServers": {"cursor-user": {"url": "http://127.0.0.1:1/mcp"}}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(h.join(".codex")).unwrap();
    std::fs::write(
        h.join(".codex/config.toml"),
        "model = \"o4\"\n[mcp_servers.codex-user]\ncommand = \"xu\"\nargs = [\"--stdio\"]\n",
    )
    .unwrap();
    std::fs::write(
        project.path().join(".mcp.json"),
        r#"{"mcpServers": {"proj": {"command": "p"}, "claude-user": {"command": "shadowed"}}}"#,
    )
    .unwrap();
    let config = memo_config::Config::parse("", &h.join(".memo/config.toml")).unwrap();
    let home_str = h.display().to_string();
    let env = move |name: &str| (name == "HOME").then(|| home_str.clone());
    let set = load(&config, Some(project.path()), &env);
    let names: Vec<_> = set
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.source.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("claude-user", SourceKind::Claude),
            ("claude-local", SourceKind::Claude),
            ("gemini-user", SourceKind::Gemini),
            ("cursor-user", SourceKind::Cursor),
            ("codex-user", SourceKind::Codex),
            ("proj", SourceKind::Claude),
        ]
    );
    assert_eq!(set.servers[0].source.path, h.join(".claude.json"));
    let TransportConfig::Stdio(codex) = &set.servers[4].transport else {
        panic!()
    };
    assert_eq!(
        (codex.command.as_str(), codex.args.clone()),
        ("xu", vec!["--stdio".to_owned()])
    );
    // The user's own definition wins over the project's of the same name.
    assert_eq!(set.clashes.len(), 1, "{:?}", set.clashes);
    assert!(set.problems.is_empty(), "{:?}", set.problems);
    // Without a folder, the per-project servers are not read.
    let alone = load(&config, None, &env);
    assert!(alone.servers.iter().all(|s| s.name != "claude-local"));
}

#[test]
fn a_gemini_cli_extensions_servers_come_with_its_folder_filled_in_and_only_where_it_is_on() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let h = home.path();
    let ext = h.join(".gemini/extensions/db-tools");
    std::fs::create_dir_all(&ext).unwrap();
    std::fs::write(
        ext.join("gemini-extension.json"),
        serde_json::json!({"name": "db-tools", "version": "1.0.0",
            "mcpServers": {"db": {"command": "node", "args": ["${extensionPath}${/}server.js"]}}})
        .to_string(),
    )
    .unwrap();
    let config = memo_config::Config::parse("", &h.join(".memo/config.toml")).unwrap();
    let home_str = h.display().to_string();
    let env = move |name: &str| (name == "HOME").then(|| home_str.clone());
    let set = load(&config, Some(project.path()), &env);
    let [server] = set.servers.as_slice() else {
        panic!("{:?}", set.servers)
    };
    assert_eq!(server.name, "db");
    assert_eq!(server.source.kind, SourceKind::Gemini);
    assert_eq!(server.source.path, ext.join("gemini-extension.json"));
    let TransportConfig::Stdio(stdio) = &server.transport else {
        panic!("{:?}", server.transport)
    };
    assert_eq!(stdio.args, [format!("{}/server.js", ext.display())]);
    // Turned off for this folder in Gemini CLI: not started here either.
    std::fs::write(
        h.join(".gemini/extensions/extension-enablement.json"),
        serde_json::json!({"db-tools": {"overrides": [format!("!{}/*", project.path().display())]}})
            .to_string(),
    )
    .unwrap();
    assert!(load(&config, Some(project.path()), &env).servers.is_empty());
}
