//! Turning a format-neutral [`MockResponse`] into one provider's bytes.
//!
//! Each submodule knows one wire format: its SSE events, its non-streaming body and
//! its error body. This module holds what they share and picks among them.

mod anthropic;
mod gemini;
mod openai;
pub(crate) mod ordered;

use bytes::Bytes;

use crate::record::WireFormat;
use crate::script::{HttpError, MockResponse, MockUsage, StreamScript};
use crate::stream::{StreamEnd, StreamPlan};
use ordered::J;

/// What the renderers need to know about the request being answered.
#[derive(Debug, Clone)]
pub(crate) struct RequestInfo {
    /// Model named by the request (body `model`, or Gemini path), echoed back.
    pub model: String,
    /// Whether the client asked for a stream (OpenAI/Anthropic `stream: true`,
    /// Gemini `:streamGenerateContent`).
    pub streaming: bool,
    /// OpenAI `stream_options.include_usage`.
    pub include_usage: bool,
    /// Size of the request body, for the default input-token estimate.
    pub body_len: usize,
}

/// A response ready to be turned into HTTP.
#[derive(Debug)]
pub(crate) struct Rendered {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub content_type: String,
    pub body: RenderedBody,
}

#[derive(Debug)]
pub(crate) enum RenderedBody {
    /// Sent in one piece.
    Full(Bytes),
    /// SSE events (each one complete event's bytes) delivered according to the plan.
    Events(Vec<Bytes>, StreamPlan),
}

/// Render one scripted response for a request in `format`.
pub(crate) fn render(format: WireFormat, response: &MockResponse, info: &RequestInfo) -> Rendered {
    match response {
        MockResponse::Stream(script) if info.streaming => render_stream(format, script, info),
        MockResponse::Stream(script) => render_complete(format, script, info),
        MockResponse::Error(error) => render_error(format, error, info),
        MockResponse::RawSse(raw) => Rendered {
            status: raw.status,
            headers: Vec::new(),
            content_type: raw.content_type.clone(),
            body: RenderedBody::Full(Bytes::from(raw.body.clone())),
        },
    }
}

fn render_stream(format: WireFormat, script: &StreamScript, info: &RequestInfo) -> Rendered {
    let usage = resolve_usage(script, info);
    let (events, content_type, request_id_header) = match format {
        WireFormat::OpenAi => (
            openai::stream_events(script, info, &usage),
            "text/event-stream; charset=utf-8",
            "x-request-id",
        ),
        WireFormat::Anthropic => (
            anthropic::stream_events(script, info, &usage),
            "text/event-stream; charset=utf-8",
            "request-id",
        ),
        WireFormat::Gemini => (
            gemini::stream_events(script, info, &usage),
            "text/event-stream",
            "x-request-id",
        ),
    };
    let end = if let Some(after) = script.cut_after_events {
        StreamEnd::Cut {
            after,
            mid_event: script.cut_mid_event,
        }
    } else if let Some(after) = script.hang_after_events {
        StreamEnd::Hang { after }
    } else {
        StreamEnd::Complete
    };
    Rendered {
        status: 200,
        headers: vec![
            ("cache-control", "no-cache".to_owned()),
            (request_id_header, crate::ids::new_id("req_", 24)),
        ],
        content_type: content_type.to_owned(),
        body: RenderedBody::Events(
            events,
            StreamPlan {
                drip: std::time::Duration::from_millis(script.drip_ms),
                first_delay: std::time::Duration::from_millis(script.first_byte_delay_ms),
                end,
            },
        ),
    }
}

fn render_complete(format: WireFormat, script: &StreamScript, info: &RequestInfo) -> Rendered {
    let usage = resolve_usage(script, info);
    let body = match format {
        WireFormat::OpenAi => openai::complete_body(script, info, &usage),
        WireFormat::Anthropic => anthropic::complete_body(script, info, &usage),
        WireFormat::Gemini => gemini::complete_body(script, info, &usage),
    };
    json_response(200, Vec::new(), &body)
}

