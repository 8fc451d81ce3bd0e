//! The external agent as a session holds it: started on the session's first prompt (a
//! session opened to read its history starts nothing), started again on the next prompt
//! when it died — continuing its own session with `session/load` when it can, so a crash
//! loses nothing the agent kept — and stopped with the session.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use memo_engine::peer::{Peer, PeerError, PeerStop, PeerTurn};
use memo_protocol::{AgentSetting, Phrase, UserInput};

use crate::client::{lock, ExternalAgent};
use crate::process::Launch;
use crate::ClientError;

/// The MCP servers a session's agent is given, in ACP's shape, worked out when it starts
/// (their secrets come from the keychain then, and are never kept here).
pub type McpServersFor = Arc<dyn Fn() -> BoxFuture<'static, Vec<serde_json::Value>> + Send + Sync>;

struct Inner {
    name: String,
    launch: Launch,
    cwd: PathBuf,
    mcp_servers: Option<McpServersFor>,
    /// The agent's own id of this session, once it had one.
    agent_session: Mutex<Option<String>>,
    running: tokio::sync::Mutex<Option<Arc<ExternalAgent>>>,
    /// The same agent, for a cancel that must not wait for the lock a prompt holds.
    current: Mutex<Option<Arc<ExternalAgent>>>,
    /// The person's picks of the agent's own settings, in order: applied again whenever
    /// the agent (re)starts, as a pick made before it ran is.
    picks: Mutex<Vec<(String, String)>>,
    /// Its settings as it last said (or, before it ran here, as the session's log says).
    known: Mutex<Vec<AgentSetting>>,
}

/// One session's external agent. Cheap to clone.
#[derive(Clone)]
pub struct Connector(Arc<Inner>);

impl Connector {
    /// Agent `name` (its config.toml key) for a session in `cwd`; `agent_session` is the
    /// agent's own id of it from an earlier run, to continue; `mcp_servers` what it is
    /// given with each session it opens.
    pub fn new(
        name: &str,
        launch: Launch,
        cwd: PathBuf,
        agent_session: Option<String>,
        mcp_servers: Option<McpServersFor>,
    ) -> Self {
        Self(Arc::new(Inner {
            name: name.to_owned(),
            launch,
            cwd,
            mcp_servers,
            agent_session: Mutex::new(agent_session),
            running: tokio::sync::Mutex::new(None),
            current: Mutex::new(None),
            picks: Mutex::default(),
            known: Mutex::default(),
        }))
    }

    /// The agent's settings as the session last recorded them: a pick made before the
    /// agent starts again is checked against them.
    pub fn with_known_settings(self, settings: Vec<AgentSetting>) -> Self {
        *lock(&self.0.known) = settings;
        self
    }
}

/// What a failure to start says to the person, in English (the engine words it).
fn start_failed(name: &str, error: &ClientError) -> PeerError {
    match error {
        ClientError::Refused { auth: true, .. } => PeerError(
            Phrase::ExternalAgentSignIn {
                name: name.to_owned(),
            }
            .english(),
        ),
        other => PeerError(other.to_string()),
    }
}

impl Inner {
    async fn agent(&self, turn: &PeerTurn) -> Result<Arc<ExternalAgent>, PeerError> {
        let mut running = self.running.lock().await;
        if let Some(agent) = running.as_ref().filter(|a| !a.is_gone()) {
            return Ok(agent.clone());
        }
        if let Some(dead) = running.take() {
            dead.stop().await;
        }
        let agent = ExternalAgent::start(&self.name, &self.launch, &self.cwd)
            .await
            .map_err(|e| start_failed(&self.name, &e))?;
        let earlier = self
            .agent_session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let servers = match &self.mcp_servers {
            Some(servers) => servers().await,
            None => Vec::new(),
        };
        let opened = match agent.open_session(earlier.as_deref(), &servers).await {
            Ok(id) => id,
            Err(error) => {
                agent.stop().await;
                return Err(start_failed(&self.name, &error));
            }
        };
        let info = agent.info();
        turn.agent_started(
            info.label(),
            info.version.clone(),
            opened.clone(),
            earlier.as_deref() == Some(opened.as_str()),
        );
        *lock(&self.agent_session) = Some(opened);
        *lock(&self.current) = Some(agent.clone());
        *running = Some(agent.clone());
        self.apply_picks(&agent, turn).await;
        let settings = agent.settings();
        if !settings.is_empty() || !lock(&self.known).is_empty() {
            *lock(&self.known) = settings.clone();
            turn.settings(settings);
        }
        Ok(agent)
    }

    /// The person's picks, on an agent that just opened its session. One it does not
    /// take is said and dropped; the others stand.
    async fn apply_picks(&self, agent: &ExternalAgent, turn: &PeerTurn) {
        let picks = lock(&self.picks).clone();
        for (id, value) in picks {
            if let Err(error) = agent.set_setting(&id, &value).await {
                turn.setting_refused(id.clone(), value, error.to_string());
                lock(&self.picks).retain(|(i, _)| *i != id);
            }
        }
    }

    fn remember(&self, id: &str, value: &str, settings: &[AgentSetting]) {
        let mut picks = lock(&self.picks);
        picks.retain(|(i, _)| i != id);
        picks.push((id.to_owned(), value.to_owned()));
        *lock(&self.known) = settings.to_vec();
    }

    async fn set_setting(&self, id: String, value: String) -> Result<Vec<AgentSetting>, PeerError> {
        let agent = lock(&self.current).clone().filter(|a| !a.is_gone());
        let settings = match agent {
            Some(agent) => agent
                .set_setting(&id, &value)
                .await
                .map_err(|e| PeerError(e.to_string()))?,
            // Not running (yet, or again): taken when it starts. Checked against what it
            // offered last; never having run here, it is asked then (`--agent-setting`).
            None => {
                let known = lock(&self.known).clone();
                if known.is_empty() {
                    self.remember(&id, &value, &known);
                    return Ok(known);
                }
                crate::settings::with_pick(&known, &id, &value).ok_or_else(|| {
                    let offered = crate::settings::offered(&known, &id);
                    PeerError(ClientError::UnknownSetting { offered }.to_string())
                })?
            }
        };
        self.remember(&id, &value, &settings);
        Ok(settings)
    }
}

impl Peer for Connector {
    fn prompt(
        &self,
        input: UserInput,
        turn: PeerTurn,
    ) -> BoxFuture<'static, Result<PeerStop, PeerError>> {
        let inner = self.0.clone();
        Box::pin(async move {
            let stop = turn.cancelled();
            let agent = tokio::select! {
                agent = inner.agent(&turn) => agent?,
                _ = stop.cancelled() => return Ok(PeerStop::Cancelled),
            };
            agent.run_prompt(input, turn).await
        })
    }

    fn cancel(&self) {
        if let Some(agent) = self
            .0
            .current
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
        {
            agent.cancel();
        }
    }

    fn set_setting(
        &self,
        setting: String,
        value: String,
    ) -> BoxFuture<'static, Result<Vec<AgentSetting>, PeerError>> {
        let inner = self.0.clone();
        Box::pin(async move { inner.set_setting(setting, value).await })
    }

    fn shutdown(&self) -> BoxFuture<'static, ()> {
        let inner = self.0.clone();
        Box::pin(async move {
            let agent = inner
                .current
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            if let Some(agent) = agent {
                agent.stop().await;
            }
        })
    }
}
