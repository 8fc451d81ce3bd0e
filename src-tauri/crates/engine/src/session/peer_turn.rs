//! A turn another agent runs ([`crate::peer`]): its prompt goes to the agent, and what the
//! agent streams back becomes this session's events, in the order and shape a turn of
//! Memo's own has them, so every front end renders it with the same cards.
//!
//! The agent's text between two of its tool calls is one step: `assistant_message` is
//! recorded when the next call begins (naming that call) and at the end of the turn.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use memo_model::ToolCall;
use memo_protocol::{
    AgentEvent, ErrorKind, Phrase, PlanItem, TokenUsage, ToolCallId, ToolCallSummary,
    ToolErrorKind, ToolStatus, ToolView, TurnEndReason, TurnId, UserInput,
};
use tokio_util::sync::CancellationToken;

use super::approvals::{Approval, ApprovalHint, ApprovalRules, Approver};
use super::peer_terminals::Terminals;
use super::scope::TurnScope;
use super::state::SessionState;
use crate::peer::{PeerAction, PeerAnswer, PeerAsk, PeerError, PeerExit, PeerOutput, PeerStop};
use crate::tools::{ToolContext, ToolPreview};

/// The largest file sent whole to the agent (`fs/read_text_file`): it is one JSON message.
const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

/// How long a cancelled agent gets to answer its prompt before the turn ends without it.
const CANCEL_GRACE: Duration = Duration::from_secs(10);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The session as one prompt of another agent sees it. Cheap to clone; every clone is
/// the same turn.
#[derive(Clone)]
pub struct PeerTurn {
    inner: Arc<Inner>,
}

struct Inner {
    shared: Arc<SessionState>,
    scope: TurnScope,
    state: Mutex<TurnState>,
    terminals: Terminals,
}

#[derive(Default)]
struct TurnState {
    /// Answer text and thinking since the last step boundary.
    text: String,
    reasoning: String,
    calls: HashMap<String, Call>,
    /// Fingerprints allowed in this turn: the file write or terminal that follows the
    /// agent's own question about it is not asked again.
    allowed: HashSet<String>,
    /// Calls Memo made up for writes and terminals the agent asked for outside any call.
    made_up: u32,
    /// Calls whose command ran on a terminal of Memo's, and whether in its sandbox.
    sandboxed: HashMap<String, bool>,
}

struct Call {
    name: String,
    may_change: bool,
    ended: bool,
}

impl PeerTurn {
    fn new(shared: Arc<SessionState>, scope: TurnScope) -> Self {
        Self {
            inner: Arc::new(Inner {
                terminals: Terminals::new(),
                shared,
                scope,
                state: Mutex::default(),
            }),
        }
    }

    /// Cancelled when the person stops the turn.
    pub fn cancelled(&self) -> CancellationToken {
        self.inner.scope.cancel().clone()
    }

    fn emit(&self, event: AgentEvent) {
        // A failed write is reported to subscribers by the emitter itself.
        let _ = self.inner.scope.emit(event);
    }

    fn record(&self, event: AgentEvent) {
        let _ = self.inner.scope.record(event);
    }

    /// Answer text, streamed.
    pub fn text(&self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        lock(&self.inner.state).text.push_str(delta);
        self.emit(AgentEvent::TextDelta {
            delta: delta.to_owned(),
        });
    }

    /// Thinking, streamed.
    pub fn reasoning(&self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        lock(&self.inner.state).reasoning.push_str(delta);
        self.emit(AgentEvent::ReasoningDelta {
            delta: delta.to_owned(),
        });
    }

    /// The step so far as `assistant_message`, naming `calls`; nothing when it is empty.
    fn end_step(&self, calls: Vec<ToolCallSummary>) {
        let (text, reasoning) = {
            let mut state = lock(&self.inner.state);
            (
                std::mem::take(&mut state.text),
                std::mem::take(&mut state.reasoning),
            )
        };
        if text.is_empty() && reasoning.is_empty() && calls.is_empty() {
            return;
        }
        self.record(AgentEvent::AssistantMessage {
            text,
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls: calls,
            provider_data: None,
        });
    }

