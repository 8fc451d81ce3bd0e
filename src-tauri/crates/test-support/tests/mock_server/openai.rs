//! OpenAI chat-completions wire format.

use memo_test_support::{MockLlmServer, MockResponse, MockToolCall};
use serde_json::{json, Value};

use crate::common::*;

#[tokio::test]
async fn text_stream_has_the_real_shape() {
    let server = MockLlmServer::start_with([MockResponse::text("Hello there, world!")])
        .await
        .unwrap();
    let response = post(&openai_url(&server.base_url()), &openai_request(false)).await;
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("text/event-stream"),
        "{content_type}"
    );
    let body = read_ok(response).await;

    assert!(body.ends_with("}\n\ndata: [DONE]\n\n"), "{body}");
    assert!(body.starts_with("data: {"));
    let chunks = openai_chunks(&body);
    let id = chunks[0]["id"].as_str().unwrap();
    assert!(id.starts_with("chatcmpl-"));
    for chunk in &chunks {
        assert_eq!(chunk["id"], id);
        assert_eq!(chunk["object"], "chat.completion.chunk");
        assert!(chunk["created"].as_u64().unwrap() > 1_600_000_000);
        assert_eq!(chunk["model"], "gpt-4o-mini");
        assert_eq!(chunk["system_fingerprint"], "fp_mock");
        assert!(
            chunk.get("usage").is_none(),
            "usage only with include_usage"
        );
        assert_eq!(chunk["choices"][0]["index"], 0);
        assert_eq!(chunk["choices"][0]["logprobs"], Value::Null);
    }
    assert_eq!(
        chunks[0]["choices"][0]["delta"],
        json!({"role": "assistant", "content": ""})
    );
    let text: String = chunks[1..chunks.len() - 1]
        .iter()
        .map(|c| {
            assert_eq!(c["choices"][0]["finish_reason"], Value::Null);
            c["choices"][0]["delta"]["content"].as_str().unwrap()
        })
        .collect();
    assert_eq!(text, "Hello there, world!");
    assert!(chunks.len() > 3, "text must arrive in several deltas");
    let last = chunks.last().unwrap();
    assert_eq!(last["choices"][0]["delta"], json!({}));
    assert_eq!(last["choices"][0]["finish_reason"], "stop");
    server.shutdown().await;
}

#[tokio::test]
async fn reasoning_streams_before_content() {
    let server = MockLlmServer::start_with([MockResponse::text("Answer.")
        .with_reasoning("Let me think about it.")
        .chunk_chars(5)])
    .await
    .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(false)).await).await;
    let deltas: Vec<Value> = openai_chunks(&body)
        .iter()
        .map(|c| c["choices"][0]["delta"].clone())
        .collect();
    let first_content = deltas
        .iter()
        .position(|d| d["content"].as_str().is_some_and(|s| !s.is_empty()))
        .unwrap();
    let reasoning: String = deltas[..first_content]
        .iter()
        .filter_map(|d| d["reasoning_content"].as_str())
        .collect();
    assert_eq!(reasoning, "Let me think about it.");
    assert!(deltas[first_content..]
        .iter()
        .all(|d| d.get("reasoning_content").is_none()));
    server.shutdown().await;
}

/// What a client assembles from tool-call deltas: (index, id, name, arguments).
fn assemble_tool_calls(chunks: &[Value]) -> Vec<(u64, String, String, String)> {
    let mut calls: Vec<(u64, String, String, String)> = Vec::new();
    for chunk in chunks {
        let Some(deltas) = chunk["choices"][0]["delta"]["tool_calls"].as_array() else {
            continue;
        };
        for delta in deltas {
            let index = delta["index"].as_u64().unwrap();
            if let Some(id) = delta["id"].as_str() {
                assert_eq!(delta["type"], "function");
                assert_eq!(delta["function"]["arguments"], "");
                assert_eq!(index as usize, calls.len(), "indices are 0,1,2…");
                calls.push((
                    index,
                    id.to_owned(),
                    delta["function"]["name"].as_str().unwrap().to_owned(),
                    String::new(),
                ));
            } else {
                assert!(delta.get("type").is_none() && delta["function"].get("name").is_none());
                let fragment = delta["function"]["arguments"].as_str().unwrap();
                calls[index as usize].3.push_str(fragment);
            }
        }
    }
    calls
}

