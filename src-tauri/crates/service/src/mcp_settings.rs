//! Settings → MCP: every server a session in the open folder would use (Memo's
//! config.toml and the folder's `.mcp.json`, Gemini and Cursor files), a check that
//! starts them briefly, and edits to config.toml: add, edit, remove, enable
//! (`active_mcp_servers`) and per-tool switches (`exclude_tools`). Env and header values
//! typed into the form go to the OS keychain; config.toml only names them.
//!
//! A project server of a folder that is not trusted is listed but never started, here as
//! in sessions: it runs a program the folder chose.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use memo_config::{Config, TrustStatus};
use memo_mcp::config::{ServerConfig, SourceKind, TransportConfig, ACTIVE_SERVERS};
use memo_mcp::config_edit::{self, NewServer};
use memo_mcp::secrets::{self, SecretKind};
use memo_mcp::{McpConfigSet, McpManager, McpOptions, RestartPolicy, ServerSnapshot, ServerStatus};
use memo_protocol::{
    McpCheckState, McpPromptEntry, McpResourceEntry, McpSecretInput, McpServerCheck, McpServerInfo,
    McpServerInput, McpSettingsPage, McpSourceKind, McpToolEntry, McpTransportKind, McpValueInfo,
    Phrase, TrustState,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

/// What loading the servers for a folder found.
pub(crate) struct Loaded {
    config: Config,
    pub(crate) set: McpConfigSet,
    folder: Option<PathBuf>,
    trust: Option<TrustState>,
}

impl Loaded {
    fn trusted(&self) -> bool {
        self.trust == Some(TrustState::Trusted)
    }

    /// A project server the folder's trust does not cover.
    pub(crate) fn blocked(&self, server: &ServerConfig) -> bool {
        server.source.kind != SourceKind::Memo && !self.trusted()
    }
}

/// What one brief start of some servers found.
pub(crate) struct Probe {
    pub snapshots: Vec<ServerSnapshot>,
    pub tools: Vec<memo_mcp::McpToolInfo>,
    pub prompts: Vec<memo_mcp::PromptInfo>,
    pub resources: BTreeMap<String, Vec<McpResourceEntry>>,
}

impl Service {
    pub(crate) fn load_mcp(&self, cwd: Option<&Path>) -> Result<Loaded> {
        let config = self.config()?;
        let folder = match cwd {
            Some(dir) if dir.is_dir() => Some(dir.to_path_buf()),
            Some(dir) => {
                return Err(ServiceError::invalid(Phrase::NotAFolder {
                    path: dir.display().to_string(),
                }))
            }
            None => None,
        };
        let trust = match &folder {
            Some(dir) => Some(trust_state(self.engine()?.workspace_trust(dir)?.status)),
            None => None,
        };
        let project = folder
            .as_deref()
            .filter(|_| memo_mcp::trust::project_configs_enabled(&config));
        let env = self.env().clone();
        let set = memo_mcp::load_config(&config, project, &|name: &str| env(name));
        Ok(Loaded {
            config,
            set,
            folder,
            trust,
        })
    }

    /// Every server a session in `cwd` (or, without one, anywhere) would use.
    pub fn mcp_settings(&self, cwd: Option<&Path>) -> Result<McpSettingsPage> {
        let loaded = self.load_mcp(cwd)?;
        let mut problems: Vec<String> = loaded.set.problems.iter().map(|p| p.to_string()).collect();
        problems.extend(loaded.set.clashes.iter().map(|c| c.to_string()));
        let servers = loaded
            .set
            .servers
            .iter()
            .map(|s| self.server_info(s, loaded.blocked(s)))
            .collect();
        Ok(McpSettingsPage {
            config_path: loaded.config.path.display().to_string(),
            folder: loaded.folder.as_ref().map(|f| f.display().to_string()),
            trust: loaded.trust,
            servers,
            active_list: loaded.config.extra.contains_key(ACTIVE_SERVERS),
            problems,
        })
    }

    fn server_info(&self, server: &ServerConfig, blocked: bool) -> McpServerInfo {
        let values = |plain: &BTreeMap<String, String>, secret: &[String], kind: SecretKind| {
            let mut out: Vec<McpValueInfo> = plain
                .keys()
                .filter(|name| !secret.contains(name))
                .map(|name| McpValueInfo {
                    name: name.clone(),
                    in_keychain: false,
                    missing: false,
                })
                .collect();
            out.extend(secret.iter().map(|name| McpValueInfo {
                name: name.clone(),
                in_keychain: true,
                missing: !secrets::exists(self.credentials.as_ref(), &server.name, kind, name),
            }));
            out
        };
        let (transport, command, args, url, env, headers) = match &server.transport {
            TransportConfig::Stdio(s) => (
                McpTransportKind::Stdio,
                Some(s.command.clone()),
                s.args.clone(),
                None,
                values(&s.env, &s.secret_env, SecretKind::Env),
                Vec::new(),
            ),
            TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => (
                if matches!(server.transport, TransportConfig::Sse(_)) {
                    McpTransportKind::Sse
                } else {
                    McpTransportKind::StreamableHttp
                },
                None,
                Vec::new(),
                Some(h.url.clone()),
                Vec::new(),
                values(&h.headers, &h.secret_headers, SecretKind::Header),
            ),
        };
        McpServerInfo {
            name: server.name.clone(),
            source: source_kind(server.source.kind),
            source_path: server.source.path.display().to_string(),
            source_label: source_label(
                server.source.kind,
                &server.source.path,
                (self.env())("HOME").as_deref().map(std::path::Path::new),
            ),
            transport,
            command,
            args,
            url,
            env,
            headers,
            enabled: server.enabled,
            excluded_tools: server.exclude_tools.clone(),
            included_tools: server.include_tools.clone(),
            blocked,
        }
    }

    /// Starts the servers (all, or those named) briefly and reports what each offers,
    /// then stops them. Disabled servers and an untrusted folder's project servers are
    /// reported without being started.
    pub async fn check_mcp_servers(
        &self,
        cwd: Option<&Path>,
        names: Option<Vec<String>>,
    ) -> Result<Vec<McpServerCheck>> {
        let loaded = self.load_mcp(cwd)?;
        let wanted: Vec<&ServerConfig> = match &names {
            Some(names) => {
                for name in names {
                    if loaded.set.get(name).is_none() {
                        return Err(no_server(name));
                    }
                }
                loaded
                    .set
                    .servers
                    .iter()
                    .filter(|s| names.contains(&s.name))
                    .collect()
            }
            None => loaded.set.servers.iter().collect(),
        };
        // Started without their tool filters, so the page can list (and turn back on)
        // tools the user turned off.
        let start: Vec<ServerConfig> = wanted
            .iter()
            .filter(|s| s.enabled && !loaded.blocked(s))
            .map(|s| ServerConfig {
                include_tools: None,
                exclude_tools: Vec::new(),
                ..(*s).clone()
            })
            .collect();
        let dir = match &loaded.folder {
            Some(dir) => dir.clone(),
            None => self.home()?.root().to_path_buf(),
        };
        let probe = self.probe(&dir, start).await;
        Ok(wanted
            .into_iter()
            .map(|server| check_of(server, &loaded, &probe))
            .collect())
    }

    /// Starts `servers` as configured (filters included), waits for each one's first
    /// start to end, and stops them: `memo-cli mcp list --status`. The caller decides
    /// which servers may start.
    pub async fn probe_mcp_servers(
        &self,
        cwd: &Path,
        servers: Vec<ServerConfig>,
    ) -> Vec<ServerSnapshot> {
        self.probe(cwd, servers).await.snapshots
    }

    pub(crate) async fn probe(&self, cwd: &Path, servers: Vec<ServerConfig>) -> Probe {
        if servers.is_empty() {
            return Probe {
                snapshots: Vec::new(),
                tools: Vec::new(),
                prompts: Vec::new(),
                resources: BTreeMap::new(),
            };
        }
        let env = self.env().clone();
        // Like sessions: `MEMO_MCP_LOGIN_SHELL=0` uses this process's PATH.
        let path = match env("MEMO_MCP_LOGIN_SHELL").as_deref() {
            Some("0") => env("PATH"),
            _ => None,
        };
        let manager = McpManager::start(
            servers,
            McpOptions {
                path,
                env,
                credentials: Some(self.credentials.clone()),
                // A check reports the first outcome; it does not wait for restarts.
                restart: RestartPolicy {
                    max_attempts: 0,
                    ..RestartPolicy::default()
                },
                ..McpOptions::new(cwd)
            },
        );
        manager.wait_ready().await;
        let snapshots = manager.servers();
        let mut resources = BTreeMap::new();
        for snapshot in &snapshots {
            if snapshot.status == ServerStatus::Ready {
                resources.insert(
                    snapshot.name.clone(),
                    resources_of(&manager, &snapshot.name).await,
                );
            }
        }
        let probe = Probe {
            tools: manager.tool_infos(),
            prompts: manager.prompts(),
            snapshots,
            resources,
        };
        manager.stop().await;
        probe
    }

    /// Adds a server to config.toml (`editing`: replaces the definition of the one with
    /// that name). Typed env and header values go to the OS keychain first, so a
    /// keychain failure leaves config.toml as it was.
    pub fn save_mcp_server(
        &self,
        input: &McpServerInput,
        editing: bool,
        cwd: Option<&Path>,
    ) -> Result<McpSettingsPage> {
        let loaded = self.load_mcp(cwd)?;
        let name = input.name.trim();
        let existing = loaded.set.get(name);
        let old = match (editing, existing) {
            (true, Some(s)) if s.source.kind == SourceKind::Memo => Some(s),
            (true, Some(s)) => return Err(not_ours(s)),
            (true, None) => {
                return Err(ServiceError::not_found(Phrase::McpServerNotInConfig {
                    name: name.to_owned(),
                }))
            }
            (false, Some(s)) => {
                return Err(ServiceError::invalid(Phrase::McpServerExists {
                    name: name.to_owned(),
                    source: s.source.to_string(),
                }))
            }
            (false, None) => None,
        };
        let (kind, entries) = match input.transport {
            McpTransportKind::Stdio => (SecretKind::Env, &input.env),
            McpTransportKind::StreamableHttp | McpTransportKind::Sse => {
                (SecretKind::Header, &input.headers)
            }
        };
        let (old_plain, old_secret) = old.map(stored_values).unwrap_or_default();
        let plan = plan_values(entries, kind, &old_plain, &old_secret)?;
        let server = new_server(input, &plan, old)?;
        let path = loaded.config.path.clone();
        for (value_name, value) in &plan.to_keychain {
            secrets::save(self.credentials.as_ref(), name, kind, value_name, value)
                .map_err(ServiceError::keychain)?;
        }
        if editing {
            config_edit::update_server(&path, name, &server).map_err(config_error)?;
        } else {
            config_edit::add_server(&path, name, &server).map_err(config_error)?;
            // With a list of active servers, a new one would otherwise never start.
            // (A name the list already holds, written by hand before, stays once.)
            if let Ok(Some(mut active)) = memo_mcp::config::active_servers(&loaded.config.extra) {
                if !active.iter().any(|n| n == name) {
                    active.push(name.to_owned());
                    config_edit::set_active_servers(&path, Some(&active)).map_err(config_error)?;
                }
            }
        }
        // Values the form dropped (or that moved from the keychain to another kind).
        for (old_kind, old_name) in old_secret {
            if !(old_kind == kind && plan.secret_names.contains(&old_name)) {
                self.forget_secret(name, old_kind, &old_name);
            }
        }
        self.mcp_settings(cwd)
    }

    fn forget_secret(&self, server: &str, kind: SecretKind, name: &str) {
        if let Err(error) = secrets::delete(self.credentials.as_ref(), server, kind, name) {
            tracing::warn!(%error, server, name, "could not remove an MCP value from the keychain");
        }
    }

    /// Removes a server from config.toml, with its keychain values.
    pub fn remove_mcp_server(&self, name: &str, cwd: Option<&Path>) -> Result<McpSettingsPage> {
        let loaded = self.load_mcp(cwd)?;
        let server = loaded.set.get(name).ok_or_else(|| no_server(name))?;
        if server.source.kind != SourceKind::Memo {
            return Err(not_ours(server));
        }
        let (_, secret) = stored_values(server);
        let path = &loaded.config.path;
        config_edit::remove_server(path, name).map_err(config_error)?;
        if let Ok(Some(mut active)) = memo_mcp::config::active_servers(&loaded.config.extra) {
            active.retain(|n| n != name);
            config_edit::set_active_servers(path, Some(&active)).map_err(config_error)?;
        }
        for (kind, value_name) in secret {
            self.forget_secret(name, kind, &value_name);
        }
        self.mcp_settings(cwd)
    }

    /// Turns a server on or off for new sessions through config.toml's
    /// `active_mcp_servers` (Memo Code's list), which also covers project servers whose
    /// files Memo does not edit. Turning one off without a list writes one naming every
    /// other server known now.
    pub fn set_mcp_server_enabled(
        &self,
        name: &str,
        enabled: bool,
        cwd: Option<&Path>,
    ) -> Result<McpSettingsPage> {
        let loaded = self.load_mcp(cwd)?;
        let server = loaded.set.get(name).ok_or_else(|| no_server(name))?;
        let path = &loaded.config.path;
        let current =
            memo_mcp::config::active_servers(&loaded.config.extra).map_err(|message| {
                ServiceError::invalid(Phrase::McpActiveServersBad {
                    setting: ACTIVE_SERVERS.to_owned(),
                    error: message.to_string(),
                })
            })?;
        let list = match (current, enabled) {
            (Some(mut list), true) => {
                if !list.iter().any(|n| n == name) {
                    list.push(name.to_owned());
                }
                Some(list)
            }
            (None, true) => None,
            (Some(mut list), false) => {
                list.retain(|n| n != name);
                Some(list)
            }
            (None, false) => Some(
                loaded
                    .set
                    .servers
                    .iter()
                    .filter(|s| s.name != name)
                    .map(|s| s.name.clone())
                    .collect(),
            ),
        };
        config_edit::set_active_servers(path, list.as_deref()).map_err(config_error)?;
        if enabled && server.source.kind == SourceKind::Memo {
            config_edit::clear_disabled(path, name).map_err(config_error)?;
        }
        self.mcp_settings(cwd)
    }

    /// Turns one tool of a config.toml server off (`exclude_tools`) or on again.
    pub fn set_mcp_tool_enabled(
        &self,
        server: &str,
        tool: &str,
        enabled: bool,
        cwd: Option<&Path>,
    ) -> Result<McpSettingsPage> {
        let loaded = self.load_mcp(cwd)?;
        let config = loaded.set.get(server).ok_or_else(|| no_server(server))?;
        if config.source.kind != SourceKind::Memo {
            return Err(not_ours(config));
        }
        if enabled
            && config
                .include_tools
                .as_ref()
                .is_some_and(|only| !only.iter().any(|t| t == tool))
        {
            return Err(ServiceError::invalid(Phrase::McpToolNotIncluded {
                server: server.to_owned(),
                tool: tool.to_owned(),
            }));
        }
        config_edit::set_tool_excluded(&loaded.config.path, server, tool, !enabled)
            .map_err(config_error)?;
        self.mcp_settings(cwd)
    }
}

/// Where each of a server's current values is: written in the file, or in the keychain.
type Stored = (BTreeSet<String>, Vec<(SecretKind, String)>);

fn stored_values(server: &ServerConfig) -> Stored {
    match &server.transport {
        TransportConfig::Stdio(s) => (
            s.env.keys().cloned().collect(),
            s.secret_env
                .iter()
                .map(|n| (SecretKind::Env, n.clone()))
                .collect(),
        ),
        TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => (
            h.headers.keys().cloned().collect(),
            h.secret_headers
                .iter()
                .map(|n| (SecretKind::Header, n.clone()))
                .collect(),
        ),
    }
}

/// What the form's values become: names whose values are (or go) in the keychain, values
/// to store there, and values kept as they are written in config.toml.
struct ValuePlan {
    secret_names: Vec<String>,
    to_keychain: Vec<(String, String)>,
    /// Untouched values the user had written in config.toml themselves.
    kept_plain: BTreeSet<String>,
}

fn plan_values(
    entries: &[McpSecretInput],
    kind: SecretKind,
    old_plain: &BTreeSet<String>,
    old_secret: &[(SecretKind, String)],
) -> Result<ValuePlan> {
    let what = || {
        Box::new(match kind {
            SecretKind::Env => Phrase::McpValueEnv,
            SecretKind::Header => Phrase::McpValueHeader,
        })
    };
    let mut plan = ValuePlan {
        secret_names: Vec::new(),
        to_keychain: Vec::new(),
        kept_plain: BTreeSet::new(),
    };
    let mut seen = BTreeSet::new();
    for entry in entries {
        let name = entry.name.trim();
        if name.is_empty() {
            return Err(ServiceError::invalid(Phrase::McpValueNoName {
                what: what(),
            }));
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            return Err(ServiceError::invalid(Phrase::McpValueBadName {
                what: what(),
                name: name.to_owned(),
            }));
        }
        if !seen.insert(name.to_owned()) {
            return Err(ServiceError::invalid(Phrase::McpValueTwice {
                what: what(),
                name: name.to_owned(),
            }));
        }
        match &entry.value {
            Some(value) if !value.is_empty() => {
                if value.contains(['\n', '\r']) {
                    return Err(ServiceError::invalid(Phrase::McpValueLineBreak {
                        name: name.to_owned(),
                    }));
                }
                plan.secret_names.push(name.to_owned());
                plan.to_keychain.push((name.to_owned(), value.clone()));
            }
            _ if old_secret.iter().any(|(k, n)| *k == kind && n == name) => {
                plan.secret_names.push(name.to_owned());
            }
            _ if old_plain.contains(name) => {
                plan.kept_plain.insert(name.to_owned());
            }
            _ => {
                return Err(ServiceError::invalid(Phrase::McpValueMissing {
                    what: what(),
                    name: name.to_owned(),
                }))
            }
        }
    }
    Ok(plan)
}

/// The definition to write. Plain values the user wrote into config.toml by hand and left
/// untouched in the form stay written there, with the value read from the file.
fn new_server(
    input: &McpServerInput,
    plan: &ValuePlan,
    old: Option<&ServerConfig>,
) -> Result<NewServer> {
    let old_plain = match old.map(|s| &s.transport) {
        Some(TransportConfig::Stdio(s)) => s.env.clone(),
        Some(TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h)) => h.headers.clone(),
        None => BTreeMap::new(),
    };
    let kept: BTreeMap<String, String> = old_plain
        .into_iter()
        .filter(|(name, _)| plan.kept_plain.contains(name))
        .collect();
    Ok(match input.transport {
        McpTransportKind::Stdio => {
            let command = input.command.trim();
            if command.is_empty() {
                return Err(ServiceError::invalid(Phrase::McpStdioNeedsCommand));
            }
            NewServer::Stdio {
                command: command.to_owned(),
                args: input.args.clone(),
                env: kept,
                secret_env: plan.secret_names.clone(),
            }
        }
        McpTransportKind::StreamableHttp | McpTransportKind::Sse => {
            let url = input.url.trim();
            if url.is_empty() {
                return Err(ServiceError::invalid(Phrase::McpHttpNeedsUrl));
            }
            let old_bearer = match old.map(|s| &s.transport) {
                Some(TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h)) => {
                    h.bearer_token_env_var.clone()
                }
                _ => None,
            };
            let bearer = match input.bearer_token_env_var.as_deref().map(str::trim) {
                Some("") => None,
                Some(var) => Some(var.to_owned()),
                None => old_bearer,
            };
            NewServer::Http {
                url: url.to_owned(),
                sse: input.transport == McpTransportKind::Sse,
                bearer_token_env_var: bearer,
                headers: kept,
                secret_headers: plan.secret_names.clone(),
            }
        }
    })
}