    /// The agent started a call (or says more about one it started: then only its view
    /// changes). `may_change` calls are checkpointed around, so what they change shows in
    /// the changes panel whoever wrote it.
    pub async fn tool_call(
        &self,
        id: &str,
        name: &str,
        arguments: &serde_json::Value,
        view: ToolView,
        may_change: bool,
    ) {
        let known = {
            let mut state = lock(&self.inner.state);
            let known = state.calls.contains_key(id);
            if !known {
                state.calls.insert(
                    id.to_owned(),
                    Call {
                        name: name.to_owned(),
                        may_change,
                        ended: false,
                    },
                );
            }
            known
        };
        if known {
            self.tool_view(id, view);
            return;
        }
        let call_id = ToolCallId::new(id.to_owned());
        self.emit(AgentEvent::ToolCallBegin {
            call_id: call_id.clone(),
            name: name.to_owned(),
        });
        self.end_step(vec![ToolCallSummary {
            call_id: call_id.clone(),
            name: name.to_owned(),
            arguments: arguments.to_string(),
        }]);
        self.emit(AgentEvent::ToolCallView { call_id, view });
        if may_change {
            if let Some(checkpoints) = &self.inner.shared.checkpoints {
                checkpoints.before_call(&self.inner.scope).await;
            }
        }
    }

    /// A command's view says where it really ran: the agent's views cannot know whether
    /// Memo's terminal sandboxed it.
    fn as_run(&self, id: &str, mut view: ToolView) -> ToolView {
        if let ToolView::Command(command) = &mut view {
            if let Some(inside) = lock(&self.inner.state).sandboxed.get(id) {
                command.sandboxed = *inside;
            }
        }
        view
    }

    /// A running call's card changed.
    pub fn tool_view(&self, id: &str, view: ToolView) {
        let view = self.as_run(id, view);
        let open = lock(&self.inner.state)
            .calls
            .get(id)
            .is_some_and(|c| !c.ended);
        if open {
            self.emit(AgentEvent::ToolCallView {
                call_id: ToolCallId::new(id.to_owned()),
                view,
            });
        }
    }

    /// Whether the agent's call `id` began and has not ended.
    pub fn is_open(&self, id: &str) -> bool {
        lock(&self.inner.state)
            .calls
            .get(id)
            .is_some_and(|c| !c.ended)
    }

    /// The agent's call ended; `output` is what it said the call returned. Files it
    /// changed are announced first (`files_changed`), as for Memo's own calls.
    pub async fn tool_ended(&self, id: &str, ok: bool, view: ToolView, output: String) {
        let (name, may_change) = {
            let mut state = lock(&self.inner.state);
            match state.calls.get_mut(id) {
                Some(call) if !call.ended => {
                    call.ended = true;
                    (call.name.clone(), call.may_change)
                }
                _ => return,
            }
        };
        let call_id = ToolCallId::new(id.to_owned());
        let view = self.as_run(id, view);
        if may_change {
            if let Some(checkpoints) = &self.inner.shared.checkpoints {
                checkpoints
                    .after_call(&self.inner.scope, &call_id, &name)
                    .await;
            }
        }
        self.record(AgentEvent::ToolCallEnd {
            call_id,
            name,
            status: if ok {
                ToolStatus::Ok
            } else {
                ToolStatus::Error
            },
            error_kind: (!ok).then_some(ToolErrorKind::ExecutionFailed),
            view: Some(view),
            output,
            full_length: None,
        });
    }

    /// The agent's plan, whole.
    pub fn plan(&self, plan: Vec<PlanItem>) {
        self.emit(AgentEvent::PlanUpdated {
            explanation: None,
            plan,
        });
    }

    /// The agent's name in config.toml (the session's provider, without its prefix).
    fn agent_name(&self) -> String {
        let provider = self.inner.shared.binding().provider.clone();
        memo_protocol::external_agent_of(&provider)
            .unwrap_or(&provider)
            .to_owned()
    }

    /// The agent failed (it crashed, broke the protocol, refused the prompt): said in
    /// the person's language around what the agent or its OS said.
    fn failed(&self, message: String) {
        let phrase = Phrase::ExternalAgentFailed {
            name: self.agent_name(),
            message,
        };
        self.emit(AgentEvent::Error {
            kind: ErrorKind::Provider,
            message: phrase.english(),
            retryable: false,
            detail: None,
            phrase: Some(phrase),
        });
    }

