//! The HTTP server: a FIFO of scripted responses, a log of requests, and routing
//! of model requests to the wire format their path names.

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::error::MockError;
use crate::record::{gemini_model_from_path, RecordedRequest, WireFormat};
use crate::render::{render, render_error, Rendered, RenderedBody, RequestInfo};
use crate::scenario::Scenario;
use crate::script::{HttpError, MockResponse};
use crate::stream::{sse_body, ActiveStreams};

/// Agent requests carry whole conversations; axum's 2 MiB default is too small.
const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// How long `shutdown` waits for connections to wind down before cutting them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// A scripted mock of the OpenAI, Anthropic and Gemini streaming APIs on 127.0.0.1.
///
/// Dropping it stops the listener too; [`MockLlmServer::shutdown`] additionally waits
/// for open connections to close.
#[derive(Debug)]
pub struct MockLlmServer {
    shared: Arc<Shared>,
    addr: SocketAddr,
    task: Option<JoinHandle<()>>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<ScriptState>,
    /// Number of recorded requests, watched by `wait_for_requests`.
    request_count: watch::Sender<usize>,
    /// Flips to `true` once, on shutdown; streams and the server watch it.
    shutdown: watch::Sender<bool>,
    active: Arc<ActiveStreams>,
}

#[derive(Debug, Default)]
struct ScriptState {
    queue: VecDeque<MockResponse>,
    requests: Vec<RecordedRequest>,
    /// What `GET /v1/models` (and Ollama's `GET /api/tags`) list.
    models: Vec<String>,
    /// What llama.cpp's `GET /props` and Ollama's `POST /api/show` report as the
    /// context size; `None` answers those with 404, as servers without them do.
    context_window: Option<u64>,
}

/// The model a fresh mock lists until [`MockLlmServer::set_models`] says otherwise.
pub const DEFAULT_MOCK_MODEL: &str = "mock-model";

impl Shared {
    /// The lock only guards plain data, so a panic elsewhere cannot leave it
    /// inconsistent; recover instead of propagating the poison.
    fn lock(&self) -> MutexGuard<'_, ScriptState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl MockLlmServer {
    /// Start on a random loopback port with an empty script.
    pub async fn start() -> Result<MockLlmServer, MockError> {
        Self::start_with(Vec::new()).await
    }

    /// Start on a random loopback port with these responses queued.
    pub async fn start_with(
        responses: impl IntoIterator<Item = MockResponse>,
    ) -> Result<MockLlmServer, MockError> {
        Self::start_on_port(0, responses).await
    }

    /// Start on `127.0.0.1:port` (0 = any free port).
    pub async fn start_on_port(
        port: u16,
        responses: impl IntoIterator<Item = MockResponse>,
    ) -> Result<MockLlmServer, MockError> {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| MockError::Bind { addr, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| MockError::Bind { addr, source })?;

        let shared = Arc::new(Shared {
            state: Mutex::new(ScriptState {
                queue: responses.into_iter().collect(),
                requests: Vec::new(),
                models: vec![DEFAULT_MOCK_MODEL.to_owned()],
                context_window: None,
            }),
            request_count: watch::Sender::new(0),
            shutdown: watch::Sender::new(false),
            active: Arc::new(ActiveStreams::default()),
        });

        let app = Router::new()
            .route("/__mock/requests", get(list_requests))
            .route("/__mock/responses", post(append_responses))
            .route("/__mock/reset", post(reset))
            .route("/v1/models", get(list_models_openai))
            .route("/api/tags", get(list_models_ollama))
            .route("/props", get(llama_cpp_props))
            .route("/api/show", post(ollama_show))
            .fallback(model_request)
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
            .with_state(Arc::clone(&shared));

        let mut stop = shared.shutdown.subscribe();
        let task = tokio::spawn(async move {
            let signal = async move {
                let _ = stop.wait_for(|stop| *stop).await;
            };
            if let Err(err) = axum::serve(listener, app)
                .with_graceful_shutdown(signal)
                .await
            {
                tracing::warn!("mock LLM server stopped with an error: {err}");
            }
        });
        tracing::debug!("mock LLM server listening on {addr}");

        Ok(MockLlmServer {
            shared,
            addr,
            task: Some(task),
        })
    }

