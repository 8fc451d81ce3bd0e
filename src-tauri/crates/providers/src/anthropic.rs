//! Anthropic Messages API (`POST {base}/v1/messages`).

use std::borrow::Cow;
use std::collections::VecDeque;

use futures::future::BoxFuture;
use memo_protocol::TokenUsage;
use reqwest::header::{HeaderMap, HeaderValue};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::classify::classify_stream_error;
use crate::history::normalize;
use crate::http::{secret_header, trim_base};
use crate::http::{HttpOptions, Timeouts};
use crate::sse::SseEvent;
use crate::stream::{post_and_stream, synthesize_call_id, StreamAssembler};
use crate::{
    ApiKey, Message, ModelClient, ModelRequest, ModelResponse, ProviderError, ResponseEvent,
    ResponseStream, StopReason, ToolCall,
};

/// `max_tokens` is mandatory in this API; used when the request sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 8192;
pub const API_VERSION: &str = "2023-06-01";

/// The messages endpoint for a base such as `https://api.anthropic.com` (or `.../v1`).
pub fn request_url(base_url: &str) -> String {
    let base = trim_base(base_url);
    if base.ends_with("/v1") {
        format!("{base}/messages")
    } else {
        format!("{base}/v1/messages")
    }
}

/// The JSON body for `request`.
pub fn build_request_body(request: &ModelRequest) -> Value {
    // (role, content blocks); consecutive same-role entries are merged because the API
    // requires user/assistant alternation.
    let mut turns: Vec<(&str, Vec<Value>)> = Vec::new();
    for message in normalize(&request.messages) {
        let (role, blocks) = match message.as_ref() {
            // Images first, then the text (the order Anthropic recommends).
            Message::User { text, images } => {
                let mut blocks: Vec<Value> = images
                    .iter()
                    .map(|image| {
                        json!({
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": image.media_type,
                                "data": image.data,
                            },
                        })
                    })
                    .collect();
                blocks.extend(text_block(text));
                ("user", blocks)
            }
            Message::Assistant {
                text,
                tool_calls,
                provider_data,
                ..
            } => {
                // Thinking must come back first and byte-identical, with its signature;
                // unsigned reasoning cannot be sent back at all.
                let mut blocks = thinking_blocks(provider_data.as_ref());
                blocks.extend(text_block(text));
                blocks.extend(tool_calls.iter().map(|call| {
                    json!({
                        "type": "tool_use",
                        "id": call.id,
                        "name": call.name,
                        "input": arguments_object(&call.arguments),
                    })
                }));
                ("assistant", blocks)
            }
            Message::ToolResult {
                call_id,
                content,
                is_error,
                ..
            } => (
                "user",
                vec![json!({
                    "type": "tool_result",
                    "tool_use_id": call_id,
                    "content": content,
                    "is_error": is_error,
                })],
            ),
        };
        if blocks.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some((last_role, last_blocks)) if *last_role == role => last_blocks.extend(blocks),
            _ => turns.push((role, blocks)),
        }
    }
    let mut messages: Vec<Value> = turns
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    // The rolling breakpoint: this request writes the conversation so far to the cache,
    // and the next step (same prefix plus a little) reads it back at a tenth of the price.
    if let Some(block) = messages
        .last_mut()
        .and_then(|m| m["content"].as_array_mut())
        .and_then(|blocks| blocks.last_mut())
    {
        block["cache_control"] = cache_breakpoint();
    }
    let mut max_tokens = request.max_output_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
    });
    if let Some(budget) = request.thinking_budget_tokens {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
        // The budget is part of max_tokens and must stay below it; keep room to answer.
        if max_tokens <= budget {
            max_tokens = budget.saturating_add(DEFAULT_MAX_TOKENS);
        }
    }
    body["max_tokens"] = json!(max_tokens);
    // Extended thinking rejects any temperature but its own; Anthropic's range ends at 1.
    if let (Some(t), None) = (request.temperature, request.thinking_budget_tokens) {
        body["temperature"] = json!(t.clamp(0.0, 1.0));
    }
    if !request.system.is_empty() {
        body["system"] = json!([{
            "type": "text",
            "text": request.system,
            "cache_control": cache_breakpoint(),
        }]);
    }
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.input_schema,
                })
            })
            .collect();
        if let Some(last) = tools.last_mut() {
            last["cache_control"] = cache_breakpoint();
        }
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!({
            "type": "auto",
            "disable_parallel_tool_use": !request.parallel_tool_calls,
        });
    }
    body
}

