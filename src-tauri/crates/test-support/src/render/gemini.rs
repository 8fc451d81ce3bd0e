//! Gemini `streamGenerateContent?alt=sse`: `data: <json>\r\n\r\n` chunks, no end marker.

use bytes::Bytes;
use serde_json::Value;

use super::ordered::{obj, J};
use super::{message_or, signature, split_chars, RequestInfo};
use crate::ids::new_id;
use crate::script::{FinishReason, HttpError, MockToolCall, MockUsage, StreamScript};

fn finish_reason(reason: FinishReason) -> &'static str {
    match reason {
        // Gemini has no separate reason for function calls.
        FinishReason::Stop | FinishReason::ToolCalls => "STOP",
        FinishReason::Length => "MAX_TOKENS",
    }
}

fn event(chunk: &J) -> Bytes {
    Bytes::from(format!("data: {chunk}\r\n\r\n"))
}

/// Final usage. Gemini counts thoughts apart from candidates and, like any proto3
/// JSON, omits counters that are zero.
fn usage_json(usage: &MockUsage) -> J {
    let candidates = usage.output_tokens.saturating_sub(usage.reasoning_tokens);
    let mut meta = obj! {
        "promptTokenCount" => usage.input_tokens,
        "candidatesTokenCount" => candidates,
        "totalTokenCount" => usage.input_tokens.saturating_add(usage.output_tokens),
    };
    if usage.cached_input_tokens > 0 {
        meta.push("cachedContentTokenCount", usage.cached_input_tokens);
    }
    if usage.reasoning_tokens > 0 {
        meta.push("thoughtsTokenCount", usage.reasoning_tokens);
    }
    meta
}

/// Intermediate chunks carry only the prompt count, as the real service's do.
fn partial_usage_json(usage: &MockUsage) -> J {
    obj! {"promptTokenCount" => usage.input_tokens, "totalTokenCount" => usage.input_tokens}
}

/// The function call parts of one step. Like Gemini 3 (and 2.5 thinking models), the
/// first call carries the step's `thoughtSignature`, the parallel ones after it none;
/// clients must send it back or Gemini 3 rejects the next request.
fn function_call_parts(script: &StreamScript) -> Vec<J> {
    let mut parts: Vec<J> = script.tool_calls.iter().map(function_call_part).collect();
    if let Some(first) = parts.first_mut() {
        first.push("thoughtSignature", signature(script));
    }
    parts
}

/// `args` is the parsed object; anything else is passed through as the raw string so
/// adapters get to handle malformed arguments.
fn function_call_part(call: &MockToolCall) -> J {
    let args = if call.arguments.trim().is_empty() {
        obj! {}
    } else {
        match serde_json::from_str::<Value>(&call.arguments) {
            Ok(object @ Value::Object(_)) => J::from(object),
            _ => J::from(&call.arguments),
        }
    };
    let mut function_call = obj! {"name" => &call.name, "args" => args};
    if let Some(id) = &call.id {
        function_call.push("id", id);
    }
    obj! {"functionCall" => function_call}
}

fn candidate(parts: Vec<J>, finish: Option<&str>) -> J {
    let mut candidate = obj! {"content" => obj! {"parts" => parts, "role" => "model"}};
    if let Some(finish) = finish {
        candidate.push("finishReason", finish);
    }
    candidate.push("index", 0u64);
    candidate
}

fn response(candidate: J, usage: J, info: &RequestInfo, response_id: &str) -> J {
    obj! {
        "candidates" => vec![candidate],
        "usageMetadata" => usage,
        "modelVersion" => &info.model,
        "responseId" => response_id,
    }
}

