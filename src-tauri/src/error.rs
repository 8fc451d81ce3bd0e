//! The one error shape that crosses IPC.
//!
//! Library crates keep their own `thiserror` enums; the shell maps each of them into a
//! [`CommandError`] so the UI can branch on a stable `code` and decide whether to offer a
//! retry, instead of pattern-matching on message text.

use serde::Serialize;

/// Stable, machine-readable error categories. The UI switches on these strings
/// (see `ui/src/ipc/errors.ts`), so renaming a variant is a breaking change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request itself was malformed (bad argument, unknown id).
    InvalidInput,
    /// Something the request refers to does not exist.
    NotFound,
    /// Filesystem or OS-level failure.
    Io,
    /// A dependency is temporarily unavailable; retrying may succeed.
    Unavailable,
    /// The environment is not set up the way Memo needs (e.g. no home directory).
    Config,
    /// A provider needs an API key and none is stored or set in the environment; the UI
    /// offers to store one.
    MissingKey,
    /// A bug or an invariant violation on the Rust side.
    Internal,
}

/// Serialized as `{ "code": "...", "message": "...", "retryable": bool }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
    pub retryable: bool,
}

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        // Only `Unavailable` is retryable by default: every other code describes a
        // condition that the same request will hit again.
        let retryable = matches!(code, ErrorCode::Unavailable);
        Self {
            code,
            message: message.into(),
            retryable,
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Internal, message)
    }
}

impl From<memo_store::StoreError> for CommandError {
    fn from(error: memo_store::StoreError) -> Self {
        let code = match &error {
            memo_store::StoreError::UnknownSession(_) => ErrorCode::NotFound,
            _ => ErrorCode::Io,
        };
        CommandError::new(code, error.to_string())
    }
}

impl From<std::io::Error> for CommandError {
    fn from(error: std::io::Error) -> Self {
        use std::io::ErrorKind;
        let code = match error.kind() {
            ErrorKind::NotFound => ErrorCode::NotFound,
            ErrorKind::InvalidInput | ErrorKind::InvalidData => ErrorCode::InvalidInput,
            _ => ErrorCode::Io,
        };
        let retryable = matches!(
            error.kind(),
            ErrorKind::Interrupted | ErrorKind::WouldBlock | ErrorKind::TimedOut
        );
        Self {
            code,
            message: error.to_string(),
            retryable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The UI's tests parse the same fixture, so a change to the wire shape on either side
    /// fails a test instead of surfacing as an `undefined` in the UI.
    const WIRE_FIXTURE: &str = include_str!("../../ui/src/ipc/fixtures/command-error.json");

    #[test]
    fn serializes_to_the_shape_the_ui_expects() {
        let error = CommandError::new(ErrorCode::Unavailable, "engine is starting");
        let actual = serde_json::to_value(&error).unwrap();
        let expected: serde_json::Value = serde_json::from_str(WIRE_FIXTURE).unwrap();
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_unavailable_is_retryable_by_default() {
        assert!(CommandError::new(ErrorCode::Unavailable, "x").retryable);
        for code in [
            ErrorCode::InvalidInput,
            ErrorCode::NotFound,
            ErrorCode::Io,
            ErrorCode::Config,
            ErrorCode::MissingKey,
            ErrorCode::Internal,
        ] {
            assert!(!CommandError::new(code, "x").retryable, "{code:?}");
        }
    }

    #[test]
    fn io_errors_keep_their_category() {
        let missing = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        assert_eq!(CommandError::from(missing).code, ErrorCode::NotFound);

        let timed_out = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        let mapped = CommandError::from(timed_out);
        assert_eq!(mapped.code, ErrorCode::Io);
        assert!(mapped.retryable);
    }
}
