//! Every adapter against the mock LLM server, over real HTTP on loopback.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use memo_model::{
    ApiKey, Message, ModelRequest, ModelResponse, ResponseEvent, StopReason, ToolCall, ToolSpec,
    WireApi,
};
use memo_providers::{
    create_client_with_options, Endpoint, HttpOptions, ModelClient, ProviderError,
};
use memo_test_support::{MockLlmServer, MockResponse};
use serde_json::{json, Value};

const KEY: &str = "sk-test-key-0123456789";
const APIS: [WireApi; 3] = [WireApi::Openai, WireApi::Anthropic, WireApi::Gemini];

fn client(api: WireApi, server: &MockLlmServer) -> Arc<dyn ModelClient> {
    client_with(api, server, 10_000, 10_000)
}

fn request() -> ModelRequest {
    ModelRequest {
        model: "mock-model".into(),
        system: "Be brief.".into(),
        messages: std::sync::Arc::new(vec![Message::user("Hello?")]),
        tools: vec![ToolSpec {
            name: "read_file".into(),
            description: "Reads a file".into(),
            input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        parallel_tool_calls: true,
        max_output_tokens: Some(256),
        thinking_budget_tokens: None,
        temperature: None,
    }
}

/// Runs one call: Ok(deltas, response) or the error (from the call or the stream).
async fn call(
    api: WireApi,
    server: &MockLlmServer,
) -> Result<(Vec<ResponseEvent>, ModelResponse), ProviderError> {
    let mut stream = client(api, server).stream(request()).await?;
    let mut deltas = Vec::new();
    while let Some(item) = stream.next().await {
        match item? {
            ResponseEvent::Completed(response) => {
                assert!(stream.next().await.is_none(), "{api:?}: Completed is last");
                return Ok((deltas, response));
            }
            delta => deltas.push(delta),
        }
    }
    panic!("{api:?}: stream ended without Completed or an error");
}

async fn start(responses: Vec<MockResponse>) -> MockLlmServer {
    match MockLlmServer::start_with(responses).await {
        Ok(server) => server,
        Err(err) => panic!("mock server: {err}"),
    }
}

fn args_json(call: &ToolCall) -> Value {
    serde_json::from_str(&call.arguments).unwrap_or(Value::Null)
}

#[tokio::test]
async fn text_with_usage() {
    for api in APIS {
        let server = start(vec![MockResponse::text("Hi there, how can I help?")
            .with_usage(10, 5)
            .with_cached_tokens(4)])
        .await;
        let (deltas, response) = call(api, &server).await.unwrap();
        assert_eq!(response.text, "Hi there, how can I help?", "{api:?}");
        assert!(deltas.len() > 1, "{api:?}: text arrives in several deltas");
        assert_eq!(response.stop_reason, Some(StopReason::EndTurn), "{api:?}");
        assert_eq!(response.usage.input_tokens, 10, "{api:?}");
        assert_eq!(response.usage.output_tokens, 5, "{api:?}");
        assert_eq!(response.usage.cached_input_tokens, 4, "{api:?}");
        assert!(response.tool_calls.is_empty());
    }
}

#[tokio::test]
async fn reasoning_then_text() {
    for api in APIS {
        let server = start(vec![MockResponse::text("42")
            .with_reasoning("Thinking it over carefully.")
            .with_usage(10, 20)
            .with_reasoning_tokens(8)])
        .await;
        let (deltas, response) = call(api, &server).await.unwrap();
        assert_eq!(
            response.reasoning.as_deref(),
            Some("Thinking it over carefully."),
            "{api:?}"
        );
        assert!(deltas
            .iter()
            .any(|d| matches!(d, ResponseEvent::ReasoningDelta(_))));
        assert_eq!(response.text, "42");
        assert_eq!(response.usage.output_tokens, 20, "{api:?}");
        if api != WireApi::Anthropic {
            // Anthropic does not report thinking tokens separately.
            assert_eq!(response.usage.reasoning_tokens, 8, "{api:?}");
        }
        if api == WireApi::Anthropic {
            let signed = response
                .provider_data
                .as_ref()
                .and_then(|d| d.pointer("/anthropic/thinking/0/signature"));
            assert!(signed.is_some(), "thinking signature kept");
        }
    }
}

#[tokio::test]
async fn one_tool_call() {
    for api in APIS {
        let server = start(vec![MockResponse::tool_call(
            "read_file",
            r#"{"path":"src/main.rs","limit":20}"#,
        )])
        .await;
        let (deltas, response) = call(api, &server).await.unwrap();
        assert_eq!(response.tool_calls.len(), 1, "{api:?}");
        let tool = &response.tool_calls[0];
        assert_eq!(tool.name, "read_file");
        assert!(!tool.id.is_empty());
        assert_eq!(args_json(tool), json!({"path": "src/main.rs", "limit": 20}));
        assert_eq!(response.stop_reason, Some(StopReason::ToolUse), "{api:?}");
        assert!(deltas
            .iter()
            .any(|d| matches!(d, ResponseEvent::ToolCallStart { index: 0, .. })));
    }
}

#[tokio::test]
async fn parallel_tool_calls() {
    for api in APIS {
        let server = start(vec![MockResponse::text("Reading both.")
            .with_tool_call("read_file", r#"{"path":"a.rs"}"#)
            .with_tool_call("grep", r#"{"pattern":"fn main","path":"."}"#)])
        .await;
        let (_, response) = call(api, &server).await.unwrap();
        assert_eq!(response.text, "Reading both.", "{api:?}");
        let names: Vec<&str> = response
            .tool_calls
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(names, ["read_file", "grep"], "{api:?}");
        assert_eq!(args_json(&response.tool_calls[0]), json!({"path": "a.rs"}));
        assert_eq!(
            args_json(&response.tool_calls[1]),
            json!({"pattern": "fn main", "path": "."})
        );
        assert_ne!(response.tool_calls[0].id, response.tool_calls[1].id);
    }
}

#[tokio::test]
async fn invalid_arguments_reach_the_caller_untouched() {
    for api in APIS {
        let server = start(vec![MockResponse::tool_call(
            "edit",
            r#"{"path": "a.rs", "#,
        )])
        .await;
        let (_, response) = call(api, &server).await.unwrap();
        assert_eq!(
            response.tool_calls[0].arguments, r#"{"path": "a.rs", "#,
            "{api:?}"
        );
    }
}

#[tokio::test]
async fn rate_limit_carries_retry_after() {
    for api in APIS {
        let server = start(vec![MockResponse::http_error(429).retry_after(1)]).await;
        let err = call(api, &server).await.unwrap_err();
        match err {
            ProviderError::RateLimited { retry_after, .. } => {
                assert_eq!(retry_after, Some(Duration::from_secs(1)), "{api:?}")
            }
            other => panic!("{api:?}: expected RateLimited, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn http_errors_are_classified() {
    for api in APIS {
        let server = start(vec![
            MockResponse::http_error(500),
            MockResponse::http_error(529),
            MockResponse::http_error(401).message(format!("Incorrect API key provided: {KEY}")),
            MockResponse::http_error(400)
                .message("prompt is too long: 300000 tokens > 200000 maximum"),
            MockResponse::http_error(404).message("no such model"),
        ])
        .await;
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::Transient(_)),
            "{api:?} 500: {err:?}"
        );
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::Overloaded { .. }),
            "{api:?} 529: {err:?}"
        );
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::Auth(_)),
            "{api:?} 401: {err:?}"
        );
        assert!(!err.to_string().contains(KEY), "{api:?}: key leaked: {err}");
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::ContextOverflow(_)),
            "{api:?} 400: {err:?}"
        );
        let err = call(api, &server).await.unwrap_err();
        match err {
            ProviderError::Fatal(message) => {
                assert!(message.contains("no such model"), "{message}")
            }
            other => panic!("{api:?} 404: {other:?}"),
        }
    }
}

#[tokio::test]
async fn mid_stream_error_event() {
    for api in APIS {
        let server = start(vec![MockResponse::text("partial answer").mid_stream_error()]).await;
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::Overloaded { .. }),
            "{api:?}: {err:?}"
        );
    }
}