/// The part groups, one per chunk: thought pieces, text pieces, then every function
/// call in a single chunk (Gemini never streams a call's arguments).
fn part_groups(script: &StreamScript) -> Vec<Vec<J>> {
    let n = script.chunk_chars;
    let mut groups: Vec<Vec<J>> = Vec::new();
    if let Some(reasoning) = &script.reasoning {
        groups.extend(
            split_chars(reasoning, n)
                .into_iter()
                .map(|piece| vec![obj! {"text" => piece, "thought" => true}]),
        );
    }
    if let Some(text) = &script.text {
        groups.extend(
            split_chars(text, n)
                .into_iter()
                .map(|piece| vec![obj! {"text" => piece}]),
        );
    }
    if !script.tool_calls.is_empty() {
        groups.push(function_call_parts(script));
    }
    groups
}

pub(super) fn stream_events(
    script: &StreamScript,
    info: &RequestInfo,
    usage: &MockUsage,
) -> Vec<Bytes> {
    let response_id = new_id("", 23);
    let mut groups = part_groups(script);
    if script.mid_stream_error.is_none() && groups.is_empty() {
        // Even an empty answer ends with a chunk carrying finishReason and usage.
        groups.push(vec![obj! {"text" => ""}]);
    }
    let last = groups.len().saturating_sub(1);
    let mut events = Vec::with_capacity(groups.len() + 1);
    for (i, parts) in groups.into_iter().enumerate() {
        // The final chunk carries finishReason and full usage, unless an error follows.
        let chunk = if i == last && script.mid_stream_error.is_none() {
            response(
                candidate(parts, Some(finish_reason(script.effective_finish_reason()))),
                usage_json(usage),
                info,
                &response_id,
            )
        } else {
            response(
                candidate(parts, None),
                partial_usage_json(usage),
                info,
                &response_id,
            )
        };
        events.push(event(&chunk));
    }
    if let Some(error) = &script.mid_stream_error {
        events.push(event(&error_body(error)));
    }
    events
}

/// The `GenerateContentResponse` for `:generateContent`.
pub(super) fn complete_body(script: &StreamScript, info: &RequestInfo, usage: &MockUsage) -> J {
    let mut parts: Vec<J> = Vec::new();
    if let Some(reasoning) = &script.reasoning {
        parts.push(obj! {"text" => reasoning, "thought" => true});
    }
    if let Some(text) = &script.text {
        parts.push(obj! {"text" => text});
    }
    parts.extend(function_call_parts(script));
    response(
        candidate(parts, Some(finish_reason(script.effective_finish_reason()))),
        usage_json(usage),
        info,
        &new_id("", 23),
    )
}

/// Google RPC error: `{"error":{"code","message","status"}}`; `kind` overrides `status`.
pub(super) fn error_body(error: &HttpError) -> J {
    let (code, status, default_message) = match error.status {
        400 => (
            400,
            "INVALID_ARGUMENT",
            "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
        ),
        401 => (
            401,
            "UNAUTHENTICATED",
            "Request had invalid authentication credentials.",
        ),
        403 => (
            403,
            "PERMISSION_DENIED",
            "Method doesn't allow unregistered callers (callers without established identity). \
             Please use API Key or other form of API consumer identity to call this API.",
        ),
        404 => (404, "NOT_FOUND", "Requested entity was not found."),
        429 => (
            429,
            "RESOURCE_EXHAUSTED",
            "You exceeded your current quota, please check your plan and billing details.",
        ),
        // Gemini never says 529; an "overloaded" script means its 503.
        503 | 529 => (
            503,
            "UNAVAILABLE",
            "The model is overloaded. Please try again later.",
        ),
        504 => (
            504,
            "DEADLINE_EXCEEDED",
            "Deadline expired before operation could complete.",
        ),
        s if s >= 500 => (s, "INTERNAL", "An internal error has occurred."),
        s => (s, "INVALID_ARGUMENT", "Request contains an invalid argument."),
    };
    let mut inner = obj! {
        "code" => code,
        "message" => message_or(error, default_message),
        "status" => error.kind.as_deref().unwrap_or(status),
    };
    if let Some(secs) = error.retry_after_secs {
        inner.push(
            "details",
            vec![obj! {
                "@type" => "type.googleapis.com/google.rpc.RetryInfo",
                "retryDelay" => format!("{secs}s"),
            }],
        );
    }
    obj! {"error" => inner}
}
