//! Opening one connection: spawn the stdio process or reach the HTTP endpoint, then the
//! MCP handshake. Authorization for HTTP servers comes from `bearer_token_env_var`, from
//! OAuth tokens a `memo-cli mcp login` left in the keychain (or a login in the session,
//! when the embedder set a [`LoginHook`]), or from the client credentials grant.

use std::path::Path;
use std::sync::Arc;

use memo_config::CredentialStore;
use memo_protocol::Phrase;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};

use crate::config::OAuthGrant;
use crate::config::{HttpConfig, ServerConfig, TransportConfig};
use crate::error::McpError;
use crate::handler::Handler;
use crate::http::{config_headers, Auth, AuthedClient};
use crate::oauth::{stored_for, InteractiveLogin, Renewal, TokenSource};
use crate::oauth_flow::LoginHook;
use crate::oauth_token::{MachineClient, MachineGrant, SigningKey};
use crate::process::{self, ServerProcess};
use crate::sse_legacy::LegacySseTransport;
use crate::EnvLookup;

pub(crate) type Service = RunningService<RoleClient, Handler>;

/// What connecting needs besides the server's config.
pub(crate) struct ConnectContext<'a> {
    pub cwd: &'a Path,
    pub path: &'a str,
    pub env: &'a EnvLookup,
    pub credentials: Option<&'a Arc<dyn CredentialStore>>,
    /// Lets a server's request for authorization start a login in the session.
    pub login: Option<&'a LoginHook>,
}

/// A failed attempt, with what the server wrote to stderr before it gave up.
pub(crate) struct ConnectFailure {
    pub error: McpError,
    pub stderr: Option<String>,
}

impl From<McpError> for ConnectFailure {
    fn from(error: McpError) -> Self {
        Self {
            error,
            stderr: None,
        }
    }
}

pub(crate) async fn connect(
    config: &ServerConfig,
    handler: Handler,
    cx: &ConnectContext<'_>,
    process_slot: &mut Option<ServerProcess>,
) -> Result<Service, ConnectFailure> {
    // Keychain values are read at each start, so one entered again in settings is used
    // by the next start without reloading the config.
    let resolved;
    let config = if config.has_secrets() {
        resolved = crate::secrets::resolve(config, cx.credentials).await?;
        &resolved
    } else {
        config
    };
    match &config.transport {
        TransportConfig::Stdio(stdio) => {
            let (proc, stdout, stdin) = process::spawn(&config.name, stdio, cx.path, cx.cwd)?;
            let stderr = proc.stderr.clone();
            // The slot owns the process from here, so a startup timeout that drops this
            // future still lets the supervisor stop it.
            *process_slot = Some(proc);
            match handler.serve((stdout, stdin)).await {
                Ok(service) => Ok(service),
                Err(e) => {
                    // Let the process finish writing (and exiting) so we can say why.
                    let mut exit = None;
                    if let Some(proc) = process_slot.as_mut() {
                        exit = tokio::time::timeout(
                            std::time::Duration::from_millis(500),
                            proc.exited(),
                        )
                        .await
                        .ok()
                        .flatten();
                    }
                    let reason = match exit {
                        Some(status) => Phrase::McpExitedInHandshake {
                            exit: Box::new(process::describe_exit(Some(status))),
                        },
                        None => describe_init_error(&e.to_string()),
                    };
                    Err(ConnectFailure {
                        error: McpError::Connect { reason },
                        stderr: stderr.text(),
                    })
                }
            }
        }
        TransportConfig::StreamableHttp(http) => {
            let auth = auth_for(&config.name, http, cx)?;
            let client = AuthedClient {
                inner: crate::http::client()?,
                auth: auth.clone(),
                standalone: Default::default(),
            };
            let mut transport_config =
                StreamableHttpClientTransportConfig::with_uri(http.url.as_str());
            transport_config.custom_headers = config_headers(http, cx.env.as_ref())?;
            let transport = StreamableHttpClientTransport::with_client(client, transport_config);
            handler
                .serve(transport)
                .await
                .map_err(|e| http_failure(&config.name, &auth, &e.to_string()))
        }
        TransportConfig::Sse(http) => {
            let auth = auth_for(&config.name, http, cx)?;
            let transport = LegacySseTransport::connect(
                crate::http::client()?,
                &http.url,
                config_headers(http, cx.env.as_ref())?,
                auth.clone(),
            )
            .await
            .map_err(|e| http_failure(&config.name, &auth, &e.to_string()))?;
            handler
                .serve(transport)
                .await
                .map_err(|e| http_failure(&config.name, &auth, &e.to_string()))
        }
    }
}

