//! OpenAI chat completions: `data: <chunk>\n\n` … `data: [DONE]\n\n`.

use bytes::Bytes;

use super::ordered::{obj, J};
use super::{message_or, split_chars, RequestInfo};
use crate::ids::{new_id, unix_now};
use crate::script::{FinishReason, HttpError, MockUsage, StreamScript};

fn finish_reason(reason: FinishReason) -> &'static str {
    match reason {
        FinishReason::Stop => "stop",
        FinishReason::ToolCalls => "tool_calls",
        FinishReason::Length => "length",
    }
}

fn usage_json(usage: &MockUsage) -> J {
    obj! {
        "prompt_tokens" => usage.input_tokens,
        "completion_tokens" => usage.output_tokens,
        "total_tokens" => usage.input_tokens.saturating_add(usage.output_tokens),
        "prompt_tokens_details" => obj! {"cached_tokens" => usage.cached_input_tokens},
        "completion_tokens_details" => obj! {"reasoning_tokens" => usage.reasoning_tokens},
    }
}

fn event(chunk: &J) -> Bytes {
    Bytes::from(format!("data: {chunk}\n\n"))
}

/// Builds chunks sharing one id/created/model, as the real API does.
struct Chunker {
    id: String,
    created: u64,
    model: String,
    include_usage: bool,
}

impl Chunker {
    fn chunk(&self, choices: Vec<J>, usage: Option<J>) -> Bytes {
        let mut chunk = obj! {
            "id" => &self.id,
            "object" => "chat.completion.chunk",
            "created" => self.created,
            "model" => &self.model,
            "system_fingerprint" => "fp_mock",
            "choices" => choices,
        };
        if self.include_usage {
            // With include_usage every chunk carries the key; only the last has a value.
            chunk.push("usage", usage);
        }
        event(&chunk)
    }

    fn delta(&self, delta: J, finish: Option<&str>) -> Bytes {
        let choice = obj! {
            "index" => 0u64,
            "delta" => delta,
            "logprobs" => J::Null,
            "finish_reason" => finish,
        };
        self.chunk(vec![choice], None)
    }
}

pub(super) fn stream_events(
    script: &StreamScript,
    info: &RequestInfo,
    usage: &MockUsage,
) -> Vec<Bytes> {
    let chunker = Chunker {
        id: new_id("chatcmpl-", 29),
        created: unix_now(),
        model: info.model.clone(),
        include_usage: info.include_usage,
    };
    let n = script.chunk_chars;
    let mut events = vec![chunker.delta(obj! {"role" => "assistant", "content" => ""}, None)];

    if let Some(reasoning) = &script.reasoning {
        // DeepSeek style: `content` is explicitly null while reasoning streams.
        for piece in split_chars(reasoning, n) {
            events.push(chunker.delta(
                obj! {"content" => J::Null, "reasoning_content" => piece},
                None,
            ));
        }
    }
    if let Some(text) = &script.text {
        for piece in split_chars(text, n) {
            events.push(chunker.delta(obj! {"content" => piece}, None));
        }
    }
    for (index, call) in script.tool_calls.iter().enumerate() {
        let id = call.id.clone().unwrap_or_else(|| new_id("call_", 24));
        let opening = obj! {
            "index" => index,
            "id" => id,
            "type" => "function",
            "function" => obj! {"name" => &call.name, "arguments" => ""},
        };
        events.push(chunker.delta(obj! {"tool_calls" => vec![opening]}, None));
        for piece in split_chars(&call.arguments, n) {
            let fragment = obj! {
                "index" => index,
                "function" => obj! {"arguments" => piece},
            };
            events.push(chunker.delta(obj! {"tool_calls" => vec![fragment]}, None));
        }
    }

    if let Some(error) = &script.mid_stream_error {
        // The real API ends the stream after an in-band error, without [DONE].
        events.push(event(&error_body(error, info)));
        return events;
    }

    events.push(chunker.delta(
        obj! {},
        Some(finish_reason(script.effective_finish_reason())),
    ));
    if info.include_usage {
        events.push(chunker.chunk(Vec::new(), Some(usage_json(usage))));
    }
    events.push(Bytes::from_static(b"data: [DONE]\n\n"));
    events
}

/// The `chat.completion` object for `stream: false` requests.
pub(super) fn complete_body(script: &StreamScript, info: &RequestInfo, usage: &MockUsage) -> J {
    let mut message = obj! {
        "role" => "assistant",
        "content" => script.text.as_deref(),
        "refusal" => J::Null,
    };
    if let Some(reasoning) = &script.reasoning {
        message.push("reasoning_content", reasoning);
    }
    if !script.tool_calls.is_empty() {
        let calls: Vec<J> = script
            .tool_calls
            .iter()
            .map(|call| {
                obj! {
                    "id" => call.id.clone().unwrap_or_else(|| new_id("call_", 24)),
                    "type" => "function",
                    "function" => obj! {"name" => &call.name, "arguments" => &call.arguments},
                }
            })
            .collect();
        message.push("tool_calls", calls);
    }
    obj! {
        "id" => new_id("chatcmpl-", 29),
        "object" => "chat.completion",
        "created" => unix_now(),
        "model" => &info.model,
        "choices" => vec![obj! {
            "index" => 0u64,
            "message" => message,
            "logprobs" => J::Null,
            "finish_reason" => finish_reason(script.effective_finish_reason()),
        }],
        "usage" => usage_json(usage),
        "system_fingerprint" => "fp_mock",
    }
}

/// `{"error":{"message","type","param","code"}}`; `kind` overrides `code`.
pub(super) fn error_body(error: &HttpError, info: &RequestInfo) -> J {
    let (kind, code, default_message): (&str, Option<&str>, String) = match error.status {
        400 => (
            "invalid_request_error",
            Some("context_length_exceeded"),
            "This model's maximum context length is 128000 tokens. However, your messages \
             resulted in 131072 tokens. Please reduce the length of the messages."
                .to_owned(),
        ),
        401 => (
            "invalid_request_error",
            Some("invalid_api_key"),
            "Incorrect API key provided.".to_owned(),
        ),
        403 => (
            "invalid_request_error",
            None,
            "You are not allowed to sample from this model.".to_owned(),
        ),
        404 => (
            "invalid_request_error",
            Some("model_not_found"),
            format!(
                "The model `{}` does not exist or you do not have access to it.",
                info.model
            ),
        ),
        429 => (
            "rate_limit_exceeded",
            Some("rate_limit_exceeded"),
            "Rate limit reached for requests. Please try again later.".to_owned(),
        ),
        503 | 529 => (
            "server_error",
            None,
            "The engine is currently overloaded, please try again later.".to_owned(),
        ),
        s if s >= 500 => (
            "server_error",
            None,
            "The server had an error while processing your request. Sorry about that!".to_owned(),
        ),
        _ => ("invalid_request_error", None, "Invalid request.".to_owned()),
    };
    obj! {"error" => obj! {
        "message" => message_or(error, &default_message),
        "type" => kind,
        "param" => J::Null,
        "code" => error.kind.as_deref().or(code),
    }}
}
