//! Pacing and failure modes of the connection itself: drip, cut, hang, shutdown.

use std::time::{Duration, Instant};

use futures::StreamExt;
use memo_test_support::{MockLlmServer, MockResponse};

use crate::common::*;

#[tokio::test]
async fn cut_after_events_closes_without_terminal_marker() {
    let server = MockLlmServer::start_with([
        MockResponse::text("Hello there, world!").cut_after_events(3),
        MockResponse::text("Hello there, world!").cut_after_events(3),
    ])
    .await
    .unwrap();

    let response = post(&openai_url(&server.base_url()), &openai_request(false)).await;
    assert_eq!(response.status(), 200);
    let (body, err) = read_stream(response).await;
    assert!(
        err.is_some(),
        "the connection must be cut, not ended cleanly"
    );
    assert!(!body.contains("[DONE]"));
    assert_eq!(parse_sse(&body).len(), 3, "{body:?}");

    let response = post(&anthropic_url(&server.base_url()), &anthropic_request()).await;
    let (body, err) = read_stream(response).await;
    assert!(err.is_some());
    assert!(!body.contains("message_stop"));
    assert_eq!(parse_sse(&body).len(), 3);
    server.shutdown().await;
}

#[tokio::test]
async fn cut_mid_event_leaves_half_an_event() {
    let server =
        MockLlmServer::start_with([MockResponse::text("Hello there, world!").cut_mid_event(2)])
            .await
            .unwrap();
    let url = gemini_url(&server.base_url(), "gemini-2.5-flash");
    let (body, err) = read_stream(post(&url, &gemini_request()).await).await;
    assert!(err.is_some());
    let complete: Vec<&str> = body.split_inclusive("\r\n\r\n").collect();
    assert_eq!(complete.len(), 3, "{body:?}");
    assert!(complete[..2].iter().all(|e| e.ends_with("\r\n\r\n")));
    let partial = complete[2];
    assert!(partial.starts_with("data: {") && !partial.ends_with("\r\n\r\n"));
    assert!(serde_json::from_str::<serde_json::Value>(&partial[6..]).is_err());
    server.shutdown().await;
}

#[tokio::test]
async fn hang_keeps_the_connection_open_until_the_client_leaves() {
    let server =
        MockLlmServer::start_with([MockResponse::text("Hello there, world!").hang_after_events(2)])
            .await
            .unwrap();
    let response = post(&openai_url(&server.base_url()), &openai_request(false)).await;
    let mut stream = response.bytes_stream();
    let mut received = Vec::new();
    while received.windows(2).filter(|w| w == b"\n\n").count() < 2 {
        received.extend_from_slice(&stream.next().await.unwrap().unwrap());
    }
    assert_eq!(parse_sse(std::str::from_utf8(&received).unwrap()).len(), 2);

    // Nothing more arrives, and the connection is neither closed nor failed.
    let more = tokio::time::timeout(Duration::from_millis(400), stream.next()).await;
    assert!(more.is_err(), "expected silence, got {more:?}");
    assert_eq!(server.active_streams(), 1);

    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.active_streams() != 0 {
        assert!(
            Instant::now() < deadline,
            "server did not notice the client left"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_a_hanging_stream_and_closes_the_port() {
    let server = MockLlmServer::start_with([MockResponse::text("abc").hang_after_events(1)])
        .await
        .unwrap();
    let base = server.base_url();
    let response = post(&openai_url(&base), &openai_request(false)).await;
    let reader = tokio::spawn(read_stream(response));
    server
        .wait_for_requests(1, Duration::from_secs(5))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let started = Instant::now();
    server.shutdown().await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "shutdown must not wait for the hang"
    );
    let (body, err) = tokio::time::timeout(Duration::from_secs(5), reader)
        .await
        .unwrap()
        .unwrap();
    assert!(err.is_some(), "the hanging stream is cut on shutdown");
    assert_eq!(parse_sse(&body).len(), 1);

    let refused = client().post(openai_url(&base)).send().await;
    assert!(refused.is_err(), "listener must be closed after shutdown");
}

#[tokio::test]
async fn drop_stops_the_listener() {
    let server = MockLlmServer::start().await.unwrap();
    let base = server.base_url();
    drop(server);
    // Aborted tasks are torn down on the next scheduler turn.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(client().post(openai_url(&base)).send().await.is_err());
}

#[tokio::test]
async fn drip_spaces_events_out() {
    let server = MockLlmServer::start_with([MockResponse::text("abcdefgh")
        .chunk_chars(4)
        .drip(Duration::from_millis(60))])
    .await
    .unwrap();
    let started = Instant::now();
    let response = post(&openai_url(&server.base_url()), &openai_request(false)).await;
    let mut stream = response.bytes_stream();
    let mut arrivals = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap();
        let events = chunk.windows(2).filter(|w| w == b"\n\n").count();
        for _ in 0..events {
            arrivals.push(started.elapsed());
        }
    }
    // role, 2 text deltas, finish, [DONE]: 5 events, 4 gaps of 60 ms.
    assert_eq!(arrivals.len(), 5);
    assert!(
        arrivals[4] - arrivals[0] >= Duration::from_millis(200),
        "{arrivals:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn raw_sse_is_sent_verbatim() {
    let raw = "data: {\"not\":\"quite\"\n\ndata: garbage\r\n";
    let server = MockLlmServer::start_with([
        MockResponse::raw_sse(raw),
        MockResponse::raw(502, "text/html", "<html>Bad gateway</html>"),
    ])
    .await
    .unwrap();
    let response = post(&anthropic_url(&server.base_url()), &anthropic_request()).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(read_ok(response).await, raw);

    let response = post(&anthropic_url(&server.base_url()), &anthropic_request()).await;
    assert_eq!(response.status(), 502);
    assert_eq!(response.headers()["content-type"], "text/html");
    assert_eq!(read_ok(response).await, "<html>Bad gateway</html>");
    server.shutdown().await;
}