    /// The agent's process started (again) and opened its session.
    pub fn agent_started(
        &self,
        label: String,
        version: Option<String>,
        agent_session: String,
        resumed: bool,
    ) {
        self.emit(AgentEvent::ExternalAgentStarted {
            agent: self.agent_name(),
            label,
            version,
            agent_session,
            resumed,
        });
    }

    /// The agent's own settings (its mode, model…) as they are now.
    pub fn settings(&self, settings: Vec<memo_protocol::AgentSetting>) {
        self.emit(AgentEvent::ExternalAgentSettings { settings });
    }

    /// The agent did not take a setting picked before it started.
    pub fn setting_refused(&self, setting: String, value: String, message: String) {
        self.emit(setting_refused(setting, value, message));
    }

    /// The agent said how full its context is (and what the session cost).
    pub fn usage(&self, used_tokens: u64, context_window: u64, cost_usd: Option<f64>) {
        self.emit(AgentEvent::ExternalAgentUsage {
            used_tokens,
            context_window,
            cost_usd,
        });
    }

    fn tool_context(&self) -> ToolContext {
        ToolContext {
            read_denials: self.inner.shared.refresh_read_denials(),
            cancel: self.inner.scope.cancel().clone(),
            ..self.inner.shared.tool_ctx.clone()
        }
    }

    /// How Memo's approvals see `action`: through Memo's own tool for it where there is
    /// one, so the guard, the path policy, the diff and the fingerprints are the same.
    /// What Memo refuses outright (the path policy, the guard) is said in the transcript.
    async fn preview(
        &self,
        ctx: &ToolContext,
        title: &str,
        action: &PeerAction,
    ) -> Result<(ToolPreview, serde_json::Value), String> {
        let judged = self.judge(ctx, title, action).await;
        if let Err(why) = &judged {
            self.refused(title, why);
        }
        judged
    }

    async fn judge(
        &self,
        ctx: &ToolContext,
        title: &str,
        action: &PeerAction,
    ) -> Result<(ToolPreview, serde_json::Value), String> {
        let (tool, args) = match action {
            PeerAction::Command { command, cwd } => {
                let mut args = serde_json::json!({ "cmd": command });
                if let Some(cwd) = cwd {
                    args["workdir"] = serde_json::Value::String(cwd.clone());
                }
                ("exec_command", args)
            }
            PeerAction::Write { path, content } => (
                "write_file",
                serde_json::json!({ "file_path": path, "content": content }),
            ),
            PeerAction::Edit {
                path,
                old_text,
                new_text,
            } => {
                let content = match old_text {
                    None => Some(new_text.clone()),
                    Some(old) => ctx
                        .readable(path)
                        .ok()
                        .and_then(|real| std::fs::read_to_string(real).ok())
                        .filter(|text| text.contains(old.as_str()))
                        .map(|text| text.replacen(old.as_str(), new_text, 1)),
                };
                match content {
                    Some(content) => (
                        "write_file",
                        serde_json::json!({ "file_path": path, "content": content }),
                    ),
                    // The agent's text is not in the file as it stands: judge the write
                    // to the file, and show the agent's own two texts.
                    None => {
                        let real = ctx.writable(path).map_err(|e| e.message)?;
                        let old = old_text.as_deref().unwrap_or_default();
                        let diff = crate::tools::FileHunks::new(old, new_text).file_diff(
                            path,
                            &format!("a/{path}"),
                            &format!("b/{path}"),
                        );
                        let preview = ToolPreview {
                            risk: memo_protocol::RiskLevel::Write,
                            fingerprint: format!("write:{}", real.display()),
                            why: vec![Phrase::ToolRuns {
                                tool: title.to_owned(),
                            }],
                            command: None,
                            cwd: Some(ctx.cwd.display().to_string()),
                            diff: Some(diff),
                        };
                        return Ok((preview, serde_json::Value::Null));
                    }
                }
            }
            PeerAction::Other { risk, fingerprint } => {
                let preview = ToolPreview {
                    risk: *risk,
                    fingerprint: fingerprint.clone(),
                    why: vec![Phrase::ToolRuns {
                        tool: title.to_owned(),
                    }],
                    command: None,
                    cwd: Some(ctx.cwd.display().to_string()),
                    diff: None,
                };
                return Ok((preview, serde_json::Value::Null));
            }
        };
        let Some(tool) = self.inner.shared.tools.get(tool) else {
            return Err(format!(
                "Memo's {tool} tool is turned off, so this is not allowed"
            ));
        };
        match tool.preview(ctx, &args).await {
            Ok(preview) => Ok((preview, args)),
            Err(error) => Err(error.message),
        }
    }

