use memo_protocol::ErrorKind;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum EngineError {
    #[error("session store error: {0}")]
    Store(#[from] memo_store::StoreError),
    #[error("configuration error: {0}")]
    Config(#[from] memo_config::ConfigError),
    #[error("API key lookup failed: {0}")]
    Key(#[from] memo_config::KeyError),
    #[error("provider setup failed: {0}")]
    Provider(#[from] memo_providers::ProviderError),
    #[error(
        "no API key for provider '{provider}': set {env_var}, or store one in the OS keychain"
    )]
    MissingApiKey { provider: String, env_var: String },
    #[error("{path}: {key}: {message}")]
    InvalidSetting {
        path: String,
        key: String,
        message: String,
    },
    #[error("session {0} not found")]
    SessionNotFound(String),
    #[error("the session has shut down")]
    SessionClosed,
    #[error("working directory {path} is not usable: {reason}")]
    BadWorkingDirectory { path: String, reason: String },
}

impl EngineError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            EngineError::Store(_) => ErrorKind::Storage,
            EngineError::Config(_)
            | EngineError::BadWorkingDirectory { .. }
            | EngineError::InvalidSetting { .. } => ErrorKind::Config,
            EngineError::Key(_) | EngineError::MissingApiKey { .. } => ErrorKind::Auth,
            EngineError::Provider(e) => e.kind(),
            EngineError::SessionNotFound(_) | EngineError::SessionClosed => ErrorKind::InvalidOp,
        }
    }
}
