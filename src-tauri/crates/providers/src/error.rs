use std::time::Duration;

use memo_protocol::{ErrorKind, Phrase};
use thiserror::Error;

use crate::ApiKey;

/// Everything that can go wrong talking to a model, classified so the retry policy and the
/// user see the right thing.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ProviderError {
    /// HTTP 429 or a provider "rate_limit" error. `retry_after` comes from the
    /// `Retry-After` (or `retry-after-ms`) header when the server sent one.
    #[error("rate limited by the provider{}: {message}", retry_after.map(|d| format!(" (retry after {}ms)", d.as_millis())).unwrap_or_default())]
    RateLimited {
        retry_after: Option<Duration>,
        message: String,
    },
    /// HTTP 529/503 or an "overloaded" error: the service is busy, retry later.
    #[error("the provider is overloaded: {message}")]
    Overloaded {
        retry_after: Option<Duration>,
        message: String,
    },
    /// The prompt is larger than the model's context window. Not retryable as is.
    #[error("the conversation is too long for the model's context window: {0}")]
    ContextOverflow(String),
    /// 401/403: bad or missing API key.
    #[error("authentication failed: {0}")]
    Auth(String),
    /// Connection refused/reset, timeouts, 5xx: worth retrying.
    #[error("network error: {0}")]
    Transient(String),
    /// The request never reached the server: said in a sentence (`Could not reach
    /// 127.0.0.1:8080 — connection refused. Is the server running?`); the client's own
    /// error chain is kept as [`ProviderError::detail`]. Worth retrying.
    #[error("{}", self.phrase().map(|p| p.english()).unwrap_or_default())]
    Unreachable {
        target: String,
        /// Why, in a few words (one of the `Reach*` phrases). Boxed: every result
        /// carrying a provider error is as large as its largest variant.
        reason: Box<Phrase>,
        detail: String,
    },
    /// The stream ended before the model finished (connection cut, missing terminal event).
    #[error("the response stream ended early: {0}")]
    StreamInterrupted(String),
    /// No byte came back in time (`first_byte`: the model may still have been reading
    /// the prompt), or the stream went silent mid-answer.
    #[error("{}", timeout_message(*first_byte, *after, *local))]
    Timeout {
        first_byte: bool,
        after: Duration,
        /// The server runs on this machine.
        local: bool,
    },
    /// Anything else: bad request, unparseable response, unsupported feature.
    #[error("provider error: {0}")]
    Fatal(String),
}

impl ProviderError {
    /// The error as a phrase a front end words in its language, where it has one.
    pub fn phrase(&self) -> Option<Phrase> {
        match self {
            ProviderError::Unreachable { target, reason, .. } => Some(match reason.as_ref() {
                Phrase::ReachRefused => Phrase::CouldNotReachRunning {
                    target: target.clone(),
                },
                Phrase::ReachNoHost => Phrase::CouldNotReachOnline {
                    target: target.clone(),
                },
                other => Phrase::CouldNotReach {
                    target: target.clone(),
                    reason: Box::new(other.clone()),
                },
            }),
            _ => None,
        }
    }
}

fn timeout_message(first_byte: bool, after: Duration, local: bool) -> String {
    let minutes = after.as_secs().div_ceil(60);
    match (first_byte, local) {
        (true, true) => format!(
            "the local model server sent nothing for {minutes} min; it may still be reading the \
             prompt (a long prompt on a CPU takes minutes). Not sent again: raise \
             first_byte_timeout_sec for this provider, or use a shorter conversation"
        ),
        (true, false) => format!("the model sent nothing for {minutes} min after the request"),
        (false, _) => format!("the model stopped sending for {minutes} min mid-answer"),
    }
}

