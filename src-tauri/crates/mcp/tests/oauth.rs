//! OAuth against a local test authorization server guarding server-everything: the
//! server first needs a login; `login` discovers the authorization server from the 401,
//! registers a client, runs authorization code + PKCE through a loopback redirect, and
//! stores the tokens; the session then connects, and a revoked access token is refreshed.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Form, Json, Router};
use base64::Engine as _;
use common::*;
use memo_config::{CredentialStore, MemoryCredentialStore};
use memo_mcp::config::TransportConfig;
use memo_mcp::oauth::load_tokens;
use memo_mcp::oauth_flow::{login, LoginOptions};
use memo_mcp::{McpManager, McpToolSource, ServerStatus};
use memo_tools::{ToolContext, ToolSource};
use serde_json::json;
use sha2::Digest;

#[derive(Default)]
struct AuthState {
    base: String,
    upstream: String,
    redirect_uris: Vec<String>,
    /// code -> (challenge, redirect_uri)
    codes: HashMap<String, (String, String)>,
    valid_access: Option<String>,
    refresh: Option<String>,
    issued: u32,
    deny: bool,
    registrations: u32,
    refreshes: u32,
    /// Replaces the resource the metadata names (a server phishing for another's token).
    prm_resource: Option<String>,
    authorizations: u32,
}

type Shared = Arc<Mutex<AuthState>>;

async fn resource_metadata(State(s): State<Shared>) -> Json<serde_json::Value> {
    let (base, resource) = {
        let s = s.lock().unwrap();
        (s.base.clone(), s.prm_resource.clone())
    };
    Json(json!({
        "resource": resource.unwrap_or_else(|| format!("{base}/mcp")),
        "authorization_servers": [format!("{base}/auth")],
        "scopes_supported": ["mcp.tools"],
    }))
}

async fn server_metadata(State(s): State<Shared>) -> Json<serde_json::Value> {
    let base = s.lock().unwrap().base.clone();
    Json(json!({
        "issuer": format!("{base}/auth"),
        "authorization_endpoint": format!("{base}/auth/authorize"),
        "token_endpoint": format!("{base}/auth/token"),
        "registration_endpoint": format!("{base}/auth/register"),
        "code_challenge_methods_supported": ["S256"],
        "response_types_supported": ["code"],
    }))
}

async fn register(State(s): State<Shared>, Json(body): Json<serde_json::Value>) -> Response {
    let mut s = s.lock().unwrap();
    assert_eq!(body["token_endpoint_auth_method"], "none");
    for uri in body["redirect_uris"].as_array().unwrap() {
        s.redirect_uris.push(uri.as_str().unwrap().to_owned());
    }
    s.registrations += 1;
    (StatusCode::CREATED, Json(json!({"client_id": "client-1"}))).into_response()
}

async fn authorize(State(s): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut s = s.lock().unwrap();
    s.authorizations += 1;
    let redirect = q["redirect_uri"].clone();
    assert!(
        s.redirect_uris.contains(&redirect),
        "unregistered redirect {redirect}"
    );
    assert_eq!(q["client_id"], "client-1");
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["resource"], format!("{}/mcp", s.base));
    assert_eq!(q["scope"], "mcp.tools");
    let state = &q["state"];
    let location = if s.deny {
        format!("{redirect}?error=access_denied&error_description=nope&state={state}")
    } else {
        s.codes.insert(
            "code-1".into(),
            (q["code_challenge"].clone(), redirect.clone()),
        );
        format!("{redirect}?code=code-1&state={state}")
    };
    (StatusCode::FOUND, [("location", location)]).into_response()
}

