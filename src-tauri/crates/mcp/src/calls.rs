//! Requests to servers on behalf of tools and commands. Every request has the server's
//! call timeout; a call that times out or is interrupted is cancelled on the server with
//! `notifications/cancelled`, and a server that dies mid-call is reported with its
//! stderr tail.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memo_tools::ProgressSink;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    GetPromptRequest, GetPromptRequestParams, ReadResourceRequest, ReadResourceRequestParams,
    RequestId, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions};
use rmcp::{RoleClient, ServiceError};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::content::{call_result, content_text, resource_contents_text};
use crate::error::McpError;
use crate::manager::{lock, read, McpManager, ServerStatus, Slot};

/// How long a call that reported progress keeps listening after its response arrived.
const PROGRESS_SETTLE: Duration = Duration::from_millis(50);

/// How a call ended, short of success.
#[derive(Debug)]
pub enum CallError {
    /// The server answered with `isError`; the text is its message.
    Tool(String),
    Interrupted,
    Failed(McpError),
}

impl From<McpError> for CallError {
    fn from(e: McpError) -> Self {
        CallError::Failed(e)
    }
}

/// Sends `notifications/cancelled` for a request that is abandoned (interrupt, or the
/// engine aborting the task) unless disarmed first.
struct CancelOnDrop {
    peer: Peer<RoleClient>,
    id: Option<RequestId>,
    reason: &'static str,
}

impl CancelOnDrop {
    fn disarm(&mut self) {
        self.id = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let peer = self.peer.clone();
        let reason = self.reason.to_owned();
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move {
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), Some(reason)))
                    .await;
            });
        }
    }
}

/// What a server's tool answered: the text the model reads, and the content blocks as
/// they came, for people.
#[derive(Debug, Clone)]
pub struct ToolAnswer {
    pub text: String,
    pub content: Vec<memo_protocol::McpContent>,
}

impl McpManager {
    pub(crate) fn slot_of(&self, server: &str) -> Result<&std::sync::Arc<Slot>, McpError> {
        self.inner
            .slot(server)
            .ok_or_else(|| McpError::UnknownServer(server.to_owned()))
    }

    /// The server's connection; waits out a start in progress (bounded by its startup
    /// timeout), otherwise says what state the server is in.
    async fn peer(&self, slot: &Slot) -> Result<Peer<RoleClient>, McpError> {
        if let Some(peer) = read(&slot.peer).clone() {
            return Ok(peer);
        }
        if lock(&slot.state).status == ServerStatus::Starting {
            let mut rx = slot.first_done.subscribe();
            let wait = slot.config.startup_timeout + Duration::from_secs(1);
            let _ = tokio::time::timeout(wait, rx.wait_for(|done| *done)).await;
            if let Some(peer) = read(&slot.peer).clone() {
                return Ok(peer);
            }
        }
        Err(McpError::NotAvailable {
            server: slot.config.name.clone(),
            state: slot.describe(),
        })
    }

