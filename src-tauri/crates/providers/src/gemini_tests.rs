use serde_json::json;

use super::*;
use crate::test_util::*;

const TEXT_AND_THOUGHTS: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Planning.\",\"thought\": true}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 10,\"totalTokenCount\": 10},\"modelVersion\": \"gemini-2.5-pro\"}\r\n\r\n\
data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hello \"}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 10,\"candidatesTokenCount\": 1,\"thoughtsTokenCount\": 4}}\r\n\r\n\
data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"wörld\",\"thoughtSignature\": \"dGV4dHNpZw==\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 10,\"candidatesTokenCount\": 3,\"thoughtsTokenCount\": 4,\"cachedContentTokenCount\": 6,\"totalTokenCount\": 17}}\r\n\r\n";

const PARALLEL_CALLS: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"read_file\",\"args\": {\"path\": \"a.rs\"}},\"thoughtSignature\": \"Y2FsbHNpZw==\"},{\"functionCall\": {\"id\": \"fc_2\",\"name\": \"grep\",\"args\": {\"q\": \"x\", \"n\": 2}}}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 20,\"candidatesTokenCount\": 8}}\r\n\r\n";

#[test]
fn text_thoughts_signature_and_usage() {
    let (events, response) = decode_ok(GeminiAssembler::new(), TEXT_AND_THOUGHTS.as_bytes());
    assert_eq!(
        events,
        vec![
            ResponseEvent::ReasoningDelta("Planning.".into()),
            ResponseEvent::TextDelta("Hello ".into()),
            ResponseEvent::TextDelta("wörld".into()),
        ]
    );
    assert_eq!(response.text, "Hello wörld");
    assert_eq!(response.reasoning.as_deref(), Some("Planning."));
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));
    assert_eq!(
        response.usage,
        TokenUsage {
            input_tokens: 10,
            output_tokens: 7,
            cached_input_tokens: 6,
            reasoning_tokens: 4
        },
        "the last usageMetadata wins"
    );
    assert_eq!(
        response.provider_data,
        Some(json!({"gemini": {"text_signature": "dGV4dHNpZw=="}}))
    );
}

#[test]
fn split_at_every_byte_boundary() {
    assert_split_invariant(GeminiAssembler::new, TEXT_AND_THOUGHTS.as_bytes());
}

#[test]
fn parallel_function_calls_with_and_without_ids() {
    let (events, response) = decode_ok(GeminiAssembler::new(), PARALLEL_CALLS.as_bytes());
    assert_eq!(response.tool_calls.len(), 2);
    let first = &response.tool_calls[0];
    assert!(first.id.starts_with("gemini-call-"), "{}", first.id);
    assert_eq!(first.name, "read_file");
    assert_eq!(first.arguments, r#"{"path": "a.rs"}"#, "raw args text kept");
    assert_eq!(
        response.tool_calls[1],
        call("fc_2", "grep", r#"{"q": "x", "n": 2}"#)
    );
    assert_eq!(calls_from_deltas(&events), response.tool_calls);
    assert_eq!(response.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(
        response.provider_data,
        Some(json!({"gemini": {"call_signatures": {first.id.clone(): "Y2FsbHNpZw=="}}}))
    );
    // Synthesised ids are unique across responses.
    let (_, again) = decode_ok(GeminiAssembler::new(), PARALLEL_CALLS.as_bytes());
    assert_ne!(again.tool_calls[0].id, first.id);
}

#[test]
fn string_args_pass_through_as_raw_text() {
    let body = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"edit\",\"args\":\"{\\\"path\\\": oops\"}}]},\"finishReason\":\"STOP\"}]}\n\n";
    let (_, response) = decode_ok(GeminiAssembler::new(), body.as_bytes());
    assert_eq!(response.tool_calls[0].arguments, r#"{"path": oops"#);
    let no_args = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"pwd\"}}]},\"finishReason\":\"STOP\"}]}\n\n";
    let (_, response) = decode_ok(GeminiAssembler::new(), no_args.as_bytes());
    assert_eq!(response.tool_calls[0].arguments, "{}");
}

#[test]
fn missing_finish_reason_is_interrupted() {
    let first_event = TEXT_AND_THOUGHTS
        .split_inclusive("\r\n\r\n")
        .next()
        .unwrap_or_default();
    let (events, err) = decode_pieces(GeminiAssembler::new(), &[first_event.as_bytes()]);
    assert_eq!(
        events,
        vec![ResponseEvent::ReasoningDelta("Planning.".into())]
    );
    assert!(matches!(err, Some(ProviderError::StreamInterrupted(_))));
}

#[test]
fn max_tokens_and_safety_stops() {
    let body = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]},\"finishReason\":\"MAX_TOKENS\"}]}\n\n";
    let (_, response) = decode_ok(GeminiAssembler::new(), body.as_bytes());
    assert_eq!(response.stop_reason, Some(StopReason::MaxTokens));
    let blocked = "data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"},\"usageMetadata\":{\"promptTokenCount\":4}}\n\n";
    let (_, response) = decode_ok(GeminiAssembler::new(), blocked.as_bytes());
    assert_eq!(response.stop_reason, Some(StopReason::ContentFilter));
}

#[test]
fn error_chunk_is_classified() {
    let body = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\n\n\
data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}\n\n";
    let (events, err) = decode_pieces(GeminiAssembler::new(), &[body.as_bytes()]);
    assert_eq!(events, vec![ResponseEvent::TextDelta("a".into())]);
    assert_eq!(
        err,
        Some(ProviderError::Overloaded {
            retry_after: None,
            message: "The model is overloaded.".into()
        })
    );
}