    /// Puts the agent's question to Memo's approvals: kept rules, grants and the mode
    /// answer first; otherwise the person, on the call's card.
    pub async fn approve(&self, ask: PeerAsk) -> PeerAnswer {
        let ctx = self.tool_context();
        match self.preview(&ctx, &ask.title, &ask.action).await {
            Ok((preview, _)) => {
                self.decide(&ctx, &ask.call_id, &ask.title, &preview, &ask.arguments)
                    .await
            }
            Err(why) => PeerAnswer::Denied(why),
        }
    }

    async fn decide(
        &self,
        ctx: &ToolContext,
        call_id: &str,
        title: &str,
        preview: &ToolPreview,
        arguments: &serde_json::Value,
    ) -> PeerAnswer {
        let shared = &self.inner.shared;
        let settings = &shared.context.settings;
        let home = shared.user_home();
        let approver = Approver::for_step(
            &self.inner.scope,
            &shared.approvals,
            ApprovalRules {
                store: settings.approval_rules.as_ref(),
                imported: &settings.imported_rules,
                cwd: &shared.tool_ctx.cwd,
                denials: &ctx.read_denials,
                home: home.as_deref(),
                command_limits: &settings.command_limits,
            },
        );
        let call = ToolCall {
            id: call_id.to_owned(),
            name: title.to_owned(),
            arguments: arguments.to_string(),
        };
        match approver
            .approve(&call, preview, arguments, &ApprovalHint::None)
            .await
        {
            Ok(Approval::Granted { .. }) => {
                lock(&self.inner.state)
                    .allowed
                    .insert(preview.fingerprint.clone());
                PeerAnswer::Allowed
            }
            Ok(Approval::Denied(why)) => PeerAnswer::Denied(why),
            Ok(Approval::Interrupted) => PeerAnswer::Cancelled,
            Err(error) => PeerAnswer::Denied(error.to_string()),
        }
    }

    /// Memo refused what the agent asked without asking the person (the path policy,
    /// the guard, a read-deny rule): said in the transcript, since the agent's card only
    /// says it was refused.
    fn refused(&self, title: &str, why: &str) {
        self.emit(AgentEvent::Error {
            kind: ErrorKind::InvalidOp,
            message: format!("Memo refused {title}: {why}"),
            retryable: false,
            detail: None,
            phrase: None,
        });
    }

    /// Allowed already in this turn, or asked now (under call `call_id`).
    async fn cleared(
        &self,
        ctx: &ToolContext,
        call_id: &str,
        title: &str,
        action: &PeerAction,
    ) -> Result<serde_json::Value, PeerError> {
        let (preview, args) = self.preview(ctx, title, action).await.map_err(PeerError)?;
        if lock(&self.inner.state)
            .allowed
            .contains(&preview.fingerprint)
        {
            return Ok(args);
        }
        match self.decide(ctx, call_id, title, &preview, &args).await {
            PeerAnswer::Allowed => Ok(args),
            PeerAnswer::Denied(why) => Err(PeerError(why)),
            PeerAnswer::Cancelled => Err(PeerError("the turn was stopped".into())),
        }
    }

    /// The agent's call that a write or terminal belongs to: `call` when it is open,
    /// otherwise one made up for it (shown as a card of its own), which the caller ends.
    async fn owning_call(
        &self,
        call: Option<&str>,
        name: &str,
        args: &serde_json::Value,
        view: ToolView,
    ) -> (String, bool) {
        if let Some(call) = call.filter(|c| self.is_open(c)) {
            return (call.to_owned(), false);
        }
        let id = {
            let mut state = lock(&self.inner.state);
            state.made_up += 1;
            format!("memo-{}-{}", name, state.made_up)
        };
        self.tool_call(&id, name, args, view, true).await;
        (id, true)
    }

