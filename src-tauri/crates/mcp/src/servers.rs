//! What a session's MCP servers are and share: their status, catalogs (tools, resources,
//! prompts), each server's slot, and the state both the manager (`manager.rs`, which
//! starts and drives servers) and each supervisor (`supervisor.rs`, which keeps one
//! running) hold.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use memo_config::CredentialStore;
use rmcp::service::Peer;
use rmcp::RoleClient;
use serde::Serialize;
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::{ConfigSource, ServerConfig};
use crate::elicitation::Elicitor;
use crate::handler::ProgressRoutes;
use crate::oauth_flow::LoginHook;
use crate::EnvLookup;

/// Tool definitions are deferred (the model searches for them) past this many tools.
pub const DEFAULT_DEFER_THRESHOLD: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerStatus {
    Starting,
    Ready,
    /// Did not start (or gave up restarting); `message` says why.
    Failed,
    /// Was running and died; a restart follows after a backoff.
    Crashed,
    /// An HTTP server that wants an OAuth login first.
    NeedsAuth,
    Stopped,
    Disabled,
}

impl ServerStatus {
    pub fn label(self) -> &'static str {
        match self {
            ServerStatus::Starting => "starting",
            ServerStatus::Ready => "ready",
            ServerStatus::Failed => "failed",
            ServerStatus::Crashed => "crashed",
            ServerStatus::NeedsAuth => "needs_auth",
            ServerStatus::Stopped => "stopped",
            ServerStatus::Disabled => "disabled",
        }
    }
}

/// How one server is doing, as the UI and CLI show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerSnapshot {
    pub name: String,
    pub status: ServerStatus,
    pub transport: String,
    pub source: ConfigSource,
    /// The server's tool names (after include/exclude filters).
    pub tools: Vec<String>,
    pub prompts: usize,
    /// Why it is not running (or what happened), in English.
    pub message: Option<String>,
    /// The same as a phrase, for a front end to word in the person's language.
    pub phrase: Option<memo_protocol::Phrase>,
    /// The last lines the server wrote to stderr, when it failed or crashed.
    pub stderr_tail: Option<String>,
    pub restarts: u32,
    /// The stdio server's process id while it runs.
    pub pid: Option<u32>,
}

#[derive(Debug, Clone)]
pub enum McpEvent {
    /// A server's status (or tool list) changed.
    Status(ServerSnapshot),
}

/// Restarts after a crash: `initial`, doubling up to `max`, at most `max_attempts` in a
/// row (a server that stays up a minute starts counting again).
#[derive(Debug, Clone)]
pub struct RestartPolicy {
    pub initial: Duration,
    pub max: Duration,
    pub max_attempts: u32,
}

impl Default for RestartPolicy {
    fn default() -> Self {
        Self {
            initial: Duration::from_secs(1),
            max: Duration::from_secs(30),
            max_attempts: 5,
        }
    }
}

pub struct McpOptions {
    /// The session's working directory: stdio servers start there.
    pub cwd: PathBuf,
    /// PATH for stdio servers; `None` asks the login shell (once per process).
    pub path: Option<String>,
    /// Reads environment variables (bearer tokens, header values).
    pub env: EnvLookup,
    /// Where OAuth tokens are; `None` disables OAuth.
    pub credentials: Option<Arc<dyn CredentialStore>>,
    pub defer_threshold: usize,
    pub restart: RestartPolicy,
    /// What went wrong reading the configs (problems, clashes), shown by `/mcp`.
    pub notes: Vec<String>,
    /// Answers servers' requests for user input; the default declines them.
    pub elicitor: Arc<dyn Elicitor>,
    /// When set, an HTTP server's request for authorization (first use, an expired
    /// login, more scope) sends the user to log in through it; otherwise the server is
    /// reported as needing a login.
    pub login: Option<LoginHook>,
}

impl McpOptions {
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            path: None,
            env: Arc::new(|name: &str| std::env::var(name).ok()),
            credentials: None,
            defer_threshold: DEFAULT_DEFER_THRESHOLD,
            restart: RestartPolicy::default(),
            notes: Vec::new(),
            elicitor: crate::elicitation::default_elicitor(),
            login: None,
        }
    }
}

