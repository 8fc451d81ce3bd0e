//! Signing in to an HTTP MCP server from the app: OAuth in the system browser (discovery,
//! registration, PKCE, a loopback redirect), tokens kept in the OS keychain, the same flow
//! `memo-cli mcp login` runs.

use std::path::Path;

use memo_mcp::config::TransportConfig;
use memo_mcp::oauth::StoredTokens;
use memo_mcp::oauth_flow::Opener;

use crate::error::{Result, ServiceError};
use crate::service::Service;
use memo_protocol::{ErrorCode, Phrase};

impl Service {
    /// Forgets server `name`'s OAuth tokens; false when there were none.
    pub fn mcp_logout(&self, name: &str) -> Result<bool> {
        memo_mcp::oauth::delete_tokens(self.credentials.as_ref(), name)
            .map_err(ServiceError::keychain)
    }

    /// Signs in to server `name` of a session in `cwd`; waits until the browser part is
    /// done (or the flow's own time limit passes). Open sessions that have the server
    /// connect again with the new tokens. `opener` shows the sign-in address (`None`: the system browser).
    pub async fn mcp_login(
        &self,
        cwd: Option<&Path>,
        name: &str,
        opener: Option<Opener<'_>>,
    ) -> Result<StoredTokens> {
        let loaded = self.load_mcp(cwd)?;
        let server = loaded.set.get(name).ok_or_else(|| {
            ServiceError::not_found(Phrase::McpServerNotFound {
                name: name.to_owned(),
            })
        })?;
        if loaded.blocked(server) {
            return Err(ServiceError::invalid(Phrase::McpServerUntrusted {
                name: name.to_owned(),
            }));
        }
        let http = match &server.transport {
            TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => h.clone(),
            TransportConfig::Stdio(_) => {
                return Err(ServiceError::invalid(Phrase::McpServerIsStdio {
                    name: name.to_owned(),
                }))
            }
        };
        let env = self.env().clone();
        let system_browser = |url: &str| {
            memo_mcp::oauth_flow::open_in_browser(env("BROWSER").as_deref(), url)
                .map_err(|e| format!("{e}; open the address yourself"))
        };
        let opener = opener.unwrap_or(&system_browser);
        let options = memo_mcp::oauth_flow::LoginOptions {
            client_secret: http
                .oauth
                .client_secret_env_var
                .as_deref()
                .and_then(|v| env(v)),
            ..Default::default()
        };
        let tokens = memo_mcp::oauth_flow::login(
            &server.name,
            &http,
            self.credentials.as_ref(),
            opener,
            options,
        )
        .await
        .map_err(|e| {
            ServiceError::said(
                ErrorCode::Unavailable,
                Phrase::McpSignInFailed {
                    name: name.to_owned(),
                    error: e.to_string(),
                },
            )
        })?;
        self.restart_mcp_server(name);
        Ok(tokens)
    }
}