    /// The agent's `fs/read_text_file`: through the path policy and the read-deny
    /// rules; `line` (1-based) and `limit` pick lines.
    pub fn read_text(
        &self,
        path: &str,
        line: Option<u32>,
        limit: Option<u32>,
    ) -> Result<String, PeerError> {
        let ctx = self.tool_context();
        let real = ctx.readable(path).map_err(|e| PeerError(e.message))?;
        let size = std::fs::metadata(&real).map_or(0, |m| m.len());
        if size > MAX_READ_BYTES {
            return Err(PeerError(format!(
                "{path} is {} MiB; files above {} MiB are not sent whole",
                size / (1024 * 1024),
                MAX_READ_BYTES / (1024 * 1024)
            )));
        }
        let text = std::fs::read_to_string(&real)
            .map_err(|e| PeerError(format!("cannot read {path}: {e}")))?;
        if line.is_none() && limit.is_none() {
            return Ok(text);
        }
        let skip = line.map_or(0, |l| l.saturating_sub(1)) as usize;
        let take = limit.map_or(usize::MAX, |l| l as usize);
        Ok(text
            .split_inclusive('\n')
            .skip(skip)
            .take(take)
            .collect::<String>())
    }

    /// The agent's `fs/write_text_file`: written by Memo's `write_file` (atomic, path
    /// policy, line endings kept) once Memo's approvals allow it; checkpointed under the
    /// agent's call when `call` is open, or under a call of its own.
    pub async fn write_text(
        &self,
        call: Option<&str>,
        path: &str,
        content: &str,
    ) -> Result<(), PeerError> {
        let action = PeerAction::Write {
            path: path.to_owned(),
            content: content.to_owned(),
        };
        let ctx = self.tool_context();
        let Some(tool) = self.inner.shared.tools.get("write_file") else {
            return Err(PeerError(
                "Memo's write_file tool is turned off, so files are not written".into(),
            ));
        };
        let shown = serde_json::json!({ "file_path": path, "content": content });
        let (id, own) = self
            .owning_call(call, "write_file", &shown, tool.view(&ctx, &shown))
            .await;
        let result = match self.cleared(&ctx, &id, "write_file", &action).await {
            Ok(args) => tool
                .run(ctx.clone(), args)
                .await
                .map_err(|e| PeerError(e.message)),
            Err(error) => Err(error),
        };
        if own {
            let (ok, output) = match &result {
                Ok(out) => (true, out.content.clone()),
                Err(error) => (false, error.0.clone()),
            };
            let view = match &result {
                Ok(out) => out.view.clone(),
                Err(_) => None,
            }
            .unwrap_or_else(|| tool.view(&ctx, &shown));
            self.tool_ended(&id, ok, view, output).await;
        }
        result.map(|_| ())
    }

    /// The agent's `terminal/create`: the command on a PTY of Memo's (the guard, the
    /// sandbox, the approvals of `exec_command`). Returns the terminal's id.
    pub async fn terminal_create(
        &self,
        call: Option<&str>,
        command: String,
        judged: Option<String>,
        cwd: Option<String>,
        env: Vec<(String, String)>,
        byte_limit: Option<u64>,
    ) -> Result<String, PeerError> {
        // What the approvals judge: the line, or the command a known wrapper runs.
        let action = PeerAction::Command {
            command: judged.unwrap_or_else(|| command.clone()),
            cwd: cwd.clone(),
        };
        let open = call.filter(|c| self.is_open(c)).map(str::to_owned);
        let call_id = match &open {
            Some(call) => call.clone(),
            None => format!("memo-terminal-{}", self.inner.terminals.next_id()),
        };
        let ctx = self.tool_context();
        self.cleared(&ctx, &call_id, "exec_command", &action)
            .await?;
        // As Memo's own commands are: `MEMO_SANDBOX` decides.
        let sandbox = crate::tools::SandboxPolicy::from_env(|name| std::env::var(name).ok());
        let workdir = match &cwd {
            Some(dir) => ctx.resolve(dir),
            None => ctx.cwd.clone(),
        };
        // What it prints shows on the call's card as it runs, as for Memo's own commands.
        let live = open.map(|call| {
            let emit = self.inner.scope.detached_emit();
            let call_id = ToolCallId::new(call);
            Box::new(move |chunk: String| {
                emit(AgentEvent::ToolOutput {
                    call_id: call_id.clone(),
                    chunk,
                })
            }) as super::peer_terminals::LiveOutput
        });
        self.inner
            .terminals
            .create(super::peer_terminals::NewTerminal {
                command,
                cwd: workdir,
                env,
                sandbox,
                writable_roots: ctx.paths.writable_roots().to_vec(),
                byte_limit,
                live,
            })
            .await
            .inspect(|terminal| {
                let inside = self.inner.terminals.sandboxed(terminal);
                lock(&self.inner.state)
                    .sandboxed
                    .insert(call_id.clone(), inside);
            })
    }