impl ProviderError {
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            ProviderError::RateLimited { .. }
                | ProviderError::Overloaded { .. }
                | ProviderError::Transient(_)
                | ProviderError::Unreachable { .. }
                | ProviderError::StreamInterrupted(_)
        ) || matches!(
            // A stalled stream from a remote service is worth another try; waiting again
            // for a first byte, or resending a long prompt to a local server, is not.
            self,
            ProviderError::Timeout {
                first_byte: false,
                local: false,
                ..
            }
        )
    }

    /// The delay the server asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ProviderError::RateLimited { retry_after, .. }
            | ProviderError::Overloaded { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Removes the API key from the message. Providers sometimes echo the key they were
    /// sent ("Incorrect API key provided: sk-..."), and error messages end up in logs and UI.
    pub fn redact(self, key: Option<&ApiKey>) -> Self {
        let Some(secret) = key.map(ApiKey::expose).filter(|s| !s.is_empty()) else {
            return self;
        };
        let clean = |message: String| {
            let message = if message.contains(secret) {
                message.replace(secret, "<redacted>")
            } else {
                message
            };
            redact_cut_key(message, secret)
        };
        match self {
            ProviderError::RateLimited {
                retry_after,
                message,
            } => ProviderError::RateLimited {
                retry_after,
                message: clean(message),
            },
            ProviderError::Overloaded {
                retry_after,
                message,
            } => ProviderError::Overloaded {
                retry_after,
                message: clean(message),
            },
            ProviderError::ContextOverflow(m) => ProviderError::ContextOverflow(clean(m)),
            ProviderError::Auth(m) => ProviderError::Auth(clean(m)),
            ProviderError::Transient(m) => ProviderError::Transient(clean(m)),
            ProviderError::Unreachable {
                target,
                reason,
                detail,
            } => ProviderError::Unreachable {
                target: clean(target),
                reason,
                detail: clean(detail),
            },
            ProviderError::StreamInterrupted(m) => ProviderError::StreamInterrupted(clean(m)),
            ProviderError::Fatal(m) => ProviderError::Fatal(clean(m)),
            timeout @ ProviderError::Timeout { .. } => timeout,
        }
    }

    /// The technical detail behind a message written for people (the HTTP client's error
    /// chain), for a disclosure under it.
    pub fn detail(&self) -> Option<String> {
        match self {
            ProviderError::Unreachable { detail, .. } => Some(detail.clone()),
            _ => None,
        }
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            ProviderError::RateLimited { .. } => ErrorKind::RateLimited,
            ProviderError::Overloaded { .. } => ErrorKind::Overloaded,
            ProviderError::ContextOverflow(_) => ErrorKind::ContextOverflow,
            ProviderError::Auth(_) => ErrorKind::Auth,
            ProviderError::Transient(_)
            | ProviderError::Unreachable { .. }
            | ProviderError::StreamInterrupted(_)
            | ProviderError::Timeout { .. } => ErrorKind::Network,
            ProviderError::Fatal(_) => ErrorKind::Provider,
        }
    }
}

/// The marker `classify` appends to a message it shortened.
const TRUNCATION_MARK: char = '…';

/// Messages are shortened before they can be redacted, so a key echoed at the cut survives
/// as a prefix followed by the truncation mark: remove that prefix too.
fn redact_cut_key(message: String, secret: &str) -> String {
    let Some(head) = message.strip_suffix(TRUNCATION_MARK) else {
        return message;
    };
    // Shorter fragments reveal nothing and would only garble ordinary text.
    let min = secret.len().min(4);
    let cut = (min..secret.len())
        .rev()
        .filter(|&len| secret.is_char_boundary(len))
        .find(|&len| head.ends_with(&secret[..len]));
    match cut {
        Some(len) => format!("{}<redacted>{TRUNCATION_MARK}", &head[..head.len() - len]),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_removes_a_key_cut_by_truncation() {
        // classify() cuts long messages at 1000 characters before redaction can run: a key
        // echoed right at the cut must not survive as a prefix.
        let key = ApiKey::new("sk-secret-0123456789abcdef");
        let body = format!(
            r#"{{"error":{{"message":"{}Incorrect API key provided: sk-secret-0123456789abcdef"}}}}"#,
            "x".repeat(1000 - 40)
        );
        let err = crate::classify_http(401, &reqwest::header::HeaderMap::new(), &body);
        let shown = err.redact(Some(&key)).to_string();
        assert!(!shown.contains("sk-secret-01"), "{shown}");
        // Ordinary text that merely ends like the start of a key is left alone.
        let plain = ProviderError::Fatal("use sk".into()).redact(Some(&key));
        assert_eq!(plain, ProviderError::Fatal("use sk".into()));
    }

    #[test]
    fn redact_removes_the_key_everywhere() {
        let key = ApiKey::new("sk-secret-123");
        let err = ProviderError::Auth("Incorrect API key provided: sk-secret-123.".into());
        let shown = err.redact(Some(&key)).to_string();
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("<redacted>"));
        let limited = ProviderError::RateLimited {
            retry_after: None,
            message: "key sk-secret-123".into(),
        };
        assert!(!limited.redact(Some(&key)).to_string().contains("secret"));
        // An empty key must not turn every message into a redaction marker soup.
        let empty = ApiKey::new("");
        assert_eq!(
            ProviderError::Fatal("x".into()).redact(Some(&empty)),
            ProviderError::Fatal("x".into())
        );
    }
}
