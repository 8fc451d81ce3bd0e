//! Recording, scripting and the `/__mock/*` control endpoints.

use std::time::Duration;

use memo_test_support::{MockError, MockLlmServer, MockResponse, WireFormat};
use serde_json::{json, Value};

use crate::common::*;

#[tokio::test]
async fn requests_are_recorded_in_order_with_headers_and_bodies() {
    let server = MockLlmServer::start_with([
        MockResponse::text("a"),
        MockResponse::text("b"),
        MockResponse::text("c"),
    ])
    .await
    .unwrap();
    let base = server.base_url();
    let client = client();
    read_ok(
        client
            .post(openai_url(&base))
            .bearer_auth("sk-test")
            .json(&openai_request(true))
            .send()
            .await
            .unwrap(),
    )
    .await;
    read_ok(
        client
            .post(anthropic_url(&base))
            .header("x-api-key", "ant-key")
            .header("anthropic-version", "2023-06-01")
            .json(&anthropic_request())
            .send()
            .await
            .unwrap(),
    )
    .await;
    read_ok(
        client
            .post(gemini_url(&base, "gemini-2.5-flash"))
            .header("x-goog-api-key", "g-key")
            .json(&gemini_request())
            .send()
            .await
            .unwrap(),
    )
    .await;

    let requests = server
        .wait_for_requests(3, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(requests.len(), 3);
    assert_eq!(
        requests.iter().map(|r| r.format).collect::<Vec<_>>(),
        [
            WireFormat::OpenAi,
            WireFormat::Anthropic,
            WireFormat::Gemini
        ]
    );
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(requests[0].query, None);
    assert_eq!(requests[0].header("authorization"), Some("Bearer sk-test"));
    assert_eq!(requests[0].body, openai_request(true));
    assert_eq!(requests[0].model().as_deref(), Some("gpt-4o-mini"));
    assert_eq!(requests[1].header("x-api-key"), Some("ant-key"));
    assert_eq!(requests[1].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(requests[1].body["max_tokens"], 1024);
    assert_eq!(
        requests[2].path,
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
    );
    assert_eq!(requests[2].query.as_deref(), Some("alt=sse"));
    assert_eq!(requests[2].header("X-Goog-Api-Key"), Some("g-key"));
    assert_eq!(requests[2].model().as_deref(), Some("gemini-2.5-flash"));
    assert_eq!(server.last_request(), Some(requests[2].clone()));
    assert_eq!(server.pending_responses(), 0);
    server.shutdown().await;
}

#[tokio::test]
async fn wait_for_requests_times_out_with_a_clear_error() {
    let server = MockLlmServer::start().await.unwrap();
    let err = server
        .wait_for_requests(1, Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        MockError::Timeout {
            expected: 1,
            received: 0,
            ..
        }
    ));
    assert!(err.to_string().contains("waiting for 1 request"));
    server.shutdown().await;
}

#[tokio::test]
async fn wait_for_requests_wakes_on_arrival() {
    let server = MockLlmServer::start_with([MockResponse::text("x")])
        .await
        .unwrap();
    let url = openai_url(&server.base_url());
    let sender = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        read_ok(post(&url, &openai_request(false)).await).await
    });
    let requests = server
        .wait_for_requests(1, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(requests.len(), 1);
    sender.await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn exhausted_script_answers_500_in_each_format() {
    let server = MockLlmServer::start().await.unwrap();
    let base = server.base_url();

    let response = post(&openai_url(&base), &openai_request(false)).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("mock script exhausted"));

    let response = post(&anthropic_url(&base), &anthropic_request()).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["type"], "error");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("mock script exhausted"));

    let response = post(&gemini_url(&base, "g"), &gemini_request()).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("mock script exhausted"));

    assert_eq!(
        server.requests().len(),
        3,
        "exhausted requests are still recorded"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn push_appends_to_the_queue() {
    let server = MockLlmServer::start().await.unwrap();
    server.push(MockResponse::text("first"));
    server.extend([MockResponse::text("second")]);
    assert_eq!(server.pending_responses(), 2);
    let url = openai_url(&server.base_url());
    let text = |body: &str| -> String {
        openai_chunks(body)
            .iter()
            .filter_map(|c| {
                c["choices"][0]["delta"]["content"]
                    .as_str()
                    .map(str::to_owned)
            })
            .collect()
    };
    assert_eq!(
        text(&read_ok(post(&url, &openai_request(false)).await).await),
        "first"
    );
    assert_eq!(
        text(&read_ok(post(&url, &openai_request(false)).await).await),
        "second"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn invalid_json_body_is_rejected_without_consuming() {
    let server = MockLlmServer::start_with([MockResponse::text("kept")])
        .await
        .unwrap();
    let response = client()
        .post(anthropic_url(&server.base_url()))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert_eq!(server.pending_responses(), 1);
    assert_eq!(server.requests()[0].body, json!("{not json"));
    server.shutdown().await;
}

#[tokio::test]
async fn unknown_routes_are_404_and_not_recorded() {
    let server = MockLlmServer::start_with([MockResponse::text("kept")])
        .await
        .unwrap();
    let response = client()
        .get(format!("{}/v1/embeddings", server.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let response = client()
        .get(openai_url(&server.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404, "model endpoints are POST only");
    assert!(server.requests().is_empty());
    assert_eq!(server.pending_responses(), 1);
    server.shutdown().await;
}

#[tokio::test]
async fn model_listings_answer_like_local_servers_and_are_not_recorded() {
    let server = MockLlmServer::start().await.unwrap();
    let openai: serde_json::Value = client()
        .get(format!("{}/v1/models", server.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        openai["data"][0]["id"],
        memo_test_support::DEFAULT_MOCK_MODEL
    );
    server.set_models(&["qwen2.5-coder:1.5b"]);
    let ollama: serde_json::Value = client()
        .get(format!("{}/api/tags", server.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ollama["models"][0]["name"], "qwen2.5-coder:1.5b");
    assert!(server.requests().is_empty());
    server.shutdown().await;
}

#[tokio::test]
async fn control_endpoints_drive_the_script_out_of_process() {
    let server = MockLlmServer::start().await.unwrap();
    let base = server.base_url();
    let client = client();

    let response = client
        .post(format!("{base}/__mock/responses"))
        .body(r#"{"responses":[{"text":"from control"},{"error":{"status":429,"retry_after_secs":2}}]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"added": 2, "pending": 2})
    );

    let body = read_ok(post(&openai_url(&base), &openai_request(false)).await).await;
    assert!(body.contains("from con"));
    let response = post(&openai_url(&base), &openai_request(false)).await;
    assert_eq!(response.status(), 429);

    let recorded: Value = client
        .get(format!("{base}/__mock/requests"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let recorded = recorded.as_array().unwrap();
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0]["format"], "openai");
    assert_eq!(recorded[0]["path"], "/v1/chat/completions");
    assert_eq!(recorded[0]["body"]["model"], "gpt-4o-mini");
    let typed: Vec<memo_test_support::RecordedRequest> =
        serde_json::from_value(Value::Array(recorded.clone())).unwrap();
    assert_eq!(typed, server.requests());

    let bad = client
        .post(format!("{base}/__mock/responses"))
        .body(r#"{"responses":[{"txt":"typo"}]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let bad: Value = bad.json().await.unwrap();
    assert!(bad["error"]["message"].as_str().unwrap().contains("txt"));

    server.push(MockResponse::text("leftover"));
    let reset = client
        .post(format!("{base}/__mock/reset"))
        .send()
        .await
        .unwrap();
    assert_eq!(reset.status(), 200);
    assert!(server.requests().is_empty());
    assert_eq!(server.pending_responses(), 0);
    server.shutdown().await;
}