#[test]
fn url_variants() {
    assert_eq!(
        request_url("https://generativelanguage.googleapis.com/", "gemini-2.5-pro"),
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    );
    assert_eq!(
        request_url("https://g.example/v1beta", "models/gemini-2.5-flash"),
        "https://g.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    );
    assert_eq!(
        request_url("https://g.example/v1", "m"),
        "https://g.example/v1/models/m:streamGenerateContent?alt=sse"
    );
}

#[test]
fn request_body_shape() {
    let mut request = sample_request();
    if let Message::Assistant { provider_data, .. } =
        &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *provider_data = Some(json!({"gemini": {"call_signatures": {"call_1": "sig1"}}}));
    }
    if let Message::Assistant { provider_data, .. } =
        &mut std::sync::Arc::make_mut(&mut request.messages)[4]
    {
        *provider_data = Some(json!({"gemini": {"text_signature": "sig2"}}));
    }
    let body = build_request_body(&request);
    assert_eq!(
        body,
        json!({
            "systemInstruction": {"parts": [{"text": "You are terse."}]},
            "contents": [
                {"role": "user", "parts": [{"text": "Read a.rs and b.rs"}]},
                {"role": "model", "parts": [
                    {"functionCall": {"id": "call_1", "name": "read_file", "args": {"path": "a.rs"}}, "thoughtSignature": "sig1"},
                    {"functionCall": {"id": "call_2", "name": "read_file", "args": {}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"id": "call_1", "name": "read_file", "response": {"output": "fn a() {}"}}},
                    {"functionResponse": {"id": "call_2", "name": "read_file", "response": {"error": "invalid arguments"}}},
                ]},
                {"role": "model", "parts": [{"text": "Both read.", "thoughtSignature": "sig2"}]},
                {"role": "user", "parts": [{"text": "Thanks"}]},
            ],
            "tools": [{"functionDeclarations": [{
                "name": "read_file",
                "description": "Reads a file",
                "parametersJsonSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
            }]}],
            "generationConfig": {"maxOutputTokens": 1000},
        })
    );
}

