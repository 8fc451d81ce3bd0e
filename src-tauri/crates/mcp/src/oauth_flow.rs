//! Logging in to an HTTP server with OAuth 2.1 as the MCP authorization spec describes:
//! find the authorization server (`oauth_discovery`), pick the client (configured,
//! a client ID metadata document, or registered dynamically), send the user's browser to
//! the authorization endpoint with a PKCE (S256) challenge and the scopes the server
//! asked for, take the code on a loopback redirect, and trade it for tokens,
//! authenticating as the server supports (`oauth_token`).

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use memo_config::CredentialStore;
use rand::distr::{Alphanumeric, SampleString};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use url::Url;

use crate::config::HttpConfig;
use crate::error::McpError;
use crate::oauth_callback::CallbackListener;
use crate::oauth_store::{now_secs, save_tokens, StoredTokens};
use crate::oauth_token::{token_request, ClientAuth, TokenAuthMethod};

pub use crate::oauth_discovery::{
    challenge_param, check_resource, discover, discover_with, select_scopes, AuthServerMetadata,
    Discovery,
};

/// A client registered with the authorization server (RFC 7591).
#[derive(Debug, Clone, PartialEq)]
pub struct Registration {
    pub client_id: String,
    pub client_secret: Option<String>,
    /// The token endpoint authentication the server assigned, if it said.
    pub token_endpoint_auth_method: Option<String>,
}

/// Registers this app as a public client (RFC 7591) for `redirect_uri`.
pub async fn register_client(
    http: &reqwest::Client,
    endpoint: &str,
    redirect_uri: &str,
) -> Result<Registration, McpError> {
    #[derive(Deserialize)]
    struct Registered {
        client_id: String,
        #[serde(default)]
        client_secret: Option<String>,
        #[serde(default)]
        token_endpoint_auth_method: Option<String>,
    }
    let response = http
        .post(endpoint)
        .json(&serde_json::json!({
            "client_name": "Memo Desktop",
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }))
        .send()
        .await?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        return Err(McpError::OAuth(format!(
            "client registration failed (HTTP {status}): {}",
            body.chars().take(300).collect::<String>()
        )));
    }
    let registered: Registered = response
        .json()
        .await
        .map_err(|e| McpError::OAuth(format!("unreadable registration response: {e}")))?;
    Ok(Registration {
        client_id: registered.client_id,
        client_secret: registered.client_secret,
        token_endpoint_auth_method: registered.token_endpoint_auth_method,
    })
}

/// A PKCE verifier and its S256 challenge.
pub fn pkce_pair() -> (String, String) {
    let verifier = Alphanumeric.sample_string(&mut rand::rng(), 64);
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// How the user's browser is sent to the authorization page. The CLI prints the URL and
/// tries `xdg-open`; tests follow it themselves.
pub type Opener<'a> = &'a (dyn Fn(&str) -> Result<(), String> + Send + Sync);

/// Opens `url` in the system browser: `browser` (the user's `$BROWSER`) when given,
/// else `xdg-open`. The error says which program could not be started.
pub fn open_in_browser(browser: Option<&str>, url: &str) -> Result<(), String> {
    let browser = browser.filter(|b| !b.is_empty()).unwrap_or("xdg-open");
    let mut command = std::process::Command::new(browser);
    for name in memo_child_env::internal() {
        command.env_remove(name);
    }
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("could not start {browser}: {e}"))
}

/// An [`Opener`] a session can keep.
pub type SharedOpener = Arc<dyn Fn(&str) -> Result<(), String> + Send + Sync>;

/// Lets a running session send the user to log in when a server asks for authorization
/// (no tokens yet, a refresh token refused, or more scope after a 403) instead of
/// reporting "needs login". Set on [`crate::McpOptions::login`]. A login while a server
/// starts counts against its startup timeout, so an embedder that waits for a person
/// should give HTTP servers a startup timeout as long as `timeout`.
#[derive(Clone)]
pub struct LoginHook {
    pub opener: SharedOpener,
    /// How long to wait for the user to finish in the browser.
    pub timeout: Duration,
}

pub struct LoginOptions {
    /// How long to wait for the user to finish in the browser.
    pub timeout: Duration,
    pub client_secret: Option<String>,
    /// The server's `WWW-Authenticate` that asked for this login, when there was one;
    /// otherwise the server is asked first.
    pub challenge: Option<String>,
    /// Scopes to ask for besides those the server names: the ones already held, when
    /// this login is a step-up to more scope.
    pub extra_scopes: Option<String>,
    /// The tokens this login replaces: their client is used again instead of
    /// registering a new one.
    pub previous: Option<StoredTokens>,
}

impl Default for LoginOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(300),
            client_secret: None,
            challenge: None,
            extra_scopes: None,
            previous: None,
        }
    }
}