#[tokio::test]
async fn cut_stream_is_interrupted() {
    for api in APIS {
        let server = start(vec![
            MockResponse::text("a long answer that will be cut").cut_after_events(2),
            MockResponse::text("a long answer that will be cut").cut_mid_event(2),
        ])
        .await;
        for _ in 0..2 {
            let err = call(api, &server).await.unwrap_err();
            assert!(
                matches!(err, ProviderError::StreamInterrupted(_)),
                "{api:?}: {err:?}"
            );
            assert!(err.is_retryable());
        }
    }
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    for api in APIS {
        let server = start(vec![MockResponse::text("one two three four five six")
            .chunk_chars(3)
            // Enough events for every format to have sent a text delta before hanging.
            .hang_after_events(6)])
        .await;
        let mut stream = client(api, &server).stream(request()).await.unwrap();
        let first = stream.next().await;
        assert!(matches!(first, Some(Ok(_))), "{api:?}: {first:?}");
        assert_eq!(server.active_streams(), 1, "{api:?}");
        drop(stream);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        while server.active_streams() > 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{api:?}: server still streaming after the client dropped the stream"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

#[tokio::test]
async fn requests_are_recorded_as_sent() {
    for api in APIS {
        let server = start(vec![MockResponse::text("ok")]).await;
        call(api, &server).await.unwrap();
        let requests = server.requests();
        assert_eq!(requests.len(), 1);
        let sent = &requests[0];
        assert_eq!(sent.model().as_deref(), Some("mock-model"), "{api:?}");
        match api {
            WireApi::Openai => {
                assert_eq!(sent.path, "/v1/chat/completions");
                assert_eq!(
                    sent.header("authorization"),
                    Some(format!("Bearer {KEY}").as_str())
                );
                assert_eq!(
                    sent.body["messages"][0],
                    json!({"role": "system", "content": "Be brief."})
                );
                assert_eq!(sent.body["stream"], true);
                assert_eq!(sent.body["max_tokens"], 256);
            }
            WireApi::Anthropic => {
                assert_eq!(sent.path, "/v1/messages");
                assert_eq!(sent.header("x-api-key"), Some(KEY));
                assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
                assert_eq!(sent.body["system"][0]["text"], "Be brief.");
                assert_eq!(sent.body["system"][0]["cache_control"]["type"], "ephemeral");
                assert_eq!(sent.body["tools"][0]["name"], "read_file");
            }
            WireApi::Gemini => {
                assert_eq!(sent.path, "/v1beta/models/mock-model:streamGenerateContent");
                assert_eq!(sent.query.as_deref(), Some("alt=sse"));
                assert_eq!(sent.header("x-goog-api-key"), Some(KEY));
                assert_eq!(
                    sent.body["systemInstruction"]["parts"][0]["text"],
                    "Be brief."
                );
            }
        }
    }
}

#[tokio::test]
async fn connection_refused_is_said_in_a_sentence_and_retried() {
    let server = start(vec![]).await;
    let addr = server.addr();
    server.shutdown().await;
    let endpoint = Endpoint {
        api: WireApi::Openai,
        base_url: format!("http://{addr}/v1"),
        api_key: None,
    };
    let Ok(client) = create_client_with_options(endpoint, HttpOptions::default()) else {
        panic!("client");
    };
    let err = client.stream(request()).await.err().expect("refused");
    assert!(err.is_retryable());
    assert_eq!(
        err.to_string(),
        format!("Could not reach {addr} — connection refused. Is the server running?")
    );
    let detail = err.detail().expect("the client's own words are kept");
    assert!(detail.to_lowercase().contains("connect"), "{detail}");
}

#[tokio::test]
async fn json_instead_of_a_stream_is_explained() {
    for api in APIS {
        let server = start(vec![
            MockResponse::raw(
                200,
                "application/json",
                r#"{"error":{"message":"Too many requests","type":"rate_limit_error"}}"#,
            ),
            MockResponse::raw(200, "application/json", r#"{"id":"x","choices":[]}"#),
        ])
        .await;
        let err = call(api, &server).await.unwrap_err();
        assert!(
            matches!(err, ProviderError::RateLimited { .. }),
            "{api:?}: {err:?}"
        );
        let err = call(api, &server).await.unwrap_err();
        assert!(matches!(err, ProviderError::Fatal(_)), "{api:?}: {err:?}");
    }
}

#[tokio::test]
async fn openai_stream_without_done_but_with_finish_reason_completes() {
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"fine\"},\"finish_reason\":\"stop\"}]}\n\n";
    let server = start(vec![MockResponse::raw_sse(body)]).await;
    let (_, response) = call(WireApi::Openai, &server).await.unwrap();
    assert_eq!(response.text, "fine");
}

#[tokio::test]
async fn gemini_thought_signature_goes_back_with_the_call() {
    // Gemini 3 rejects a request whose function call lost the signature it came with.
    let server = start(vec![
        MockResponse::tool_call("read_file", r#"{"path":"a.rs"}"#)
            .with_thinking_signature("c2lnMQ=="),
        MockResponse::text("done"),
    ])
    .await;
    let (_, first) = call(WireApi::Gemini, &server).await.unwrap();
    let mut next = request();
    let messages = Arc::make_mut(&mut next.messages);
    messages.push(Message::Assistant {
        text: first.text.clone(),
        reasoning: first.reasoning.clone(),
        tool_calls: first.tool_calls.clone(),
        provider_data: first.provider_data.clone(),
    });
    messages.push(Message::ToolResult {
        call_id: first.tool_calls[0].id.clone(),
        name: "read_file".into(),
        content: "fn a() {}".into(),
        is_error: false,
    });
    let mut stream = client(WireApi::Gemini, &server).stream(next).await.unwrap();
    while let Some(item) = stream.next().await {
        item.unwrap();
    }
    let sent = &server.requests()[1].body;
    let model_turn = &sent["contents"][1];
    assert_eq!(model_turn["role"], "model");
    assert_eq!(
        model_turn["parts"][0]["thoughtSignature"], "c2lnMQ==",
        "{sent}"
    );
}

/// A client with short waits: `first_byte` until the answer starts, `idle` after.
fn client_with(
    api: WireApi,
    server: &MockLlmServer,
    first_byte: u64,
    idle: u64,
) -> Arc<dyn ModelClient> {
    let base = server.base_url();
    let base_url = match api {
        WireApi::Openai => format!("{base}/v1/"),
        WireApi::Anthropic | WireApi::Gemini => base,
    };
    let options = HttpOptions {
        connect_timeout: Duration::from_secs(5),
        read_idle_timeout: Duration::from_millis(idle),
        first_byte_timeout: Some(Duration::from_millis(first_byte)),
    };
    let endpoint = Endpoint {
        api,
        base_url,
        api_key: Some(ApiKey::new(KEY)),
    };
    create_client_with_options(endpoint, options).unwrap()
}

async fn outcome(client: Arc<dyn ModelClient>) -> Result<String, ProviderError> {
    let mut stream = client.stream(request()).await?;
    let mut text = String::new();
    while let Some(item) = stream.next().await {
        match item? {
            ResponseEvent::Completed(response) => return Ok(response.text),
            ResponseEvent::TextDelta(delta) => text.push_str(&delta),
            _ => {}
        }
    }
    Err(ProviderError::Fatal(format!("no Completed after {text:?}")))
}

#[tokio::test]
async fn a_slow_first_byte_is_waited_for_past_the_idle_limit() {
    for api in APIS {
        let server = start(vec![
            MockResponse::text("Read it all.").first_byte_delay(Duration::from_millis(900))
        ])
        .await;
        // The idle limit (200 ms) is far below the wait: it applies only once bytes flow.
        let text = outcome(client_with(api, &server, 5_000, 200)).await;
        assert_eq!(text.unwrap(), "Read it all.", "{api:?}");
        server.shutdown().await;
    }
}

#[tokio::test]
async fn a_first_byte_past_its_limit_is_a_timeout_not_retried_for_a_local_server() {
    for api in APIS {
        let server = start(vec![
            MockResponse::text("late").first_byte_delay(Duration::from_millis(3_000))
        ])
        .await;
        let err = outcome(client_with(api, &server, 400, 5_000))
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                ProviderError::Timeout {
                    first_byte: true,
                    local: true,
                    ..
                }
            ),
            "{api:?}: {err:?}"
        );
        assert!(
            !err.is_retryable(),
            "resending would make the server read the prompt again"
        );
        assert!(
            err.to_string().contains("may still be reading the prompt"),
            "{err}"
        );
        server.shutdown().await;
    }
}

#[tokio::test]
async fn a_stream_that_stalls_mid_answer_hits_the_idle_limit() {
    let server = start(vec![MockResponse::text("one two three four")
        .chunk_chars(4)
        .hang_after_events(3)])
    .await;
    let err = outcome(client_with(WireApi::Openai, &server, 5_000, 300))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ProviderError::Timeout {
                first_byte: false,
                ..
            }
        ),
        "{err:?}"
    );
    server.shutdown().await;
}
