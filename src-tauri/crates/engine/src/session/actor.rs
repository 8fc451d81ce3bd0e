use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use memo_protocol::{AgentEvent, ErrorKind, Op, SessionId, TurnId};
use memo_providers::{Message, ModelClient, RetryPolicy};
use memo_store::{NewSession, Store};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::approvals::{ApprovalMode, ApprovalState};
use super::checkpoint::Checkpointing;
use super::context::{auto_blocked_by_log, ContextState, SessionContext};
use super::conversation::Conversation;
use super::emitter::{Emitter, EventReceiver};
use super::history::rebuild_history;
use super::input::{dispatch, Dispatch};
use super::mcp::{view_cell, ToolView};
use super::model::{ModelBinding, ModelResolver};
use super::scope::TurnScope;
use super::turn::run_turn;
use crate::tools::{ToolContext, ToolRegistry};
use crate::EngineError;

/// Per-turn limits and model-call settings.
#[derive(Debug, Clone)]
pub struct TurnLimits {
    /// Model calls per turn before the turn ends with `step_limit`.
    pub max_steps: u32,
    pub retry: RetryPolicy,
    pub parallel_tool_calls: bool,
    pub max_output_tokens: Option<u32>,
    /// Extended thinking budget from the model's profile (`thinking_budget_tokens`).
    pub thinking_budget_tokens: Option<u32>,
    /// Sampling temperature from the model's profile (`temperature`).
    pub temperature: Option<f64>,
    /// Whether the session's first model takes images (its profile's `supports_vision`).
    /// The default lets hand-built sessions (tests, benches) send images; the
    /// [`crate::Engine`] sets it from the profile.
    pub supports_vision: bool,
    pub approval_mode: ApprovalMode,
}

impl Default for TurnLimits {
    fn default() -> Self {
        Self {
            approval_mode: ApprovalMode::Auto,
            max_steps: 100,
            retry: RetryPolicy::default(),
            parallel_tool_calls: true,
            max_output_tokens: None,
            thinking_budget_tokens: None,
            temperature: None,
            supports_vision: true,
        }
    }
}

/// Everything a session actor needs; the [`crate::Engine`] builds this from config, tests
/// build it by hand around a mock server.
pub struct SessionParams {
    pub id: SessionId,
    pub cwd: PathBuf,
    pub provider: String,
    pub model: String,
    pub client: Arc<dyn ModelClient>,
    /// Builds another model's client for a switch (`None`: the session cannot switch).
    pub resolver: Option<ModelResolver>,
    pub tools: ToolRegistry,
    pub store: Arc<Store>,
    pub system_prompt: String,
    pub limits: TurnLimits,
    /// `$MEMO_HOME`, for tools that read Memo's own files.
    pub memo_home: Option<PathBuf>,
    /// Skills, commands, the prompt report and compaction settings.
    pub context: SessionContext,
    /// Where the workspace's checkpoints go (`None`: no checkpoints, e.g. in tests).
    pub checkpoints: Option<memo_checkpoints::Checkpoints>,
}

/// A brand-new session is recorded in the store; a resumed one rebuilds its conversation
/// from the stored events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStart {
    New,
    Resume,
}

/// State shared by the actor and its running turn.
pub(crate) struct Shared {
    pub emitter: Arc<Emitter>,
    /// The model turns talk to; replaced whole by a switch between turns.
    binding: Mutex<Arc<ModelBinding>>,
    pub resolver: Option<ModelResolver>,
    pub tools: ToolRegistry,
    /// The tools' API definitions, their compiled input schemas (checked before preview
    /// and approval) and the system prompt listing them; rebuilt only when the tools
    /// change (MCP), not once per step.
    pub tool_view: Mutex<Arc<ToolView>>,
    pub tool_ctx: ToolContext,
    pub limits: TurnLimits,
    pub context: ContextState,
    pub conversation: Arc<Conversation>,
    pub approvals: ApprovalState,
    /// MCP servers' requests for user input, waiting for `Op::ResolveElicitation`.
    pub(crate) elicitations: super::elicit::Waiting,
    pub checkpoints: Option<Arc<Checkpointing>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here is a single push/insert/clone, so a poisoned lock
    // still holds consistent data.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Shared {
    pub fn binding(&self) -> Arc<ModelBinding> {
        lock(&self.binding).clone()
    }