#[tokio::test]
async fn tool_call_arguments_reassemble() {
    let args = r#"{"file_path":"src/main.rs","offset":10,"note":"ünïcode ✓"}"#;
    let server = MockLlmServer::start_with([MockResponse::tool_call("read_file", args)])
        .await
        .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(false)).await).await;
    let chunks = openai_chunks(&body);
    let calls = assemble_tool_calls(&chunks);
    assert_eq!(calls.len(), 1);
    assert!(calls[0].1.starts_with("call_"));
    assert_eq!(calls[0].2, "read_file");
    assert_eq!(calls[0].3, args);
    let fragments = chunks
        .iter()
        .filter(|c| {
            c["choices"][0]["delta"]["tool_calls"][0]
                .get("id")
                .is_none()
        })
        .filter(|c| c["choices"][0]["delta"].get("tool_calls").is_some())
        .count();
    assert!(fragments > 3, "arguments must be split into fragments");
    assert_eq!(
        chunks.last().unwrap()["choices"][0]["finish_reason"],
        "tool_calls"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn parallel_tool_calls_use_consecutive_indices() {
    let server = MockLlmServer::start_with([MockResponse::tool_calls([
        ("read_file", r#"{"file_path":"a.txt"}"#),
        ("list_dir", r#"{"path":"."}"#),
    ])
    .with_text("Reading both.")
    .with_tool(MockToolCall::new("grep", r#"{"pattern":"x"}"#).with_id("call_fixed"))])
    .await
    .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(false)).await).await;
    let calls = assemble_tool_calls(&openai_chunks(&body));
    let summary: Vec<(u64, &str, &str)> = calls
        .iter()
        .map(|(i, _, n, a)| (*i, n.as_str(), a.as_str()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (0, "read_file", r#"{"file_path":"a.txt"}"#),
            (1, "list_dir", r#"{"path":"."}"#),
            (2, "grep", r#"{"pattern":"x"}"#),
        ]
    );
    assert_ne!(calls[0].1, calls[1].1, "generated ids are distinct");
    assert_eq!(calls[2].1, "call_fixed");
    server.shutdown().await;
}

#[tokio::test]
async fn usage_chunk_only_with_include_usage() {
    let server = MockLlmServer::start_with([
        MockResponse::text("Hi")
            .with_usage(120, 30)
            .with_cached_tokens(100)
            .with_reasoning_tokens(12),
        MockResponse::text("Hi").with_usage(120, 30),
    ])
    .await
    .unwrap();
    let url = openai_url(&server.base_url());

    let body = read_ok(post(&url, &openai_request(true)).await).await;
    assert!(body.ends_with("data: [DONE]\n\n"));
    let chunks = openai_chunks(&body);
    let (last, earlier) = chunks.split_last().unwrap();
    for chunk in earlier {
        assert_eq!(chunk["usage"], Value::Null, "usage key present but null");
        assert_eq!(chunk["choices"].as_array().unwrap().len(), 1);
    }
    assert_eq!(last["choices"], json!([]));
    assert_eq!(
        last["usage"],
        json!({
            "prompt_tokens": 120,
            "completion_tokens": 30,
            "total_tokens": 150,
            "prompt_tokens_details": {"cached_tokens": 100},
            "completion_tokens_details": {"reasoning_tokens": 12},
        })
    );
    assert_eq!(
        earlier.last().unwrap()["choices"][0]["finish_reason"],
        "stop"
    );

    let body = read_ok(post(&url, &openai_request(false)).await).await;
    assert!(!body.contains("\"usage\""), "{body}");
    server.shutdown().await;
}

#[tokio::test]
async fn truncated_reports_length() {
    let server = MockLlmServer::start_with([MockResponse::text("cut sh").truncated()])
        .await
        .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(false)).await).await;
    let chunks = openai_chunks(&body);
    assert_eq!(
        chunks.last().unwrap()["choices"][0]["finish_reason"],
        "length"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn http_errors_have_the_openai_shape() {
    let server = MockLlmServer::start_with([
        MockResponse::http_error(429)
            .retry_after(7)
            .message("slow down"),
        MockResponse::http_error(400),
        MockResponse::http_error(401),
        MockResponse::http_error(500),
        MockResponse::http_error(503).kind("overloaded"),
    ])
    .await
    .unwrap();
    let url = openai_url(&server.base_url());

    let response = post(&url, &openai_request(false)).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "7");
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": {
            "message": "slow down",
            "type": "rate_limit_exceeded",
            "param": null,
            "code": "rate_limit_exceeded",
        }})
    );

    let response = post(&url, &openai_request(false)).await;
    assert_eq!(response.status(), 400);
    assert!(response.headers().get("retry-after").is_none());
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "context_length_exceeded");
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("maximum context length"));

    let response = post(&url, &openai_request(false)).await;
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_api_key");

    let response = post(&url, &openai_request(false)).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "server_error");

    let response = post(&url, &openai_request(false)).await;
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "overloaded");
    server.shutdown().await;
}

