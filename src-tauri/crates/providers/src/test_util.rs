//! Helpers shared by the adapters' unit tests.

use std::collections::VecDeque;

use crate::stream::{SseDecoder, StreamAssembler};
use crate::{
    Message, ModelRequest, ModelResponse, ProviderError, ResponseEvent, ToolCall, ToolSpec,
};

/// Decodes `body` fed in the given pieces.
pub fn decode_pieces<A: StreamAssembler>(
    assembler: A,
    pieces: &[&[u8]],
) -> (Vec<ResponseEvent>, Option<ProviderError>) {
    let mut decoder = SseDecoder::new(assembler);
    let mut out = VecDeque::new();
    for piece in pieces {
        if let Err(err) = decoder.feed(piece, &mut out) {
            return (out.into(), Some(err));
        }
    }
    let result = decoder.finish(&mut out);
    (out.into(), result.err())
}

/// Decodes a whole body and expects success; returns the deltas and the final response.
pub fn decode_ok<A: StreamAssembler>(
    assembler: A,
    body: &[u8],
) -> (Vec<ResponseEvent>, ModelResponse) {
    let (mut events, err) = decode_pieces(assembler, &[body]);
    assert_eq!(err, None, "events so far: {events:?}");
    match events.pop() {
        Some(ResponseEvent::Completed(response)) => {
            assert!(
                !events
                    .iter()
                    .any(|e| matches!(e, ResponseEvent::Completed(_))),
                "exactly one Completed"
            );
            (events, response)
        }
        other => panic!("stream did not end with Completed: {other:?}"),
    }
}

/// Asserts that feeding `body` split at any single byte boundary (and one byte at a time)
/// yields the same events as feeding it whole.
pub fn assert_split_invariant<A: StreamAssembler>(make: impl Fn() -> A, body: &[u8]) {
    let whole = decode_pieces(make(), &[body]);
    for cut in 0..=body.len() {
        let (a, b) = body.split_at(cut);
        assert_eq!(decode_pieces(make(), &[a, b]), whole, "split at byte {cut}");
    }
    let bytes: Vec<&[u8]> = body.chunks(1).collect();
    assert_eq!(decode_pieces(make(), &bytes), whole, "byte by byte");
}

/// Concatenated text deltas, for comparing with the assembled text.
pub fn text_of(events: &[ResponseEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ResponseEvent::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

pub fn reasoning_of(events: &[ResponseEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ResponseEvent::ReasoningDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// The tool calls as rebuilt from the Start/ArgsDelta events alone: the UI sees these, so
/// they must agree with the assembled calls.
pub fn calls_from_deltas(events: &[ResponseEvent]) -> Vec<ToolCall> {
    let mut calls: Vec<ToolCall> = Vec::new();
    for event in events {
        match event {
            ResponseEvent::ToolCallStart { index, id, name } => {
                assert_eq!(*index, calls.len(), "calls start in index order");
                calls.push(ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    arguments: String::new(),
                });
            }
            ResponseEvent::ToolCallArgsDelta { index, delta } => {
                calls[*index].arguments.push_str(delta);
            }
            _ => {}
        }
    }
    calls
}

pub fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

/// A conversation exercising every message kind: a user prompt, an assistant step with two
/// calls and their results, a final answer, and a follow-up question.
pub fn sample_request() -> ModelRequest {
    ModelRequest {
        model: "test-model".into(),
        system: "You are terse.".into(),
        messages: std::sync::Arc::new(vec![
            Message::user("Read a.rs and b.rs"),
            Message::Assistant {
                text: String::new(),
                reasoning: None,
                tool_calls: vec![
                    call("call_1", "read_file", r#"{"path":"a.rs"}"#),
                    call("call_2", "read_file", r#"{"path":"b.rs"#),
                ],
                provider_data: None,
            },
            Message::ToolResult {
                call_id: "call_1".into(),
                name: "read_file".into(),
                content: "fn a() {}".into(),
                is_error: false,
            },
            Message::ToolResult {
                call_id: "call_2".into(),
                name: "read_file".into(),
                content: "invalid arguments".into(),
                is_error: true,
            },
            Message::Assistant {
                text: "Both read.".into(),
                reasoning: None,
                tool_calls: vec![],
                provider_data: None,
            },
            Message::user("Thanks"),
        ]),
        tools: vec![ToolSpec {
            name: "read_file".into(),
            description: "Reads a file".into(),
            input_schema: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        parallel_tool_calls: true,
        max_output_tokens: Some(1000),
        thinking_budget_tokens: None,
        temperature: None,
    }
}

/// A 1x1 PNG, base64.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

pub fn image(media_type: &str, data: &str) -> crate::ImagePart {
    crate::ImagePart {
        media_type: media_type.into(),
        data: data.into(),
    }
}

/// One user message with `text` and two images (a PNG, then a "JPEG"), nothing else.
pub fn image_request(text: &str) -> ModelRequest {
    ModelRequest {
        model: "vision-model".into(),
        system: String::new(),
        messages: std::sync::Arc::new(vec![Message::User {
            text: text.into(),
            images: vec![image("image/png", PNG), image("image/jpeg", "/9j/4AA=")],
        }]),
        tools: vec![],
        parallel_tool_calls: false,
        max_output_tokens: None,
        thinking_budget_tokens: None,
        temperature: None,
    }
}
