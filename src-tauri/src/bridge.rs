//! The desktop side of the engine: which sessions are live in this window, and the pumps
//! that carry their events to the UI over Tauri channels.
//!
//! Config is re-read whenever a session starts, so editing config.toml takes effect for
//! the next conversation without restarting the app. The store is opened once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use memo_config::{Config, CredentialStore, KeyringStore, MemoHome, MemoryCredentialStore};
use memo_engine::{
    Engine, EngineError, EngineOptions, EventReceiver, SessionHandle, SessionOptions,
};
use memo_protocol::{
    AgentEvent, EventEnvelope, Op, PromptReport, ProviderSummary, SessionId, SessionSummary,
};
use memo_store::{SessionRecord, Store};
use tokio::task::AbortHandle;

use crate::error::{CommandError, ErrorCode};

/// How long the pump waits to gather more deltas into one IPC message: about one frame,
/// so a fast stream costs one render per frame instead of one per token.
const DELTA_COALESCE: Duration = Duration::from_millis(16);
/// Upper bound of events per IPC message.
const MAX_BATCH: usize = 512;

/// Delivers batches of events to one subscriber (a Tauri channel in the app, a vector in
/// tests).
pub trait EventSink: Send + 'static {
    /// Returns false once the subscriber is gone.
    fn send(&self, batch: Vec<EventEnvelope>) -> bool;
}

impl EventSink for tauri::ipc::Channel<Vec<EventEnvelope>> {
    fn send(&self, batch: Vec<EventEnvelope>) -> bool {
        tauri::ipc::Channel::send(self, batch).is_ok()
    }
}

struct LiveSession {
    handle: SessionHandle,
    /// One pump per session: a reloaded window resubscribes and replaces the old one.
    pump: Option<AbortHandle>,
}

