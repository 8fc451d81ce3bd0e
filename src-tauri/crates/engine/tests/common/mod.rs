//! Shared harness for engine integration tests: a real session over a real SQLite file,
//! talking HTTP to the mock LLM server in one of the three wire formats.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use memo_engine::tools::ToolRegistry;
use memo_engine::{
    spawn_session, ApprovalMode, EventReceiver, SessionHandle, SessionParams, SessionStart,
    TurnLimits,
};
use memo_model::{ApiKey, WireApi};
use memo_protocol::{AgentEvent, EventEnvelope, Op, SessionId, UserInput};
use memo_providers::{create_client, Endpoint, RetryPolicy};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};
use serde_json::Value;

pub const ALL_APIS: [WireApi; 3] = [WireApi::Openai, WireApi::Anthropic, WireApi::Gemini];

pub struct Harness {
    pub api: WireApi,
    pub mock: MockLlmServer,
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    pub session: SessionHandle,
    pub events: EventReceiver,
}

pub fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        ..RetryPolicy::default()
    }
}

pub fn endpoint(api: WireApi, base: &str) -> Endpoint {
    let base_url = match api {
        WireApi::Openai => format!("{base}/v1"),
        _ => base.to_owned(),
    };
    Endpoint {
        api,
        base_url,
        api_key: Some(ApiKey::new("test-key-123")),
    }
}

pub fn params(
    api: WireApi,
    mock: &MockLlmServer,
    cwd: &Path,
    store: Arc<Store>,
    id: &str,
    tools: ToolRegistry,
    limits: TurnLimits,
) -> SessionParams {
    SessionParams {
        id: SessionId::new(id),
        cwd: cwd.to_path_buf(),
        provider: format!("{api:?}").to_lowercase(),
        model: "mock-model".into(),
        client: create_client(endpoint(api, &mock.base_url())).expect("client"),
        resolver: None,
        tools,
        store,
        system_prompt: "You are a test agent.".into(),
        limits,
        memo_home: None,
        context: Default::default(),
        checkpoints: None,
    }
}

impl Harness {
    pub async fn start(api: WireApi, responses: Vec<MockResponse>) -> Harness {
        Self::start_with(
            api,
            responses,
            ToolRegistry::builtin(),
            TurnLimits {
                retry: fast_retry(),
                ..TurnLimits::default()
            },
        )
        .await
    }

    /// The built-in tools, the OpenAI wire format, `mode`, and quick retries.
    pub async fn builtin(mode: ApprovalMode, responses: Vec<MockResponse>) -> Harness {
        let limits = TurnLimits {
            approval_mode: mode,
            retry: fast_retry(),
            ..TurnLimits::default()
        };
        Self::start_with(WireApi::Openai, responses, ToolRegistry::builtin(), limits).await
    }

    pub async fn start_with(
        api: WireApi,
        responses: Vec<MockResponse>,
        tools: ToolRegistry,
        limits: TurnLimits,
    ) -> Harness {
        Self::start_custom(api, responses, tools, limits, |_| {}).await
    }

    /// [`Harness::start_with`], with the session's parameters adjusted before it starts.
    pub async fn start_custom(
        api: WireApi,
        responses: Vec<MockResponse>,
        tools: ToolRegistry,
        limits: TurnLimits,
        customize: impl FnOnce(&mut SessionParams),
    ) -> Harness {
        let mock = MockLlmServer::start_with(responses)
            .await
            .expect("mock server");
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Arc::new(Store::open(dir.path().join("memo.sqlite")).expect("store"));
        let work = dir.path().join("work");
        std::fs::create_dir_all(&work).expect("workdir");
        let mut session_params = params(api, &mock, &work, store.clone(), "s-1", tools, limits);
        customize(&mut session_params);
        let session = spawn_session(session_params, SessionStart::New).expect("session");
        let events = session.subscribe(0).expect("subscribe");
        Harness {
            api,
            mock,
            dir,
            store,
            session,
            events,
        }
    }

    pub fn workdir(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn submit(&self, text: &str) {
        self.session
            .submit(Op::UserTurn {
                input: UserInput::text(text),
            })
            .expect("submit");
    }

    /// Collects events until the turn ends.
    pub async fn until_turn_end(&mut self) -> Vec<EventEnvelope> {
        let mut out = Vec::new();
        loop {
            let env = self.next_event(&out).await;
            let end = matches!(env.event, AgentEvent::TurnEnded { .. });
            out.push(env);
            if end {
                return out;
            }
        }
    }

    async fn next_event(&mut self, seen: &[EventEnvelope]) -> EventEnvelope {
        match tokio::time::timeout(Duration::from_secs(20), self.events.recv()).await {
            Ok(Some(env)) => env,
            Ok(None) => panic!("event channel closed; seen: {:?}", kinds(seen)),
            Err(_) => panic!(
                "timed out waiting for events; seen: {:?}\n{seen:#?}",
                kinds(seen)
            ),
        }
    }

    pub async fn run_turn(&mut self, text: &str) -> Vec<EventEnvelope> {
        self.submit(text);
        self.until_turn_end().await
    }

    /// Waits for the first event matching `pred`, returning every event seen up to it.
    pub async fn until(&mut self, pred: impl Fn(&AgentEvent) -> bool) -> Vec<EventEnvelope> {
        let mut out = Vec::new();
        loop {
            let env = self.next_event(&out).await;
            let hit = pred(&env.event);
            out.push(env);
            if hit {
                return out;
            }
        }
    }

    pub async fn shutdown(self) {
        let _ = self.session.submit(Op::Shutdown);
        self.session.closed().await;
        self.mock.shutdown().await;
    }

    pub fn request_bodies(&self) -> Vec<Value> {
        self.mock.requests().into_iter().map(|r| r.body).collect()
    }
}

pub fn text_of(events: &[EventEnvelope]) -> String {
    events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::TextDelta { delta } => Some(delta.as_str()),
            _ => None,
        })
        .collect()
}

