//! Env values and header values kept in the OS keychain instead of config.toml.
//!
//! config.toml only names them (`keychain_env = ["API_KEY"]`, `keychain_headers =
//! ["Authorization"]`); the values live in the keychain, one entry per value, and are
//! filled in when the server starts. Names rather than a special string inside `env` keep
//! the file's types unchanged, so other tools reading the same config.toml (and older
//! Memo versions) still load it: they just see an unknown key.

use std::collections::BTreeMap;
use std::sync::Arc;

use memo_config::CredentialStore;
use memo_model::ApiKey;

use crate::config::{ServerConfig, TransportConfig};
use crate::error::McpError;

/// Which of a server's values a keychain entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    Env,
    Header,
}

impl SecretKind {
    fn label(self) -> &'static str {
        match self {
            SecretKind::Env => "env",
            SecretKind::Header => "header",
        }
    }
}

/// The keychain account of one value: `mcp-secret:<server>:env:<NAME>`.
pub fn account(server: &str, kind: SecretKind, name: &str) -> String {
    format!("mcp-secret:{server}:{}:{name}", kind.label())
}

pub fn save(
    store: &dyn CredentialStore,
    server: &str,
    kind: SecretKind,
    name: &str,
    value: &str,
) -> Result<(), McpError> {
    let secret = ApiKey::new(value);
    // Masked in every log line from now on, like API keys.
    memo_config::register_secret(&secret);
    store.set(&account(server, kind, name), &secret)?;
    Ok(())
}

/// Forgets one value; a missing entry is fine.
pub fn delete(
    store: &dyn CredentialStore,
    server: &str,
    kind: SecretKind,
    name: &str,
) -> Result<(), McpError> {
    store.delete(&account(server, kind, name))?;
    Ok(())
}

/// Whether the keychain holds the value (`false` when it cannot be asked).
pub fn exists(store: &dyn CredentialStore, server: &str, kind: SecretKind, name: &str) -> bool {
    matches!(store.get(&account(server, kind, name)), Ok(Some(_)))
}

/// A copy of `config` with its keychain values filled into `env` / `headers`. A value
/// that is missing fails the start with a message saying where to enter it again, rather
/// than starting the server without its key.
pub async fn resolve(
    config: &ServerConfig,
    store: Option<&Arc<dyn CredentialStore>>,
) -> Result<ServerConfig, McpError> {
    let mut config = config.clone();
    if !config.has_secrets() {
        return Ok(config);
    }
    let Some(store) = store.cloned() else {
        return Err(McpError::Config(format!(
            "\"{}\" keeps values in the OS keychain, which this process cannot read",
            config.name
        )));
    };
    let server = config.name.clone();
    let (kind, names) = match &config.transport {
        TransportConfig::Stdio(s) => (SecretKind::Env, s.secret_env.clone()),
        TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => {
            (SecretKind::Header, h.secret_headers.clone())
        }
    };
    // Keychain calls block (D-Bus, the macOS security daemon).
    let values = tokio::task::spawn_blocking(move || -> Result<_, McpError> {
        let mut out = BTreeMap::new();
        for name in names {
            match store.get(&account(&server, kind, &name))? {
                Some(value) => {
                    out.insert(name, value.expose().to_owned());
                }
                None => {
                    return Err(McpError::Config(format!(
                        "the {} value {name} of \"{server}\" is not in the OS keychain; enter it again in Settings → MCP",
                        kind.label()
                    )))
                }
            }
        }
        Ok(out)
    })
    .await
    .map_err(|e| McpError::Config(format!("keychain lookup failed: {e}")))??;
    match &mut config.transport {
        TransportConfig::Stdio(s) => s.env.extend(values),
        TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => h.headers.extend(values),
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_config::MemoryCredentialStore;

    #[tokio::test]
    async fn values_come_from_the_keychain_and_a_missing_one_says_where_to_enter_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[mcp_servers.s]\ncommand = \"x\"\nenv = { LOG = \"1\" }\nkeychain_env = [\"API_KEY\"]\n",
        )
        .unwrap();
        let config = memo_config::Config::load_file(&path).unwrap();
        let set = crate::load_config(&config, None, &|_: &str| None);
        assert!(set.problems.is_empty(), "{:?}", set.problems);
        let server = &set.servers[0];
        let store: Arc<dyn CredentialStore> = Arc::new(MemoryCredentialStore::new());
        let err = resolve(server, Some(&store)).await.unwrap_err();
        assert!(err.to_string().contains("Settings → MCP"), "{err}");
        save(store.as_ref(), "s", SecretKind::Env, "API_KEY", "sk-1").unwrap();
        let resolved = resolve(server, Some(&store)).await.unwrap();
        let TransportConfig::Stdio(s) = &resolved.transport else {
            panic!()
        };
        assert_eq!(s.env["API_KEY"], "sk-1");
        assert_eq!(s.env["LOG"], "1");
    }
}
