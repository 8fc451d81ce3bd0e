//! The service's one error type. Each variant knows its [`ErrorCode`], so the desktop shell
//! and memo-cli report the same failure the same way without matching on message text.

use memo_engine::EngineError;
use memo_protocol::{ErrorCode, Phrase};
use memo_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    Config(#[from] memo_config::ConfigError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("{0}")]
    InvalidInput(String),
    /// The file changed since it was shown; nothing was written.
    #[error("{0}")]
    Conflict(String),
    /// A plugin could not be installed, changed or read.
    #[error(transparent)]
    Plugin(#[from] memo_plugins::PluginError),
    /// A failure said as a phrase, so each front end words it in its language (the
    /// desktop from its catalog; `Display` in English).
    #[error("{phrase}")]
    Said { code: ErrorCode, phrase: Phrase },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// git's refusals and failures, as phrases: a diff that changed since it was shown is a
/// conflict (look again), any other refusal a request that cannot be done as it stands.
impl From<memo_git::GitError> for ServiceError {
    fn from(error: memo_git::GitError) -> Self {
        let code = match &error {
            memo_git::GitError::Refused(Phrase::GitChangedSinceShown { .. }) => ErrorCode::Conflict,
            memo_git::GitError::Refused(_) => ErrorCode::InvalidInput,
            memo_git::GitError::Unavailable(_) => ErrorCode::Unavailable,
            memo_git::GitError::Failed { .. } => ErrorCode::Io,
        };
        ServiceError::said(code, error.phrase())
    }
}

impl ServiceError {
    pub fn io(path: impl std::fmt::Display, source: std::io::Error) -> Self {
        ServiceError::Io {
            path: path.to_string(),
            source,
        }
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            ServiceError::Config(memo_config::ConfigError::Conflict { .. }) => ErrorCode::Conflict,
            ServiceError::Config(memo_config::ConfigError::Edit { .. }) => ErrorCode::InvalidInput,
            ServiceError::Config(memo_config::ConfigError::Write { .. }) => ErrorCode::Io,
            ServiceError::Config(_) => ErrorCode::Config,
            ServiceError::Store(StoreError::UnknownSession(_)) => ErrorCode::NotFound,
            ServiceError::Store(_) => ErrorCode::Io,
            ServiceError::Engine(error) => match error {
                EngineError::SessionNotFound(_) => ErrorCode::NotFound,
                EngineError::SessionClosed => ErrorCode::Unavailable,
                EngineError::BadWorkingDirectory { .. } => ErrorCode::InvalidInput,
                EngineError::Store(_) => ErrorCode::Io,
                EngineError::MissingApiKey { .. } => ErrorCode::MissingKey,
                EngineError::Config(_)
                | EngineError::InvalidSetting { .. }
                | EngineError::Key(_)
                | EngineError::Provider(_) => ErrorCode::Config,
            },
            ServiceError::InvalidInput(_) => ErrorCode::InvalidInput,
            ServiceError::Conflict(_) => ErrorCode::Conflict,
            ServiceError::Said { code, .. } => *code,
            ServiceError::Plugin(error) => plugin_code(error),
            ServiceError::Io { source, .. } => match source.kind() {
                std::io::ErrorKind::NotFound => ErrorCode::NotFound,
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData => {
                    ErrorCode::InvalidInput
                }
                _ => ErrorCode::Io,
            },
        }
    }

    /// A failure of `code`, in words every front end has.
    pub fn said(code: ErrorCode, phrase: Phrase) -> Self {
        ServiceError::Said { code, phrase }
    }

    /// The request itself cannot be done as given (`invalid_input`).
    pub fn invalid(phrase: Phrase) -> Self {
        Self::said(ErrorCode::InvalidInput, phrase)
    }

    /// What the request names is not there (`not_found`).
    pub fn not_found(phrase: Phrase) -> Self {
        Self::said(ErrorCode::NotFound, phrase)
    }

    /// The OS keychain refused or is not there (`error` is its own words).
    pub fn keychain(error: impl std::fmt::Display) -> Self {
        Self::said(
            ErrorCode::Unavailable,
            Phrase::KeychainFailed {
                error: error.to_string(),
            },
        )
    }

    /// The checkpoint store failed (its database or a stored copy).
    pub fn checkpoints(error: impl std::fmt::Display) -> Self {
        Self::said(
            ErrorCode::Io,
            Phrase::CheckpointsFailed {
                error: error.to_string(),
            },
        )
    }

    /// The failure as a phrase, where it was said as one.
    pub fn phrase(&self) -> Option<&Phrase> {
        match self {
            ServiceError::Said { phrase, .. } => Some(phrase),
            _ => None,
        }
    }

    /// Whether the same request may succeed if tried again unchanged.
    pub fn retryable(&self) -> bool {
        match self {
            ServiceError::Io { source, .. } => matches!(
                source.kind(),
                std::io::ErrorKind::Interrupted
                    | std::io::ErrorKind::WouldBlock
                    | std::io::ErrorKind::TimedOut
            ),
            other => other.code() == ErrorCode::Unavailable,
        }
    }
}

/// A missing folder or plugin is not found, a folder that is no (valid) plugin is bad
/// input, a name already taken is a conflict, git that cannot reach the repository is
/// unavailable (trying again may work), a damaged registry is a setup problem.
fn plugin_code(error: &memo_plugins::PluginError) -> ErrorCode {
    use memo_plugins::PluginError as E;
    match error {
        E::SourceMissing { .. } | E::NotInstalled { .. } => ErrorCode::NotFound,
        E::NotAFolder { .. }
        | E::NoManifest { .. }
        | E::InvalidManifest { .. }
        | E::InvalidName { .. }
        | E::InvalidGitUrl { .. }
        | E::LinkOutside { .. }
        | E::TooLarge { .. } => ErrorCode::InvalidInput,
        E::AlreadyInstalled { .. } => ErrorCode::Conflict,
        E::GitUnavailable { .. } | E::GitClone { .. } => ErrorCode::Unavailable,
        E::Registry { .. } => ErrorCode::Config,
        E::Io { .. } => ErrorCode::Io,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_what_went_wrong() {
        let unknown = ServiceError::Store(StoreError::UnknownSession(
            memo_protocol::SessionId::new("s"),
        ));
        assert_eq!(unknown.code(), ErrorCode::NotFound);
        let missing = ServiceError::Engine(EngineError::MissingApiKey {
            provider: "p".into(),
            env_var: "P_KEY".into(),
        });
        assert_eq!(missing.code(), ErrorCode::MissingKey);
        assert!(!missing.retryable());
        let closed = ServiceError::Engine(EngineError::SessionClosed);
        assert_eq!(closed.code(), ErrorCode::Unavailable);
        assert!(closed.retryable());
        let gone = ServiceError::io("/x", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(gone.code(), ErrorCode::NotFound);
        let slow = ServiceError::io("/x", std::io::Error::from(std::io::ErrorKind::TimedOut));
        assert_eq!(slow.code(), ErrorCode::Io);
        assert!(slow.retryable());
        let keychain = ServiceError::keychain("locked");
        assert_eq!(keychain.code(), ErrorCode::Unavailable);
        assert!(keychain.retryable());
        assert_eq!(keychain.to_string(), "OS keychain: locked");
        assert_eq!(
            ServiceError::checkpoints("disk full").to_string(),
            "checkpoints: disk full"
        );
    }

    #[test]
    fn a_failure_said_as_a_phrase_keeps_its_phrase_and_says_it_in_english() {
        let error = crate::sessions::session_not_found(&memo_protocol::SessionId::new("s1"));
        assert_eq!(error.code(), ErrorCode::NotFound);
        assert_eq!(error.to_string(), "session s1 not found");
        assert_eq!(
            error.phrase(),
            Some(&Phrase::SessionNotFound { id: "s1".into() })
        );
        let value = serde_json::to_value(error.phrase()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"code": "session_not_found", "id": "s1"})
        );
    }
}
