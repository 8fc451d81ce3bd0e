//! Our side of a connection: who we are, and what the server tells us unasked — progress
//! of running calls (routed to the call that asked), changed tool/prompt/resource lists
//! (a signal to the server's supervisor) — or asks of us: elicitation, passed to the
//! session's [`Elicitor`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use memo_tools::{ProgressSink, ToolProgress};
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, ErrorData, FormElicitationCapability, Implementation,
    ProgressNotificationParam, ProgressToken, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::ClientHandler;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::elicitation::{apply_defaults, ElicitationAnswer, ElicitationRequest, Elicitor};

/// A list the server says changed; its supervisor re-reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    Tools,
    Prompts,
    Resources,
}

/// Progress tokens of running calls -> where their progress goes.
#[derive(Clone, Default)]
pub(crate) struct ProgressRoutes(Arc<Mutex<HashMap<String, ProgressSink>>>);

fn token_key(token: &ProgressToken) -> String {
    serde_json::to_string(token).unwrap_or_default()
}

impl ProgressRoutes {
    pub fn add(&self, token: &ProgressToken, sink: ProgressSink) -> RouteGuard {
        let key = token_key(token);
        self.lock().insert(key.clone(), sink);
        RouteGuard {
            routes: self.clone(),
            key,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, ProgressSink>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn route(&self, params: ProgressNotificationParam) {
        let sink = self.lock().get(&token_key(&params.progress_token)).cloned();
        if let Some(sink) = sink {
            sink.report(ToolProgress {
                progress: params.progress,
                total: params.total,
                message: params.message,
            });
        }
    }
}

/// Removes a call's route when the call ends, however it ends.
pub(crate) struct RouteGuard {
    routes: ProgressRoutes,
    key: String,
}

impl Drop for RouteGuard {
    fn drop(&mut self) {
        self.routes.lock().remove(&self.key);
    }
}

pub(crate) struct Handler {
    pub server: String,
    pub signals: mpsc::UnboundedSender<Signal>,
    pub progress: ProgressRoutes,
    pub elicitor: Arc<dyn Elicitor>,
}

/// What we offer in `initialize`. The protocol version is the newest one that still has
/// the `initialize` handshake: the SDK's default is its newest protocol, which replaced
/// the handshake, so servers of the handshake protocols would not know it.
pub(crate) fn client_config() -> ClientConfig {
    let mut info = Implementation::new("memo-desktop", env!("CARGO_PKG_VERSION"));
    info.title = Some("Memo Desktop".into());
    let mut capabilities = ClientCapabilities::default();
    // Form mode only: URL mode would send the user to a page the server names, which
    // needs its own consent flow.
    capabilities.elicitation =
        Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
    ClientConfig::new(capabilities, info)
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        client_config()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            // Not declared in our capabilities, so a server should not send it.
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let schema = serde_json::to_value(&requested_schema).unwrap_or(Value::Null);
        let asked = self.elicitor.elicit(ElicitationRequest {
            server: self.server.clone(),
            message,
            requested_schema: schema.clone(),
        });
        let answer = tokio::select! {
            answer = asked => answer,
            // The server withdrew the request (its call was cancelled or timed out).
            _ = context.ct.cancelled() => ElicitationAnswer::Cancel,
        };
        Ok(match answer {
            ElicitationAnswer::Accept(content) => ElicitResult::new(ElicitationAction::Accept)
                .with_content(Value::Object(apply_defaults(&schema, content))),
            ElicitationAnswer::Decline => ElicitResult::new(ElicitationAction::Decline),
            ElicitationAnswer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.route(params);
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        tracing::debug!(server = %self.server, "tools/list_changed");
        let _ = self.signals.send(Signal::Tools);
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.signals.send(Signal::Prompts);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.signals.send(Signal::Resources);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_offers_a_handshake_protocol_and_form_elicitation() {
        let config = serde_json::to_value(client_config()).unwrap();
        // 2025-11-25 is the newest protocol with `initialize`.
        assert_eq!(config["protocolVersion"], "2025-11-25");
        assert_eq!(
            config["capabilities"]["elicitation"]["form"],
            serde_json::json!({})
        );
        assert!(config["capabilities"]["elicitation"].get("url").is_none());
        assert_eq!(config["clientInfo"]["name"], "memo-desktop");
    }
}
