//! Keeping secrets out of logs.
//!
//! [`ApiKey`] already hides itself in `Debug`/`Display`, but a key can still reach a log
//! through text that merely contains it: a request URL with `?key=...` (Gemini), an echoed
//! error body, a header dump. So every key the process learns is registered here, and the
//! log writer replaces any registered secret in the finished line with `[REDACTED]`.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::sync::{PoisonError, RwLock};

use memo_model::ApiKey;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// What a registered secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Shorter strings are not real API keys and would be found inside ordinary words,
/// mangling the logs; they are not registered.
pub const MIN_SECRET_LEN: usize = 8;

/// Registered secrets, longest first so a secret containing another is replaced whole.
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Registers a key so it is redacted from all log output of this process from now on.
pub fn register_secret(key: &ApiKey) {
    register_secret_str(key.expose());
}

/// Same as [`register_secret`] for secrets that are not API keys (bearer tokens, ...).
pub fn register_secret_str(secret: &str) {
    let secret = secret.trim();
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    // A writer that panicked mid-redaction cannot have left the list half-updated (pushes
    // and sorts are not interrupted by our code), so a poisoned lock is still usable.
    let mut secrets = SECRETS.write().unwrap_or_else(PoisonError::into_inner);
    if secrets.iter().any(|s| s == secret) {
        return;
    }
    secrets.push(secret.to_owned());
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every registered secret replaced by [`REDACTED`].
pub fn redact(text: &str) -> Cow<'_, str> {
    match redact_bytes(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Secrets are whole UTF-8 strings and the replacement is ASCII, so replacing them
        // in valid UTF-8 yields valid UTF-8; the lossy conversion never actually loses.
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// Byte version of [`redact`], for writers that may see partial UTF-8.
pub fn redact_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    let secrets = SECRETS.read().unwrap_or_else(PoisonError::into_inner);
    let mut out: Cow<'_, [u8]> = Cow::Borrowed(bytes);
    for secret in secrets.iter() {
        if let Some(replaced) = replace_all(&out, secret.as_bytes(), REDACTED.as_bytes()) {
            out = Cow::Owned(replaced);
        }
    }
    out
}

/// `None` when `needle` does not occur (the common case: no allocation).
fn replace_all(hay: &[u8], needle: &[u8], with: &[u8]) -> Option<Vec<u8>> {
    if needle.is_empty() || !hay.windows(needle.len()).any(|w| w == needle) {
        return None;
    }
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    Some(out)
}

/// A [`MakeWriter`] that redacts registered secrets from everything written through it.
///
/// Each writer buffers until it is flushed or dropped; `tracing_subscriber::fmt` writes
/// one whole formatted event per writer, so a secret is never split across two writes.
#[derive(Debug, Clone)]
pub struct RedactingMakeWriter<M> {
    inner: M,
}

impl<M> RedactingMakeWriter<M> {
    pub fn new(inner: M) -> Self {
        Self { inner }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for RedactingMakeWriter<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter::new(self.inner.make_writer())
    }

    fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> Self::Writer {
        RedactingWriter::new(self.inner.make_writer_for(meta))
    }
}

/// The writer of [`RedactingMakeWriter`].
pub struct RedactingWriter<W: Write> {
    inner: W,
    buf: Vec<u8>,
}

impl<W: Write> RedactingWriter<W> {
    fn new(inner: W) -> Self {
        Self {
            inner,
            buf: Vec::new(),
        }
    }

    fn write_out(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let result = self.inner.write_all(&redact_bytes(&self.buf));
        self.buf.clear();
        result
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_out()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for RedactingWriter<W> {
    fn drop(&mut self) {
        // Nowhere to report a failed log write; losing the line beats panicking in drop.
        let _ = self.write_out();
        let _ = self.inner.flush();
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TracingInitError {
    #[error("invalid log filter {filter:?}: {message}")]
    Filter { filter: String, message: String },
    #[error("a global tracing subscriber is already installed: {0}")]
    AlreadyInstalled(String),
}

/// Installs the global log subscriber used by the CLI and the app: human-readable lines
/// on stderr, filtered by `filter` (EnvFilter syntax, e.g. `info,memo_engine=debug`), with
/// registered secrets redacted. `RUST_LOG`, when set, replaces `filter`.
pub fn init_tracing(filter: &str) -> Result<(), TracingInitError> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(from_env) if !from_env.trim().is_empty() => from_env,
        _ => filter.to_owned(),
    };
    let env_filter = EnvFilter::try_new(&filter).map_err(|e| TracingInitError::Filter {
        filter: filter.clone(),
        message: e.to_string(),
    })?;
    tracing_subscriber::fmt()
        .with_env_filter(env_filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(RedactingMakeWriter::new(std::io::stderr))
        .try_init()
        .map_err(|e| TracingInitError::AlreadyInstalled(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A log sink the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn registered_key_is_redacted_from_log_lines() {
        let key = ApiKey::new("sk-test-0123456789abcdef");
        register_secret(&key);
        let sink = Captured::default();
        let writer = {
            let sink = sink.clone();
            RedactingMakeWriter::new(move || sink.clone())
        };
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(writer)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let url = format!("https://example.com/v1?key={}", key.expose());
            tracing::info!(%url, header = key.expose(), "calling {}", key.expose());
            tracing::warn!("nothing secret here");
        });
        let out = sink.text();
        assert!(!out.contains(key.expose()), "leaked: {out}");
        assert_eq!(out.matches(REDACTED).count(), 3, "{out}");
        assert!(
            out.contains("https://example.com/v1?key=[REDACTED]"),
            "{out}"
        );
        assert!(out.contains("nothing secret here"), "{out}");
    }

    #[test]
    fn longer_secret_wins_and_short_strings_are_ignored() {
        register_secret_str("abcdefgh-long-secret");
        register_secret_str("abcdefgh");
        register_secret_str("short");
        assert_eq!(
            redact("x abcdefgh-long-secret y abcdefgh z short"),
            "x [REDACTED] y [REDACTED] z short"
        );
        assert!(matches!(redact("plain text"), Cow::Borrowed(_)));
    }

    #[test]
    fn partial_writes_are_joined_before_redaction() {
        register_secret_str("split-secret-value");
        let sink = Captured::default();
        {
            let mut w = RedactingWriter::new(sink.clone());
            w.write_all(b"a split-sec").unwrap();
            w.write_all(b"ret-value b\n").unwrap();
        }
        assert_eq!(sink.text(), "a [REDACTED] b\n");
    }
}
