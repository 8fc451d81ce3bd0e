//! OpenAI chat completions (`POST {base}/chat/completions`), also spoken by DeepSeek, Qwen,
//! Ollama, llama.cpp, vLLM and most other compatible servers.

use std::borrow::Cow;
use std::collections::VecDeque;

use futures::future::BoxFuture;
use memo_protocol::TokenUsage;
use reqwest::header::{HeaderMap, AUTHORIZATION};
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

/// The chat completions endpoint for a base such as `https://api.openai.com/v1`.
pub fn request_url(base_url: &str) -> String {
    format!("{}/chat/completions", trim_base(base_url))
}

/// The JSON body for `request` (streaming, usage included).
pub fn build_request_body(request: &ModelRequest) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for message in normalize(&request.messages) {
        messages.push(match message.as_ref() {
            Message::User { text, images } if images.is_empty() => {
                json!({"role": "user", "content": text})
            }
            // With images the content becomes a list of parts: the text, then each image
            // as a data URL.
            Message::User { text, images } => {
                let mut parts = Vec::with_capacity(images.len() + 1);
                if !text.is_empty() {
                    parts.push(json!({"type": "text", "text": text}));
                }
                parts.extend(images.iter().map(
                    |image| json!({"type": "image_url", "image_url": {"url": image.data_url()}}),
                ));
                json!({"role": "user", "content": parts})
            }
            // An empty turn says nothing, and some compatible servers reject empty content.
            Message::Assistant {
                text, tool_calls, ..
            } if text.is_empty() && tool_calls.is_empty() => continue,
            Message::Assistant {
                text,
                tool_calls,
                reasoning,
                provider_data,
            } => {
                let mut msg = json!({"role": "assistant"});
                // DeepSeek (and Kimi) thinking mode: once a tool was called between two user
                // messages, every assistant message in between must get its reasoning back
                // on later requests, or the server answers 400 (elsewhere it is ignored).
                // Only for servers that sent the field themselves: strict ones (OpenAI) may
                // reject a field they do not know.
                if echoes_reasoning(provider_data.as_ref()) {
                    msg["reasoning_content"] = json!(reasoning.as_deref().unwrap_or(""));
                }
                if tool_calls.is_empty() {
                    msg["content"] = json!(text);
                } else {
                    // Several servers reject `""` next to tool calls; null is the documented form.
                    msg["content"] = if text.is_empty() {
                        Value::Null
                    } else {
                        json!(text)
                    };
                    msg["tool_calls"] = tool_calls
                        .iter()
                        .map(|call| {
                            json!({
                                "id": call.id,
                                "type": "function",
                                "function": {"name": call.name, "arguments": call.arguments},
                            })
                        })
                        .collect();
                }
                msg
            }
            Message::ToolResult {
                call_id, content, ..
            } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
        });
    }
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                })
            })
            .collect();
        body["parallel_tool_calls"] = json!(request.parallel_tool_calls);
    }
    if let Some(max) = request.max_output_tokens {
        body["max_tokens"] = json!(max);
    }
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    body
}

/// Key of this adapter's entry in `provider_data`.
const PROVIDER_KEY: &str = "openai";