pub fn end_reason(
    events: &[EventEnvelope],
) -> (memo_protocol::TurnEndReason, memo_protocol::TokenUsage) {
    match events.last().map(|e| &e.event) {
        Some(AgentEvent::TurnEnded { reason, usage }) => (*reason, *usage),
        other => panic!("last event is not turn_ended: {other:?}"),
    }
}

pub fn tool_ends(
    events: &[EventEnvelope],
) -> Vec<(
    String,
    memo_protocol::ToolStatus,
    Option<memo_protocol::ToolErrorKind>,
    String,
)> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                name,
                status,
                error_kind,
                output,
                ..
            } => Some((name.clone(), *status, *error_kind, output.clone())),
            _ => None,
        })
        .collect()
}

/// A tool result as found in a request body, whatever the wire format.
#[derive(Debug, Clone, PartialEq)]
pub struct SentResult {
    /// Call id (OpenAI, Anthropic) or function name (Gemini, which pairs by name).
    pub key: String,
    pub content: String,
    pub is_error: bool,
}

pub fn sent_tool_results(api: WireApi, body: &Value) -> Vec<SentResult> {
    let mut out = Vec::new();
    match api {
        WireApi::Openai => {
            for m in body["messages"].as_array().into_iter().flatten() {
                if m["role"] == "tool" {
                    let content = m["content"].as_str().unwrap_or_default().to_owned();
                    out.push(SentResult {
                        key: m["tool_call_id"].as_str().unwrap_or_default().to_owned(),
                        is_error: content.starts_with("Error ("),
                        content,
                    });
                }
            }
        }
        WireApi::Anthropic => {
            for m in body["messages"].as_array().into_iter().flatten() {
                for block in m["content"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_result" {
                        let content = match &block["content"] {
                            Value::String(s) => s.clone(),
                            Value::Array(parts) => {
                                parts.iter().filter_map(|p| p["text"].as_str()).collect()
                            }
                            other => other.to_string(),
                        };
                        out.push(SentResult {
                            key: block["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                            content,
                            is_error: block["is_error"].as_bool().unwrap_or(false),
                        });
                    }
                }
            }
        }
        WireApi::Gemini => {
            for c in body["contents"].as_array().into_iter().flatten() {
                for part in c["parts"].as_array().into_iter().flatten() {
                    if let Some(fr) = part.get("functionResponse") {
                        let resp = &fr["response"];
                        let (content, is_error) = match (resp.get("output"), resp.get("error")) {
                            (_, Some(e)) => (
                                e.as_str()
                                    .map(str::to_owned)
                                    .unwrap_or_else(|| e.to_string()),
                                true,
                            ),
                            (Some(o), None) => (
                                o.as_str()
                                    .map(str::to_owned)
                                    .unwrap_or_else(|| o.to_string()),
                                false,
                            ),
                            _ => (resp.to_string(), false),
                        };
                        out.push(SentResult {
                            key: fr["name"].as_str().unwrap_or_default().to_owned(),
                            content,
                            is_error,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The ids (or, for Gemini, names) of tool calls the assistant made, as sent back.
pub fn sent_tool_calls(api: WireApi, body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match api {
        WireApi::Openai => {
            for m in body["messages"].as_array().into_iter().flatten() {
                for c in m["tool_calls"].as_array().into_iter().flatten() {
                    out.push(c["id"].as_str().unwrap_or_default().to_owned());
                }
            }
        }
        WireApi::Anthropic => {
            for m in body["messages"].as_array().into_iter().flatten() {
                for block in m["content"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_use" {
                        out.push(block["id"].as_str().unwrap_or_default().to_owned());
                    }
                }
            }
        }
        WireApi::Gemini => {
            for c in body["contents"].as_array().into_iter().flatten() {
                for part in c["parts"].as_array().into_iter().flatten() {
                    if let Some(fc) = part.get("functionCall") {
                        out.push(fc["name"].as_str().unwrap_or_default().to_owned());
                    }
                }
            }
        }
    }
    out
}

pub fn sent_system_prompt(api: WireApi, body: &Value) -> String {
    match api {
        WireApi::Openai => body["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        WireApi::Anthropic => match &body["system"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
            _ => String::new(),
        },
        WireApi::Gemini => body["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    }
}

pub fn sent_tool_names(api: WireApi, body: &Value) -> Vec<String> {
    let mut names: Vec<String> = match api {
        WireApi::Openai => body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
            .collect(),
        WireApi::Anthropic => body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect(),
        WireApi::Gemini => body["tools"][0]["functionDeclarations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect(),
    };
    names.sort();
    names
}

pub fn kinds(events: &[EventEnvelope]) -> Vec<&'static str> {
    events.iter().map(|e| e.event.kind()).collect()
}
