//! Finding where to authorize, as the MCP authorization spec describes: the server's
//! 401 challenge (or its well-known URL) names its protected-resource metadata (RFC
//! 9728), which must describe this very server and names the authorization server,
//! whose own metadata (RFC 8414 or OpenID discovery) gives the endpoints. Also which
//! scopes to ask for.

use serde::Deserialize;
use url::Url;

use crate::error::McpError;

/// The authorization server's endpoints and what it supports.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AuthServerMetadata {
    #[serde(default)]
    pub issuer: Option<String>,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// RFC 8414 says `client_secret_basic` when absent.
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Whether a URL may be the client ID (a client ID metadata document).
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
}

#[derive(Debug, Deserialize)]
struct ResourceMetadata {
    #[serde(default)]
    resource: Option<String>,
    #[serde(default)]
    authorization_servers: Vec<String>,
    #[serde(default)]
    scopes_supported: Option<Vec<String>>,
}

/// Where to authorize, and which scopes the server suggests.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    pub metadata: AuthServerMetadata,
    /// `scopes_supported` of the protected-resource metadata.
    pub resource_scopes: Option<Vec<String>>,
    /// The `scope` of the server's `WWW-Authenticate` challenge: what this request needs.
    pub challenge_scope: Option<String>,
}

/// Asks the server unauthenticated; a 401 names its resource metadata. Errors when the
/// server does not ask for authorization at all.
pub async fn discover(http: &reqwest::Client, server_url: &str) -> Result<Discovery, McpError> {
    discover_with(http, server_url, None).await
}

/// As [`discover`], starting from a challenge the server already sent (a 401 or 403
/// `WWW-Authenticate` value) instead of asking it again.
pub async fn discover_with(
    http: &reqwest::Client,
    server_url: &str,
    challenge: Option<&str>,
) -> Result<Discovery, McpError> {
    let url = Url::parse(server_url).map_err(|e| McpError::OAuth(format!("bad URL: {e}")))?;
    let challenge = match challenge {
        Some(c) => c.to_owned(),
        None => probe(http, &url, server_url).await?,
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
    if let Some(meta) = &resource {
        check_resource(server_url, meta.resource.as_deref())?;
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
            issuer: Some(base.clone()),
            authorization_endpoint: format!("{base}/authorize"),
            token_endpoint: format!("{base}/token"),
            registration_endpoint: Some(format!("{base}/register")),
            scopes_supported: None,
            code_challenge_methods_supported: None,
            token_endpoint_auth_methods_supported: None,
            client_id_metadata_document_supported: false,
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
        challenge_scope: challenge_param(&challenge, "scope").filter(|s| !s.trim().is_empty()),
    })
}

/// The server's `WWW-Authenticate` challenge to an unauthenticated request.
async fn probe(http: &reqwest::Client, url: &Url, server_url: &str) -> Result<String, McpError> {
    // A streamable HTTP endpoint refuses the POST, a legacy SSE one the GET.
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
            return Ok(probe
                .headers()
                .get("www-authenticate")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned());
        }
    }
    Err(McpError::OAuth(format!(
        "{server_url} did not ask for authorization (HTTP {})",
        last_status.map(|s| s.to_string()).unwrap_or_default()
    )))
}

/// The protected-resource metadata must describe the server we are talking to (RFC 9728
/// §3.3, and a MUST of the MCP spec): otherwise a server could send us to authorize for
/// another resource and receive a token meant for it. `resource` matches when it has the
/// server URL's scheme, host and port and its path is the server's path or a parent of
/// it on a segment boundary (metadata at the origin's root describes the whole origin).
pub fn check_resource(server_url: &str, resource: Option<&str>) -> Result<(), McpError> {
    let refuse = |why: String| {
        Err(McpError::OAuth(format!(
            "the server's protected-resource metadata {why}; not authorizing, since a token \
             obtained this way would be for another resource than {server_url}"
        )))
    };
    let Some(resource) = resource else {
        return refuse("names no resource".into());
    };
    let (Ok(server), Ok(named)) = (Url::parse(server_url), Url::parse(resource)) else {
        return refuse(format!("names \"{resource}\", which is not a URL"));
    };
    let same_origin = server.scheme() == named.scheme()
        && server.host_str().map(str::to_ascii_lowercase)
            == named.host_str().map(str::to_ascii_lowercase)
        && server.port_or_known_default() == named.port_or_known_default();
    if !same_origin || named.fragment().is_some() {
        return refuse(format!("names the resource {resource}"));
    }
    let parent = named.path().trim_end_matches('/');
    let path = server.path().trim_end_matches('/');
    let covered = path == parent
        || path
            .strip_prefix(parent)
            .is_some_and(|rest| rest.starts_with('/'));
    if covered {
        Ok(())
    } else {
        refuse(format!("names the resource {resource}"))
    }
}

