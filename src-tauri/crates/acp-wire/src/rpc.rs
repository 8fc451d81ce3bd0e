//! JSON-RPC 2.0 as ACP runs it over stdio: one message per line, UTF-8, no batches.
//!
//! Both sides ask: the client sends `session/prompt`, the agent asks it back for a
//! permission while the prompt runs. So the connection is one reader task that routes
//! answers to the requests this side made and hands everything else to the agent, and
//! one writer task that owns the output, so lines from concurrent tasks never interleave
//! and a `session/update` written before a response arrives before it.
//!
//! Bad input never ends the connection: a line that is not JSON gets a parse error, a
//! message that is not a request gets an invalid-request error, a line longer than
//! [`MAX_MESSAGE_BYTES`] is skipped to its end and answered with an error. Only the
//! input closing ends it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::schema::Error as RpcError;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// The longest line read: eight 5 MiB images in base64 (the most one message to the
/// engine may carry) fit, with room for the text around them.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The `data` of the error a request gets when the connection closes before its answer.
pub const CONNECTION_CLOSED: &str = "the connection closed";

/// A message from the other side that this side must act on.
#[derive(Debug)]
pub enum Incoming {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// A line that was not a JSON-RPC message (already answered with an error): its
    /// start, for a side that treats junk from the other as fatal.
    Malformed(String),
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>>>;

/// This side of the connection: answers, notifications and requests of its own. Cheap
/// to clone; every clone writes through the same writer task.
#[derive(Clone)]
pub struct Peer {
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    next_id: Arc<AtomicU64>,
}

impl Peer {
    /// Sends a notification; dropped silently once the connection is gone (nobody is
    /// left to read it).
    pub fn notify(&self, method: &str, params: impl Serialize) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": to_value(params)});
        self.send(&message);
    }

    /// Answers the request `id`.
    pub fn respond(&self, id: Value, result: Result<Value, RpcError>) {
        let message = match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
        };
        self.send(&message);
    }

    /// Asks the other side and waits for its answer. Fails when the other side answers
    /// with an error, or the connection closes first.
    pub async fn request(&self, method: &str, params: impl Serialize) -> Result<Value, RpcError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.pending).insert(id, tx);
        let message =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": to_value(params)});
        self.send(&message);
        rx.await
            .unwrap_or_else(|_| Err(RpcError::internal_error().data(CONNECTION_CLOSED)))
    }

    fn send(&self, message: &Value) {
        // A value built with json! always serializes.
        let line = serde_json::to_string(message).unwrap_or_default();
        let _ = self.out.send(line);
    }
}

fn to_value(params: impl Serialize) -> Value {
    serde_json::to_value(params).unwrap_or(Value::Null)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts the connection on `input` and `output`: returns this side's [`Peer`] and the
/// messages to act on, in order. The channel ends when the input does.
pub fn connect<R, W>(input: R, output: W) -> (Peer, mpsc::UnboundedReceiver<Incoming>)
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let peer = Peer {
        out: out_tx,
        pending: Arc::default(),
        next_id: Arc::new(AtomicU64::new(1)),
    };
    tokio::spawn(write_lines(output, out_rx));
    let (in_tx, in_rx) = mpsc::unbounded_channel();
    tokio::spawn(read_lines(input, peer.clone(), in_tx));
    (peer, in_rx)
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut output: W,
    mut lines: mpsc::UnboundedReceiver<String>,
) {
    while let Some(mut line) = lines.recv().await {
        line.push('\n');
        if output.write_all(line.as_bytes()).await.is_err() || output.flush().await.is_err() {
            tracing::debug!("acp: the output closed");
            return;
        }
    }
}

