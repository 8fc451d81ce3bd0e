//! Hooks in the turn loop: the user's shell commands, in Claude Code's format (see
//! `memo-hooks`), run at the moments a session passes through, each in the one place
//! where that moment happens:
//! - `SessionStart` when the actor starts (startup or resume), `SessionEnd` when it shuts
//!   down (`actor.rs`); around `/clear` (`SessionEnd` "clear", then `SessionStart`
//!   "clear") and after a compaction (`SessionStart` "compact"), as Claude Code does, so a
//!   hook's context survives them (`turn::compact`);
//! - `UserPromptSubmit` after a message is prepared and before `turn_started`
//!   (`turn::run_turn`): a block sends nothing to the model, context joins the message;
//! - `PreToolUse` before a call is previewed and approved, `PostToolUse` before its
//!   result is recorded (the turn's `StepPolicy`);
//! - `Stop` when the model answered without tools (`Turn::run`): a block makes the turn
//!   go on, at most [`MAX_STOP_CONTINUATIONS`] times in a row;
//! - `BeforeAgentStart` (pi's `before_agent_start`) once the turn's message is recorded
//!   and before the model is first called (`Turn::start`): the hooks run in order, each
//!   may replace the system prompt the one before it left, for this turn only;
//! - `PreCompact` before every compaction (`turn::compact`);
//! - `Notification` when Memo asks the user to approve a call.
//!
//! In a subagent's session `SubagentStop` stands in for `Stop` (same rules: a block makes
//! the subagent go on), and `SessionStart` / `SessionEnd` do not run: the session the
//! user started is its parent's, whose hooks ran already.
//!
//! Every moment at which at least one hook ran is recorded as `hook_ran`, with each
//! hook's status and decision, so the log and the UI say which hook blocked and why.
//! Hooks run under the turn's cancellation: interrupting the turn stops them.

use std::path::PathBuf;
use std::sync::Arc;

use memo_hooks::{
    CompactTrigger, HookContext, HookDecision, HookEvent, HookInput, HookOutcome, HookRun, Hooks,
    LoadReport, RunStatus, SessionEndReason, SessionStartSource,
};
use memo_model::ToolCall;
use memo_protocol::{
    bounded_hook_text, AgentEvent, ApprovalMode, ErrorKind, HookEventName, HookRunStatus,
    HookRunSummary, HookVerdict, PromptHook, ToolCallId,
};
use serde_json::{json, Value};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::approvals::ApprovalHint;
use super::scope::TurnScope;
use super::tool_calls::Precheck;
use crate::EngineError;

/// How many times in a row Stop hooks may keep a turn going: a hook that always blocks
/// must not make the agent run forever.
pub(crate) const MAX_STOP_CONTINUATIONS: u32 = 3;

/// The session's hooks and what every hook is told about the session.
pub(crate) struct SessionHooks {
    hooks: Hooks,
    session_id: String,
    cwd: PathBuf,
    /// A subagent's session: `SubagentStop` instead of `Stop`, no session hooks.
    subagent: bool,
}

/// What `PreToolUse` hooks said about a call.
pub(crate) struct PreTool {
    pub check: Precheck,
    /// For the model, added to the call's result.
    pub context: Option<String>,
    /// A hook asked the agent to stop: the turn ends after this step.
    pub stop: bool,
}

/// What `PostToolUse` hooks add to a call's result.
#[derive(Default)]
pub(crate) struct PostTool {
    /// Appended to what the model reads (a block's reason, additional context).
    pub note: Option<String>,
    pub stop: bool,
}

/// What `UserPromptSubmit` hooks said about a message.
pub(crate) enum PromptCheck {
    /// Send it; record this `hook_ran` (with its context for the model) after
    /// `turn_started`.
    Send(Option<AgentEvent>),
    /// Not sent: the `hook_ran` to record outside any turn, and why, for the user.
    Blocked(AgentEvent, String),
    Interrupted,
}

