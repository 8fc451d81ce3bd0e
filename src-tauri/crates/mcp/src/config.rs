//! Which MCP servers a session gets: Memo's own `[mcp_servers.<name>]` tables in
//! config.toml, plus the project files other agents write (`.mcp.json` for Claude Code,
//! `.gemini/settings.json`, `.cursor/mcp.json`), read as they are. Every server remembers
//! where it came from; a name defined twice keeps the first definition (Memo's config,
//! then Claude, Gemini, Cursor) and the clash is reported.
//!
//! ```toml
//! [mcp_servers.files]                      # stdio (type = "stdio" is optional)
//! command = "npx"
//! args = ["-y", "@modelcontextprotocol/server-filesystem", "/src"]
//! env = { LOG = "1" }
//! keychain_env = ["API_KEY"]               # values in the OS keychain (Settings → MCP)
//! cwd = "/src"
//! stderr = "pipe"                          # pipe (default: kept for crash reports) | inherit | ignore
//!
//! [mcp_servers.remote]
//! type = "streamable_http"                 # or "sse" for the legacy HTTP+SSE transport
//! url = "https://example.com/mcp"
//! bearer_token_env_var = "MCP_TOKEN"
//! http_headers = { "X-Team" = "platform" } # or headers = { ... }
//! env_http_headers = { "X-Key" = "KEY_VAR" }
//! keychain_headers = ["Authorization"]     # values in the OS keychain (Settings → MCP)
//! oauth = { client_id = "...", scopes = ["read"], callback_port = 8765 }  # optional
//! # also: client_secret_env_var, client_metadata_url = "https://…" (a client ID metadata
//! # document, used when the authorization server supports them), and for a machine
//! # client grant = "client_credentials" with client_secret_env_var or
//! # private_key_env_var (a PEM EC P-256 key for private_key_jwt); for enterprise
//! # cross-app access grant = "cross_app_access" with client_secret_env_var,
//! # idp_token_endpoint, idp_client_id and id_token_env_var (the user's IdP ID token)
//!
//! # for any server:
//! enabled = true                           # and, top level: active_mcp_servers = ["files"]
//! include_tools = ["read_file"]            # enabled_tools is accepted too
//! exclude_tools = ["write_file"]           # disabled_tools too
//! startup_timeout_sec = 10                 # or startup_timeout_ms
//! tool_timeout_sec = 60                    # or call_timeout_sec / tool_timeout_ms
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::config_values::{Fields, ValueError};

