//! HTTP for remote servers: one reqwest client setup (rustls with ring), the headers a
//! server's config asks for, and authorization (a static bearer token or OAuth tokens
//! that refresh themselves) put on every request of the SDK's streamable HTTP client.

use std::collections::HashMap;
use std::sync::Arc;

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::Sse;

use crate::config::HttpConfig;
use crate::error::McpError;
use crate::oauth::TokenSource;

pub use crate::http_client::client;

/// The configured headers, with `env_http_headers` read from the environment. A missing
/// variable is an error: a server silently called without its key fails obscurely.
pub fn config_headers(
    cfg: &HttpConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<HashMap<HeaderName, HeaderValue>, McpError> {
    let mut out = HashMap::new();
    for (name, value) in configured(cfg, env)? {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| McpError::Config(format!("header name \"{name}\": {e}")))?;
        let mut value = HeaderValue::from_str(&value)
            .map_err(|e| McpError::Config(format!("header \"{name}\": {e}")))?;
        value.set_sensitive(true);
        out.insert(name, value);
    }
    Ok(out)
}

/// Every header a request to the server carries, as text — the configured ones,
/// `env_http_headers`, and `bearer_token_env_var` as `Authorization` — for another
/// program that calls the server itself (an external agent Memo gives it to). A missing
/// variable is an error, as for Memo's own requests.
pub fn header_pairs(
    cfg: &HttpConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, McpError> {
    let mut out = configured(cfg, env)?;
    if let Some(var) = &cfg.bearer_token_env_var {
        let token = env(var).filter(|t| !t.is_empty()).ok_or_else(|| {
            McpError::Config(format!(
                "bearer_token_env_var names {var}, which is not set"
            ))
        })?;
        out.push(("Authorization".to_owned(), format!("Bearer {token}")));
    }
    Ok(out)
}

fn configured(
    cfg: &HttpConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, McpError> {
    let mut out: Vec<(String, String)> = cfg
        .headers
        .iter()
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    for (name, var) in &cfg.env_headers {
        let value = env(var).ok_or_else(|| {
            McpError::Config(format!(
                "header \"{name}\" needs the environment variable {var}, which is not set"
            ))
        })?;
        out.push((name.clone(), value));
    }
    Ok(out)
}

/// How requests to one server are authorized.
#[derive(Clone, Default)]
pub enum Auth {
    #[default]
    None,
    /// From `bearer_token_env_var`.
    Bearer(String),
    OAuth(Arc<TokenSource>),
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Auth::None => "Auth::None",
            Auth::Bearer(_) => "Auth::Bearer(<redacted>)",
            Auth::OAuth(_) => "Auth::OAuth",
        })
    }
}

impl Auth {
    /// The bearer token for the next request, refreshed first if it expired.
    pub async fn token(&self) -> Option<String> {
        match self {
            Auth::None => None,
            Auth::Bearer(token) => Some(token.clone()),
            // None before the first login of a session that may log in when asked.
            Auth::OAuth(source) => source.current().await,
        }
    }

    /// The server refused `rejected` (401, with its `WWW-Authenticate` challenge): a
    /// fresh token to retry with, if one can be had.
    pub async fn after_rejection(
        &self,
        rejected: Option<&str>,
        challenge: Option<&str>,
    ) -> Option<String> {
        match self {
            Auth::OAuth(source) => match source.after_rejection(rejected, challenge).await {
                Ok(token) => Some(token),
                Err(e) => {
                    tracing::warn!(error = %e, "no new OAuth token");
                    None
                }
            },
            _ => None,
        }
    }

    /// The server wants more scope (403 `insufficient_scope`): a token that has it.
    pub async fn after_insufficient_scope(&self, challenge: &str) -> Option<String> {
        match self {
            Auth::OAuth(source) => match source.after_insufficient_scope(challenge).await {
                Ok(token) => Some(token),
                Err(e) => {
                    tracing::warn!(error = %e, "no token with more scope");
                    None
                }
            },
            _ => None,
        }
    }

    /// After a refused request: the token to retry with, if there is one worth trying.
    async fn retry_token(&self, refusal: Refusal, sent: Option<&str>) -> Option<String> {
        match refusal {
            Refusal::Unauthorized(challenge) => self.after_rejection(sent, Some(&challenge)).await,
            Refusal::InsufficientScope(challenge) => {
                self.after_insufficient_scope(&challenge).await
            }
        }
    }

    pub fn apply(
        &self,
        builder: reqwest::RequestBuilder,
        token: Option<&str>,
    ) -> reqwest::RequestBuilder {
        match token {
            Some(token) => builder.bearer_auth(token),
            None => builder,
        }
    }
}

/// The SDK's reqwest client with our authorization on every request, and one retry
/// with a new token when the server answers 401 (refreshed, or from a login) or 403
/// `insufficient_scope` (a token with more scope).
#[derive(Clone)]
pub struct AuthedClient {
    pub inner: reqwest::Client,
    pub auth: Auth,
    pub standalone: StandaloneStream,
}