/// A tool a server offers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct McpToolInfo {
    pub server: String,
    /// The server's name for it.
    pub name: String,
    /// The name the model calls: `server__tool`.
    pub qualified: String,
    pub description: String,
    pub input_schema: serde_json::Value,
    /// The server's `annotations.readOnlyHint`: whether it says the tool changes nothing.
    pub read_only_hint: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// A prompt a server offers, usable as `/server:prompt`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptInfo {
    pub server: String,
    pub name: String,
    pub description: Option<String>,
    pub arguments: Vec<PromptArgument>,
}

impl PromptInfo {
    pub fn command(&self) -> String {
        format!("{}:{}", self.server, self.name)
    }
}

#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub tools: Vec<McpToolInfo>,
    pub prompts: Vec<PromptInfo>,
    pub has_resources: bool,
    pub has_prompts: bool,
}

#[derive(Debug)]
pub(crate) struct SlotState {
    pub status: ServerStatus,
    /// What happened, as a phrase (worded in English for the model and logs).
    pub said: Option<memo_protocol::Phrase>,
    pub stderr_tail: Option<String>,
    pub restarts: u32,
    pub pid: Option<u32>,
}

/// One configured server and everything known about it.
pub(crate) struct Slot {
    pub config: ServerConfig,
    pub state: Mutex<SlotState>,
    pub peer: RwLock<Option<Peer<RoleClient>>>,
    pub catalog: RwLock<Catalog>,
    /// Flips to true once the first start attempt is over, however it ended.
    pub first_done: watch::Sender<bool>,
    pub progress: ProgressRoutes,
    /// Asks the supervisor to stop the server and start it again at once (after a login,
    /// or from the settings page), resetting its failure count.
    pub restart: tokio::sync::Notify,
}

pub(crate) fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

pub(crate) fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Slot {
    pub fn snapshot(&self) -> ServerSnapshot {
        let state = lock(&self.state);
        let catalog = read(&self.catalog);
        ServerSnapshot {
            name: self.config.name.clone(),
            status: state.status,
            transport: self.config.transport_name().to_owned(),
            source: self.config.source.clone(),
            tools: catalog.tools.iter().map(|t| t.name.clone()).collect(),
            prompts: catalog.prompts.len(),
            message: state.said.as_ref().map(memo_protocol::Phrase::english),
            phrase: state.said.clone(),
            stderr_tail: state.stderr_tail.clone(),
            restarts: state.restarts,
            pid: state.pid,
        }
    }

    /// The status in words, for errors the model sees.
    pub fn describe(&self) -> String {
        let state = lock(&self.state);
        let mut out = state.status.label().replace('_', " ");
        if let Some(said) = &state.said {
            out.push_str(": ");
            out.push_str(&said.english());
        }
        if let Some(tail) = &state.stderr_tail {
            out.push_str("\nLast stderr lines of the server:\n");
            out.push_str(tail);
        }
        out
    }
}

pub(crate) struct Inner {
    pub slots: Vec<Arc<Slot>>,
    pub events: broadcast::Sender<McpEvent>,
    /// Bumped when the tools the model sees change.
    pub generation: AtomicU64,
    pub shutdown: CancellationToken,
    pub tasks: Mutex<Vec<JoinHandle<()>>>,
    pub options: McpOptions,
    /// Deferred tools the model has loaded with `search_mcp_tools`.
    pub loaded: Mutex<BTreeSet<String>>,
    /// PATH for stdio servers, resolved once before any starts.
    pub path: tokio::sync::OnceCell<String>,
}

impl Inner {
    pub fn bump(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    pub fn publish(&self, slot: &Slot) {
        // Nobody listening is fine.
        let _ = self.events.send(McpEvent::Status(slot.snapshot()));
    }

    pub fn slot(&self, server: &str) -> Option<&Arc<Slot>> {
        self.slots.iter().find(|s| s.config.name == server)
    }

    pub fn all_tools(&self) -> Vec<McpToolInfo> {
        self.slots
            .iter()
            .flat_map(|s| read(&s.catalog).tools.clone())
            .collect()
    }
}
