//! Logging in to an HTTP server with OAuth 2.1 as the MCP authorization spec describes:
//! find the authorization server (protected-resource metadata from the 401 challenge or
//! the well-known URL, then the server's own metadata), register a client dynamically
//! when none is configured, send the user's browser to the authorization endpoint with a
//! PKCE (S256) challenge, take the code on a loopback redirect, and trade it for tokens.

use std::time::Duration;

use base64::Engine as _;
use memo_config::CredentialStore;
use rand::distr::{Alphanumeric, SampleString};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use url::Url;

use crate::config::HttpConfig;
use crate::error::McpError;
use crate::oauth::{now_secs, save_tokens, token_request, StoredTokens};
use crate::oauth_callback::CallbackListener;

/// The authorization server's endpoints.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AuthServerMetadata {
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
struct ResourceMetadata {
    #[serde(default)]
    authorization_servers: Vec<String>,
    #[serde(default)]
    scopes_supported: Option<Vec<String>>,
}

/// Where to authorize, and which scopes the resource suggests.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    pub metadata: AuthServerMetadata,
    pub resource_scopes: Option<Vec<String>>,
}

/// Asks the server unauthenticated; a 401 names its resource metadata. Errors when the
/// server does not ask for authorization at all.
pub async fn discover(http: &reqwest::Client, server_url: &str) -> Result<Discovery, McpError> {
    let url = Url::parse(server_url).map_err(|e| McpError::OAuth(format!("bad URL: {e}")))?;
    // A streamable HTTP endpoint refuses the POST, a legacy SSE one the GET.
    let mut challenge = None;
    let mut last_status = None;
    for post in [true, false] {
        let request = if post {
            http.post(url.clone())
                .header("content-type", "application/json")
                .body(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#)
        } else {
            http.get(url.clone())
        };
        let probe = request
            .header("accept", "application/json, text/event-stream")
            .send()
            .await?;
        last_status = Some(probe.status());
        if probe.status() == reqwest::StatusCode::UNAUTHORIZED {
            challenge = Some(
                probe
                    .headers()
                    .get("www-authenticate")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned(),
            );
            break;
        }
    }
    let Some(challenge) = challenge else {
        return Err(McpError::OAuth(format!(
            "{server_url} did not ask for authorization (HTTP {})",
            last_status.map(|s| s.to_string()).unwrap_or_default()
        )));
    };
    let mut candidates = Vec::new();
    if let Some(meta) = challenge_param(&challenge, "resource_metadata") {
        candidates.push(meta);
    }
    candidates.extend(well_known(&url, "oauth-protected-resource", true));
    let mut resource = None;
    for candidate in candidates {
        if let Some(meta) = get_json::<ResourceMetadata>(http, &candidate).await {
            resource = Some(meta);
            break;
        }
    }
    // Without resource metadata, the 2025-03-26 spec: the MCP server's origin is the
    // authorization server.
    let issuer = match resource
        .as_ref()
        .and_then(|r| r.authorization_servers.first())
    {
        Some(issuer) => Url::parse(issuer)
            .map_err(|e| McpError::OAuth(format!("bad authorization server URL: {e}")))?,
        None => origin(&url),
    };
    let mut metadata = None;
    for candidate in well_known(&issuer, "oauth-authorization-server", false)
        .into_iter()
        .chain(well_known(&issuer, "openid-configuration", false))
    {
        if let Some(meta) = get_json::<AuthServerMetadata>(http, &candidate).await {
            metadata = Some(meta);
            break;
        }
    }
    let metadata = metadata.unwrap_or_else(|| {
        let base = issuer.as_str().trim_end_matches('/').to_owned();
        AuthServerMetadata {
            authorization_endpoint: format!("{base}/authorize"),
            token_endpoint: format!("{base}/token"),
            registration_endpoint: Some(format!("{base}/register")),
            scopes_supported: None,
            code_challenge_methods_supported: None,
        }
    });
    if let Some(methods) = &metadata.code_challenge_methods_supported {
        if !methods.iter().any(|m| m == "S256") {
            return Err(McpError::OAuth(
                "the authorization server does not support PKCE with S256".into(),
            ));
        }
    }
    Ok(Discovery {
        metadata,
        resource_scopes: resource.and_then(|r| r.scopes_supported),
    })
}

fn origin(url: &Url) -> Url {
    let mut o = url.clone();
    o.set_path("/");
    o.set_query(None);
    o.set_fragment(None);
    o
}

/// `{origin}/.well-known/{name}{path}`, then (for resources) `{origin}/.well-known/{name}`.
fn well_known(url: &Url, name: &str, with_root_fallback: bool) -> Vec<String> {
    let base = origin(url);
    let base = base.as_str().trim_end_matches('/');
    let path = url.path().trim_end_matches('/');
    let mut out = Vec::new();
    if !path.is_empty() {
        out.push(format!("{base}/.well-known/{name}{path}"));
    }
    if path.is_empty() || with_root_fallback {
        out.push(format!("{base}/.well-known/{name}"));
    }
    if !path.is_empty() && name == "openid-configuration" {
        out.push(format!("{base}{path}/.well-known/{name}"));
    }
    out
}

async fn get_json<T: serde::de::DeserializeOwned>(http: &reqwest::Client, url: &str) -> Option<T> {
    let response = http
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .ok()?;
    if !response.status().is_success() {
        return None;
    }
    response.json().await.ok()
}

/// `key="value"` (or unquoted) from a `WWW-Authenticate: Bearer ...` challenge.
pub fn challenge_param(header: &str, key: &str) -> Option<String> {
    let at = header.find(&format!("{key}="))? + key.len() + 1;
    let rest = &header[at..];
    let value = match rest.strip_prefix('"') {
        Some(quoted) => &quoted[..quoted.find('"')?],
        None => rest.split([',', ' ']).next()?,
    };
    Some(value.to_owned())
}

/// Registers this app as a public client (RFC 7591) for `redirect_uri`.
pub async fn register_client(
    http: &reqwest::Client,
    endpoint: &str,
    redirect_uri: &str,
) -> Result<(String, Option<String>), McpError> {
    #[derive(Deserialize)]
    struct Registered {
        client_id: String,
        #[serde(default)]
        client_secret: Option<String>,
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
    Ok((registered.client_id, registered.client_secret))
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

pub struct LoginOptions {
    /// How long to wait for the user to finish in the browser.
    pub timeout: Duration,
    pub client_secret: Option<String>,
}

impl Default for LoginOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(300),
            client_secret: None,
        }
    }
}