pub struct Bridge {
    home: Result<MemoHome, String>,
    store: Mutex<Option<Arc<Store>>>,
    sessions: Mutex<HashMap<SessionId, LiveSession>>,
    /// Held through a resume, so two at once (a double click) cannot both start an actor
    /// for the same session.
    resuming: Mutex<()>,
    pub(crate) credentials: Arc<dyn CredentialStore>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Bridge {
    pub fn new(home: Result<MemoHome, String>, credentials: Arc<dyn CredentialStore>) -> Self {
        Self {
            home,
            store: Mutex::new(None),
            sessions: Mutex::new(HashMap::new()),
            resuming: Mutex::new(()),
            credentials,
        }
    }

    /// The OS keychain when this platform has one; otherwise keys come from env vars only.
    pub fn default_credentials() -> Arc<dyn CredentialStore> {
        match KeyringStore::new() {
            Ok(store) => Arc::new(store),
            Err(error) => {
                tracing::warn!(%error, "OS keychain unavailable; API keys come from environment variables only");
                Arc::new(MemoryCredentialStore::new())
            }
        }
    }

    pub(crate) fn home(&self) -> Result<&MemoHome, CommandError> {
        self.home
            .as_ref()
            .map_err(|message| CommandError::new(ErrorCode::Config, message.clone()))
    }

    pub(crate) fn store(&self) -> Result<Arc<Store>, CommandError> {
        let mut slot = lock(&self.store);
        if let Some(store) = slot.as_ref() {
            return Ok(store.clone());
        }
        let path = self.home()?.sessions_db();
        let store = Arc::new(Store::open(&path)?);
        *slot = Some(store.clone());
        Ok(store)
    }

    pub(crate) fn engine(&self) -> Result<Engine, CommandError> {
        let config = Config::load(self.home()?).map_err(engine_error_from_config)?;
        Ok(Engine::new(EngineOptions {
            memo_home: Some(self.home()?.root().to_path_buf()),
            config,
            store: self.store()?,
            credentials: self.credentials.clone(),
            env: Arc::new(|name: &str| std::env::var(name).ok()),
        }))
    }

    pub fn list_providers(&self) -> Result<Vec<ProviderSummary>, CommandError> {
        let config = Config::load(self.home()?).map_err(engine_error_from_config)?;
        let current = config.provider(None).ok().map(|p| p.name);
        Ok(config
            .providers
            .iter()
            .map(|p| ProviderSummary {
                name: p.name.clone(),
                model: p.model.clone(),
                api: serde_json::to_value(p.api)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                base_url: p.base_url_or_default().to_owned(),
                is_current: current.as_deref() == Some(p.name.as_str()),
            })
            .collect())
    }

    /// Must run inside the Tokio runtime (async commands do).
    pub fn start_session(
        &self,
        cwd: PathBuf,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<SessionSummary, CommandError> {
        let engine = self.engine()?;
        let handle = engine
            .start_session(SessionOptions {
                cwd,
                provider,
                model,
                max_steps: None,
            })
            .map_err(CommandError::from)?;
        let summary = self.summary(handle.id())?;
        lock(&self.sessions).insert(handle.id().clone(), LiveSession { handle, pump: None });
        Ok(summary)
    }

    /// The assembled prompt, layer by layer: the live session's own when `session` is open,
    /// otherwise what a new session in `cwd` would get.
    pub fn prompt_layers(
        &self,
        session: Option<&SessionId>,
        cwd: Option<PathBuf>,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<PromptReport, CommandError> {
        if let Some(id) = session {
            let report = lock(&self.sessions)
                .get(id)
                .and_then(|live| live.handle.prompt_report());
            if let Some(report) = report {
                return Ok(report);
            }
        }
        let cwd = cwd.ok_or_else(|| {
            CommandError::new(
                ErrorCode::InvalidInput,
                "prompt_layers needs an open session or a folder",
            )
        })?;
        self.engine()?
            .prompt_layers(&SessionOptions {
                cwd,
                provider,
                model,
                max_steps: None,
            })
            .map_err(CommandError::from)
    }

    /// Makes a stored session live (no-op when it already is). Imported (read-only)
    /// history continues in a fork: the summary returned is then the fork's, with its own id.
    pub fn resume_session(&self, id: &SessionId) -> Result<SessionSummary, CommandError> {
        let _one_at_a_time = lock(&self.resuming);
        if lock(&self.sessions).contains_key(id) {
            return self.summary(id);
        }
        let handle = self
            .engine()?
            .resume_session(id, None)
            .map_err(CommandError::from)?;
        let live_id = handle.id().clone();
        let mut sessions = lock(&self.sessions);
        match sessions.entry(live_id.clone()) {
            // Imported history resumes into its fork, which may already be open here:
            // keep that one and stop the actor just started.
            std::collections::hash_map::Entry::Occupied(_) => {
                let _ = handle.submit(Op::Shutdown);
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(LiveSession { handle, pump: None });
            }
        }
        drop(sessions);
        self.summary(&live_id)
    }

    pub fn list_sessions(&self, cwd: Option<String>) -> Result<Vec<SessionSummary>, CommandError> {
        let store = self.store()?;
        let cwd = cwd.map(|c| canonical_string(&c));
        let records = store.list_sessions(cwd.as_deref(), 200, 0)?;
        records
            .into_iter()
            .map(|r| self.summarize(&store, r))
            .collect()
    }

    pub(crate) fn summary(&self, id: &SessionId) -> Result<SessionSummary, CommandError> {
        let store = self.store()?;
        let record = store.session(id)?.ok_or_else(|| {
            CommandError::new(ErrorCode::NotFound, format!("session {id} not found"))
        })?;
        self.summarize(&store, record)
    }

    fn summarize(&self, store: &Store, r: SessionRecord) -> Result<SessionSummary, CommandError> {
        let last_seq = store.last_seq(&r.id)?;
        Ok(SessionSummary {
            id: r.id,
            title: r.title,
            cwd: r.cwd,
            provider: r.provider,
            model: r.model,
            created_ms: r.created_ms,
            updated_ms: r.updated_ms,
            last_seq,
        })
    }

    /// Streams the session's events after `after_seq` (stored ones first) to `sink`,
    /// replacing any earlier subscriber of this session.
    pub fn subscribe(
        &self,
        id: &SessionId,
        after_seq: u64,
        sink: impl EventSink,
    ) -> Result<(), CommandError> {
        let mut sessions = lock(&self.sessions);
        let live = sessions.get_mut(id).ok_or_else(|| {
            CommandError::new(
                ErrorCode::NotFound,
                format!("session {id} is not open; resume it first"),
            )
        })?;
        let events = live
            .handle
            .subscribe(after_seq)
            .map_err(CommandError::from)?;
        if let Some(old) = live.pump.take() {
            old.abort();
        }
        live.pump = Some(tokio::spawn(pump(events, sink)).abort_handle());
        Ok(())
    }

    pub fn submit(&self, id: &SessionId, op: Op) -> Result<(), CommandError> {
        let sessions = lock(&self.sessions);
        let live = sessions.get(id).ok_or_else(|| {
            CommandError::new(ErrorCode::NotFound, format!("session {id} is not open"))
        })?;
        live.handle.submit(op).map_err(CommandError::from)
    }

    /// Stops one session if it is live here (its turn interrupted, approvals denied, its
    /// tools and MCP servers stopped) and forgets it. Returns whether it was live.
    pub(crate) async fn close_session(&self, id: &SessionId) -> bool {
        let Some(live) = lock(&self.sessions).remove(id) else {
            return false;
        };
        let _ = live.handle.submit(Op::Shutdown);
        live.handle.closed().await;
        if let Some(pump) = live.pump {
            pump.abort();
        }
        true
    }

    /// Stops every live session (pending approvals are denied, running turns interrupted).
    pub async fn shutdown(&self) {
        let live: Vec<LiveSession> = lock(&self.sessions).drain().map(|(_, s)| s).collect();
        for session in &live {
            let _ = session.handle.submit(Op::Shutdown);
        }
        for session in live {
            session.handle.closed().await;
            if let Some(pump) = session.pump {
                pump.abort();
            }
        }
    }
}

async fn pump(mut events: EventReceiver, sink: impl EventSink) {
    while let Some(first) = events.recv().await {
        let streaming = is_delta(&first.event);
        let mut batch = vec![first];
        if streaming {
            tokio::time::sleep(DELTA_COALESCE).await;
        }
        while batch.len() < MAX_BATCH {
            match events.try_recv() {
                Ok(env) => batch.push(env),
                Err(_) => break,
            }
        }
        if !sink.send(batch) {
            return;
        }
    }
}

fn is_delta(event: &AgentEvent) -> bool {
    matches!(
        event,
        AgentEvent::TextDelta { .. }
            | AgentEvent::ReasoningDelta { .. }
            | AgentEvent::ToolCallArgsDelta { .. }
    )
}

/// Sessions are stored under the canonical path the engine resolved.
pub(crate) fn canonical_string(path: &str) -> String {
    std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_owned())
}

pub(crate) fn engine_error_from_config(error: memo_config::ConfigError) -> CommandError {
    CommandError::new(ErrorCode::Config, error.to_string())
}

impl From<EngineError> for CommandError {
    fn from(error: EngineError) -> Self {
        let code = match &error {
            EngineError::SessionNotFound(_) => ErrorCode::NotFound,
            EngineError::SessionClosed => ErrorCode::Unavailable,
            EngineError::BadWorkingDirectory { .. } => ErrorCode::InvalidInput,
            EngineError::Store(_) => ErrorCode::Io,
            EngineError::MissingApiKey { .. } => ErrorCode::MissingKey,
            EngineError::Config(_)
            | EngineError::InvalidSetting { .. }
            | EngineError::Key(_)
            | EngineError::Provider(_) => ErrorCode::Config,
        };
        CommandError::new(code, error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::UserInput;
    use memo_test_support::{MockLlmServer, MockResponse};
    use std::sync::mpsc;

    struct VecSink(mpsc::Sender<Vec<EventEnvelope>>);

    impl EventSink for VecSink {
        fn send(&self, batch: Vec<EventEnvelope>) -> bool {
            self.0.send(batch).is_ok()
        }
    }

    fn write_config(home: &std::path::Path, base_url: &str) {
        std::fs::write(
            home.join("config.toml"),
            format!("current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"{base_url}/v1\"\n"),
        )
        .unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_session_streams_batched_events_and_is_listed() {
        let mock = MockLlmServer::start_with([MockResponse::text("hello from the mock")])
            .await
            .unwrap();
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        write_config(home.path(), &mock.base_url());
        let bridge = Bridge::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
        );
        assert_eq!(bridge.list_providers().unwrap()[0].name, "mock");

        let summary = bridge
            .start_session(work.path().to_path_buf(), None, None)
            .unwrap();
        assert_eq!(summary.model, "m1");
        let (tx, rx) = mpsc::channel();
        bridge.subscribe(&summary.id, 0, VecSink(tx)).unwrap();
        bridge
            .submit(
                &summary.id,
                Op::UserTurn {
                    input: UserInput::text("hi"),
                },
            )
            .unwrap();
        let mut text = String::new();
        let mut seqs = Vec::new();
        'outer: loop {
            let batch = rx.recv_timeout(Duration::from_secs(10)).unwrap();
            for env in batch {
                seqs.push(env.seq);
                match env.event {
                    AgentEvent::TextDelta { delta } => text.push_str(&delta),
                    AgentEvent::TurnEnded { .. } => break 'outer,
                    _ => {}
                }
            }
        }
        assert_eq!(text, "hello from the mock");
        assert_eq!(
            seqs,
            (1..=seqs.len() as u64).collect::<Vec<_>>(),
            "replay from 0 then live, no gaps"
        );
        let listed = bridge
            .list_sessions(Some(work.path().display().to_string()))
            .unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id, summary.id);
        bridge.shutdown().await;
        mock.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn resuming_imported_history_makes_its_fork_live() {
        let mock = MockLlmServer::start().await.unwrap();
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        write_config(home.path(), &mock.base_url());
        let file = home
            .path()
            .join("sessions/-w/2026-02-23T16-22-21-imp.jsonl");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(
            &file,
            format!(
                "{{\"ts\":\"2026-02-23T16:22:21.000Z\",\"sessionId\":\"imp\",\"type\":\"session_start\",\"meta\":{{\"cwd\":{:?}}}}}\n\
                 {{\"ts\":\"2026-02-23T16:22:22.000Z\",\"sessionId\":\"imp\",\"turn\":1,\"type\":\"turn_start\",\"content\":\"hi\"}}\n",
                work.path().display().to_string()
            ),
        )
        .unwrap();
        let bridge = Bridge::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
        );
        let imported = bridge
            .store()
            .unwrap()
            .import_memo_code_file(&file)
            .unwrap()
            .unwrap()
            .session_id
            .unwrap();
        let live = bridge.resume_session(&imported).unwrap();
        assert_ne!(live.id, imported);
        assert_eq!(live.model, "m1");
        // The fork is what takes ops now.
        bridge.submit(&live.id, Op::Interrupt).unwrap();
        bridge.shutdown().await;
        mock.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn prompt_layers_come_from_the_live_session_or_the_folder() {
        let mock = MockLlmServer::start_with([]).await.unwrap();
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        write_config(home.path(), &mock.base_url());
        std::fs::write(work.path().join("AGENTS.md"), "Folder rule.").unwrap();
        let bridge = Bridge::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
        );
        let preview = bridge
            .prompt_layers(None, Some(work.path().to_path_buf()), None, None)
            .unwrap();
        assert_eq!(preview.layers.len(), 6);
        assert!(preview.layers[2].content.contains("Folder rule."));

        let summary = bridge
            .start_session(work.path().to_path_buf(), None, None)
            .unwrap();
        std::fs::write(work.path().join("AGENTS.md"), "Changed later.").unwrap();
        let live = bridge
            .prompt_layers(Some(&summary.id), None, None, None)
            .unwrap();
        // A session keeps the prompt it started with.
        assert!(live.layers[2].content.contains("Folder rule."));
        let err = bridge.prompt_layers(None, None, None, None).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput);
        bridge.shutdown().await;
        mock.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn config_errors_reach_the_ui_as_config_errors() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("config.toml"), "current_provider = 3\n").unwrap();
        let bridge = Bridge::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
        );
        let err = bridge
            .start_session(home.path().to_path_buf(), None, None)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Config);
        assert!(err.message.contains("config.toml:1"), "{}", err.message);
        let err = bridge
            .submit(&SessionId::new("nope"), Op::Interrupt)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
    }
}
