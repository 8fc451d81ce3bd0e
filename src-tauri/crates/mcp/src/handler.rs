//! Our side of a connection: who we are, and what the server tells us unasked — progress
//! of running calls (routed to the call that asked), changed tool/prompt/resource lists
//! (a signal to the server's supervisor).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use memo_tools::{ProgressSink, ToolProgress};
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{NotificationContext, RoleClient};
use rmcp::ClientHandler;
use tokio::sync::mpsc;

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
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = Implementation::new("memo-desktop", env!("CARGO_PKG_VERSION"));
        info.title = Some("Memo Desktop".into());
        ClientConfig::new(ClientCapabilities::default(), info)
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
