//! The ACP agent: each request of the client as a call on Memo's service, and the
//! session's events back as `session/update`s. Sessions are Memo's own, in Memo's store:
//! one started in an editor is in the desktop app's history, and `session/load` opens any
//! stored one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use memo_protocol::{
    AgentEvent, ApprovalMode, CompletionKind, ErrorCode, Op, Phrase, SessionId, TurnEndReason,
};
use memo_service::{Service, ServiceError, StartRequest};
use serde_json::Value;

use crate::editor::Editor;
use crate::files::EditorFiles;
use crate::permission::{self, Answer};
use crate::rpc::{Incoming, Peer};
use crate::schema as acp;
use crate::terminals::EditorTerminals;
use crate::updates::Translator;

/// Events read from the store per page when a stored session is replayed.
const REPLAY_PAGE: usize = 500;
/// Commands and skills listed to the client.
const COMMANDS_LISTED: usize = 100;
/// The one way to authenticate: a key for the provider, kept in the OS keychain.
const KEY_METHOD: &str = "memo-api-key";

pub struct Agent {
    service: Arc<Service>,
    peer: Peer,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    initialized: bool,
    /// The client offered `fs/read_text_file` and `fs/write_text_file`: Memo's file
    /// tools read and write its buffers.
    editor_files: bool,
    /// The client offered `terminal/*`: `exec_command` runs commands in its terminals.
    editor_terminals: bool,
    /// Sessions this connection opened, and whether a prompt runs in each.
    sessions: HashMap<String, Open>,
}

struct Open {
    cwd: PathBuf,
    prompting: bool,
    /// The editor's terminals the session's commands run in, when it offers them.
    terminals: Option<Arc<EditorTerminals>>,
}

type Reply = Result<Value, acp::Error>;

/// What of the editor a session's tools use (its files and terminals, where the client
/// offers them), and where the session's id goes once the session exists.
struct EditorHosts {
    hosts: memo_service::Hosts,
    terminals: Option<Arc<EditorTerminals>>,
    slot: Arc<OnceLock<acp::SessionId>>,
}

impl Agent {
    pub fn new(service: Arc<Service>, peer: Peer) -> Arc<Self> {
        Arc::new(Self {
            service,
            peer,
            state: Mutex::default(),
        })
    }

    /// Acts on one message. Requests are answered on their own task, so a long prompt
    /// does not hold up a cancel or another session's request.
    pub fn receive(self: &Arc<Self>, message: Incoming) {
        match message {
            Incoming::Request { id, method, params } => {
                let agent = Arc::clone(self);
                tokio::spawn(async move {
                    let reply = agent.request(&method, params).await;
                    let opened = reply.as_ref().ok().and_then(opened_session);
                    agent.peer.respond(id, reply);
                    // The commands come once the client knows the session.
                    if let Some(session) = opened {
                        agent.announce_commands(&session);
                    }
                });
            }
            Incoming::Notification { method, params } => self.notification(&method, params),
            // Answered with an error by the connection; a client's junk ends nothing.
            Incoming::Malformed(_) => {}
        }
    }

    /// Stops what runs when the client goes away: every session this connection opened.
    pub async fn close(&self) {
        let open: Vec<String> = lock(&self.state)
            .sessions
            .drain()
            .map(|(id, _)| id)
            .collect();
        for id in open {
            // Closing stops a running turn itself; an interrupt with none running would
            // leave a "no turn is running" notice in the session's log.
            self.service.close_session(&SessionId::new(id)).await;
        }
    }

    async fn request(&self, method: &str, params: Value) -> Reply {
        if method == "initialize" {
            return self.initialize(parse(params)?);
        }
        if !lock(&self.state).initialized {
            return Err(acp::Error::invalid_request().data(Phrase::AcpInitializeFirst.english()));
        }
        match method {
            "authenticate" => self.authenticate(parse(params)?),
            "session/new" => self.new_session(parse(params)?),
            "session/load" => self.load_session(parse(params)?).await,
            "session/prompt" => self.prompt(parse(params)?).await,
            "session/set_mode" => self.set_mode(parse(params)?),
            "session/set_config_option" => self.set_config(parse(params)?),
            _ => Err(acp::Error::method_not_found().data(method.to_owned())),
        }
    }

