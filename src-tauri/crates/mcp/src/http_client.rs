//! The HTTP client every MCP connection and OAuth request goes through.

use std::time::Duration;

use crate::error::McpError;

/// A client for MCP traffic and OAuth. No overall timeout: SSE streams stay open.
pub fn client() -> Result<reqwest::Client, McpError> {
    memo_http::builder()
        .connect_timeout(Duration::from_secs(15))
        .user_agent(concat!("memo-desktop/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(McpError::from)
}
