//! Anthropic Messages wire format.

use memo_test_support::{HttpError, MockLlmServer, MockResponse};
use serde_json::{json, Value};

use crate::common::*;

#[tokio::test]
async fn event_order_and_blocks_match_the_api() {
    let server = MockLlmServer::start_with([MockResponse::text("Let me look.")
        .with_reasoning("I should read the file.")
        .with_thinking_signature("sig-123")
        .with_tool_call("read_file", r#"{"file_path":"a.txt"}"#)
        .with_usage(50, 20)
        .with_cached_tokens(30)])
    .await
    .unwrap();
    let response = post(&anthropic_url(&server.base_url()), &anthropic_request()).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let body = read_ok(response).await;
    assert!(body.contains("event: ping\ndata: {\"type\": \"ping\"}\n\n"));
    assert!(body.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));

    let events = parse_sse(&body);
    for event in &events {
        // The event name always repeats the payload's type.
        assert_eq!(event.event.as_deref(), event.json()["type"].as_str());
    }
    // Collapse runs of deltas to see the skeleton.
    let mut skeleton: Vec<String> = Vec::new();
    for event in &events {
        let name = event.event.clone().unwrap();
        if skeleton.last() != Some(&name) || name != "content_block_delta" {
            skeleton.push(name);
        }
    }
    assert_eq!(
        skeleton,
        [
            "message_start",
            "ping",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ]
    );

    let start = events[0].json();
    let message = &start["message"];
    assert!(message["id"].as_str().unwrap().starts_with("msg_"));
    assert_eq!(message["type"], "message");
    assert_eq!(message["role"], "assistant");
    assert_eq!(message["content"], json!([]));
    assert_eq!(message["model"], "claude-sonnet-4-5");
    assert_eq!(message["stop_reason"], Value::Null);
    assert_eq!(message["stop_sequence"], Value::Null);
    assert_eq!(
        message["usage"],
        json!({
            "input_tokens": 20,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 30,
            "output_tokens": 1,
        })
    );

    let payloads: Vec<Value> = events.iter().map(|e| e.json()).collect();
    let block = |index: u64| -> (Value, Vec<Value>) {
        let start = payloads
            .iter()
            .find(|p| p["type"] == "content_block_start" && p["index"] == index)
            .unwrap()["content_block"]
            .clone();
        let deltas = payloads
            .iter()
            .filter(|p| p["type"] == "content_block_delta" && p["index"] == index)
            .map(|p| p["delta"].clone())
            .collect();
        (start, deltas)
    };

    let (thinking, deltas) = block(0);
    assert_eq!(thinking, json!({"type": "thinking", "thinking": ""}));
    let (signature, thoughts) = deltas.split_last().unwrap();
    assert_eq!(
        *signature,
        json!({"type": "signature_delta", "signature": "sig-123"})
    );
    let thought: String = thoughts
        .iter()
        .map(|d| {
            assert_eq!(d["type"], "thinking_delta");
            d["thinking"].as_str().unwrap()
        })
        .collect();
    assert_eq!(thought, "I should read the file.");

    let (text, deltas) = block(1);
    assert_eq!(text, json!({"type": "text", "text": ""}));
    let text: String = deltas
        .iter()
        .map(|d| {
            assert_eq!(d["type"], "text_delta");
            d["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(text, "Let me look.");

    let (tool, deltas) = block(2);
    assert!(tool["id"].as_str().unwrap().starts_with("toolu_"));
    assert_eq!(tool["type"], "tool_use");
    assert_eq!(tool["name"], "read_file");
    assert_eq!(tool["input"], json!({}));
    assert_eq!(
        deltas[0],
        json!({"type": "input_json_delta", "partial_json": ""})
    );
    let input: String = deltas
        .iter()
        .map(|d| {
            assert_eq!(d["type"], "input_json_delta");
            d["partial_json"].as_str().unwrap()
        })
        .collect();
    assert_eq!(input, r#"{"file_path":"a.txt"}"#);
    assert!(deltas.len() > 2);

    let message_delta = &payloads[payloads.len() - 2];
    assert_eq!(
        *message_delta,
        json!({
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": null},
            "usage": {"output_tokens": 20},
        })
    );
    server.shutdown().await;
}

#[tokio::test]
async fn plain_text_ends_with_end_turn_and_parallel_tools_get_own_blocks() {
    let server = MockLlmServer::start_with([
        MockResponse::text("Hi"),
        MockResponse::tool_calls([("a", "{}"), ("b", r#"{"x":1}"#)]),
        MockResponse::text("long").truncated(),
    ])
    .await
    .unwrap();
    let url = anthropic_url(&server.base_url());
    let stop_reason = |body: &str| {
        parse_sse(body)
            .iter()
            .map(|e| e.json())
            .find(|p| p["type"] == "message_delta")
            .unwrap()["delta"]["stop_reason"]
            .clone()
    };

    let body = read_ok(post(&url, &anthropic_request()).await).await;
    assert_eq!(stop_reason(&body), "end_turn");

    let body = read_ok(post(&url, &anthropic_request()).await).await;
    assert_eq!(stop_reason(&body), "tool_use");
    let starts: Vec<Value> = parse_sse(&body)
        .iter()
        .map(|e| e.json())
        .filter(|p| p["type"] == "content_block_start")
        .collect();
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[0]["index"], 0);
    assert_eq!(starts[0]["content_block"]["name"], "a");
    assert_eq!(starts[1]["index"], 1);
    assert_eq!(starts[1]["content_block"]["name"], "b");
    assert_ne!(
        starts[0]["content_block"]["id"],
        starts[1]["content_block"]["id"]
    );

    let body = read_ok(post(&url, &anthropic_request()).await).await;
    assert_eq!(stop_reason(&body), "max_tokens");
    server.shutdown().await;
}

#[tokio::test]
async fn http_errors_have_the_anthropic_shape() {
    let server = MockLlmServer::start_with([
        MockResponse::http_error(429).retry_after(2),
        MockResponse::http_error(529),
        MockResponse::http_error(500),
        MockResponse::http_error(400),
        MockResponse::http_error(401),
    ])
    .await
    .unwrap();
    let url = anthropic_url(&server.base_url());
    let expected = [
        (429, "rate_limit_error"),
        (529, "overloaded_error"),
        (500, "api_error"),
        (400, "invalid_request_error"),
        (401, "authentication_error"),
    ];
    for (status, kind) in expected {
        let response = post(&url, &anthropic_request()).await;
        assert_eq!(response.status().as_u16(), status);
        let retry = response.headers().get("retry-after").cloned();
        assert_eq!(retry.is_some(), status == 429);
        if let Some(retry) = retry {
            assert_eq!(retry, "2");
        }
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["type"], "error");
        assert_eq!(body["error"]["type"], kind);
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
    }
    server.shutdown().await;
}

#[tokio::test]
async fn mid_stream_error_event() {
    let server = MockLlmServer::start_with([
        MockResponse::text("partial").mid_stream_error(),
        MockResponse::text("x").mid_stream_error_with(HttpError {
            message: Some("boom".into()),
            ..HttpError::new(500)
        }),
    ])
    .await
    .unwrap();
    let url = anthropic_url(&server.base_url());
    let body = read_ok(post(&url, &anthropic_request()).await).await;
    assert!(
        body.ends_with(
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
        ),
        "{body}"
    );
    assert!(!body.contains("message_stop"));
    assert!(!body.contains("message_delta"));

    let body = read_ok(post(&url, &anthropic_request()).await).await;
    let last = parse_sse(&body).pop().unwrap().json();
    assert_eq!(
        last["error"],
        json!({"type": "api_error", "message": "boom"})
    );
    server.shutdown().await;
}

#[tokio::test]
async fn non_streaming_request_gets_a_message() {
    let server = MockLlmServer::start_with([MockResponse::text("Hello")
        .with_tool_call("t", r#"{"k":"v"}"#)
        .with_usage(9, 2)])
    .await
    .unwrap();
    let mut request = anthropic_request();
    request.as_object_mut().unwrap().remove("stream");
    let response = post(&anthropic_url(&server.base_url()), &request).await;
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["type"], "message");
    assert_eq!(body["content"][0], json!({"type": "text", "text": "Hello"}));
    assert_eq!(body["content"][1]["input"], json!({"k": "v"}));
    assert_eq!(body["stop_reason"], "tool_use");
    assert_eq!(body["usage"]["output_tokens"], 2);
    server.shutdown().await;
}
