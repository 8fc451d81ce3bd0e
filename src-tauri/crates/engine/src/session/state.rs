//! What a session is made of, shared by its actor and its running task: the model, the
//! tools and the prompt built from them, the conversation, approvals, and where events go.
//! The actor changes it between turns (a model switch) and answers into it (approvals, MCP
//! input); a turn reads it and hands each of its components only the parts it needs.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use memo_model::ToolSpec;
use memo_protocol::{AgentEvent, ErrorKind, SessionId, TurnId};
use memo_providers::{ModelClient, RetryPolicy};
use memo_store::Store;
use tokio_util::sync::CancellationToken;

use super::approvals::{ApprovalMode, ApprovalState};
use super::checkpoint::Checkpointing;
use super::context::{ContextState, SessionContext};
use super::conversation::Conversation;
use super::elicit::Waiting;
use super::emitter::Emitter;
use super::hooks::SessionHooks;
use super::model::{ModelBinding, ModelResolver};
use super::scope::TurnScope;
use super::tool_view::{ToolView, ToolViews, ViewInputs};
use crate::tools::{ToolContext, ToolRegistry};

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

/// What a resumed session brings from its log (nothing, for a new one).
#[derive(Default)]
pub(crate) struct Restored {
    pub last_seq: u64,
    /// The history is the log up to `last_seq`, read when first needed.
    pub reopened: bool,
    /// Automatic compaction was off when the log ended.
    pub auto_blocked: bool,
}

pub(crate) struct SessionState {
    pub emitter: Arc<Emitter>,
    /// The model turns talk to; replaced whole by a switch between turns.
    binding: Mutex<Arc<ModelBinding>>,
    /// Builds another model's binding for a switch (`None`: the session cannot switch).
    resolver: Option<ModelResolver>,
    pub tools: ToolRegistry,
    tool_views: ToolViews,
    pub tool_ctx: ToolContext,
    pub limits: TurnLimits,
    pub context: ContextState,
    pub conversation: Arc<Conversation>,
    pub approvals: ApprovalState,
    /// MCP servers' requests for user input, waiting for `Op::ResolveElicitation`.
    pub elicitations: Arc<Waiting>,
    pub checkpoints: Option<Arc<Checkpointing>>,
    /// The user's hooks, read when the session started.
    pub hooks: Arc<SessionHooks>,
    /// The turn running now, for what is written into this session's log from outside
    /// its turns (its subagents' state changes and approval questions).
    pub turn_now: Arc<Mutex<Option<TurnId>>>,
    /// The system prompt `BeforeAgentStart` hooks made for the latest turn, for the prompt
    /// inspector; `None` once a turn runs with the session's own.
    pub turn_prompt: Mutex<Option<memo_protocol::TurnSystemPrompt>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The critical section only replaces or clones the Arc, so a poisoned lock still
    // holds a whole binding.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl SessionState {
    /// Tells the subscribers about a refused op or input (outside any turn).
    pub(super) fn report_error(&self, kind: ErrorKind, message: &str) {
        // A failed write is already reported to subscribers by the emitter.
        let _ = self.emitter.emit(
            None,
            AgentEvent::Error {
                kind,
                message: message.to_owned(),
                retryable: false,
                detail: None,
                phrase: None,
            },
        );
    }

    pub fn new(params: SessionParams, restored: Restored) -> Self {
        let binding = ModelBinding {
            provider: params.provider,
            model: params.model,
            client: params.client,
            parallel_tool_calls: params.limits.parallel_tool_calls,
            thinking_budget_tokens: params.limits.thinking_budget_tokens,
            temperature: params.limits.temperature,
            context_window: params.context.context_window,
            supports_vision: params.limits.supports_vision,
        };
        let hooks = Arc::new(SessionHooks::new(
            params.context.hooks.clone(),
            params.id.0.clone(),
            params.cwd.clone(),
            params.context.subagent.is_some(),
        ));
        let agent = params
            .context
            .subagent
            .as_ref()
            .map(|s| Box::new(s.agent.clone()));
        Self {
            hooks,
            turn_now: Arc::default(),
            turn_prompt: Mutex::default(),
            emitter: Arc::new(Emitter::new(
                params.id.clone(),
                params.store.clone(),
                restored.last_seq,
            )),
            binding: Mutex::new(Arc::new(binding)),
            resolver: params.resolver,
            tool_views: ToolViews::new(ToolView::initial(
                &params.tools,
                params.system_prompt,
                &params.context,
            )),
            tools: params.tools,
            tool_ctx: ToolContext {
                memo_home: params.memo_home,
                files: params.context.hosts.files.clone(),
                terminals: params.context.hosts.terminals.clone(),
                ..ToolContext::for_workspace(params.cwd.clone())
            },
            approvals: ApprovalState::new(
                params.limits.approval_mode,
                agent,
                params.context.grants.clone(),
            ),
            limits: params.limits,
            conversation: Arc::new(if restored.reopened {
                Conversation::reopened(
                    params.store.clone(),
                    params.id.clone(),
                    restored.last_seq,
                    params.context.counter,
                )
            } else {
                Conversation::new(Vec::new(), params.context.counter)
            }),
            context: ContextState::new(params.context, restored.auto_blocked),
            elicitations: Default::default(),
            checkpoints: params
                .checkpoints
                .map(|store| Checkpointing::new(store, params.cwd, params.id.0)),
        }
    }

