use serde_json::json;

use super::*;
use crate::test_util::*;

const TEXT: &[u8] = b"data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo \\u00e9\\n\"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,\"prompt_tokens_details\":{\"cached_tokens\":8},\"completion_tokens_details\":{\"reasoning_tokens\":2}}}\n\n\
data: [DONE]\n\n";

const ONE_TOOL: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"pa\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"th\\\":\\\"src/m\xc3\xa4in.rs\\\"}\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n\
data: [DONE]\n\n";

const PARALLEL: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"x\\\"}\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"a.rs\\\"}\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n\
data: [DONE]\n\n";

#[test]
fn text_stream_with_usage() {
    let (events, response) = decode_ok(OpenAiAssembler::new(), TEXT);
    assert_eq!(
        events,
        vec![
            ResponseEvent::TextDelta("Hel".into()),
            ResponseEvent::TextDelta("lo é\n".into())
        ]
    );
    assert_eq!(response.text, "Hello é\n");
    assert_eq!(text_of(&events), response.text);
    assert_eq!(response.reasoning, None);
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));
    assert_eq!(
        response.usage,
        TokenUsage {
            input_tokens: 12,
            output_tokens: 5,
            cached_input_tokens: 8,
            reasoning_tokens: 2
        }
    );
}

#[test]
fn text_stream_survives_any_split_and_crlf() {
    assert_split_invariant(OpenAiAssembler::new, TEXT);
    let crlf: Vec<u8> = String::from_utf8_lossy(TEXT)
        .replace('\n', "\r\n")
        .into_bytes();
    // (The JSON escapes `\n` as two characters, so only the SSE framing changed.)
    let (_, response) = decode_ok(OpenAiAssembler::new(), &crlf);
    assert_eq!(response.text, "Hello é\n");
    assert_split_invariant(OpenAiAssembler::new, &crlf);
}

#[test]
fn reasoning_content_becomes_reasoning_deltas() {
    let body = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let me \"}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"think.\"}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"42\",\"reasoning_content\":null}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":9,\"prompt_cache_hit_tokens\":1}}\n\n\
data: [DONE]\n\n";
    let (events, response) = decode_ok(OpenAiAssembler::new(), body);
    assert_eq!(reasoning_of(&events), "Let me think.");
    assert_eq!(response.reasoning.as_deref(), Some("Let me think."));
    assert_eq!(response.text, "42");
    assert_eq!(
        response.usage.cached_input_tokens, 1,
        "DeepSeek cache field"
    );
}