/// Why, in Memo's words: English in `message`, the phrase for the window.
fn say(check: &mut McpServerCheck, phrase: Phrase) {
    check.message = Some(phrase.english());
    check.phrase = Some(phrase);
}

fn check_of(server: &ServerConfig, loaded: &Loaded, probe: &Probe) -> McpServerCheck {
    let mut check = McpServerCheck {
        name: server.name.clone(),
        state: McpCheckState::Disabled,
        message: None,
        phrase: None,
        stderr_tail: None,
        tools: Vec::new(),
        prompts: Vec::new(),
        resources: Vec::new(),
    };
    if loaded.blocked(server) {
        check.state = McpCheckState::Blocked;
        say(
            &mut check,
            Phrase::McpNotTrusted {
                file: server.source.path.display().to_string(),
            },
        );
        return check;
    }
    if !server.enabled {
        say(&mut check, Phrase::McpTurnedOff);
        return check;
    }
    let Some(snapshot) = probe.snapshots.iter().find(|s| s.name == server.name) else {
        check.state = McpCheckState::Failed;
        say(&mut check, Phrase::McpNotStarted);
        return check;
    };
    check.state = match snapshot.status {
        ServerStatus::Ready => McpCheckState::Ready,
        ServerStatus::NeedsAuth => McpCheckState::NeedsLogin,
        ServerStatus::Crashed => McpCheckState::Crashed,
        ServerStatus::Disabled => McpCheckState::Disabled,
        ServerStatus::Failed | ServerStatus::Starting | ServerStatus::Stopped => {
            McpCheckState::Failed
        }
    };
    check.message = snapshot.message.clone();
    check.phrase = snapshot.phrase.clone();
    check.stderr_tail = snapshot.stderr_tail.clone();
    check.tools = probe
        .tools
        .iter()
        .filter(|t| t.server == server.name)
        .map(|t| McpToolEntry {
            name: t.name.clone(),
            description: t.description.clone(),
            enabled: server.allows_tool(&t.name),
        })
        .collect();
    check.prompts = probe
        .prompts
        .iter()
        .filter(|p| p.server == server.name)
        .map(|p| McpPromptEntry {
            name: p.name.clone(),
            description: p.description.clone(),
        })
        .collect();
    check.resources = probe
        .resources
        .get(&server.name)
        .cloned()
        .unwrap_or_default();
    check
}

