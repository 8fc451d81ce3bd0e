//! Provider-neutral request/response types. Each wire adapter translates these to and
//! from its own JSON; the turn loop only ever sees these.

use std::sync::Arc;

use memo_protocol::TokenUsage;
use serde::{Deserialize, Serialize};

/// One call to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    pub model: String,
    /// The system prompt (OpenAI: first `system` message; Anthropic: `system`;
    /// Gemini: `systemInstruction`).
    pub system: String,
    /// Shared with the session's live history: a step's request costs no copy of it.
    pub messages: Arc<Vec<Message>>,
    pub tools: Vec<ToolSpec>,
    /// Whether the model may ask for several tool calls in one step.
    pub parallel_tool_calls: bool,
    pub max_output_tokens: Option<u32>,
    /// Ask for extended thinking with this many tokens of budget (Anthropic `thinking`,
    /// Gemini `thinkingConfig`); `None` leaves the model's default. OpenAI-style APIs
    /// have no such field and ignore it.
    pub thinking_budget_tokens: Option<u32>,
    /// Sampling temperature (0–2); `None` leaves the server's default. Anthropic takes
    /// 0–1 and none at all while thinking.
    pub temperature: Option<f64>,
}

/// A tool definition as sent in the API's `tools` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// JSON schema of the arguments object.
    pub input_schema: serde_json::Value,
}

/// The conversation history, provider-neutral.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    User {
        text: String,
        /// Images sent with the text (OpenAI `image_url` data URLs, Anthropic base64
        /// `image` blocks, Gemini `inlineData` parts). Absent in histories stored before
        /// images existed.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<ImagePart>,
    },
    Assistant {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reasoning: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        /// Opaque data the provider needs back on the next request (Anthropic thinking
        /// signatures, Gemini thought signatures).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider_data: Option<serde_json::Value>,
    },
    /// The result of one tool call; always follows the assistant message that asked for it.
    ToolResult {
        call_id: String,
        /// Gemini pairs results by function name, so the name travels with the result.
        name: String,
        content: String,
        is_error: bool,
    },
}

impl Message {
    /// A user message of text only.
    pub fn user(text: impl Into<String>) -> Message {
        Message::User {
            text: text.into(),
            images: Vec::new(),
        }
    }
}

/// An image in a user message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePart {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// The bytes, base64 (standard alphabet, padded), shared: cloning a history (a
    /// request's copy-on-write snapshot) never copies an image.
    pub data: Arc<str>,
}

impl ImagePart {
    /// The `data:` URL of the image (OpenAI's `image_url`).
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.media_type, self.data)
    }
}

/// A complete tool call as requested by the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The raw argument text. Not parsed here: invalid JSON must reach the turn loop so it
    /// can be reported back to the model instead of failing the stream.
    pub arguments: String,
}

/// Why the model stopped producing output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    ToolUse,
    MaxTokens,
    ContentFilter,
    Other,
}

/// Incremental events of one streamed model call.
///
/// Adapters emit deltas as they arrive and finish with exactly one [`ResponseEvent::Completed`]
/// carrying the fully assembled step; a stream that ends without it is an error
/// (memo-providers' `ProviderError::StreamInterrupted`).
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseEvent {
    TextDelta(String),
    ReasoningDelta(String),
    /// A tool call started. `index` is the position of the call within this step.
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
    },
    ToolCallArgsDelta {
        index: usize,
        delta: String,
    },
    Completed(ModelResponse),
}

/// The assembled result of one model call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelResponse {
    pub text: String,
    pub reasoning: Option<String>,
    /// In the order the model produced them (by index for OpenAI, by block for Anthropic).
    pub tool_calls: Vec<ToolCall>,
    pub usage: TokenUsage,
    pub stop_reason: Option<StopReason>,
    /// Opaque data to store unchanged in the next `Message::Assistant` `provider_data` so the same
    /// adapter can send it back: `{"anthropic":{"thinking":[signed thinking blocks]}}` or
    /// `{"gemini":{"text_signature":..,"call_signatures":{call_id: signature}}}`. Each
    /// adapter ignores the other's key, so switching providers mid-session is safe.
    pub provider_data: Option<serde_json::Value>,
}
