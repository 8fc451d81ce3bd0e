//! Memo's MCP servers for an external agent's session, as an editor gives an agent its
//! context servers: those a session of Memo's own in the folder would start (config.toml's
//! enabled servers, and the folder's project servers once it is trusted), described in
//! ACP's shape for the agent to start itself. Secrets come from the keychain when the
//! agent starts and go only to it, over its stdin. Per-tool switches cannot be said in
//! ACP: the agent sees every tool of a server it gets, and asks Memo before using one.

use std::path::Path;
use std::sync::Arc;

use memo_acp_client::McpServersFor;
use memo_config::{CredentialStore, ExternalAgentConfig};
use memo_mcp::config::{HttpConfig, ServerConfig, TransportConfig};
use serde_json::{json, Value};

use memo_engine::EnvLookup;

use crate::service::Service;

impl Service {
    /// What `agent`'s sessions in `cwd` are given, or `None` when it is kept from them
    /// (`offer_mcp_servers = false`) or there is nothing to give.
    pub(crate) fn mcp_servers_for(
        &self,
        agent: &ExternalAgentConfig,
        cwd: &Path,
    ) -> Option<McpServersFor> {
        if agent.withhold_mcp_servers {
            return None;
        }
        let loaded = match self.load_mcp(Some(cwd)) {
            Ok(loaded) => loaded,
            Err(error) => {
                tracing::warn!(%error, "MCP servers not offered to the external agent");
                return None;
            }
        };
        let servers: Vec<ServerConfig> = loaded
            .set
            .servers
            .iter()
            .filter(|s| s.enabled && !loaded.blocked(s))
            .cloned()
            .collect();
        if servers.is_empty() {
            return None;
        }
        let store = self.credentials.clone();
        let env = self.env().clone();
        Some(Arc::new(move || {
            let (servers, store, env) = (servers.clone(), store.clone(), env.clone());
            Box::pin(async move { described(&servers, &store, &env).await })
        }))
    }
}

/// Each server with its secrets, in ACP's shape; one whose secret or header variable is
/// missing is left out (and logged), as Memo would not start it either.
async fn described(
    servers: &[ServerConfig],
    store: &Arc<dyn CredentialStore>,
    env: &EnvLookup,
) -> Vec<Value> {
    let mut out = Vec::new();
    for server in servers {
        let described = match memo_mcp::secrets::resolve(server, Some(store)).await {
            Ok(resolved) => acp_server(&resolved, env),
            Err(error) => Err(error),
        };
        match described {
            Ok(server) => out.push(server),
            Err(error) => {
                tracing::warn!(server = %server.name, %error, "MCP server not offered to the external agent")
            }
        }
    }
    out
}

fn pairs<'a>(items: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<Value> {
    items
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

/// One server as ACP's `McpServer`.
fn acp_server(server: &ServerConfig, env: &EnvLookup) -> Result<Value, memo_mcp::McpError> {
    let http = |kind: &str, http: &HttpConfig| -> Result<Value, memo_mcp::McpError> {
        let headers = memo_mcp::http::header_pairs(http, &|var: &str| env(var))?;
        let headers = pairs(headers.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        Ok(json!({"type": kind, "name": server.name, "url": http.url, "headers": headers}))
    };
    match &server.transport {
        TransportConfig::Stdio(stdio) => Ok(json!({
            "name": server.name,
            "command": stdio.command,
            "args": stdio.args,
            "env": pairs(stdio.env.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
        })),
        TransportConfig::StreamableHttp(config) => http("http", config),
        TransportConfig::Sse(config) => http("sse", config),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_described_as_acp_says() {
        let config = memo_config::Config::parse(
            r#"
[mcp_servers.fs]
command = "node"
args = ["server.js"]
env = { ROOT = "/w" }

[mcp_servers.docs]
url = "http://127.0.0.1:9/mcp"
bearer_token_env_var = "TOKEN"
"#,
            Path::new("/c.toml"),
        )
        .unwrap();
        let env: EnvLookup = Arc::new(|name| (name == "TOKEN").then(|| "t0k".to_owned()));
        let set = memo_mcp::load_config(&config, None, &|name: &str| env(name));
        let described: Vec<Value> = set
            .servers
            .iter()
            .map(|s| acp_server(s, &env).unwrap())
            .collect();
        assert!(
            described.contains(&json!({"name": "fs", "command": "node", "args": ["server.js"], "env": [{"name": "ROOT", "value": "/w"}]})),
            "{described:?}"
        );
        assert!(
            described.contains(&json!({"type": "http", "name": "docs", "url": "http://127.0.0.1:9/mcp", "headers": [{"name": "Authorization", "value": "Bearer t0k"}]})),
            "{described:?}"
        );
        // A token variable that is not set: the server is not offered without it.
        let unset: EnvLookup = Arc::new(|_| None);
        let docs = set.servers.iter().find(|s| s.name == "docs").unwrap();
        assert!(acp_server(docs, &unset).is_err());
    }
}
