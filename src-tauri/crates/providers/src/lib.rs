//! Model clients. Each wire adapter turns a provider-neutral [`ModelRequest`] into one HTTP
//! request and its SSE response into a stream of [`ResponseEvent`]s.
//!
//! Retrying is not done inside a client: a retry may have to discard deltas the user already
//! saw, which only the turn loop can announce. [`RetryPolicy`] computes the delays.

mod error;
mod secret;
mod types;

pub use error::ProviderError;
pub use secret::ApiKey;
pub use types::*;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

/// The stream of one model call.
pub type ResponseStream = BoxStream<'static, Result<ResponseEvent, ProviderError>>;

/// A model service speaking one wire protocol.
pub trait ModelClient: Send + Sync {
    /// Sends the request and resolves once the response headers arrived: HTTP errors
    /// (429, 5xx, 401...) surface here; errors inside the stream surface as stream items.
    fn stream(&self, request: ModelRequest) -> BoxFuture<'static, Result<ResponseStream, ProviderError>>;
}

/// Which wire protocol a provider speaks (`api = "..."` in config.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireApi {
    /// OpenAI chat completions and compatible servers (DeepSeek, Qwen, Ollama, vLLM...).
    #[default]
    Openai,
    Anthropic,
    Gemini,
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
