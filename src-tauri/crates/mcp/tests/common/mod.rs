//! Real MCP servers for the tests, installed from npm into tests/mcp by
//! scripts/test-all.sh (or `npm install` there). Everything listens on loopback only, and
//! every process a test starts is stopped when its guard drops.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memo_mcp::config::{
    ConfigSource, HttpConfig, OAuthSettings, ServerConfig, SourceKind, StderrMode, StdioConfig,
    TransportConfig,
};
use memo_mcp::{McpManager, McpOptions, RestartPolicy, ServerStatus};
use memo_tools::{ProgressSink, ToolContext, ToolProgress};

pub fn servers_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp");
    let marker = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        marker.exists(),
        "the MCP test servers are not installed: run `npm install` in {} (scripts/test-all.sh does)",
        dir.display()
    );
    dir
}

pub fn everything_js() -> String {
    servers_dir()
        .join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
        .display()
        .to_string()
}

pub fn filesystem_js() -> String {
    servers_dir()
        .join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
        .display()
        .to_string()
}

pub fn fixture_js() -> String {
    servers_dir()
        .join("fixture-server.mjs")
        .display()
        .to_string()
}

fn source() -> ConfigSource {
    ConfigSource {
        kind: SourceKind::Memo,
        path: PathBuf::from("/test/config.toml"),
    }
}

pub fn stdio(name: &str, command: &str, args: &[&str]) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: TransportConfig::Stdio(StdioConfig {
            command: command.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: Default::default(),
            secret_env: Vec::new(),
            cwd: None,
            stderr: StderrMode::Pipe,
        }),
        enabled: true,
        include_tools: None,
        exclude_tools: Vec::new(),
        startup_timeout: Duration::from_secs(20),
        tool_timeout: Duration::from_secs(30),
        source: source(),
    }
}

pub fn http(name: &str, url: &str, sse: bool) -> ServerConfig {
    let cfg = HttpConfig {
        url: url.into(),
        bearer_token_env_var: None,
        headers: Default::default(),
        env_headers: Default::default(),
        secret_headers: Vec::new(),
        oauth: OAuthSettings::default(),
    };
    ServerConfig {
        transport: if sse {
            TransportConfig::Sse(cfg)
        } else {
            TransportConfig::StreamableHttp(cfg)
        },
        ..stdio(name, "unused", &[])
    }
}

pub fn options(cwd: &Path) -> McpOptions {
    McpOptions {
        path: std::env::var("PATH").ok(),
        env: Arc::new(|_: &str| None),
        restart: RestartPolicy {
            initial: Duration::from_millis(200),
            max: Duration::from_secs(1),
            max_attempts: 3,
        },
        ..McpOptions::new(cwd)
    }
}

/// A port nothing listens on now, and one this test process never handed out before.
/// The tests of one file run in parallel: the system may give a port just released to the
/// next caller, and two servers told the same port would have the second fail to start
/// while its test talks to the first (connection refused once that test ends).
pub fn free_port() -> u16 {
    static GIVEN: Mutex<Vec<u16>> = Mutex::new(Vec::new());
    let mut given = GIVEN.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// A server process the test started itself; killed on drop.
pub struct Child(pub tokio::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.start_kill();
    }
}

/// server-everything over HTTP (`streamableHttp` or `sse`) on a free port.
///
/// The port is picked here and bound by node a moment later, and another test of the file
/// binding port 0 meanwhile may be given it. Node then fails to start, and a test that only
/// waited for something to listen there would talk to that other test's server until it
/// stopped. So the server's own "listening" line is awaited (it prints it once bound), and
/// a port lost that way is tried again with another.
pub async fn everything_http(mode: &str) -> (Child, u16) {
    use tokio::io::{AsyncBufReadExt, BufReader};
    const TRIES: usize = 5;
    for _ in 0..TRIES {
        let port = free_port();
        let mut child = tokio::process::Command::new("node")
            .arg(everything_js())
            .arg(mode)
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let listening = tokio::time::timeout(Duration::from_secs(20), async {
            while let Ok(Some(line)) = lines.next_line().await {
                // streamableHttp: "... listening on port N"; sse: "... running on port N".
                if line.contains(&format!("on port {port}")) {
                    return true;
                }
            }
            false
        })
        .await
        .unwrap_or(false);
        if listening {
            // What it says later is read and dropped, so its pipe never fills.
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return (Child(child), port);
        }
        let _ = child.start_kill();
    }
    panic!("server-everything ({mode}) did not start on any of {TRIES} ports");
}

/// Waits until `check` holds for the server, or fails with its last snapshot.
pub async fn wait_status(
    manager: &McpManager,
    server: &str,
    check: impl Fn(&memo_mcp::ServerSnapshot) -> bool,
) -> memo_mcp::ServerSnapshot {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let snap = manager.server(server).unwrap();
        if check(&snap) {
            return snap;
        }
        assert!(
            Instant::now() < deadline,
            "server never got there: {snap:#?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn ready(s: &memo_mcp::ServerSnapshot) -> bool {
    s.status == ServerStatus::Ready
}

/// A tool context that collects progress reports.
pub fn ctx_with_progress(dir: &Path) -> (ToolContext, Arc<Mutex<Vec<ToolProgress>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let mut ctx = ToolContext::for_workspace(dir);
    ctx.call_id = Some("call-1".into());
    ctx.progress = Some(ProgressSink::new(move |p| sink.lock().unwrap().push(p)));
    (ctx, seen)
}

pub fn process_alive(pid: u32) -> bool {
    // Signal 0 checks existence; a zombie of ours would still count, so reap first.
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), None).is_ok()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| s.contains(") Z "))
            .unwrap_or(true)
}