async fn read_lines<R: AsyncBufRead + Unpin>(
    mut input: R,
    peer: Peer,
    incoming: mpsc::UnboundedSender<Incoming>,
) {
    loop {
        let line = match read_line(&mut input, MAX_MESSAGE_BYTES).await {
            Ok(Line::Text(line)) => line,
            Ok(Line::TooLong(bytes)) => {
                tracing::warn!(bytes, "acp: a message over the size limit was skipped");
                peer.respond(
                    Value::Null,
                    Err(RpcError::invalid_request().data(format!(
                        "message of {bytes} bytes or more is over the limit of {MAX_MESSAGE_BYTES}"
                    ))),
                );
                continue;
            }
            Ok(Line::End) => break,
            Err(error) => {
                tracing::warn!(%error, "acp: reading the input failed");
                break;
            }
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let message = route(trimmed, &peer)
            .or_else(|| (!is_answer(trimmed)).then(|| Incoming::Malformed(excerpt(trimmed))));
        if let Some(message) = message {
            if incoming.send(message).is_err() {
                break;
            }
        }
    }
    // Nobody will answer the requests still open.
    lock(&peer.pending).clear();
}

/// What one line is: a message for the agent, an answer to one of ours (delivered
/// here), or bad input (answered here).
fn route(line: &str, peer: &Peer) -> Option<Incoming> {
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(error) => {
            peer.respond(
                Value::Null,
                Err(RpcError::parse_error().data(error.to_string())),
            );
            return None;
        }
    };
    let Some(object) = value.as_object() else {
        peer.respond(
            Value::Null,
            Err(RpcError::invalid_request().data("a message must be a JSON object")),
        );
        return None;
    };
    let id = object.get("id").cloned();
    let params = object.get("params").cloned().unwrap_or(Value::Null);
    match (object.get("method"), id) {
        (Some(Value::String(method)), Some(id)) if valid_id(&id) => Some(Incoming::Request {
            id,
            method: method.clone(),
            params,
        }),
        (Some(Value::String(method)), None) => Some(Incoming::Notification {
            method: method.clone(),
            params,
        }),
        (None, Some(id)) if object.contains_key("result") || object.contains_key("error") => {
            answer_pending(peer, &id, object);
            None
        }
        (_, id) => {
            let id = id.filter(valid_id).unwrap_or(Value::Null);
            peer.respond(
                id,
                Err(RpcError::invalid_request()
                    .data("expected a request, a notification or a response")),
            );
            None
        }
    }
}

/// Whether a line `route` took is a well-formed answer (delivered, not junk).
fn is_answer(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|v| {
        v.get("method").is_none()
            && v.get("id").is_some()
            && (v.get("result").is_some() || v.get("error").is_some())
    })
}

fn excerpt(line: &str) -> String {
    const MAX: usize = 200;
    let mut end = line.len().min(MAX);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].to_owned()
}

fn valid_id(id: &Value) -> bool {
    matches!(id, Value::String(_) | Value::Number(_))
}

fn answer_pending(peer: &Peer, id: &Value, object: &serde_json::Map<String, Value>) {
    let Some(waiting) = id.as_u64().and_then(|id| lock(&peer.pending).remove(&id)) else {
        tracing::debug!(%id, "acp: an answer to no open request");
        return;
    };
    let answer = match object.get("error") {
        Some(error) => Err(serde_json::from_value(error.clone())
            .unwrap_or_else(|_| RpcError::internal_error().data(error.clone()))),
        None => Ok(object.get("result").cloned().unwrap_or(Value::Null)),
    };
    let _ = waiting.send(answer);
}

enum Line {
    Text(String),
    /// Over the limit: skipped to its end; at least this many bytes.
    TooLong(usize),
    End,
}