    fn notification(&self, method: &str, params: Value) {
        if method != "session/cancel" {
            tracing::debug!(method, "acp: a notification Memo does not act on");
            return;
        }
        let Ok(cancel) = serde_json::from_value::<acp::CancelNotification>(params) else {
            tracing::warn!("acp: a session/cancel that does not parse");
            return;
        };
        let id = cancel.session_id.0.clone();
        if lock(&self.state)
            .sessions
            .get(&id)
            .is_some_and(|open| open.prompting)
        {
            let _ = self.service.submit(&SessionId::new(id), Op::Interrupt);
        }
    }

    fn initialize(&self, request: acp::InitializeRequest) -> Reply {
        {
            let mut state = lock(&self.state);
            state.initialized = true;
            let fs = &request.client_capabilities.fs;
            state.editor_files = fs.read_text_file && fs.write_text_file;
            state.editor_terminals = request.client_capabilities.terminal;
        }
        // The newest version both sides speak; a client asking for a newer one gets ours
        // and decides whether it can go on.
        let response = acp::InitializeResponse {
            protocol_version: request.protocol_version.min(acp::PROTOCOL_VERSION),
            agent_capabilities: acp::AgentCapabilities {
                load_session: true,
                prompt_capabilities: acp::PromptCapabilities {
                    image: true,
                    audio: false,
                    embedded_context: true,
                },
                mcp_capabilities: acp::McpCapabilities {
                    http: true,
                    sse: true,
                },
            },
            auth_methods: self.missing_key().map(key_method).into_iter().collect(),
            agent_info: acp::Implementation {
                name: "memo".to_owned(),
                title: Some("Memo".to_owned()),
                version: env!("CARGO_PKG_VERSION").to_owned(),
            },
        };
        reply(response)
    }

    /// The current provider, when it needs a key and has none.
    fn missing_key(&self) -> Option<String> {
        let providers = self.service.list_providers().ok()?;
        let current = providers.into_iter().find(|p| p.is_current)?;
        let status = self.service.key_status(&current.name).ok()?;
        (status.required && status.source.is_none()).then_some(current.name)
    }

    /// There is nothing to do in the editor: the key goes into the keychain with
    /// memo-cli or the window. This says whether it is there now.
    fn authenticate(&self, request: acp::AuthenticateRequest) -> Reply {
        if request.method_id != KEY_METHOD {
            return Err(acp::Error::invalid_params().data(request.method_id));
        }
        match self.missing_key() {
            None => Ok(serde_json::json!({})),
            Some(provider) => {
                Err(acp::Error::auth_required()
                    .data(Phrase::AcpKeyMethodHow { provider }.english()))
            }
        }
    }

    /// The editor's files and terminals for a session (those it offers), and where the
    /// session's id goes once it exists.
    fn editor_hosts(&self) -> Result<EditorHosts, acp::Error> {
        let slot = Arc::new(OnceLock::new());
        let (files, terminals) = {
            let state = lock(&self.state);
            (state.editor_files, state.editor_terminals)
        };
        let mut hosts = EditorHosts {
            hosts: memo_service::Hosts::default(),
            terminals: None,
            slot: slot.clone(),
        };
        if !files && !terminals {
            return Ok(hosts);
        }
        let editor = Editor::new(self.peer.clone(), slot).map_err(service_error)?;
        if files {
            hosts.hosts.files = Some(EditorFiles::new(editor.clone()));
        }
        if terminals {
            let made = EditorTerminals::new(editor);
            hosts.hosts.terminals = Some(made.clone());
            hosts.terminals = Some(made);
        }
        Ok(hosts)
    }

    fn new_session(&self, request: acp::NewSessionRequest) -> Reply {
        let cwd = workspace(&request.cwd)?;
        let editor = self.editor_hosts()?;
        let summary = self
            .service
            .start_session(StartRequest {
                cwd: cwd.clone(),
                mcp_servers: editor_servers(&request.mcp_servers),
                hosts: editor.hosts,
                ..StartRequest::default()
            })
            .map_err(service_error)?;
        let _ = editor.slot.set(acp::SessionId::new(summary.id.to_string()));
        self.opened(&summary.id, PathBuf::from(&summary.cwd), editor.terminals);
        reply(acp::NewSessionResponse {
            session_id: acp::SessionId::new(summary.id.to_string()),
            modes: self.modes(&summary.id),
            config_options: crate::models::options(&self.service, &summary.provider),
        })
    }

