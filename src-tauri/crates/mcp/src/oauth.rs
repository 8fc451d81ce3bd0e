//! OAuth tokens for HTTP servers: kept in the OS keychain (one JSON entry per server),
//! refreshed shortly before they expire or when the server rejects them, and renewed
//! when refreshing cannot help: by a new login in the session when the embedder allows
//! one (also for step-up to more scope after a 403), or with the client's credentials.
//! The login flow itself (discovery, registration, PKCE, loopback redirect) is in
//! `oauth_flow`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use memo_config::{CredentialStore, MemoryCredentialStore};

use crate::config::HttpConfig;
use crate::error::McpError;
use crate::oauth_discovery::challenge_param;
use crate::oauth_flow::{LoginHook, LoginOptions};
use crate::oauth_token::{
    client_credentials, token_request, ClientAuth, MachineClient, TokenAuthMethod,
};

use crate::oauth_store::now_secs;
pub use crate::oauth_store::{
    delete_tokens, keychain_account, load_tokens, save_tokens, StoredTokens,
};

/// At most this many logins in one connection: a server that keeps refusing what it
/// asked for must not send the user to the browser forever.
const MAX_LOGINS: u32 = 3;

/// What a [`TokenSource`] does when the server refuses its token and refreshing cannot
/// help (no refresh token, the refresh token was refused, or more scope is needed).
#[derive(Clone)]
pub enum Renewal {
    /// Nothing: the server then "needs login" (`memo-cli mcp login`, the app's Log in).
    Manual,
    /// Sends the user to log in again in the middle of the session, with the scope the
    /// server asked for (step-up); at most three times per connection.
    /// Boxed: a server config is much larger than the other variants.
    Interactive(Box<InteractiveLogin>),
    /// Asks for a new token with the client's own credentials.
    ClientCredentials(MachineClient),
}

/// An in-session login: the server's config, and how to show the user the login page.
#[derive(Clone)]
pub struct InteractiveLogin {
    pub config: HttpConfig,
    pub client_secret: Option<String>,
    pub hook: LoginHook,
}

/// A server's current access token, refreshed as needed and written back.
pub struct TokenSource {
    server: String,
    url: String,
    store: Option<Arc<dyn CredentialStore>>,
    http: reqwest::Client,
    tokens: tokio::sync::Mutex<Option<StoredTokens>>,
    renewal: Renewal,
    logins: AtomicU32,
}

impl TokenSource {
    /// The stored tokens of `server` if they were issued for `url`.
    pub fn load(
        server: &str,
        url: &str,
        store: Arc<dyn CredentialStore>,
        http: reqwest::Client,
    ) -> Result<Option<TokenSource>, McpError> {
        let Some(tokens) = stored_for(store.as_ref(), server, url)? else {
            return Ok(None);
        };
        Ok(Some(TokenSource::new(
            server,
            url,
            Some(store),
            http,
            Some(tokens),
            Renewal::Manual,
        )))
    }

    /// A source that may start without tokens and get them by `renewal` when the server
    /// first asks.
    pub fn new(
        server: &str,
        url: &str,
        store: Option<Arc<dyn CredentialStore>>,
        http: reqwest::Client,
        tokens: Option<StoredTokens>,
        renewal: Renewal,
    ) -> TokenSource {
        TokenSource {
            server: server.to_owned(),
            url: url.to_owned(),
            store,
            http,
            tokens: tokio::sync::Mutex::new(tokens),
            renewal,
            logins: AtomicU32::new(0),
        }
    }

    /// The token to send, refreshed first if it is about to expire.
    pub async fn access_token(&self) -> Result<String, McpError> {
        self.current().await.ok_or_else(|| McpError::AuthRequired {
            server: self.server.clone(),
        })
    }

    /// The token to send, if there is one yet.
    pub async fn current(&self) -> Option<String> {
        let mut guard = self.tokens.lock().await;
        let tokens = guard.as_mut()?;
        if tokens.expiring(now_secs()) && tokens.refresh_token.is_some() {
            if let Err(e) = self.refresh(tokens).await {
                // The server will refuse the old token; `after_rejection` tries again.
                tracing::warn!(server = %self.server, error = %e, "refreshing the OAuth token failed");
            }
        }
        Some(tokens.access_token.clone())
    }

    /// After a 401: if someone already refreshed past `rejected`, use theirs; else refresh.
    pub async fn refresh_after_rejection(
        &self,
        rejected: Option<&str>,
    ) -> Result<String, McpError> {
        self.after_rejection(rejected, None).await
    }

    /// The server answered 401 to `rejected` (with `challenge`, its `WWW-Authenticate`):
    /// a newer token someone else already got, else a refreshed one, else one from the
    /// source's [`Renewal`].
    pub async fn after_rejection(
        &self,
        rejected: Option<&str>,
        challenge: Option<&str>,
    ) -> Result<String, McpError> {
        let mut guard = self.tokens.lock().await;
        if let Some(tokens) = guard.as_mut() {
            if rejected.is_some_and(|r| r != tokens.access_token) {
                return Ok(tokens.access_token.clone());
            }
            if tokens.refresh_token.is_some() {
                match self.refresh(tokens).await {
                    Ok(()) => return Ok(tokens.access_token.clone()),
                    Err(e) => tracing::info!(server = %self.server, error = %e, "refresh refused"),
                }
            }
        }
        let fresh = self.renew(challenge, None, guard.as_ref()).await?;
        let token = fresh.access_token.clone();
        *guard = Some(fresh);
        Ok(token)
    }