/// Prompt caching (Anthropic's `cache_control`): a request caches its prefix up to each
/// marked block. Three marks at most of the four allowed: the system prompt and the tool
/// list (stable for a whole session) and the newest message (moves every step).
fn cache_breakpoint() -> Value {
    json!({"type": "ephemeral"})
}

/// The API rejects text blocks that are empty or only whitespace.
fn text_block(text: &str) -> Option<Value> {
    (!text.trim().is_empty()).then(|| json!({"type": "text", "text": text}))
}

/// `tool_use.input` must be an object; arguments the model got wrong are sent as `{}`
/// (the tool result already told the model what was wrong with them).
fn arguments_object(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(value @ Value::Object(_)) => value,
        _ => json!({}),
    }
}

/// The signed thinking blocks stored in `provider_data` by [`AnthropicAssembler`].
fn thinking_blocks(provider_data: Option<&Value>) -> Vec<Value> {
    provider_data
        .and_then(|data| data.get("anthropic"))
        .and_then(|data| data.get("thinking"))
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter(|block| {
                    // A stream without signature_delta leaves an empty signature, which
                    // the API rejects as invalid.
                    let non_empty = |key| {
                        block
                            .get(key)
                            .and_then(Value::as_str)
                            .is_some_and(|v| !v.is_empty())
                    };
                    match block.get("type").and_then(Value::as_str) {
                        Some("thinking") => non_empty("signature"),
                        Some("redacted_thinking") => non_empty("data"),
                        _ => false,
                    }
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

// Wire types: one flat struct for every event type, because serde's internally tagged
// enums buffer the whole event before dispatching, which costs more than parsing it.

#[derive(Deserialize)]
struct WireEvent<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    message: Option<WireMessage>,
    #[serde(borrow, default)]
    content_block: Option<WireBlock<'a>>,
    #[serde(borrow, default)]
    delta: Option<WireDelta<'a>>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireMessage {
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    thinking: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    signature: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    data: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(default)]
    input: Option<Value>,
}

#[derive(Deserialize)]
struct WireDelta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    thinking: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    signature: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    stop_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
}

#[derive(Debug)]
enum Block {
    Text,
    Thinking {
        text: String,
        signature: String,
    },
    Redacted {
        data: String,
    },
    ToolUse {
        pos: usize,
        initial_input: Option<Value>,
    },
    /// Server tools, citations and future block types: not ours to assemble.
    Other,
}

/// Assembles a Messages API stream.
#[derive(Debug, Default)]
pub struct AnthropicAssembler {
    text: String,
    reasoning: String,
    /// Content blocks by their stream index, until `content_block_stop`.
    blocks: Vec<(usize, Block)>,
    calls: Vec<ToolCall>,
    /// Finished thinking blocks, echoed back on the next request.
    thinking: Vec<Value>,
    input_tokens: u64,
    cache_read: u64,
    cache_creation: u64,
    output_tokens: u64,
    stop_reason: Option<StopReason>,
    done: bool,
}