    async fn load_session(&self, request: acp::LoadSessionRequest) -> Reply {
        let id = SessionId::new(request.session_id.0.clone());
        let stored = self.service.session(&id).map_err(|_| {
            acp::Error::resource_not_found()
                .data(Phrase::AcpNoSession { id: id.to_string() }.english())
        })?;
        let editor = self.editor_hosts()?;
        let _ = editor.slot.set(request.session_id.clone());
        let live = self
            .service
            .resume_session_with(
                &id,
                memo_service::SessionOverrides {
                    mcp_servers: editor_servers(&request.mcp_servers),
                    hosts: editor.hosts,
                    ..memo_service::SessionOverrides::default()
                },
            )
            .map_err(service_error)?;
        let cwd = PathBuf::from(&stored.cwd);
        // Everything the session said so far, as updates, before the answer.
        let mut translator = Translator::new(cwd.clone(), true);
        let mut after = 0;
        loop {
            let page = self
                .service
                .events(&id, after, REPLAY_PAGE)
                .map_err(service_error)?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            for envelope in &page {
                self.send_updates(&request.session_id, translator.updates(&envelope.event));
            }
            if page.len() < REPLAY_PAGE {
                break;
            }
        }
        self.opened(&live.id, cwd, editor.terminals);
        reply(acp::LoadSessionResponse {
            modes: self.modes(&live.id),
            config_options: crate::models::options(&self.service, &live.provider),
        })
    }

    fn set_mode(&self, request: acp::SetSessionModeRequest) -> Reply {
        let id = self.known(&request.session_id)?;
        let mode = request.mode_id;
        self.service
            .submit(&id, Op::SetApprovalMode { mode })
            .map_err(service_error)?;
        Ok(serde_json::json!({}))
    }

    fn set_config(&self, request: acp::SetSessionConfigOptionRequest) -> Reply {
        let id = self.known(&request.session_id)?;
        let options = crate::models::set(&self.service, &id, &request)?;
        Ok(serde_json::json!({ "configOptions": options }))
    }

    async fn prompt(&self, request: acp::PromptRequest) -> Reply {
        let id = self.known(&request.session_id)?;
        let (cwd, terminals) = {
            let mut state = lock(&self.state);
            let open = state
                .sessions
                .get_mut(id.as_str())
                .ok_or_else(|| session_not_found(&request.session_id))?;
            if open.prompting {
                return Err(acp::Error::invalid_request().data(Phrase::AcpTurnRunning.english()));
            }
            open.prompting = true;
            (open.cwd.clone(), open.terminals.clone())
        };
        let outcome = self.run_turn(&request, &id, &cwd, terminals).await;
        if let Some(open) = lock(&self.state).sessions.get_mut(id.as_str()) {
            open.prompting = false;
        }
        outcome
    }

    async fn run_turn(
        &self,
        request: &acp::PromptRequest,
        id: &SessionId,
        cwd: &Path,
        terminals: Option<Arc<EditorTerminals>>,
    ) -> Reply {
        let mut input = crate::input::user_input(&request.prompt, cwd)
            .map_err(|e| acp::Error::invalid_params().data(e.to_string()))?;
        input.text = self.skill_command(cwd, id, input.text);
        let last_seq = self.service.session(id).map_err(service_error)?.last_seq;
        let mut events = self
            .service
            .subscribe(id, last_seq)
            .map_err(service_error)?;
        self.service
            .submit(id, Op::UserTurn { input })
            .map_err(service_error)?;
        let mut translator = Translator::new(cwd.to_path_buf(), false).with_terminals(terminals);
        let mut last_error: Option<String> = None;
        while let Some(envelope) = events.recv().await {
            self.send_updates(&request.session_id, translator.updates(&envelope.event));
            match &envelope.event {
                AgentEvent::ApprovalRequested { request: asked } => {
                    let fields = translator.asked(
                        asked.call_id.as_str(),
                        &asked.tool_name,
                        asked.diff.as_deref(),
                    );
                    self.ask(&request.session_id, id, asked.clone(), fields);
                }
                AgentEvent::ElicitationRequested { request_id, .. } => {
                    // ACP v1 has no form to show: the server is told no, and goes on.
                    let _ = self.service.submit(
                        id,
                        Op::ResolveElicitation {
                            request_id: request_id.clone(),
                            action: memo_protocol::ElicitationAction::Decline,
                            content: None,
                        },
                    );
                }
                AgentEvent::Usage { .. } => self.send_usage(&request.session_id, id),
                AgentEvent::Error { message, .. } => last_error = Some(message.clone()),
                AgentEvent::CommandResult { .. } if envelope.turn_id.is_none() => {
                    return reply(acp::PromptResponse {
                        stop_reason: acp::StopReason::EndTurn,
                    });
                }
                AgentEvent::TurnEnded { reason, .. } => {
                    let stop = match reason {
                        TurnEndReason::Completed => acp::StopReason::EndTurn,
                        TurnEndReason::Interrupted => acp::StopReason::Cancelled,
                        TurnEndReason::StepLimit => acp::StopReason::MaxTurnRequests,
                        TurnEndReason::Failed => {
                            let why = last_error.unwrap_or_else(|| Phrase::AcpTurnFailed.english());
                            return Err(acp::Error::internal_error().data(why));
                        }
                    };
                    return reply(acp::PromptResponse { stop_reason: stop });
                }
                _ => {}
            }
        }
        Err(acp::Error::internal_error().data(Phrase::AcpSessionEnded.english()))
    }