#[tokio::test]
async fn mid_stream_error_replaces_the_ending() {
    let server = MockLlmServer::start_with([MockResponse::text("partial").mid_stream_error()])
        .await
        .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(true)).await).await;
    assert!(!body.contains("[DONE]"));
    let events = parse_sse(&body);
    let last = events.last().unwrap().json();
    assert_eq!(last["error"]["type"], "server_error");
    assert!(last["error"]["message"]
        .as_str()
        .unwrap()
        .contains("overloaded"));
    assert!(events
        .iter()
        .all(|e| e.json()["choices"][0]["finish_reason"].is_null()));
    server.shutdown().await;
}

#[tokio::test]
async fn non_streaming_request_gets_a_completion_object() {
    let server = MockLlmServer::start_with([MockResponse::text("Title")
        .with_tool_call("f", r#"{"a":1}"#)
        .with_usage(3, 4)])
    .await
    .unwrap();
    let mut request = openai_request(false);
    request["stream"] = json!(false);
    let response = post(&openai_url(&server.base_url()), &request).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["object"], "chat.completion");
    assert_eq!(body["choices"][0]["message"]["content"], "Title");
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"][0]["function"],
        json!({"name": "f", "arguments": "{\"a\":1}"})
    );
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(body["usage"]["total_tokens"], 7);
    server.shutdown().await;
}

#[tokio::test]
async fn short_path_without_v1_is_served() {
    let server = MockLlmServer::start_with([MockResponse::text("ok")])
        .await
        .unwrap();
    let url = format!("{}/chat/completions", server.base_url());
    let body = read_ok(post(&url, &openai_request(false)).await).await;
    assert!(body.ends_with("data: [DONE]\n\n"));
    server.shutdown().await;
}

#[tokio::test]
async fn huge_scripted_usage_totals_saturate() {
    // A scenario may script any count; the total must not overflow the handler.
    let server = MockLlmServer::start_with([
        MockResponse::text("x").with_usage(u64::MAX, 2),
        MockResponse::text("x").with_usage(u64::MAX, 2),
    ])
    .await
    .unwrap();
    let body = read_ok(post(&openai_url(&server.base_url()), &openai_request(true)).await).await;
    let chunks = openai_chunks(&body);
    let usage = &chunks.last().unwrap()["usage"];
    assert_eq!(usage["total_tokens"], u64::MAX);

    let body = read_ok(post(&gemini_url(&server.base_url(), "g"), &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    assert_eq!(
        chunks.last().unwrap()["usageMetadata"]["totalTokenCount"],
        u64::MAX
    );
    server.shutdown().await;
}