    /// The models listed by `GET /v1/models` and `GET /api/tags`, as local servers
    /// (llama.cpp, Ollama, LM Studio, vLLM) list what they serve.
    pub fn set_models(&self, models: &[&str]) {
        self.shared.lock().models = models.iter().map(|m| (*m).to_owned()).collect();
    }

    /// The context size `GET /props` (llama.cpp) and `POST /api/show` (Ollama) report.
    pub fn set_context_window(&self, tokens: Option<u64>) {
        self.shared.lock().context_window = tokens;
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Append one response to the script.
    pub fn push(&self, response: MockResponse) {
        self.shared.lock().queue.push_back(response);
    }

    /// Append several responses, in order.
    pub fn extend(&self, responses: impl IntoIterator<Item = MockResponse>) {
        self.shared.lock().queue.extend(responses);
    }

    /// Responses not consumed yet (a finished test usually expects 0).
    pub fn pending_responses(&self) -> usize {
        self.shared.lock().queue.len()
    }

    /// Every model request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    pub fn last_request(&self) -> Option<RecordedRequest> {
        self.shared.lock().requests.last().cloned()
    }

    /// Streaming responses still being sent (hanging ones included). Drops to 0
    /// when clients hang up, which is how interrupt tests can check they did.
    pub fn active_streams(&self) -> usize {
        self.shared.active.get()
    }

    /// Forget the script and the recorded requests.
    pub fn reset(&self) {
        reset_state(&self.shared);
    }

    /// Wait until at least `n` requests have been recorded, then return them all.
    pub async fn wait_for_requests(
        &self,
        n: usize,
        timeout: Duration,
    ) -> Result<Vec<RecordedRequest>, MockError> {
        let mut count = self.shared.request_count.subscribe();
        let reached = async { count.wait_for(|c| *c >= n).await.is_ok() };
        match tokio::time::timeout(timeout, reached).await {
            Ok(true) => Ok(self.requests()),
            // The sender lives in `self`, so `wait_for` cannot fail; treat it as a timeout.
            Ok(false) | Err(_) => Err(MockError::Timeout {
                expected: n,
                received: self.shared.lock().requests.len(),
                timeout,
            }),
        }
    }

    /// Stop accepting connections, end open streams, and wait (briefly) for the
    /// server task to finish.
    pub async fn shutdown(mut self) {
        self.shared.shutdown.send_replace(true);
        if let Some(mut task) = self.task.take() {
            if tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
            {
                task.abort();
            }
        }
    }
}

