//! One external agent running one Memo session: the connection to its process, what it
//! streams turned into the session's events, and its requests served through the turn
//! ([`PeerTurn`]).
//!
//! Messages from the agent are handled in the order they came, on one task: a
//! `tool_call` is on its card before the permission question about it. Requests (a
//! question can wait minutes for a person) run on tasks of their own. The answer to
//! `session/prompt` arrives by another path, so the prompt waits until every update sent
//! before it was handled.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use memo_acp_wire::rpc::{self, Incoming};
use memo_acp_wire::schema::{
    self as acp, ContentBlock, ContentChunk, CreateTerminalRequest, PermissionOptionKind,
    ReadTextFileRequest, RequestPermissionOutcome, RequestPermissionRequest,
    RequestPermissionResponse, StopReason, TerminalExitStatus, TerminalRequest,
    WriteTextFileRequest,
};
use memo_engine::peer::{PeerAnswer, PeerAsk, PeerError, PeerStop, PeerTurn};
use memo_protocol::{PlanItem, PlanStatus, UserInput};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::process::{AgentProcess, Launch};
use crate::settings::Settings;
use crate::views::{self, Call};
use crate::ClientError;

/// How long starting the agent may take: `npx` may fetch it first.
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long an agent whose output closed gets to report how it exited.
const EXIT_WAIT: Duration = Duration::from_secs(1);

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the agent says about itself at `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentInfo {
    pub name: String,
    pub title: Option<String>,
    pub version: Option<String>,
    /// The ways it can sign in (`authenticate` ids and names).
    pub auth_methods: Vec<(String, String)>,
    /// It can continue a session of its own (`session/load`).
    pub load_session: bool,
    /// MCP transports it takes beside stdio (`mcpCapabilities`).
    pub mcp_http: bool,
    pub mcp_sse: bool,
}

impl AgentInfo {
    fn read(value: &Value) -> Self {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let flag = |at: &str| value.pointer(at).and_then(Value::as_bool).unwrap_or(false);
        let info = value.get("agentInfo").unwrap_or(&Value::Null);
        Self {
            name: text(info, "name").unwrap_or_default(),
            title: text(info, "title"),
            version: text(info, "version"),
            auth_methods: value
                .get("authMethods")
                .and_then(Value::as_array)
                .map(|methods| {
                    methods
                        .iter()
                        .filter_map(|m| {
                            let id = text(m, "id")?;
                            let name = text(m, "name").unwrap_or_else(|| id.clone());
                            Some((id, name))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            load_session: flag("/agentCapabilities/loadSession"),
            mcp_http: flag("/agentCapabilities/mcpCapabilities/http"),
            mcp_sse: flag("/agentCapabilities/mcpCapabilities/sse"),
        }
    }

    /// How it is labelled: its title, else its name.
    pub fn label(&self) -> String {
        self.title.clone().unwrap_or_else(|| self.name.clone())
    }
}

/// A running agent with one session open in it.
pub struct ExternalAgent {
    /// Its name in config.toml (in fingerprints of its own tools' approvals).
    name: String,
    cwd: PathBuf,
    rpc: rpc::Peer,
    process: AgentProcess,
    info: std::sync::OnceLock<AgentInfo>,
    session: Mutex<Option<acp::SessionId>>,
    turn: Mutex<Option<PeerTurn>>,
    calls: Mutex<HashMap<String, Call>>,
    /// Its own settings for the session (mode, model…), as it last said.
    settings: Mutex<Settings>,
    /// Cancelled once the agent's output ends (it exited or broke the protocol), with
    /// why in `broken`.
    gone: CancellationToken,
    broken: Mutex<Option<String>>,
    barrier: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

impl ExternalAgent {
    /// Starts agent `name` for a session in `cwd` and initializes it.
    pub async fn start(name: &str, launch: &Launch, cwd: &Path) -> Result<Arc<Self>, ClientError> {
        let path = crate::process::agent_path().await;
        let (process, stdin, stdout) = AgentProcess::spawn(launch, cwd, &path)?;
        let (rpc, incoming) = rpc::connect(stdout, stdin);
        let (barrier, barriers) = mpsc::unbounded_channel();
        let agent = Arc::new(Self {
            name: name.to_owned(),
            cwd: cwd.to_path_buf(),
            rpc,
            process,
            info: std::sync::OnceLock::new(),
            session: Mutex::new(None),
            turn: Mutex::new(None),
            calls: Mutex::default(),
            settings: Mutex::default(),
            gone: CancellationToken::new(),
            broken: Mutex::new(None),
            barrier,
        });
        tokio::spawn(read_loop(
            Arc::downgrade(&agent),
            incoming,
            barriers,
            agent.gone.clone(),
        ));
        let request = acp::InitializeRequest {
            protocol_version: acp::PROTOCOL_VERSION,
            client_capabilities: acp::ClientCapabilities {
                fs: acp::FileSystemCapability {
                    read_text_file: true,
                    write_text_file: true,
                },
                terminal: true,
            },
        };
        let mut params = serde_json::to_value(&request).unwrap_or(Value::Null);
        params["clientInfo"] =
            json!({"name": "memo", "title": "Memo", "version": env!("CARGO_PKG_VERSION")});
        let answer = agent.call("initialize", params).await;
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                agent.process.stop().await;
                return Err(error);
            }
        };
        let _ = agent.info.set(AgentInfo::read(&answer));
        Ok(agent)
    }

    /// What it said about itself at `initialize`.
    pub fn info(&self) -> AgentInfo {
        self.info.get().cloned().unwrap_or_default()
    }

    /// Stops its process tree.
    pub async fn stop(&self) {
        self.process.stop().await;
    }

    /// Its output ended (it exited or broke the protocol): it takes no more prompts.
    pub fn is_gone(&self) -> bool {
        self.gone.is_cancelled()
    }

    /// Asks it to stop the running prompt.
    pub fn cancel(&self) {
        if let Some(session) = self.session_id() {
            self.rpc.notify(
                "session/cancel",
                acp::CancelNotification {
                    session_id: session,
                },
            );
        }
    }

    /// Opens the agent's session: continues `resume` with `session/load` when the agent
    /// can, else a new one. Returns the agent's session id.
    /// `mcp_servers` (ACP's server descriptions) go with it, those over a transport the
    /// agent does not take left out.
    pub async fn open_session(
        &self,
        resume: Option<&str>,
        mcp_servers: &[Value],
    ) -> Result<String, ClientError> {
        let cwd = self.cwd.display().to_string();
        let info = self.info();
        let servers: Vec<&Value> = mcp_servers
            .iter()
            .filter(|s| match s.get("type").and_then(Value::as_str) {
                Some("http") => info.mcp_http,
                Some("sse") => info.mcp_sse,
                _ => true,
            })
            .collect();
        if let (Some(id), true) = (resume, info.load_session) {
            // Its replay of the history comes before the answer; with no turn running it
            // is not recorded again (Memo has it).
            let params = json!({"sessionId": id, "cwd": cwd, "mcpServers": servers});
            if let Ok(answer) = self.call("session/load", params).await {
                *lock(&self.settings) = Settings::read(&answer);
                *lock(&self.session) = Some(acp::SessionId::new(id));
                return Ok(id.to_owned());
            }
        }
        let answer = self
            .call("session/new", json!({"cwd": cwd, "mcpServers": servers}))
            .await?;
        let id = answer
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ClientError::Protocol("session/new answered without a sessionId".into())
            })?
            .to_owned();
        *lock(&self.settings) = Settings::read(&answer);
        *lock(&self.session) = Some(acp::SessionId::new(id.clone()));
        Ok(id)
    }

    /// Its own settings for the open session (mode, model…), as it last said.
    pub fn settings(&self) -> Vec<memo_protocol::AgentSetting> {
        lock(&self.settings).list()
    }

    /// Sets its setting `id` to `value`; all its settings as they are then.
    pub async fn set_setting(
        &self,
        id: &str,
        value: &str,
    ) -> Result<Vec<memo_protocol::AgentSetting>, ClientError> {
        let session = self
            .session_id()
            .ok_or_else(|| ClientError::Protocol("no session is open".into()))?;
        let request = lock(&self.settings).request(&session.0, id, value);
        let Some((method, params)) = request else {
            let offered = crate::settings::offered(&self.settings(), id);
            return Err(ClientError::UnknownSetting { offered });
        };
        let answer = self.call(method, params).await?;
        let mut settings = lock(&self.settings);
        settings.took(id, value, &answer);
        Ok(settings.list())
    }

    /// A request of ours, failing with the agent's stderr when the agent is gone.
    async fn call(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let asked = self.rpc.request(method, params);
        let answer = tokio::select! {
            answer = asked => answer,
            _ = self.gone.cancelled() => return Err(self.gone_error().await),
            _ = tokio::time::sleep(START_TIMEOUT), if method != "session/prompt" => {
                return Err(ClientError::Timeout { method: method.to_owned() });
            }
        };
        if let Err(error) = &answer {
            // The connection closed under the request: the agent's end, which the read
            // loop is about to say; its words are the error, not the closing.
            if error.data.as_ref().and_then(Value::as_str) == Some(rpc::CONNECTION_CLOSED) {
                let _ = tokio::time::timeout(EXIT_WAIT, self.gone.cancelled()).await;
            }
            if self.gone.is_cancelled() {
                return Err(self.gone_error().await);
            }
        }
        answer.map_err(|error| ClientError::Refused {
            method: method.to_owned(),
            message: error.said(),
            auth: error.code == acp::Error::auth_required().code,
        })
    }

    async fn gone_error(&self) -> ClientError {
        let why = lock(&self.broken).clone();
        let why = match why {
            Some(why) => why,
            None => match self.process.exit_within(EXIT_WAIT).await {
                Some(status) => format!("it exited ({status})"),
                None => "its output closed".into(),
            },
        };
        ClientError::Gone {
            why,
            stderr: self.process.stderr_tail_within(EXIT_WAIT).await,
        }
    }

    pub(crate) fn session_id(&self) -> Option<acp::SessionId> {
        lock(&self.session).clone()
    }

    fn current_turn(&self) -> Option<PeerTurn> {
        lock(&self.turn).clone()
    }

    /// Waits until every message that came before now was handled.
    async fn settle(&self) {
        let (done, wait) = oneshot::channel();
        if self.barrier.send(done).is_ok() {
            let _ = wait.await;
        }
    }

    pub(crate) async fn run_prompt(
        self: Arc<Self>,
        input: UserInput,
        turn: PeerTurn,
    ) -> Result<PeerStop, PeerError> {
        let Some(session) = self.session_id() else {
            return Err(PeerError("the agent has no session open".into()));
        };
        if self.gone.is_cancelled() {
            return Err(PeerError(self.gone_error().await.to_string()));
        }
        lock(&self.calls).clear();
        *lock(&self.turn) = Some(turn);
        let mut prompt = vec![ContentBlock::Text(acp::TextContent::new(input.text))];
        for image in input.images {
            prompt.push(ContentBlock::Image(acp::ImageContent::new(
                image.data,
                image.media_type,
            )));
        }
        let answer = self
            .call(
                "session/prompt",
                json!({"sessionId": session, "prompt": prompt}),
            )
            .await;
        // Updates sent before the answer belong to this turn.
        self.settle().await;
        *lock(&self.turn) = None;
        let answer = answer.map_err(|e| PeerError(e.to_string()))?;
        let stop = answer
            .get("stopReason")
            .cloned()
            .and_then(|v| serde_json::from_value::<StopReason>(v).ok());
        Ok(match stop {
            Some(StopReason::EndTurn) | None => PeerStop::EndTurn,
            Some(StopReason::MaxTokens) => PeerStop::MaxTokens,
            Some(StopReason::MaxTurnRequests) => PeerStop::MaxTurnRequests,
            Some(StopReason::Refusal) => PeerStop::Refusal,
            Some(StopReason::Cancelled) => PeerStop::Cancelled,
        })
    }

    /// One message from the agent, in order.
    async fn handle(self: &Arc<Self>, message: Incoming) {
        match message {
            Incoming::Notification { method, params } if method == "session/update" => {
                self.update(params).await;
            }
            Incoming::Notification { method, .. } => {
                tracing::debug!(method, "acp client: a notification not acted on");
            }
            Incoming::Request { id, method, params } => {
                let agent = Arc::clone(self);
                tokio::spawn(async move {
                    let reply = agent.request(&method, params).await;
                    agent.rpc.respond(id, reply);
                });
            }
            Incoming::Malformed(line) => {
                let why = format!("it printed something that is not the protocol: {line}");
                *lock(&self.broken) = Some(why);
                // The output cannot be trusted from here on: the agent is stopped, and
                // the running prompt ends with this error.
                self.gone.cancel();
                self.process.stop().await;
            }
        }
    }

    async fn update(&self, params: Value) {
        let ours = self.session_id();
        let session = params.get("sessionId").and_then(Value::as_str);
        if ours.as_ref().map(|s| s.0.as_str()) != session {
            return;
        }
        let update = params.get("update").cloned().unwrap_or(Value::Null);
        // Kept also outside a prompt: the header shows the next pick from them.
        let changed = lock(&self.settings).update(&update);
        // Outside a prompt (a session/load replay, commands announced): nothing to record.
        let Some(turn) = self.current_turn() else {
            return;
        };
        if changed {
            turn.settings(self.settings());
            return;
        }
        let kind = update
            .get("sessionUpdate")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        match kind.as_str() {
            "agent_message_chunk" | "agent_thought_chunk" => {
                let Ok(chunk) = serde_json::from_value::<ContentChunk>(update) else {
                    return;
                };
                if let ContentBlock::Text(text) = chunk.content {
                    if kind == "agent_message_chunk" {
                        turn.text(&text.text);
                    } else {
                        turn.reasoning(&text.text);
                    }
                }
            }
            "tool_call" | "tool_call_update" => {
                let Some(id) = update
                    .get("toolCallId")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                else {
                    return;
                };
                self.tool_call(&turn, &id, views::fields(update)).await;
            }
            "usage_update" => {
                let Ok(usage) = serde_json::from_value::<acp::UsageUpdate>(update) else {
                    return;
                };
                // A cost in another currency is not Memo's dollars: left out.
                let cost = usage
                    .cost
                    .filter(|c| c.currency.eq_ignore_ascii_case("USD") && c.amount.is_finite())
                    .map(|c| c.amount);
                turn.usage(usage.used, usage.size, cost);
            }
            "plan" => {
                let Ok(plan) = serde_json::from_value::<acp::Plan>(update) else {
                    return;
                };
                turn.plan(
                    plan.entries
                        .into_iter()
                        .map(|e| PlanItem {
                            step: e.content,
                            status: match e.status {
                                acp::PlanEntryStatus::Pending => PlanStatus::Pending,
                                acp::PlanEntryStatus::InProgress => PlanStatus::InProgress,
                                acp::PlanEntryStatus::Completed => PlanStatus::Completed,
                            },
                        })
                        .collect(),
                );
            }
            _ => {}
        }
    }

    /// A call began, changed or ended: its card follows.
    async fn tool_call(&self, turn: &PeerTurn, id: &str, fields: acp::ToolCallFields) {
        let call = {
            let mut calls = lock(&self.calls);
            let call = calls.entry(id.to_owned()).or_default();
            views::merge(&mut call.fields, fields);
            call.clone()
        };
        if !turn.is_open(id) {
            let arguments = call.fields.raw_input.clone().unwrap_or(Value::Null);
            turn.tool_call(
                id,
                &call.name(),
                &arguments,
                call.view(&self.cwd),
                call.may_change(),
            )
            .await;
        }
        let Some(ok) = call.ended() else {
            turn.tool_view(id, call.view(&self.cwd));
            return;
        };
        let call = self.with_terminal_output(turn, id, call);
        turn.tool_ended(id, ok, call.view(&self.cwd), call.output())
            .await;
    }

    /// `call` with its terminal's output, when it has a terminal Memo still holds.
    fn with_terminal_output(&self, turn: &PeerTurn, id: &str, mut call: Call) -> Call {
        if call.terminal_output.is_none() {
            if let Some(terminal) = call.terminal_id() {
                self.keep_terminal_output(turn, &terminal);
                if let Some(kept) = lock(&self.calls).get(id) {
                    call = kept.clone();
                }
            }
        }
        call
    }

    /// The open call a file request is about: one whose diff or location names `path`.
    fn call_for_path(&self, path: &Path) -> Option<String> {
        lock(&self.calls).iter().find_map(|(id, call)| {
            let names = call
                .fields
                .locations
                .iter()
                .flatten()
                .any(|l| l.path == path)
                || call
                    .fields
                    .content
                    .iter()
                    .flatten()
                    .any(|c| matches!(c, acp::ToolCallContent::Diff(d) if d.path == path));
            (names && call.ended().is_none()).then(|| id.clone())
        })
    }

    /// The open call a terminal request is about: the latest `execute` one.
    fn open_command_call(&self) -> Option<String> {
        lock(&self.calls)
            .iter()
            .filter(|(_, c)| c.ended().is_none() && c.kind() == acp::ToolKind::Execute)
            .map(|(id, _)| id.clone())
            .max()
    }

    async fn request(&self, method: &str, params: Value) -> Result<Value, acp::Error> {
        let no_turn = || acp::Error::invalid_request().data("no prompt is running in this session");
        let bad = |e: serde_json::Error| acp::Error::invalid_params().data(e.to_string());
        let failed = |e: PeerError| acp::Error::internal_error().data(e.0);
        let turn = self.current_turn();
        match method {
            "session/request_permission" => {
                let request: RequestPermissionRequest =
                    serde_json::from_value(params).map_err(bad)?;
                let Some(turn) = turn else {
                    return permission_answer(&request, PeerAnswer::Cancelled);
                };
                let id = request.tool_call.tool_call_id.clone();
                self.tool_call(&turn, &id, request.tool_call.fields.clone())
                    .await;
                let call = lock(&self.calls).get(&id).cloned().unwrap_or_default();
                let answer = turn
                    .approve(PeerAsk {
                        call_id: id,
                        title: call.name(),
                        action: call.action(&self.name),
                        arguments: call.fields.raw_input.clone().unwrap_or(Value::Null),
                    })
                    .await;
                permission_answer(&request, answer)
            }
            "fs/read_text_file" => {
                let request: ReadTextFileRequest = serde_json::from_value(params).map_err(bad)?;
                let turn = turn.ok_or_else(no_turn)?;
                let content = turn
                    .read_text(
                        &request.path.display().to_string(),
                        request.line,
                        request.limit,
                    )
                    .map_err(|e| acp::Error::resource_not_found().data(e.0))?;
                Ok(json!({ "content": content }))
            }
            "fs/write_text_file" => {
                let request: WriteTextFileRequest = serde_json::from_value(params).map_err(bad)?;
                let turn = turn.ok_or_else(no_turn)?;
                let call = self.call_for_path(&request.path);
                turn.write_text(
                    call.as_deref(),
                    &request.path.display().to_string(),
                    &request.content,
                )
                .await
                .map_err(failed)?;
                Ok(json!({}))
            }
            "terminal/create" => {
                let request: CreateTerminalRequest = serde_json::from_value(params).map_err(bad)?;
                let turn = turn.ok_or_else(no_turn)?;
                let command = command_line(&request.command, &request.args);
                let judged = memos_wrapped(&request.command, &request.args);
                let env = request.env.into_iter().map(|v| (v.name, v.value)).collect();
                let id = turn
                    .terminal_create(
                        self.open_command_call().as_deref(),
                        command,
                        judged,
                        request.cwd.map(|c| c.display().to_string()),
                        env,
                        request.output_byte_limit,
                    )
                    .await
                    .map_err(failed)?;
                Ok(json!({ "terminalId": id }))
            }
            "terminal/output" | "terminal/wait_for_exit" | "terminal/kill" | "terminal/release" => {
                let request: TerminalRequest = serde_json::from_value(params).map_err(bad)?;
                let turn = turn.ok_or_else(no_turn)?;
                let id = request.terminal_id.as_str();
                match method {
                    "terminal/output" => {
                        let output = turn.terminal_output(id).map_err(failed)?;
                        Ok(json!({
                            "output": output.output,
                            "truncated": output.truncated,
                            "exitStatus": output.exit.map(|e| TerminalExitStatus { exit_code: e.code, signal: e.signal }),
                        }))
                    }
                    "terminal/wait_for_exit" => {
                        let exit = turn.terminal_wait(id).await.map_err(failed)?;
                        Ok(json!({ "exitCode": exit.code, "signal": exit.signal }))
                    }
                    "terminal/kill" => {
                        turn.terminal_kill(id).map_err(failed)?;
                        Ok(json!({}))
                    }
                    _ => {
                        // Its card keeps what it printed.
                        self.keep_terminal_output(&turn, id);
                        turn.terminal_release(id).map_err(failed)?;
                        Ok(json!({}))
                    }
                }
            }
            _ => Err(acp::Error::method_not_found().data(method.to_owned())),
        }
    }

    /// Before a terminal goes: its output on the call that shows it.
    fn keep_terminal_output(&self, turn: &PeerTurn, terminal: &str) {
        let Ok(output) = turn.terminal_output(terminal) else {
            return;
        };
        let mut calls = lock(&self.calls);
        if let Some(call) = calls
            .values_mut()
            .find(|c| c.terminal_id().as_deref() == Some(terminal))
        {
            call.took(output);
        }
    }
}

/// The agent's chosen option for Memo's answer: the first of the kind that says it.
fn permission_answer(
    request: &RequestPermissionRequest,
    answer: PeerAnswer,
) -> Result<Value, acp::Error> {
    let pick = |kinds: &[PermissionOptionKind]| {
        kinds.iter().find_map(|kind| {
            request
                .options
                .iter()
                .find(|o| o.kind == *kind)
                .map(|o| o.option_id.clone())
        })
    };
    let option = match answer {
        // Memo keeps its own grants and rules: the agent is told "once" each time.
        PeerAnswer::Allowed => pick(&[
            PermissionOptionKind::AllowOnce,
            PermissionOptionKind::AllowAlways,
        ]),
        PeerAnswer::Denied(_) => pick(&[
            PermissionOptionKind::RejectOnce,
            PermissionOptionKind::RejectAlways,
        ]),
        PeerAnswer::Cancelled => None,
    };
    let outcome = match option {
        Some(option_id) => RequestPermissionOutcome::Selected { option_id },
        None => RequestPermissionOutcome::Cancelled,
    };
    serde_json::to_value(RequestPermissionResponse { outcome })
        .map_err(|e| acp::Error::internal_error().data(e.to_string()))
}

/// `command` with `args` as one shell line (each argument quoted); `command` alone as
/// the agent wrote it (agents send whole shell lines there).
fn command_line(command: &str, args: &[String]) -> String {
    if args.is_empty() {
        return command.to_owned();
    }
    std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .map(views::shell_word)
        .collect::<Vec<_>>()
        .join(" ")
}

/// When another Memo's agent asks for a terminal, it runs its command inside Memo's
/// sandbox wrapper (`memo-cli sandbox-exec … -- bash -c COMMAND`), and has already asked
/// about COMMAND: that is what Memo's approvals judge, so one command is one question.
/// Only for this installation's own binaries: any other program is judged as the line.
fn memos_wrapped(program: &str, args: &[String]) -> Option<String> {
    let command = memo_engine::tools::exec::hosted::wrapped_command(args)?;
    let program = std::fs::canonicalize(program).ok()?;
    let me = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .ok()?;
    let sibling = me.parent().map(|dir| dir.join("memo-cli"));
    (program == me || Some(&program) == sibling.as_ref()).then(|| command.to_owned())
}

/// The agent's messages, one at a time; a barrier is answered once nothing that came
/// before it waits.
async fn read_loop(
    agent: std::sync::Weak<ExternalAgent>,
    mut incoming: mpsc::UnboundedReceiver<Incoming>,
    mut barriers: mpsc::UnboundedReceiver<oneshot::Sender<()>>,
    gone: CancellationToken,
) {
    loop {
        tokio::select! {
            biased;
            message = incoming.recv() => {
                let Some(message) = message else { break };
                let Some(agent) = agent.upgrade() else { break };
                agent.handle(message).await;
            }
            Some(done) = barriers.recv() => {
                let _ = done.send(());
            }
        }
    }
    gone.cancel();
    // Barriers asked after the end are answered too: nothing more will come.
    while let Ok(done) = barriers.try_recv() {
        let _ = done.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_and_a_bare_command_is_kept() {
        assert_eq!(command_line("echo hi && pwd", &[]), "echo hi && pwd");
        assert_eq!(
            command_line("git", &["commit".into(), "-m".into(), "it's done".into()]),
            r"git commit -m 'it'\''s done'"
        );
    }

    #[test]
    fn memos_answer_picks_the_agents_option_of_that_kind() {
        let request: RequestPermissionRequest = serde_json::from_value(json!({
            "sessionId": "s", "toolCall": {"toolCallId": "t"},
            "options": [
                {"optionId": "allow_always", "name": "Always", "kind": "allow_always"},
                {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                {"optionId": "reject", "name": "Reject", "kind": "reject_once"}
            ]
        }))
        .unwrap();
        let chosen = |answer| permission_answer(&request, answer).unwrap();
        assert_eq!(
            chosen(PeerAnswer::Allowed),
            json!({"outcome": {"outcome": "selected", "optionId": "allow"}})
        );
        assert_eq!(
            chosen(PeerAnswer::Denied("no".into())),
            json!({"outcome": {"outcome": "selected", "optionId": "reject"}})
        );
        assert_eq!(
            chosen(PeerAnswer::Cancelled),
            json!({"outcome": {"outcome": "cancelled"}})
        );
        let only_allow: RequestPermissionRequest = serde_json::from_value(json!({
            "sessionId": "s", "toolCall": {"toolCallId": "t"},
            "options": [{"optionId": "ok", "name": "OK", "kind": "allow_once"}]
        }))
        .unwrap();
        // No option says no: a deny is then a cancel, never an allow.
        assert_eq!(
            permission_answer(&only_allow, PeerAnswer::Denied("no".into())).unwrap(),
            json!({"outcome": {"outcome": "cancelled"}})
        );
    }
}