#[test]
fn one_tool_call_assembled_from_fragments() {
    let (events, response) = decode_ok(OpenAiAssembler::new(), ONE_TOOL);
    let expected = vec![call("call_a", "read_file", r#"{"path":"src/mäin.rs"}"#)];
    assert_eq!(response.tool_calls, expected);
    assert_eq!(calls_from_deltas(&events), expected);
    assert_eq!(response.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(response.text, "");
    assert_split_invariant(OpenAiAssembler::new, ONE_TOOL);
}

#[test]
fn parallel_tool_calls_by_index() {
    let (events, response) = decode_ok(OpenAiAssembler::new(), PARALLEL);
    let expected = vec![
        call("call_a", "read_file", r#"{"path":"a.rs"}"#),
        call("call_b", "grep", r#"{"q":"x"}"#),
    ];
    assert_eq!(response.tool_calls, expected);
    assert_eq!(calls_from_deltas(&events), expected);
    assert_split_invariant(OpenAiAssembler::new, PARALLEL);
}

#[test]
fn invalid_argument_json_is_passed_through() {
    let body = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"edit\",\"arguments\":\"{\\\"path\\\": \\\"x\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n\
data: [DONE]\n\n";
    let (_, response) = decode_ok(OpenAiAssembler::new(), body);
    assert_eq!(
        response.tool_calls,
        vec![call("c", "edit", r#"{"path": "x"#)]
    );
    assert_eq!(response.stop_reason, Some(StopReason::MaxTokens));
}

#[test]
fn name_after_id_and_missing_ids_and_stop_with_calls() {
    // A server that sends the id first, the name later, repeats the name, and says "stop".
    let body = b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x1\",\"function\":{\"arguments\":\"{\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"ls\",\"arguments\":\"}\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"pwd\",\"arguments\":\"{}\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
data: [DONE]\n\n";
    let (events, response) = decode_ok(OpenAiAssembler::new(), body);
    assert_eq!(response.tool_calls.len(), 2);
    assert_eq!(response.tool_calls[0], call("x1", "ls", "{}"));
    assert_eq!(response.tool_calls[1].name, "pwd");
    assert!(response.tool_calls[1].id.starts_with("call-"));
    assert_eq!(calls_from_deltas(&events), response.tool_calls);
    assert_eq!(response.stop_reason, Some(StopReason::ToolUse));
}

#[test]
fn finish_reason_without_done_is_accepted() {
    let body = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n";
    let (_, response) = decode_ok(OpenAiAssembler::new(), body);
    assert_eq!(response.text, "ok");
}

#[test]
fn truncated_stream_is_interrupted() {
    let cut = &TEXT[..TEXT.len() / 2];
    let (events, err) = decode_pieces(OpenAiAssembler::new(), &[cut]);
    assert!(
        matches!(err, Some(ProviderError::StreamInterrupted(_))),
        "{err:?}"
    );
    assert!(!events
        .iter()
        .any(|e| matches!(e, ResponseEvent::Completed(_))));
    // Cut in the middle of a line, after a whole finish_reason event, is still accepted.
    let at_usage = TEXT.windows(6).position(|w| w == b"\"usage").unwrap_or(0);
    let (_, err) = decode_pieces(OpenAiAssembler::new(), &[&TEXT[..at_usage]]);
    assert_eq!(err, None);
}

#[test]
fn error_chunk_is_classified_after_earlier_deltas() {
    let body = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n\
data: {\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}\n\n";
    let (events, err) = decode_pieces(OpenAiAssembler::new(), &[body]);
    assert_eq!(events, vec![ResponseEvent::TextDelta("par".into())]);
    assert_eq!(
        err,
        Some(ProviderError::RateLimited {
            retry_after: None,
            message: "Rate limit reached".into()
        })
    );
}

#[test]
fn garbage_chunk_is_fatal() {
    let (_, err) = decode_pieces(OpenAiAssembler::new(), &[b"data: {not json\n\n"]);
    assert!(matches!(err, Some(ProviderError::Fatal(_))));
}

#[test]
fn url_joins_base() {
    assert_eq!(
        request_url("https://api.openai.com/v1/"),
        "https://api.openai.com/v1/chat/completions"
    );
    assert_eq!(
        request_url("http://localhost:11434/v1"),
        "http://localhost:11434/v1/chat/completions"
    );
}

#[test]
fn request_body_shape() {
    let body = build_request_body(&sample_request());
    assert_eq!(
        body,
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "You are terse."},
                {"role": "user", "content": "Read a.rs and b.rs"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.rs\"}"}},
                    {"id": "call_2", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"b.rs"}},
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "fn a() {}"},
                {"role": "tool", "tool_call_id": "call_2", "content": "invalid arguments"},
                {"role": "assistant", "content": "Both read."},
                {"role": "user", "content": "Thanks"},
            ],
            "tools": [{"type": "function", "function": {
                "name": "read_file",
                "description": "Reads a file",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            }}],
            "parallel_tool_calls": true,
            "stream": true,
            "stream_options": {"include_usage": true},
            "max_tokens": 1000,
        })
    );
}

#[test]
fn request_body_without_tools_system_or_limit() {
    let mut request = sample_request();
    request.tools.clear();
    request.system.clear();
    request.max_output_tokens = None;
    let body = build_request_body(&request);
    assert!(body.get("tools").is_none());
    assert!(body.get("parallel_tool_calls").is_none());
    assert!(body.get("max_tokens").is_none());
    assert!(body.get("temperature").is_none());
    assert_eq!(body["messages"][0]["role"], "user");
    request.temperature = Some(0.2);
    assert_eq!(build_request_body(&request)["temperature"], 0.2);
}