    /// What terminal `id` printed so far, and its exit once it ended.
    pub fn terminal_output(&self, id: &str) -> Result<PeerOutput, PeerError> {
        self.inner.terminals.output(id)
    }

    /// Waits for terminal `id`'s command to end (or the turn to be stopped).
    pub async fn terminal_wait(&self, id: &str) -> Result<PeerExit, PeerError> {
        self.inner
            .terminals
            .wait(id, self.inner.scope.cancel())
            .await
    }

    pub fn terminal_kill(&self, id: &str) -> Result<(), PeerError> {
        self.inner.terminals.kill(id)
    }

    pub fn terminal_release(&self, id: &str) -> Result<(), PeerError> {
        self.inner.terminals.release(id)
    }

    /// Ends what the agent left open: calls it never finished, the last step, its
    /// terminals.
    async fn finish(&self, stopped: bool) {
        let open: Vec<String> = lock(&self.inner.state)
            .calls
            .iter()
            .filter(|(_, c)| !c.ended)
            .map(|(id, _)| id.clone())
            .collect();
        for id in open {
            let view = ToolView::other("agent", &serde_json::Value::Null);
            let why = if stopped {
                "the turn was stopped before this call finished"
            } else {
                "the agent ended its turn without finishing this call"
            };
            self.tool_ended(&id, false, view, why.to_owned()).await;
        }
        self.end_step(Vec::new());
        self.inner.terminals.release_all();
    }
}

/// Runs one turn on the session's agent as the session's task (the counterpart of
/// `turn::run_turn` for sessions another agent runs).
pub(crate) async fn run_peer_turn(
    shared: Arc<SessionState>,
    peer: Arc<dyn crate::peer::Peer>,
    turn_id: TurnId,
    input: UserInput,
    cancel: CancellationToken,
    ended: Arc<AtomicBool>,
) {
    *shared.turn_now.lock().unwrap_or_else(|p| p.into_inner()) = Some(turn_id.clone());
    let scope = shared.scope(Some(turn_id), cancel.clone());
    if let Some(checkpoints) = &shared.checkpoints {
        // Whatever changed since the last turn was not this turn's doing.
        checkpoints.outside(scope.last_seq(), scope.turn_id()).await;
    }
    let _ = scope.record(AgentEvent::TurnStarted {
        input: input.clone(),
    });
    let turn = PeerTurn::new(shared.clone(), scope.clone());
    let mut prompt = peer.prompt(input, turn.clone());
    let outcome = tokio::select! {
        outcome = &mut prompt => outcome,
        _ = cancel.cancelled() => {
            peer.cancel();
            match tokio::time::timeout(CANCEL_GRACE, &mut prompt).await {
                Ok(Ok(_)) => Ok(PeerStop::Cancelled),
                Ok(Err(error)) => Err(error),
                Err(_) => Ok(PeerStop::Cancelled),
            }
        }
    };
    let reason = match outcome {
        Ok(PeerStop::EndTurn | PeerStop::Refusal) => TurnEndReason::Completed,
        Ok(PeerStop::Cancelled) => TurnEndReason::Interrupted,
        Ok(PeerStop::MaxTokens | PeerStop::MaxTurnRequests) => TurnEndReason::StepLimit,
        Err(error) => {
            turn.failed(error.0);
            TurnEndReason::Failed
        }
    };
    turn.finish(reason == TurnEndReason::Interrupted).await;
    *shared.turn_now.lock().unwrap_or_else(|p| p.into_inner()) = None;
    ended.store(true, Ordering::Release);
    let _ = scope.emit(AgentEvent::TurnEnded {
        reason,
        usage: TokenUsage::default(),
    });
}

/// The error that says the agent did not take a setting of its own.
pub(super) fn setting_refused(setting: String, value: String, message: String) -> AgentEvent {
    let phrase = Phrase::ExternalAgentSettingRefused {
        setting,
        value,
        message,
    };
    AgentEvent::Error {
        kind: ErrorKind::Provider,
        message: phrase.english(),
        retryable: false,
        detail: None,
        phrase: Some(phrase),
    }
}