impl Drop for MockLlmServer {
    fn drop(&mut self) {
        // Ends streams and tells connections to close; aborting the task drops the
        // listener at once, so the port stops accepting before `drop` returns.
        self.shared.shutdown.send_replace(true);
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

fn reset_state(shared: &Shared) {
    let mut state = shared.lock();
    state.queue.clear();
    state.requests.clear();
    shared.request_count.send_replace(0);
}

async fn list_requests(State(shared): State<Arc<Shared>>) -> Response {
    let requests = shared.lock().requests.clone();
    json_response(StatusCode::OK, &json!(requests))
}

async fn append_responses(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let text = String::from_utf8_lossy(&body);
    match Scenario::from_json(&text) {
        Ok(scenario) => {
            let added = scenario.responses.len();
            let mut state = shared.lock();
            state.queue.extend(scenario.responses);
            let pending = state.queue.len();
            json_response(StatusCode::OK, &json!({"added": added, "pending": pending}))
        }
        Err(err) => json_response(
            StatusCode::BAD_REQUEST,
            &json!({"error": {"message": err.to_string()}}),
        ),
    }
}

async fn reset(State(shared): State<Arc<Shared>>) -> Response {
    reset_state(&shared);
    json_response(StatusCode::OK, &json!({"reset": true}))
}

/// A model request path: which format, which model (Gemini), streaming or not.
struct Route {
    format: WireFormat,
    gemini_model: Option<String>,
    gemini_streaming: bool,
}

/// Accepts the canonical paths under any prefix, since clients are configured
/// with base URLs like `http://host/v1` or `http://host/openai/v1`.
fn classify(path: &str) -> Option<Route> {
    if path.ends_with("/chat/completions") {
        return Some(Route {
            format: WireFormat::OpenAi,
            gemini_model: None,
            gemini_streaming: false,
        });
    }
    if path.ends_with("/v1/messages") || path == "/messages" {
        return Some(Route {
            format: WireFormat::Anthropic,
            gemini_model: None,
            gemini_streaming: false,
        });
    }
    let model = gemini_model_from_path(path)?;
    let streaming = if path.ends_with(":streamGenerateContent") {
        true
    } else if path.ends_with(":generateContent") {
        false
    } else {
        return None;
    };
    Some(Route {
        format: WireFormat::Gemini,
        gemini_model: Some(model.to_owned()),
        gemini_streaming: streaming,
    })
}

/// OpenAI's `GET /v1/models` shape, which llama.cpp, LM Studio and vLLM serve too.
async fn list_models_openai(State(shared): State<Arc<Shared>>) -> Response {
    let models = shared.lock().models.clone();
    let data: Vec<Value> = models
        .iter()
        .map(|id| json!({"id": id, "object": "model", "owned_by": "mock"}))
        .collect();
    json_response(StatusCode::OK, &json!({"object": "list", "data": data}))
}

/// llama.cpp's `GET /props`: the running context size under its generation settings.
async fn llama_cpp_props(State(shared): State<Arc<Shared>>) -> Response {
    match shared.lock().context_window {
        Some(n) => json_response(
            StatusCode::OK,
            &json!({"default_generation_settings": {"n_ctx": n}, "total_slots": 1}),
        ),
        None => json_response(StatusCode::NOT_FOUND, &json!({"error": "not found"})),
    }
}

/// Ollama's `POST /api/show`: `num_ctx` among the model's parameters.
async fn ollama_show(State(shared): State<Arc<Shared>>) -> Response {
    match shared.lock().context_window {
        Some(n) => json_response(
            StatusCode::OK,
            &json!({"parameters": format!("stop \"<|im_end|>\"\nnum_ctx {n}"), "model_info": {}}),
        ),
        None => json_response(StatusCode::NOT_FOUND, &json!({"error": "model not found"})),
    }
}

/// Ollama's own `GET /api/tags` shape.
async fn list_models_ollama(State(shared): State<Arc<Shared>>) -> Response {
    let models = shared.lock().models.clone();
    let list: Vec<Value> = models
        .iter()
        .map(|name| json!({"name": name, "model": name, "size": 0}))
        .collect();
    json_response(StatusCode::OK, &json!({"models": list}))
}

async fn model_request(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    let route = match classify(&path) {
        Some(route) if method == Method::POST => route,
        _ => {
            return json_response(
                StatusCode::NOT_FOUND,
                &json!({"error": {"message": format!("mock LLM server: no route for {method} {path}")}}),
            )
        }
    };

    let (parsed, body_value) = parse_body(&body);
    let first_user = first_user_message(&body_value);
    let info = RequestInfo {
        model: route
            .gemini_model
            .clone()
            .or_else(|| {
                body_value
                    .get("model")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| "mock-model".to_owned()),
        streaming: match route.format {
            WireFormat::Gemini => route.gemini_streaming,
            _ => body_value.get("stream").and_then(Value::as_bool) == Some(true),
        },
        include_usage: body_value
            .pointer("/stream_options/include_usage")
            .and_then(Value::as_bool)
            == Some(true),
        body_len: body.len(),
    };
    let record = RecordedRequest {
        format: route.format,
        method: method.to_string(),
        path: path.clone(),
        query: uri.query().map(str::to_owned),
        headers: headers
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body_value,
    };

    // A request the real service would reject must not eat a scripted response,
    // or every later response in the test would shift by one.
    let rejection = if !parsed {
        Some("request body is not valid JSON")
    } else if route.format == WireFormat::Gemini
        && route.gemini_streaming
        && !has_alt_sse(uri.query())
    {
        Some("the mock serves streamGenerateContent only with ?alt=sse")
    } else {
        None
    };

    let (next, number) = {
        let mut state = shared.lock();
        state.requests.push(record);
        let number = state.requests.len();
        let next = if rejection.is_none() {
            let at = state.queue.iter().position(|r| r.answers(&first_user));
            at.and_then(|at| state.queue.remove(at))
        } else {
            None
        };
        (next, number)
    };
    shared.request_count.send_replace(number);

    let rendered = match (rejection, next) {
        (Some(reason), _) => {
            let error = HttpError {
                message: Some(format!("mock LLM server: {reason}")),
                ..HttpError::new(400)
            };
            render_error(route.format, &error, &info)
        }
        (None, Some(response)) => render(route.format, &response, &info),
        (None, None) => {
            tracing::warn!("mock script exhausted at request #{number} ({method} {path})");
            let error = HttpError {
                message: Some(format!(
                    "mock script exhausted: no scripted response left for request #{number} ({method} {path})"
                )),
                ..HttpError::new(500)
            };
            render_error(route.format, &error, &info)
        }
    };
    into_response(rendered, &shared)
}

fn has_alt_sse(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|pair| pair == "alt=sse"))
}

/// `(is_valid_json, value)`: empty bodies are `Null`, non-JSON is kept as a string.
fn parse_body(body: &[u8]) -> (bool, Value) {
    if body.is_empty() {
        return (true, Value::Null);
    }
    match serde_json::from_slice(body) {
        Ok(value) => (true, value),
        Err(_) => (
            false,
            Value::String(String::from_utf8_lossy(body).into_owned()),
        ),
    }
}

fn into_response(rendered: Rendered, shared: &Shared) -> Response {
    let status = StatusCode::from_u16(rendered.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut builder = Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, rendered.content_type);
    for (name, value) in rendered.headers {
        builder = builder.header(name, value);
    }
    let body = match rendered.body {
        RenderedBody::Full(bytes) => Body::from(bytes),
        RenderedBody::Events(events, plan) => sse_body(
            events,
            plan,
            shared.shutdown.subscribe(),
            Arc::clone(&shared.active),
        ),
    };
    builder.body(body).unwrap_or_else(|err| {
        // Only reachable with a scripted header or content type that is not valid HTTP.
        json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({"error": {"message": format!("mock LLM server: cannot build response: {err}")}}),
        )
    })
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// The first user message of a request, as JSON text, whatever the wire format: what a
/// response's `when` is matched against. OpenAI and Anthropic send `messages` (OpenAI's
/// may start with the system message), Gemini `contents`.
fn first_user_message(body: &Value) -> String {
    let list = body
        .get("messages")
        .or_else(|| body.get("contents"))
        .and_then(Value::as_array);
    list.and_then(|messages| {
        messages
            .iter()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
    })
    .map(Value::to_string)
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_paths() {
        let format = |p: &str| classify(p).map(|r| r.format);
        assert_eq!(format("/v1/chat/completions"), Some(WireFormat::OpenAi));
        assert_eq!(format("/chat/completions"), Some(WireFormat::OpenAi));
        assert_eq!(format("/api/v1/chat/completions"), Some(WireFormat::OpenAi));
        assert_eq!(format("/v1/messages"), Some(WireFormat::Anthropic));
        let gemini = classify("/v1beta/models/gemini-2.5-pro:streamGenerateContent").unwrap();
        assert_eq!(gemini.format, WireFormat::Gemini);
        assert_eq!(gemini.gemini_model.as_deref(), Some("gemini-2.5-pro"));
        assert!(gemini.gemini_streaming);
        assert!(
            !classify("/v1beta/models/g:generateContent")
                .unwrap()
                .gemini_streaming
        );
        assert!(classify("/v1beta/models/g:countTokens").is_none());
        assert!(classify("/v1/models").is_none());
    }

    #[test]
    fn alt_sse_detection() {
        assert!(has_alt_sse(Some("alt=sse")));
        assert!(has_alt_sse(Some("key=abc&alt=sse")));
        assert!(!has_alt_sse(Some("alt=json")));
        assert!(!has_alt_sse(None));
    }
}
