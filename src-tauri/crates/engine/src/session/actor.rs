//! The session actor: one task per session that owns its state, takes `Op`s one at a
//! time and runs at most one task at a time (a turn, or `/compact`), so ops such as an
//! interrupt or an approval are answered while a turn runs. How a turn runs is `turn.rs`'s.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use memo_model::Message;
use memo_protocol::{AgentEvent, ErrorKind, Op, SessionId, TurnEndReason, TurnId};
use memo_store::NewSession;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::approvals::ApprovalMode;
use super::input::{dispatch, Dispatch};
use super::state::{Restored, SessionParams, SessionState};
use super::subscription::EventReceiver;
use super::turn::{run_compaction, run_turn};
use crate::EngineError;

/// A brand-new session is recorded in the store; a resumed one rebuilds its conversation
/// from the stored events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStart {
    New,
    Resume,
}

/// The client side of a session: submit ops, subscribe to events. Cheap to clone.
#[derive(Clone)]
pub struct SessionHandle {
    id: SessionId,
    ops: mpsc::UnboundedSender<Op>,
    shared: Arc<SessionState>,
    finished: watch::Receiver<bool>,
}

impl SessionHandle {
    pub fn id(&self) -> &SessionId {
        &self.id
    }

    pub fn submit(&self, op: Op) -> Result<(), EngineError> {
        self.ops.send(op).map_err(|_| EngineError::SessionClosed)
    }

    /// Stops the session's MCP server `name` and starts it again; false when the session
    /// has no such (enabled) server.
    pub fn restart_mcp_server(&self, name: &str) -> bool {
        self.shared
            .context
            .settings
            .mcp
            .as_ref()
            .is_some_and(|mcp| mcp.restart(name))
    }

    /// The mode the session asks in now.
    pub fn approval_mode(&self) -> ApprovalMode {
        self.shared.approvals.mode()
    }

    /// Every event with `seq > after_seq` (from the store), then live events.
    pub fn subscribe(&self, after_seq: u64) -> Result<EventReceiver, EngineError> {
        Ok(EventReceiver::subscribe(&self.shared.emitter, after_seq))
    }

    pub fn last_seq(&self) -> u64 {
        self.shared.emitter.last_seq()
    }

    /// The conversation as it would be sent to the model now.
    pub fn history(&self) -> Vec<Message> {
        self.shared.conversation.snapshot().as_ref().clone()
    }

    /// The layers of this session's system prompt, when the engine assembled it.
    pub fn prompt_report(&self) -> Option<memo_protocol::PromptReport> {
        let mut report = self.shared.prompt_view().report.clone()?;
        report.turn_override = self.shared.turn_prompt();
        Some(report)
    }

