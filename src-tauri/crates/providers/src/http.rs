//! The HTTP side shared by every adapter: one pooled client, sending a request and turning
//! a non-2xx answer into a classified error.

use std::sync::OnceLock;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE};

use crate::classify::{classify_http, classify_stream_error};
use memo_protocol::Phrase;

use crate::{ApiKey, ProviderError};

/// Network timeouts. There is deliberately no total timeout: a long answer streams for
/// minutes. The wait for the first byte and the silences after it have limits of their
/// own: a local server reads a long prompt for minutes before it answers at all, then
/// streams steadily.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpOptions {
    pub connect_timeout: Duration,
    /// Longest silence between two chunks of the answer, once it started.
    pub read_idle_timeout: Duration,
    /// Longest wait from the request to the first byte of the answer; `None` picks by
    /// server: 30 minutes on this machine, 10 elsewhere.
    pub first_byte_timeout: Option<Duration>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(15),
            read_idle_timeout: Duration::from_secs(300),
            first_byte_timeout: None,
        }
    }
}

/// The two waits of one request, and whether the server is local (which changes what a
/// timeout means and whether it is worth sending the request again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub first_byte: Duration,
    pub idle: Duration,
    pub local: bool,
}

impl Timeouts {
    pub fn for_url(url: &str, options: &HttpOptions) -> Self {
        let local = is_loopback_url(url);
        let default_first = if local { 30 * 60 } else { 10 * 60 };
        Timeouts {
            first_byte: options
                .first_byte_timeout
                .unwrap_or(Duration::from_secs(default_first)),
            idle: options.read_idle_timeout,
            local,
        }
    }
}

impl Timeouts {
    /// The error for a wait that ran out (`first_byte`: nothing came back yet).
    pub(crate) fn expired(&self, first_byte: bool) -> ProviderError {
        ProviderError::Timeout {
            first_byte,
            after: if first_byte {
                self.first_byte
            } else {
                self.idle
            },
            local: self.local,
        }
    }
}

/// Whether `url` points at this machine (127.0.0.0/8, ::1, localhost); a bare
/// `host:port` counts as http.
pub fn is_loopback_url(url: &str) -> bool {
    let with_scheme;
    let url = if url.contains("://") {
        url
    } else {
        with_scheme = format!("http://{url}");
        &with_scheme
    };
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = parsed.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The most of an error body we read: enough for any JSON error, bounded for HTML pages.
const MAX_ERROR_BODY: usize = 64 * 1024;

pub(crate) fn build_client(options: HttpOptions) -> Result<reqwest::Client, ProviderError> {
    memo_http::builder()
        .connect_timeout(options.connect_timeout)
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
        .map_err(|e| send_error(url, &e).redact(api_key))?;
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

fn send_error(url: &str, err: &reqwest::Error) -> ProviderError {
    if err.is_builder() {
        // E.g. an API key with characters a header cannot carry: retrying will not help.
        return ProviderError::Fatal(format!("invalid request: {}", describe(err)));
    }
    let detail = describe(err);
    match unreachable_reason(&detail, err.is_connect(), err.is_timeout()) {
        Some(reason) => ProviderError::Unreachable {
            target: host_of(url),
            reason: Box::new(reason),
            detail,
        },
        None => ProviderError::Transient(detail),
    }
}

/// Why a request never reached the server, in a few words, read from the client's error
/// chain (hyper and the OS say it in their own terms).
fn unreachable_reason(chain: &str, connect: bool, timeout: bool) -> Option<Phrase> {
    let lower = chain.to_ascii_lowercase();
    let has = |needle: &str| lower.contains(needle);
    Some(if has("connection refused") || has("os error 111") {
        Phrase::ReachRefused
    } else if has("dns error")
        || has("failed to lookup address")
        || has("name or service not known")
    {
        Phrase::ReachNoHost
    } else if has("certificate") || has("tls handshake") {
        Phrase::ReachTls
    } else if has("connection reset") || has("os error 104") {
        Phrase::ReachReset
    } else if has("network is unreachable") || has("no route to host") {
        Phrase::ReachNoRoute
    } else if timeout && connect {
        Phrase::ReachTimedOut
    } else if connect {
        Phrase::ReachFailed
    } else {
        return None;
    })
}

/// `127.0.0.1:8080` of `http://127.0.0.1:8080/v1/chat/completions`.
fn host_of(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(parsed) => match (parsed.host_str(), parsed.port_or_known_default()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            _ => url.to_owned(),
        },
        Err(_) => url.to_owned(),
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
