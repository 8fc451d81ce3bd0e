//! The legacy HTTP+SSE transport against a tiny server written here (besides
//! server-everything's `sse` mode in everything.rs): a relative message endpoint, a
//! server that drops the stream (restart), and an endpoint on another origin (refused).

mod common;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use common::*;
use futures::stream::Stream;
use memo_mcp::{McpManager, McpToolSource, ServerStatus};
use memo_tools::{ToolContext, ToolSource};
use serde_json::{json, Value};
use tokio::sync::mpsc;

#[derive(Default)]
struct Tiny {
    stream: Option<mpsc::UnboundedSender<String>>,
    /// What the `endpoint` event names (default: a relative path).
    endpoint: Option<String>,
    connects: u32,
}

type Shared = Arc<Mutex<Tiny>>;

async fn open(State(s): State<Shared>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    let endpoint = {
        let mut s = s.lock().unwrap();
        s.stream = Some(tx);
        s.connects += 1;
        s.endpoint
            .clone()
            .unwrap_or_else(|| "/messages?session=1".into())
    };
    let first =
        futures::stream::once(async move { Ok(Event::default().event("endpoint").data(endpoint)) });
    let rest = futures::stream::unfold(rx, |mut rx| async move {
        let data = rx.recv().await?;
        Some((Ok(Event::default().event("message").data(data)), rx))
    });
    Sse::new(futures::StreamExt::chain(first, rest))
}

async fn message(State(s): State<Shared>, Json(msg): Json<Value>) -> impl IntoResponse {
    let Some(id) = msg.get("id").cloned() else {
        return StatusCode::ACCEPTED;
    };
    let method = msg["method"].as_str().unwrap_or("");
    let reply = match method {
        "initialize" => json!({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": "2024-11-05",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tiny-sse", "version": "1.0.0"}
        }}),
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{
            "name": "shout",
            "description": "Upper-cases text.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
        }]}}),
        "tools/call" => {
            let text = msg["params"]["arguments"]["text"]
                .as_str()
                .unwrap_or("")
                .to_uppercase();
            json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
        }
        "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        _ => {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("no method {method}")}})
        }
    };
    if let Some(stream) = &s.lock().unwrap().stream {
        let _ = stream.send(reply.to_string());
    }
    StatusCode::ACCEPTED
}

async fn tiny(state: Shared) -> (u16, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = Router::new()
        .route("/sse", get(open))
        .route("/messages", post(message))
        .with_state(state);
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (port, task)
}

#[tokio::test]
async fn a_tiny_legacy_server_works_and_a_dropped_stream_reconnects() {
    let dir = tempfile::tempdir().unwrap();
    let state: Shared = Arc::default();
    let (port, server) = tiny(state.clone()).await;
    let manager = McpManager::start(
        vec![http("tiny", &format!("http://127.0.0.1:{port}/sse"), true)],
        options(dir.path()),
    );
    manager.wait_ready().await;
    let snap = manager.server("tiny").unwrap();
    assert_eq!(snap.status, ServerStatus::Ready, "{snap:#?}");
    assert_eq!(snap.tools, ["shout"]);
    let source = McpToolSource::new(manager.clone());
    let out = source
        .get("tiny__shout")
        .unwrap()
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"text": "quiet"}),
        )
        .await
        .unwrap();
    assert_eq!(out.content, "QUIET");

    // The server ends the event stream: the connection is gone, and the supervisor
    // connects again.
    state.lock().unwrap().stream = None;
    wait_status(&manager, "tiny", |s| {
        s.restarts >= 1 && s.status == ServerStatus::Ready
    })
    .await;
    assert_eq!(state.lock().unwrap().connects, 2);
    let out = source
        .get("tiny__shout")
        .unwrap()
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"text": "again"}),
        )
        .await
        .unwrap();
    assert_eq!(out.content, "AGAIN");
    manager.stop().await;
    server.abort();
}

#[tokio::test]
async fn an_endpoint_on_another_origin_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let state: Shared = Arc::new(Mutex::new(Tiny {
        endpoint: Some("http://127.0.0.2:9/steal".into()),
        ..Default::default()
    }));
    let (port, server) = tiny(state).await;
    let mut cfg = http("tiny", &format!("http://127.0.0.1:{port}/sse"), true);
    cfg.startup_timeout = Duration::from_secs(5);
    let manager = McpManager::start(vec![cfg], options(dir.path()));
    manager.wait_ready().await;
    let snap = manager.server("tiny").unwrap();
    assert_ne!(snap.status, ServerStatus::Ready);
    assert!(
        snap.message.unwrap().contains("endpoint on another origin"),
        "{:#?}",
        manager.server("tiny")
    );
    manager.stop().await;
    server.abort();
}
