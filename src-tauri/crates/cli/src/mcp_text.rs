//! How `memo-cli mcp list|get` print: JSON values for `--json`, aligned text otherwise.

use std::fmt::Write as _;

use memo_mcp::config::TransportConfig;
use memo_mcp::{McpConfigSet, ServerConfig, ServerSnapshot};
use serde_json::{json, Value};

fn endpoint(server: &ServerConfig) -> String {
    match &server.transport {
        TransportConfig::Stdio(s) => {
            let mut out = s.command.clone();
            for arg in &s.args {
                out.push(' ');
                out.push_str(arg);
            }
            out
        }
        TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => h.url.clone(),
    }
}

fn server_json(server: &ServerConfig, snapshot: Option<&ServerSnapshot>) -> Value {
    let mut value = json!({
        "name": server.name,
        "transport": server.transport_name(),
        "enabled": server.enabled,
        "source": server.source,
        "config": server.redacted(),
    });
    if let Some(s) = snapshot {
        value["status"] = serde_json::to_value(s).unwrap_or_default();
    }
    value
}

fn notes(set: &McpConfigSet, out: &mut String) {
    for p in &set.problems {
        let _ = writeln!(out, "! {p}");
    }
    for c in &set.clashes {
        let _ = writeln!(out, "! {c}");
    }
}

/// `untrusted`: project servers `--status` did not start because the folder is not
/// trusted.
pub fn list(
    set: &McpConfigSet,
    snapshots: &[ServerSnapshot],
    untrusted: &[String],
) -> (Value, String) {
    let find = |name: &str| snapshots.iter().find(|s| s.name == name);
    let value = json!({
        "servers": set.servers.iter().map(|s| server_json(s, find(&s.name))).collect::<Vec<_>>(),
        "problems": set.problems,
        "clashes": set.clashes,
        "untrusted": untrusted,
    });
    let mut out = String::new();
    if set.servers.is_empty() {
        out.push_str("No MCP servers configured ([mcp_servers] in config.toml, or .mcp.json, .gemini/settings.json, .cursor/mcp.json in the project).\n");
    }
    let width = set.servers.iter().map(|s| s.name.len()).max().unwrap_or(0);
    for s in &set.servers {
        let state = match find(&s.name) {
            Some(snap) => format!(
                "{} ({} tools)",
                snap.status.label().replace('_', " "),
                snap.tools.len()
            ),
            None if untrusted.contains(&s.name) => "not trusted".into(),
            None if s.enabled => "enabled".into(),
            None => "disabled".into(),
        };
        let _ = writeln!(
            out,
            "{:width$}  {:15}  {:18}  {}  [{}]",
            s.name,
            s.transport_name(),
            state,
            endpoint(s),
            s.source,
        );
        if let Some(snap) = find(&s.name) {
            if let Some(message) = &snap.message {
                let _ = writeln!(out, "{:width$}  {message}", "");
            }
        }
    }
    notes(set, &mut out);
    if !untrusted.is_empty() {
        let _ = writeln!(
            out,
            "! not started: {} (the project's own servers run programs from it, and this folder is not trusted; pass --trust, or trust it in Memo Desktop)",
            untrusted.join(", ")
        );
    }
    (value, out.trim_end().to_owned())
}

pub fn get(
    server: &ServerConfig,
    snapshot: Option<&ServerSnapshot>,
    set: &McpConfigSet,
) -> (Value, String) {
    let value = server_json(server, snapshot);
    let shown = server.redacted();
    let mut out = String::new();
    let _ = writeln!(out, "{}", server.name);
    let _ = writeln!(out, "  source:    {}", server.source);
    let _ = writeln!(out, "  transport: {}", server.transport_name());
    let _ = writeln!(out, "  enabled:   {}", server.enabled);
    match &shown.transport {
        TransportConfig::Stdio(s) => {
            let _ = writeln!(out, "  command:   {}", endpoint(server));
            if let Some(cwd) = &s.cwd {
                let _ = writeln!(out, "  cwd:       {}", cwd.display());
            }
            for (k, v) in &s.env {
                let _ = writeln!(out, "  env:       {k}={v}");
            }
        }
        TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => {
            let _ = writeln!(out, "  url:       {}", h.url);
            if let Some(var) = &h.bearer_token_env_var {
                let _ = writeln!(out, "  bearer token from ${var}");
            }
            for (k, v) in &h.headers {
                let _ = writeln!(out, "  header:    {k}: {v}");
            }
        }
    }
    if let Some(include) = &server.include_tools {
        let _ = writeln!(out, "  only tools: {}", include.join(", "));
    }
    if !server.exclude_tools.is_empty() {
        let _ = writeln!(out, "  excluded tools: {}", server.exclude_tools.join(", "));
    }
    let _ = writeln!(
        out,
        "  timeouts:  startup {}s, tool calls {}s",
        server.startup_timeout.as_secs_f64(),
        server.tool_timeout.as_secs_f64()
    );
    if let Some(snap) = snapshot {
        let _ = writeln!(
            out,
            "  status:    {}",
            snap.status.label().replace('_', " ")
        );
        if let Some(message) = &snap.message {
            let _ = writeln!(out, "  message:   {message}");
        }
        if !snap.tools.is_empty() {
            let _ = writeln!(
                out,
                "  tools ({}): {}",
                snap.tools.len(),
                snap.tools.join(", ")
            );
        }
        if snap.prompts > 0 {
            let _ = writeln!(out, "  prompts:   {}", snap.prompts);
        }
        if let Some(tail) = &snap.stderr_tail {
            let _ = writeln!(out, "  stderr:");
            for line in tail.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    for c in set.clashes.iter().filter(|c| c.name == server.name) {
        let _ = writeln!(out, "! {c}");
    }
    (value, out.trim_end().to_owned())
}