#[test]
fn request_body_pairs_results_with_calls() {
    let mut request = sample_request();
    // The second result went missing (interrupted turn) and the first came after a user
    // message: the body must still pair every call with a result, in order.
    std::sync::Arc::make_mut(&mut request.messages).remove(3);
    let result = std::sync::Arc::make_mut(&mut request.messages).remove(2);
    std::sync::Arc::make_mut(&mut request.messages).insert(2, Message::user("hurry"));
    std::sync::Arc::make_mut(&mut request.messages).insert(3, result);
    let body = build_request_body(&request);
    let roles: Vec<&str> = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| m["role"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        roles,
        [
            "system",
            "user",
            "assistant",
            "tool",
            "tool",
            "user",
            "assistant",
            "user"
        ]
    );
    assert_eq!(body["messages"][3]["tool_call_id"], "call_1");
    assert_eq!(body["messages"][4]["tool_call_id"], "call_2");
    assert_eq!(body["messages"][5]["content"], "hurry");
}

#[test]
fn parallel_calls_sharing_index_zero_are_told_apart_by_id() {
    let body = b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"ls\",\"arguments\":\"{\\\"p\\\":1}\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"pwd\",\"arguments\":\"{\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"}\"}}]}}]}\n\n\
data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n\
data: [DONE]\n\n";
    let (events, response) = decode_ok(OpenAiAssembler::new(), body);
    let expected = vec![call("a", "ls", r#"{"p":1}"#), call("b", "pwd", "{}")];
    assert_eq!(response.tool_calls, expected);
    assert_eq!(calls_from_deltas(&events), expected);
}

#[test]
fn empty_assistant_turns_are_skipped() {
    let mut request = sample_request();
    std::sync::Arc::make_mut(&mut request.messages).insert(
        5,
        Message::Assistant {
            text: String::new(),
            reasoning: None,
            tool_calls: vec![],
            provider_data: None,
        },
    );
    let with_empty = build_request_body(&request);
    assert_eq!(with_empty, build_request_body(&sample_request()));
}

/// A DeepSeek thinking-mode step that ends in a tool call.
const DEEPSEEK_TOOL_STEP: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"Need the file.\"}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"reasoning_content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}]}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n\
data: [DONE]\n\n";

fn history_with(response: &ModelResponse) -> ModelRequest {
    let mut request = sample_request();
    let messages = std::sync::Arc::make_mut(&mut request.messages);
    messages.truncate(1);
    messages.push(Message::Assistant {
        text: response.text.clone(),
        reasoning: response.reasoning.clone(),
        tool_calls: response.tool_calls.clone(),
        provider_data: response.provider_data.clone(),
    });
    messages.push(Message::ToolResult {
        call_id: response.tool_calls[0].id.clone(),
        name: "read_file".into(),
        content: "x".into(),
        is_error: false,
    });
    request
}

#[test]
fn deepseek_tool_step_reasoning_is_passed_back() {
    // DeepSeek answers 400 when the reasoning_content of a step with tool calls is not
    // sent back on later requests.
    let (_, response) = decode_ok(OpenAiAssembler::new(), DEEPSEEK_TOOL_STEP);
    assert_eq!(response.reasoning.as_deref(), Some("Need the file."));
    let body = build_request_body(&history_with(&response));
    let assistant = &body["messages"][2];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(assistant["reasoning_content"], "Need the file.");
}

#[test]
fn deepseek_tool_step_without_reasoning_still_sends_the_field() {
    // The key was there (null): the server speaks reasoning_content, so an empty one goes back.
    let body_bytes = String::from_utf8_lossy(DEEPSEEK_TOOL_STEP)
        .replace("\"Need the file.\"", "null")
        .into_bytes();
    let (_, response) = decode_ok(OpenAiAssembler::new(), &body_bytes);
    assert_eq!(response.reasoning, None);
    let body = build_request_body(&history_with(&response));
    assert_eq!(body["messages"][2]["reasoning_content"], "");
}

#[test]
fn reasoning_is_not_sent_to_servers_that_never_used_the_field() {
    // Plain OpenAI (no reasoning_content in the stream) and reasoning from other adapters
    // (Anthropic thinking in a switched session) must not add an unknown field.
    let (_, response) = decode_ok(OpenAiAssembler::new(), ONE_TOOL);
    assert_eq!(response.provider_data, None);
    let body = build_request_body(&history_with(&response));
    assert!(body["messages"][2].get("reasoning_content").is_none());

    let mut foreign = response.clone();
    foreign.reasoning = Some("thought elsewhere".into());
    foreign.provider_data = Some(json!({"anthropic": {"thinking": []}}));
    let body = build_request_body(&history_with(&foreign));
    assert!(body["messages"][2].get("reasoning_content").is_none());
}

