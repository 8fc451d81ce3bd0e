//! A turn, orchestrated here and nowhere else: call the model, run the tools it asks for,
//! feed the results back, until it answers without tools, the step limit is hit, the user
//! interrupts, or it fails.
//!
//! The components do the work and return what happened: a model call ([`Step`]), a
//! step's tool calls ([`ToolCalls`]), approvals ([`Approver`]) and compaction
//! ([`Compactor`]). Each is handed a [`TurnScope`] (the turn's events, conversation and
//! cancellation) and the settings it needs, never the session's state, so what a turn
//! does next is decided only in this file. Its phases, each in one place, are where
//! anything that joins a turn (hooks, a subagent's turn) attaches:
//! - the input is prepared, checked by the `UserPromptSubmit` hooks and recorded as
//!   `turn_started` in [`run_turn`] and [`Turn::start`];
//! - before each model call, [`Turn::auto_compact`]; every compaction, automatic or
//!   `/compact`, passes through [`compact`] (and its `PreCompact` hooks);
//! - each tool call is checked (`PreToolUse`), admitted, and its result recorded
//!   (`PostToolUse`) by [`StepPolicy`];
//! - the turn ends in [`Turn::run`] (an answer without tools the `Stop` hooks let
//!   stand, a limit, a failure).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use memo_model::{ModelRequest, ModelResponse, ToolCall};
use memo_protocol::{
    AgentEvent, CompactionStatus, CompactionTrigger, ErrorKind, TokenUsage, ToolCallId,
    ToolCallSummary, TurnEndReason, TurnId, UserInput,
};
use memo_providers::ProviderError;
use tokio_util::sync::CancellationToken;

use super::approvals::{Approval, ApprovalHint, ApprovalRules, ApprovalState, Approver};
use super::compaction::{Attempt, Compactor};
use super::hooks::{permission_message, PromptCheck, SessionHooks, StopCheck};
use super::input::{Prepared, TurnInput};
use super::repeats::RepeatGuard;
use super::scope::TurnScope;
use super::state::SessionState;
use super::step::{Step, StepOutcome, StepRequest};
use super::tool_calls::{CallPolicy, CallResult, Precheck, ToolCalls};
use crate::tools::ToolPreview;
use crate::EngineError;

/// Runs one turn as the session's task. `ended` is set just before `turn_ended` is
/// emitted (or when no turn starts), so the actor can accept the next turn at once.
pub(crate) async fn run_turn(
    shared: Arc<SessionState>,
    turn_id: TurnId,
    input: TurnInput,
    cancel: CancellationToken,
    ended: Arc<AtomicBool>,
) {
    // A reopened session reads its history now, before anything is added to it.
    if let Err(error) = shared.conversation.load() {
        ended.store(true, Ordering::Release);
        shared.report_error(error.kind(), &format!("the message was not sent: {error}"));
        return;
    }
    let input = match super::input::prepare(&shared, input, &cancel).await {
        Prepared::Ready(input) => input,
        // No turn started: there is nothing to end.
        Prepared::Interrupted => {
            ended.store(true, Ordering::Release);
            return;
        }
        Prepared::Failed { command, message } => {
            ended.store(true, Ordering::Release);
            // A failed write is already reported to subscribers by the emitter.
            let _ = shared.emitter.emit(
                None,
                AgentEvent::CommandResult {
                    command,
                    ok: false,
                    output: message,
                    action: None,
                },
            );
            return;
        }
    };
    let mode = shared.approvals.mode();
    let prompt_hooks = match shared
        .hooks
        .user_prompt_submit(&input.text, mode, &cancel)
        .await
    {
        PromptCheck::Send(ran) => ran,
        PromptCheck::Interrupted => {
            ended.store(true, Ordering::Release);
            return;
        }
        PromptCheck::Blocked(ran, why) => {
            ended.store(true, Ordering::Release);
            // No turn starts: like a command answered without one, which is also how
            // clients know nothing is running.
            let outside = shared.scope(None, cancel);
            let _ = outside.emit_batch(vec![
                ran,
                AgentEvent::CommandResult {
                    command: "UserPromptSubmit".into(),
                    ok: false,
                    output: format!("The message was not sent: {why}"),
                    action: None,
                },
            ]);
            return;
        }
    };
    drive(
        shared,
        turn_id,
        cancel,
        ended,
        Begin::Input(Box::new((input, prompt_hooks))),
    )
    .await;
}