/// How long a server may take to start before the session goes on without it.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one tool call may take before it is cancelled.
pub const DEFAULT_TOOL_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerConfig {
    pub name: String,
    pub transport: TransportConfig,
    pub enabled: bool,
    /// Only these tools, when set.
    pub include_tools: Option<Vec<String>>,
    pub exclude_tools: Vec<String>,
    #[serde(serialize_with = "secs")]
    pub startup_timeout: Duration,
    #[serde(serialize_with = "secs")]
    pub tool_timeout: Duration,
    pub source: ConfigSource,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl ServerConfig {
    /// Whether the server's filter lets `tool` through.
    pub fn allows_tool(&self, tool: &str) -> bool {
        let included = match &self.include_tools {
            Some(list) => list.iter().any(|t| t == tool),
            None => true,
        };
        included && !self.exclude_tools.iter().any(|t| t == tool)
    }

    pub fn transport_name(&self) -> &'static str {
        match self.transport {
            TransportConfig::Stdio(_) => "stdio",
            TransportConfig::StreamableHttp(_) => "streamable_http",
            TransportConfig::Sse(_) => "sse",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TransportConfig {
    Stdio(StdioConfig),
    StreamableHttp(HttpConfig),
    /// The legacy HTTP+SSE transport (protocol 2024-11-05).
    Sse(HttpConfig),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StdioConfig {
    pub command: String,
    pub args: Vec<String>,
    /// Values may be secrets: shown masked by [`ServerConfig::redacted`].
    pub env: BTreeMap<String, String>,
    /// Variables whose values are in the OS keychain (`keychain_env`), filled in when the
    /// server starts; see [`crate::secrets`].
    pub secret_env: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub stderr: StderrMode,
}

/// What happens to a stdio server's stderr.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StderrMode {
    /// Captured: logged, and its tail is shown when the server fails.
    #[default]
    Pipe,
    Inherit,
    Ignore,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HttpConfig {
    pub url: String,
    /// Environment variable holding a bearer token.
    pub bearer_token_env_var: Option<String>,
    /// Values may be secrets: shown masked by [`ServerConfig::redacted`].
    pub headers: BTreeMap<String, String>,
    /// Header name -> environment variable holding its value.
    pub env_headers: BTreeMap<String, String>,
    /// Headers whose values are in the OS keychain (`keychain_headers`).
    pub secret_headers: Vec<String>,
    pub oauth: OAuthSettings,
}

/// Optional OAuth client settings; without them the client registers itself dynamically
/// when the server offers it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OAuthSettings {
    pub client_id: Option<String>,
    pub client_secret_env_var: Option<String>,
    pub scopes: Vec<String>,
    /// Fixed loopback port for the redirect (a pre-registered client needs one).
    pub callback_port: Option<u16>,
    pub grant: OAuthGrant,
    /// An https URL serving this client's metadata document: used as the client ID where
    /// the authorization server accepts such documents, instead of registering.
    pub client_metadata_url: Option<String>,
    /// Environment variable holding a PEM EC P-256 private key, for `private_key_jwt`
    /// client authentication with the client-credentials grant.
    pub private_key_env_var: Option<String>,
    /// Cross-app access: the enterprise IdP's token endpoint and Memo's client ID there.
    pub idp_token_endpoint: Option<String>,
    pub idp_client_id: Option<String>,
    /// Cross-app access: environment variable holding the user's ID token from the IdP.
    pub id_token_env_var: Option<String>,
}

/// How tokens are obtained.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OAuthGrant {
    /// A user logs in in the browser (authorization code with PKCE).
    #[default]
    AuthorizationCode,
    /// The client's own credentials, no user: for servers meant for machines.
    ClientCredentials,
    /// The user's enterprise IdP vouches for them (SEP-990): their ID token is exchanged
    /// at the IdP for a grant the authorization server accepts, no browser.
    CrossAppAccess,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// `$MEMO_HOME/config.toml`
    Memo,
    /// `.mcp.json` (Claude Code, project scope)
    Claude,
    /// `.gemini/settings.json`
    Gemini,
    /// `.cursor/mcp.json`
    Cursor,
    /// An installed plugin's `.mcp.json` (or its `plugin.json`'s `mcpServers`).
    Plugin,
    /// `~/.codex/config.toml` (`[mcp_servers]`, the form Memo's own follows).
    Codex,
    /// Passed by the editor that runs the session over ACP (`mcpServers` of
    /// `session/new`): held in memory for that session only, never written.
    Editor,
}

impl SourceKind {
    pub fn label(self) -> &'static str {
        match self {
            SourceKind::Memo => "memo",
            SourceKind::Claude => "claude",
            SourceKind::Gemini => "gemini",
            SourceKind::Cursor => "cursor",
            SourceKind::Plugin => "plugin",
            SourceKind::Codex => "codex",
            SourceKind::Editor => "editor",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigSource {
    pub kind: SourceKind,
    pub path: PathBuf,
}

impl fmt::Display for ConfigSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path.display(), self.kind.label())
    }
}

/// Something wrong in one server's definition; the server is skipped, the rest load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigProblem {
    pub path: PathBuf,
    /// Key path inside the file, e.g. `mcp_servers.files.args`.
    pub key: String,
    pub message: String,
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.path.display(), self.key, self.message)
    }
}

/// The same server name in two places: `kept` wins, `ignored` is not started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Clash {
    pub name: String,
    pub kept: ConfigSource,
    pub ignored: ConfigSource,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MCP server \"{}\" is defined in {} and in {}; using the first",
            self.name, self.kept, self.ignored
        )
    }
}

/// Every server a session could start, with what went wrong reading them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct McpConfigSet {
    pub servers: Vec<ServerConfig>,
    pub problems: Vec<ConfigProblem>,
    pub clashes: Vec<Clash>,
}