/// A server's resources; one that offers none (or fails to list them) has none.
async fn resources_of(manager: &McpManager, server: &str) -> Vec<McpResourceEntry> {
    let Ok(value) = manager.list_resources(Some(server)).await else {
        return Vec::new();
    };
    value["resources"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| {
                    let uri = item["uri"].as_str()?.to_owned();
                    let name = item["name"].as_str().unwrap_or(&uri).to_owned();
                    Some(McpResourceEntry { uri, name })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn not_ours(server: &ServerConfig) -> ServiceError {
    ServiceError::invalid(Phrase::McpServerDefinedElsewhere {
        name: server.name.clone(),
        file: server.source.to_string(),
    })
}

fn no_server(name: &str) -> ServiceError {
    ServiceError::not_found(Phrase::McpServerNotFound {
        name: name.to_owned(),
    })
}

fn config_error(error: memo_mcp::McpError) -> ServiceError {
    ServiceError::invalid(error.phrase())
}

fn source_kind(kind: SourceKind) -> McpSourceKind {
    match kind {
        SourceKind::Memo => McpSourceKind::Memo,
        SourceKind::Claude => McpSourceKind::Claude,
        SourceKind::Gemini => McpSourceKind::Gemini,
        SourceKind::Cursor => McpSourceKind::Cursor,
        SourceKind::Plugin => McpSourceKind::Plugin,
        SourceKind::Codex => McpSourceKind::Codex,
        SourceKind::Editor => McpSourceKind::Editor,
    }
}

/// `path` as a person names it: under the home folder as `~/…`, else by its kind.
fn source_label(
    kind: SourceKind,
    path: &std::path::Path,
    home: Option<&std::path::Path>,
) -> String {
    if kind == SourceKind::Memo {
        return "config.toml".into();
    }
    if kind == SourceKind::Plugin {
        return "a plugin".into();
    }
    if kind == SourceKind::Editor {
        return "the editor (ACP)".into();
    }
    // An extension is what a Gemini CLI user installed and names; its manifest's path
    // is not (it sits in the tooltip of the full source).
    if kind == SourceKind::Gemini
        && path
            .file_name()
            .is_some_and(|n| n == "gemini-extension.json")
    {
        if let Some(name) = path.parent().and_then(|dir| dir.file_name()) {
            return format!("Gemini CLI extension {}", name.to_string_lossy());
        }
    }
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rel) => format!("~/{}", rel.display()),
        None => match kind {
            SourceKind::Claude => ".mcp.json".into(),
            SourceKind::Gemini => ".gemini/settings.json".into(),
            SourceKind::Cursor => ".cursor/mcp.json".into(),
            _ => path.display().to_string(),
        },
    }
}

fn trust_state(status: TrustStatus) -> TrustState {
    match status {
        TrustStatus::Trusted => TrustState::Trusted,
        TrustStatus::Untrusted => TrustState::Untrusted,
        TrustStatus::Unasked => TrustState::Unasked,
        TrustStatus::Changed => TrustState::Changed,
    }
}

#[cfg(test)]
mod label_tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_servers_file_is_named_as_a_person_would() {
        let home = Some(Path::new("/home/u"));
        assert_eq!(
            source_label(SourceKind::Claude, Path::new("/home/u/.claude.json"), home),
            "~/.claude.json"
        );
        assert_eq!(
            source_label(
                SourceKind::Codex,
                Path::new("/home/u/.codex/config.toml"),
                home
            ),
            "~/.codex/config.toml"
        );
        assert_eq!(
            source_label(SourceKind::Claude, Path::new("/work/p/.mcp.json"), home),
            ".mcp.json"
        );
        assert_eq!(
            source_label(
                SourceKind::Memo,
                Path::new("/home/u/.memo/config.toml"),
                home
            ),
            "config.toml"
        );
        assert_eq!(
            source_label(
                SourceKind::Gemini,
                Path::new("/home/u/.gemini/extensions/db-tools/gemini-extension.json"),
                home
            ),
            "Gemini CLI extension db-tools"
        );
    }
}