/// What `Stop` hooks said when the model answered.
pub(crate) enum StopCheck {
    End,
    /// Go on: their reason is in the conversation now.
    Continue,
    Interrupted,
}

impl SessionHooks {
    pub fn new(hooks: Hooks, session_id: String, cwd: PathBuf, subagent: bool) -> Self {
        Self {
            hooks,
            session_id,
            cwd,
            subagent,
        }
    }

    /// The hook event for "the agent answered": `SubagentStop` in a subagent's session.
    pub fn stop_event(&self) -> HookEvent {
        if self.subagent {
            HookEvent::SubagentStop
        } else {
            HookEvent::Stop
        }
    }

    pub fn has(&self, event: HookEvent) -> bool {
        self.hooks.has(event)
    }

    async fn run(
        &self,
        input: &HookInput,
        mode: ApprovalMode,
        cancel: &CancellationToken,
    ) -> HookOutcome {
        let mut ctx = HookContext::new(self.session_id.clone(), self.cwd.clone());
        ctx.permission_mode = Some(permission_mode(mode).to_owned());
        self.hooks.run(&ctx, input, cancel).await
    }

    pub async fn pre_tool_use(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        call: &ToolCall,
        args: &Value,
    ) -> Result<PreTool, EngineError> {
        let proceed = PreTool {
            check: Precheck::Proceed {
                args: None,
                hint: ApprovalHint::None,
            },
            context: None,
            stop: false,
        };
        if !self.has(HookEvent::PreToolUse) {
            return Ok(proceed);
        }
        let input = HookInput::PreToolUse {
            tool: hook_call(call, args),
        };
        let outcome = self.run(&input, mode, scope.cancel()).await;
        if let Some(event) = ran_event(&outcome, Some(&call.id), None) {
            scope.emit(event)?;
        }
        if scope.cancel().is_cancelled() {
            return Ok(PreTool {
                check: Precheck::Interrupted,
                ..proceed
            });
        }
        let reason = outcome.reason.clone();
        let check = match outcome.decision {
            Some(HookDecision::Block) => Precheck::Refused(format!(
                "a PreToolUse hook blocked this call: {}",
                reason.as_deref().unwrap_or("no reason given")
            )),
            _ if outcome.stop.is_some() => Precheck::Refused(format!(
                "a PreToolUse hook stopped the agent{}",
                stop_suffix(&outcome)
            )),
            decision => Precheck::Proceed {
                args: outcome.updated_input.clone(),
                hint: match decision {
                    Some(HookDecision::Allow) => ApprovalHint::Allow,
                    Some(HookDecision::Ask) => ApprovalHint::Ask(reason),
                    _ => ApprovalHint::None,
                },
            },
        };
        Ok(PreTool {
            check,
            context: outcome
                .additional_context
                .map(|c| format!("Context from a PreToolUse hook: {c}")),
            stop: outcome.stop.is_some(),
        })
    }

    pub async fn post_tool_use(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        call: &ToolCall,
        args: &Value,
        output: &str,
    ) -> Result<PostTool, EngineError> {
        if !self.has(HookEvent::PostToolUse) {
            return Ok(PostTool::default());
        }
        let input = HookInput::PostToolUse {
            tool: hook_call(call, args),
            // Claude Code's shape differs per tool; Memo's tools return text.
            tool_response: json!({ "output": output, "success": true }),
        };
        let outcome = self.run(&input, mode, scope.cancel()).await;
        if let Some(event) = ran_event(&outcome, Some(&call.id), None) {
            scope.emit(event)?;
        }
        let mut notes = Vec::new();
        if outcome.is_blocked() {
            if let Some(reason) = &outcome.reason {
                notes.push(format!("A PostToolUse hook says: {reason}"));
            }
        }
        if let Some(context) = &outcome.additional_context {
            notes.push(format!("Context from a PostToolUse hook: {context}"));
        }
        Ok(PostTool {
            note: (!notes.is_empty()).then(|| notes.join("\n\n")),
            stop: outcome.stop.is_some(),
        })
    }

