//! The legacy HTTP+SSE transport (protocol 2024-11-05), which the SDK no longer ships but
//! many servers still speak: a GET opens an event stream whose first `endpoint` event
//! names the URL to POST messages to; every server message then arrives on the stream as
//! a `message` event.

use std::borrow::Cow;
use std::collections::HashMap;
use std::time::Duration;

use futures::StreamExt;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleClient;
use sse_stream::SseStream;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use url::Url;

use crate::error::McpError;
use crate::http::Auth;
use memo_protocol::Phrase;

/// How long the server may take to name its message endpoint.
const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
#[error("legacy SSE transport: {0}")]
pub struct SseTransportError(Cow<'static, str>);

pub struct LegacySseTransport {
    inbox: mpsc::Receiver<ServerJsonRpcMessage>,
    poster: Poster,
    stop: CancellationToken,
}

#[derive(Clone)]
struct Poster {
    http: reqwest::Client,
    endpoint: Url,
    headers: HashMap<HeaderName, HeaderValue>,
    auth: Auth,
}

impl LegacySseTransport {
    /// Opens the event stream and waits for the `endpoint` event.
    pub async fn connect(
        http: reqwest::Client,
        url: &str,
        headers: HashMap<HeaderName, HeaderValue>,
        auth: Auth,
    ) -> Result<LegacySseTransport, McpError> {
        let base = Url::parse(url).map_err(|e| McpError::Config(format!("bad URL {url}: {e}")))?;
        let token = auth.token().await;
        let mut request = http
            .get(base.clone())
            .header("accept", "text/event-stream")
            .header("cache-control", "no-cache");
        for (name, value) in &headers {
            request = request.header(name, value);
        }
        let response = auth.apply(request, token.as_deref()).send().await?;
        let status = response.status();
        if status == reqwest::StatusCode::UNAUTHORIZED {
            return Err(McpError::Connect {
                reason: Phrase::McpUnauthorized,
            });
        }
        if !status.is_success() {
            return Err(McpError::Connect {
                reason: Phrase::McpHttpStatus {
                    url: url.to_string(),
                    status: status.to_string(),
                },
            });
        }
        let is_sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("text/event-stream"));
        if !is_sse {
            return Err(McpError::Connect {
                reason: Phrase::McpNotEventStream {
                    url: url.to_string(),
                },
            });
        }
        let mut events = SseStream::from_bytes_stream(response.bytes_stream());
        let endpoint = tokio::time::timeout(ENDPOINT_TIMEOUT, async {
            while let Some(event) = events.next().await {
                let event = event.map_err(|e| McpError::Connect {
                    reason: Phrase::McpEventStreamBroke {
                        error: e.to_string(),
                    },
                })?;
                if event.event.as_deref() == Some("endpoint") {
                    return Ok(event.data.unwrap_or_default());
                }
            }
            Err(McpError::Connect {
                reason: Phrase::McpEventStreamEnded,
            })
        })
        .await
        .map_err(|_| McpError::Connect {
            reason: Phrase::McpNoEndpoint,
        })??;
        let endpoint = base.join(endpoint.trim()).map_err(|e| McpError::Connect {
            reason: Phrase::McpBadEndpoint {
                endpoint: endpoint.clone(),
                error: e.to_string(),
            },
        })?;
        // The endpoint decides where our messages (and token) go: never off-origin.
        if endpoint.origin() != base.origin() {
            return Err(McpError::Connect {
                reason: Phrase::McpEndpointOffOrigin {
                    endpoint: endpoint.to_string(),
                },
            });
        }
        let (tx, inbox) = mpsc::channel(64);
        let stop = CancellationToken::new();
        let stopped = stop.clone();
        tokio::spawn(async move {
            loop {
                let next = tokio::select! {
                    _ = stopped.cancelled() => break,
                    next = events.next() => next,
                };
                let event = match next {
                    Some(Ok(event)) => event,
                    Some(Err(e)) => {
                        tracing::warn!(error = %e, "legacy SSE stream failed");
                        break;
                    }
                    None => break,
                };
                if !matches!(event.event.as_deref(), None | Some("message")) {
                    continue;
                }
                let Some(data) = event.data.filter(|d| !d.trim().is_empty()) else {
                    continue;
                };
                match serde_json::from_str::<ServerJsonRpcMessage>(&data) {
                    Ok(message) => {
                        if tx.send(message).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "unreadable message on the legacy SSE stream")
                    }
                }
            }
            // Dropping `tx` tells the service the connection is gone.
        });
        Ok(LegacySseTransport {
            inbox,
            poster: Poster {
                http,
                endpoint,
                headers,
                auth,
            },
            stop,
        })
    }
}

impl Poster {
    async fn post(self, message: ClientJsonRpcMessage) -> Result<(), SseTransportError> {
        let token = self.auth.token().await;
        let mut request = self
            .http
            .post(self.endpoint.clone())
            .header("content-type", "application/json");
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let request = self.auth.apply(request, token.as_deref());
        let response = request
            .json(&message)
            .send()
            .await
            .map_err(|e| SseTransportError(e.to_string().into()))?;
        let status = response.status();
        if status.is_success() {
            Ok(())
        } else {
            Err(SseTransportError(
                format!("POST {} answered HTTP {status}", self.endpoint).into(),
            ))
        }
    }
}

impl Transport<RoleClient> for LegacySseTransport {
    type Error = SseTransportError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.poster.clone().post(item)
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inbox.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.stop.cancel();
        Ok(())
    }
}

impl Drop for LegacySseTransport {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
