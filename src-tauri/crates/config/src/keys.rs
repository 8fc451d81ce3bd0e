//! API keys: the OS keychain first, then environment variables as Memo Code reads them.
//!
//! Keys are never written to config.toml, the database or logs. Everything that hands out
//! a key registers it with [`crate::redact`] so log output cannot show it.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use memo_model::{ApiKey, WireApi};

use crate::config::ProviderConfig;
use crate::redact::register_secret;

/// The keychain service name; the account (user) is the provider name.
pub const KEYRING_SERVICE: &str = "memo-desktop";

/// Keychain failures. None of them carries the secret.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("the OS keychain is not available: {0}")]
    Unavailable(String),
    #[error("the OS keychain refused access (is it locked?): {0}")]
    NoAccess(String),
    #[error("the keychain entry for provider {provider:?} is not valid UTF-8 text")]
    BadEncoding { provider: String },
    #[error("cannot store a key for provider {provider:?}: {message}")]
    Invalid { provider: String, message: String },
    #[error("several keychain entries match provider {provider:?}; remove the duplicates")]
    Ambiguous { provider: String },
    #[error("keychain error for provider {provider:?}: {message}")]
    Other { provider: String, message: String },
}

/// Where API keys are kept. `provider` is the provider's `name` from config.toml.
pub trait CredentialStore: Send + Sync {
    /// The stored key, or `None` when there is none.
    fn get(&self, provider: &str) -> Result<Option<ApiKey>, KeyError>;
    fn set(&self, provider: &str, key: &ApiKey) -> Result<(), KeyError>;
    /// Removes the key; returns whether there was one.
    fn delete(&self, provider: &str) -> Result<bool, KeyError>;
}

/// The OS keychain via the `keyring` crate (Secret Service on Linux).
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    /// The store under [`KEYRING_SERVICE`].
    pub fn new() -> Result<KeyringStore, KeyError> {
        Self::with_service(KEYRING_SERVICE)
    }

    /// A store under another service name (tests use one so they never touch real keys).
    pub fn with_service(service: impl Into<String>) -> Result<KeyringStore, KeyError> {
        use keyring::credential::CredentialPersistence;
        // Without a platform backend compiled in, keyring silently falls back to an
        // in-memory mock: keys would "save" and then vanish on restart. Refuse instead.
        match keyring::default::default_credential_builder().persistence() {
            CredentialPersistence::EntryOnly | CredentialPersistence::ProcessOnly => {
                Err(KeyError::Unavailable(
                    "this build has no OS keychain backend for this platform".to_owned(),
                ))
            }
            _ => Ok(KeyringStore {
                service: service.into(),
            }),
        }
    }

    fn entry(&self, provider: &str) -> Result<keyring::Entry, KeyError> {
        if provider.is_empty() {
            return Err(KeyError::Invalid {
                provider: provider.to_owned(),
                message: "the provider name is empty".to_owned(),
            });
        }
        keyring::Entry::new(&self.service, provider).map_err(|e| map_keyring_error(provider, e))
    }
}

impl CredentialStore for KeyringStore {
    fn get(&self, provider: &str) -> Result<Option<ApiKey>, KeyError> {
        match self.entry(provider)?.get_password() {
            Ok(secret) => {
                let key = ApiKey::new(secret);
                register_secret(&key);
                Ok(Some(key))
            }
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(map_keyring_error(provider, e)),
        }
    }

    fn set(&self, provider: &str, key: &ApiKey) -> Result<(), KeyError> {
        if key.expose().trim().is_empty() {
            return Err(KeyError::Invalid {
                provider: provider.to_owned(),
                message: "the key is empty".to_owned(),
            });
        }
        register_secret(key);
        self.entry(provider)?
            .set_password(key.expose())
            .map_err(|e| map_keyring_error(provider, e))
    }

    fn delete(&self, provider: &str) -> Result<bool, KeyError> {
        match self.entry(provider)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(map_keyring_error(provider, e)),
        }
    }
}

/// Maps keyring errors without their payloads: `BadEncoding` carries the raw secret bytes
/// and `Ambiguous` carries credentials, neither of which may reach a message.
fn map_keyring_error(provider: &str, e: keyring::Error) -> KeyError {
    let provider = provider.to_owned();
    match e {
        keyring::Error::PlatformFailure(inner) => KeyError::Unavailable(inner.to_string()),
        keyring::Error::NoStorageAccess(inner) => KeyError::NoAccess(inner.to_string()),
        keyring::Error::BadEncoding(_) => KeyError::BadEncoding { provider },
        keyring::Error::TooLong(attr, limit) => KeyError::Invalid {
            provider,
            message: format!("{attr} is longer than the keychain allows ({limit})"),
        },
        keyring::Error::Invalid(attr, reason) => KeyError::Invalid {
            provider,
            message: format!("{attr}: {reason}"),
        },
        keyring::Error::Ambiguous(_) => KeyError::Ambiguous { provider },
        keyring::Error::NoEntry => KeyError::Other {
            provider,
            message: "no entry".to_owned(),
        },
        // keyring's error enum is non-exhaustive; its Display of future variants is not
        // known to be secret-free, so do not forward it.
        _ => KeyError::Other {
            provider,
            message: "unexpected keychain error".to_owned(),
        },
    }
}