/// One line, without holding more than `limit` bytes of it.
async fn read_line<R: AsyncBufRead + Unpin>(input: &mut R, limit: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut skipped = 0usize;
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(match (skipped, line.is_empty()) {
                (0, true) => Line::End,
                (0, false) => Line::Text(String::from_utf8_lossy(&line).into_owned()),
                (skipped, _) => Line::TooLong(skipped),
            });
        }
        let (chunk, found_end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        let taken = chunk.len() + usize::from(found_end);
        if skipped > 0 || line.len() + chunk.len() > limit {
            skipped = skipped.max(line.len()) + chunk.len();
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        input.consume(taken);
        if found_end {
            return Ok(if skipped > 0 {
                Line::TooLong(skipped)
            } else {
                Line::Text(String::from_utf8_lossy(&line).into_owned())
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, BufReader};

    async fn lines_of(input: &[u8], limit: usize) -> Vec<String> {
        let mut reader = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, limit).await.unwrap() {
                Line::Text(text) => out.push(text),
                Line::TooLong(n) => out.push(format!("<too long: {n}>")),
                Line::End => return out,
            }
        }
    }

    #[tokio::test]
    async fn lines_are_read_whole_and_a_long_one_is_skipped_to_its_end() {
        let got = lines_of(b"{\"a\":1}\nabcdefghijkl\nok\nlast", 8).await;
        assert_eq!(got, ["{\"a\":1}", "<too long: 12>", "ok", "last"]);
    }

    /// Runs `input` through a connection and returns what it wrote back, and what it
    /// handed on.
    async fn exchange(input: &str) -> (Vec<Value>, Vec<Incoming>) {
        let (client, agent) = tokio::io::duplex(1 << 16);
        let (agent_read, agent_write) = tokio::io::split(agent);
        let (_peer, mut incoming) = connect(BufReader::new(agent_read), agent_write);
        let (mut client_read, mut client_write) = tokio::io::split(client);
        client_write.write_all(input.as_bytes()).await.unwrap();
        // The end of the input (dropping a split half does not close the stream).
        client_write.shutdown().await.unwrap();
        let mut handed = Vec::new();
        while let Some(message) = incoming.recv().await {
            handed.push(message);
        }
        drop(_peer);
        let mut written = String::new();
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(200),
            client_read.read_to_string(&mut written),
        )
        .await;
        let written = written
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (written, handed)
    }

    #[tokio::test]
    async fn bad_input_is_answered_and_the_connection_keeps_reading() {
        let input = "not json\n[1,2]\n{\"jsonrpc\":\"2.0\",\"id\":7}\n{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\"}\n";
        let (written, handed) = exchange(input).await;
        let codes: Vec<_> = written
            .iter()
            .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
            .collect();
        assert_eq!(
            codes,
            [
                (Value::Null, json!(-32700)),
                (Value::Null, json!(-32600)),
                (json!(7), json!(-32600))
            ]
        );
        // The junk is handed on too (already answered), for a side that ends on it.
        let junk: Vec<_> = handed
            .iter()
            .filter_map(|m| match m {
                Incoming::Malformed(line) => Some(line.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            junk,
            ["not json", "[1,2]", "{\"jsonrpc\":\"2.0\",\"id\":7}"]
        );
        let acted: Vec<_> = handed
            .iter()
            .filter(|m| !matches!(m, Incoming::Malformed(_)))
            .collect();
        assert!(
            matches!(acted[0], Incoming::Request { id, method, .. } if *id == json!(8) && method == "initialize")
        );
        assert!(
            matches!(acted[1], Incoming::Notification { method, .. } if method == "session/cancel")
        );
        assert_eq!(acted.len(), 2);
    }

    #[tokio::test]
    async fn an_answer_reaches_the_request_that_asked() {
        let (client, agent) = tokio::io::duplex(1 << 16);
        let (agent_read, agent_write) = tokio::io::split(agent);
        let (peer, _incoming) = connect(BufReader::new(agent_read), agent_write);
        let (client_read, mut client_write) = tokio::io::split(client);
        let asking = tokio::spawn({
            let peer = peer.clone();
            async move {
                peer.request("session/request_permission", json!({"x": 1}))
                    .await
            }
        });
        let mut client_read = BufReader::new(client_read);
        let mut line = String::new();
        client_read.read_line(&mut line).await.unwrap();
        let asked: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(asked["method"], "session/request_permission");
        let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"ok": true}});
        client_write
            .write_all(format!("{answer}\n").as_bytes())
            .await
            .unwrap();
        assert_eq!(asking.await.unwrap().unwrap(), json!({"ok": true}));
    }
}
