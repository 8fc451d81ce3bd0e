//! External agents (other agents over the Agent Client Protocol): Settings → External
//! agents (config.toml's `[external_agents]`, secret values in the keychain), checking
//! one, and sessions that run on one.

use std::path::{Path, PathBuf};
use std::time::Instant;

use memo_acp_client::process::agent_path;
use memo_acp_client::{presets, Connector, ExternalAgent, Launch};
use memo_config::{external_agent_secret_key, ConfigFile, ExternalAgentConfig};
use memo_engine::peer::PeerSessionOptions;
use memo_model::ApiKey;
use memo_protocol::{
    AgentEvent, ApprovalMode, EnvValue, ExternalAgentCheck, ExternalAgentEntry, ExternalAgentInput,
    ExternalAgentsPage, Phrase, SecretState, SessionId, SessionSummary,
};

use crate::error::{Result, ServiceError};
use crate::service::{lock, Service};

/// What a session on an external agent starts with.
#[derive(Debug, Clone)]
pub struct ExternalSessionRequest {
    pub cwd: PathBuf,
    /// Its name in config.toml.
    pub agent: String,
    pub approval_mode: Option<ApprovalMode>,
}

/// Whether `command` would start from the home folder with `path`.
fn command_found(command: &str, path: &str, home: Option<&Path>) -> bool {
    let from = home.unwrap_or(Path::new("/"));
    memo_child_env::path_env::resolve_command(command, path, from).is_some()
}

impl Service {
    fn external_agent(&self, name: &str) -> Result<ExternalAgentConfig> {
        self.config()?
            .external_agents
            .into_iter()
            .find(|a| a.name == name)
            .ok_or_else(|| {
                ServiceError::not_found(Phrase::ExternalAgentNotInConfig {
                    name: name.to_owned(),
                })
            })
    }

    fn secret(&self, agent: &str, var: &str) -> Option<String> {
        match self.credentials.get(&external_agent_secret_key(agent, var)) {
            Ok(value) => value.map(|k| k.expose().to_owned()),
            Err(error) => {
                tracing::warn!(%error, agent, var, "could not read an external agent's secret");
                None
            }
        }
    }

    /// Agent `config` as a session in `cwd` holds it, continuing `agent_session` (the
    /// agent's own id of it) when there is one.
    fn connector(
        &self,
        config: &ExternalAgentConfig,
        cwd: &Path,
        agent_session: Option<String>,
    ) -> Connector {
        Connector::new(
            &config.name,
            self.launch(config),
            cwd.to_path_buf(),
            agent_session,
            self.mcp_servers_for(config, cwd),
        )
    }

    /// How agent `config` is started: its command, with its env and its secrets from the
    /// keychain (passed to its process only, never written anywhere).
    fn launch(&self, config: &ExternalAgentConfig) -> Launch {
        let mut env = config.env.clone();
        for var in &config.secret_env {
            if let Some(value) = self.secret(&config.name, var) {
                env.insert(var.clone(), value);
            }
        }
        Launch {
            command: config.command.clone(),
            args: config.args.clone(),
            env,
        }
    }

    pub async fn external_agents_page(&self) -> Result<ExternalAgentsPage> {
        let path = agent_path().await;
        self.page_on(&path)
    }

    fn page_on(&self, path: &str) -> Result<ExternalAgentsPage> {
        let config = self.config()?;
        let home = self.user_home();
        let presets = presets::all();
        let agents = config
            .external_agents
            .iter()
            .map(|agent| ExternalAgentEntry {
                name: agent.name.clone(),
                command: agent.command.clone(),
                args: agent.args.clone(),
                env: agent
                    .env
                    .iter()
                    .map(|(name, value)| EnvValue {
                        name: name.clone(),
                        value: value.clone(),
                    })
                    .collect(),
                secrets: agent
                    .secret_env
                    .iter()
                    .map(|name| SecretState {
                        name: name.clone(),
                        stored: self.secret(&agent.name, name).is_some(),
                    })
                    .collect(),
                found: command_found(&agent.command, path, home.as_deref()),
                offer_mcp_servers: !agent.withhold_mcp_servers,
                preset: presets
                    .iter()
                    .find(|p| p.command == agent.command)
                    .map(|p| p.id.clone()),
            })
            .collect();
        Ok(ExternalAgentsPage {
            agents,
            presets,
            config_path: config.path.display().to_string(),
        })
    }