/// Whether the assistant step came from a server that streams `reasoning_content` and so
/// may require it back (see [`OpenAiAssembler`]).
fn echoes_reasoning(provider_data: Option<&Value>) -> bool {
    provider_data
        .and_then(|d| d.get(PROVIDER_KEY))
        .and_then(|d| d.get("reasoning_content"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// Tells `null` (`Some(None)`) apart from a missing key (`None`).
fn present<'de, D>(deserializer: D) -> Result<Option<Option<String>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    Option::<String>::deserialize(deserializer).map(Some)
}

/// Adjusts a [`build_request_body`] body to the server at `url`: OpenAI's own API has
/// deprecated `max_tokens` and rejects it for its reasoning models, while compatible
/// servers document only `max_tokens`.
pub fn for_endpoint(body: Value, url: &str) -> Value {
    for_official(body, is_official_openai(url))
}

fn is_official_openai(url: &str) -> bool {
    reqwest::Url::parse(url)
        .ok()
        .is_some_and(|u| u.host_str() == Some("api.openai.com"))
}

fn for_official(mut body: Value, is_openai: bool) -> Value {
    if is_openai {
        if let Some(object) = body.as_object_mut() {
            if let Some(max) = object.remove("max_tokens") {
                object.insert("max_completion_tokens".into(), max);
            }
        }
    }
    body
}

// Wire types of one stream chunk. Strings are borrowed from the SSE buffer when they have
// no escapes; only the fields we use are declared (serde skips the rest).

#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(borrow, default)]
    choices: Option<Vec<Choice<'a>>>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow, default)]
    content: Option<Cow<'a, str>>,
    /// DeepSeek, Qwen, Kimi, older vLLM. Its mere presence (even `null`) marks a server
    /// that may want it back (DeepSeek's thinking mode with tool calls).
    #[serde(default, deserialize_with = "present")]
    reasoning_content: Option<Option<String>>,
    /// Newer vLLM, OpenRouter, Ollama.
    #[serde(borrow, default)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_calls: Option<Vec<ToolCallDelta<'a>>>,
}

#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
    #[serde(default)]
    completion_tokens_details: Option<CompletionDetails>,
    /// DeepSeek reports cache hits here instead of `prompt_tokens_details`.
    #[serde(default)]
    prompt_cache_hit_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CompletionDetails {
    #[serde(default)]
    reasoning_tokens: Option<u64>,
}

/// One tool call being assembled.
#[derive(Debug, Default)]
struct PendingCall {
    /// The `index` the server gave it; our position in `calls` is the event index.
    wire_index: u64,
    id: String,
    name: String,
    arguments: String,
    /// ToolCallStart went out. Delayed until the name is known, since a few servers send
    /// the id before the name.
    announced: bool,
}

/// Assembles a chat-completions stream.
#[derive(Debug, Default)]
pub struct OpenAiAssembler {
    text: String,
    reasoning: String,
    calls: Vec<PendingCall>,
    usage: TokenUsage,
    finish_reason: Option<StopReason>,
    saw_finish: bool,
    /// The server sent the `reasoning_content` key.
    saw_reasoning_content: bool,
    done: bool,
}

impl OpenAiAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    fn on_tool_call(&mut self, delta: ToolCallDelta<'_>, out: &mut VecDeque<ResponseEvent>) {
        let id = delta.id.filter(|s| !s.is_empty());
        let wire_index = delta.index.unwrap_or_else(|| {
            // No index (some older local servers): a new id means a new call, anything
            // else continues the last one.
            match (&id, self.calls.last()) {
                (Some(id), Some(last)) if last.id != *id => last.wire_index + 1,
                (_, Some(last)) => last.wire_index,
                (_, None) => 0,
            }
        });
        // The latest call with this index, unless the fragment names a different id: a few
        // servers give every parallel call index 0 and tell them apart only by id.
        let existing = self
            .calls
            .iter()
            .rposition(|c| c.wire_index == wire_index)
            .filter(|&pos| match &id {
                Some(id) => self.calls[pos].id.is_empty() || self.calls[pos].id == *id,
                None => true,
            });
        let pos = match existing {
            Some(pos) => pos,
            None => {
                self.calls.push(PendingCall {
                    wire_index,
                    ..PendingCall::default()
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[pos];
        if let Some(id) = id {
            if call.id.is_empty() {
                call.id = id.into_owned();
            }
        }
        let (name, arguments) = match delta.function {
            Some(f) => (f.name, f.arguments),
            None => (None, None),
        };
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            // Some servers repeat the name in every fragment: only the first counts.
            if !call.announced {
                call.name = name.into_owned();
            }
        }
        let arguments = arguments.unwrap_or_default();
        if call.announced {
            if !arguments.is_empty() {
                call.arguments.push_str(&arguments);
                out.push_back(ResponseEvent::ToolCallArgsDelta {
                    index: pos,
                    delta: arguments.into_owned(),
                });
            }
        } else {
            call.arguments.push_str(&arguments);
            if !call.name.is_empty() {
                announce(pos, call, out);
            }
        }
    }

    fn complete(&mut self, out: &mut VecDeque<ResponseEvent>) {
        for (pos, call) in self.calls.iter_mut().enumerate() {
            if !call.announced {
                announce(pos, call, out);
            }
        }
        let tool_calls: Vec<ToolCall> = self
            .calls
            .drain(..)
            .map(|call| ToolCall {
                id: call.id,
                name: call.name,
                arguments: call.arguments,
            })
            .collect();
        let mut stop_reason = self.finish_reason;
        // Ollama and others say "stop" even when the step ends in tool calls.
        if stop_reason == Some(StopReason::EndTurn) && !tool_calls.is_empty() {
            stop_reason = Some(StopReason::ToolUse);
        }
        let reasoning = std::mem::take(&mut self.reasoning);
        let provider_data = self
            .saw_reasoning_content
            .then(|| json!({ PROVIDER_KEY: {"reasoning_content": true} }));
        out.push_back(ResponseEvent::Completed(ModelResponse {
            text: std::mem::take(&mut self.text),
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls,
            usage: self.usage,
            stop_reason,
            provider_data,
        }));
        self.done = true;
    }
}

fn announce(pos: usize, call: &mut PendingCall, out: &mut VecDeque<ResponseEvent>) {
    if call.id.is_empty() {
        call.id = synthesize_call_id("call");
    }
    call.announced = true;
    out.push_back(ResponseEvent::ToolCallStart {
        index: pos,
        id: call.id.clone(),
        name: call.name.clone(),
    });
    if !call.arguments.is_empty() {
        out.push_back(ResponseEvent::ToolCallArgsDelta {
            index: pos,
            delta: call.arguments.clone(),
        });
    }
}

fn stop_reason(finish_reason: &str) -> StopReason {
    match finish_reason {
        "stop" => StopReason::EndTurn,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "length" => StopReason::MaxTokens,
        "content_filter" => StopReason::ContentFilter,
        _ => StopReason::Other,
    }
}

impl StreamAssembler for OpenAiAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.complete(out);
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|e| {
            ProviderError::Fatal(format!("unreadable chunk in the response stream: {e}"))
        })?;
        if chunk.error.is_some() {
            return Err(classify_stream_error(data));
        }
        for choice in chunk.choices.unwrap_or_default() {
            // We never ask for n > 1; ignore anything but the first choice.
            if choice.index.unwrap_or(0) != 0 {
                continue;
            }
            if let Some(delta) = choice.delta {
                let reasoning_content = match delta.reasoning_content {
                    Some(value) => {
                        self.saw_reasoning_content = true;
                        value.map(Cow::Owned)
                    }
                    None => None,
                };
                let reasoning = reasoning_content.or(delta.reasoning);
                if let Some(reasoning) = reasoning.filter(|r| !r.is_empty()) {
                    self.reasoning.push_str(&reasoning);
                    out.push_back(ResponseEvent::ReasoningDelta(reasoning.into_owned()));
                }
                if let Some(content) = delta.content.filter(|c| !c.is_empty()) {
                    self.text.push_str(&content);
                    out.push_back(ResponseEvent::TextDelta(content.into_owned()));
                }
                for call in delta.tool_calls.unwrap_or_default() {
                    self.on_tool_call(call, out);
                }
            }
            if let Some(reason) = choice.finish_reason {
                self.saw_finish = true;
                self.finish_reason = Some(stop_reason(&reason));
            }
        }
        if let Some(usage) = chunk.usage {
            let cached = usage
                .prompt_tokens_details
                .and_then(|d| d.cached_tokens)
                .or(usage.prompt_cache_hit_tokens);
            self.usage = TokenUsage {
                input_tokens: usage.prompt_tokens.unwrap_or(0),
                output_tokens: usage.completion_tokens.unwrap_or(0),
                cached_input_tokens: cached.unwrap_or(0),
                reasoning_tokens: usage
                    .completion_tokens_details
                    .and_then(|d| d.reasoning_tokens)
                    .unwrap_or(0),
            };
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut VecDeque<ResponseEvent>) -> Result<(), ProviderError> {
        if self.done {
            return Ok(());
        }
        // Some servers never send [DONE]; a finish_reason means the answer is whole.
        if self.saw_finish {
            self.complete(out);
            return Ok(());
        }
        Err(ProviderError::StreamInterrupted(
            "the connection closed before the model finished its answer".into(),
        ))
    }

    fn is_done(&self) -> bool {
        self.done
    }
}

/// A client for one OpenAI-compatible endpoint.
pub struct OpenAiClient {
    http: reqwest::Client,
    url: String,
    /// api.openai.com itself, which wants `max_completion_tokens` (decided once).
    official: bool,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
}

impl OpenAiClient {
    pub fn new(http: reqwest::Client, base_url: &str, api_key: Option<ApiKey>) -> Self {
        let url = request_url(base_url);
        Self {
            http,
            official: is_official_openai(&url),
            url,
            api_key,
            timeouts: Timeouts::for_url(base_url, &HttpOptions::default()),
        }
    }

    /// The waits for the first byte and between chunks (see [`Timeouts`]).
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// The JSON body this client sends for `request`.
    pub fn request_body(&self, request: &ModelRequest) -> Value {
        for_official(build_request_body(request), self.official)
    }
}

impl ModelClient for OpenAiClient {
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
            // Local servers (Ollama, llama.cpp) need no key; sending an empty one can fail.
            if let Some(key) = api_key.as_ref().filter(|k| !k.expose().is_empty()) {
                headers.insert(AUTHORIZATION, secret_header(key, "Bearer ")?);
            }
            Ok(headers)
        })();
        post_and_stream(
            self.http.clone(),
            self.url.clone(),
            headers,
            &self.request_body(&request),
            OpenAiAssembler::new(),
            api_key,
            self.timeouts,
        )
    }
}

#[cfg(test)]
#[path = "openai_tests.rs"]
mod tests;