    /// Asks the client on a task of its own: the engine waits for the answer, and the
    /// prompt's loop keeps forwarding what else happens (other calls of the step).
    fn ask(
        &self,
        acp_session: &acp::SessionId,
        id: &SessionId,
        asked: memo_protocol::ApprovalRequest,
        fields: acp::ToolCallFields,
    ) {
        let question = acp::RequestPermissionRequest {
            session_id: acp_session.clone(),
            tool_call: acp::ToolCallUpdate::new(asked.call_id.to_string(), fields),
            options: permission::options(&asked),
        };
        let peer = self.peer.clone();
        let service = Arc::clone(&self.service);
        let id = id.clone();
        tokio::spawn(async move {
            let response = peer.request("session/request_permission", question).await;
            let decision = match permission::answer(&asked, response) {
                Answer::Decide(decision) => decision,
                // The client cancelled the prompt and sends `session/cancel`, which ends
                // the turn; until then the call is not run.
                Answer::Cancelled => memo_protocol::ReviewDecision::Deny {
                    reason: Some("the prompt was cancelled".to_owned()),
                },
            };
            let op = Op::ResolveApproval {
                request_id: asked.request_id.clone(),
                decision,
            };
            // The turn may have ended meanwhile (a cancel): nothing is left to answer.
            let _ = service.submit(&id, op);
        });
    }

    fn send_updates(&self, session: &acp::SessionId, updates: Vec<acp::SessionUpdate>) {
        for update in updates {
            self.peer.notify(
                "session/update",
                acp::SessionNotification {
                    session_id: session.clone(),
                    update,
                },
            );
        }
    }

    fn send_usage(&self, session: &acp::SessionId, id: &SessionId) {
        let Ok(status) = self.service.session_status(id) else {
            return;
        };
        let usage = acp::UsageUpdate {
            used: status.used_tokens,
            size: status.context_window,
            cost: status.cost_usd.map(|amount| acp::Cost {
                amount,
                currency: "USD".to_owned(),
            }),
        };
        self.send_updates(session, vec![acp::SessionUpdate::UsageUpdate(usage)]);
    }

    /// Memo's slash commands, custom command files and skills, as the client's commands.
    fn announce_commands(&self, session: &acp::SessionId) {
        let id = SessionId::new(session.0.clone());
        let Some(cwd) = lock(&self.state)
            .sessions
            .get(id.as_str())
            .map(|o| o.cwd.clone())
        else {
            return;
        };
        let mut commands = Vec::new();
        for kind in [CompletionKind::Command, CompletionKind::Skill] {
            let found = self
                .service
                .complete(&cwd, Some(&id), kind, "", COMMANDS_LISTED)
                .unwrap_or_default();
            for completion in found {
                let name = completion.value.trim_start_matches(['/', '$']).to_owned();
                if name.is_empty()
                    || commands
                        .iter()
                        .any(|c: &acp::AvailableCommand| c.name == name)
                {
                    continue;
                }
                commands.push(acp::AvailableCommand {
                    name,
                    description: completion.detail.unwrap_or_default(),
                });
            }
        }
        self.send_updates(
            session,
            vec![acp::SessionUpdate::AvailableCommandsUpdate(
                acp::AvailableCommandsUpdate {
                    available_commands: commands,
                },
            )],
        );
    }

    /// `/name rest` for a skill (clients send every listed command with a slash) is
    /// Memo's `$name rest`; a real slash command is left as it is.
    fn skill_command(&self, cwd: &Path, id: &SessionId, text: String) -> String {
        let Some(rest) = text.strip_prefix('/') else {
            return text;
        };
        let name = rest.split_whitespace().next().unwrap_or_default();
        if name.is_empty() {
            return text;
        }
        let is = |kind| {
            self.service
                .complete(cwd, Some(id), kind, name, COMMANDS_LISTED)
                .unwrap_or_default()
                .iter()
                .any(|c| c.value.trim_start_matches(['/', '$']) == name)
        };
        if !is(CompletionKind::Command) && is(CompletionKind::Skill) {
            format!("${rest}")
        } else {
            text
        }
    }

