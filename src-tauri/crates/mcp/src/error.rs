use std::time::Duration;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum McpError {
    #[error("MCP server \"{0}\" is not configured")]
    UnknownServer(String),
    #[error("command \"{command}\" not found in PATH ({path})")]
    CommandNotFound { command: String, path: String },
    #[error("could not start \"{command}\": {message}")]
    Spawn { command: String, message: String },
    #[error("{message}")]
    Connect { message: String },
    #[error("the server did not start within {}s", .0.as_secs_f64())]
    StartupTimeout(Duration),
    #[error("the server \"{server}\" needs you to log in (Log in under Settings → MCP)")]
    AuthRequired { server: String },
    #[error("{0}")]
    Protocol(String),
    #[error("the call timed out after {}s and was cancelled", .0.as_secs_f64())]
    CallTimeout(Duration),
    #[error("MCP server \"{server}\" is not available: {state}")]
    NotAvailable { server: String, state: String },
    #[error("HTTP: {0}")]
    Http(String),
    #[error("OAuth: {0}")]
    OAuth(String),
    #[error("keychain: {0}")]
    Keychain(#[from] memo_config::KeyError),
    #[error("config: {0}")]
    Config(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl McpError {
    pub(crate) fn protocol(e: impl std::fmt::Display) -> Self {
        McpError::Protocol(e.to_string())
    }
}

impl From<rmcp::ServiceError> for McpError {
    fn from(e: rmcp::ServiceError) -> Self {
        match e {
            rmcp::ServiceError::Timeout { timeout } => McpError::CallTimeout(timeout),
            rmcp::ServiceError::McpError(data) => McpError::Protocol(format!(
                "the server answered with error {}: {}",
                data.code.0, data.message
            )),
            rmcp::ServiceError::TransportClosed => {
                McpError::Protocol("the connection to the server closed".into())
            }
            other => McpError::Protocol(other.to_string()),
        }
    }
}

impl From<reqwest::Error> for McpError {
    fn from(e: reqwest::Error) -> Self {
        McpError::Http(e.to_string())
    }
}