    /// Calls `tool` (the server's own name): its text for the model, its blocks for people.
    pub async fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Value,
        cancel: CancellationToken,
        progress: Option<ProgressSink>,
    ) -> Result<ToolAnswer, CallError> {
        let slot = self.slot_of(server)?;
        let peer = self.peer(slot).await?;
        let params: CallToolRequestParams =
            serde_json::from_value(json!({ "name": tool, "arguments": arguments }))
                .map_err(McpError::protocol)?;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let response = self.send(slot, &peer, request, cancel, progress).await?;
        match response {
            ServerResult::CallToolResult(result) => {
                let value = serde_json::to_value(&result).map_err(McpError::protocol)?;
                let (text, is_error, content) = call_result(&value);
                if is_error {
                    Err(CallError::Tool(text))
                } else {
                    Ok(ToolAnswer { text, content })
                }
            }
            other => Err(unexpected(&other).into()),
        }
    }

    async fn send(
        &self,
        slot: &Slot,
        peer: &Peer<RoleClient>,
        request: ClientRequest,
        cancel: CancellationToken,
        progress: Option<ProgressSink>,
    ) -> Result<ServerResult, CallError> {
        let timeout = slot.config.tool_timeout;
        // A call that keeps reporting progress is working, not hung: progress restarts the
        // timeout, up to ten timeouts in all.
        let options = PeerRequestOptions::with_timeout(timeout)
            .reset_timeout_on_progress()
            .with_max_total_timeout(timeout.saturating_mul(10));
        let handle = peer
            .send_request_with_option(request, options)
            .await
            .map_err(|e| self.request_failed(slot, e))?;
        let reported = Arc::new(AtomicBool::new(false));
        let _route = progress.map(|sink| {
            let reported = reported.clone();
            let noting = ProgressSink::new(move |p| {
                reported.store(true, Ordering::Relaxed);
                sink.report(p);
            });
            slot.progress.add(&handle.progress_token, noting)
        });
        let mut guard = CancelOnDrop {
            peer: handle.peer.clone(),
            id: Some(handle.id.clone()),
            reason: "the call was abandoned by the client",
        };
        let result = tokio::select! {
            result = handle.await_response() => result,
            _ = cancel.cancelled() => {
                guard.reason = "interrupted by the user";
                return Err(CallError::Interrupted);
            }
        };
        // The SDK already cancelled a timed-out request; anything else is settled.
        guard.disarm();
        if reported.load(Ordering::Relaxed) {
            // The SDK handles notifications on their own tasks, so the last progress the
            // server sent just before its response can still be in flight here; it would
            // be lost when the route goes away. Only calls that report progress wait.
            tokio::time::sleep(PROGRESS_SETTLE).await;
        }
        match result {
            Ok(result) => Ok(result),
            Err(e) => Err(self.request_failed_after(slot, e).await),
        }
    }

    fn request_failed(&self, slot: &Slot, e: ServiceError) -> CallError {
        match e {
            ServiceError::TransportClosed => CallError::Failed(McpError::NotAvailable {
                server: slot.config.name.clone(),
                state: slot.describe(),
            }),
            other => CallError::Failed(other.into()),
        }
    }

    /// A closed transport mid-call means the server died: wait briefly for its
    /// supervisor to record why, so the error can say it.
    async fn request_failed_after(&self, slot: &Slot, e: ServiceError) -> CallError {
        if !matches!(e, ServiceError::TransportClosed) {
            return CallError::Failed(e.into());
        }
        for _ in 0..20 {
            let status = lock(&slot.state).status;
            if status != ServerStatus::Ready {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        CallError::Failed(McpError::NotAvailable {
            server: slot.config.name.clone(),
            state: format!("it stopped during the call ({})", slot.describe()),
        })
    }

    /// Resources of one server or of all that offer them, as JSON for the model.
    pub async fn list_resources(&self, server: Option<&str>) -> Result<Value, McpError> {
        self.list_each(server, "resources", |peer| {
            Box::pin(async move {
                let items = peer.list_all_resources().await?;
                Ok(serde_json::to_value(items).unwrap_or_default())
            })
        })
        .await
    }

    pub async fn list_resource_templates(&self, server: Option<&str>) -> Result<Value, McpError> {
        self.list_each(server, "resource templates", |peer| {
            Box::pin(async move {
                let items = peer.list_all_resource_templates().await?;
                Ok(serde_json::to_value(items).unwrap_or_default())
            })
        })
        .await
    }

    async fn list_each(
        &self,
        server: Option<&str>,
        what: &str,
        list: impl Fn(Peer<RoleClient>) -> futures::future::BoxFuture<'static, Result<Value, McpError>>,
    ) -> Result<Value, McpError> {
        let slots: Vec<_> = match server {
            Some(name) => vec![self.slot_of(name)?.clone()],
            None => self
                .inner
                .slots
                .iter()
                .filter(|s| read(&s.catalog).has_resources)
                .cloned()
                .collect(),
        };
        let mut out = Vec::new();
        let mut errors = BTreeMap::new();
        for slot in slots {
            if !read(&slot.catalog).has_resources && server.is_some() {
                return Err(McpError::Protocol(format!(
                    "server \"{}\" offers no {what}",
                    slot.config.name
                )));
            }
            let result = match self.peer(&slot).await {
                Ok(peer) => tokio::time::timeout(slot.config.tool_timeout, list(peer))
                    .await
                    .unwrap_or(Err(McpError::CallTimeout(slot.config.tool_timeout))),
                Err(e) => Err(e),
            };
            match result {
                Ok(Value::Array(items)) => out.extend(items.into_iter().map(|mut item| {
                    if let Some(map) = item.as_object_mut() {
                        map.insert("server".into(), slot.config.name.clone().into());
                    }
                    item
                })),
                Ok(_) => {}
                Err(e) if server.is_some() => return Err(e),
                Err(e) => {
                    errors.insert(slot.config.name.clone(), e.to_string());
                }
            }
        }
        let mut result = json!({ what.replace(' ', "_"): out });
        if !errors.is_empty() {
            result["errors"] = json!(errors);
        }
        Ok(result)
    }

    pub async fn read_resource(
        &self,
        server: &str,
        uri: &str,
        cancel: CancellationToken,
    ) -> Result<String, CallError> {
        let slot = self.slot_of(server)?;
        let peer = self.peer(slot).await?;
        let params: ReadResourceRequestParams =
            serde_json::from_value(json!({ "uri": uri })).map_err(McpError::protocol)?;
        let request = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params));
        match self.send(slot, &peer, request, cancel, None).await? {
            ServerResult::ReadResourceResult(result) => {
                let value = serde_json::to_value(&result).map_err(McpError::protocol)?;
                let parts: Vec<String> = value["contents"]
                    .as_array()
                    .map(|c| c.iter().map(resource_contents_text).collect())
                    .unwrap_or_default();
                Ok(parts.join("\n"))
            }
            other => Err(unexpected(&other).into()),
        }
    }

    /// Renders a prompt with its arguments into the text of a user message.
    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: BTreeMap<String, String>,
    ) -> Result<String, CallError> {
        let slot = self.slot_of(server)?;
        let peer = self.peer(slot).await?;
        let params: GetPromptRequestParams =
            serde_json::from_value(json!({ "name": name, "arguments": arguments }))
                .map_err(McpError::protocol)?;
        let request = ClientRequest::GetPromptRequest(GetPromptRequest::new(params));
        match self
            .send(slot, &peer, request, CancellationToken::new(), None)
            .await?
        {
            ServerResult::GetPromptResult(result) => {
                let value = serde_json::to_value(&result).map_err(McpError::protocol)?;
                Ok(prompt_text(&value))
            }
            other => Err(unexpected(&other).into()),
        }
    }
}

/// One message's text; several messages keep their roles.
fn prompt_text(result: &Value) -> String {
    let messages = result["messages"].as_array().cloned().unwrap_or_default();
    let parts: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            let role = m["role"].as_str().unwrap_or("user").to_owned();
            (role, content_text(&m["content"]))
        })
        .collect();
    if parts.len() == 1 {
        return parts.into_iter().map(|(_, t)| t).collect();
    }
    parts
        .into_iter()
        .map(|(role, text)| format!("[{role}]\n{text}"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn unexpected(result: &ServerResult) -> McpError {
    let shown = serde_json::to_string(result).unwrap_or_default();
    McpError::Protocol(format!(
        "unexpected answer from the server: {}",
        shown.chars().take(200).collect::<String>()
    ))
}