    fn modes(&self, id: &SessionId) -> acp::SessionModeState {
        let current = self
            .service
            .session_status(id)
            .ok()
            .and_then(|status| status.approval_mode)
            .unwrap_or_default();
        let mode = |mode: ApprovalMode, name: Phrase, effect: Phrase| acp::SessionMode {
            id: mode,
            name: name.english(),
            description: effect.english(),
        };
        acp::SessionModeState {
            current_mode_id: current,
            available_modes: vec![
                mode(
                    ApprovalMode::Auto,
                    Phrase::AcpModeAuto,
                    Phrase::AcpModeAutoEffect,
                ),
                mode(
                    ApprovalMode::Strict,
                    Phrase::AcpModeStrict,
                    Phrase::AcpModeStrictEffect,
                ),
                mode(
                    ApprovalMode::Dangerous,
                    Phrase::AcpModeDangerous,
                    Phrase::AcpModeDangerousEffect,
                ),
            ],
        }
    }

    fn opened(&self, id: &SessionId, cwd: PathBuf, terminals: Option<Arc<EditorTerminals>>) {
        lock(&self.state).sessions.insert(
            id.to_string(),
            Open {
                cwd,
                prompting: false,
                terminals,
            },
        );
    }

    /// The Memo session of an ACP session id this connection opened.
    fn known(&self, session: &acp::SessionId) -> Result<SessionId, acp::Error> {
        let id = session.0.clone();
        if lock(&self.state).sessions.contains_key(&id) {
            Ok(SessionId::new(id))
        } else {
            Err(session_not_found(session))
        }
    }
}

fn session_not_found(session: &acp::SessionId) -> acp::Error {
    acp::Error::resource_not_found().data(
        Phrase::AcpNoSession {
            id: session.0.clone(),
        }
        .english(),
    )
}

/// The session a successful `session/new` or `session/load` answer opened.
fn opened_session(result: &Value) -> Option<acp::SessionId> {
    result
        .get("sessionId")
        .and_then(Value::as_str)
        .map(acp::SessionId::new)
}

/// The editor's MCP servers for the session; one Memo cannot read is left out, and the
/// log says which and why.
fn editor_servers(described: &[Value]) -> Vec<memo_mcp::config::ServerConfig> {
    let (servers, unreadable) = crate::mcp::servers(described);
    for problem in unreadable {
        tracing::warn!("acp: an MCP server from the editor was left out: {problem}");
    }
    servers
}

/// The session's folder: absolute, as ACP requires, and there.
fn workspace(cwd: &Path) -> Result<PathBuf, acp::Error> {
    if !cwd.is_absolute() {
        return Err(acp::Error::invalid_params().data(
            Phrase::AcpCwdNotAbsolute {
                path: cwd.display().to_string(),
            }
            .english(),
        ));
    }
    if !cwd.is_dir() {
        return Err(acp::Error::invalid_params().data(
            Phrase::AcpCwdMissing {
                path: cwd.display().to_string(),
            }
            .english(),
        ));
    }
    Ok(cwd.to_path_buf())
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, acp::Error> {
    serde_json::from_value(params).map_err(|e| acp::Error::invalid_params().data(e.to_string()))
}

fn reply(value: impl serde::Serialize) -> Reply {
    serde_json::to_value(value).map_err(|e| acp::Error::internal_error().data(e.to_string()))
}

/// A service error as the JSON-RPC error an editor shows, its sentence in the data.
fn service_error(error: ServiceError) -> acp::Error {
    let base = match error.code() {
        ErrorCode::InvalidInput | ErrorCode::Conflict => acp::Error::invalid_params(),
        ErrorCode::NotFound => acp::Error::resource_not_found(),
        ErrorCode::MissingKey => acp::Error::auth_required(),
        _ => acp::Error::internal_error(),
    };
    base.data(error.to_string())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn key_method(provider: String) -> acp::AuthMethod {
    acp::AuthMethod {
        id: KEY_METHOD.to_owned(),
        name: Phrase::AcpKeyMethod.english(),
        description: Some(Phrase::AcpKeyMethodHow { provider }.english()),
    }
}
