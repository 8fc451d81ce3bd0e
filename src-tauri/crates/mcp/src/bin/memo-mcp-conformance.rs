//! The client side of the MCP conformance suite (`@modelcontextprotocol/conformance`):
//! the suite starts a scenario server, runs `memo-mcp-conformance <server-url>` with the
//! scenario's name in `MCP_CONFORMANCE_SCENARIO` (and its data, such as pre-registered
//! credentials, as JSON in `MCP_CONFORMANCE_CONTEXT`), and judges what it saw.
//!
//! Everything goes through memo-mcp as the app uses it: a `[mcp_servers]` entry for the
//! URL (with the OAuth settings a user would write for the scenario's credentials),
//! `McpManager` to connect and list tools, `call_tool`; logins happen in the session
//! through `McpOptions::login`, tokens live in a credential store. Only the user is
//! played here: the "browser" follows the authorization page's redirect to the loopback
//! callback, and forms are submitted as shown.
//!
//! Exits 0 when the scenario's steps succeeded, 1 with the reason on stderr otherwise.

use std::sync::Arc;
use std::time::Duration;

use memo_config::{CredentialStore, MemoryCredentialStore};
use memo_mcp::config::{
    ConfigSource, HttpConfig, OAuthGrant, OAuthSettings, ServerConfig, SourceKind, TransportConfig,
};
use memo_mcp::oauth_flow::LoginHook;
use memo_mcp::{
    ElicitationAnswer, ElicitationRequest, Elicitor, McpManager, McpOptions, RestartPolicy,
    ServerStatus,
};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

const SERVER: &str = "conformance";
/// The client ID metadata document the suite's authorization servers expect; it is a
/// client ID only and is never fetched here.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

fn main() {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: MCP_CONFORMANCE_SCENARIO=<name> memo-mcp-conformance <server-url>");
        std::process::exit(2);
    };
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|raw| serde_json::from_str(&raw).ok())
        .unwrap_or(Value::Null);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("no async runtime: {e}");
            std::process::exit(1);
        }
    };
    match runtime.block_on(run(&scenario, &url, &context)) {
        Ok(()) => eprintln!("{scenario}: done"),
        Err(e) => {
            eprintln!("{scenario}: {e}");
            std::process::exit(1);
        }
    }
}

/// The config entry a user would write for this server, with the scenario's
/// credentials (the secrets come from environment variables, as in a real config).
fn server_config(scenario: &str, url: &str, context: &Value) -> ServerConfig {
    let grant = match scenario {
        "auth/client-credentials-basic" | "auth/client-credentials-jwt" => {
            OAuthGrant::ClientCredentials
        }
        "auth/cross-app-access-complete-flow" => OAuthGrant::CrossAppAccess,
        _ => OAuthGrant::AuthorizationCode,
    };
    let oauth = OAuthSettings {
        client_id: context["client_id"].as_str().map(str::to_owned),
        client_secret_env_var: context["client_secret"]
            .as_str()
            .map(|_| "CONFORMANCE_CLIENT_SECRET".to_owned()),
        private_key_env_var: context["private_key_pem"]
            .as_str()
            .map(|_| "CONFORMANCE_PRIVATE_KEY".to_owned()),
        client_metadata_url: Some(CLIENT_METADATA_URL.to_owned()),
        idp_token_endpoint: context["idp_token_endpoint"].as_str().map(str::to_owned),
        idp_client_id: context["idp_client_id"].as_str().map(str::to_owned),
        id_token_env_var: context["idp_id_token"]
            .as_str()
            .map(|_| "CONFORMANCE_ID_TOKEN".to_owned()),
        grant,
        ..OAuthSettings::default()
    };
    ServerConfig {
        name: SERVER.into(),
        transport: TransportConfig::StreamableHttp(HttpConfig {
            url: url.into(),
            bearer_token_env_var: None,
            headers: Default::default(),
            env_headers: Default::default(),
            secret_headers: Vec::new(),
            oauth,
        }),
        enabled: true,
        include_tools: None,
        exclude_tools: Vec::new(),
        startup_timeout: Duration::from_secs(20),
        tool_timeout: Duration::from_secs(20),
        source: ConfigSource {
            kind: SourceKind::Memo,
            path: "conformance".into(),
        },
    }
}