    pub fn binding(&self) -> Arc<ModelBinding> {
        lock(&self.binding).clone()
    }

    /// Switches to the resolved model: recorded on the session (a resume uses it) and
    /// announced with `model_switched`. Returns the new binding or why it failed (the
    /// caller reports that: as an error event, or in a command's answer).
    pub fn switch_model(
        &self,
        provider: Option<&str>,
        model: Option<&str>,
    ) -> Result<Arc<ModelBinding>, String> {
        let Some(resolver) = self.resolver.clone() else {
            return Err("this session cannot switch models".into());
        };
        let own = self.binding();
        let provider = provider
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .unwrap_or(&own.provider);
        let model = model.map(str::trim).filter(|m| !m.is_empty());
        let binding = match resolver(Some(provider), model) {
            Ok(binding) => Arc::new(binding),
            Err(reason) => return Err(reason),
        };
        if let Err(error) = self.emitter.store().set_model(
            self.emitter.session_id(),
            &binding.provider,
            &binding.model,
        ) {
            return Err(format!("could not record the switch: {error}"));
        }
        *lock(&self.binding) = binding.clone();
        // The prompt names the model: rebuild it for the next request.
        self.tool_views.invalidate();
        // A failed write is already reported to subscribers by the emitter.
        let _ = self.emitter.emit(
            None,
            AgentEvent::ModelSwitched {
                provider: binding.provider.clone(),
                model: binding.model.clone(),
                context_window: binding.context_window,
            },
        );
        Ok(binding)
    }

    /// Reports a switch that could not be made.
    pub fn report_switch_failure(&self, reason: &str) {
        // A failed write is already reported to subscribers by the emitter.
        let _ = self.emitter.emit(
            None,
            AgentEvent::Error {
                kind: ErrorKind::Config,
                message: format!("could not switch models: {reason}"),
                retryable: false,
                detail: None,
                phrase: None,
            },
        );
    }

    /// The current definitions and prompt; rebuilt only when the tools changed. Cheap:
    /// tool calls look their validators up here.
    pub fn tool_view(&self) -> Arc<ToolView> {
        self.view(false)
    }

    /// [`SessionState::tool_view`], also rebuilt when a file the prompt was read from
    /// changed: for what is sent or shown, once per request.
    pub fn prompt_view(&self) -> Arc<ToolView> {
        self.view(true)
    }

    /// See [`SessionState::turn_prompt`] (the field).
    pub fn turn_prompt(&self) -> Option<memo_protocol::TurnSystemPrompt> {
        self.turn_prompt
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn view(&self, check_files: bool) -> Arc<ToolView> {
        let binding = self.binding();
        let inputs = ViewInputs {
            tools: &self.tools,
            binding: &binding,
            settings: &self.context.settings,
        };
        self.tool_views.current(inputs, check_files)
    }

    pub fn tool_specs(&self) -> Vec<ToolSpec> {
        self.tool_view().specs.as_ref().clone()
    }

    /// The OS home folder, where `~/` in rules and commands points.
    pub fn user_home(&self) -> Option<std::path::PathBuf> {
        self.context
            .settings
            .workspace
            .as_ref()
            .and_then(|w| w.user_home.clone())
    }

    /// Reads the read-deny rules again (kept ones may have changed in settings) and gives
    /// them to the tools; before every step's calls and every message's `@path`s.
    pub fn refresh_read_denials(&self) -> Arc<memo_tools::ReadDenials> {
        let settings = &self.context.settings;
        let kept = match settings.approval_rules.as_ref().map(|s| s.list()) {
            Some(Ok(rules)) => rules,
            Some(Err(error)) => {
                tracing::warn!(%error, "approval rules unreadable; only other agents' read rules apply");
                Vec::new()
            }
            None => Vec::new(),
        };
        let home = self.user_home();
        let denials = crate::rules::read_denials(
            &kept,
            &settings.imported_rules,
            &self.tool_ctx.cwd,
            home.as_deref(),
        );
        self.tool_ctx.read_denials.replace(denials);
        self.tool_ctx.read_denials.clone()
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
