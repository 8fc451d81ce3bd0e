//! Provider API keys from the desktop: where a provider's key comes from, and storing or
//! removing one in the OS keychain. Keys only ever travel UI → keychain; nothing here
//! returns one.

use memo_config::{process_env, resolve_api_key, ApiKey, Config, ProviderConfig};
use memo_engine::is_loopback;
use memo_protocol::KeyStatus;

use crate::bridge::{engine_error_from_config, Bridge};
use crate::error::{CommandError, ErrorCode};

/// Longer than any real key; a paste of something else (a whole file) is refused.
const MAX_KEY_CHARS: usize = 4096;

impl Bridge {
    fn provider_config(&self, provider: &str) -> Result<ProviderConfig, CommandError> {
        let config = Config::load(self.home()?).map_err(engine_error_from_config)?;
        config
            .providers
            .iter()
            .find(|p| p.name == provider)
            .cloned()
            .ok_or_else(|| {
                CommandError::new(
                    ErrorCode::NotFound,
                    format!("no provider named '{provider}' in config.toml"),
                )
            })
    }

    pub fn key_status(&self, provider: &str) -> Result<KeyStatus, CommandError> {
        Ok(self.status_of(self.provider_config(provider)?))
    }

    fn status_of(&self, config: ProviderConfig) -> KeyStatus {
        let required = !is_loopback(config.base_url_or_default());
        let (source, keychain_error) =
            match resolve_api_key(&config, self.credentials.as_ref(), &process_env) {
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
    pub fn set_api_key(&self, provider: &str, key: &str) -> Result<KeyStatus, CommandError> {
        let config = self.provider_config(provider)?;
        let key = key.trim();
        if key.is_empty() {
            return Err(CommandError::new(
                ErrorCode::InvalidInput,
                "the API key is empty",
            ));
        }
        if key.chars().count() > MAX_KEY_CHARS || key.chars().any(char::is_whitespace) {
            return Err(CommandError::new(
                ErrorCode::InvalidInput,
                "that does not look like an API key (it has spaces or line breaks, or is very long)",
            ));
        }
        let key = ApiKey::new(key);
        // From now on the key is masked in every log line, like keys read at startup.
        memo_config::register_secret(&key);
        self.credentials
            .set(&config.name, &key)
            .map_err(|e| CommandError::new(ErrorCode::Unavailable, e.to_string()))?;
        Ok(self.status_of(config))
    }

    /// Removes `provider`'s key from the keychain; the environment is untouched.
    pub fn delete_api_key(&self, provider: &str) -> Result<KeyStatus, CommandError> {
        let config = self.provider_config(provider)?;
        self.credentials
            .delete(&config.name)
            .map_err(|e| CommandError::new(ErrorCode::Unavailable, e.to_string()))?;
        Ok(self.status_of(config))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use memo_config::{CredentialStore, MemoHome, MemoryCredentialStore};

    use super::*;

    fn bridge(config: &str) -> (tempfile::TempDir, Bridge, Arc<MemoryCredentialStore>) {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("config.toml"), config).unwrap();
        let store = Arc::new(MemoryCredentialStore::new());
        let bridge = Bridge::new(Ok(MemoHome::at(home.path())), store.clone());
        (home, bridge, store)
    }

    const REMOTE: &str = "current_provider = \"remote\"\n[[providers.remote]]\nname = \"remote\"\nmodel = \"m\"\nbase_url = \"https://api.example.invalid/v1\"\nenv_api_key = \"MEMO_TEST_SURELY_UNSET_KEY_VAR\"\n[[providers.local]]\nname = \"local\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\nenv_api_key = \"MEMO_TEST_SURELY_UNSET_KEY_VAR\"\n";

    #[test]
    fn status_set_and_delete_go_through_the_keychain_without_returning_the_key() {
        let (_home, bridge, store) = bridge(REMOTE);
        let before = bridge.key_status("remote").unwrap();
        assert_eq!(before.source, None);
        assert!(before.required);
        assert!(!bridge.key_status("local").unwrap().required);

        let after = bridge.set_api_key("remote", "  sk-test-123  ").unwrap();
        assert_eq!(after.source.as_deref(), Some("OS keychain"));
        assert_eq!(
            store.get("remote").unwrap().map(|k| k.expose().to_owned()),
            Some("sk-test-123".to_owned())
        );
        assert!(!format!("{after:?}").contains("sk-test-123"));

        let removed = bridge.delete_api_key("remote").unwrap();
        assert_eq!(removed.source, None);
        assert!(store.get("remote").unwrap().is_none());
    }

    #[test]
    fn bad_keys_and_unknown_providers_are_refused_and_store_nothing() {
        let (_home, bridge, store) = bridge(REMOTE);
        for bad in ["", "   ", "sk with spaces", "line\nbreak"] {
            let error = bridge.set_api_key("remote", bad).unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidInput, "{bad:?}");
        }
        assert!(store.get("remote").unwrap().is_none());
        let unknown = bridge.set_api_key("nope", "sk-1").unwrap_err();
        assert_eq!(unknown.code, ErrorCode::NotFound);
        assert!(store.get("nope").unwrap().is_none());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_session_without_a_key_fails_with_missing_key_until_one_is_stored() {
        let (_home, bridge, _store) = bridge(REMOTE);
        let work = tempfile::tempdir().unwrap();
        let error = bridge
            .start_session(work.path().to_path_buf(), None, None)
            .unwrap_err();
        assert_eq!(error.code, ErrorCode::MissingKey);
        assert!(error.message.contains("remote"), "{}", error.message);
        bridge.set_api_key("remote", "sk-test-456").unwrap();
        bridge
            .start_session(work.path().to_path_buf(), None, None)
            .unwrap();
        bridge.shutdown().await;
    }
}
