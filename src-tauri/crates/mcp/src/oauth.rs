//! OAuth tokens for HTTP servers: kept in the OS keychain (one JSON entry per server),
//! refreshed shortly before they expire or when the server rejects them. The login flow
//! itself (discovery, registration, PKCE, loopback redirect) is in `oauth_flow`.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use memo_config::{ApiKey, CredentialStore};
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
    fn expiring(&self, now: u64) -> bool {
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

/// A server's current access token, refreshed as needed and written back.
pub struct TokenSource {
    server: String,
    store: Arc<dyn CredentialStore>,
    http: reqwest::Client,
    tokens: tokio::sync::Mutex<StoredTokens>,
}

impl TokenSource {
    /// The stored tokens of `server` if they were issued for `url`.
    pub fn load(
        server: &str,
        url: &str,
        store: Arc<dyn CredentialStore>,
        http: reqwest::Client,
    ) -> Result<Option<TokenSource>, McpError> {
        let Some(tokens) = load_tokens(store.as_ref(), server)? else {
            return Ok(None);
        };
        if tokens.resource != url {
            tracing::info!(
                server,
                "stored OAuth tokens are for another URL; ignoring them"
            );
            return Ok(None);
        }
        Ok(Some(TokenSource {
            server: server.to_owned(),
            store,
            http,
            tokens: tokio::sync::Mutex::new(tokens),
        }))
    }

    pub async fn access_token(&self) -> Result<String, McpError> {
        let mut tokens = self.tokens.lock().await;
        if tokens.expiring(now_secs()) && tokens.refresh_token.is_some() {
            self.refresh(&mut tokens).await?;
        }
        Ok(tokens.access_token.clone())
    }

    /// After a 401: if someone already refreshed past `rejected`, use theirs; else refresh.
    pub async fn refresh_after_rejection(
        &self,
        rejected: Option<&str>,
    ) -> Result<String, McpError> {
        let mut tokens = self.tokens.lock().await;
        if rejected.is_some_and(|r| r != tokens.access_token) {
            return Ok(tokens.access_token.clone());
        }
        self.refresh(&mut tokens).await?;
        Ok(tokens.access_token.clone())
    }

    async fn refresh(&self, tokens: &mut StoredTokens) -> Result<(), McpError> {
        let Some(refresh_token) = tokens.refresh_token.clone() else {
            return Err(McpError::AuthRequired {
                server: self.server.clone(),
            });
        };
        let mut form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token),
            ("client_id", tokens.client_id.clone()),
            ("resource", tokens.resource.clone()),
        ];
        if let Some(secret) = &tokens.client_secret {
            form.push(("client_secret", secret.clone()));
        }
        let response = token_request(&self.http, &tokens.token_endpoint, &form)
            .await
            .map_err(|e| match e {
                // A refresh token the server no longer accepts means logging in again.
                McpError::OAuth(m) if m.contains("invalid_grant") => McpError::AuthRequired {
                    server: self.server.clone(),
                },
                other => other,
            })?;
        tokens.access_token = response.access_token;
        if response.refresh_token.is_some() {
            tokens.refresh_token = response.refresh_token;
        }
        tokens.expires_at = response.expires_in.map(|s| now_secs() + s);
        if response.scope.is_some() {
            tokens.scope = response.scope;
        }
        save_tokens(self.store.as_ref(), &self.server, tokens)?;
        tracing::info!(server = %self.server, "refreshed the OAuth access token");
        Ok(())
    }
}

#[derive(Deserialize)]
pub(crate) struct TokenResponse {
    pub access_token: String,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub expires_in: Option<u64>,
    #[serde(default)]
    pub scope: Option<String>,
}

/// POSTs a form to a token endpoint; an OAuth error response becomes its `error` code
/// and description.
pub(crate) async fn token_request(
    http: &reqwest::Client,
    endpoint: &str,
    form: &[(&str, String)],
) -> Result<TokenResponse, McpError> {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().map(|(k, v)| (*k, v.as_str())))
        .finish();
    let response = http
        .post(endpoint)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(body)
        .send()
        .await?;
    let status = response.status();
    let text = response.text().await?;
    if !status.is_success() {
        let detail: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let code = detail["error"].as_str().unwrap_or("error");
        let description = detail["error_description"].as_str().unwrap_or("");
        return Err(McpError::OAuth(format!(
            "token endpoint answered {status}: {code} {description}"
        )));
    }
    serde_json::from_str(&text)
        .map_err(|e| McpError::OAuth(format!("unreadable token response: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_config::MemoryCredentialStore;

    fn tokens(resource: &str) -> StoredTokens {
        StoredTokens {
            resource: resource.into(),
            access_token: "at".into(),
            refresh_token: Some("rt".into()),
            expires_at: Some(now_secs() + 3600),
            token_endpoint: "http://127.0.0.1:1/token".into(),
            client_id: "c".into(),
            client_secret: None,
            scope: None,
        }
    }

    #[tokio::test]
    async fn tokens_round_trip_through_the_store_and_are_bound_to_the_url() {
        let store: Arc<dyn CredentialStore> = Arc::new(MemoryCredentialStore::default());
        save_tokens(store.as_ref(), "srv", &tokens("http://a/mcp")).unwrap();
        assert_eq!(
            load_tokens(store.as_ref(), "srv").unwrap(),
            Some(tokens("http://a/mcp"))
        );
        let http = crate::http::client().unwrap();
        assert!(
            TokenSource::load("srv", "http://b/mcp", store.clone(), http.clone())
                .unwrap()
                .is_none()
        );
        let source = TokenSource::load("srv", "http://a/mcp", store.clone(), http)
            .unwrap()
            .unwrap();
        assert_eq!(source.access_token().await.unwrap(), "at");
        assert!(delete_tokens(store.as_ref(), "srv").unwrap());
        assert!(!delete_tokens(store.as_ref(), "srv").unwrap());
    }

    #[test]
    fn debug_output_never_shows_tokens() {
        let shown = format!("{:?}", tokens("http://a"));
        assert!(
            !shown.contains("\"at\"") && !shown.contains("rt"),
            "{shown}"
        );
    }
}