async fn token(State(s): State<Shared>, Form(f): Form<HashMap<String, String>>) -> Response {
    let mut s = s.lock().unwrap();
    let ok = match f["grant_type"].as_str() {
        "authorization_code" => match s.codes.remove(&f["code"]) {
            Some((challenge, redirect)) => {
                let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .encode(sha2::Sha256::digest(f["code_verifier"].as_bytes()));
                computed == challenge && redirect == f["redirect_uri"]
            }
            None => false,
        },
        "refresh_token" => {
            s.refreshes += 1;
            s.refresh.as_deref() == Some(f["refresh_token"].as_str())
        }
        _ => false,
    };
    if !ok {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "invalid_grant"})),
        )
            .into_response();
    }
    s.issued += 1;
    let access = format!("at-{}", s.issued);
    let refresh = format!("rt-{}", s.issued);
    s.valid_access = Some(access.clone());
    s.refresh = Some(refresh.clone());
    Json(json!({"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh}))
        .into_response()
}

/// The protected MCP endpoint: a bearer check, then server-everything behind it.
async fn mcp(State(s): State<Shared>, method: Method, headers: HeaderMap, body: Bytes) -> Response {
    let (valid, base, upstream) = {
        let s = s.lock().unwrap();
        (s.valid_access.clone(), s.base.clone(), s.upstream.clone())
    };
    let presented = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if valid.is_none() || presented != valid.as_deref() {
        let challenge =
            format!("Bearer resource_metadata=\"{base}/.well-known/oauth-protected-resource/mcp\"");
        return (StatusCode::UNAUTHORIZED, [("www-authenticate", challenge)]).into_response();
    }
    let client = memo_mcp::http::client().unwrap();
    let mut request = client.request(method, &upstream).body(body);
    for name in [
        "accept",
        "content-type",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
    ] {
        if let Some(v) = headers.get(name) {
            request = request.header(name, v.as_bytes());
        }
    }
    let response = request.send().await.unwrap();
    let mut out = Response::builder().status(response.status().as_u16());
    for name in ["content-type", "mcp-session-id"] {
        if let Some(v) = response.headers().get(name) {
            out = out.header(name, v.as_bytes());
        }
    }
    out.body(Body::from_stream(response.bytes_stream()))
        .unwrap()
}

async fn auth_server(upstream: String) -> (Shared, u16, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let state: Shared = Arc::new(Mutex::new(AuthState {
        base: format!("http://127.0.0.1:{port}"),
        upstream,
        ..Default::default()
    }));
    let app = Router::new()
        .route(
            "/.well-known/oauth-protected-resource/mcp",
            get(resource_metadata),
        )
        .route(
            "/.well-known/oauth-authorization-server/auth",
            get(server_metadata),
        )
        .route("/auth/register", post(register))
        .route("/auth/authorize", get(authorize))
        .route("/auth/token", post(token))
        .route("/mcp", any(mcp))
        .with_state(state.clone());
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (state, port, task)
}

/// Plays the user's browser: follow the authorization page to the loopback redirect.
fn browser(url: &str) -> Result<(), String> {
    let url = url.to_owned();
    tokio::spawn(async move {
        let client = memo_http::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let page = client.get(&url).send().await.unwrap();
        let location = page.headers()["location"].to_str().unwrap().to_owned();
        client.get(location).send().await.unwrap();
    });
    Ok(())
}

#[tokio::test]
async fn login_stores_tokens_the_session_uses_and_refreshes() {
    let dir = tempfile::tempdir().unwrap();
    let (_everything, upstream_port) = everything_http("streamableHttp").await;
    let (state, port, server) = auth_server(format!("http://127.0.0.1:{upstream_port}/mcp")).await;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let config = http("guarded", &url, false);
    let store: Arc<dyn CredentialStore> = Arc::new(MemoryCredentialStore::new());
    let mut opts = options(dir.path());
    opts.credentials = Some(store.clone());

    // Before a login the server is reported as needing one.
    let manager = McpManager::start(vec![config.clone()], opts);
    manager.wait_ready().await;
    let snap = manager.server("guarded").unwrap();
    assert_eq!(snap.status, ServerStatus::NeedsAuth, "{snap:#?}");
    assert!(snap
        .message
        .unwrap()
        .contains("\"guarded\" needs you to log in"));
    manager.stop().await;

    let TransportConfig::StreamableHttp(http_cfg) = &config.transport else {
        panic!()
    };
    let tokens = login(
        "guarded",
        http_cfg,
        store.as_ref(),
        &browser,
        LoginOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(tokens.access_token, "at-1");
    assert_eq!(tokens.client_id, "client-1");
    assert_eq!(
        load_tokens(store.as_ref(), "guarded").unwrap().unwrap(),
        tokens
    );
    assert_eq!(state.lock().unwrap().registrations, 1);

    let mut opts = options(dir.path());
    opts.credentials = Some(store.clone());
    let manager = McpManager::start(vec![config.clone()], opts);
    manager.wait_ready().await;
    assert_eq!(
        manager.server("guarded").unwrap().status,
        ServerStatus::Ready
    );
    let source = McpToolSource::new(manager.clone());
    let echo = source.get("guarded__echo").unwrap();
    let out = echo
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"message": "through oauth"}),
        )
        .await
        .unwrap();
    assert_eq!(out.content, "Echo: through oauth");

    // The authorization server forgets the access token: the next request is refused,
    // refreshed with the refresh token, and retried.
    state.lock().unwrap().valid_access = None;
    let out = echo
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"message": "after refresh"}),
        )
        .await
        .unwrap();
    assert_eq!(out.content, "Echo: after refresh");
    assert_eq!(state.lock().unwrap().refreshes, 1);
    let stored = load_tokens(store.as_ref(), "guarded").unwrap().unwrap();
    assert_eq!(stored.access_token, "at-2");
    assert_eq!(stored.refresh_token.as_deref(), Some("rt-2"));
    manager.stop().await;
    server.abort();
}