#[test]
fn request_body_merges_and_hides_synthetic_ids() {
    let request = ModelRequest {
        model: "m".into(),
        system: String::new(),
        messages: std::sync::Arc::new(vec![
            Message::user("a"),
            Message::user("b"),
            Message::Assistant {
                text: "calling".into(),
                reasoning: None,
                tool_calls: vec![call("gemini-call-7", "pwd", "{}")],
                provider_data: None,
            },
            Message::ToolResult {
                call_id: "gemini-call-7".into(),
                name: "pwd".into(),
                content: "/".into(),
                is_error: false,
            },
            Message::user("next"),
        ]),
        tools: vec![],
        parallel_tool_calls: false,
        max_output_tokens: None,
        thinking_budget_tokens: None,
        temperature: None,
    };
    assert_eq!(
        build_request_body(&request),
        json!({"contents": [
            {"role": "user", "parts": [{"text": "a"}, {"text": "b"}]},
            {"role": "model", "parts": [
                {"text": "calling"},
                {"functionCall": {"name": "pwd", "args": {}},
                 "thoughtSignature": "skip_thought_signature_validator"},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "pwd", "response": {"output": "/"}}},
                {"text": "next"},
            ]},
        ]})
    );
}

#[test]
fn calls_without_a_stored_signature_get_the_documented_placeholder() {
    // History Gemini did not produce (another provider's turn, a lost signature): Gemini 3
    // rejects a step whose first functionCall has no thoughtSignature.
    let body = build_request_body(&sample_request());
    let parts = &body["contents"][1]["parts"];
    assert_eq!(
        parts[0]["thoughtSignature"], "skip_thought_signature_validator",
        "{parts}"
    );
    // Only the first call of a step carries one, as in Gemini's own parallel calls.
    assert!(parts[1].get("thoughtSignature").is_none(), "{parts}");
    // A text-only step needs none.
    assert!(body["contents"][3]["parts"][0]
        .get("thoughtSignature")
        .is_none());
}

#[test]
fn a_real_signature_is_never_replaced() {
    // Gemini signs only the first of parallel calls; the others must stay unsigned.
    let mut request = sample_request();
    if let Message::Assistant { provider_data, .. } =
        &mut std::sync::Arc::make_mut(&mut request.messages)[1]
    {
        *provider_data = Some(json!({"gemini": {"call_signatures": {"call_1": "sig1"}}}));
    }
    let body = build_request_body(&request);
    let parts = &body["contents"][1]["parts"];
    assert_eq!(parts[0]["thoughtSignature"], "sig1");
    assert!(parts[1].get("thoughtSignature").is_none());
}

#[test]
fn absurd_usage_counts_saturate_instead_of_overflowing() {
    let body = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]},\"finishReason\":\"STOP\"}],\
\"usageMetadata\":{\"candidatesTokenCount\":18446744073709551615,\"thoughtsTokenCount\":7}}\n\n";
    let (_, response) = decode_ok(GeminiAssembler::new(), body.as_bytes());
    assert_eq!(response.usage.output_tokens, u64::MAX);
}

#[test]
fn a_thinking_budget_goes_into_generation_config_with_thoughts_included() {
    let mut request = sample_request();
    request.thinking_budget_tokens = Some(2048);
    let body = build_request_body(&request);
    assert_eq!(
        body["generationConfig"],
        json!({
            "maxOutputTokens": 1000,
            "thinkingConfig": {"thinkingBudget": 2048, "includeThoughts": true},
        })
    );
    request.max_output_tokens = None;
    let body = build_request_body(&request);
    assert_eq!(
        body["generationConfig"],
        json!({"thinkingConfig": {"thinkingBudget": 2048, "includeThoughts": true}})
    );
}

#[test]
fn a_temperature_goes_into_generation_config() {
    let mut request = sample_request();
    assert!(build_request_body(&request)["generationConfig"]
        .get("temperature")
        .is_none());
    request.temperature = Some(0.2);
    assert_eq!(
        build_request_body(&request)["generationConfig"]["temperature"],
        0.2
    );
}

#[test]
fn request_body_sends_images_as_inline_data_parts_before_the_text() {
    let body = build_request_body(&image_request("What is in these?"));
    assert_eq!(
        body,
        json!({"contents": [{"role": "user", "parts": [
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AA="}},
            {"text": "What is in these?"},
        ]}]})
    );
    // Images alone: no empty text part.
    let body = build_request_body(&image_request(""));
    assert_eq!(
        body["contents"][0]["parts"],
        json!([
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AA="}},
        ])
    );
}