impl McpConfigSet {
    pub fn get(&self, name: &str) -> Option<&ServerConfig> {
        self.servers.iter().find(|s| s.name == name)
    }

    pub fn enabled(&self) -> impl Iterator<Item = &ServerConfig> {
        self.servers.iter().filter(|s| s.enabled)
    }

    /// Adds servers from a lower-precedence source; names already present are clashes.
    pub fn merge(&mut self, servers: Vec<ServerConfig>, problems: Vec<ConfigProblem>) {
        self.problems.extend(problems);
        for server in servers {
            match self.servers.iter().find(|s| s.name == server.name) {
                Some(kept) => self.clashes.push(Clash {
                    name: server.name.clone(),
                    kept: kept.source.clone(),
                    ignored: server.source,
                }),
                None => self.servers.push(server),
            }
        }
    }
}

/// Memo Code's top-level list: when present, only the servers it names start (whatever
/// file they come from); the others are loaded as disabled so they are still listed.
pub const ACTIVE_SERVERS: &str = "active_mcp_servers";

/// `active_mcp_servers` from config.toml's top level; `Err` when it is not a list of
/// strings (then every server starts, as without it, and the problem is reported).
pub fn active_servers(extra: &toml::Table) -> Result<Option<Vec<String>>, String> {
    let Some(value) = extra.get(ACTIVE_SERVERS) else {
        return Ok(None);
    };
    let bad = || format!("expected a list of server names, got {}", value.type_str());
    let list = value.as_array().ok_or_else(bad)?;
    list.iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Parses `[mcp_servers.<name>]` tables from the config's top level (`extra`).
pub fn parse_memo_config(
    extra: &toml::Table,
    path: &Path,
) -> (Vec<ServerConfig>, Vec<ConfigProblem>) {
    parse_server_tables(extra, path, SourceKind::Memo)
}

/// `[mcp_servers]` in a TOML file of Memo's (Codex-style) form, from `kind`'s file.
pub fn parse_server_tables(
    extra: &toml::Table,
    path: &Path,
    kind: SourceKind,
) -> (Vec<ServerConfig>, Vec<ConfigProblem>) {
    let mut servers = Vec::new();
    let mut problems = Vec::new();
    let Some(value) = extra.get("mcp_servers") else {
        return (servers, problems);
    };
    let Some(table) = value.as_table() else {
        problems.push(ConfigProblem {
            path: path.to_owned(),
            key: "mcp_servers".into(),
            message: format!("expected a table, got {}", value.type_str()),
        });
        return (servers, problems);
    };
    let source = ConfigSource {
        kind,
        path: path.to_owned(),
    };
    for (name, value) in table {
        let key = format!("mcp_servers.{name}");
        let json = match serde_json::to_value(value) {
            Ok(json) => json,
            Err(e) => {
                problems.push(ConfigProblem {
                    path: path.to_owned(),
                    key,
                    message: e.to_string(),
                });
                continue;
            }
        };
        match memo_server(name, &json, &source) {
            Ok((server, unknown)) => {
                for k in unknown {
                    problems.push(ConfigProblem {
                        path: path.to_owned(),
                        key: format!("{key}.{k}"),
                        message: "unknown key (ignored)".into(),
                    });
                }
                servers.push(server);
            }
            Err(e) => problems.push(ConfigProblem {
                path: path.to_owned(),
                key: e.key.map(|k| format!("{key}.{k}")).unwrap_or(key),
                message: e.message,
            }),
        }
    }
    (servers, problems)
}

/// One Memo (Codex-style) server table. Returns the unknown keys alongside.
fn memo_server(
    name: &str,
    value: &serde_json::Value,
    source: &ConfigSource,
) -> Result<(ServerConfig, Vec<String>), ValueError> {
    check_name(name)?;
    let mut f = Fields::new(value)?;
    let kind = f.string("type")?;
    let url = f.string("url")?;
    let transport = match (kind.as_deref(), url) {
        (None | Some("stdio"), None) => TransportConfig::Stdio(stdio_fields(&mut f)?),
        (Some("stdio"), Some(_)) => {
            return Err(ValueError::at("url", "a stdio server has no url"));
        }
        (None, Some(url)) => TransportConfig::StreamableHttp(http_fields(&mut f, url)?),
        (Some("streamable_http" | "http" | "streamable-http"), Some(url)) => {
            TransportConfig::StreamableHttp(http_fields(&mut f, url)?)
        }
        (Some("sse"), Some(url)) => TransportConfig::Sse(http_fields(&mut f, url)?),
        (Some("streamable_http" | "http" | "streamable-http" | "sse"), None) => {
            return Err(ValueError::at("url", "missing: an HTTP server needs a url"));
        }
        (Some(other), _) => {
            return Err(ValueError::at(
                "type",
                format!("unknown transport \"{other}\", expected stdio, streamable_http or sse"),
            ));
        }
    };
    let server = ServerConfig {
        name: name.to_owned(),
        transport,
        enabled: f.bool("enabled")?.unwrap_or(true),
        include_tools: match f.strings("include_tools")? {
            Some(list) => Some(list),
            None => f.strings("enabled_tools")?,
        },
        exclude_tools: match f.strings("exclude_tools")? {
            Some(list) => list,
            None => f.strings("disabled_tools")?.unwrap_or_default(),
        },
        startup_timeout: f
            .duration(&[("startup_timeout_sec", 1000.0), ("startup_timeout_ms", 1.0)])?
            .unwrap_or(DEFAULT_STARTUP_TIMEOUT),
        tool_timeout: f
            .duration(&[
                ("tool_timeout_sec", 1000.0),
                ("call_timeout_sec", 1000.0),
                ("tool_timeout_ms", 1.0),
            ])?
            .unwrap_or(DEFAULT_TOOL_TIMEOUT),
        source: source.clone(),
    };
    Ok((server, f.unknown()))
}

fn stdio_fields(f: &mut Fields<'_>) -> Result<StdioConfig, ValueError> {
    let command = f
        .string("command")?
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| ValueError::at("command", "missing: a stdio server needs a command"))?;
    Ok(StdioConfig {
        command,
        args: f.strings("args")?.unwrap_or_default(),
        env: f.string_map("env")?.unwrap_or_default(),
        secret_env: f.strings("keychain_env")?.unwrap_or_default(),
        cwd: f.string("cwd")?.map(PathBuf::from),
        stderr: match f.string("stderr")?.as_deref() {
            None | Some("pipe") => StderrMode::Pipe,
            Some("inherit") => StderrMode::Inherit,
            Some("ignore") => StderrMode::Ignore,
            Some(other) => {
                return Err(ValueError::at(
                    "stderr",
                    format!("unknown mode \"{other}\", expected pipe, inherit or ignore"),
                ))
            }
        },
    })
}

