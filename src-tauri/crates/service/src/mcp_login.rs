//! Signing in to an HTTP MCP server from the app: OAuth in the system browser (discovery,
//! registration, PKCE, a loopback redirect), tokens kept in the OS keychain, the same flow
//! `memo-cli mcp login` runs.

use std::path::Path;
use std::process::Stdio;

use memo_mcp::config::TransportConfig;

use crate::error::{Result, ServiceError};
use crate::service::Service;

impl Service {
    /// Signs in to server `name` of a session in `cwd`; waits until the browser part is
    /// done (or the flow's own time limit passes). Open sessions that have the server
    /// connect again with the new tokens.
    pub async fn mcp_login(&self, cwd: Option<&Path>, name: &str) -> Result<()> {
        let loaded = self.load_mcp(cwd)?;
        let server = loaded
            .set
            .get(name)
            .ok_or_else(|| ServiceError::NotFound(format!("no MCP server named \"{name}\"")))?;
        if loaded.blocked(server) {
            return Err(ServiceError::InvalidInput(format!(
                "\"{name}\" comes from a folder that is not trusted; trust the folder first"
            )));
        }
        let http = match &server.transport {
            TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => h.clone(),
            TransportConfig::Stdio(_) => {
                return Err(ServiceError::InvalidInput(format!(
                    "\"{name}\" runs on this machine (stdio); only HTTP servers sign in"
                )))
            }
        };
        let env = self.env().clone();
        let browser = env("BROWSER")
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "xdg-open".into());
        let opener = move |url: &str| -> std::result::Result<(), String> {
            std::process::Command::new(&browser)
                .arg(url)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map(|_| ())
                .map_err(|e| format!("could not open the browser ({browser}): {e}"))
        };
        let options = memo_mcp::oauth_flow::LoginOptions {
            client_secret: http
                .oauth
                .client_secret_env_var
                .as_deref()
                .and_then(|v| env(v)),
            ..Default::default()
        };
        memo_mcp::oauth_flow::login(
            &server.name,
            &http,
            self.credentials.as_ref(),
            &opener,
            options,
        )
        .await
        .map_err(|e| ServiceError::Login(format!("signing in to \"{name}\" failed: {e}")))?;
        self.restart_mcp_server(name);
        Ok(())
    }
}
