//! Memo home, config and keys.
//!
//! Memo Desktop shares its home (`$MEMO_HOME` or `~/.memo`) and `config.toml` with Memo
//! Code, so a user of both configures providers once. API keys live in the OS keychain or
//! in environment variables, never in the config file; see [`resolve_api_key`].
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod config;
pub mod edit;
mod error;
mod external_agents;
mod home;
mod json_file;
mod keys;
mod profiles;
pub mod redact;
mod rules;
mod source;
mod trust;
mod values;

pub use config::{
    vision_by_default, CheckpointSettings, Config, ModelPricing, ModelProfile, ProviderConfig,
    DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT, DEFAULT_CONTEXT_WINDOW,
};
pub use edit::{ConfigFile, ModelProfileEdit, ProviderEdit, Revision};
pub use error::ConfigError;
pub use external_agents::{
    external_agent_secret_key, valid_external_agent_name, ExternalAgentConfig, EXTERNAL_AGENTS,
};
pub use home::{MemoHome, MEMO_HOME_ENV};
pub use keys::{
    fallback_env_vars, process_env, resolve_api_key, CredentialStore, KeyError, KeySource,
    KeyringStore, MemoryCredentialStore, UnavailableCredentialStore, KEYRING_SERVICE,
};
pub use profiles::{ModelProfileOverride, MAX_TEMPERATURE};
pub use redact::{init_tracing, register_secret};
pub use rules::{ApprovalRule, NewRule, RuleDecision, RuleKind, RuleStore};
pub use trust::{TrustRecord, TrustStatus, TrustStore};