fn http_fields(f: &mut Fields<'_>, url: String) -> Result<HttpConfig, ValueError> {
    check_url(&url)?;
    let mut headers = f.string_map("http_headers")?.unwrap_or_default();
    headers.extend(f.string_map("headers")?.unwrap_or_default());
    let oauth = match f.table("oauth")? {
        Some(value) => {
            let mut o = Fields::new(value)?;
            let grant = match o.string("grant")?.as_deref() {
                None | Some("authorization_code") => OAuthGrant::AuthorizationCode,
                Some("client_credentials") => OAuthGrant::ClientCredentials,
                Some("cross_app_access") => OAuthGrant::CrossAppAccess,
                Some(other) => {
                    return Err(ValueError::at(
                        "oauth.grant",
                        format!(
                            "\"{other}\" is not a grant (authorization_code, client_credentials or cross_app_access)"
                        ),
                    ))
                }
            };
            let client_metadata_url = o.string("client_metadata_url")?;
            if let Some(url) = &client_metadata_url {
                check_metadata_url(url)?;
            }
            let settings = OAuthSettings {
                client_id: o.string("client_id")?,
                client_secret_env_var: o.string("client_secret_env_var")?,
                scopes: o.strings("scopes")?.unwrap_or_default(),
                callback_port: o.port("callback_port")?,
                grant,
                client_metadata_url,
                private_key_env_var: o.string("private_key_env_var")?,
                idp_token_endpoint: o.string("idp_token_endpoint")?,
                idp_client_id: o.string("idp_client_id")?,
                id_token_env_var: o.string("id_token_env_var")?,
            };
            if let Some(k) = o.unknown().first() {
                return Err(ValueError::at(
                    &format!("oauth.{k}"),
                    "unknown key (expected client_id, client_secret_env_var, scopes, callback_port, grant, client_metadata_url, private_key_env_var, idp_token_endpoint, idp_client_id, id_token_env_var)",
                ));
            }
            if settings.grant != OAuthGrant::AuthorizationCode && settings.client_id.is_none() {
                return Err(ValueError::at(
                    "oauth.client_id",
                    "this grant needs the client's client_id",
                ));
            }
            if settings.grant == OAuthGrant::CrossAppAccess {
                let missing = [
                    ("idp_token_endpoint", settings.idp_token_endpoint.is_none()),
                    ("idp_client_id", settings.idp_client_id.is_none()),
                    ("id_token_env_var", settings.id_token_env_var.is_none()),
                ];
                if let Some((key, _)) = missing.iter().find(|(_, absent)| *absent) {
                    return Err(ValueError::at(
                        &format!("oauth.{key}"),
                        "the cross_app_access grant needs it",
                    ));
                }
            }
            settings
        }
        None => OAuthSettings::default(),
    };
    Ok(HttpConfig {
        url,
        bearer_token_env_var: f.string("bearer_token_env_var")?,
        headers,
        env_headers: f.string_map("env_http_headers")?.unwrap_or_default(),
        secret_headers: f.strings("keychain_headers")?.unwrap_or_default(),
        oauth,
    })
}