    /// The server answered 403 `insufficient_scope`: a token with the scopes held so far
    /// plus those the challenge names (step-up), unless the token already has them all
    /// (then asking again cannot help).
    pub async fn after_insufficient_scope(&self, challenge: &str) -> Result<String, McpError> {
        let needed = challenge_param(challenge, "scope").unwrap_or_default();
        let mut guard = self.tokens.lock().await;
        let held = guard
            .as_ref()
            .and_then(|t| t.scope.clone())
            .unwrap_or_default();
        let missing: Vec<&str> = needed
            .split_whitespace()
            .filter(|s| !held.split_whitespace().any(|h| h == *s))
            .collect();
        if missing.is_empty() {
            return Err(McpError::OAuth(format!(
                "the server refuses the token for lack of scope \"{needed}\", which it already has"
            )));
        }
        tracing::info!(server = %self.server, missing = %missing.join(" "), "the server asks for more scope");
        let fresh = self
            .renew(Some(challenge), Some(&held), guard.as_ref())
            .await?;
        let token = fresh.access_token.clone();
        *guard = Some(fresh);
        Ok(token)
    }

    async fn renew(
        &self,
        challenge: Option<&str>,
        held_scope: Option<&str>,
        previous: Option<&StoredTokens>,
    ) -> Result<StoredTokens, McpError> {
        match &self.renewal {
            Renewal::Manual => Err(McpError::AuthRequired {
                server: self.server.clone(),
            }),
            Renewal::Interactive(login) => {
                if self.logins.fetch_add(1, Ordering::SeqCst) >= MAX_LOGINS {
                    return Err(McpError::OAuth(format!(
                        "the server still refuses access after {MAX_LOGINS} logins; giving up"
                    )));
                }
                let options = LoginOptions {
                    timeout: login.hook.timeout,
                    client_secret: login.client_secret.clone(),
                    challenge: challenge.map(str::to_owned),
                    extra_scopes: held_scope.map(str::to_owned),
                    previous: previous.cloned(),
                };
                let memory;
                let store: &dyn CredentialStore = match &self.store {
                    Some(store) => store.as_ref(),
                    None => {
                        memory = MemoryCredentialStore::new();
                        &memory
                    }
                };
                let opener = login.hook.opener.as_ref();
                crate::oauth_flow::login(&self.server, &login.config, store, opener, options).await
            }
            Renewal::ClientCredentials(client) => {
                client_credentials(&self.http, &self.url, client, challenge, held_scope).await
            }
        }
    }

    fn client_auth(&self, tokens: &StoredTokens) -> ClientAuth {
        let method = tokens
            .token_endpoint_auth_method
            .as_deref()
            .and_then(TokenAuthMethod::parse)
            // Tokens stored before the method was recorded sent the secret in the form.
            .unwrap_or(match tokens.client_secret {
                Some(_) => TokenAuthMethod::ClientSecretPost,
                None => TokenAuthMethod::None,
            });
        let key = match &self.renewal {
            Renewal::ClientCredentials(client) => client
                .key
                .clone()
                .map(|k| (k, tokens.token_endpoint.clone())),
            _ => None,
        };
        ClientAuth {
            client_id: tokens.client_id.clone(),
            secret: tokens.client_secret.clone(),
            method,
            key,
        }
    }

    async fn refresh(&self, tokens: &mut StoredTokens) -> Result<(), McpError> {
        let Some(refresh_token) = tokens.refresh_token.clone() else {
            return Err(McpError::AuthRequired {
                server: self.server.clone(),
            });
        };
        let form = [
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token),
            ("resource", tokens.resource.clone()),
        ];
        let client = self.client_auth(tokens);
        let response = token_request(&self.http, &tokens.token_endpoint, &form, &client)
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
        if let Some(store) = &self.store {
            save_tokens(store.as_ref(), &self.server, tokens)?;
        }
        tracing::info!(server = %self.server, "refreshed the OAuth access token");
        Ok(())
    }
}

/// The stored tokens of `server` if they were issued for `url`.
pub(crate) fn stored_for(
    store: &dyn CredentialStore,
    server: &str,
    url: &str,
) -> Result<Option<StoredTokens>, McpError> {
    let Some(tokens) = load_tokens(store, server)? else {
        return Ok(None);
    };
    if tokens.resource != url {
        tracing::info!(
            server,
            "stored OAuth tokens are for another URL; ignoring them"
        );
        return Ok(None);
    }
    Ok(Some(tokens))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            token_endpoint_auth_method: None,
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

    #[tokio::test]
    async fn step_up_is_refused_when_the_token_already_has_the_scope() {
        let mut held = tokens("http://a/mcp");
        held.scope = Some("a b".into());
        let http = crate::http::client().unwrap();
        let source = TokenSource::new(
            "srv",
            "http://a/mcp",
            None,
            http,
            Some(held),
            Renewal::Manual,
        );
        // The server refuses a token that has what it asks for: asking again cannot help.
        let err = source
            .after_insufficient_scope(r#"Bearer error="insufficient_scope", scope="a""#)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("already has"), "{err}");
        // More scope is needed, but nobody may send the user to log in: "needs login".
        let err = source
            .after_insufficient_scope(r#"Bearer error="insufficient_scope", scope="a c""#)
            .await
            .unwrap_err();
        assert!(matches!(err, McpError::AuthRequired { .. }), "{err}");
        assert_eq!(source.current().await.as_deref(), Some("at"));
    }
}