fn options(store: &Arc<dyn CredentialStore>, context: &Value) -> McpOptions {
    let secret = context["client_secret"].as_str().map(str::to_owned);
    let key = context["private_key_pem"].as_str().map(str::to_owned);
    let id_token = context["idp_id_token"].as_str().map(str::to_owned);
    let env: memo_mcp::EnvLookup = Arc::new(move |name: &str| match name {
        "CONFORMANCE_CLIENT_SECRET" => secret.clone(),
        "CONFORMANCE_PRIVATE_KEY" => key.clone(),
        "CONFORMANCE_ID_TOKEN" => id_token.clone(),
        _ => None,
    });
    McpOptions {
        env,
        path: std::env::var("PATH").ok(),
        credentials: Some(store.clone()),
        // One attempt: the suite judges what the first connection does.
        restart: RestartPolicy {
            max_attempts: 0,
            ..RestartPolicy::default()
        },
        elicitor: Arc::new(SubmitAsShown),
        login: Some(LoginHook {
            opener: Arc::new(browser),
            timeout: Duration::from_secs(15),
        }),
        ..McpOptions::new(std::env::temp_dir())
    }
}

/// Plays a user who submits every form without typing anything, so memo-mcp's own
/// handling decides what is sent: the form's defaults (SEP-1034).
struct SubmitAsShown;

impl Elicitor for SubmitAsShown {
    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> futures::future::BoxFuture<'static, ElicitationAnswer> {
        eprintln!("elicitation from {}: {}", request.server, request.message);
        Box::pin(std::future::ready(ElicitationAnswer::Accept(
            Default::default(),
        )))
    }
}

/// Plays the user in the browser: the scenario's authorization page redirects at once,
/// so following that redirect to the loopback callback completes the login. Only
/// loopback URLs are followed.
fn browser(url: &str) -> Result<(), String> {
    let url = loopback_url(url)?;
    tokio::spawn(async move {
        if let Err(e) = follow_redirect(url).await {
            eprintln!("browser: {e}");
        }
    });
    Ok(())
}

fn loopback_url(url: &str) -> Result<url::Url, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("bad URL {url}: {e}"))?;
    match parsed.host_str() {
        Some("localhost" | "127.0.0.1" | "[::1]") => Ok(parsed),
        _ => Err(format!("not a loopback URL, not opened: {url}")),
    }
}

async fn follow_redirect(url: url::Url) -> Result<(), String> {
    let client = memo_http::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let page = client
        .get(url.clone())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let location = page
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            format!(
                "the authorization page did not redirect ({})",
                page.status()
            )
        })?;
    let target = loopback_url(location)?;
    client.get(target).send().await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn run(scenario: &str, url: &str, context: &Value) -> Result<(), String> {
    let config = server_config(scenario, url, context);
    let store: Arc<dyn CredentialStore> = Arc::new(MemoryCredentialStore::new());
    let manager = McpManager::start(vec![config], options(&store, context));
    manager.wait_ready().await;
    let result = exercise(scenario, &manager).await;
    manager.stop().await;
    result
}

/// After connecting (which lists the tools): what each scenario asks of a client.
async fn exercise(scenario: &str, manager: &McpManager) -> Result<(), String> {
    let snapshot = manager
        .server(SERVER)
        .ok_or_else(|| "the server is not configured".to_owned())?;
    if snapshot.status != ServerStatus::Ready {
        return Err(format!(
            "not connected ({}): {}",
            snapshot.status.label(),
            snapshot.message.unwrap_or_default()
        ));
    }
    let call = |tool: &'static str, arguments: Value| async move {
        manager
            .call_tool(SERVER, tool, arguments, CancellationToken::new(), None)
            .await
            .map(|answer| answer.text)
            .map_err(|e| format!("calling {tool}: {e:?}"))
    };
    let text = match scenario {
        "initialize" => return Ok(()),
        "tools_call" => call("add_numbers", json!({"a": 5, "b": 3})).await?,
        "elicitation-sep1034-client-defaults" => {
            call("test_client_elicitation_defaults", json!({})).await?
        }
        "sse-retry" => call("test_reconnection", json!({})).await?,
        s if s.starts_with("auth/") => {
            if snapshot.tools.iter().any(|t| t == "test-tool") {
                call("test-tool", json!({})).await?
            } else {
                return Ok(());
            }
        }
        other => return Err(format!("unknown scenario {other}")),
    };
    eprintln!("result: {text}");
    Ok(())
}
