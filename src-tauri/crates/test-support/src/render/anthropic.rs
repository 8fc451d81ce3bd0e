//! Anthropic Messages: `event: <name>\ndata: <json>\n\n`, from `message_start`
//! to `message_stop`.

use bytes::Bytes;
use serde_json::Value;

use super::ordered::{obj, J};
use super::{message_or, signature, split_chars, RequestInfo};
use crate::ids::new_id;
use crate::script::{FinishReason, HttpError, MockUsage, StreamScript};

fn stop_reason(reason: FinishReason) -> &'static str {
    match reason {
        FinishReason::Stop => "end_turn",
        FinishReason::ToolCalls => "tool_use",
        FinishReason::Length => "max_tokens",
    }
}

fn event(name: &str, data: &J) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// Anthropic's `input_tokens` excludes cache reads, which are reported separately.
fn input_usage(usage: &MockUsage, output_tokens: u64) -> J {
    obj! {
        "input_tokens" => usage.input_tokens.saturating_sub(usage.cached_input_tokens),
        "cache_creation_input_tokens" => 0u64,
        "cache_read_input_tokens" => usage.cached_input_tokens,
        "output_tokens" => output_tokens,
    }
}

/// Tool input for non-streamed bodies: the parsed object, or the raw text when the
/// script deliberately holds something that is not JSON.
fn input_value(arguments: &str) -> J {
    if arguments.trim().is_empty() {
        return obj! {};
    }
    J::from(serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned())))
}

/// Emits `content_block_start`, the deltas, and `content_block_stop` of one block.
struct Blocks {
    events: Vec<Bytes>,
    index: usize,
}

impl Blocks {
    fn block(&mut self, start: J, deltas: impl IntoIterator<Item = J>) {
        let index = self.index;
        self.events.push(event(
            "content_block_start",
            &obj! {"type" => "content_block_start", "index" => index, "content_block" => start},
        ));
        for delta in deltas {
            self.events.push(event(
                "content_block_delta",
                &obj! {"type" => "content_block_delta", "index" => index, "delta" => delta},
            ));
        }
        self.events.push(event(
            "content_block_stop",
            &obj! {"type" => "content_block_stop", "index" => index},
        ));
        self.index += 1;
    }
}

pub(super) fn stream_events(
    script: &StreamScript,
    info: &RequestInfo,
    usage: &MockUsage,
) -> Vec<Bytes> {
    let n = script.chunk_chars;
    let mut blocks = Blocks {
        events: Vec::new(),
        index: 0,
    };
    blocks.events.push(event(
        "message_start",
        &obj! {"type" => "message_start", "message" => obj! {
            "id" => new_id("msg_01", 22),
            "type" => "message",
            "role" => "assistant",
            "content" => Vec::<J>::new(),
            "model" => &info.model,
            "stop_reason" => J::Null,
            "stop_sequence" => J::Null,
            "usage" => input_usage(usage, 1),
        }},
    ));
    // Byte-for-byte what the API sends, including the space its ping has.
    blocks.events.push(Bytes::from_static(
        b"event: ping\ndata: {\"type\": \"ping\"}\n\n",
    ));

    if let Some(reasoning) = &script.reasoning {
        let deltas = split_chars(reasoning, n)
            .into_iter()
            .map(|piece| obj! {"type" => "thinking_delta", "thinking" => piece})
            .chain([obj! {"type" => "signature_delta", "signature" => signature(script)}]);
        blocks.block(obj! {"type" => "thinking", "thinking" => ""}, deltas);
    }
    if let Some(text) = &script.text {
        let deltas = split_chars(text, n)
            .into_iter()
            .map(|piece| obj! {"type" => "text_delta", "text" => piece});
        blocks.block(obj! {"type" => "text", "text" => ""}, deltas);
    }
    for call in &script.tool_calls {
        let id = call.id.clone().unwrap_or_else(|| new_id("toolu_01", 22));
        // The API opens tool input with an empty fragment; clients must tolerate it.
        let deltas = std::iter::once("")
            .chain(split_chars(&call.arguments, n))
            .map(|piece| obj! {"type" => "input_json_delta", "partial_json" => piece});
        blocks.block(
            obj! {"type" => "tool_use", "id" => id, "name" => &call.name, "input" => obj! {}},
            deltas,
        );
    }

    let mut events = blocks.events;
    if let Some(error) = &script.mid_stream_error {
        events.push(event("error", &error_object(error)));
        return events;
    }
    events.push(event(
        "message_delta",
        &obj! {
            "type" => "message_delta",
            "delta" => obj! {
                "stop_reason" => stop_reason(script.effective_finish_reason()),
                "stop_sequence" => J::Null,
            },
            "usage" => obj! {"output_tokens" => usage.output_tokens},
        },
    ));
    events.push(event("message_stop", &obj! {"type" => "message_stop"}));
    events
}

/// The `message` object for requests without `stream: true`.
pub(super) fn complete_body(script: &StreamScript, info: &RequestInfo, usage: &MockUsage) -> J {
    let mut content = Vec::new();
    if let Some(reasoning) = &script.reasoning {
        content.push(obj! {
            "type" => "thinking",
            "thinking" => reasoning,
            "signature" => signature(script),
        });
    }
    if let Some(text) = &script.text {
        content.push(obj! {"type" => "text", "text" => text});
    }
    for call in &script.tool_calls {
        content.push(obj! {
            "type" => "tool_use",
            "id" => call.id.clone().unwrap_or_else(|| new_id("toolu_01", 22)),
            "name" => &call.name,
            "input" => input_value(&call.arguments),
        });
    }
    obj! {
        "id" => new_id("msg_01", 22),
        "type" => "message",
        "role" => "assistant",
        "model" => &info.model,
        "content" => content,
        "stop_reason" => stop_reason(script.effective_finish_reason()),
        "stop_sequence" => J::Null,
        "usage" => input_usage(usage, usage.output_tokens),
    }
}

/// `{"type":"error","error":{"type","message"}}`, as sent in-stream; `kind`
/// overrides the type.
fn error_object(error: &HttpError) -> J {
    let (kind, default_message) = match error.status {
        400 => (
            "invalid_request_error",
            "prompt is too long: 213457 tokens > 200000 maximum",
        ),
        401 => ("authentication_error", "invalid x-api-key"),
        403 => (
            "permission_error",
            "Your API key does not have permission to use the specified resource.",
        ),
        404 => ("not_found_error", "The requested resource could not be found."),
        413 => (
            "request_too_large",
            "Request exceeds the maximum allowed number of bytes.",
        ),
        429 => (
            "rate_limit_error",
            "This request would exceed the rate limit for your organization. Please try again later.",
        ),
        529 => ("overloaded_error", "Overloaded"),
        s if s >= 500 => ("api_error", "Internal server error"),
        _ => ("invalid_request_error", "Invalid request."),
    };
    obj! {
        "type" => "error",
        "error" => obj! {
            "type" => error.kind.as_deref().unwrap_or(kind),
            "message" => message_or(error, default_message),
        },
    }
}

/// The HTTP error body: the in-stream object plus the `request_id` the API adds.
pub(super) fn error_body(error: &HttpError) -> J {
    let mut body = error_object(error);
    body.push("request_id", new_id("req_011", 21));
    body
}
