//! Helpers shared by the integration tests: a client, body readers, SSE splitters.

use futures::StreamExt;
use serde_json::Value;

pub fn client() -> reqwest::Client {
    memo_http::builder()
        .timeout(std::time::Duration::from_secs(20))
        .build()
        .unwrap()
}

pub async fn post(url: &str, body: &Value) -> reqwest::Response {
    client().post(url).json(body).send().await.unwrap()
}

/// The whole body, plus the transport error that ended it early, if any.
pub async fn read_stream(response: reqwest::Response) -> (String, Option<reqwest::Error>) {
    let mut stream = response.bytes_stream();
    let mut buf = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(bytes) => buf.extend_from_slice(&bytes),
            Err(err) => return (String::from_utf8_lossy(&buf).into_owned(), Some(err)),
        }
    }
    (String::from_utf8(buf).unwrap(), None)
}

/// A body that must end cleanly.
pub async fn read_ok(response: reqwest::Response) -> String {
    let (body, err) = read_stream(response).await;
    assert!(err.is_none(), "stream ended with an error: {err:?}");
    body
}

#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
}

impl SseEvent {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap()
    }
}

/// Parse an LF-separated SSE body; asserts every event is terminated by a blank line.
pub fn parse_sse(body: &str) -> Vec<SseEvent> {
    assert!(
        body.is_empty() || body.ends_with("\n\n"),
        "unterminated: {body:?}"
    );
    body.split_terminator("\n\n")
        .map(|block| {
            let mut event = None;
            let mut data = Vec::new();
            for line in block.split('\n') {
                if let Some(name) = line.strip_prefix("event: ") {
                    event = Some(name.to_owned());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push(d);
                } else {
                    panic!("unexpected SSE line {line:?}");
                }
            }
            SseEvent {
                event,
                data: data.join("\n"),
            }
        })
        .collect()
}

/// `data:` payloads of an OpenAI stream, as JSON, up to (not including) `[DONE]`.
pub fn openai_chunks(body: &str) -> Vec<Value> {
    parse_sse(body)
        .into_iter()
        .take_while(|e| e.data != "[DONE]")
        .map(|e| e.json())
        .collect()
}

/// Gemini chunks: `data: <json>\r\n\r\n` each.
pub fn gemini_chunks(body: &str) -> Vec<Value> {
    assert!(body.ends_with("\r\n\r\n"), "not CRLF-terminated: {body:?}");
    body.split_terminator("\r\n\r\n")
        .map(|block| {
            let data = block.strip_prefix("data: ").expect("data: prefix");
            assert!(!data.contains('\n'), "one line per event: {data:?}");
            serde_json::from_str(data).unwrap()
        })
        .collect()
}

pub fn openai_url(base: &str) -> String {
    format!("{base}/v1/chat/completions")
}

pub fn anthropic_url(base: &str) -> String {
    format!("{base}/v1/messages")
}

pub fn gemini_url(base: &str, model: &str) -> String {
    format!("{base}/v1beta/models/{model}:streamGenerateContent?alt=sse")
}

pub fn openai_request(include_usage: bool) -> Value {
    let mut body = serde_json::json!({
        "model": "gpt-4o-mini",
        "stream": true,
        "messages": [{"role": "user", "content": "hi"}],
    });
    if include_usage {
        body["stream_options"] = serde_json::json!({"include_usage": true});
    }
    body
}

pub fn anthropic_request() -> Value {
    serde_json::json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "stream": true,
        "messages": [{"role": "user", "content": "hi"}],
    })
}

pub fn gemini_request() -> Value {
    serde_json::json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})
}
