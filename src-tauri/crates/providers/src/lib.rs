//! Model clients. Each wire adapter turns a provider-neutral [`ModelRequest`] into one HTTP
//! request and its SSE response into a stream of [`ResponseEvent`]s.
//!
//! Retrying is not done inside a client: a retry may have to discard deltas the user already
//! saw, which only the turn loop can announce. [`RetryPolicy`] computes the delays.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod anthropic;
mod classify;
mod error;
pub mod gemini;
mod history;
mod http;
pub mod openai;
mod retry;
pub mod sse;
mod stream;
#[cfg(test)]
mod test_util;

pub use classify::{classify, classify_http, classify_stream_error};
pub use error::ProviderError;
pub use http::{is_loopback_url, HttpOptions, Timeouts};
/// The model-facing types live in `memo-model`; every client here speaks them.
// The model types, for this crate's own modules; other crates import them from memo-model.
use memo_model::*;
pub use retry::RetryPolicy;
pub use stream::{decode_all, SseDecoder, StreamAssembler};

use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;

/// The stream of one model call: deltas, then exactly one [`ResponseEvent::Completed`], or
/// an `Err` item, after which the stream ends. Dropping it aborts the HTTP call.
pub type ResponseStream = BoxStream<'static, Result<ResponseEvent, ProviderError>>;

/// A model service speaking one wire protocol.
pub trait ModelClient: Send + Sync {
    /// Sends the request and resolves once the response headers arrived: HTTP errors
    /// (429, 5xx, 401...) surface here; errors inside the stream surface as stream items.
    fn stream(
        &self,
        request: ModelRequest,
    ) -> BoxFuture<'static, Result<ResponseStream, ProviderError>>;

    /// Whether the server runs on this machine (a slow first byte is normal there).
    fn is_local(&self) -> bool {
        false
    }
}

/// Where and how to reach a provider.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub api: WireApi,
    /// e.g. `https://api.openai.com/v1`, `https://api.anthropic.com`,
    /// `https://generativelanguage.googleapis.com`.
    pub base_url: String,
    pub api_key: Option<ApiKey>,
}

/// Creates the client for `endpoint`, sharing one HTTP connection pool with every other
/// client created this way.
pub fn create_client(endpoint: Endpoint) -> Result<Arc<dyn ModelClient>, ProviderError> {
    http::check_base_url(&endpoint.base_url)?;
    Ok(client_for(
        endpoint,
        http::shared_client()?,
        &HttpOptions::default(),
    ))
}

/// Like [`create_client`] with its own HTTP client and timeouts (tests, unusual networks).
pub fn create_client_with_options(
    endpoint: Endpoint,
    options: HttpOptions,
) -> Result<Arc<dyn ModelClient>, ProviderError> {
    http::check_base_url(&endpoint.base_url)?;
    Ok(client_for(endpoint, http::build_client(options)?, &options))
}

fn client_for(
    endpoint: Endpoint,
    http: reqwest::Client,
    options: &HttpOptions,
) -> Arc<dyn ModelClient> {
    let Endpoint {
        api,
        base_url,
        api_key,
    } = endpoint;
    let timeouts = Timeouts::for_url(&base_url, options);
    match api {
        WireApi::Openai => {
            Arc::new(openai::OpenAiClient::new(http, &base_url, api_key).with_timeouts(timeouts))
        }
        WireApi::Anthropic => Arc::new(
            anthropic::AnthropicClient::new(http, &base_url, api_key).with_timeouts(timeouts),
        ),
        WireApi::Gemini => {
            Arc::new(gemini::GeminiClient::new(http, &base_url, api_key).with_timeouts(timeouts))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_client_validates_the_base_url() {
        for (api, base) in [
            (WireApi::Openai, "https://api.openai.com/v1"),
            (WireApi::Anthropic, "https://api.anthropic.com"),
            (WireApi::Gemini, "http://127.0.0.1:8080"),
        ] {
            let endpoint = Endpoint {
                api,
                base_url: base.into(),
                api_key: None,
            };
            assert!(create_client(endpoint).is_ok(), "{base}");
        }
        for base in ["", "api.openai.com/v1", "ftp://host"] {
            let endpoint = Endpoint {
                api: WireApi::Openai,
                base_url: base.into(),
                api_key: None,
            };
            assert!(
                matches!(create_client(endpoint), Err(ProviderError::Fatal(_))),
                "{base:?}"
            );
        }
    }
}
