//! The HTTP side shared by every adapter: one pooled client, sending a request and turning
//! a non-2xx answer into a classified error.

use std::sync::OnceLock;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE};

use crate::classify::{classify_http, classify_stream_error};
use crate::{ApiKey, ProviderError};

/// Network timeouts. There is deliberately no total timeout: a long answer streams for
/// minutes, and the idle timeout already catches a server that went silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpOptions {
    pub connect_timeout: Duration,
    /// Longest silence between two reads of the body (or before the headers arrive).
    /// Generous because reasoning models and local servers processing a long prompt can
    /// think for minutes before the first byte.
    pub read_idle_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(15),
            read_idle_timeout: Duration::from_secs(300),
        }
    }
}

/// The most of an error body we read: enough for any JSON error, bounded for HTML pages.
const MAX_ERROR_BODY: usize = 64 * 1024;

pub(crate) fn build_client(options: HttpOptions) -> Result<reqwest::Client, ProviderError> {
    reqwest::Client::builder()
        .connect_timeout(options.connect_timeout)
        .read_timeout(options.read_idle_timeout)
        .user_agent(concat!("memo-desktop/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| {
            ProviderError::Fatal(format!("cannot create the HTTP client: {}", describe(&e)))
        })
}

/// The process-wide client with default options, so every adapter shares one connection
/// pool (and TLS session cache).
pub(crate) fn shared_client() -> Result<reqwest::Client, ProviderError> {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    if let Some(client) = CLIENT.get() {
        return Ok(client.clone());
    }
    let client = build_client(HttpOptions::default())?;
    Ok(CLIENT.get_or_init(|| client).clone())
}

/// Posts `body` as JSON expecting an SSE answer. Resolves once the headers are in: a 2xx
/// response is returned for streaming, anything else becomes a classified error.
pub(crate) async fn post_sse(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: Vec<u8>,
    api_key: Option<&ApiKey>,
) -> Result<reqwest::Response, ProviderError> {
    let response = client
        .post(url)
        .headers(headers)
        .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
        .header(ACCEPT, HeaderValue::from_static("text/event-stream"))
        .body(body)
        .send()
        .await
        .map_err(|e| send_error(&e).redact(api_key))?;
    let status = response.status();
    let headers = response.headers().clone();
    if !status.is_success() {
        let body = read_error_body(response).await;
        return Err(classify_http(status.as_u16(), &headers, &body).redact(api_key));
    }
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if is_json {
        // Some gateways answer errors with 200 and a JSON body, and some servers ignore
        // `stream: true`. Either way there is no event stream; say why instead of
        // reporting a confusing "stream ended early" that would be retried in vain.
        let body = read_error_body(response).await;
        let err = if body.contains("\"error\"") {
            classify_stream_error(&body)
        } else {
            ProviderError::Fatal(format!(
                "the server answered with JSON instead of an event stream: {}",
                body.chars().take(300).collect::<String>()
            ))
        };
        return Err(err.redact(api_key));
    }
    Ok(response)
}

async fn read_error_body(mut response: reqwest::Response) -> String {
    let mut bytes = Vec::new();
    // A failure mid-body still leaves the status to classify by; keep what arrived.
    while let Ok(Some(chunk)) = response.chunk().await {
        bytes.extend_from_slice(&chunk);
        if bytes.len() >= MAX_ERROR_BODY {
            bytes.truncate(MAX_ERROR_BODY);
            break;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn send_error(err: &reqwest::Error) -> ProviderError {
    if err.is_builder() {
        // E.g. an API key with characters a header cannot carry: retrying will not help.
        ProviderError::Fatal(format!("invalid request: {}", describe(err)))
    } else {
        ProviderError::Transient(describe(err))
    }
}

/// The error with its causes ("error sending request ...: connection refused"): reqwest's
/// own message hides the part that tells the user what actually happened.
pub(crate) fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// Rejects a base URL reqwest could not use, so a config typo fails when the client is
/// created rather than as a puzzling error on the first request.
pub(crate) fn check_base_url(base: &str) -> Result<(), ProviderError> {
    let url = reqwest::Url::parse(base)
        .map_err(|e| ProviderError::Fatal(format!("invalid base URL {base:?}: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ProviderError::Fatal(format!(
            "invalid base URL {base:?}: only http and https are supported"
        )));
    }
    Ok(())
}

/// `base` without trailing slashes, so joining paths never yields `//`.
pub(crate) fn trim_base(base: &str) -> &str {
    base.trim_end_matches('/')
}

/// A header value holding a secret; marked sensitive so reqwest/hyper never log it.
pub(crate) fn secret_header(key: &ApiKey, prefix: &str) -> Result<HeaderValue, ProviderError> {
    let mut value = HeaderValue::from_str(&format!("{prefix}{}", key.expose())).map_err(|_| {
        ProviderError::Fatal("the API key contains characters not allowed in an HTTP header".into())
    })?;
    value.set_sensitive(true);
    Ok(value)
}
