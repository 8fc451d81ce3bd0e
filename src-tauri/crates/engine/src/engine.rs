//! The engine facade: turns config + keys + store into running sessions.

use std::path::PathBuf;
use std::sync::Arc;

use memo_config::{resolve_api_key, Config, CredentialStore, ProviderConfig};
use memo_protocol::SessionId;
use memo_providers::{create_client, Endpoint, ModelClient};
use memo_store::Store;

use crate::prompt::system_prompt;
use crate::session::{spawn_session, SessionHandle, SessionParams, SessionStart, TurnLimits};
use crate::tools::ToolRegistry;
use crate::EngineError;

/// Reads an environment variable; injectable so tests never touch the process env.
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

pub struct EngineOptions {
    /// `$MEMO_HOME`, handed to tools that read Memo's own files.
    pub memo_home: Option<PathBuf>,
    pub config: Config,
    pub store: Arc<Store>,
    pub credentials: Arc<dyn CredentialStore>,
    pub env: EnvLookup,
}

#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    pub cwd: PathBuf,
    /// Provider name from config; `None` uses `current_provider`.
    pub provider: Option<String>,
    /// Overrides the provider's configured model.
    pub model: Option<String>,
    pub max_steps: Option<u32>,
}

pub struct Engine {
    options: EngineOptions,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Self {
        Self { options }
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.options.store
    }

    pub fn config(&self) -> &Config {
        &self.options.config
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
            opts.max_steps,
        )?;
        spawn_session(params, SessionStart::New)
    }

    /// Reopens a stored session; its conversation is rebuilt from the event log.
    pub fn resume_session(
        &self,
        id: &SessionId,
        max_steps: Option<u32>,
    ) -> Result<SessionHandle, EngineError> {
        let record = self
            .options
            .store
            .session(id)?
            .ok_or_else(|| EngineError::SessionNotFound(id.0.clone()))?;
        let provider = self.options.config.provider(Some(&record.provider))?;
        let cwd = usable_cwd(PathBuf::from(&record.cwd))?;
        let params = self.params(id.clone(), cwd, &provider, record.model.clone(), max_steps)?;
        spawn_session(params, SessionStart::Resume)
    }

    fn params(
        &self,
        id: SessionId,
        cwd: PathBuf,
        provider: &ProviderConfig,
        model: String,
        max_steps: Option<u32>,
    ) -> Result<SessionParams, EngineError> {
        let client = self.client_for(provider)?;
        let profile = self.options.config.model_profile(&provider.name, &model);
        let mut limits = TurnLimits {
            parallel_tool_calls: profile.supports_parallel_tool_calls,
            ..TurnLimits::default()
        };
        if let Some(max) = max_steps {
            limits.max_steps = max.max(1);
        }
        Ok(SessionParams {
            id,
            system_prompt: system_prompt(&cwd, None),
            cwd,
            provider: provider.name.clone(),
            model,
            client,
            tools: ToolRegistry::builtin(),
            store: self.options.store.clone(),
            limits,
            memo_home: self.options.memo_home.clone(),
        })
    }

    fn client_for(&self, provider: &ProviderConfig) -> Result<Arc<dyn ModelClient>, EngineError> {
        let env = self.options.env.clone();
        let key = resolve_api_key(
            provider,
            self.options.credentials.as_ref(),
            &|name: &str| env(name),
        )?;
        let base_url = provider.base_url_or_default().to_owned();
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
        Ok(create_client(Endpoint {
            api: provider.api,
            base_url,
            api_key: key.map(|(k, _)| k),
        })?)
    }
}

/// Local servers (Ollama, llama.cpp, vLLM on this machine) usually need no key.
fn is_loopback(base_url: &str) -> bool {
    let rest = base_url
        .strip_prefix("http://")
        .or_else(|| base_url.strip_prefix("https://"))
        .unwrap_or(base_url);
    if rest.starts_with("[::1]") {
        return true;
    }
    let host = rest.split(['/', ':']).next().unwrap_or("");
    matches!(host, "localhost" | "127.0.0.1")
}

fn usable_cwd(path: PathBuf) -> Result<PathBuf, EngineError> {
    let canonical = std::fs::canonicalize(&path).map_err(|e| EngineError::BadWorkingDirectory {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    if !canonical.is_dir() {
        return Err(EngineError::BadWorkingDirectory {
            path: path.display().to_string(),
            reason: "not a directory".into(),
        });
    }
    Ok(canonical)
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
