use std::time::Duration;

use memo_protocol::Phrase;
use thiserror::Error;

/// An MCP failure. Its text is its phrase's English (`phrase()`), so each sentence is
/// written once, in the catalog the window words it from.
#[derive(Debug, Error)]
pub enum McpError {
    #[error("{}", self.phrase())]
    UnknownServer(String),
    #[error("{}", self.phrase())]
    CommandNotFound { command: String, path: String },
    #[error("{}", self.phrase())]
    Spawn { command: String, message: String },
    #[error("{reason}")]
    Connect { reason: Phrase },
    #[error("{}", self.phrase())]
    StartupTimeout(Duration),
    #[error("{}", self.phrase())]
    AuthRequired { server: String },
    /// What the SDK or the server said, as it said it.
    #[error("{0}")]
    Protocol(String),
    /// Memo's own sentence about what the server did (answered with an error, closed).
    #[error("{0}")]
    Said(Phrase),
    #[error("{}", self.phrase())]
    CallTimeout(Duration),
    #[error("{}", self.phrase())]
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

    /// What went wrong as a phrase, for the window to word in the person's language; what
    /// a server, the OS or a library said itself goes as it is (`AsSaid`).
    pub fn phrase(&self) -> Phrase {
        let seconds = |d: &Duration| format!("{}", d.as_secs_f64());
        match self {
            McpError::UnknownServer(name) => Phrase::McpServerNotConfigured { name: name.clone() },
            McpError::CommandNotFound { command, path } => Phrase::McpCommandNotFound {
                command: command.clone(),
                path: path.clone(),
            },
            McpError::Spawn { command, message } => Phrase::McpCouldNotStart {
                command: command.clone(),
                error: message.clone(),
            },
            McpError::Connect { reason } | McpError::Said(reason) => reason.clone(),
            McpError::StartupTimeout(d) => Phrase::McpStartupTimeout {
                seconds: seconds(d),
            },
            McpError::AuthRequired { server } => Phrase::McpNeedsLogin {
                server: server.clone(),
            },
            McpError::CallTimeout(d) => Phrase::McpCallTimeout {
                seconds: seconds(d),
            },
            McpError::NotAvailable { server, state } => Phrase::McpNotAvailable {
                server: server.clone(),
                state: state.clone(),
            },
            // Display of these does not go through `phrase()`: no recursion.
            McpError::Protocol(_)
            | McpError::Http(_)
            | McpError::OAuth(_)
            | McpError::Keychain(_)
            | McpError::Config(_)
            | McpError::Io(_) => Phrase::AsSaid {
                text: self.to_string(),
            },
        }
    }
}

impl From<rmcp::ServiceError> for McpError {
    fn from(e: rmcp::ServiceError) -> Self {
        match e {
            rmcp::ServiceError::Timeout { timeout } => McpError::CallTimeout(timeout),
            rmcp::ServiceError::McpError(data) => McpError::Said(Phrase::McpServerAnsweredError {
                number: data.code.0.to_string(),
                error: data.message.to_string(),
            }),
            rmcp::ServiceError::TransportClosed => McpError::Said(Phrase::McpConnectionClosed),
            other => McpError::Protocol(other.to_string()),
        }
    }
}

impl From<reqwest::Error> for McpError {
    fn from(e: reqwest::Error) -> Self {
        McpError::Http(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The phrase says what the error says: its English is the error's own text.
    #[test]
    fn every_error_phrase_says_the_same_in_english() {
        let errors = [
            McpError::UnknownServer("fs".into()),
            McpError::CommandNotFound {
                command: "npx".into(),
                path: "/usr/bin".into(),
            },
            McpError::Spawn {
                command: "npx".into(),
                message: "Permission denied".into(),
            },
            McpError::Connect {
                reason: Phrase::McpExitedInHandshake {
                    exit: Box::new(Phrase::ProcessExitedWithCode { status: "3".into() }),
                },
            },
            McpError::StartupTimeout(Duration::from_millis(1500)),
            McpError::AuthRequired {
                server: "linear".into(),
            },
            McpError::Protocol("bad frame".into()),
            McpError::Said(Phrase::McpConnectionClosed),
            McpError::CallTimeout(Duration::from_secs(30)),
            McpError::NotAvailable {
                server: "fs".into(),
                state: "failed".into(),
            },
            McpError::Http("refused".into()),
            McpError::Config("bad".into()),
        ];
        for error in errors {
            assert_eq!(error.phrase().english(), error.to_string(), "{error:?}");
        }
        assert_eq!(
            McpError::StartupTimeout(Duration::from_millis(1500)).to_string(),
            "the server did not start within 1.5s"
        );
    }
}
