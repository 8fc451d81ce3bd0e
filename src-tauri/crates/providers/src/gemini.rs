//! Gemini `streamGenerateContent` with `alt=sse`.

use std::borrow::Cow;
use std::collections::VecDeque;

use futures::future::BoxFuture;
use memo_protocol::TokenUsage;
use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

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

/// Prefix of the ids we invent for calls Gemini sent without one. Such ids are never sent
/// back: Gemini pairs results by name, and an id it did not issue would confuse it.
const SYNTHETIC_ID_PREFIX: &str = "gemini-call";

/// The thought signature Gemini's docs give for function calls it did not produce itself
/// (history from another model, a signature that was lost). Gemini 3 rejects a step whose
/// first function call carries no signature at all.
const PLACEHOLDER_SIGNATURE: &str = "skip_thought_signature_validator";

/// The streaming endpoint for a base such as `https://generativelanguage.googleapis.com`
/// (or one that already ends in `/v1beta` or `/v1`).
pub fn request_url(base_url: &str, model: &str) -> String {
    let base = trim_base(base_url);
    let model = model.strip_prefix("models/").unwrap_or(model);
    let version = if base.ends_with("/v1beta") || base.ends_with("/v1") {
        ""
    } else {
        "/v1beta"
    };
    format!("{base}{version}/models/{model}:streamGenerateContent?alt=sse")
}

/// The JSON body for `request` (the model goes in the URL).
pub fn build_request_body(request: &ModelRequest) -> Value {
    let mut turns: Vec<(&str, Vec<Value>)> = Vec::new();
    for message in normalize(&request.messages) {
        let (role, parts) = match message.as_ref() {
            // Images as `inlineData` parts first, then the text (Gemini's advice for a
            // prompt about an image).
            Message::User { text, images } => {
                let mut parts: Vec<Value> = images
                    .iter()
                    .map(|image| {
                        json!({"inlineData": {"mimeType": image.media_type, "data": image.data}})
                    })
                    .collect();
                if !text.is_empty() {
                    parts.push(json!({"text": text}));
                }
                ("user", parts)
            }
            Message::Assistant {
                text,
                tool_calls,
                provider_data,
                ..
            } => (
                "model",
                model_parts(text, tool_calls, provider_data.as_ref()),
            ),
            Message::ToolResult {
                call_id,
                name,
                content,
                is_error,
            } => {
                let key = if *is_error { "error" } else { "output" };
                let mut response = Map::new();
                response.insert("name".into(), json!(name));
                response.insert("response".into(), json!({ key: content }));
                if !is_synthetic(call_id) {
                    response.insert("id".into(), json!(call_id));
                }
                ("user", vec![json!({"functionResponse": response})])
            }
        };
        if parts.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some((last_role, last_parts)) if *last_role == role => last_parts.extend(parts),
            _ => turns.push((role, parts)),
        }
    }
    let contents: Vec<Value> = turns
        .into_iter()
        .map(|(role, parts)| json!({"role": role, "parts": parts}))
        .collect();
    let mut body = json!({"contents": contents});
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "parametersJsonSchema": tool.input_schema,
                })
            })
            .collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
    }
    if let Some(max) = request.max_output_tokens {
        body["generationConfig"]["maxOutputTokens"] = json!(max);
    }
    if let Some(t) = request.temperature {
        body["generationConfig"]["temperature"] = json!(t);
    }
    if let Some(budget) = request.thinking_budget_tokens {
        // includeThoughts: the thought summaries stream as `thought` parts, shown folded.
        body["generationConfig"]["thinkingConfig"] =
            json!({"thinkingBudget": budget, "includeThoughts": true});
    }
    body
}

fn is_synthetic(id: &str) -> bool {
    id.starts_with(SYNTHETIC_ID_PREFIX)
}

