//! Gemini streamGenerateContent wire format.

use memo_test_support::{MockLlmServer, MockResponse, MockToolCall};
use serde_json::{json, Value};

use crate::common::*;

#[tokio::test]
async fn text_stream_uses_crlf_and_ends_without_marker() {
    let server = MockLlmServer::start_with([MockResponse::text("Hello from Gemini!")
        .with_reasoning("Pondering.")
        .with_usage(40, 25)
        .with_reasoning_tokens(5)
        .with_cached_tokens(8)])
    .await
    .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-flash");
    let response = post(&url, &gemini_request()).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let body = read_ok(response).await;
    assert!(!body.contains("[DONE]"));
    assert!(body.starts_with("data: {"));
    // Every separator is CRLF CRLF; no bare LF separators.
    assert_eq!(
        body.matches("\r\n\r\n").count(),
        body.matches("\n").count() / 2
    );

    let chunks = gemini_chunks(&body);
    let response_id = chunks[0]["responseId"].clone();
    assert!(response_id.as_str().is_some_and(|id| !id.is_empty()));
    let mut thoughts = String::new();
    let mut text = String::new();
    let mut saw_text = false;
    for chunk in &chunks {
        assert_eq!(chunk["modelVersion"], "gemini-2.5-flash");
        assert_eq!(chunk["responseId"], response_id);
        assert!(chunk["usageMetadata"].is_object());
        let candidate = &chunk["candidates"][0];
        assert_eq!(candidate["content"]["role"], "model");
        assert_eq!(candidate["index"], 0);
        for part in candidate["content"]["parts"].as_array().unwrap() {
            if part["thought"] == json!(true) {
                assert!(!saw_text, "thoughts come first");
                thoughts.push_str(part["text"].as_str().unwrap());
            } else {
                saw_text = true;
                text.push_str(part["text"].as_str().unwrap());
            }
        }
    }
    assert_eq!(thoughts, "Pondering.");
    assert_eq!(text, "Hello from Gemini!");

    let (last, earlier) = chunks.split_last().unwrap();
    assert!(earlier
        .iter()
        .all(|c| c["candidates"][0].get("finishReason").is_none()));
    assert_eq!(last["candidates"][0]["finishReason"], "STOP");
    assert_eq!(
        last["usageMetadata"],
        json!({
            "promptTokenCount": 40,
            "candidatesTokenCount": 20,
            "totalTokenCount": 65,
            "cachedContentTokenCount": 8,
            "thoughtsTokenCount": 5,
        })
    );
    server.shutdown().await;
}