    /// The session's MCP prompts as slash commands (`server:prompt`) with their
    /// descriptions, for the composer's suggestions.
    pub fn mcp_prompt_commands(&self) -> Vec<(String, Option<String>)> {
        match &self.shared.context.settings.mcp {
            Some(mcp) => mcp
                .prompts()
                .iter()
                .map(|p| (p.command(), p.description.clone()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// A subagent this session started, by the child's session id: its handle while its
    /// parent holds it (its actor may have stopped since: then ops to it fail).
    pub fn child(&self, id: &SessionId) -> Option<SessionHandle> {
        self.shared
            .context
            .settings
            .children
            .as_ref()
            .and_then(|c| c.0.session(id))
    }

    /// Resolves once the actor has stopped (after `Op::Shutdown`).
    pub async fn closed(&self) {
        let mut rx = self.finished.clone();
        while !*rx.borrow_and_update() {
            if rx.changed().await.is_err() {
                return;
            }
        }
    }
}

/// Starts the actor task of a session. Must be called inside a Tokio runtime.
pub fn spawn_session(
    params: SessionParams,
    start: SessionStart,
) -> Result<SessionHandle, EngineError> {
    let restored = match start {
        SessionStart::New => {
            let new = NewSession {
                id: params.id.clone(),
                cwd: params.cwd.display().to_string(),
                provider: params.provider.clone(),
                model: params.model.clone(),
                title: None,
            };
            match &params.context.subagent {
                Some(role) => params.store.create_subagent_session(
                    &new,
                    &role.parent,
                    &role.agent.agent_type,
                )?,
                None => params.store.create_session(&new)?,
            };
            Restored::default()
        }
        SessionStart::Resume => {
            if params.store.session(&params.id)?.is_none() {
                return Err(EngineError::SessionNotFound(params.id.0.clone()));
            }
            let reopened = super::history::reopen(&params.store, &params.id)?;
            Restored {
                last_seq: reopened.last_seq,
                reopened: true,
                auto_blocked: reopened.auto_blocked,
            }
        }
    };
    let id = params.id.clone();
    let started = AgentEvent::SessionStarted {
        cwd: params.cwd.display().to_string(),
        provider: params.provider.clone(),
        model: params.model.clone(),
    };
    let shared = Arc::new(SessionState::new(params, restored));
    if let Some(groups) = shared.tools.groups() {
        crate::tool_groups::load_used(groups, &shared.conversation.snapshot());
    }
    if let Some(checkpoints) = &shared.checkpoints {
        checkpoints.start();
    }
    if let Some(children) = &shared.context.settings.children {
        // Weak: the runtime lives in this session's state and must not keep it alive.
        let state = Arc::downgrade(&shared);
        let mode = Arc::new(move || {
            state
                .upgrade()
                .map_or(ApprovalMode::Strict, |s| s.approvals.mode())
        });
        children.0.attach(super::children::ParentLink::new(
            shared.emitter.clone(),
            shared.turn_now.clone(),
            mode,
            shared.approvals.grants(),
        ));
    }
    if start == SessionStart::New {
        shared.emitter.emit(None, started)?;
    }
    // How the hooks were read (skipped project hooks, broken files), once per start.
    let hook_report = super::hooks::load_report_events(&shared.context.settings.hook_report);
    if !hook_report.is_empty() {
        shared.emitter.emit_batch(None, hook_report)?;
    }
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (finished_tx, finished_rx) = watch::channel(false);
    if let Some(mcp) = shared.context.settings.mcp.clone() {
        super::mcp::forward_status(shared.emitter.clone(), mcp, finished_rx.clone());
    }
    if let Some(inbox) = shared.context.settings.elicitations.clone() {
        super::elicit::forward(
            shared.emitter.clone(),
            shared.elicitations.clone(),
            &inbox,
            finished_rx.clone(),
        );
    }
    let source = match start {
        SessionStart::New => memo_hooks::SessionStartSource::Startup,
        SessionStart::Resume => memo_hooks::SessionStartSource::Resume,
    };
    tokio::spawn(run_actor(shared.clone(), source, ops_rx, finished_tx));
    Ok(SessionHandle {
        id,
        ops: ops_tx,
        shared,
        finished: finished_rx,
    })
}

struct RunningTurn {
    cancel: CancellationToken,
    task: JoinHandle<()>,
    /// Set by the turn just before it emits `turn_ended`: a client that saw that event may
    /// start the next turn at once, before this actor has reaped the finished task.
    ended: Arc<AtomicBool>,
}

/// Whether a turn (or `/compact`) is still going: a finished one may not be reaped yet.
fn still_running(running: &Option<RunningTurn>) -> bool {
    running
        .as_ref()
        .is_some_and(|t| !t.ended.load(Ordering::Acquire))
}

impl RunningTurn {
    /// Starts a turn under a fresh id: `turn` gets the id, its cancellation and the flag
    /// it sets as it ends.
    fn spawn<F>(turn: impl FnOnce(TurnId, CancellationToken, Arc<AtomicBool>) -> F) -> Self
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        let cancel = CancellationToken::new();
        let ended = Arc::new(AtomicBool::new(false));
        let turn_id = TurnId::new(uuid::Uuid::now_v7().to_string());
        let task = tokio::spawn(turn(turn_id, cancel.clone(), ended.clone()));
        Self {
            cancel,
            task,
            ended,
        }
    }
}

async fn run_actor(
    shared: Arc<SessionState>,
    source: memo_hooks::SessionStartSource,
    mut ops: mpsc::UnboundedReceiver<Op>,
    finished: watch::Sender<bool>,
) {
    // Before the first op: a SessionStart hook's context belongs before the first prompt
    // (which waits in the channel meanwhile).
    let start_scope = shared.scope(None, CancellationToken::new());
    let mode = shared.approvals.mode();
    if let Err(error) = shared.hooks.session_start(&start_scope, mode, source).await {
        tracing::warn!(%error, "could not record the SessionStart hooks");
    }
    let mut running: Option<RunningTurn> = None;
    loop {
        let op = tokio::select! {
            op = ops.recv() => op,
            _ = async {
                match running.as_mut() {
                    Some(turn) => { let _ = (&mut turn.task).await; }
                    None => std::future::pending::<()>().await,
                }
            } => {
                running = None;
                continue;
            }
        };
        match op {
            None | Some(Op::Shutdown) => {
                if let Some(turn) = running.take() {
                    turn.cancel.cancel();
                    let _ = turn.task.await;
                }
                if let Some(children) = &shared.context.settings.children {
                    children.0.shutdown_all().await;
                }
                if let Some(peer) = &shared.context.settings.peer {
                    peer.0.shutdown().await;
                }
                let end_scope = shared.scope(None, CancellationToken::new());
                shared
                    .hooks
                    .session_end(
                        &end_scope,
                        shared.approvals.mode(),
                        memo_hooks::SessionEndReason::Other,
                    )
                    .await;
                shared.tools.shutdown();
                break;
            }
            Some(Op::UserTurn { input }) => {
                if still_running(&running) {
                    report_invalid_op(&shared, "a turn is already running; interrupt it first");
                    continue;
                }
                reap_ended(&mut running).await;
                // Another agent's session: the message is the agent's to read, slash
                // commands included (it lists its own).
                if let Some(peer) = shared.context.settings.peer.clone() {
                    running = Some(RunningTurn::spawn(|turn_id, cancel, ended| {
                        super::peer_turn::run_peer_turn(
                            shared.clone(),
                            peer.0,
                            turn_id,
                            input,
                            cancel,
                            ended,
                        )
                    }));
                    continue;
                }
                let input = match dispatch(&shared, input) {
                    Dispatch::Turn(input) => input,
                    Dispatch::Compact {
                        trigger,
                        instructions,
                    } => {
                        running = Some(compaction_task(&shared, trigger, instructions));
                        continue;
                    }
                    Dispatch::Done => continue,
                };
                running = Some(RunningTurn::spawn(|turn_id, cancel, ended| {
                    run_turn(shared.clone(), turn_id, input, cancel, ended)
                }));
            }
            Some(Op::RetryTurn) => {
                if refused_by_peer(&shared, "retry a turn") {
                    continue;
                }
                if still_running(&running) {
                    report_invalid_op(&shared, "a turn is already running; interrupt it first");
                    continue;
                }
                reap_ended(&mut running).await;
                let retry_of = match retryable_turn(&shared) {
                    Ok(turn) => turn,
                    Err(why) => {
                        report_invalid_op(&shared, &why);
                        continue;
                    }
                };
                running = Some(RunningTurn::spawn(|turn_id, cancel, ended| {
                    super::turn::run_retry(shared.clone(), turn_id, retry_of, cancel, ended)
                }));
            }
            Some(Op::SwitchModel { provider, model }) => {
                if refused_by_peer(&shared, "switch to Memo's models") {
                    continue;
                }
                if still_running(&running) {
                    report_invalid_op(
                        &shared,
                        "a turn is running; switch models when it has ended",
                    );
                    continue;
                }
                reap_ended(&mut running).await;
                if let Err(reason) = shared.switch_model(provider.as_deref(), model.as_deref()) {
                    shared.report_switch_failure(&reason);
                }
            }
            Some(Op::SetApprovalMode { mode }) => {
                shared.approvals.set_mode(mode);
                if let Some(children) = &shared.context.settings.children {
                    children.0.set_approval_mode(mode);
                }
                if let Err(error) = shared
                    .emitter
                    .emit(None, AgentEvent::ApprovalModeChanged { mode })
                {
                    tracing::warn!(%error, "could not record the approval mode");
                }
            }
            Some(Op::SetAgentSetting { setting, value }) => {
                set_agent_setting(&shared, setting, value);
            }
            Some(Op::ResolveElicitation {
                request_id,
                action,
                content,
            }) => {
                if !super::elicit::resolve(
                    &shared.emitter,
                    &shared.elicitations,
                    &request_id,
                    action,
                    content,
                ) {
                    report_invalid_op(
                        &shared,
                        &format!("no MCP request for input with id {request_id} is waiting"),
                    );
                }
            }
            Some(Op::Interrupt) => {
                // Interrupting a session stops its subagents too, also those still working
                // after the turn that started them ended.
                let children = shared
                    .context
                    .settings
                    .children
                    .as_ref()
                    .map_or(0, |c| c.0.interrupt_all());
                match running.as_ref() {
                    // The turn itself denies its pending approvals and records the
                    // interruption.
                    Some(turn) => turn.cancel.cancel(),
                    None if children > 0 => {}
                    None => report_invalid_op(&shared, "no turn is running"),
                }
            }
            Some(Op::Compact { instructions }) => {
                if refused_by_peer(&shared, "take /compact") {
                    continue;
                }
                if still_running(&running) {
                    report_invalid_op(&shared, "a turn is running; compact when it has ended");
                    continue;
                }
                reap_ended(&mut running).await;
                let trigger = memo_protocol::CompactionTrigger::Manual;
                running = Some(compaction_task(&shared, trigger, instructions));
            }
            Some(Op::ResolveApproval {
                request_id,
                decision,
            }) => {
                let relayed = |decision| {
                    shared
                        .context
                        .settings
                        .children
                        .as_ref()
                        .is_some_and(|c| c.0.resolve_approval(&request_id, decision))
                };
                if !shared.approvals.resolve(&request_id, decision.clone()) && !relayed(decision) {
                    report_invalid_op(
                        &shared,
                        &format!("no pending approval with id {request_id}"),
                    );
                }
            }
        }
    }
    let _ = finished.send(true);
}

/// A turn that has ended may still be writing its `turn_ended`; waiting for it (a write,
/// not a model call) keeps the next turn's events after it in the log.
async fn reap_ended(running: &mut Option<RunningTurn>) {
    if running
        .as_ref()
        .is_some_and(|t| t.ended.load(Ordering::Acquire))
    {
        if let Some(turn) = running.take() {
            let _ = turn.task.await;
        }
    }
}

fn compaction_task(
    shared: &Arc<SessionState>,
    trigger: memo_protocol::CompactionTrigger,
    instructions: Option<String>,
) -> RunningTurn {
    let cancel = CancellationToken::new();
    let ended = Arc::new(AtomicBool::new(false));
    let task = tokio::spawn(run_compaction(
        shared.clone(),
        trigger,
        instructions,
        cancel.clone(),
        ended.clone(),
    ));
    RunningTurn {
        cancel,
        task,
        ended,
    }
}

/// The last turn, when it is one to run again: it failed, was interrupted, or the log
/// left it open. Otherwise why not.
fn retryable_turn(shared: &SessionState) -> Result<TurnId, String> {
    let store = shared.emitter.store();
    match store.last_turn_outcome(shared.emitter.session_id()) {
        Ok(Some((
            turn,
            None
            | Some(TurnEndReason::Failed | TurnEndReason::Interrupted | TurnEndReason::StepLimit),
        ))) => Ok(turn),
        Ok(Some(_)) => Err("the last turn ended normally; send a message instead".into()),
        Ok(None) => Err("there is no turn to retry yet".into()),
        Err(error) => Err(format!("could not read the session's last turn: {error}")),
    }
}

/// Ops of Memo's own model loop, which a session another agent runs does not have:
/// refused, saying so, when `shared` is one.
fn refused_by_peer(shared: &SessionState, what: &str) -> bool {
    if shared.context.settings.peer.is_none() {
        return false;
    }
    report_invalid_op(
        shared,
        &format!("this session's turns are run by an external agent, which does not {what}"),
    );
    true
}

/// Asks the session's external agent to take a setting of its own. Off the actor's loop: the
/// agent answers when it does (also during a turn), and ops keep flowing meanwhile.
fn set_agent_setting(shared: &Arc<SessionState>, setting: String, value: String) {
    let Some(peer) = shared.context.settings.peer.clone() else {
        report_invalid_op(
            shared,
            "only an external agent has settings of its own; Memo's model has its own ops",
        );
        return;
    };
    let shared = shared.clone();
    tokio::spawn(async move {
        let event = match peer.0.set_setting(setting.clone(), value.clone()).await {
            // None known yet (the agent never ran here): it is asked when it starts.
            Ok(settings) if settings.is_empty() => return,
            Ok(settings) => AgentEvent::ExternalAgentSettings { settings },
            Err(error) => super::peer_turn::setting_refused(setting, value, error.0),
        };
        if let Err(error) = shared.emitter.emit(None, event) {
            tracing::warn!(%error, "could not record the external agent's settings");
        }
    });
}

fn report_invalid_op(shared: &SessionState, message: &str) {
    shared.report_error(ErrorKind::InvalidOp, message);
}