/// The parts of a model turn, with thought signatures put back where they came from
/// (Gemini 3 rejects a function call turn that lost its signature).
fn model_parts(text: &str, tool_calls: &[ToolCall], provider_data: Option<&Value>) -> Vec<Value> {
    let stored = provider_data.and_then(|d| d.get("gemini"));
    let text_signature = stored
        .and_then(|s| s.get("text_signature"))
        .and_then(Value::as_str);
    let call_signatures = stored.and_then(|s| s.get("call_signatures"));
    // Gemini signs only the first call of a step; when none of them has a signature,
    // the first gets the placeholder.
    let signed_calls = tool_calls.iter().any(|call| {
        call_signatures
            .and_then(|s| s.get(&call.id))
            .is_some_and(Value::is_string)
    });
    let mut parts = Vec::with_capacity(tool_calls.len() + 1);
    if !text.is_empty() || text_signature.is_some() {
        let mut part = json!({"text": text});
        if let Some(signature) = text_signature {
            part["thoughtSignature"] = json!(signature);
        }
        parts.push(part);
    }
    for (i, call) in tool_calls.iter().enumerate() {
        let args = match serde_json::from_str::<Value>(&call.arguments) {
            Ok(value @ Value::Object(_)) => value,
            _ => json!({}),
        };
        let mut function_call = json!({"name": call.name, "args": args});
        if !is_synthetic(&call.id) {
            function_call["id"] = json!(call.id);
        }
        let mut part = json!({"functionCall": function_call});
        if let Some(signature) = call_signatures
            .and_then(|s| s.get(&call.id))
            .and_then(Value::as_str)
        {
            part["thoughtSignature"] = json!(signature);
        } else if i == 0 && !signed_calls {
            part["thoughtSignature"] = json!(PLACEHOLDER_SIGNATURE);
        }
        parts.push(part);
    }
    parts
}

// Wire types of one streamed GenerateContentResponse.

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk<'a> {
    #[serde(borrow, default)]
    candidates: Option<Vec<Candidate<'a>>>,
    #[serde(default)]
    usage_metadata: Option<Usage>,
    #[serde(borrow, default)]
    prompt_feedback: Option<PromptFeedback<'a>>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate<'a> {
    #[serde(borrow, default)]
    content: Option<Content<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<Cow<'a, str>>,
    #[serde(default)]
    index: Option<u64>,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(borrow, default)]
    parts: Option<Vec<Part<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thought: Option<bool>,
    #[serde(borrow, default)]
    thought_signature: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    function_call: Option<FunctionCall<'a>>,
}

#[derive(Deserialize)]
struct FunctionCall<'a> {
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    /// Kept raw so the arguments reach the turn loop exactly as sent.
    #[serde(borrow, default)]
    args: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Usage {
    #[serde(default)]
    prompt_token_count: Option<u64>,
    #[serde(default)]
    candidates_token_count: Option<u64>,
    #[serde(default)]
    thoughts_token_count: Option<u64>,
    #[serde(default)]
    cached_content_token_count: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback<'a> {
    #[serde(borrow, default)]
    block_reason: Option<Cow<'a, str>>,
}

/// Assembles a Gemini SSE stream. Gemini has no terminal event: the response is whole
/// when the body ends after a chunk carrying `finishReason`.
#[derive(Debug, Default)]
pub struct GeminiAssembler {
    text: String,
    reasoning: String,
    calls: Vec<ToolCall>,
    text_signature: Option<String>,
    call_signatures: Map<String, Value>,
    usage: TokenUsage,
    stop_reason: Option<StopReason>,
    finished: bool,
    done: bool,
}

impl GeminiAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    fn on_part(
        &mut self,
        part: Part<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError> {
        if let Some(call) = part.function_call {
            let pos = self.calls.len();
            let id = match call.id.filter(|id| !id.is_empty()) {
                Some(id) => id.into_owned(),
                None => synthesize_call_id(SYNTHETIC_ID_PREFIX),
            };
            let arguments = match call.args.map(RawValue::get) {
                None | Some("null") => "{}".to_owned(),
                // Some proxies send the arguments as a JSON string: pass its text through.
                Some(raw) if raw.starts_with('"') => serde_json::from_str::<String>(raw)
                    .map_err(|e| ProviderError::Fatal(format!("bad functionCall args: {e}")))?,
                Some(raw) => raw.to_owned(),
            };
            if let Some(signature) = part.thought_signature {
                self.call_signatures
                    .insert(id.clone(), Value::String(signature.into_owned()));
            }
            let name = call.name.unwrap_or_default().into_owned();
            out.push_back(ResponseEvent::ToolCallStart {
                index: pos,
                id: id.clone(),
                name: name.clone(),
            });
            out.push_back(ResponseEvent::ToolCallArgsDelta {
                index: pos,
                delta: arguments.clone(),
            });
            self.calls.push(ToolCall {
                id,
                name,
                arguments,
            });
            return Ok(());
        }
        if let Some(signature) = part.thought_signature {
            self.text_signature = Some(signature.into_owned());
        }
        if let Some(text) = part.text.filter(|t| !t.is_empty()) {
            if part.thought == Some(true) {
                self.reasoning.push_str(&text);
                out.push_back(ResponseEvent::ReasoningDelta(text.into_owned()));
            } else {
                self.text.push_str(&text);
                out.push_back(ResponseEvent::TextDelta(text.into_owned()));
            }
        }
        Ok(())
    }

    fn complete(&mut self, out: &mut VecDeque<ResponseEvent>) {
        let mut stop_reason = self.stop_reason;
        // Gemini says STOP for a step that ends in function calls.
        if stop_reason == Some(StopReason::EndTurn) && !self.calls.is_empty() {
            stop_reason = Some(StopReason::ToolUse);
        }
        let provider_data = if self.text_signature.is_some() || !self.call_signatures.is_empty() {
            let mut gemini = Map::new();
            if let Some(signature) = self.text_signature.take() {
                gemini.insert("text_signature".into(), Value::String(signature));
            }
            if !self.call_signatures.is_empty() {
                gemini.insert(
                    "call_signatures".into(),
                    Value::Object(std::mem::take(&mut self.call_signatures)),
                );
            }
            Some(json!({"gemini": gemini}))
        } else {
            None
        };
        let reasoning = std::mem::take(&mut self.reasoning);
        out.push_back(ResponseEvent::Completed(ModelResponse {
            text: std::mem::take(&mut self.text),
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls: std::mem::take(&mut self.calls),
            usage: self.usage,
            stop_reason,
            provider_data,
        }));
        self.done = true;
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        _ => StopReason::Other,
    }
}