/// How long a request waits for its session's standalone stream: long enough for a loaded
/// machine, short enough that a server slow to answer the GET costs little.
const STANDALONE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Whether the session's standalone stream is open yet: the GET that carries what a server
/// sends outside any request's own stream, such as an elicitation a tool asks for with a
/// plain server request. The SDK opens it beside the first requests after `initialize`;
/// a server that sends before it is open drops the message (the TypeScript SDK's does), and
/// the tool call waiting on the answer hangs until it times out. So each request of a
/// session waits, briefly, until that session's stream is open or refused.
#[derive(Clone)]
pub struct StandaloneStream {
    /// The session whose stream was last opened (or refused).
    settled: Arc<tokio::sync::watch::Sender<Option<Arc<str>>>>,
}

impl Default for StandaloneStream {
    fn default() -> Self {
        StandaloneStream {
            settled: Arc::new(tokio::sync::watch::Sender::new(None)),
        }
    }
}

impl StandaloneStream {
    /// The GET for `session` was answered, with a stream or a refusal (405: the server has
    /// none): either way nothing is gained by waiting longer.
    fn settle(&self, session: &Arc<str>) {
        self.settled.send_replace(Some(session.clone()));
    }

    /// Waits until `session`'s stream is settled, at most [`STANDALONE_WAIT`], and only
    /// once: a server that never answers the GET costs the first request the wait, not
    /// every request.
    async fn wait(&self, session: &Arc<str>) {
        let mut settled = self.settled.subscribe();
        let open = settled.wait_for(|s| s.as_deref() == Some(&**session));
        if tokio::time::timeout(STANDALONE_WAIT, open).await.is_err() {
            tracing::debug!("the standalone stream is not open yet; sending anyway");
            self.settle(session);
        }
    }

    /// Before posting `message`: a request of a session waits for its stream.
    async fn before_post(&self, message: &ClientJsonRpcMessage, session: Option<&Arc<str>>) {
        if let (ClientJsonRpcMessage::Request(_), Some(session)) = (message, session) {
            self.wait(session).await;
        }
    }

    /// After a GET of a session was answered (a reconnection settles it again: harmless).
    fn after_get(&self, session: Option<&Arc<str>>) {
        if let Some(session) = session {
            self.settle(session);
        }
    }
}

type HttpResult<T> = Result<T, StreamableHttpError<reqwest::Error>>;

/// Why the server refused a request, with its `WWW-Authenticate` challenge.
enum Refusal {
    Unauthorized(String),
    InsufficientScope(String),
}

fn refusal(error: &StreamableHttpError<reqwest::Error>) -> Option<Refusal> {
    match error {
        StreamableHttpError::AuthRequired(e) => {
            Some(Refusal::Unauthorized(e.www_authenticate_header.clone()))
        }
        StreamableHttpError::InsufficientScope(e) => Some(Refusal::InsufficientScope(
            e.www_authenticate_header.clone(),
        )),
        _ => None,
    }
}

impl StreamableHttpClient for AuthedClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        self.standalone
            .before_post(&message, session_id.as_ref())
            .await;
        let token = self.auth.token().await;
        let first = self
            .inner
            .post_message(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token.clone(),
                headers.clone(),
            )
            .await;
        // Only the error is kept across the await: a response holds a stream that is not
        // Sync, which the future must be.
        let error = match first {
            Ok(response) => return Ok(response),
            Err(error) => error,
        };
        let Some(refusal) = refusal(&error) else {
            return Err(error);
        };
        match self.auth.retry_token(refusal, token.as_deref()).await {
            Some(fresh) => {
                self.inner
                    .post_message(uri, message, session_id, Some(fresh), headers)
                    .await
            }
            None => Err(error),
        }
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
        max: usize,
    ) -> HttpResult<StreamableHttpPostResponse> {
        self.standalone
            .before_post(&message, session_id.as_ref())
            .await;
        let token = self.auth.token().await;
        let first = self
            .inner
            .post_message_with_max_sse_event_size(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token.clone(),
                headers.clone(),
                max,
            )
            .await;
        // Only the error is kept across the await: a response holds a stream that is not
        // Sync, which the future must be.
        let error = match first {
            Ok(response) => return Ok(response),
            Err(error) => error,
        };
        let Some(refusal) = refusal(&error) else {
            return Err(error);
        };
        match self.auth.retry_token(refusal, token.as_deref()).await {
            Some(fresh) => {
                self.inner
                    .post_message_with_max_sse_event_size(
                        uri,
                        message,
                        session_id,
                        Some(fresh),
                        headers,
                        max,
                    )
                    .await
            }
            None => Err(error),
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<()> {
        let token = self.auth.token().await;
        self.inner
            .delete_session(uri, session_id, token, headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<BoxStream<'static, Result<Sse, SseError>>> {
        let token = self.auth.token().await;
        let session = session_id.clone();
        let stream = self
            .inner
            .get_stream(uri, session_id, last_event_id, token, headers)
            .await;
        self.standalone.after_get(session.as_ref());
        stream
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
        max: usize,
    ) -> HttpResult<BoxStream<'static, Result<Sse, SseError>>> {
        let token = self.auth.token().await;
        let session = session_id.clone();
        let stream = self
            .inner
            .get_stream_with_max_sse_event_size(uri, session_id, last_event_id, token, headers, max)
            .await;
        self.standalone.after_get(session.as_ref());
        stream
    }
}
