//! The engine facade: turns config + keys + store into running sessions.

use std::path::PathBuf;
use std::sync::Arc;

use memo_config::{resolve_api_key, Config, CredentialStore, ProviderConfig};
use memo_protocol::SessionId;
use memo_providers::{
    create_client, create_client_with_options, Endpoint, HttpOptions, ModelClient,
};
use memo_store::{ForkSpec, ModelPrice, SessionRecord, Store};

use crate::options::{usable_cwd, EngineOptions, EnvLookup, SessionOptions, SessionOverrides};
use crate::session::{
    spawn_session, ApprovalMode, ModelBinding, ModelResolver, SessionHandle, SessionParams,
    SessionStart, TurnLimits,
};
use crate::tools::ToolRegistry;
use crate::EngineError;

pub struct Engine {
    /// Shared with the subagents' runtime of each session, which starts child sessions.
    options: Arc<EngineOptions>,
    /// Work that outlives a turn (auto titles), for clients that exit right after one.
    background: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Self {
        Self {
            options: Arc::new(options),
            background: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Waits (at most `limit`) for background work such as an auto title to finish; a
    /// process that exits after one turn (`memo-cli exec`) calls this so the title lands.
    pub async fn wait_for_background(&self, limit: std::time::Duration) {
        let tasks: Vec<_> = self
            .background
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        let all = futures::future::join_all(tasks);
        let _ = tokio::time::timeout(limit, all).await;
    }

    /// Hands over the background work started so far (auto titles), for a host that
    /// outlives this engine value and waits for the work itself.
    pub fn take_background(&self) -> Vec<tokio::task::JoinHandle<()>> {
        self.background
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect()
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.options.store
    }

    pub fn config(&self) -> &Config {
        &self.options.config
    }

    pub(crate) fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Starts a new session. Must be called inside a Tokio runtime.
    pub fn start_session(&self, opts: SessionOptions) -> Result<SessionHandle, EngineError> {
        let cwd = usable_cwd(opts.cwd)?;
        let provider = self.options.config.provider(opts.provider.as_deref())?;
        let model = opts.model.unwrap_or_else(|| provider.model.clone());
        let params = self.params(
            SessionId::new(uuid::Uuid::now_v7().to_string()),
            cwd,
            &provider,
            model,
            SessionOverrides {
                max_steps: opts.max_steps,
                trust_project: opts.trust_project,
                approval_mode: opts.approval_mode,
                mcp_servers: opts.mcp_servers,
                hosts: opts.hosts,
            },
        )?;
        let (client, model) = (params.client.clone(), params.model.clone());
        let session = spawn_or_stop_mcp(params, SessionStart::New)?;
        if self.options.config.auto_title {
            let task =
                crate::title::spawn_auto_title(&session, client, model, self.options.store.clone());
            let mut background = self.background.lock().unwrap_or_else(|p| p.into_inner());
            // Forget finished ones so a long-running app does not accumulate handles.
            background.retain(|t| !t.is_finished());
            background.extend(task);
        }
        Ok(session)
    }

    /// Reopens a stored session; its conversation is rebuilt from the event log (a turn
    /// the log left open is closed as interrupted first). A read-only session (imported
    /// history) is not changed: it is forked, and the returned handle is the fork's, so
    /// check [`SessionHandle::id`].
    pub fn resume_session(
        &self,
        id: &SessionId,
        max_steps: Option<u32>,
    ) -> Result<SessionHandle, EngineError> {
        self.resume_session_with(
            id,
            SessionOverrides {
                max_steps,
                ..SessionOverrides::default()
            },
        )
    }

    /// [`Self::resume_session`], with settings overridden for this run of it. A resumed
    /// session starts in config.toml's approval mode unless told otherwise: a mode chosen
    /// in an earlier run (dangerous, say) does not come back by itself.
    pub fn resume_session_with(
        &self,
        id: &SessionId,
        overrides: SessionOverrides,
    ) -> Result<SessionHandle, EngineError> {
        let mut record = self.record(id)?;
        if record.read_only {
            record = match self.unused_fork(&record)? {
                Some(fork) => fork,
                None => self.fork_session(id, None)?,
            };
        }
        let provider = self.options.config.provider(Some(&record.provider))?;
        let cwd = usable_cwd(PathBuf::from(&record.cwd))?;
        let params = self.params(
            record.id.clone(),
            cwd,
            &provider,
            record.model.clone(),
            overrides,
        )?;
        spawn_or_stop_mcp(params, SessionStart::Resume)
    }

    /// A new session sharing `source`'s history up to and including `at_seq` (default:
    /// all of it), continuing independently; resume it to talk in it. A fork of imported
    /// history whose provider is not configured here uses the current provider.
    pub fn fork_session(
        &self,
        source: &SessionId,
        at_seq: Option<u64>,
    ) -> Result<SessionRecord, EngineError> {
        let record = self.record(source)?;
        let at_seq = match at_seq {
            Some(seq) => seq,
            None => self.options.store.last_seq(source)?,
        };
        // Imported history names no provider; a fork of it gets the current one (when
        // there is one: resuming without any provider fails with the config's error).
        let (provider, model) = match self.options.config.provider(None) {
            Ok(current) if record.provider.is_empty() => (Some(current.name), Some(current.model)),
            _ => (None, None),
        };
        Ok(self.options.store.fork_session(&ForkSpec {
            source: source.clone(),
            at_seq,
            new_id: SessionId::new(uuid::Uuid::now_v7().to_string()),
            title: record.title.map(|t| format!("{t} (fork)")),
            provider,
            model,
        })?)
    }

    /// A fork of `record` at its end that nothing was added to yet: opening imported
    /// history twice without talking in it should not leave two empty forks behind.
    fn unused_fork(&self, record: &SessionRecord) -> Result<Option<SessionRecord>, EngineError> {
        let store = &self.options.store;
        let last = store.last_seq(&record.id)?;
        for fork in store.forks_of(&record.id)? {
            if fork.fork_seq == Some(last) && store.last_seq(&fork.id)? == last {
                return Ok(Some(fork));
            }
        }
        Ok(None)
    }

    fn record(&self, id: &SessionId) -> Result<SessionRecord, EngineError> {
        self.options
            .store
            .session(id)?
            .ok_or_else(|| EngineError::SessionNotFound(id.0.clone()))
    }

    fn params(
        &self,
        id: SessionId,
        cwd: PathBuf,
        provider: &ProviderConfig,
        model: String,
        overrides: SessionOverrides,
    ) -> Result<SessionParams, EngineError> {
        let client = self.client_for(provider)?;
        let profile = self.options.config.model_profile(&provider.name, &model);
        // Usage rows get their cost when they are recorded, at the configured price.
        let price = self
            .options
            .config
            .model_pricing(&provider.name, &model)
            .map(|p| ModelPrice {
                input_per_mtok: p.input_per_mtok,
                output_per_mtok: p.output_per_mtok,
                cached_input_per_mtok: p.cached_input_per_mtok,
            });
        self.options.store.set_price(&provider.name, &model, price);
        let mut limits = TurnLimits {
            parallel_tool_calls: profile.supports_parallel_tool_calls,
            thinking_budget_tokens: profile.thinking_budget_tokens,
            temperature: profile.temperature,
            supports_vision: profile.supports_vision,
            approval_mode: match overrides.approval_mode {
                Some(mode) => mode,
                None => approval_mode(&self.options.config)?,
            },
            max_output_tokens: output_cap(profile.context_window),
            ..TurnLimits::default()
        };
        if let Some(max) = overrides.max_steps {
            limits.max_steps = max.max(1);
        }
        let mut tools = ToolRegistry::builtin();
        let subagents = self.subagents(&cwd);
        if let Some(subagents) = &subagents {
            for tool in crate::agents::collab::tools(subagents) {
                tools.register(tool);
            }
        }
        // Tools turned off in config.toml or in other agents' settings are never offered.
        let imported = self.imported_permissions(Some(&cwd));
        let trusted = overrides
            .trust_project
            .unwrap_or_else(|| self.project_trusted(&cwd, &imported));
        let mut disabled = disabled_tools(&self.options.config);
        disabled.extend(crate::imported_rules::excluded_tools(
            &imported,
            &tools.names(),
        ));
        tools.exclude(disabled.clone());
        // Servers' requests for user input become events of the session.
        let (elicitor, elicitations) = crate::session::elicit::channel();
        // MCP servers start now, in the background; a turn waits for them at most their
        // startup timeout, and their tools join the registry as they arrive.
        // Enabled plugins' servers join under `plugin_server` names; installed by the
        // user, so not gated by the folder's trust.
        let env = self.options.env.clone();
        let user_home = self.os_home();
        let mut extra_servers = memo_plugins::session_mcp_servers(
            memo_plugins::Homes {
                memo: self.options.memo_home.as_deref(),
                user: user_home.as_deref(),
                folder: Some(&cwd),
            },
            &move |name: &str| env(name),
        );
        // A front end's own servers for this run (an editor's over ACP), after the
        // plugins': the user's configured ones win a name clash.
        extra_servers.servers.extend(overrides.mcp_servers);
        let mcp = memo_mcp::start_for_session_with(
            &self.options.config,
            &cwd,
            self.options.env.clone(),
            Some(self.options.credentials.clone()),
            trusted,
            Some(elicitor),
            extra_servers,
        );
        if let Some(mcp) = &mcp {
            tools.add_source(Arc::new(memo_mcp::McpToolSource::new(mcp.clone())));
        }
        // Listed after everything else once loaded, so a loaded group only appends.
        tools.defer_groups(crate::tool_groups::ON_DEMAND);
        let (system_prompt, mut context) = crate::prompt::session_context(
            crate::prompt::PromptSetup {
                memo_home: self.options.memo_home.as_deref(),
                config: &self.options.config,
                env: &self.options.env,
                project_trusted: trusted,
            },
            &cwd,
            provider,
            &model,
            &mut tools,
            None,
        );
        context.mcp = mcp;
        context.hosts = overrides.hosts;
        context.elicitations = Some(elicitations);
        context.approval_rules = self.rule_store();
        context.imported_rules = crate::imported_rules::as_rules(&imported, &cwd, trusted);
        context.command_limits = crate::imported_rules::command_limits(&imported);
        // Read at every start and resume, so an edited settings file counts from the next
        // session on; a folder's own hooks only when it is trusted, as its servers.
        let hooks = memo_hooks::load_hooks(&self.hook_paths(&cwd), trusted);
        context.hooks = hooks.hooks;
        context.hook_report = hooks.report;
        if let Some(subagents) = subagents {
            subagents.set_factory(Arc::new(crate::agents::spawn::ParentParts {
                options: self.options.clone(),
                cwd: cwd.clone(),
                provider: provider.clone(),
                model: model.clone(),
                client: client.clone(),
                resolver: self.resolver(),
                limits: limits.clone(),
                mcp: context.mcp.clone(),
                hooks: context.hooks.clone(),
                approval_rules: context.approval_rules.clone(),
                imported_rules: context.imported_rules.clone(),
                command_limits: context.command_limits.clone(),
                disabled,
            }));
            context.children = Some(crate::session::Children(subagents));
        }
        Ok(SessionParams {
            id,
            system_prompt,
            cwd,
            provider: provider.name.clone(),
            model,
            client,
            resolver: Some(self.resolver()),
            tools,
            store: self.options.store.clone(),
            limits,
            memo_home: self.options.memo_home.clone(),
            context,
            checkpoints: self.options.checkpoints.clone(),
        })
    }

    /// The agent types a session in `folder` can start, from Memo's built-in ones and
    /// the agent files in the folder, Memo's home, the OS home and enabled plugins.
    pub fn agent_catalog(&self, folder: &std::path::Path) -> crate::agents::AgentCatalog {
        let options = &self.options;
        crate::agents::catalog_for(options.memo_home.as_deref(), &options.env, folder)
    }

    /// A new session's subagents' runtime, when the collab tools are on.
    fn subagents(&self, folder: &std::path::Path) -> Option<Arc<crate::agents::Subagents>> {
        let options = &self.options;
        crate::agents::session_runtime(
            options.memo_home.as_deref(),
            &options.config,
            &options.env,
            folder,
        )
    }

    /// Where a session in `folder` reads hooks from: the OS home's Claude Code settings,
    /// the folder's, config.toml, and the enabled plugins' hook files.
    pub(crate) fn hook_paths(&self, folder: &std::path::Path) -> memo_hooks::HookPaths {
        let user_home = self.os_home();
        let plugins = memo_plugins::session_hooks(memo_plugins::Homes {
            memo: self.options.memo_home.as_deref(),
            user: user_home.as_deref(),
            folder: Some(folder),
        });
        memo_hooks::HookPaths {
            user_home,
            project_dir: Some(folder.to_path_buf()),
            memo_config: Some(self.options.config.path.clone()),
            plugins,
        }
    }

    /// The person's kept approval rules, in Memo's home (`None` without one).
    pub(crate) fn rule_store(&self) -> Option<memo_config::RuleStore> {
        self.options.memo_home.as_ref().map(|home| {
            memo_config::RuleStore::at(memo_config::MemoHome::at(home).approval_rules())
        })
    }

    pub(crate) fn client_for(
        &self,
        provider: &ProviderConfig,
    ) -> Result<Arc<dyn ModelClient>, EngineError> {
        client_for(provider, &self.options.credentials, &self.options.env)
    }

    /// How a session switches models: config.toml is read again (a provider added in
    /// settings since the session started is there), the key looked up, the profile and
    /// price applied.
    fn resolver(&self) -> ModelResolver {
        let path = self.options.config.path.clone();
        let credentials = self.options.credentials.clone();
        let env = self.options.env.clone();
        let store = self.options.store.clone();
        Arc::new(move |provider: Option<&str>, model: Option<&str>| {
            let config = Config::load_file(&path).map_err(|e| e.to_string())?;
            let provider = config.provider(provider).map_err(|e| e.to_string())?;
            let model = model.map_or_else(|| provider.model.clone(), str::to_owned);
            let client = client_for(&provider, &credentials, &env).map_err(|e| e.to_string())?;
            let profile = config.model_profile(&provider.name, &model);
            let price = config
                .model_pricing(&provider.name, &model)
                .map(|p| ModelPrice {
                    input_per_mtok: p.input_per_mtok,
                    output_per_mtok: p.output_per_mtok,
                    cached_input_per_mtok: p.cached_input_per_mtok,
                });
            store.set_price(&provider.name, &model, price);
            Ok(ModelBinding {
                provider: provider.name.clone(),
                model,
                client,
                parallel_tool_calls: profile.supports_parallel_tool_calls,
                thinking_budget_tokens: profile.thinking_budget_tokens,
                temperature: profile.temperature,
                context_window: profile.context_window,
                supports_vision: profile.supports_vision,
            })
        })
    }
}

/// A client for `provider` with its key from the keychain or the environment.
fn client_for(
    provider: &ProviderConfig,
    credentials: &Arc<dyn CredentialStore>,
    env: &EnvLookup,
) -> Result<Arc<dyn ModelClient>, EngineError> {
    let base_url = provider.base_url_or_default().to_owned();
    let key = match resolve_api_key(provider, credentials.as_ref(), &|name: &str| env(name)) {
        Ok(key) => key,
        // A local server needs no key, so a keychain that cannot be reached (no Secret
        // Service running) must not stop the user from using one.
        Err(error) if is_loopback(&base_url) => {
            tracing::warn!(%error, provider = %provider.name, "keychain unavailable; using the local server without a key");
            None
        }
        Err(error) => return Err(error.into()),
    };
    if key.is_none() && !is_loopback(&base_url) {
        return Err(EngineError::MissingApiKey {
            provider: provider.name.clone(),
            env_var: provider
                .env_api_key
                .clone()
                .unwrap_or_else(|| "OPENAI_API_KEY".into()),
        });
    }
    if let Some((key, _)) = &key {
        memo_config::redact::register_secret(key);
    }
    let endpoint = Endpoint {
        api: provider.api,
        base_url,
        api_key: key.map(|(k, _)| k),
    };
    match http_options(provider)? {
        Some(options) => Ok(create_client_with_options(endpoint, options)?),
        None => Ok(create_client(endpoint)?),
    }
}

/// A provider's own waits: `first_byte_timeout_sec` (how long the server may read the
/// prompt before answering; default 30 min on this machine, 10 elsewhere) and
/// `idle_timeout_sec` (silence allowed mid-answer; default 300).
fn http_options(provider: &ProviderConfig) -> Result<Option<HttpOptions>, EngineError> {
    let seconds = |key: &str| -> Result<Option<u64>, EngineError> {
        match provider.extra.get(key) {
            None => Ok(None),
            Some(toml::Value::Integer(n)) if *n > 0 => Ok(Some(*n as u64)),
            Some(other) => Err(EngineError::InvalidSetting {
                path: format!("providers.{}", provider.name),
                key: key.into(),
                message: format!("expected a positive number of seconds, got {other}"),
            }),
        }
    };
    let (first, idle) = (
        seconds("first_byte_timeout_sec")?,
        seconds("idle_timeout_sec")?,
    );
    if first.is_none() && idle.is_none() {
        return Ok(None);
    }
    let defaults = HttpOptions::default();
    Ok(Some(HttpOptions {
        first_byte_timeout: first.map(std::time::Duration::from_secs),
        read_idle_timeout: idle.map_or(defaults.read_idle_timeout, std::time::Duration::from_secs),
        ..defaults
    }))
}

/// A session whose actor never starts never shuts its MCP servers down: do it here.
fn spawn_or_stop_mcp(
    params: SessionParams,
    start: SessionStart,
) -> Result<SessionHandle, EngineError> {
    let mcp = params.context.mcp.clone();
    let spawned = spawn_session(params, start);
    if let (Err(_), Some(mcp)) = (&spawned, mcp) {
        mcp.shutdown();
    }
    spawned
}

/// `disabled_tools = ["webfetch", "github__*"]` in config.toml: tools never offered.
pub fn disabled_tools(config: &Config) -> Vec<String> {
    config
        .extra
        .get("disabled_tools")
        .and_then(|v| v.as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// `approval_mode = "auto" | "strict" | "dangerous"` in config.toml (default auto).
pub fn approval_mode(config: &Config) -> Result<ApprovalMode, EngineError> {
    match config.extra.get("approval_mode") {
        None => Ok(ApprovalMode::default()),
        Some(toml::Value::String(mode)) => match mode.as_str() {
            "auto" => Ok(ApprovalMode::Auto),
            "strict" => Ok(ApprovalMode::Strict),
            "dangerous" => Ok(ApprovalMode::Dangerous),
            other => Err(EngineError::InvalidSetting {
                path: config.path.display().to_string(),
                key: "approval_mode".into(),
                message: format!(
                    "unknown mode \"{other}\", expected one of auto, strict, dangerous"
                ),
            }),
        },
        Some(other) => Err(EngineError::InvalidSetting {
            path: config.path.display().to_string(),
            key: "approval_mode".into(),
            message: format!("expected a string, got {}", other.type_str()),
        }),
    }
}

/// Local servers (Ollama, llama.cpp, vLLM on this machine) usually need no key.
/// Whether `base_url` points at this machine (a local model server needs no API key).
pub fn is_loopback(base_url: &str) -> bool {
    memo_providers::is_loopback_url(base_url)
}

#[cfg(test)]
mod tests {
    use super::is_loopback;

    #[test]
    fn loopback_detection() {
        assert!(is_loopback("http://127.0.0.1:11434/v1"));
        assert!(is_loopback("http://localhost:8080"));
        assert!(is_loopback("http://[::1]:8080/v1"));
        assert!(!is_loopback("https://api.openai.com/v1"));
        assert!(!is_loopback("https://localhost.evil.com/v1"));
    }
}

#[cfg(test)]
mod engine_tests {
    use super::*;
    use memo_config::KeyError;
    use memo_model::ApiKey;

    /// A keychain that is not running, as on a desktop without a Secret Service.
    struct BrokenKeychain;

    impl CredentialStore for BrokenKeychain {
        fn get(&self, _provider: &str) -> Result<Option<ApiKey>, KeyError> {
            Err(KeyError::Unavailable("no Secret Service".into()))
        }
        fn set(&self, _provider: &str, _key: &ApiKey) -> Result<(), KeyError> {
            Err(KeyError::Unavailable("no Secret Service".into()))
        }
        fn delete(&self, _provider: &str) -> Result<bool, KeyError> {
            Err(KeyError::Unavailable("no Secret Service".into()))
        }
    }

    fn engine_with(config: &str) -> (Engine, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let config = Config::parse(config, &path).unwrap();
        let store = Arc::new(Store::open(dir.path().join("db.sqlite")).unwrap());
        let engine = Engine::new(EngineOptions {
            memo_home: None,
            config,
            store,
            credentials: Arc::new(BrokenKeychain),
            env: Arc::new(|_: &str| None),
            checkpoints: None,
        });
        (engine, dir)
    }

    #[tokio::test]
    async fn a_local_server_works_without_a_keychain_but_a_remote_one_reports_it() {
        let (engine, dir) = engine_with("[[providers.local]]\nname = \"local\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n");
        let session = engine.start_session(SessionOptions {
            cwd: dir.path().to_path_buf(),
            ..Default::default()
        });
        assert!(session.is_ok(), "{:?}", session.err());
        let (engine, dir) = engine_with("[[providers.remote]]\nname = \"remote\"\nmodel = \"m\"\nbase_url = \"https://api.example.com/v1\"\n");
        let err = engine
            .start_session(SessionOptions {
                cwd: dir.path().to_path_buf(),
                ..Default::default()
            })
            .err()
            .unwrap();
        assert!(err.to_string().contains("Secret Service"), "{err}");
    }

    #[tokio::test]
    async fn approval_mode_comes_from_config_and_bad_values_name_the_key() {
        let (engine, _dir) = engine_with("approval_mode = \"strict\"\n");
        assert_eq!(
            approval_mode(engine.config()).unwrap(),
            ApprovalMode::Strict
        );
        let (engine, _dir) = engine_with("approval_mode = \"yolo\"\n");
        let err = approval_mode(engine.config()).unwrap_err().to_string();
        assert!(
            err.contains("config.toml: approval_mode") && err.contains("yolo"),
            "{err}"
        );
    }
}

/// A cap on one answer for models with a small context window: a small model that falls
/// into a loop (the same tool call's arguments over and over) otherwise generates until
/// the server shifts its context, for many minutes. A quarter of the window, at most
/// 4,096 tokens, leaves the rest for the prompt and the conversation.
fn output_cap(context_window: u64) -> Option<u32> {
    (context_window > 0 && context_window <= 16_384)
        .then(|| u32::try_from((context_window / 4).min(4_096)).unwrap_or(4_096))
}