impl StreamAssembler for GeminiAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError> {
        let data = event.data.trim();
        if data.is_empty() {
            return Ok(());
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|e| {
            ProviderError::Fatal(format!("unreadable chunk in the response stream: {e}"))
        })?;
        if chunk.error.is_some() {
            return Err(classify_stream_error(data));
        }
        for candidate in chunk.candidates.unwrap_or_default() {
            if candidate.index.unwrap_or(0) != 0 {
                continue;
            }
            let parts = candidate.content.and_then(|c| c.parts).unwrap_or_default();
            for part in parts {
                self.on_part(part, out)?;
            }
            if let Some(reason) = candidate.finish_reason {
                self.finished = true;
                self.stop_reason = Some(stop_reason(&reason));
            }
        }
        if let Some(reason) = chunk.prompt_feedback.and_then(|f| f.block_reason) {
            // The prompt itself was refused: no candidates will come.
            tracing::debug!(%reason, "Gemini blocked the prompt");
            self.finished = true;
            self.stop_reason = Some(StopReason::ContentFilter);
        }
        if let Some(usage) = chunk.usage_metadata {
            let thoughts = usage.thoughts_token_count.unwrap_or(0);
            self.usage = TokenUsage {
                input_tokens: usage.prompt_token_count.unwrap_or(0),
                // candidatesTokenCount excludes thinking; our output_tokens includes it.
                output_tokens: usage
                    .candidates_token_count
                    .unwrap_or(0)
                    .saturating_add(thoughts),
                cached_input_tokens: usage.cached_content_token_count.unwrap_or(0),
                reasoning_tokens: thoughts,
            };
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut VecDeque<ResponseEvent>) -> Result<(), ProviderError> {
        if self.done {
            return Ok(());
        }
        if self.finished {
            self.complete(out);
            return Ok(());
        }
        Err(ProviderError::StreamInterrupted(
            "the connection closed before Gemini sent a finishReason".into(),
        ))
    }

    fn is_done(&self) -> bool {
        self.done
    }
}

/// A client for the Gemini API.
pub struct GeminiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
}

impl GeminiClient {
    pub fn new(http: reqwest::Client, base_url: &str, api_key: Option<ApiKey>) -> Self {
        Self {
            http,
            base_url: base_url.to_owned(),
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

impl ModelClient for GeminiClient {
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
            // The key goes in a header, never in the URL, so it cannot leak via error
            // messages that quote the URL.
            if let Some(key) = api_key.as_ref().filter(|k| !k.expose().is_empty()) {
                headers.insert("x-goog-api-key", secret_header(key, "")?);
            }
            Ok(headers)
        })();
        post_and_stream(
            self.http.clone(),
            request_url(&self.base_url, &request.model),
            headers,
            &build_request_body(&request),
            GeminiAssembler::new(),
            api_key,
            self.timeouts,
        )
    }
}

#[cfg(test)]
#[path = "gemini_tests.rs"]
mod tests;