#[tokio::test]
async fn a_refused_authorization_is_an_error_and_stores_nothing() {
    let (_everything, upstream_port) = everything_http("streamableHttp").await;
    let (state, port, server) = auth_server(format!("http://127.0.0.1:{upstream_port}/mcp")).await;
    state.lock().unwrap().deny = true;
    let config = http("guarded", &format!("http://127.0.0.1:{port}/mcp"), false);
    let TransportConfig::StreamableHttp(http_cfg) = &config.transport else {
        panic!()
    };
    let store = MemoryCredentialStore::new();
    let err = login(
        "guarded",
        http_cfg,
        &store,
        &browser,
        LoginOptions::default(),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("access_denied"), "{err}");
    assert!(load_tokens(&store, "guarded").unwrap().is_none());
    server.abort();
}

#[tokio::test]
async fn metadata_naming_another_resource_stops_the_login_before_the_browser() {
    let (_everything, upstream_port) = everything_http("streamableHttp").await;
    let (state, port, server) = auth_server(format!("http://127.0.0.1:{upstream_port}/mcp")).await;
    state.lock().unwrap().prm_resource = Some("https://evil.example.com/mcp".into());
    let config = http("guarded", &format!("http://127.0.0.1:{port}/mcp"), false);
    let TransportConfig::StreamableHttp(http_cfg) = &config.transport else {
        panic!()
    };
    let store = MemoryCredentialStore::new();
    let opened = Arc::new(Mutex::new(false));
    let seen = opened.clone();
    let opener = move |_: &str| -> Result<(), String> {
        *seen.lock().unwrap() = true;
        Ok(())
    };
    let err = login(
        "guarded",
        http_cfg,
        &store,
        &opener,
        LoginOptions::default(),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("evil.example.com"), "{err}");
    assert!(
        !*opened.lock().unwrap(),
        "the browser must not be sent anywhere"
    );
    let s = state.lock().unwrap();
    assert_eq!((s.registrations, s.authorizations), (0, 0));
    drop(s);
    assert!(load_tokens(&store, "guarded").unwrap().is_none());
    server.abort();
}

#[tokio::test]
async fn login_to_a_server_without_authorization_says_so() {
    let (_everything, port) = everything_http("streamableHttp").await;
    let config = http("open", &format!("http://127.0.0.1:{port}/mcp"), false);
    let TransportConfig::StreamableHttp(http_cfg) = &config.transport else {
        panic!()
    };
    let store = MemoryCredentialStore::new();
    let err = login("open", http_cfg, &store, &browser, LoginOptions::default())
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("did not ask for authorization"),
        "{err}"
    );
}

/// The same tokens through the real OS keychain (Secret Service). Runs under
/// scripts/lib/desktop-session.sh with MEMO_TEST_KEYRING=1; skipped elsewhere.
#[tokio::test]
async fn oauth_tokens_in_the_os_keyring() {
    if std::env::var("MEMO_TEST_KEYRING").as_deref() != Ok("1") {
        eprintln!("skipped: set MEMO_TEST_KEYRING=1 and run with an unlocked Secret Service");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_everything, upstream_port) = everything_http("streamableHttp").await;
    let (_state, port, server) = auth_server(format!("http://127.0.0.1:{upstream_port}/mcp")).await;
    let config = http("guarded", &format!("http://127.0.0.1:{port}/mcp"), false);
    let TransportConfig::StreamableHttp(http_cfg) = &config.transport else {
        panic!()
    };
    let service = format!("memo-test-mcp-{}", std::process::id());
    let store: Arc<dyn CredentialStore> =
        Arc::new(memo_config::KeyringStore::with_service(service).unwrap());
    login(
        "guarded",
        http_cfg,
        store.as_ref(),
        &browser,
        LoginOptions::default(),
    )
    .await
    .unwrap();
    let mut opts = options(dir.path());
    opts.credentials = Some(store.clone());
    let manager = McpManager::start(vec![config.clone()], opts);
    manager.wait_ready().await;
    assert_eq!(
        manager.server("guarded").unwrap().status,
        ServerStatus::Ready
    );
    manager.stop().await;
    assert!(memo_mcp::oauth::delete_tokens(store.as_ref(), "guarded").unwrap());
    assert!(load_tokens(store.as_ref(), "guarded").unwrap().is_none());
    server.abort();
}