impl AnthropicAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    fn apply_usage(&mut self, usage: &WireUsage) {
        // message_delta repeats the counters cumulatively; the latest value wins.
        if let Some(v) = usage.input_tokens {
            self.input_tokens = v;
        }
        if let Some(v) = usage.cache_read_input_tokens {
            self.cache_read = v;
        }
        if let Some(v) = usage.cache_creation_input_tokens {
            self.cache_creation = v;
        }
        if let Some(v) = usage.output_tokens {
            self.output_tokens = v;
        }
    }

    fn block_start(
        &mut self,
        index: usize,
        block: WireBlock<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) {
        let state = match block.kind.as_ref() {
            "text" => {
                if let Some(text) = block.text.filter(|t| !t.is_empty()) {
                    self.push_text(text, out);
                }
                Block::Text
            }
            "thinking" => {
                let text = block.thinking.unwrap_or_default();
                if !text.is_empty() {
                    self.reasoning.push_str(&text);
                    out.push_back(ResponseEvent::ReasoningDelta(text.to_string()));
                }
                Block::Thinking {
                    text: text.into_owned(),
                    signature: block.signature.unwrap_or_default().into_owned(),
                }
            }
            "redacted_thinking" => Block::Redacted {
                data: block.data.unwrap_or_default().into_owned(),
            },
            "tool_use" => {
                let pos = self.calls.len();
                // Results are paired with calls by id: never leave one empty.
                let id = block
                    .id
                    .filter(|id| !id.is_empty())
                    .map_or_else(|| synthesize_call_id("toolu"), Cow::into_owned);
                let name = block.name.unwrap_or_default().into_owned();
                out.push_back(ResponseEvent::ToolCallStart {
                    index: pos,
                    id: id.clone(),
                    name: name.clone(),
                });
                self.calls.push(ToolCall {
                    id,
                    name,
                    arguments: String::new(),
                });
                Block::ToolUse {
                    pos,
                    initial_input: block.input,
                }
            }
            _ => Block::Other,
        };
        self.blocks.push((index, state));
    }

    fn push_text(&mut self, text: Cow<'_, str>, out: &mut VecDeque<ResponseEvent>) {
        self.text.push_str(&text);
        out.push_back(ResponseEvent::TextDelta(text.into_owned()));
    }

    fn block_delta(
        &mut self,
        index: usize,
        delta: WireDelta<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) {
        let Some(slot) = self.blocks.iter().position(|(i, _)| *i == index) else {
            return;
        };
        match (&mut self.blocks[slot].1, delta.kind.as_deref()) {
            (Block::Text, Some("text_delta")) => {
                if let Some(text) = delta.text.filter(|t| !t.is_empty()) {
                    self.push_text(text, out);
                }
            }
            (Block::Thinking { text, .. }, Some("thinking_delta")) => {
                if let Some(piece) = delta.thinking.filter(|t| !t.is_empty()) {
                    text.push_str(&piece);
                    self.reasoning.push_str(&piece);
                    out.push_back(ResponseEvent::ReasoningDelta(piece.into_owned()));
                }
            }
            (Block::Thinking { signature, .. }, Some("signature_delta")) => {
                if let Some(piece) = delta.signature {
                    signature.push_str(&piece);
                }
            }
            (Block::ToolUse { pos, .. }, Some("input_json_delta")) => {
                let pos = *pos;
                if let Some(piece) = delta.partial_json.filter(|p| !p.is_empty()) {
                    if let Some(call) = self.calls.get_mut(pos) {
                        call.arguments.push_str(&piece);
                    }
                    out.push_back(ResponseEvent::ToolCallArgsDelta {
                        index: pos,
                        delta: piece.into_owned(),
                    });
                }
            }
            _ => {}
        }
    }

    fn block_stop(&mut self, index: usize, out: &mut VecDeque<ResponseEvent>) {
        let Some(slot) = self.blocks.iter().position(|(i, _)| *i == index) else {
            return;
        };
        let (_, block) = self.blocks.swap_remove(slot);
        self.close_block(block, out);
    }

    fn close_block(&mut self, block: Block, out: &mut VecDeque<ResponseEvent>) {
        match block {
            Block::Thinking { text, signature } => self.thinking.push(json!({
                "type": "thinking",
                "thinking": text,
                "signature": signature,
            })),
            Block::Redacted { data } => self
                .thinking
                .push(json!({"type": "redacted_thinking", "data": data})),
            Block::ToolUse { pos, initial_input } => {
                let Some(call) = self.calls.get_mut(pos) else {
                    return;
                };
                if call.arguments.trim().is_empty() {
                    // A call without arguments streams no input deltas at all. Proxies that
                    // send the whole input in content_block_start are honoured too.
                    call.arguments = match initial_input {
                        Some(input @ Value::Object(_))
                            if input.as_object().is_some_and(|o| !o.is_empty()) =>
                        {
                            input.to_string()
                        }
                        _ => "{}".to_owned(),
                    };
                    out.push_back(ResponseEvent::ToolCallArgsDelta {
                        index: pos,
                        delta: call.arguments.clone(),
                    });
                }
            }
            Block::Text | Block::Other => {}
        }
    }

    fn complete(&mut self, out: &mut VecDeque<ResponseEvent>) {
        // Blocks normally stop before message_stop; close any that did not.
        let mut open = std::mem::take(&mut self.blocks);
        open.sort_by_key(|(index, _)| *index);
        for (_, block) in open {
            self.close_block(block, out);
        }
        let provider_data = (!self.thinking.is_empty())
            .then(|| json!({"anthropic": {"thinking": std::mem::take(&mut self.thinking)}}));
        let reasoning = std::mem::take(&mut self.reasoning);
        out.push_back(ResponseEvent::Completed(ModelResponse {
            text: std::mem::take(&mut self.text),
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls: std::mem::take(&mut self.calls),
            usage: TokenUsage {
                // The API counts cached and cache-written tokens apart from input_tokens;
                // our input_tokens is the whole prompt.
                input_tokens: self
                    .input_tokens
                    .saturating_add(self.cache_read)
                    .saturating_add(self.cache_creation),
                output_tokens: self.output_tokens,
                cached_input_tokens: self.cache_read,
                reasoning_tokens: 0,
            },
            stop_reason: self.stop_reason,
            provider_data,
        }));
        self.done = true;
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" | "stop_sequence" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" | "model_context_window_exceeded" => StopReason::MaxTokens,
        "refusal" => StopReason::ContentFilter,
        _ => StopReason::Other,
    }
}