#[test]
fn openai_itself_gets_max_completion_tokens() {
    // OpenAI deprecated max_tokens and rejects it for reasoning models; compatible
    // servers (DeepSeek, Ollama, llama.cpp...) document only max_tokens.
    let body = build_request_body(&sample_request());
    let official = for_endpoint(body.clone(), "https://api.openai.com/v1/chat/completions");
    assert!(official.get("max_tokens").is_none());
    assert_eq!(official["max_completion_tokens"], 1000);
    for other in [
        "https://api.deepseek.com/chat/completions",
        "http://localhost:11434/v1/chat/completions",
        "https://api.openai.com.evil.example/v1/chat/completions",
    ] {
        let body = for_endpoint(body.clone(), other);
        assert_eq!(body["max_tokens"], 1000, "{other}");
        assert!(body.get("max_completion_tokens").is_none(), "{other}");
    }
}

#[test]
fn the_client_for_openai_itself_sends_max_completion_tokens() {
    let official = OpenAiClient::new(
        memo_http::client().unwrap(),
        "https://api.openai.com/v1",
        None,
    );
    let body = official.request_body(&sample_request());
    assert!(body.get("max_tokens").is_none());
    assert_eq!(body["max_completion_tokens"], 1000);
    let compatible = OpenAiClient::new(
        memo_http::client().unwrap(),
        "https://api.deepseek.com",
        None,
    );
    assert_eq!(
        compatible.request_body(&sample_request())["max_tokens"],
        1000
    );
}

#[test]
fn deepseek_answer_after_tool_results_also_gets_its_reasoning_back() {
    // "Between two user messages, if the model performed a tool call, the intermediate
    // assistant's reasoning_content must be passed back": the final answer of the tool
    // loop is such an intermediate message once the user writes again.
    let answer = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"reasoning_content\":\"Got it.\"}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Done.\",\"reasoning_content\":null}}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
data: [DONE]\n\n";
    let (_, step) = decode_ok(OpenAiAssembler::new(), DEEPSEEK_TOOL_STEP);
    let (_, final_answer) = decode_ok(OpenAiAssembler::new(), answer);
    let mut request = history_with(&step);
    let messages = std::sync::Arc::make_mut(&mut request.messages);
    messages.push(Message::Assistant {
        text: final_answer.text.clone(),
        reasoning: final_answer.reasoning.clone(),
        tool_calls: vec![],
        provider_data: final_answer.provider_data.clone(),
    });
    messages.push(Message::user("next"));
    let body = build_request_body(&request);
    assert_eq!(body["messages"][4]["content"], "Done.");
    assert_eq!(body["messages"][4]["reasoning_content"], "Got it.");
}

#[test]
fn request_body_sends_images_as_data_url_parts() {
    let body = build_request_body(&image_request("What is in these?"));
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": [
            {"type": "text", "text": "What is in these?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
            {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AA="}},
        ]}])
    );
    // Images alone: no empty text part.
    let body = build_request_body(&image_request(""));
    assert_eq!(
        body["messages"][0]["content"],
        json!([
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
            {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AA="}},
        ])
    );
    // Without images the content stays a plain string.
    let body = build_request_body(&sample_request());
    assert_eq!(body["messages"][1]["content"], "Read a.rs and b.rs");
}

#[test]
fn user_messages_stored_before_images_still_deserialize() {
    let old: Message = serde_json::from_str(r#"{"role":"user","text":"hi"}"#).unwrap();
    assert_eq!(old, Message::user("hi"));
    assert_eq!(
        serde_json::to_string(&old).unwrap(),
        r#"{"role":"user","text":"hi"}"#
    );
    let with: Message = serde_json::from_value(json!({"role": "user", "text": "see",
        "images": [{"media_type": "image/png", "data": PNG}]}))
    .unwrap();
    assert_eq!(
        with,
        Message::User {
            text: "see".into(),
            images: vec![image("image/png", PNG)]
        }
    );
}
