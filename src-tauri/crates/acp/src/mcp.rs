//! The editor's MCP servers (`mcpServers` of `session/new` and `session/load`) as Memo's
//! server definitions: started for that run of the session beside the user's own, their
//! tools under the same approvals. Their secrets (environment values, headers) stay in
//! this process's memory: nothing is written to config.toml or the store.

use std::collections::BTreeMap;
use std::path::PathBuf;

use memo_mcp::config::{
    ConfigSource, HttpConfig, OAuthSettings, ServerConfig, SourceKind, StderrMode, StdioConfig,
    TransportConfig, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TOOL_TIMEOUT,
};
use serde::Deserialize;
use serde_json::Value;

/// One server as ACP describes it: stdio by default, `type` http or sse otherwise.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Described {
    Remote(Remote),
    Stdio(Stdio),
}

#[derive(Debug, Deserialize)]
struct Stdio {
    name: String,
    command: PathBuf,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: Vec<NameValue>,
}

#[derive(Debug, Deserialize)]
struct Remote {
    #[serde(rename = "type")]
    kind: RemoteKind,
    name: String,
    url: String,
    #[serde(default)]
    headers: Vec<NameValue>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RemoteKind {
    Http,
    Sse,
}

#[derive(Debug, Deserialize)]
struct NameValue {
    name: String,
    value: String,
}

/// The servers Memo can start; each one it cannot read is named in the second list.
pub fn servers(described: &[Value]) -> (Vec<ServerConfig>, Vec<String>) {
    let mut servers = Vec::new();
    let mut unreadable = Vec::new();
    for value in described {
        match serde_json::from_value::<Described>(value.clone()) {
            Ok(server) => servers.push(config(server)),
            Err(error) => unreadable.push(format!(
                "{}: {error}",
                value
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("(no name)")
            )),
        }
    }
    (servers, unreadable)
}

fn config(server: Described) -> ServerConfig {
    let pairs = |list: Vec<NameValue>| -> BTreeMap<String, String> {
        list.into_iter().map(|p| (p.name, p.value)).collect()
    };
    let (name, transport) = match server {
        Described::Stdio(stdio) => (
            stdio.name,
            TransportConfig::Stdio(StdioConfig {
                command: stdio.command.display().to_string(),
                args: stdio.args,
                env: pairs(stdio.env),
                secret_env: Vec::new(),
                cwd: None,
                stderr: StderrMode::Pipe,
            }),
        ),
        Described::Remote(remote) => {
            let http = HttpConfig {
                url: remote.url,
                bearer_token_env_var: None,
                headers: pairs(remote.headers),
                env_headers: BTreeMap::new(),
                secret_headers: Vec::new(),
                oauth: OAuthSettings::default(),
            };
            let transport = match remote.kind {
                RemoteKind::Http => TransportConfig::StreamableHttp(http),
                RemoteKind::Sse => TransportConfig::Sse(http),
            };
            (remote.name, transport)
        }
    };
    ServerConfig {
        name,
        transport,
        enabled: true,
        include_tools: None,
        exclude_tools: Vec::new(),
        startup_timeout: DEFAULT_STARTUP_TIMEOUT,
        tool_timeout: DEFAULT_TOOL_TIMEOUT,
        source: ConfigSource {
            kind: SourceKind::Editor,
            path: PathBuf::from("session/new"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stdio_http_and_sse_servers_are_read_and_a_bad_one_is_named() {
        let (servers, unreadable) = servers(&[
            json!({"name": "fx", "command": "/usr/bin/node", "args": ["s.mjs"], "env": [{"name": "TOKEN", "value": "t0k"}]}),
            json!({"type": "http", "name": "docs", "url": "http://127.0.0.1:9/mcp", "headers": [{"name": "Authorization", "value": "Bearer x"}]}),
            json!({"type": "sse", "name": "old", "url": "http://127.0.0.1:9/sse", "headers": []}),
            json!({"name": "broken", "args": []}),
        ]);
        assert_eq!(unreadable.len(), 1);
        assert!(unreadable[0].starts_with("broken: "), "{unreadable:?}");
        let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["fx", "docs", "old"]);
        let TransportConfig::Stdio(stdio) = &servers[0].transport else {
            panic!()
        };
        assert_eq!(
            (stdio.command.as_str(), stdio.env["TOKEN"].as_str()),
            ("/usr/bin/node", "t0k")
        );
        assert!(
            matches!(&servers[1].transport, TransportConfig::StreamableHttp(h) if h.headers["Authorization"] == "Bearer x")
        );
        assert!(matches!(&servers[2].transport, TransportConfig::Sse(_)));
        assert!(servers.iter().all(|s| s.source.kind == SourceKind::Editor));
    }
}
