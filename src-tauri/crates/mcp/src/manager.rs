//! The MCP servers of one session: started in parallel, each watched by its own
//! supervisor task, their tools, resources and prompts offered through one handle.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

use crate::config::ServerConfig;
use crate::handler::ProgressRoutes;

pub(crate) use crate::servers::{lock, read, Catalog, Inner, Slot, SlotState};
pub use crate::servers::{
    McpEvent, McpOptions, McpToolInfo, PromptArgument, PromptInfo, RestartPolicy, ServerSnapshot,
    ServerStatus, DEFAULT_DEFER_THRESHOLD,
};

/// The MCP servers of one session. Cheap to clone.
#[derive(Clone)]
pub struct McpManager {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for McpManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .inner
            .slots
            .iter()
            .map(|s| s.config.name.as_str())
            .collect();
        f.debug_struct("McpManager")
            .field("servers", &names)
            .finish()
    }
}

impl McpManager {
    /// Starts every enabled server in the background and returns at once; disabled ones
    /// are listed as such. Must be called inside a Tokio runtime.
    pub fn start(servers: Vec<ServerConfig>, options: McpOptions) -> McpManager {
        let (events, _) = broadcast::channel(256);
        let slots: Vec<Arc<Slot>> = servers
            .into_iter()
            .map(|config| {
                let status = if config.enabled {
                    ServerStatus::Starting
                } else {
                    ServerStatus::Disabled
                };
                let (first_done, _) = watch::channel(!config.enabled);
                Arc::new(Slot {
                    config,
                    state: Mutex::new(SlotState {
                        status,
                        said: None,
                        stderr_tail: None,
                        restarts: 0,
                        pid: None,
                    }),
                    peer: RwLock::new(None),
                    catalog: RwLock::new(Catalog::default()),
                    first_done,
                    progress: ProgressRoutes::default(),
                    restart: tokio::sync::Notify::new(),
                })
            })
            .collect();
        let inner = Arc::new(Inner {
            slots,
            events,
            generation: AtomicU64::new(0),
            shutdown: CancellationToken::new(),
            tasks: Mutex::new(Vec::new()),
            path: tokio::sync::OnceCell::new(),
            options,
            loaded: Mutex::new(BTreeSet::new()),
        });
        let enabled: Vec<Arc<Slot>> = inner
            .slots
            .iter()
            .filter(|s| s.config.enabled)
            .cloned()
            .collect();
        if !enabled.is_empty() {
            let starter = inner.clone();
            let task = tokio::spawn(async move {
                let path = match starter.options.path.clone() {
                    Some(path) => path,
                    None => tokio::task::spawn_blocking(|| {
                        memo_child_env::path_env::server_path().to_owned()
                    })
                    .await
                    .unwrap_or_default(),
                };
                let _ = starter.path.set(path);
                let servers: Vec<_> = enabled
                    .into_iter()
                    .map(|slot| tokio::spawn(crate::supervisor::run_server(starter.clone(), slot)))
                    .collect();
                for server in servers {
                    let _ = server.await;
                }
            });
            lock(&inner.tasks).push(task);
        }
        McpManager { inner }
    }

    /// Stops server `name` and starts it again (a server that failed, gave up or waits for
    /// a login tries again). False for an unknown or turned-off server.
    pub fn restart(&self, name: &str) -> bool {
        match self.inner.slot(name) {
            Some(slot) if slot.config.enabled => {
                slot.restart.notify_one();
                true
            }
            _ => false,
        }
    }

    /// Waits until every enabled server has finished its first start attempt (started,
    /// failed, or ran out of startup time).
    pub async fn wait_ready(&self) {
        for slot in &self.inner.slots {
            let mut rx = slot.first_done.subscribe();
            let _ = rx.wait_for(|done| *done).await;
        }
    }

    pub fn servers(&self) -> Vec<ServerSnapshot> {
        self.inner.slots.iter().map(|s| s.snapshot()).collect()
    }

    pub fn server(&self, name: &str) -> Option<ServerSnapshot> {
        self.inner.slot(name).map(|s| s.snapshot())
    }

    pub fn subscribe(&self) -> broadcast::Receiver<McpEvent> {
        self.inner.events.subscribe()
    }

    /// Every tool of every server (loaded or deferred).
    pub fn tool_infos(&self) -> Vec<McpToolInfo> {
        self.inner.all_tools()
    }

    /// Prompts of the running servers, for `/server:prompt` commands.
    pub fn prompts(&self) -> Vec<PromptInfo> {
        self.inner
            .slots
            .iter()
            .flat_map(|s| read(&s.catalog).prompts.clone())
            .collect()
    }

    /// Whether any server has offered resources.
    pub fn has_resources(&self) -> bool {
        self.inner
            .slots
            .iter()
            .any(|s| read(&s.catalog).has_resources)
    }

    /// Problems and clashes found reading the configs.
    pub fn notes(&self) -> &[String] {
        &self.inner.options.notes
    }

    /// Changes when the tools the model sees change.
    pub fn generation(&self) -> u64 {
        self.inner.generation.load(Ordering::SeqCst)
    }

    /// Asks every server to stop and returns at once (stdio processes are terminated by
    /// their supervisors; a process whose task never runs again is killed on drop).
    pub fn shutdown(&self) {
        self.inner.shutdown.cancel();
    }

    /// Stops every server and waits until their processes are gone.
    pub async fn stop(&self) {
        self.shutdown();
        let tasks: Vec<_> = lock(&self.inner.tasks).drain(..).collect();
        for task in tasks {
            let _ = task.await;
        }
    }
}
