//! Providers, their API keys and the prompt a session would get. Keys only ever travel
//! from a front end to the keychain: nothing here returns one.

use std::path::PathBuf;

use memo_config::{resolve_api_key, ProviderConfig};
use memo_engine::is_loopback;
use memo_model::ApiKey;
use memo_protocol::{KeyStatus, Phrase, PromptReport, ProviderSummary, SessionId};

use crate::error::{Result, ServiceError};
use crate::service::Service;
use crate::sessions::StartRequest;

/// Longer than any real key; a paste of something else (a whole file) is refused.
const MAX_KEY_CHARS: usize = 4096;

impl Service {
    /// Providers from config.toml, the current one marked.
    pub fn list_providers(&self) -> Result<Vec<ProviderSummary>> {
        let config = self.config()?;
        let current = config.provider(None).ok().map(|p| p.name);
        Ok(config
            .providers
            .iter()
            .map(|p| ProviderSummary {
                name: p.name.clone(),
                model: p.model.clone(),
                api: p.api.as_str().to_owned(),
                base_url: p.base_url_or_default().to_owned(),
                is_current: current.as_deref() == Some(p.name.as_str()),
            })
            .collect())
    }

    fn provider_config(&self, provider: &str) -> Result<ProviderConfig> {
        let config = self.config()?;
        config
            .providers
            .iter()
            .find(|p| p.name == provider)
            .cloned()
            .ok_or_else(|| {
                ServiceError::not_found(Phrase::NoProviderNamed {
                    provider: provider.to_owned(),
                })
            })
    }

    /// Where `provider`'s key would come from: keychain, environment, or nowhere.
    pub fn key_status(&self, provider: &str) -> Result<KeyStatus> {
        Ok(self.status_of(self.provider_config(provider)?))
    }

    pub(crate) fn status_of(&self, config: ProviderConfig) -> KeyStatus {
        let required = !is_loopback(config.base_url_or_default());
        let env = self.env().clone();
        let lookup = move |name: &str| env(name);
        let (source, keychain_error) =
            match resolve_api_key(&config, self.credentials.as_ref(), &lookup) {
                Ok(found) => (found.map(|(_, source)| source.to_string()), None),
                Err(error) => (None, Some(error.to_string())),
            };
        KeyStatus {
            provider: config.name,
            source,
            required,
            keychain_error,
        }
    }

    /// Stores `key` for `provider` in the OS keychain (replacing any earlier one).
    pub fn set_api_key(&self, provider: &str, key: &str) -> Result<KeyStatus> {
        let config = self.provider_config(provider)?;
        let key = key.trim();
        if key.is_empty() {
            return Err(ServiceError::invalid(Phrase::ApiKeyEmpty));
        }
        if key.chars().count() > MAX_KEY_CHARS || key.chars().any(char::is_whitespace) {
            return Err(ServiceError::invalid(Phrase::ApiKeyMalformed));
        }
        let key = ApiKey::new(key);
        // From now on the key is masked in every log line, like keys read at startup.
        memo_config::register_secret(&key);
        self.credentials
            .set(&config.name, &key)
            .map_err(ServiceError::keychain)?;
        Ok(self.status_of(config))
    }

    /// Removes `provider`'s key from the keychain; the environment is untouched.
    pub fn delete_api_key(&self, provider: &str) -> Result<KeyStatus> {
        let config = self.provider_config(provider)?;
        self.credentials
            .delete(&config.name)
            .map_err(ServiceError::keychain)?;
        Ok(self.status_of(config))
    }

    /// The assembled prompt, layer by layer: a live session's own (as it started) when
    /// `session` is live, otherwise what a new session in `cwd` would get.
    pub fn prompt_layers(
        &self,
        session: Option<&SessionId>,
        cwd: Option<PathBuf>,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<PromptReport> {
        if let Some(report) = session.and_then(|id| self.live_prompt(id)) {
            return Ok(report);
        }
        let cwd = cwd.ok_or_else(|| ServiceError::invalid(Phrase::PromptReportNeedsSession))?;
        let request = StartRequest {
            cwd,
            provider,
            model,
            ..StartRequest::default()
        };
        // Whether the folder's own SYSTEM.md would apply, as a session there would decide.
        let trusted = self
            .engine()
            .and_then(|engine| Ok(engine.workspace_trust(&request.cwd)?))
            .map(|trust| trust.status == memo_config::TrustStatus::Trusted)
            .unwrap_or(false);
        Ok(memo_engine::prompt_layers(
            Some(self.home()?.root()),
            &self.config()?,
            self.env(),
            &request.options(),
            trusted,
        )?)
    }
}