/// A client ID metadata document's URL is the client's ID: the spec wants https with a
/// path, so the ID names a document and not a whole site.
fn check_metadata_url(url: &str) -> Result<(), ValueError> {
    let parsed = url::Url::parse(url)
        .map_err(|e| ValueError::at("oauth.client_metadata_url", format!("not a URL: {e}")))?;
    if parsed.scheme() != "https" || parsed.path().trim_matches('/').is_empty() {
        return Err(ValueError::at(
            "oauth.client_metadata_url",
            "must be an https URL with a path",
        ));
    }
    Ok(())
}

/// Server names become tool-name prefixes (`server__tool`) and slash commands
/// (`/server:prompt`), so they are kept to characters both allow.
pub(crate) fn check_name(name: &str) -> Result<(), ValueError> {
    if name.is_empty() {
        return Err(ValueError::new("the server name is empty"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(ValueError::new(format!(
            "server name \"{name}\" contains '{bad}'; use letters, digits, '_' and '-'"
        )));
    }
    if name.contains("__") {
        return Err(ValueError::new(format!(
            "server name \"{name}\" contains \"__\", which separates server and tool in tool names"
        )));
    }
    Ok(())
}

pub(crate) fn check_url(url: &str) -> Result<(), ValueError> {
    match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(()),
        Ok(u) => Err(ValueError::at(
            "url",
            format!("expected an http(s) URL, got scheme \"{}\"", u.scheme()),
        )),
        Err(e) => Err(ValueError::at("url", format!("invalid URL \"{url}\": {e}"))),
    }
}

impl ServerConfig {
    /// A copy safe to print: env and header values masked (they often hold secrets).
    pub fn redacted(&self) -> ServerConfig {
        let mut copy = self.clone();
        let mask = |map: &mut BTreeMap<String, String>| {
            for v in map.values_mut() {
                *v = "***".into();
            }
        };
        match &mut copy.transport {
            TransportConfig::Stdio(s) => mask(&mut s.env),
            TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => mask(&mut h.headers),
        }
        copy
    }

    /// Whether starting it needs values from the OS keychain.
    pub fn has_secrets(&self) -> bool {
        match &self.transport {
            TransportConfig::Stdio(s) => !s.secret_env.is_empty(),
            TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => {
                !h.secret_headers.is_empty()
            }
        }
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
