use serde_json::json;

use super::*;
use crate::test_util::*;

const THINK_TEXT_TOOLS: &str = r#"event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-x","stop_reason":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":10,"cache_read_input_tokens":100,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me look."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2lnbmF0dXJl"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Reading ✓"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a"}}

event: content_block_start
data: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_2","name":"list_dir","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":".rs\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: content_block_stop
data: {"type":"content_block_stop","index":3}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":42}}

event: message_stop
data: {"type":"message_stop"}

"#;

#[test]
fn thinking_text_and_parallel_tools() {
    let (events, response) = decode_ok(AnthropicAssembler::new(), THINK_TEXT_TOOLS.as_bytes());
    assert_eq!(reasoning_of(&events), "Let me look.");
    assert_eq!(response.reasoning.as_deref(), Some("Let me look."));
    assert_eq!(response.text, "Reading ✓");
    let expected = vec![
        call("toolu_1", "read_file", r#"{"path": "a.rs"}"#),
        // No input deltas at all: a call without arguments.
        call("toolu_2", "list_dir", "{}"),
    ];
    assert_eq!(response.tool_calls, expected);
    assert_eq!(calls_from_deltas(&events), expected);
    assert_eq!(response.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(
        response.usage,
        TokenUsage {
            input_tokens: 135,
            output_tokens: 42,
            cached_input_tokens: 100,
            reasoning_tokens: 0
        }
    );
    assert_eq!(
        response.provider_data,
        Some(json!({"anthropic": {"thinking": [
            {"type": "thinking", "thinking": "Let me look.", "signature": "c2lnbmF0dXJl"}
        ]}}))
    );
}

#[test]
fn split_at_every_byte_boundary() {
    assert_split_invariant(AnthropicAssembler::new, THINK_TEXT_TOOLS.as_bytes());
    let crlf = THINK_TEXT_TOOLS.replace('\n', "\r\n");
    assert_split_invariant(AnthropicAssembler::new, crlf.as_bytes());
}

fn text_stream(text_json: &str, stop: &str) -> String {
    format!(
        "event: message_start\ndata: {{\"type\":\"message_start\",\"message\":{{\"usage\":{{\"input_tokens\":3,\"output_tokens\":1}}}}}}\n\n\
event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"text\",\"text\":\"\"}}}}\n\n\
event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":{text_json}}}}}\n\n\
event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":0}}\n\n\
event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"{stop}\"}},\"usage\":{{\"output_tokens\":7}}}}\n\n"
    )
}

#[test]
fn plain_text() {
    let body = text_stream(r#""Hi\nthere""#, "end_turn")
        + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let (events, response) = decode_ok(AnthropicAssembler::new(), body.as_bytes());
    assert_eq!(events, vec![ResponseEvent::TextDelta("Hi\nthere".into())]);
    assert_eq!(response.text, "Hi\nthere");
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));
    assert_eq!(response.usage.input_tokens, 3);
    assert_eq!(response.usage.output_tokens, 7);
    assert_eq!(response.provider_data, None);
}