/// An in-memory store for unit tests.
#[derive(Debug, Default)]
pub struct MemoryCredentialStore {
    keys: Mutex<HashMap<String, ApiKey>>,
}

impl MemoryCredentialStore {
    pub fn new() -> Self {
        Self::default()
    }
}

impl CredentialStore for MemoryCredentialStore {
    fn get(&self, provider: &str) -> Result<Option<ApiKey>, KeyError> {
        let keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(keys.get(provider).cloned())
    }

    fn set(&self, provider: &str, key: &ApiKey) -> Result<(), KeyError> {
        let mut keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        keys.insert(provider.to_owned(), key.clone());
        Ok(())
    }

    fn delete(&self, provider: &str) -> Result<bool, KeyError> {
        let mut keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(keys.remove(provider).is_some())
    }
}

/// Stands in for a keychain that this system does not have (no Secret Service, a bare
/// window manager, a headless box): nothing is stored, and storing says why, so a key is
/// never kept in memory only to vanish on restart. Keys then come from the environment.
#[derive(Debug, Clone)]
pub struct UnavailableCredentialStore {
    reason: String,
}

impl UnavailableCredentialStore {
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
        }
    }

    fn error(&self) -> KeyError {
        KeyError::Unavailable(format!(
            "{}; set the provider's environment variable (env_api_key) instead",
            self.reason
        ))
    }
}

impl CredentialStore for UnavailableCredentialStore {
    fn get(&self, _provider: &str) -> Result<Option<ApiKey>, KeyError> {
        Ok(None)
    }

    fn set(&self, _provider: &str, _key: &ApiKey) -> Result<(), KeyError> {
        Err(self.error())
    }

    fn delete(&self, _provider: &str) -> Result<bool, KeyError> {
        Ok(false)
    }
}

/// Where a resolved key came from (shown in the UI's provider settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Keychain,
    /// The environment variable it was read from.
    Env {
        var: String,
    },
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySource::Keychain => f.write_str("OS keychain"),
            KeySource::Env { var } => write!(f, "environment variable {var}"),
        }
    }
}

/// The environment variables consulted after `env_api_key`, per wire API.
///
/// For OpenAI-compatible providers these are Memo Code's fallbacks. Other APIs get their
/// vendor's conventional variable only: sending an OpenAI or DeepSeek key to another
/// vendor would hand a secret to a third party.
pub fn fallback_env_vars(api: WireApi) -> &'static [&'static str] {
    match api {
        WireApi::Openai => &["OPENAI_API_KEY", "DEEPSEEK_API_KEY"],
        WireApi::Anthropic => &["ANTHROPIC_API_KEY"],
        WireApi::Gemini => &["GEMINI_API_KEY"],
    }
}

/// Reads the process environment; pass as `env` to [`resolve_api_key`].
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Finds the key for `provider`: the keychain entry, else the variable named by
/// `env_api_key`, else [`fallback_env_vars`]. Empty values count as absent.
///
/// A keychain failure (locked, no Secret Service, ...) does not stop the search: it is
/// logged and the environment is tried. Only when no variable has a key either is the
/// keychain error returned, since it is then the likely reason for the missing key.
/// `Ok(None)` means there is no key anywhere.
pub fn resolve_api_key(
    provider: &ProviderConfig,
    store: &dyn CredentialStore,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<(ApiKey, KeySource)>, KeyError> {
    let keychain_error = match store.get(&provider.name) {
        Ok(Some(key)) if !key.expose().trim().is_empty() => {
            register_secret(&key);
            return Ok(Some((key, KeySource::Keychain)));
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(
                provider = %provider.name,
                error = %e,
                "cannot read the API key from the OS keychain; trying environment variables"
            );
            Some(e)
        }
    };

    let vars = provider
        .env_api_key
        .as_deref()
        .into_iter()
        .chain(fallback_env_vars(provider.api).iter().copied());
    for var in vars {
        if let Some(value) = env(var) {
            // Shell exports and .env files often carry a trailing newline or spaces.
            let value = value.trim();
            if !value.is_empty() {
                let key = ApiKey::new(value);
                register_secret(&key);
                return Ok(Some((
                    key,
                    KeySource::Env {
                        var: var.to_owned(),
                    },
                )));
            }
        }
    }
    match keychain_error {
        Some(e) => Err(e),
        None => Ok(None),
    }
}