/// An HTTP error in the provider's shape, with `retry-after` when scripted (OpenAI and
/// Anthropic; Gemini sends no such header and states the delay only in its body's
/// `RetryInfo`, so a client relying on the header fails here as it would there).
pub(crate) fn render_error(format: WireFormat, error: &HttpError, info: &RequestInfo) -> Rendered {
    let body = match format {
        WireFormat::OpenAi => openai::error_body(error, info),
        WireFormat::Anthropic => anthropic::error_body(error),
        WireFormat::Gemini => gemini::error_body(error),
    };
    let headers = match (format, error.retry_after_secs) {
        (WireFormat::Gemini, _) | (_, None) => Vec::new(),
        (_, Some(secs)) => vec![("retry-after", secs.to_string())],
    };
    json_response(error.status, headers, &body)
}

fn json_response(status: u16, headers: Vec<(&'static str, String)>, body: &J) -> Rendered {
    Rendered {
        status,
        headers,
        content_type: "application/json".to_owned(),
        body: RenderedBody::Full(Bytes::from(body.to_string())),
    }
}

/// Scripted usage, or a rough size-based estimate (about four characters a token).
fn resolve_usage(script: &StreamScript, info: &RequestInfo) -> MockUsage {
    if let Some(usage) = script.usage {
        return usage;
    }
    let chars = |s: &Option<String>| s.as_deref().map_or(0, |s| s.chars().count());
    let reasoning = chars(&script.reasoning).div_ceil(4) as u64;
    let visible = chars(&script.text)
        + script
            .tool_calls
            .iter()
            .map(|c| c.name.len() + c.arguments.chars().count())
            .sum::<usize>();
    MockUsage {
        input_tokens: (info.body_len.div_ceil(4) as u64).max(1),
        output_tokens: (visible.div_ceil(4) as u64).max(1) + reasoning,
        cached_input_tokens: 0,
        reasoning_tokens: reasoning,
    }
}

/// Split into pieces of at most `chunk_chars` characters (never inside a UTF-8
/// sequence); `0` keeps the string whole. An empty string yields no pieces.
pub(crate) fn split_chars(text: &str, chunk_chars: usize) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    if chunk_chars == 0 {
        return vec![text];
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    for (count, (offset, _)) in text.char_indices().enumerate() {
        if count > 0 && count % chunk_chars == 0 {
            pieces.push(&text[start..offset]);
            start = offset;
        }
    }
    pieces.push(&text[start..]);
    pieces
}

/// The scripted thinking signature, or a generated one (base64-shaped like the real
/// ones): Anthropic's thinking-block `signature`, Gemini's `thoughtSignature`.
fn signature(script: &StreamScript) -> String {
    script
        .thinking_signature
        .clone()
        .unwrap_or_else(|| crate::ids::new_id("EqMock", 58))
}

/// Scripted message or the status's realistic default.
fn message_or(error: &HttpError, default: &str) -> String {
    error.message.clone().unwrap_or_else(|| default.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_respects_char_boundaries_and_reassembles() {
        let text = "héllo wörld, ünïcode ✓";
        for n in 0..6 {
            let pieces = split_chars(text, n);
            assert_eq!(pieces.concat(), text);
            if n > 0 {
                assert!(pieces.iter().all(|p| p.chars().count() <= n));
            }
        }
        assert_eq!(split_chars("abcdefg", 3), vec!["abc", "def", "g"]);
        assert!(split_chars("", 3).is_empty());
    }

    #[test]
    fn usage_estimate_is_nonzero() {
        let info = RequestInfo {
            model: "m".into(),
            streaming: true,
            include_usage: true,
            body_len: 40,
        };
        let usage = resolve_usage(&StreamScript::default(), &info);
        assert_eq!(usage.input_tokens, 10);
        assert_eq!(usage.output_tokens, 1);
    }
}