/// The scopes to ask for, by the spec's order: those the challenge names, else all the
/// resource metadata lists, else none (the scope parameter is left out). Scopes set in
/// the server's config come first either way. `offline_access` is added when the
/// authorization server offers it: Memo keeps its tokens, so it wants a refresh token.
pub fn select_scopes(
    configured: &[String],
    discovery: &Discovery,
    extra: Option<&str>,
) -> Vec<String> {
    let mut scopes: Vec<String> = Vec::new();
    let mut add = |scope: &str| {
        if !scope.is_empty() && !scopes.iter().any(|s| s == scope) {
            scopes.push(scope.to_owned());
        }
    };
    configured.iter().for_each(|s| add(s));
    if let Some(needed) = discovery.challenge_scope.as_deref() {
        needed.split_whitespace().for_each(&mut add);
    } else if configured.is_empty() {
        for scope in discovery.resource_scopes.iter().flatten() {
            add(scope);
        }
    }
    if let Some(extra) = extra {
        extra.split_whitespace().for_each(&mut add);
    }
    let offers_offline = discovery
        .metadata
        .scopes_supported
        .iter()
        .flatten()
        .any(|s| s == "offline_access");
    if offers_offline && !scopes.is_empty() && !scopes.iter().any(|s| s == "offline_access") {
        scopes.push("offline_access".to_owned());
    }
    scopes
}

fn origin(url: &Url) -> Url {
    let mut o = url.clone();
    o.set_path("/");
    o.set_query(None);
    o.set_fragment(None);
    o
}

/// `{origin}/.well-known/{name}{path}`, then (for resources) `{origin}/.well-known/{name}`.
pub(crate) fn well_known(url: &Url, name: &str, with_root_fallback: bool) -> Vec<String> {
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
    let mut search = 0;
    // `scope=` must not match inside `insufficient_scope=` and the like.
    let at = loop {
        let found = header[search..].find(&format!("{key}="))? + search;
        let before = header[..found].chars().next_back();
        if before.is_none_or(|c| c == ' ' || c == ',') {
            break found + key.len() + 1;
        }
        search = found + key.len();
    };
    let rest = &header[at..];
    let value = match rest.strip_prefix('"') {
        Some(quoted) => &quoted[..quoted.find('"')?],
        None => rest.split([',', ' ']).next()?,
    };
    Some(value.to_owned())
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
        let h = r#"Bearer error="insufficient_scope", scope="a b""#;
        assert_eq!(challenge_param(h, "scope").as_deref(), Some("a b"));
        let h = r#"Bearer x_scope="no""#;
        assert_eq!(challenge_param(h, "scope"), None);
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
    fn resource_metadata_for_this_server_or_a_parent_path_is_accepted() {
        let server = "https://mcp.example.com:8443/tenant/mcp";
        for ok in [
            "https://mcp.example.com:8443/tenant/mcp",
            "https://mcp.example.com:8443/tenant/mcp/",
            "https://MCP.example.com:8443/tenant",
            "https://mcp.example.com:8443/",
            "https://mcp.example.com:8443",
        ] {
            assert!(check_resource(server, Some(ok)).is_ok(), "{ok}");
        }
        // The default port, written or not, is the same origin.
        assert!(check_resource("https://h/mcp", Some("https://h:443/mcp")).is_ok());
    }

    #[test]
    fn resource_metadata_for_another_resource_is_refused() {
        let server = "http://127.0.0.1:3000/mcp";
        for bad in [
            // Another host: the phishing case, a token for someone else's server.
            "https://evil.example.com/mcp",
            "http://localhost:3000/mcp",
            // Another port or scheme is another origin.
            "http://127.0.0.1:3001/mcp",
            "https://127.0.0.1:3000/mcp",
            // A sibling or a child path, or a prefix that is not a whole segment.
            "http://127.0.0.1:3000/other",
            "http://127.0.0.1:3000/mcp/sub",
            "http://127.0.0.1:3000/mc",
            "http://127.0.0.1:3000/mcp#frag",
            "not a url",
        ] {
            let err = check_resource(server, Some(bad)).unwrap_err();
            assert!(err.to_string().contains("not authorizing"), "{bad}: {err}");
        }
        assert!(check_resource(server, None).is_err());
    }

    fn discovery(challenge: Option<&str>, prm: Option<&[&str]>, asm: &[&str]) -> Discovery {
        Discovery {
            metadata: AuthServerMetadata {
                issuer: None,
                authorization_endpoint: "http://a/authorize".into(),
                token_endpoint: "http://a/token".into(),
                registration_endpoint: None,
                scopes_supported: Some(asm.iter().map(|s| s.to_string()).collect()),
                code_challenge_methods_supported: None,
                token_endpoint_auth_methods_supported: None,
                client_id_metadata_document_supported: false,
            },
            resource_scopes: prm.map(|p| p.iter().map(|s| s.to_string()).collect()),
            challenge_scope: challenge.map(str::to_owned),
        }
    }

    #[test]
    fn scopes_come_from_the_challenge_then_the_resource_metadata() {
        let d = discovery(Some("mcp:basic"), Some(&["a", "b"]), &[]);
        assert_eq!(select_scopes(&[], &d, None), ["mcp:basic"]);
        let d = discovery(None, Some(&["a", "b"]), &[]);
        assert_eq!(select_scopes(&[], &d, None), ["a", "b"]);
        let d = discovery(None, None, &["x"]);
        assert!(select_scopes(&[], &d, None).is_empty());
        // Configured scopes replace the metadata's list but not what a request needs.
        let d = discovery(Some("need"), Some(&["a"]), &[]);
        assert_eq!(select_scopes(&["mine".into()], &d, None), ["mine", "need"]);
        // Step-up adds the newly needed scopes.
        assert_eq!(select_scopes(&[], &d, Some("need more")), ["need", "more"]);
        // offline_access only when the authorization server offers it.
        let d = discovery(None, Some(&["mcp:basic"]), &["mcp:basic", "offline_access"]);
        assert_eq!(
            select_scopes(&[], &d, None),
            ["mcp:basic", "offline_access"]
        );
    }
}