/// Which client logs in: the configured one, a client ID metadata document (when the
/// authorization server accepts them), the one the replaced tokens used, or a new
/// registration.
async fn client_for(
    http: &reqwest::Client,
    cfg: &HttpConfig,
    discovery: &Discovery,
    options: &LoginOptions,
    redirect_uri: &str,
) -> Result<Registration, McpError> {
    if let Some(id) = &cfg.oauth.client_id {
        return Ok(Registration {
            client_id: id.clone(),
            client_secret: options.client_secret.clone(),
            token_endpoint_auth_method: None,
        });
    }
    let metadata = &discovery.metadata;
    if let Some(url) = &cfg.oauth.client_metadata_url {
        if metadata.client_id_metadata_document_supported {
            // The document's URL is the client ID; the document says it is a public
            // client, so there is no secret.
            return Ok(Registration {
                client_id: url.clone(),
                client_secret: None,
                token_endpoint_auth_method: Some("none".into()),
            });
        }
    }
    if let Some(previous) = &options.previous {
        // Its registration is for a redirect URI on another port, which loopback
        // redirects may change (RFC 8252 §7.3), so it can be used again.
        if previous.token_endpoint == metadata.token_endpoint {
            return Ok(Registration {
                client_id: previous.client_id.clone(),
                client_secret: previous.client_secret.clone(),
                token_endpoint_auth_method: previous.token_endpoint_auth_method.clone(),
            });
        }
    }
    let endpoint = metadata.registration_endpoint.as_deref().ok_or_else(|| {
        McpError::OAuth(
            "the authorization server offers no dynamic client registration; set oauth.client_id for this server".into(),
        )
    })?;
    register_client(http, endpoint, redirect_uri).await
}

/// The whole login; the tokens end up in `store` under the server's name.
pub async fn login(
    server: &str,
    cfg: &HttpConfig,
    store: &dyn CredentialStore,
    opener: Opener<'_>,
    options: LoginOptions,
) -> Result<StoredTokens, McpError> {
    let http = crate::http_client::client()?;
    let discovery = discover_with(&http, &cfg.url, options.challenge.as_deref()).await?;
    let listener = CallbackListener::bind(cfg.oauth.callback_port).await?;
    let redirect_uri = listener.redirect_uri();
    let client = client_for(&http, cfg, &discovery, &options, &redirect_uri).await?;
    let method = TokenAuthMethod::choose(
        client.client_secret.is_some(),
        client.token_endpoint_auth_method.as_deref(),
        discovery
            .metadata
            .token_endpoint_auth_methods_supported
            .as_deref(),
    );
    let (verifier, challenge) = pkce_pair();
    let state = Alphanumeric.sample_string(&mut rand::rng(), 32);
    let scopes = select_scopes(
        &cfg.oauth.scopes,
        &discovery,
        options.extra_scopes.as_deref(),
    );
    let mut authorize = Url::parse(&discovery.metadata.authorization_endpoint)
        .map_err(|e| McpError::OAuth(format!("bad authorization endpoint: {e}")))?;
    {
        let mut q = authorize.query_pairs_mut();
        q.append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", &redirect_uri)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", &state)
            .append_pair("resource", &cfg.url);
        if !scopes.is_empty() {
            q.append_pair("scope", &scopes.join(" "));
        }
    }
    opener(authorize.as_str()).map_err(McpError::OAuth)?;
    let callback = listener.wait(options.timeout).await?;
    if let Some(error) = callback.get("error") {
        let description = callback
            .get("error_description")
            .map(String::as_str)
            .unwrap_or("");
        return Err(McpError::OAuth(format!(
            "authorization was refused: {error} {description}"
        )));
    }
    if callback.get("state") != Some(&state) {
        return Err(McpError::OAuth(
            "the redirect carried the wrong state; the login was not completed".into(),
        ));
    }
    let code = callback
        .get("code")
        .ok_or_else(|| McpError::OAuth("the redirect carried no code".into()))?;
    let grant = [
        ("grant_type", "authorization_code".to_owned()),
        ("code", code.clone()),
        ("redirect_uri", redirect_uri.clone()),
        ("code_verifier", verifier),
        ("resource", cfg.url.clone()),
    ];
    let auth = ClientAuth {
        client_id: client.client_id.clone(),
        secret: client.client_secret.clone(),
        method,
        key: None,
    };
    let response = token_request(&http, &discovery.metadata.token_endpoint, &grant, &auth).await?;
    let tokens = StoredTokens {
        resource: cfg.url.clone(),
        access_token: response.access_token,
        refresh_token: response.refresh_token,
        expires_at: response.expires_in.map(|s| now_secs() + s),
        token_endpoint: discovery.metadata.token_endpoint.clone(),
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: response
            .scope
            .or_else(|| (!scopes.is_empty()).then(|| scopes.join(" "))),
        token_endpoint_auth_method: Some(method.name().to_owned()),
    };
    save_tokens(store, server, &tokens)?;
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_challenge_is_the_s256_of_the_verifier() {
        let (verifier, challenge) = pkce_pair();
        assert_eq!(verifier.len(), 64);
        let expected = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(Sha256::digest(verifier.as_bytes()));
        assert_eq!(challenge, expected);
        assert!(!challenge.contains('=') && !challenge.contains('+'));
    }
}
