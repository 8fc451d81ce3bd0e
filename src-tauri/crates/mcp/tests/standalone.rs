//! A streamable HTTP server that asks for input with a plain server request, sent on the
//! session's standalone stream (the GET), and drops it when that stream is not open yet, as
//! the TypeScript SDK does. This server answers the GET slowly: a client that calls a tool
//! before its stream is open never sees the question, and the call hangs. memo-mcp's
//! requests wait for the stream first (the MCP conformance suite's SEP-1034 scenario failed
//! now and then on a loaded machine for exactly this).

mod common;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use common::*;
use futures::stream::Stream;
use memo_mcp::{McpManager, McpToolSource, ServerStatus};
use memo_tools::{ToolContext, ToolSource};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

/// How long the server takes to answer the GET.
const SLOW_GET: Duration = Duration::from_millis(800);

#[derive(Default)]
struct Slow {
    standalone: Option<mpsc::UnboundedSender<String>>,
    /// The answer to the server's own request, when one is awaited.
    answer: Option<oneshot::Sender<Value>>,
}

type Shared = Arc<Mutex<Slow>>;

async fn open(State(s): State<Shared>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    tokio::time::sleep(SLOW_GET).await;
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    s.lock().unwrap().standalone = Some(tx);
    Sse::new(futures::stream::unfold(rx, |mut rx| async move {
        let data = rx.recv().await?;
        Some((Ok(Event::default().event("message").data(data)), rx))
    }))
}

fn reply(id: Value, result: Value) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert("mcp-session-id", "s1".parse().unwrap());
    (
        headers,
        Json(json!({"jsonrpc": "2.0", "id": id, "result": result})),
    )
        .into_response()
}

async fn message(State(s): State<Shared>, Json(msg): Json<Value>) -> Response {
    let Some(id) = msg.get("id").cloned() else {
        return StatusCode::ACCEPTED.into_response();
    };
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        // The client's answer to the server's request.
        if let Some(waiting) = s.lock().unwrap().answer.take() {
            let _ = waiting.send(msg["result"].clone());
        }
        return StatusCode::ACCEPTED.into_response();
    };
    match method {
        "initialize" => reply(
            id,
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "slow-get", "version": "1.0.0"}
            }),
        ),
        "tools/list" => reply(
            id,
            json!({"tools": [{
                "name": "ask",
                "description": "Asks the user a question.",
                "inputSchema": {"type": "object", "properties": {}}
            }]}),
        ),
        "tools/call" => {
            let (tx, rx) = oneshot::channel();
            let sent = {
                let mut s = s.lock().unwrap();
                s.answer = Some(tx);
                let question = json!({"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": {
                    "message": "Which name?",
                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}}
                }});
                s.standalone
                    .as_ref()
                    .is_some_and(|stream| stream.send(question.to_string()).is_ok())
            };
            let text = if !sent {
                // Dropped, as the TypeScript SDK does; said here instead of hanging.
                "the question was dropped: no standalone stream yet".to_owned()
            } else {
                match tokio::time::timeout(Duration::from_secs(10), rx).await {
                    Ok(Ok(answer)) => format!("answered: {}", answer["action"]),
                    _ => "no answer".to_owned(),
                }
            };
            reply(id, json!({"content": [{"type": "text", "text": text}]}))
        }
        _ => reply(id, json!({})),
    }
}

#[tokio::test]
async fn a_question_on_the_standalone_stream_reaches_the_client_however_slow_the_get() {
    let dir = tempfile::tempdir().unwrap();
    let state: Shared = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = Router::new()
        .route("/mcp", post(message).get(open))
        .with_state(state.clone());
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    let manager = McpManager::start(
        vec![http("slow", &format!("http://127.0.0.1:{port}/mcp"), false)],
        options(dir.path()),
    );
    manager.wait_ready().await;
    let snap = manager.server("slow").unwrap();
    assert_eq!(snap.status, ServerStatus::Ready, "{snap:#?}");

    let out = McpToolSource::new(manager.clone())
        .get("slow__ask")
        .unwrap()
        .run(ToolContext::for_workspace(dir.path()), json!({}))
        .await
        .unwrap();
    // With no one to ask (no elicitor in these options) the client declines: what matters
    // is that the question reached it.
    assert!(out.content.starts_with("answered: "), "{}", out.content);
    manager.stop().await;
    server.abort();
}
