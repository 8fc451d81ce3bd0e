//! What a conversation with a model is made of, and nothing that talks to one: the
//! provider-neutral request and response, messages, tool specs and calls, the API key and
//! which wire protocol a provider speaks. Config, tools and context build and read these
//! without depending on the HTTP clients in `memo-providers`, which re-exports them.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod secret;
mod types;

use serde::{Deserialize, Serialize};

pub use secret::ApiKey;
pub use types::*;

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

impl WireApi {
    /// The name config.toml uses (`api = "anthropic"`).
    pub fn as_str(self) -> &'static str {
        match self {
            WireApi::Openai => "openai",
            WireApi::Anthropic => "anthropic",
            WireApi::Gemini => "gemini",
        }
    }
}