    /// Runs the `BeforeAgentStart` chain for a turn whose message is `prompt` (the caller
    /// checks `has` first, so a session without such hooks never builds `base`): the
    /// turn's system prompt and the hooks that made it, when one replaced `base`.
    pub async fn before_agent_start(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        prompt: &str,
        base: &str,
    ) -> Result<Option<(String, Vec<PromptHook>)>, EngineError> {
        let mut ctx = HookContext::new(self.session_id.clone(), self.cwd.clone());
        ctx.permission_mode = Some(permission_mode(mode).to_owned());
        let chain = self
            .hooks
            .run_system_prompt_chain(&ctx, prompt, base, scope.cancel())
            .await;
        if let Some(event) = ran_event(&chain.outcome, None, None) {
            scope.emit(event)?;
        }
        let by = chain
            .changed_by
            .into_iter()
            .map(|(command, source)| PromptHook {
                command,
                file: source.file.display().to_string(),
            })
            .collect();
        Ok(chain.system_prompt.map(|prompt| (prompt, by)))
    }

    pub async fn user_prompt_submit(
        &self,
        prompt: &str,
        mode: ApprovalMode,
        cancel: &CancellationToken,
    ) -> PromptCheck {
        if !self.has(HookEvent::UserPromptSubmit) {
            return PromptCheck::Send(None);
        }
        let input = HookInput::UserPromptSubmit {
            prompt: prompt.to_owned(),
        };
        let outcome = self.run(&input, mode, cancel).await;
        if cancel.is_cancelled() {
            return PromptCheck::Interrupted;
        }
        let refused = if outcome.is_blocked() {
            Some(format!(
                "a UserPromptSubmit hook blocked the message: {}",
                outcome.reason.as_deref().unwrap_or("no reason given")
            ))
        } else {
            outcome.stop.as_ref().map(|_| {
                format!(
                    "a UserPromptSubmit hook stopped the agent{}",
                    stop_suffix(&outcome)
                )
            })
        };
        if let Some(why) = refused {
            // Nothing reaches the model, not even the hooks' context.
            return match ran_event(&outcome, None, None) {
                Some(event) => PromptCheck::Blocked(event, why),
                None => PromptCheck::Send(None),
            };
        }
        let context = outcome
            .additional_context
            .as_ref()
            .map(|c| format!("Context from the user's UserPromptSubmit hook:\n{c}"));
        PromptCheck::Send(ran_event(&outcome, None, context))
    }

    /// Runs the Stop hooks. `continuations`: how many times they already kept this turn
    /// going (`stop_hook_active` when more than none).
    pub async fn stop(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        continuations: u32,
    ) -> Result<StopCheck, EngineError> {
        if !self.has(self.stop_event()) {
            return Ok(StopCheck::End);
        }
        let stop_hook_active = continuations > 0;
        let input = if self.subagent {
            HookInput::SubagentStop { stop_hook_active }
        } else {
            HookInput::Stop { stop_hook_active }
        };
        let outcome = self.run(&input, mode, scope.cancel()).await;
        let interrupted = scope.cancel().is_cancelled();
        let go_on = outcome.is_blocked()
            && outcome.stop.is_none()
            && !interrupted
            && continuations < MAX_STOP_CONTINUATIONS;
        let for_model = go_on.then(|| {
            format!(
                "The user's Stop hook did not let you finish yet: {}",
                outcome.reason.as_deref().unwrap_or("no reason given")
            )
        });
        if let Some(mut event) = ran_event(&outcome, None, for_model) {
            if outcome.is_blocked() && !go_on && !interrupted && outcome.stop.is_none() {
                if let AgentEvent::HookRan { reason, .. } = &mut event {
                    let note = format!(
                        "not continued: Stop hooks already kept this turn going {MAX_STOP_CONTINUATIONS} times"
                    );
                    *reason = Some(match reason.take() {
                        Some(r) => format!("{r}\n({note})"),
                        None => note,
                    });
                }
            }
            // Recorded: a continuation's reason is part of the conversation.
            scope.record(event)?;
        }
        Ok(if interrupted {
            StopCheck::Interrupted
        } else if go_on {
            StopCheck::Continue
        } else {
            StopCheck::End
        })
    }