#[test]
fn missing_message_stop_is_interrupted() {
    let body = text_stream(r#""Hi""#, "end_turn");
    let (events, err) = decode_pieces(AnthropicAssembler::new(), &[body.as_bytes()]);
    assert!(matches!(err, Some(ProviderError::StreamInterrupted(_))));
    assert_eq!(events, vec![ResponseEvent::TextDelta("Hi".into())]);
}

#[test]
fn error_events_are_classified() {
    let overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let body = text_stream(r#""partial""#, "end_turn") + overloaded;
    let (events, err) = decode_pieces(AnthropicAssembler::new(), &[body.as_bytes()]);
    assert_eq!(events, vec![ResponseEvent::TextDelta("partial".into())]);
    assert_eq!(
        err,
        Some(ProviderError::Overloaded {
            retry_after: None,
            message: "Overloaded".into()
        })
    );
    let limited = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow\"}}\n\n";
    let (_, err) = decode_pieces(AnthropicAssembler::new(), &[limited.as_bytes()]);
    assert!(matches!(err, Some(ProviderError::RateLimited { .. })));
}

#[test]
fn invalid_argument_json_is_passed_through() {
    let body = r#"event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"edit","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": tru"}}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":9}}

event: message_stop
data: {"type":"message_stop"}

"#;
    let (_, response) = decode_ok(AnthropicAssembler::new(), body.as_bytes());
    assert_eq!(
        response.tool_calls,
        vec![call("t", "edit", r#"{"path": tru"#)]
    );
    assert_eq!(response.stop_reason, Some(StopReason::MaxTokens));
}

#[test]
fn tool_calls_without_an_id_get_distinct_ones() {
    let body = r#"event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","name":"a","input":{}}}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"","name":"b","input":{}}}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":2}}

event: message_stop
data: {"type":"message_stop"}

"#;
    let (_, response) = decode_ok(AnthropicAssembler::new(), body.as_bytes());
    let ids: Vec<&str> = response.tool_calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.iter().all(|id| id.starts_with("toolu-")), "{ids:?}");
    assert_ne!(ids[0], ids[1]);
}

#[test]
fn redacted_thinking_is_kept() {
    let body = r#"event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_stop
data: {"type":"message_stop"}

"#;
    let (_, response) = decode_ok(AnthropicAssembler::new(), body.as_bytes());
    assert_eq!(
        response.provider_data,
        Some(
            json!({"anthropic": {"thinking": [{"type": "redacted_thinking", "data": "EmwKAhgB"}]}})
        )
    );
}

#[test]
fn url_does_not_double_the_version() {
    assert_eq!(
        request_url("https://api.anthropic.com"),
        "https://api.anthropic.com/v1/messages"
    );
    assert_eq!(
        request_url("https://proxy.example/anthropic/v1/"),
        "https://proxy.example/anthropic/v1/messages"
    );
}

#[test]
fn request_body_shape() {
    let mut request = sample_request();
    // The assistant step carried signed thinking, which must be echoed first.
    if let Message::Assistant {
        provider_data,
        reasoning,
        ..
    } = &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *reasoning = Some("Let me look.".into());
        *provider_data = Some(json!({"anthropic": {"thinking": [
            {"type": "thinking", "thinking": "Let me look.", "signature": "sig"},
            {"type": "thinking", "thinking": "unsigned"},
        ]}}));
    }
    let body = build_request_body(&request);
    assert_eq!(
        body,
        json!({
            "model": "test-model",
            "max_tokens": 1000,
            "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
            "stream": true,
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Read a.rs and b.rs"}]},
                {"role": "assistant", "content": [
                    {"type": "thinking", "thinking": "Let me look.", "signature": "sig"},
                    {"type": "tool_use", "id": "call_1", "name": "read_file", "input": {"path": "a.rs"}},
                    // The model produced broken JSON here; the API needs an object.
                    {"type": "tool_use", "id": "call_2", "name": "read_file", "input": {}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": "fn a() {}", "is_error": false},
                    {"type": "tool_result", "tool_use_id": "call_2", "content": "invalid arguments", "is_error": true},
                ]},
                {"role": "assistant", "content": [{"type": "text", "text": "Both read."}]},
                {"role": "user", "content": [{"type": "text", "text": "Thanks", "cache_control": {"type": "ephemeral"}}]},
            ],
            "tools": [{
                "name": "read_file",
                "description": "Reads a file",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "cache_control": {"type": "ephemeral"},
            }],
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": false},
        })
    );
}

#[test]
fn request_body_merges_roles_and_defaults() {
    let mut request = sample_request();
    request.tools.clear();
    request.system.clear();
    request.max_output_tokens = None;
    request.parallel_tool_calls = false;
    // A user message right after the tool results merges into their user turn, after them.
    std::sync::Arc::make_mut(&mut request.messages).insert(4, Message::user("also check c.rs"));
    let body = build_request_body(&request);
    assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
    assert!(body.get("system").is_none());
    assert!(body.get("tools").is_none() && body.get("tool_choice").is_none());
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant", "user"]);
    let merged: Vec<&str> = messages[2]["content"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| b["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(merged, ["tool_result", "tool_result", "text"]);
}

#[test]
fn tool_choice_reflects_parallel_flag() {
    let mut request = sample_request();
    request.parallel_tool_calls = false;
    let body = build_request_body(&request);
    assert_eq!(body["tool_choice"]["disable_parallel_tool_use"], true);
}

#[test]
fn whitespace_only_text_is_not_sent() {
    let mut request = sample_request();
    if let Message::Assistant { text, .. } = &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *text = "\n\n".into();
    }
    let body = build_request_body(&request);
    assert_eq!(body["messages"][1]["content"][0]["type"], "tool_use");
}

#[test]
fn thinking_that_never_got_a_signature_is_not_sent_back() {
    // A stream (typically a compatible proxy) with thinking but no signature_delta: the
    // API rejects a thinking block with an empty signature, so it must be dropped.
    let unsigned = THINK_TEXT_TOOLS.replace("c2lnbmF0dXJl", "");
    let (_, response) = decode_ok(AnthropicAssembler::new(), unsigned.as_bytes());
    let mut request = sample_request();
    if let Message::Assistant {
        provider_data,
        reasoning,
        ..
    } = &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *reasoning = response.reasoning.clone();
        *provider_data = response.provider_data.clone();
    }
    let body = build_request_body(&request);
    assert_eq!(body["messages"][1]["content"][0]["type"], "tool_use");

    // The signed one still goes back.
    let (_, response) = decode_ok(AnthropicAssembler::new(), THINK_TEXT_TOOLS.as_bytes());
    if let Message::Assistant { provider_data, .. } =
        &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *provider_data = response.provider_data.clone();
    }
    let body = build_request_body(&request);
    assert_eq!(body["messages"][1]["content"][0]["type"], "thinking");
    assert_eq!(
        body["messages"][1]["content"][0]["signature"],
        "c2lnbmF0dXJl"
    );
}

#[test]
fn absurd_usage_counts_saturate_instead_of_overflowing() {
    let body = "event: message_start\n\
data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":18446744073709551615,\"cache_read_input_tokens\":5,\"cache_creation_input_tokens\":5}}}\n\n\
event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let (_, response) = decode_ok(AnthropicAssembler::new(), body.as_bytes());
    assert_eq!(response.usage.input_tokens, u64::MAX);
}

#[test]
fn prompt_cache_marks_system_tools_and_only_the_newest_message() {
    let mut request = sample_request();
    // A request in the middle of a tool loop ends with the tool results.
    std::sync::Arc::make_mut(&mut request.messages).truncate(3);
    let body = build_request_body(&request);
    let text = body.to_string();
    assert_eq!(text.matches("cache_control").count(), 3, "{text}");
    assert!(body["system"][0]["cache_control"].is_object());
    assert!(body["tools"][0]["cache_control"].is_object());
    let messages = body["messages"].as_array().unwrap();
    let last = messages.last().unwrap()["content"].as_array().unwrap();
    assert_eq!(last.last().unwrap()["type"], "tool_result");
    assert_eq!(last.last().unwrap()["cache_control"]["type"], "ephemeral");
    assert!(
        last[0].get("cache_control").is_none(),
        "only the last block of the turn"
    );
    for earlier in &messages[..messages.len() - 1] {
        assert!(!earlier.to_string().contains("cache_control"), "{earlier}");
    }
}

#[test]
fn extended_thinking_is_asked_for_with_room_left_to_answer() {
    let mut request = sample_request();
    request.thinking_budget_tokens = Some(4096);
    request.max_output_tokens = Some(1000);
    let body = build_request_body(&request);
    assert_eq!(
        body["thinking"],
        json!({"type": "enabled", "budget_tokens": 4096})
    );
    // max_tokens must exceed the budget: raised when the configured one does not.
    assert_eq!(body["max_tokens"], 4096 + DEFAULT_MAX_TOKENS);
    request.max_output_tokens = Some(20_000);
    assert_eq!(build_request_body(&request)["max_tokens"], 20_000);
    request.thinking_budget_tokens = None;
    assert!(build_request_body(&request).get("thinking").is_none());
}

#[test]
fn a_temperature_is_sent_within_anthropics_range_and_never_with_thinking() {
    let mut request = sample_request();
    assert!(build_request_body(&request).get("temperature").is_none());
    request.temperature = Some(0.2);
    assert_eq!(build_request_body(&request)["temperature"], 0.2);
    request.temperature = Some(1.5);
    assert_eq!(build_request_body(&request)["temperature"], 1.0);
    request.thinking_budget_tokens = Some(2048);
    assert!(build_request_body(&request).get("temperature").is_none());
}

#[test]
fn request_body_sends_images_as_base64_blocks_before_the_text() {
    let body = build_request_body(&image_request("What is in these?"));
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AA="}},
            {"type": "text", "text": "What is in these?", "cache_control": {"type": "ephemeral"}},
        ]}])
    );
    // Images alone: no empty text block; the cache breakpoint moves to the last image.
    let body = build_request_body(&image_request(" "));
    assert_eq!(
        body["messages"][0]["content"],
        json!([
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AA="},
             "cache_control": {"type": "ephemeral"}},
        ])
    );
}