    pub(crate) fn set_binding(&self, binding: Arc<ModelBinding>) {
        *lock(&self.binding) = binding;
        // The prompt names the model: rebuild it for the next request.
        self.invalidate_tool_view();
    }

    pub fn history_snapshot(&self) -> Arc<Vec<Message>> {
        self.conversation.snapshot()
    }

    pub fn apply_to_history(&self, event: &AgentEvent) {
        self.conversation.apply(event);
    }

    /// What the components of a turn (or of `/compact`) are handed.
    pub fn scope(&self, turn_id: Option<TurnId>, cancel: CancellationToken) -> TurnScope {
        TurnScope::new(
            self.emitter.clone(),
            self.conversation.clone(),
            turn_id,
            cancel,
        )
    }
}

/// The client side of a session: submit ops, subscribe to events. Cheap to clone.
#[derive(Clone)]
pub struct SessionHandle {
    id: SessionId,
    ops: mpsc::UnboundedSender<Op>,
    shared: Arc<Shared>,
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
        self.shared.emitter.subscribe(after_seq)
    }

    pub fn last_seq(&self) -> u64 {
        self.shared.emitter.last_seq()
    }

    /// The conversation as it would be sent to the model now.
    pub fn history(&self) -> Vec<Message> {
        self.shared.history_snapshot().as_ref().clone()
    }

    /// The layers of this session's system prompt, when the engine assembled it.
    pub fn prompt_report(&self) -> Option<memo_protocol::PromptReport> {
        self.shared.prompt_view().report.clone()
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
    let (last_seq, history, auto_blocked) = match start {
        SessionStart::New => {
            params.store.create_session(&NewSession {
                id: params.id.clone(),
                cwd: params.cwd.display().to_string(),
                provider: params.provider.clone(),
                model: params.model.clone(),
                title: None,
            })?;
            (0, Vec::new(), false)
        }
        SessionStart::Resume => {
            if params.store.session(&params.id)?.is_none() {
                return Err(EngineError::SessionNotFound(params.id.0.clone()));
            }
            let (last, events) = super::history::load_for_resume(&params.store, &params.id)?;
            (last, rebuild_history(&events), auto_blocked_by_log(&events))
        }
    };
    let binding = ModelBinding {
        provider: params.provider.clone(),
        model: params.model.clone(),
        client: params.client,
        parallel_tool_calls: params.limits.parallel_tool_calls,
        thinking_budget_tokens: params.limits.thinking_budget_tokens,
        temperature: params.limits.temperature,
        context_window: params.context.context_window,
        supports_vision: params.limits.supports_vision,
    };
    let shared = Arc::new(Shared {
        emitter: Arc::new(Emitter::new(
            params.id.clone(),
            params.store.clone(),
            last_seq,
        )),
        binding: Mutex::new(Arc::new(binding)),
        resolver: params.resolver,
        tool_view: view_cell(ToolView::initial(
            &params.tools,
            params.system_prompt,
            &params.context,
        )),
        tools: params.tools,
        tool_ctx: ToolContext {
            memo_home: params.memo_home.clone(),
            ..ToolContext::for_workspace(params.cwd.clone())
        },
        approvals: ApprovalState::new(params.limits.approval_mode),
        limits: params.limits,
        conversation: Arc::new(Conversation::new(history, params.context.counter)),
        context: ContextState::new(params.context, auto_blocked),
        elicitations: Default::default(),
        checkpoints: params
            .checkpoints
            .map(|store| Checkpointing::new(store, params.cwd.clone(), params.id.0.clone())),
    });
    if let Some(checkpoints) = &shared.checkpoints {
        checkpoints.start();
    }
    if start == SessionStart::New {
        shared.emitter.emit(
            None,
            AgentEvent::SessionStarted {
                cwd: params.cwd.display().to_string(),
                provider: params.provider,
                model: params.model,
            },
        )?;
    }
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (finished_tx, finished_rx) = watch::channel(false);
    if let Some(mcp) = shared.context.settings.mcp.clone() {
        super::mcp::forward_status(shared.clone(), mcp, finished_rx.clone());
    }
    if let Some(inbox) = shared.context.settings.elicitations.clone() {
        super::elicit::forward(shared.clone(), &inbox, finished_rx.clone());
    }
    tokio::spawn(run_actor(shared.clone(), ops_rx, finished_tx));
    Ok(SessionHandle {
        id: params.id,
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

async fn run_actor(
    shared: Arc<Shared>,
    mut ops: mpsc::UnboundedReceiver<Op>,
    finished: watch::Sender<bool>,
) {
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
                shared.tools.shutdown();
                break;
            }
            Some(Op::UserTurn { input }) => {
                if running
                    .as_ref()
                    .is_some_and(|t| !t.ended.load(Ordering::Acquire))
                {
                    report_invalid_op(&shared, "a turn is already running; interrupt it first");
                    continue;
                }
                reap_ended(&mut running).await;
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
                let cancel = CancellationToken::new();
                let turn_id = TurnId::new(uuid::Uuid::now_v7().to_string());
                let ended = Arc::new(AtomicBool::new(false));
                let task = tokio::spawn(run_turn(
                    shared.clone(),
                    turn_id,
                    input,
                    cancel.clone(),
                    ended.clone(),
                ));
                running = Some(RunningTurn {
                    cancel,
                    task,
                    ended,
                });
            }
            Some(Op::SwitchModel { provider, model }) => {
                if running
                    .as_ref()
                    .is_some_and(|t| !t.ended.load(Ordering::Acquire))
                {
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
                if let Err(error) = shared
                    .emitter
                    .emit(None, AgentEvent::ApprovalModeChanged { mode })
                {
                    tracing::warn!(%error, "could not record the approval mode");
                }
            }
            Some(Op::ResolveElicitation {
                request_id,
                action,
                content,
            }) => {
                if !super::elicit::resolve(&shared, &request_id, action, content) {
                    report_invalid_op(
                        &shared,
                        &format!("no MCP request for input with id {request_id} is waiting"),
                    );
                }
            }
            Some(Op::Interrupt) => match running.as_ref() {
                // The turn itself denies its pending approvals and records the interruption.
                Some(turn) => turn.cancel.cancel(),
                None => report_invalid_op(&shared, "no turn is running"),
            },
            Some(Op::Compact { instructions }) => {
                if running
                    .as_ref()
                    .is_some_and(|t| !t.ended.load(Ordering::Acquire))
                {
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
                if !shared.approvals.resolve(&request_id, decision) {
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
    shared: &Arc<Shared>,
    trigger: memo_protocol::CompactionTrigger,
    instructions: Option<String>,
) -> RunningTurn {
    let cancel = CancellationToken::new();
    let ended = Arc::new(AtomicBool::new(false));
    let task = tokio::spawn(super::turn::run_compaction(
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

fn report_invalid_op(shared: &Shared, message: &str) {
    report_error(shared, ErrorKind::InvalidOp, message);
}

fn report_error(shared: &Shared, kind: ErrorKind, message: &str) {
    // A failed write is already reported to subscribers by the emitter.
    let _ = shared.emitter.emit(
        None,
        AgentEvent::Error {
            kind,
            message: message.to_owned(),
            retryable: false,
        },
    );
}