#[tokio::test]
async fn function_calls_are_whole_and_parallel_calls_share_a_chunk() {
    let server = MockLlmServer::start_with([
        MockResponse::tool_calls([
            ("read_file", r#"{"file_path":"a.txt"}"#),
            ("list_dir", r#"{"path":"."}"#),
        ])
        .with_tool(MockToolCall::new("grep", r#"{"p":1}"#).with_id("fc-1"))
        .with_thinking_signature("c2lnbmF0dXJl"),
        MockResponse::tool_call("broken", r#"{"file_path": "a.t"#),
    ])
    .await
    .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-pro");

    let body = read_ok(post(&url, &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    assert_eq!(chunks.len(), 1);
    let candidate = &chunks[0]["candidates"][0];
    assert_eq!(candidate["finishReason"], "STOP");
    assert_eq!(
        candidate["content"]["parts"],
        // Like Gemini 3, only the first of parallel calls carries the thought signature.
        json!([
            {"functionCall": {"name": "read_file", "args": {"file_path": "a.txt"}},
             "thoughtSignature": "c2lnbmF0dXJl"},
            {"functionCall": {"name": "list_dir", "args": {"path": "."}}},
            {"functionCall": {"name": "grep", "args": {"p": 1}, "id": "fc-1"}},
        ])
    );

    let body = read_ok(post(&url, &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    let part = &chunks[0]["candidates"][0]["content"]["parts"][0];
    assert_eq!(
        part["functionCall"]["args"],
        Value::String(r#"{"file_path": "a.t"#.into())
    );
    // Unscripted, a signature is still generated: clients must echo it back.
    assert!(part["thoughtSignature"]
        .as_str()
        .is_some_and(|s| !s.is_empty()));
    server.shutdown().await;
}

#[tokio::test]
async fn empty_answer_and_max_tokens() {
    let server = MockLlmServer::start_with([
        MockResponse::empty().with_usage(3, 0),
        MockResponse::text("abc").truncated(),
    ])
    .await
    .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-flash");
    let body = read_ok(post(&url, &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    assert_eq!(chunks.len(), 1);
    assert_eq!(chunks[0]["candidates"][0]["finishReason"], "STOP");
    assert_eq!(chunks[0]["usageMetadata"]["promptTokenCount"], 3);

    let body = read_ok(post(&url, &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    assert_eq!(
        chunks.last().unwrap()["candidates"][0]["finishReason"],
        "MAX_TOKENS"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn http_errors_have_the_google_shape() {
    let server = MockLlmServer::start_with([
        MockResponse::http_error(429).retry_after(3),
        MockResponse::http_error(503),
        MockResponse::http_error(500),
        MockResponse::http_error(400),
        MockResponse::http_error(401),
        MockResponse::http_error(403),
    ])
    .await
    .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-flash");
    let expected = [
        (429, "RESOURCE_EXHAUSTED"),
        (503, "UNAVAILABLE"),
        (500, "INTERNAL"),
        (400, "INVALID_ARGUMENT"),
        (401, "UNAUTHENTICATED"),
        (403, "PERMISSION_DENIED"),
    ];
    for (status, name) in expected {
        let response = post(&url, &gemini_request()).await;
        assert_eq!(response.status().as_u16(), status);
        let retry = response.headers().get("retry-after").cloned();
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], status);
        assert_eq!(body["error"]["status"], name);
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
        // Gemini sends no Retry-After header: the delay is only in RetryInfo.
        assert!(retry.is_none(), "{status}: {retry:?}");
        if status == 429 {
            assert_eq!(
                body["error"]["details"][0]["@type"],
                "type.googleapis.com/google.rpc.RetryInfo"
            );
            assert_eq!(body["error"]["details"][0]["retryDelay"], "3s");
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn mid_stream_error_chunk_ends_the_stream() {
    let server = MockLlmServer::start_with([MockResponse::text("part").mid_stream_error()])
        .await
        .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-flash");
    let body = read_ok(post(&url, &gemini_request()).await).await;
    let chunks = gemini_chunks(&body);
    let (last, earlier) = chunks.split_last().unwrap();
    assert_eq!(last["error"]["status"], "UNAVAILABLE");
    assert_eq!(last["error"]["code"], 503);
    assert!(earlier
        .iter()
        .all(|c| c["candidates"][0].get("finishReason").is_none()));
    server.shutdown().await;
}

#[tokio::test]
async fn stream_without_alt_sse_is_rejected_without_consuming() {
    let server = MockLlmServer::start_with([MockResponse::text("kept")])
        .await
        .unwrap();
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        server.base_url()
    );
    let response = post(&url, &gemini_request()).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("alt=sse"));
    assert_eq!(server.pending_responses(), 1);
    server.shutdown().await;
}

#[tokio::test]
async fn generate_content_returns_one_response() {
    let server = MockLlmServer::start_with([MockResponse::text("Summary.").with_usage(7, 2)])
        .await
        .unwrap();
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:generateContent",
        server.base_url()
    );
    let response = post(&url, &gemini_request()).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["candidates"][0]["content"]["parts"],
        json!([{"text": "Summary."}])
    );
    assert_eq!(body["candidates"][0]["finishReason"], "STOP");
    assert_eq!(body["usageMetadata"]["totalTokenCount"], 9);
    server.shutdown().await;
}