fn auth_for(server: &str, http: &HttpConfig, cx: &ConnectContext<'_>) -> Result<Auth, McpError> {
    if let Some(var) = &http.bearer_token_env_var {
        let token = (cx.env)(var).filter(|t| !t.is_empty()).ok_or_else(|| {
            McpError::Config(format!(
                "bearer_token_env_var names {var}, which is not set"
            ))
        })?;
        memo_config::register_secret(&memo_model::ApiKey::new(token.clone()));
        return Ok(Auth::Bearer(token));
    }
    let has_header = http
        .headers
        .keys()
        .chain(http.env_headers.keys())
        .any(|k| k.eq_ignore_ascii_case("authorization"));
    if has_header {
        return Ok(Auth::None);
    }
    let oauth = &http.oauth;
    let secret = |var: &Option<String>| -> Result<Option<String>, McpError> {
        let Some(var) = var else { return Ok(None) };
        let value = (cx.env)(var)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| McpError::Config(format!("oauth names {var}, which is not set")))?;
        memo_config::register_secret(&memo_model::ApiKey::new(value.clone()));
        Ok(Some(value))
    };
    let client = crate::http::client()?;
    if oauth.grant != OAuthGrant::AuthorizationCode {
        // No browser and no keychain: the credentials get a token whenever one is needed.
        let key = match secret(&oauth.private_key_env_var)? {
            Some(pem) => Some(Arc::new(SigningKey::from_pem(&pem)?)),
            None => None,
        };
        let machine = MachineClient {
            client_id: oauth.client_id.clone().unwrap_or_default(),
            secret: secret(&oauth.client_secret_env_var)?,
            key,
            scopes: oauth.scopes.clone(),
            grant: match oauth.grant {
                OAuthGrant::CrossAppAccess => MachineGrant::CrossAppAccess {
                    idp_token_endpoint: oauth.idp_token_endpoint.clone().unwrap_or_default(),
                    idp_client_id: oauth.idp_client_id.clone().unwrap_or_default(),
                    id_token: secret(&oauth.id_token_env_var)?.unwrap_or_default(),
                },
                _ => MachineGrant::ClientCredentials,
            },
        };
        let source = TokenSource::new(
            server,
            &http.url,
            None,
            client,
            None,
            Renewal::ClientCredentials(machine),
        );
        return Ok(Auth::OAuth(Arc::new(source)));
    }
    let stored = match cx.credentials {
        Some(store) => stored_for(store.as_ref(), server, &http.url).unwrap_or_else(|e| {
            // A locked or missing keychain must not keep a public server from working.
            tracing::warn!(server, error = %e, "could not read OAuth tokens");
            None
        }),
        None => None,
    };
    let renewal = match cx.login {
        Some(hook) => Renewal::Interactive(Box::new(InteractiveLogin {
            config: http.clone(),
            client_secret: secret(&oauth.client_secret_env_var)?,
            hook: hook.clone(),
        })),
        None if stored.is_none() => return Ok(Auth::None),
        None => Renewal::Manual,
    };
    let source = TokenSource::new(
        server,
        &http.url,
        cx.credentials.cloned(),
        client,
        stored,
        renewal,
    );
    Ok(Auth::OAuth(Arc::new(source)))
}

/// Whether an error of the SDK's HTTP client says the server wants authorization.
pub(crate) fn asks_for_login(message: &str) -> bool {
    [
        "401",
        "Unauthorized",
        "Auth required",
        "authorization required",
        "Insufficient scope",
    ]
    .iter()
    .any(|needle| message.contains(needle))
}

fn http_failure(server: &str, auth: &Auth, message: &str) -> ConnectFailure {
    let unauthorized = asks_for_login(message);
    let error = if unauthorized && !matches!(auth, Auth::Bearer(_)) {
        McpError::AuthRequired {
            server: server.to_owned(),
        }
    } else {
        McpError::Connect {
            reason: describe_init_error(message),
        }
    };
    error.into()
}

/// The SDK's initialize errors, in words a user can act on.
fn describe_init_error(message: &str) -> Phrase {
    if message.contains("connection closed") || message.contains("ConnectionClosed") {
        Phrase::McpClosedInHandshake
    } else {
        Phrase::McpHandshakeFailed {
            error: message.to_owned(),
        }
    }
}