/// The whole login; the tokens end up in `store` under the server's name.
pub async fn login(
    server: &str,
    cfg: &HttpConfig,
    store: &dyn CredentialStore,
    opener: Opener<'_>,
    options: LoginOptions,
) -> Result<StoredTokens, McpError> {
    let http = crate::http::client()?;
    let discovery = discover(&http, &cfg.url).await?;
    let listener = CallbackListener::bind(cfg.oauth.callback_port).await?;
    let redirect_uri = listener.redirect_uri();
    let (client_id, client_secret) = match &cfg.oauth.client_id {
        Some(id) => (id.clone(), options.client_secret.clone()),
        None => {
            let endpoint = discovery.metadata.registration_endpoint.as_deref().ok_or_else(|| {
                McpError::OAuth(
                    "the authorization server offers no dynamic client registration; set oauth.client_id for this server".into(),
                )
            })?;
            register_client(&http, endpoint, &redirect_uri).await?
        }
    };
    let (verifier, challenge) = pkce_pair();
    let state = Alphanumeric.sample_string(&mut rand::rng(), 32);
    let scopes = if cfg.oauth.scopes.is_empty() {
        discovery.resource_scopes.clone().unwrap_or_default()
    } else {
        cfg.oauth.scopes.clone()
    };
    let mut authorize = Url::parse(&discovery.metadata.authorization_endpoint)
        .map_err(|e| McpError::OAuth(format!("bad authorization endpoint: {e}")))?;
    {
        let mut q = authorize.query_pairs_mut();
        q.append_pair("response_type", "code")
            .append_pair("client_id", &client_id)
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
    let mut form = vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code.clone()),
        ("redirect_uri", redirect_uri.clone()),
        ("client_id", client_id.clone()),
        ("code_verifier", verifier),
        ("resource", cfg.url.clone()),
    ];
    if let Some(secret) = &client_secret {
        form.push(("client_secret", secret.clone()));
    }
    let response = token_request(&http, &discovery.metadata.token_endpoint, &form).await?;
    let tokens = StoredTokens {
        resource: cfg.url.clone(),
        access_token: response.access_token,
        refresh_token: response.refresh_token,
        expires_at: response.expires_in.map(|s| now_secs() + s),
        token_endpoint: discovery.metadata.token_endpoint.clone(),
        client_id,
        client_secret,
        scope: response
            .scope
            .or_else(|| (!scopes.is_empty()).then(|| scopes.join(" "))),
    };
    save_tokens(store, server, &tokens)?;
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_params_quoted_and_bare() {
        let h = r#"Bearer error="invalid_token", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp", scope=read"#;
        assert_eq!(
            challenge_param(h, "resource_metadata").as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(challenge_param(h, "scope").as_deref(), Some("read"));
        assert_eq!(challenge_param(h, "realm"), None);
    }

    #[test]
    fn well_known_urls_insert_the_path_after_the_suffix() {
        let url = Url::parse("https://h:8/tenant/mcp").unwrap();
        assert_eq!(
            well_known(&url, "oauth-protected-resource", true),
            [
                "https://h:8/.well-known/oauth-protected-resource/tenant/mcp",
                "https://h:8/.well-known/oauth-protected-resource"
            ]
        );
        let issuer = Url::parse("https://auth.h/").unwrap();
        assert_eq!(
            well_known(&issuer, "oauth-authorization-server", false),
            ["https://auth.h/.well-known/oauth-authorization-server"]
        );
    }

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