/// How a turn begins: with the user's message (and what its `UserPromptSubmit` hooks
/// did), or by running an earlier turn again.
enum Begin {
    // Boxed: a message with its images is far larger than a turn id.
    Input(Box<(UserInput, Option<AgentEvent>)>),
    Retry(TurnId),
}

/// Runs turn `retry_of` again as the session's task (`Op::RetryTurn`): the conversation
/// already holds its message, so nothing is added before the model is called.
pub(crate) async fn run_retry(
    shared: Arc<SessionState>,
    turn_id: TurnId,
    retry_of: TurnId,
    cancel: CancellationToken,
    ended: Arc<AtomicBool>,
) {
    if let Err(error) = shared.conversation.load() {
        ended.store(true, Ordering::Release);
        shared.report_error(error.kind(), &format!("could not retry: {error}"));
        return;
    }
    drive(shared, turn_id, cancel, ended, Begin::Retry(retry_of)).await;
}

/// The turn from its first event to `turn_ended`.
async fn drive(
    shared: Arc<SessionState>,
    turn_id: TurnId,
    cancel: CancellationToken,
    ended: Arc<AtomicBool>,
    begin: Begin,
) {
    set_turn_now(&shared, Some(turn_id.clone()));
    let mut turn = Turn {
        scope: shared.scope(Some(turn_id), cancel),
        shared,
        usage: TokenUsage::default(),
        deferred: Vec::new(),
        repeats: RepeatGuard::default(),
        stop_continuations: 0,
        system_prompt: None,
    };
    let reason = match turn.run(begin).await {
        Ok(reason) => reason,
        Err(err) => {
            tracing::error!(error = %err, "turn failed");
            let _ = turn.scope.emit(AgentEvent::Error {
                kind: err.kind(),
                message: err.to_string(),
                retryable: false,
                detail: None,
                phrase: None,
            });
            TurnEndReason::Failed
        }
    };
    let usage = turn.usage;
    set_turn_now(&turn.shared, None);
    ended.store(true, Ordering::Release);
    let mut last = std::mem::take(&mut turn.deferred);
    last.push(AgentEvent::TurnEnded { reason, usage });
    let _ = turn.scope.emit_batch(last);
}

