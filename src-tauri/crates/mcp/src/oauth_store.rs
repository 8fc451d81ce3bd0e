//! OAuth tokens in the OS keychain: one JSON entry per server, what a login leaves and
//! a refresh replaces. Read by the token source (`oauth`), written by the login flow
//! (`oauth_flow`) and the token endpoint's answers (`oauth_token`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use memo_config::CredentialStore;
use memo_model::ApiKey;
use serde::{Deserialize, Serialize};

use crate::error::McpError;

/// Refresh this long before the token's stated expiry, so a request never races it.
const EXPIRY_SKEW: Duration = Duration::from_secs(60);

/// What one successful login leaves in the keychain.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredTokens {
    /// The MCP server URL these tokens were issued for; a changed URL needs a new login.
    pub resource: String,
    pub access_token: String,
    #[serde(default)]
    pub refresh_token: Option<String>,
    /// Unix seconds.
    #[serde(default)]
    pub expires_at: Option<u64>,
    pub token_endpoint: String,
    pub client_id: String,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
    /// How the client authenticates at the token endpoint (RFC 8414 name); absent in
    /// entries written before it was recorded.
    #[serde(default)]
    pub token_endpoint_auth_method: Option<String>,
}

impl std::fmt::Debug for StoredTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredTokens")
            .field("resource", &self.resource)
            .field("expires_at", &self.expires_at)
            .field("has_refresh_token", &self.refresh_token.is_some())
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl StoredTokens {
    pub(crate) fn expiring(&self, now: u64) -> bool {
        self.expires_at
            .is_some_and(|at| now + EXPIRY_SKEW.as_secs() >= at)
    }
}

/// The keychain account of a server's tokens.
pub fn keychain_account(server: &str) -> String {
    format!("mcp-oauth:{server}")
}

pub fn load_tokens(
    store: &dyn CredentialStore,
    server: &str,
) -> Result<Option<StoredTokens>, McpError> {
    let Some(secret) = store.get(&keychain_account(server))? else {
        return Ok(None);
    };
    match serde_json::from_str(secret.expose()) {
        Ok(tokens) => Ok(Some(tokens)),
        Err(e) => {
            tracing::warn!(server, error = %e, "unreadable OAuth entry in the keychain; ignoring it");
            Ok(None)
        }
    }
}

pub fn save_tokens(
    store: &dyn CredentialStore,
    server: &str,
    tokens: &StoredTokens,
) -> Result<(), McpError> {
    let json = serde_json::to_string(tokens).map_err(|e| McpError::OAuth(e.to_string()))?;
    store.set(&keychain_account(server), &ApiKey::new(json))?;
    Ok(())
}

/// Removes a server's tokens; returns whether there were any.
pub fn delete_tokens(store: &dyn CredentialStore, server: &str) -> Result<bool, McpError> {
    Ok(store.delete(&keychain_account(server))?)
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