    pub async fn pre_compact(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        trigger: CompactTrigger,
        instructions: Option<&str>,
    ) -> Result<(), EngineError> {
        if !self.has(HookEvent::PreCompact) {
            return Ok(());
        }
        let input = HookInput::PreCompact {
            trigger,
            custom_instructions: instructions.unwrap_or_default().to_owned(),
        };
        let outcome = self.run(&input, mode, scope.cancel()).await;
        if let Some(event) = ran_event(&outcome, None, None) {
            scope.emit(event)?;
        }
        Ok(())
    }

    /// Runs the Notification hooks beside the question they are about: the question is
    /// not held up by them. The handle lets the asker wait a moment for them once
    /// answered, so their `hook_ran` usually stays inside the turn.
    pub fn notify(
        self: &Arc<Self>,
        scope: &TurnScope,
        mode: ApprovalMode,
        message: String,
    ) -> Option<JoinHandle<()>> {
        if !self.has(HookEvent::Notification) {
            return None;
        }
        let hooks = self.clone();
        let scope = scope.clone();
        Some(tokio::spawn(async move {
            let input = HookInput::Notification { message };
            let outcome = hooks.run(&input, mode, scope.cancel()).await;
            if let Some(event) = ran_event(&outcome, None, None) {
                // A failed write is already reported to subscribers by the emitter.
                let _ = scope.emit(event);
            }
        }))
    }

    /// Runs the SessionStart hooks; their context joins the conversation.
    pub async fn session_start(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        source: SessionStartSource,
    ) -> Result<(), EngineError> {
        if self.subagent || !self.has(HookEvent::SessionStart) {
            return Ok(());
        }
        let outcome = self
            .run(&HookInput::SessionStart { source }, mode, scope.cancel())
            .await;
        let context = outcome
            .additional_context
            .as_ref()
            .map(|c| format!("Context from the user's SessionStart hook:\n{c}"));
        if let Some(event) = ran_event(&outcome, None, context) {
            scope.record(event)?;
        }
        Ok(())
    }

    pub async fn session_end(
        &self,
        scope: &TurnScope,
        mode: ApprovalMode,
        reason: SessionEndReason,
    ) {
        if self.subagent || !self.has(HookEvent::SessionEnd) {
            return;
        }
        let input = HookInput::SessionEnd { reason };
        let outcome = self.run(&input, mode, scope.cancel()).await;
        if let Some(event) = ran_event(&outcome, None, None) {
            // A failed write is already reported to subscribers by the emitter.
            let _ = scope.emit(event);
        }
    }
}

/// What the session log says about how its hooks were read: project hooks skipped in an
/// untrusted folder, and files that could not be used.
pub(crate) fn load_report_events(report: &LoadReport) -> Vec<AgentEvent> {
    let mut events = Vec::new();
    let skipped = &report.skipped_project;
    if let Some(message) = skipped.message() {
        events.push(AgentEvent::HooksSkipped {
            count: u32::try_from(skipped.count()).unwrap_or(u32::MAX),
            files: skipped
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            message,
        });
    }
    for issue in &report.issues {
        events.push(AgentEvent::Error {
            kind: ErrorKind::Config,
            message: format!("hooks: {}", issue.message),
            retryable: false,
            detail: None,
            phrase: None,
        });
    }
    events
}

/// What approval prompts are called in Claude Code's `permission_mode`.
fn permission_mode(mode: ApprovalMode) -> &'static str {
    match mode {
        ApprovalMode::Dangerous => "bypassPermissions",
        ApprovalMode::Auto | ApprovalMode::Strict => "default",
    }
}

/// "Memo needs your permission to use Bash", with Claude Code's tool name as hook
/// scripts expect it.
pub(crate) fn permission_message(tool: &str) -> String {
    let name = memo_hooks::claude_tool_name(tool).unwrap_or_else(|| tool.to_owned());
    format!("Memo needs your permission to use {name}")
}