    /// Adds agent `input.name` (`editing` false) or changes it. Secret values given go
    /// to the keychain; ones the form no longer lists leave it.
    pub async fn save_external_agent(
        &self,
        input: &ExternalAgentInput,
        editing: bool,
    ) -> Result<ExternalAgentsPage> {
        let name = input.name.trim();
        if !memo_config::valid_external_agent_name(name) {
            return Err(ServiceError::invalid(Phrase::ExternalAgentNameBad {
                name: name.to_owned(),
            }));
        }
        if input.command.trim().is_empty() {
            return Err(ServiceError::invalid(Phrase::ExternalAgentCommandMissing));
        }
        let config = self.config()?;
        let old = config.external_agents.iter().find(|a| a.name == name);
        match (editing, old) {
            (true, None) => {
                return Err(ServiceError::not_found(Phrase::ExternalAgentNotInConfig {
                    name: name.to_owned(),
                }))
            }
            (false, Some(_)) => {
                return Err(ServiceError::invalid(Phrase::ExternalAgentExists {
                    name: name.to_owned(),
                }))
            }
            _ => {}
        }
        let agent = ExternalAgentConfig {
            name: name.to_owned(),
            command: input.command.trim().to_owned(),
            args: input.args.clone(),
            env: input
                .env
                .iter()
                .filter(|v| !v.name.trim().is_empty())
                .map(|v| (v.name.trim().to_owned(), v.value.clone()))
                .collect(),
            secret_env: input
                .secrets
                .iter()
                .map(|s| s.name.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
            withhold_mcp_servers: !input.offer_mcp_servers,
        };
        // The keychain first: a config that names a secret the keychain lacks is worse
        // than a stored value nothing names yet.
        for secret in &input.secrets {
            if let Some(value) = secret.value.as_deref().filter(|v| !v.is_empty()) {
                self.credentials
                    .set(
                        &external_agent_secret_key(name, secret.name.trim()),
                        &ApiKey::new(value),
                    )
                    .map_err(ServiceError::keychain)?;
            }
        }
        let mut file = ConfigFile::open(&config.path)?;
        file.upsert_external_agent(&agent)?;
        file.save()?;
        for dropped in old
            .into_iter()
            .flat_map(|o| o.secret_env.iter())
            .filter(|var| !agent.secret_env.contains(var))
        {
            self.forget_agent_secret(name, dropped);
        }
        self.external_agents_page().await
    }

    fn forget_agent_secret(&self, agent: &str, var: &str) {
        if let Err(error) = self
            .credentials
            .delete(&external_agent_secret_key(agent, var))
        {
            tracing::warn!(%error, agent, var, "could not remove an external agent's secret");
        }
    }

    /// Removes agent `name` from config.toml, with its keychain values.
    pub async fn remove_external_agent(&self, name: &str) -> Result<ExternalAgentsPage> {
        let agent = self.external_agent(name)?;
        let mut file = ConfigFile::open(&self.config()?.path)?;
        file.remove_external_agent(name);
        file.save()?;
        for var in &agent.secret_env {
            self.forget_agent_secret(name, var);
        }
        self.external_agents_page().await
    }

    /// Starts agent `name` in `cwd` (the home folder when `None`), asks it `initialize`
    /// and stops it: whether it runs, what it is, how it signs in.
    pub async fn check_external_agent(
        &self,
        name: &str,
        cwd: Option<&Path>,
    ) -> Result<ExternalAgentCheck> {
        let config = self.external_agent(name)?;
        let folder = cwd
            .map(Path::to_path_buf)
            .or_else(|| self.user_home())
            .unwrap_or_else(std::env::temp_dir);
        let started = Instant::now();
        let launch = self.launch(&config);
        let mut check = ExternalAgentCheck {
            name: name.to_owned(),
            ok: false,
            label: None,
            version: None,
            auth_methods: Vec::new(),
            error: None,
            elapsed_ms: 0,
        };
        if !command_found(&config.command, &agent_path().await, Some(&folder)) {
            let install = presets::all()
                .into_iter()
                .find(|p| p.command == config.command)
                .map(|p| p.install)
                .unwrap_or_default();
            check.error = Some(
                Phrase::ExternalAgentNotFound {
                    command: config.command.clone(),
                    install,
                }
                .english(),
            );
            return Ok(check);
        }
        match ExternalAgent::start(name, &launch, &folder).await {
            Ok(agent) => {
                let info = agent.info();
                check.ok = true;
                check.label = Some(info.label());
                check.version = info.version;
                check.auth_methods = info.auth_methods.into_iter().map(|(_, n)| n).collect();
                agent.stop().await;
            }
            Err(error) => check.error = Some(error.to_string()),
        }
        check.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(check)
    }

    /// A new session whose turns agent `request.agent` runs. The agent starts with the
    /// first prompt. Must run inside the Tokio runtime.
    pub fn start_external_session(
        &self,
        request: ExternalSessionRequest,
    ) -> Result<SessionSummary> {
        let config = self.external_agent(&request.agent)?;
        let cwd = std::fs::canonicalize(&request.cwd)
            .map_err(|e| ServiceError::io(request.cwd.display(), e))?;
        let connector = self.connector(&config, &cwd, None);
        let engine = self.engine()?;
        let handle = engine.start_peer_session(
            PeerSessionOptions {
                cwd,
                agent: config.name.clone(),
                label: config.name.clone(),
                approval_mode: request.approval_mode,
                resume: None,
            },
            std::sync::Arc::new(connector),
        )?;
        let id = handle.id().clone();
        if let Err(error) = self.hold(&id) {
            let _ = handle.submit(memo_protocol::Op::Shutdown);
            return Err(error);
        }
        lock(&self.live).insert(id.clone(), handle);
        let summary = self.session(&id)?;
        self.track_activity(&summary)?;
        Ok(summary)
    }

    /// The engine handle of stored session `id` run again on its external agent, which
    /// continues its own session when it can.
    pub(crate) fn resume_external(
        &self,
        id: &SessionId,
        agent: &str,
        approval_mode: Option<ApprovalMode>,
    ) -> Result<memo_engine::SessionHandle> {
        let config = self.external_agent(agent)?;
        let record = self.store()?.session(id)?.ok_or_else(|| {
            ServiceError::not_found(Phrase::SessionNotOpenResume { id: id.to_string() })
        })?;
        let cwd = PathBuf::from(&record.cwd);
        let agent_session = self.last_agent_session(id)?;
        let connector = self
            .connector(&config, &cwd, agent_session)
            .with_known_settings(self.last_agent_settings(id)?);
        Ok(self.engine()?.start_peer_session(
            PeerSessionOptions {
                cwd,
                agent: config.name.clone(),
                label: record.model.clone(),
                approval_mode,
                resume: Some(id.clone()),
            },
            std::sync::Arc::new(connector),
        )?)
    }

    /// The agent's own id of stored session `id`, from the last time it started.
    fn last_agent_session(&self, id: &SessionId) -> Result<Option<String>> {
        let last = self
            .store()?
            .last_event_of_kind(id, "external_agent_started")?;
        Ok(last.and_then(|e| match e.event {
            AgentEvent::ExternalAgentStarted { agent_session, .. } => Some(agent_session),
            _ => None,
        }))
    }

    /// The agent's own settings as stored session `id` last recorded them.
    pub(crate) fn last_agent_settings(
        &self,
        id: &SessionId,
    ) -> Result<Vec<memo_protocol::AgentSetting>> {
        let last = self
            .store()?
            .last_event_of_kind(id, "external_agent_settings")?;
        Ok(match last.map(|e| e.event) {
            Some(AgentEvent::ExternalAgentSettings { settings }) => settings,
            _ => Vec::new(),
        })
    }

    /// What the session's external agent last said of its context: tokens used, its
    /// window, the cost so far.
    pub(crate) fn external_agent_usage(
        &self,
        id: &SessionId,
    ) -> Result<Option<(u64, u64, Option<f64>)>> {
        let last = self
            .store()?
            .last_event_of_kind(id, "external_agent_usage")?;
        Ok(last.and_then(|e| match e.event {
            AgentEvent::ExternalAgentUsage {
                used_tokens,
                context_window,
                cost_usd,
            } => Some((used_tokens, context_window, cost_usd)),
            _ => None,
        }))
    }
}
