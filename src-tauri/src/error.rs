//! The one error shape that crosses IPC.
//!
//! The engine service reports a typed [`ServiceError`]; the shell turns it into a
//! [`IpcError`] with a stable `code` (generated for TypeScript, like everything else
//! that crosses IPC) so the UI branches on the code and on `retryable`, never on text.

use memo_protocol::{ErrorCode, Phrase};
use memo_service::ServiceError;
use serde::Serialize;
use ts_rs::TS;

/// Serialized as `{ "code": "...", "message": "...", "retryable": bool }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[ts(rename = "IpcErrorPayload")]
#[error("{}: {message}", code.as_str())]
pub struct IpcError {
    pub code: ErrorCode,
    /// In English: for logs, and for a front end with no words for `phrase`.
    pub message: String,
    pub retryable: bool,
    /// The message as a phrase the window words in its language, where Rust said it so.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub phrase: Option<Phrase>,
}

impl IpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        // Only `Unavailable` is retryable by default: every other code describes a
        // condition that the same request will hit again.
        let retryable = matches!(code, ErrorCode::Unavailable);
        Self {
            code,
            message: message.into(),
            retryable,
            phrase: None,
        }
    }
}

impl From<ServiceError> for IpcError {
    fn from(error: ServiceError) -> Self {
        Self {
            code: error.code(),
            retryable: error.retryable(),
            message: error.to_string(),
            phrase: error.phrase().cloned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The UI's tests parse the same fixture, so a change to the wire shape on either side
    /// fails a test instead of surfacing as an `undefined` in the UI.
    const WIRE_FIXTURE: &str = include_str!("../../ui/src/ipc/fixtures/ipc-error.json");

    #[test]
    fn serializes_to_the_shape_the_ui_expects() {
        let error = IpcError::new(ErrorCode::Unavailable, "engine is starting");
        let actual = serde_json::to_value(&error).unwrap();
        let expected: serde_json::Value = serde_json::from_str(WIRE_FIXTURE).unwrap();
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_unavailable_is_retryable_by_default() {
        for code in ErrorCode::ALL {
            let retryable = IpcError::new(code, "x").retryable;
            assert_eq!(retryable, code == ErrorCode::Unavailable, "{code:?}");
        }
    }

    #[test]
    fn service_errors_keep_their_code_and_message() {
        let mapped = IpcError::from(ServiceError::not_found(Phrase::SessionNotFound {
            id: "s".into(),
        }));
        assert_eq!(mapped.code, ErrorCode::NotFound);
        assert_eq!(mapped.message, "session s not found");
        assert!(!mapped.retryable);
    }

    #[test]
    fn a_failure_said_as_a_phrase_crosses_with_its_phrase_and_its_english() {
        let said = ServiceError::said(
            ErrorCode::InvalidInput,
            Phrase::FolderMissing {
                path: "/home/me/projcet".into(),
            },
        );
        let actual = serde_json::to_value(IpcError::from(said)).unwrap();
        let expected: serde_json::Value = serde_json::from_str(include_str!(
            "../../ui/src/ipc/fixtures/ipc-error-phrase.json"
        ))
        .unwrap();
        assert_eq!(actual, expected);
    }
}