/// The text of the conversation's last user message (what a retried turn answers).
fn last_user_text(history: &[memo_model::Message]) -> String {
    history
        .iter()
        .rev()
        .find_map(|m| match m {
            memo_model::Message::User { text, .. } => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Which turn what is written from outside the turn (subagents' news) belongs to.
fn set_turn_now(shared: &SessionState, turn: Option<TurnId>) {
    *shared.turn_now.lock().unwrap_or_else(|p| p.into_inner()) = turn;
}

/// Runs `/compact` or `/clear` as the session's task: like a turn without a model step,
/// outside any turn id.
pub(crate) async fn run_compaction(
    shared: Arc<SessionState>,
    trigger: CompactionTrigger,
    instructions: Option<String>,
    cancel: CancellationToken,
    ended: Arc<AtomicBool>,
) {
    let scope = shared.scope(None, cancel);
    if let Err(error) = shared.conversation.load() {
        ended.store(true, Ordering::Release);
        shared.report_error(error.kind(), &format!("could not compact: {error}"));
        return;
    }
    let command = match trigger {
        CompactionTrigger::Clear => "/clear",
        _ => "/compact",
    };
    let (ok, output) = match compact(&shared, &scope, trigger, instructions.as_deref()).await {
        Ok((attempt, usage)) => {
            if usage.total() > 0 {
                let _ = scope.emit(AgentEvent::Usage {
                    step: usage,
                    turn_total: usage,
                });
            }
            super::compaction::report(&attempt)
        }
        Err(err) => (false, format!("Compaction failed: {err}")),
    };
    ended.store(true, Ordering::Release);
    let _ = scope.emit(AgentEvent::CommandResult {
        command: command.into(),
        ok,
        output,
        action: None,
    });
}

/// Every compaction, automatic or asked for, goes through here.
async fn compact(
    shared: &SessionState,
    scope: &TurnScope,
    trigger: CompactionTrigger,
    instructions: Option<&str>,
) -> Result<(Attempt, TokenUsage), EngineError> {
    let hook_trigger = match trigger {
        CompactionTrigger::Manual => Some(memo_hooks::CompactTrigger::Manual),
        CompactionTrigger::Auto => Some(memo_hooks::CompactTrigger::Auto),
        // `/clear` summarises nothing; Claude Code runs no PreCompact for it either.
        CompactionTrigger::Clear => None,
    };
    let mode = shared.approvals.mode();
    match hook_trigger {
        Some(hook_trigger) => {
            shared
                .hooks
                .pre_compact(scope, mode, hook_trigger, instructions)
                .await?
        }
        None => {
            let reason = memo_hooks::SessionEndReason::Clear;
            shared.hooks.session_end(scope, mode, reason).await
        }
    }
    let view = shared.tool_view();
    let binding = shared.binding();
    let done = Compactor {
        scope,
        model: &binding,
        retry: shared.limits.retry,
        max_output_tokens: shared.limits.max_output_tokens,
        context: &shared.context,
        tool_specs: &view.specs,
        cwd: &shared.tool_ctx.cwd,
    }
    .compact(trigger, instructions)
    .await?;
    // The conversation starts over (from a summary, or from nothing): SessionStart hooks
    // give their context again, after it.
    let source = match &done.0 {
        Attempt::Done(o) if o.status == CompactionStatus::Cleared => {
            Some(memo_hooks::SessionStartSource::Clear)
        }
        Attempt::Done(o) if o.status == CompactionStatus::Compacted => {
            Some(memo_hooks::SessionStartSource::Compact)
        }
        _ => None,
    };
    if let Some(source) = source {
        shared.hooks.session_start(scope, mode, source).await?;
    }
    Ok(done)
}

/// What an automatic check did before a model step.
enum AutoCompaction {
    NotNeeded,
    Compacted,
    NotCompacted,
    Interrupted,
}

struct Turn {
    shared: Arc<SessionState>,
    /// What the turn's components are handed instead of `shared`.
    scope: TurnScope,
    usage: TokenUsage,
    /// Events of the final step, committed together with `turn_ended` (one fsync instead
    /// of two for the common answer-only ending).
    deferred: Vec<AgentEvent>,
    /// Failed calls of this turn, to stop a model that keeps sending the same one.
    repeats: RepeatGuard,
    /// How many times Stop hooks kept this turn going.
    stop_continuations: u32,
    /// This turn's system prompt when `BeforeAgentStart` hooks replaced the session's.
    system_prompt: Option<Arc<String>>,
}

/// How a step's tool calls ended, for the turn.
enum CallsEnd {
    Continue,
    Interrupted,
    /// A hook asked the agent to stop (`"continue": false`).
    StoppedByHook,
}

impl Turn {
    async fn run(&mut self, begin: Begin) -> Result<TurnEndReason, EngineError> {
        if !self.start(begin).await? {
            return Ok(TurnEndReason::Interrupted);
        }
        let mut overflow_compacted = false;
        for step in 0..self.shared.limits.max_steps {
            if matches!(self.auto_compact(false).await?, AutoCompaction::Interrupted) {
                return Ok(TurnEndReason::Interrupted);
            }
            let model_call = Step {
                scope: &self.scope,
                client: self.shared.binding().client.clone(),
                retry: self.shared.limits.retry,
            };
            let (response, mut step_end) = match model_call.run(self.build_request(step)).await? {
                StepOutcome::Completed(response, pending) => (response, pending),
                StepOutcome::Interrupted(partial) => {
                    // Keep what the user already saw, without half-assembled tool calls.
                    if !partial.text.is_empty() || partial.reasoning.is_some() {
                        self.scope.record(assistant_event(&ModelResponse {
                            tool_calls: Vec::new(),
                            ..partial
                        }))?;
                    }
                    return Ok(TurnEndReason::Interrupted);
                }
                StepOutcome::Failed(ProviderError::ContextOverflow(said))
                    if !overflow_compacted =>
                {
                    // Our estimate was below the provider's count: compact once and retry.
                    overflow_compacted = true;
                    match self.auto_compact(true).await? {
                        AutoCompaction::Compacted => continue,
                        AutoCompaction::Interrupted => return Ok(TurnEndReason::Interrupted),
                        AutoCompaction::NotNeeded | AutoCompaction::NotCompacted => {
                            return self.fail_overflow(&said);
                        }
                    }
                }
                StepOutcome::Failed(err) => {
                    self.scope.emit(AgentEvent::Error {
                        kind: err.kind(),
                        message: err.to_string(),
                        retryable: err.is_retryable(),
                        detail: err.detail(),
                        phrase: err.phrase(),
                    })?;
                    return Ok(TurnEndReason::Failed);
                }
            };
            self.usage.add(&response.usage);
            // The last stream events, the usage and the assistant message are persisted in
            // one commit: with fsync per commit, commits are what a step costs.
            let assistant = assistant_event(&response);
            step_end.push(AgentEvent::Usage {
                step: response.usage,
                turn_total: self.usage,
            });
            step_end.push(assistant.clone());
            if response.tool_calls.is_empty() {
                if !self.shared.hooks.has(self.shared.hooks.stop_event()) {
                    // The model answered: the turn ends with this step.
                    self.scope.apply(&assistant);
                    self.deferred = step_end;
                    return Ok(TurnEndReason::Completed);
                }
                self.scope.emit_batch(step_end)?;
                self.scope.apply(&assistant);
                let mode = self.shared.approvals.mode();
                let hooks = self.shared.hooks.clone();
                match hooks
                    .stop(&self.scope, mode, self.stop_continuations)
                    .await?
                {
                    StopCheck::End => return Ok(TurnEndReason::Completed),
                    StopCheck::Interrupted => return Ok(TurnEndReason::Interrupted),
                    StopCheck::Continue => {
                        self.stop_continuations += 1;
                        continue;
                    }
                }
            }
            self.scope.emit_batch(step_end)?;
            self.scope.apply(&assistant);
            match self.run_tool_calls(&response.tool_calls).await? {
                CallsEnd::Continue => {}
                CallsEnd::Interrupted => return Ok(TurnEndReason::Interrupted),
                CallsEnd::StoppedByHook => return Ok(TurnEndReason::Completed),
            }
            let history = self.scope.history();
            if let Some(stuck) = self.repeats.observe(&response.tool_calls, &history) {
                self.scope.emit(AgentEvent::Error {
                    kind: ErrorKind::Provider,
                    message: stuck.message(),
                    retryable: false,
                    detail: None,
                    phrase: None,
                })?;
                return Ok(TurnEndReason::Failed);
            }
        }
        self.scope.emit(AgentEvent::Error {
            kind: ErrorKind::Provider,
            message: format!(
                "stopped after {} model steps without a final answer (step limit)",
                self.shared.limits.max_steps
            ),
            retryable: false,
            detail: None,
            phrase: None,
        })?;
        Ok(TurnEndReason::StepLimit)
    }

    /// Records the turn's input (or that it runs an earlier turn again), then gives the
    /// MCP servers their startup time before the first request lists the tools. False
    /// when the user interrupted that wait. `Begin::Input` carries what the
    /// `UserPromptSubmit` hooks did, recorded after the input.
    async fn start(&mut self, begin: Begin) -> Result<bool, EngineError> {
        if let Some(checkpoints) = &self.shared.checkpoints {
            // Whatever changed since the last turn was not this turn's doing.
            checkpoints
                .outside(self.scope.last_seq(), self.scope.turn_id())
                .await;
        }
        let prompt = match begin {
            Begin::Input(begin) => {
                let (mut input, prompt_hooks) = *begin;
                let prompt = input.text.clone();
                let first = !self
                    .scope
                    .history()
                    .iter()
                    .any(|m| matches!(m, memo_model::Message::User { .. }));
                if first {
                    if let Some(workspace) = &self.shared.context.settings.workspace {
                        input.session_context = Some(workspace.session_context());
                    }
                }
                self.scope.record(AgentEvent::TurnStarted { input })?;
                if let Some(ran) = prompt_hooks {
                    // After the message, so the hooks' context follows it in the
                    // conversation.
                    self.scope.record(ran)?;
                }
                prompt
            }
            Begin::Retry(retry_of) => {
                self.scope.record(AgentEvent::TurnResumed { retry_of })?;
                last_user_text(&self.scope.history())
            }
        };
        self.choose_system_prompt(&prompt).await?;
        Ok(super::mcp::wait_for_tools(&self.shared.tools, self.scope.cancel()).await)
    }

    /// The system prompt for this turn: the session's, or what its `BeforeAgentStart`
    /// hooks made of it. Every turn starts again from the session's, so a replacement
    /// never outlives its turn.
    async fn choose_system_prompt(&mut self, prompt: &str) -> Result<(), EngineError> {
        let hooks = self.shared.hooks.clone();
        let replaced = if hooks.has(memo_hooks::HookEvent::BeforeAgentStart) {
            let base = self.shared.prompt_view().system_prompt.clone();
            let mode = self.shared.approvals.mode();
            hooks
                .before_agent_start(&self.scope, mode, prompt, &base)
                .await?
        } else {
            None
        };
        let shown = replaced.map(|(content, changed_by)| {
            self.system_prompt = Some(Arc::new(content.clone()));
            memo_protocol::TurnSystemPrompt {
                turn_id: self
                    .scope
                    .turn_id()
                    .cloned()
                    .unwrap_or_else(|| TurnId::new(String::new())),
                changed_by,
                chars: content.chars().count() as u64,
                content,
            }
        });
        *self
            .shared
            .turn_prompt
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = shown;
        Ok(())
    }

    /// Compacts when the next request would pass the threshold, or unconditionally when
    /// `overflowed` (the provider said the last one did). Never while automatic
    /// compaction is off after a failure.
    async fn auto_compact(&mut self, overflowed: bool) -> Result<AutoCompaction, EngineError> {
        let ctx = &self.shared.context;
        if ctx.auto_blocked() {
            return Ok(AutoCompaction::NotNeeded);
        }
        if !overflowed {
            let history = self.scope.history();
            let tokens: u64 = self.scope.token_counts(&history).iter().sum::<u64>()
                + self.shared.tool_view().fixed_prompt_tokens;
            if !memo_context::compaction::over_threshold(
                tokens,
                self.shared.binding().context_window,
                ctx.settings.auto_compact_threshold_percent,
            ) {
                return Ok(AutoCompaction::NotNeeded);
            }
        }
        let (attempt, usage) =
            compact(&self.shared, &self.scope, CompactionTrigger::Auto, None).await?;
        if usage.total() > 0 {
            self.usage.add(&usage);
            self.scope.emit(AgentEvent::Usage {
                step: usage,
                turn_total: self.usage,
            })?;
        }
        Ok(match attempt {
            Attempt::Interrupted => AutoCompaction::Interrupted,
            Attempt::Done(o) if o.status == CompactionStatus::Compacted => {
                AutoCompaction::Compacted
            }
            Attempt::Done(_) => AutoCompaction::NotCompacted,
        })
    }

    /// `said`: the server's own words (a local server's context size is its setting).
    fn fail_overflow(&self, said: &str) -> Result<TurnEndReason, EngineError> {
        self.scope.emit(AgentEvent::Error {
            kind: ErrorKind::ContextOverflow,
            message: format!(
                "the conversation is too long for the model's context window and could not be \
                 compacted; try /compact or /clear, or give the server a larger context \
                 (llama.cpp: -c, Ollama: num_ctx). The server said: {said}"
            ),
            retryable: false,
            detail: None,
            phrase: None,
        })?;
        Ok(TurnEndReason::Failed)
    }

    fn build_request(&self, step: u32) -> StepRequest {
        let view = self.shared.prompt_view();
        let binding = self.shared.binding();
        let messages = super::images::for_model(self.scope.history(), binding.supports_vision);
        let input_tokens =
            self.scope.token_counts(&messages).iter().sum::<u64>() + view.fixed_prompt_tokens;
        StepRequest {
            step,
            request: ModelRequest {
                model: binding.model.clone(),
                system: self
                    .system_prompt
                    .as_ref()
                    .unwrap_or(&view.system_prompt)
                    .as_ref()
                    .clone(),
                messages,
                tools: view.specs.as_ref().clone(),
                parallel_tool_calls: binding.parallel_tool_calls,
                max_output_tokens: self.shared.limits.max_output_tokens,
                thinking_budget_tokens: binding.thinking_budget_tokens,
                temperature: binding.temperature,
            },
            input_tokens,
        }
    }

    /// Runs one step's tool calls.
    async fn run_tool_calls(&self, calls: &[ToolCall]) -> Result<CallsEnd, EngineError> {
        let denials = self.shared.refresh_read_denials();
        let settings = &self.shared.context.settings;
        let home = self.shared.user_home();
        let hooks = self.shared.hooks.clone();
        let scope = self.scope.clone();
        let approvals = &self.shared.approvals;
        let policy = StepPolicy {
            scope: &self.scope,
            // "Approve all" answers cover one step's calls only.
            approver: Approver::for_step(
                &self.scope,
                approvals,
                ApprovalRules {
                    store: settings.approval_rules.as_ref(),
                    imported: &settings.imported_rules,
                    cwd: &self.shared.tool_ctx.cwd,
                    denials: &denials,
                    home: home.as_deref(),
                    command_limits: &settings.command_limits,
                },
            )
            .on_ask(Box::new(move |call: &ToolCall| {
                hooks.notify(&scope, approvals.mode(), permission_message(&call.name))
            })),
            hooks: &self.shared.hooks,
            approvals,
            hook_context: Mutex::new(HashMap::new()),
            stop: AtomicBool::new(false),
        };
        let view = self.shared.tool_view();
        let interrupted = ToolCalls {
            scope: &self.scope,
            tools: &self.shared.tools,
            validators: &view.validators,
            tool_ctx: &self.shared.tool_ctx,
            checkpoints: self.shared.checkpoints.as_ref(),
            policy: &policy,
        }
        .run(calls)
        .await?;
        Ok(if interrupted {
            CallsEnd::Interrupted
        } else if policy.stop.load(Ordering::Acquire) {
            CallsEnd::StoppedByHook
        } else {
            CallsEnd::Continue
        })
    }
}

/// The turn's say in one step's tool calls: the hooks around each, whether it may run,
/// and recording what it returned.
struct StepPolicy<'a> {
    scope: &'a TurnScope,
    approver: Approver<'a>,
    hooks: &'a SessionHooks,
    approvals: &'a ApprovalState,
    /// What `PreToolUse` hooks gave the model about a call, by call id: added to its
    /// result, the one place the model reads about the call.
    hook_context: Mutex<HashMap<String, String>>,
    /// A hook asked the agent to stop: no model call after this step.
    stop: AtomicBool,
}

impl CallPolicy for StepPolicy<'_> {
    async fn precheck(
        &self,
        call: &ToolCall,
        args: &serde_json::Value,
    ) -> Result<Precheck, EngineError> {
        let mode = self.approvals.mode();
        let pre = self
            .hooks
            .pre_tool_use(self.scope, mode, call, args)
            .await?;
        if pre.stop {
            self.stop.store(true, Ordering::Release);
        }
        if let Some(context) = pre.context {
            lock(&self.hook_context).insert(call.id.clone(), context);
        }
        Ok(pre.check)
    }

    async fn admit(
        &self,
        call: &ToolCall,
        preview: &ToolPreview,
        args: &serde_json::Value,
        hint: &ApprovalHint,
    ) -> Result<Approval, EngineError> {
        self.approver.approve(call, preview, args, hint).await
    }

    async fn record_result(
        &self,
        call: &ToolCall,
        mut result: CallResult,
    ) -> Result<(), EngineError> {
        let mut notes: Vec<String> = lock(&self.hook_context)
            .remove(&call.id)
            .into_iter()
            .collect();
        if let Some(args) = &result.ran_with {
            let mode = self.approvals.mode();
            let post = self
                .hooks
                .post_tool_use(self.scope, mode, call, args, &result.output)
                .await?;
            if post.stop {
                self.stop.store(true, Ordering::Release);
            }
            notes.extend(post.note);
        }
        for note in notes {
            if !result.output.is_empty() {
                result.output.push_str("\n\n");
            }
            result.output.push_str(&note);
        }
        self.scope.record(result.into_event(call))
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Each critical section is one insert or remove, so a poisoned map is still whole.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn assistant_event(response: &ModelResponse) -> AgentEvent {
    AgentEvent::AssistantMessage {
        text: response.text.clone(),
        reasoning: response.reasoning.clone(),
        tool_calls: response
            .tool_calls
            .iter()
            .map(|c| ToolCallSummary {
                call_id: ToolCallId::new(c.id.clone()),
                name: c.name.clone(),
                arguments: c.arguments.clone(),
            })
            .collect(),
        provider_data: response.provider_data.clone(),
    }
}