impl StreamAssembler for AnthropicAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError> {
        let data = event.data.as_ref();
        if event.event == "error" {
            return Err(classify_stream_error(data));
        }
        let wire: WireEvent<'_> = serde_json::from_str(data).map_err(|e| {
            ProviderError::Fatal(format!("unreadable event in the response stream: {e}"))
        })?;
        match wire.kind.as_ref() {
            "message_start" => {
                if let Some(usage) = wire.message.and_then(|m| m.usage) {
                    self.apply_usage(&usage);
                }
            }
            "content_block_start" => {
                if let (Some(index), Some(block)) = (wire.index, wire.content_block) {
                    self.block_start(index, block, out);
                }
            }
            "content_block_delta" => {
                if let (Some(index), Some(delta)) = (wire.index, wire.delta) {
                    self.block_delta(index, delta, out);
                }
            }
            "content_block_stop" => {
                if let Some(index) = wire.index {
                    self.block_stop(index, out);
                }
            }
            "message_delta" => {
                if let Some(reason) = wire.delta.and_then(|d| d.stop_reason) {
                    self.stop_reason = Some(stop_reason(&reason));
                }
                if let Some(usage) = wire.usage {
                    self.apply_usage(&usage);
                }
            }
            "message_stop" => self.complete(out),
            "error" => return Err(classify_stream_error(data)),
            // ping and event types added after this was written.
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut VecDeque<ResponseEvent>) -> Result<(), ProviderError> {
        if self.done {
            return Ok(());
        }
        Err(ProviderError::StreamInterrupted(
            "the connection closed before message_stop".into(),
        ))
    }

    fn is_done(&self) -> bool {
        self.done
    }
}

/// A client for the Anthropic Messages API.
pub struct AnthropicClient {
    http: reqwest::Client,
    url: String,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
}

impl AnthropicClient {
    pub fn new(http: reqwest::Client, base_url: &str, api_key: Option<ApiKey>) -> Self {
        Self {
            http,
            url: request_url(base_url),
            api_key,
            timeouts: Timeouts::for_url(base_url, &HttpOptions::default()),
        }
    }

    /// The waits for the first byte and between chunks (see [`Timeouts`]).
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }
}

impl ModelClient for AnthropicClient {
    fn is_local(&self) -> bool {
        self.timeouts.local
    }

    fn stream(
        &self,
        request: ModelRequest,
    ) -> BoxFuture<'static, Result<ResponseStream, ProviderError>> {
        let api_key = self.api_key.clone();
        let headers = (|| {
            let mut headers = HeaderMap::new();
            headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
            if let Some(key) = api_key.as_ref().filter(|k| !k.expose().is_empty()) {
                headers.insert("x-api-key", secret_header(key, "")?);
            }
            Ok(headers)
        })();
        post_and_stream(
            self.http.clone(),
            self.url.clone(),
            headers,
            &build_request_body(&request),
            AnthropicAssembler::new(),
            api_key,
            self.timeouts,
        )
    }
}

#[cfg(test)]
#[path = "anthropic_tests.rs"]
mod tests;
