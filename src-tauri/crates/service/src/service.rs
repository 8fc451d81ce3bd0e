//! [`Service`]: the Memo home, the store, the keychain and the sessions open in this
//! process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use memo_checkpoints::{Checkpoints, Limits};
use memo_config::{Config, CredentialStore, KeyringStore, MemoHome, UnavailableCredentialStore};
use memo_engine::{Engine, EngineOptions, EnvLookup, SessionHandle};
use memo_protocol::{ContextProblem, ErrorCode, Phrase, SessionId};
use memo_store::Store;
use tokio::task::JoinHandle;

use crate::error::{Result, ServiceError};

pub struct Service {
    /// Kept as a `Result` so a broken environment still lets a front end start and say
    /// what is wrong, instead of failing before anything is shown.
    home: std::result::Result<MemoHome, String>,
    store: Mutex<Option<Arc<Store>>>,
    /// Opened once, on first use; `Some(None)` when turned off in config.toml.
    checkpoints: Mutex<Option<Option<Checkpoints>>>,
    pub(crate) live: Mutex<HashMap<SessionId, SessionHandle>>,
    /// Held through a resume, so two at once (a double click) cannot both start an actor
    /// for the same session.
    pub(crate) resuming: Mutex<()>,
    pub(crate) credentials: Arc<dyn CredentialStore>,
    env: EnvLookup,
    /// What each live session is doing, for a sidebar.
    pub(crate) activity: Arc<crate::activity::ActivityBoard>,
    /// Work that outlives the engine value that started it (auto titles).
    background: Mutex<Vec<JoinHandle<()>>>,
    /// This process, as it holds the sessions it runs live (`None`: no `/proc`, nothing
    /// is held).
    pub(crate) holder: Option<memo_store::Holder>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Service {
    pub fn new(
        home: std::result::Result<MemoHome, String>,
        credentials: Arc<dyn CredentialStore>,
        env: EnvLookup,
    ) -> Self {
        Self {
            home,
            store: Mutex::new(None),
            checkpoints: Mutex::new(None),
            live: Mutex::new(HashMap::new()),
            resuming: Mutex::new(()),
            credentials,
            env,
            activity: Arc::default(),
            background: Mutex::new(Vec::new()),
            holder: memo_store::Holder::current(),
        }
    }

    /// The OS keychain and the process environment: what both front ends run with.
    pub fn for_process(home: std::result::Result<MemoHome, String>) -> Self {
        Self::new(
            home,
            Self::default_credentials(),
            Arc::new(|name: &str| std::env::var(name).ok()),
        )
    }

    /// Like [`Service::for_process`], but fails when there is no OS keychain instead of
    /// falling back to environment variables: for storing a key, which must not silently
    /// land in memory only.
    pub fn with_keychain(home: std::result::Result<MemoHome, String>) -> Result<Self> {
        let keychain = KeyringStore::new().map_err(ServiceError::keychain)?;
        Ok(Self::new(
            home,
            Arc::new(keychain),
            Arc::new(|name: &str| std::env::var(name).ok()),
        ))
    }

    /// The OS keychain when this platform has one; otherwise a store that keeps nothing
    /// and says so when asked to (keys then come from environment variables only).
    pub fn default_credentials() -> Arc<dyn CredentialStore> {
        match KeyringStore::new() {
            Ok(store) => Arc::new(store),
            Err(error) => {
                tracing::warn!(%error, "OS keychain unavailable; API keys come from environment variables only");
                Arc::new(UnavailableCredentialStore::new(error.to_string()))
            }
        }
    }

    pub fn home(&self) -> Result<&MemoHome> {
        self.home.as_ref().map_err(|message| {
            ServiceError::said(
                ErrorCode::Config,
                Phrase::HomeUnresolved {
                    error: message.clone(),
                },
            )
        })
    }

    /// Creates the home's bootstrap files from templates where they are missing (never
    /// overwriting) and returns what could not be written.
    pub fn init_home(&self) -> Result<Vec<ContextProblem>> {
        Ok(memo_engine::context::init_home(self.home()?.root()).problems)
    }

    pub(crate) fn store(&self) -> Result<Arc<Store>> {
        let mut slot = lock(&self.store);
        if let Some(store) = slot.as_ref() {
            return Ok(store.clone());
        }
        let store = Arc::new(Store::open(self.home()?.sessions_db())?);
        *slot = Some(store.clone());
        Ok(store)
    }

    /// The checkpoint store under `$MEMO_HOME/checkpoints` (`None` when `[checkpoints]
    /// enabled = false`). The first open prunes old checkpoints in the background.
    pub(crate) fn checkpoints(&self) -> Result<Option<Checkpoints>> {
        let mut slot = lock(&self.checkpoints);
        if let Some(store) = slot.as_ref() {
            return Ok(store.clone());
        }
        let settings = self.config()?.checkpoints;
        let store = if settings.enabled {
            let limits = Limits {
                max_file_bytes: settings.max_file_kb.saturating_mul(1024),
                max_age_days: settings.max_age_days,
                max_total_bytes: settings.max_total_mb.saturating_mul(1024 * 1024),
                ..Limits::default()
            };
            let store = Checkpoints::open(&self.home()?.root().join("checkpoints"), limits)
                .map_err(ServiceError::checkpoints)?;
            let pruning = store.clone();
            std::thread::spawn(move || match pruning.prune() {
                Ok(report) if report.checkpoints_removed + report.blobs_removed > 0 => {
                    tracing::info!(?report, "pruned old checkpoints")
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "could not prune checkpoints"),
            });
            Some(store)
        } else {
            None
        };
        *slot = Some(store.clone());
        Ok(store)
    }

    pub(crate) fn config(&self) -> Result<Config> {
        Ok(Config::load(self.home()?)?)
    }

    pub(crate) fn env(&self) -> &EnvLookup {
        &self.env
    }

    /// The OS home (`HOME` through the service's env lookup, so tests stay hermetic):
    /// where other agents keep their files (`~/.claude`, `~/.gemini`) and `~/` points.
    pub(crate) fn user_home(&self) -> Option<std::path::PathBuf> {
        (self.env())("HOME")
            .filter(|h| !h.is_empty())
            .map(std::path::PathBuf::from)
    }

    /// An engine over the config as it is on disk now.
    pub(crate) fn engine(&self) -> Result<Engine> {
        Ok(Engine::new(EngineOptions {
            memo_home: Some(self.home()?.root().to_path_buf()),
            config: self.config()?,
            store: self.store()?,
            credentials: self.credentials.clone(),
            env: self.env.clone(),
            // Sessions still run when the store cannot be opened; the changes panel says why.
            checkpoints: self.checkpoints().unwrap_or_else(|error| {
                tracing::warn!(%error, "checkpoints unavailable");
                None
            }),
        }))
    }

    pub(crate) fn keep_background(&self, engine: &Engine) {
        let mut background = lock(&self.background);
        // Forget finished ones so a long-running app does not accumulate handles.
        background.retain(|t| !t.is_finished());
        background.extend(engine.take_background());
    }

    /// Waits (at most `limit`) for background work such as an auto title; a process that
    /// exits after one turn (`memo-cli exec`) calls this so the title lands.
    pub async fn wait_for_background(&self, limit: Duration) {
        let tasks: Vec<_> = lock(&self.background).drain(..).collect();
        let _ = tokio::time::timeout(limit, futures::future::join_all(tasks)).await;
    }
}