fn hook_call(call: &ToolCall, args: &Value) -> memo_hooks::ToolCall {
    memo_hooks::ToolCall::new(call.name.clone(), args.clone()).with_id(call.id.clone())
}

fn stop_suffix(outcome: &HookOutcome) -> String {
    match outcome.stop.as_ref().and_then(|s| s.reason.as_deref()) {
        Some(reason) => format!(": {reason}"),
        None => String::new(),
    }
}

/// The `hook_ran` event for an outcome; `None` when no hook matched.
fn ran_event(
    outcome: &HookOutcome,
    call_id: Option<&str>,
    for_model: Option<String>,
) -> Option<AgentEvent> {
    if outcome.runs.is_empty() {
        return None;
    }
    let reason = outcome
        .reason
        .clone()
        .or_else(|| outcome.stop.as_ref().and_then(|s| s.reason.clone()));
    Some(AgentEvent::HookRan {
        event: event_name(outcome.event),
        call_id: call_id.map(|id| ToolCallId::new(id.to_owned())),
        hooks: outcome.runs.iter().map(summary).collect(),
        decision: outcome.decision.map(verdict),
        reason: reason.as_deref().map(bounded_hook_text),
        stopped: outcome.stop.is_some(),
        for_model,
    })
}

fn summary(run: &HookRun) -> HookRunSummary {
    let effect = &run.effect;
    let (status, exit_code) = match &run.status {
        RunStatus::Exited { code: 0 } => (HookRunStatus::Ok, Some(0)),
        RunStatus::Exited { code: 2 } if effect.decision == Some(HookDecision::Block) => {
            (HookRunStatus::Blocked, Some(2))
        }
        RunStatus::Exited { code } => (HookRunStatus::Failed, Some(*code)),
        RunStatus::Signalled { .. } | RunStatus::SpawnFailed { .. } => {
            (HookRunStatus::Failed, None)
        }
        RunStatus::TimedOut { .. } => (HookRunStatus::TimedOut, None),
        RunStatus::Cancelled => (HookRunStatus::Cancelled, None),
    };
    let output = effect
        .output_for_user
        .as_ref()
        .filter(|_| !effect.suppress_output);
    let parts: Vec<&str> = [
        effect.reason.as_ref(),
        effect.stop_reason.as_ref(),
        effect.system_message.as_ref(),
        output,
    ]
    .into_iter()
    .flatten()
    .map(String::as_str)
    .chain(effect.errors.iter().map(String::as_str))
    .filter(|p| !p.trim().is_empty())
    .collect();
    HookRunSummary {
        command: bounded_hook_text(&run.command),
        source: run.source.file.display().to_string(),
        status,
        exit_code,
        duration_ms: run.duration_ms,
        decision: effect.decision.map(verdict),
        message: (!parts.is_empty()).then(|| bounded_hook_text(&parts.join("\n"))),
    }
}

fn verdict(decision: HookDecision) -> HookVerdict {
    match decision {
        HookDecision::Allow => HookVerdict::Allow,
        HookDecision::Ask => HookVerdict::Ask,
        HookDecision::Block => HookVerdict::Block,
    }
}

fn event_name(event: HookEvent) -> HookEventName {
    match event {
        HookEvent::PreToolUse => HookEventName::PreToolUse,
        HookEvent::PostToolUse => HookEventName::PostToolUse,
        HookEvent::UserPromptSubmit => HookEventName::UserPromptSubmit,
        HookEvent::Notification => HookEventName::Notification,
        HookEvent::Stop => HookEventName::Stop,
        HookEvent::SubagentStop => HookEventName::SubagentStop,
        HookEvent::PreCompact => HookEventName::PreCompact,
        HookEvent::SessionStart => HookEventName::SessionStart,
        HookEvent::SessionEnd => HookEventName::SessionEnd,
        HookEvent::BeforeAgentStart => HookEventName::BeforeAgentStart,
    }
}
