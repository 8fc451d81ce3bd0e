//! The HTTP client every MCP connection and OAuth request goes through.

use std::sync::Once;
use std::time::Duration;

use crate::error::McpError;

/// A client for MCP traffic and OAuth. No overall timeout: SSE streams stay open.
pub fn client() -> Result<reqwest::Client, McpError> {
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        // Fails only when another provider is already installed, which is just as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(15))
        .user_agent(concat!("memo-desktop/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(McpError::from)
}
