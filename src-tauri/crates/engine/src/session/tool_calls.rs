//! Runs the tool calls of one model step. Every call ends with exactly one `tool_call_end`
//! event (success, error, denial or interruption), so each call in the history has a result.
//!
//! Arguments are repaired before they are validated (small models' predictable mistakes,
//! see `memo_tools::repair`): the repaired arguments are what approvals, previews and the
//! tool see, while the history keeps what the model sent. A repair is never silent: a
//! `tool_args_repaired` event precedes the call, and its result ends with a note for the
//! model.
//!
//! A component of the turn: this module owns the order of a step's calls (parallel
//! groups, previews, cancellation, checkpoints around mutating calls); the turn owns the
//! policy through [`CallPolicy`]: a check before the call is previewed (the `PreToolUse`
//! hooks, which may refuse it or rewrite its arguments), whether it may run, and
//! recording its result.

use std::collections::HashMap;
use std::sync::Arc;

use futures::stream::{FuturesUnordered, StreamExt};
use memo_model::ToolCall;
use memo_protocol::{AgentEvent, ToolCallId, ToolErrorKind, ToolStatus, ToolView};

use super::approvals::{check_hunks, Approval, ApprovalHint};
use super::checkpoint::Checkpointing;
use super::scope::TurnScope;
use crate::tools::repair::repair_note;
use crate::tools::schema::ArgsValidator;
use crate::tools::truncate::truncate_tool_output;
use crate::tools::{
    Approved, OutputSink, ProgressSink, Tool, ToolContext, ToolError, ToolInvocation, ToolOutput,
    ToolPreview, ToolRegistry,
};
use crate::EngineError;

/// What the check before a call's preview said.
pub(crate) enum Precheck {
    /// Go on to the preview and approval: with these arguments instead of the model's
    /// (validated again here: whoever rewrote them is not trusted), and what the
    /// approval should make of it.
    Proceed {
        args: Option<serde_json::Value>,
        hint: ApprovalHint,
    },
    /// The call is not run; the model is told why.
    Refused(String),
    Interrupted,
}

/// The turn's say in each call.
pub(crate) trait CallPolicy {
    /// Checks a call before it is previewed.
    async fn precheck(
        &self,
        call: &ToolCall,
        args: &serde_json::Value,
    ) -> Result<Precheck, EngineError>;

    /// Whether a previewed call may run (asking the user when it must).
    async fn admit(
        &self,
        call: &ToolCall,
        preview: &ToolPreview,
        args: &serde_json::Value,
        hint: &ApprovalHint,
    ) -> Result<Approval, EngineError>;

    /// Records a finished call's result in the conversation.
    async fn record_result(&self, call: &ToolCall, result: CallResult) -> Result<(), EngineError>;
}

/// What a finished call tells the model.
pub(crate) struct CallResult {
    pub status: ToolStatus,
    pub error_kind: Option<ToolErrorKind>,
    /// As the model reads it: capped, with its notes.
    pub output: String,
    /// The arguments the call ran with, when it ran and succeeded (what `PostToolUse`
    /// hooks are about).
    pub ran_with: Option<serde_json::Value>,
    /// What the call was and did, as people read it.
    pub view: ToolView,
}

impl CallResult {
    /// The `tool_call_end` event that records it.
    pub fn into_event(self, call: &ToolCall) -> AgentEvent {
        AgentEvent::ToolCallEnd {
            call_id: ToolCallId::new(call.id.clone()),
            name: call.name.clone(),
            status: self.status,
            error_kind: self.error_kind,
            view: Some(self.view),
            output: self.output,
            // The log keeps every output whole; only a window's copy is cut.
            full_length: None,
        }
    }
}

/// Runs the calls of one model step.
pub(crate) struct ToolCalls<'a, P> {
    pub scope: &'a TurnScope,
    pub tools: &'a ToolRegistry,
    /// Every tool's compiled input schema, by tool name.
    pub validators: &'a HashMap<String, ArgsValidator>,
    /// What every call runs in; each gets its own copy with its cancellation and sinks.
    pub tool_ctx: &'a ToolContext,
    pub checkpoints: Option<&'a Arc<Checkpointing>>,
    pub policy: &'a P,
}

struct ReadyCall {
    call: ToolCall,
    tool: Arc<dyn Tool>,
    /// As repaired; what the call runs with.
    args: serde_json::Value,
    /// What was repaired in the model's arguments, one sentence each.
    repairs: Vec<String>,
    /// Set once approved: how much of its file change to make.
    approved: Approved,
    /// What the call is, as last announced (`tool_call_view`).
    view: ToolView,
}

/// What a call's check came to, for [`ToolCalls::approve_group`].
enum Checked {
    Go(ReadyCall, ApprovalHint),
    /// Finished already (refused, or its rewritten arguments were invalid).
    Done,
    Interrupted(ReadyCall),
}

impl<P: CallPolicy> ToolCalls<'_, P> {
    /// Returns true when the user interrupted.
    pub async fn run(&self, calls: &[ToolCall]) -> Result<bool, EngineError> {
        let mut ready = Vec::new();
        for call in calls {
            match self.prepare(call) {
                Ok(r) => {
                    if !r.repairs.is_empty() {
                        // Before approval and run, so the user sees why the call differs
                        // from what the model wrote.
                        self.scope.emit(AgentEvent::ToolArgsRepaired {
                            call_id: ToolCallId::new(call.id.clone()),
                            repairs: r.repairs.clone(),
                        })?;
                    }
                    self.announce(&r)?;
                    ready.push(r)
                }
                Err(err) => self.finish(call, Err(err)).await?,
            }
        }
        // Consecutive parallel-safe calls form one group, any other call a group of its
        // own. Each group is previewed, approved and run before the next one is
        // previewed, so a call sees what earlier calls of the same step did (a file
        // written, a directory made) and its diff is computed on the file as it now is.
        let mut groups: Vec<Vec<ReadyCall>> = Vec::new();
        for r in ready {
            let joins = r.tool.parallel_safe()
                && groups
                    .last()
                    .and_then(|group| group.last())
                    .is_some_and(|last| last.tool.parallel_safe());
            match groups.last_mut() {
                Some(group) if joins => group.push(r),
                _ => groups.push(vec![r]),
            }
        }
        let mut groups = groups.into_iter();
        while let Some(group) = groups.next() {
            let interrupted = match self.approve_group(group).await? {
                Some(approved) => {
                    let approved: Vec<&ReadyCall> = approved.iter().collect();
                    self.run_concurrently(&approved).await?
                }
                None => true,
            };
            if interrupted {
                for rest in groups.by_ref().flatten() {
                    self.finish_interrupted(&rest.call).await?;
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Previews each call of a group and asks for its approval. `None` when the user
    /// interrupted; every call of the group then has its `interrupted` result.
    async fn approve_group(
        &self,
        group: Vec<ReadyCall>,
    ) -> Result<Option<Vec<ReadyCall>>, EngineError> {
        let mut approved = Vec::new();
        let mut group = group.into_iter();
        while let Some(r) = group.next() {
            let (mut r, hint) = match self.check(r).await? {
                Checked::Go(r, hint) => (r, hint),
                Checked::Done => continue,
                Checked::Interrupted(r) => {
                    self.interrupt_group(&r, group, &approved).await?;
                    return Ok(None);
                }
            };
            let ctx = self.tool_ctx.clone();
            let preview = match r.tool.preview(&ctx, &r.args).await {
                Ok(preview) => preview,
                Err(err) => {
                    self.finish_ready(&r, Err(err)).await?;
                    continue;
                }
            };
            if with_proposed_diff(&mut r.view, &preview) {
                self.announce(&r)?;
            }
            match self.policy.admit(&r.call, &preview, &r.args, &hint).await? {
                Approval::Granted {
                    accepted_hunks,
                    accepted_edits,
                } => {
                    if let Err(err) = check_hunks(&preview, &accepted_hunks, &accepted_edits) {
                        self.finish_ready(&r, Err(err)).await?;
                        continue;
                    }
                    r.approved = Approved::from_lists(accepted_hunks, accepted_edits);
                    approved.push(r);
                }
                Approval::Denied(reason) => {
                    self.finish_ready(
                        &r,
                        Err(ToolError::new(ToolErrorKind::ApprovalDenied, reason)),
                    )
                    .await?
                }
                Approval::Interrupted => {
                    self.interrupt_group(&r, group, &approved).await?;
                    return Ok(None);
                }
            }
        }
        Ok(Some(approved))
    }

    /// The turn's check before the preview; rewritten arguments must pass the tool's
    /// schema like the model's did.
    async fn check(&self, mut r: ReadyCall) -> Result<Checked, EngineError> {
        match self.policy.precheck(&r.call, &r.args).await? {
            Precheck::Proceed { args, hint } => {
                if let Some(args) = args {
                    match self.revalidated(&r.call.name, args) {
                        Ok(args) => {
                            r.view = r.tool.view(self.tool_ctx, &args);
                            r.args = args;
                            self.announce(&r)?;
                        }
                        Err(err) => {
                            self.finish_ready(&r, Err(err)).await?;
                            return Ok(Checked::Done);
                        }
                    }
                }
                Ok(Checked::Go(r, hint))
            }
            Precheck::Refused(reason) => {
                self.finish_ready(&r, Err(ToolError::new(ToolErrorKind::PolicyDenied, reason)))
                    .await?;
                Ok(Checked::Done)
            }
            Precheck::Interrupted => Ok(Checked::Interrupted(r)),
        }
    }

    fn revalidated(
        &self,
        tool: &str,
        args: serde_json::Value,
    ) -> Result<serde_json::Value, ToolError> {
        let invalid = |why: String| {
            ToolError::invalid_input(format!(
                "a PreToolUse hook rewrote the arguments of {tool}, and the result is not valid, so the call was not run: {why}"
            ))
        };
        if !args.is_object() {
            return Err(invalid(format!("expected a JSON object, got {args}")));
        }
        if let Some(validator) = self.validators.get(tool) {
            validator
                .validate(tool, &args)
                .map_err(|err| invalid(err.message))?;
        }
        Ok(args)
    }

    /// `current` and the rest of its group were interrupted before running, and so were
    /// the group's calls approved so far.
    async fn interrupt_group(
        &self,
        current: &ReadyCall,
        rest: impl Iterator<Item = ReadyCall>,
        approved: &[ReadyCall],
    ) -> Result<(), EngineError> {
        self.finish_interrupted(&current.call).await?;
        for r in rest {
            self.finish_interrupted(&r.call).await?;
        }
        for r in approved {
            self.finish_interrupted(&r.call).await?;
        }
        Ok(())
    }

    /// Looks the tool up, parses its arguments and repairs and validates them; failures
    /// go back to the model.
    fn prepare(&self, call: &ToolCall) -> Result<ReadyCall, ToolError> {
        let tool = self.tools.get(&call.name).ok_or_else(|| {
            ToolError::new(
                ToolErrorKind::UnknownTool,
                format!(
                    "unknown tool '{}'. Available tools: {}",
                    call.name,
                    self.tools.names().join(", ")
                ),
            )
        })?;
        let raw = call.arguments.trim();
        // Several servers send "" for a call without arguments.
        let args: serde_json::Value = if raw.is_empty() {
            serde_json::Value::Object(Default::default())
        } else {
            serde_json::from_str(raw).map_err(|e| {
                let shown: String = raw.chars().take(200).collect();
                ToolError::invalid_input(format!(
                    "the arguments for {} are not valid JSON ({e}): {shown}. Send a JSON object matching the tool's schema.",
                    call.name
                ))
            })?
        };
        if !args.is_object() {
            return Err(ToolError::invalid_input(format!(
                "the arguments for {} must be a JSON object, got: {args}",
                call.name
            )));
        }
        let (args, repairs) = match self.validators.get(&call.name) {
            Some(validator) => repaired_and_valid(&call.name, validator, args)?,
            None => (args, Vec::new()),
        };
        let view = tool.view(self.tool_ctx, &args);
        Ok(ReadyCall {
            call: call.clone(),
            tool,
            args,
            repairs,
            approved: Approved::Whole,
            view,
        })
    }

    /// Runs calls concurrently (a single call is the sequential case); each result is
    /// recorded as soon as it is ready. Returns true when interrupted.
    async fn run_concurrently(&self, calls: &[&ReadyCall]) -> Result<bool, EngineError> {
        let checkpoints = self
            .checkpoints
            .filter(|_| calls.iter().any(|r| r.tool.may_change_files()));
        if let Some(checkpoints) = checkpoints {
            checkpoints.before_call(self.scope).await;
        }
        let mut running = FuturesUnordered::new();
        let mut handles = Vec::new();
        for (i, r) in calls.iter().enumerate() {
            // A spawned task both isolates a panicking tool and can be aborted on interrupt.
            let mut ctx = self.tool_ctx.clone();
            ctx.cancel = self.scope.cancel().child_token();
            ctx.call_id = Some(r.call.id.clone());
            ctx.progress = Some(progress_sink(self.scope, &r.call.id));
            ctx.live_output = Some(output_sink(self.scope, &r.call.id));
            let call = ToolInvocation {
                args: r.args.clone(),
                approved: r.approved.clone(),
            };
            let task = tokio::spawn(r.tool.invoke(ctx, call));
            handles.push(task.abort_handle());
            running.push(async move { (i, task.await) });
        }
        let mut done = vec![false; calls.len()];
        loop {
            let next = tokio::select! {
                _ = self.scope.cancel().cancelled() => {
                    for h in &handles {
                        h.abort();
                    }
                    // An interrupted call may have changed files before it stopped; what
                    // changed is charged to the first unfinished mutating call.
                    let cut = calls
                        .iter()
                        .zip(&done)
                        .find(|(r, finished)| !**finished && r.tool.may_change_files());
                    if let (Some(checkpoints), Some((r, _))) = (checkpoints, cut) {
                        checkpoints
                            .after_call(
                                self.scope,
                                &ToolCallId::new(r.call.id.clone()),
                                &r.call.name,
                            )
                            .await;
                    }
                    for (i, r) in calls.iter().enumerate() {
                        if !done[i] {
                            self.finish_interrupted(&r.call).await?;
                        }
                    }
                    return Ok(true);
                }
                next = running.next() => next,
            };
            let Some((i, joined)) = next else {
                return Ok(false);
            };
            done[i] = true;
            let changed = match checkpoints {
                Some(checkpoints) => {
                    checkpoints
                        .after_call(
                            self.scope,
                            &ToolCallId::new(calls[i].call.id.clone()),
                            &calls[i].call.name,
                        )
                        .await
                }
                None => Vec::new(),
            };
            let result =
                joined.unwrap_or_else(|e| Err(ToolError::failed(format!("the tool crashed: {e}"))));
            let result = result.map(|mut output| {
                if let Some(ToolView::McpCall(call)) = &mut output.view {
                    call.changed_files = changed;
                }
                output
            });
            self.finish_ready(calls[i], result).await?;
        }
    }

    async fn finish_interrupted(&self, call: &ToolCall) -> Result<(), EngineError> {
        self.finish(
            call,
            Err(ToolError::new(
                ToolErrorKind::Interrupted,
                "interrupted by the user before the tool finished",
            )),
        )
        .await
    }

    async fn finish(
        &self,
        call: &ToolCall,
        result: Result<ToolOutput, ToolError>,
    ) -> Result<(), EngineError> {
        // Never prepared: an unknown tool, or arguments that do not parse. What the
        // model sent is all there is to show.
        let args = serde_json::from_str(&call.arguments)
            .unwrap_or_else(|_| serde_json::Value::String(call.arguments.clone()));
        let view = match self.tools.get(&call.name) {
            Some(tool) if args.is_object() => tool.view(self.tool_ctx, &args),
            _ => ToolView::other(&call.name, &args),
        };
        self.finish_noted(call, result, &[], None, view).await
    }

    /// Ends a call that got past preparation: its result tells the model what was
    /// repaired, whatever the outcome, so the next call is sent right.
    async fn finish_ready(
        &self,
        r: &ReadyCall,
        result: Result<ToolOutput, ToolError>,
    ) -> Result<(), EngineError> {
        self.finish_noted(&r.call, result, &r.repairs, Some(&r.args), r.view.clone())
            .await
    }

    /// Tells front ends what a call is, as soon as it is known or changes.
    fn announce(&self, r: &ReadyCall) -> Result<(), EngineError> {
        self.scope.emit(AgentEvent::ToolCallView {
            call_id: ToolCallId::new(r.call.id.clone()),
            view: r.view.clone(),
        })?;
        Ok(())
    }

    async fn finish_noted(
        &self,
        call: &ToolCall,
        result: Result<ToolOutput, ToolError>,
        repairs: &[String],
        args: Option<&serde_json::Value>,
        asked: ToolView,
    ) -> Result<(), EngineError> {
        let ran_with = args.filter(|_| result.is_ok()).cloned();
        let (status, error_kind, output, view) = match result {
            Ok(output) => {
                if let Some(event) = output.event {
                    self.scope.emit(event)?;
                }
                (
                    ToolStatus::Ok,
                    None,
                    truncate_tool_output(&call.name, output.content),
                    output.view.unwrap_or(asked),
                )
            }
            // Errors can be long too (a timed-out command's output, an MCP server's
            // message): they go through the same cap.
            Err(err) => {
                let prefix = format!("Error ({}): ", error_label(err.kind));
                let view = match err.view {
                    Some(view) => shifted(*view, prefix.len()),
                    None => asked,
                };
                (
                    ToolStatus::Error,
                    Some(err.kind),
                    truncate_tool_output(&call.name, format!("{prefix}{}", err.message)),
                    view,
                )
            }
        };
        let output = if super::repeats::answered_before(&self.scope.history(), call, &output) {
            format!("{output}\n{}", super::repeats::REPEAT_HINT)
        } else {
            output
        };
        // After the cap, which keeps the head of a long output and would cut the note.
        let output = if repairs.is_empty() {
            output
        } else if output.is_empty() {
            repair_note(repairs)
        } else {
            format!("{output}\n{}", repair_note(repairs))
        };
        self.policy
            .record_result(
                call,
                CallResult {
                    status,
                    error_kind,
                    output,
                    ran_with,
                    view,
                },
            )
            .await
    }
}

/// A command's output range, moved past text put in front of its output.
fn shifted(view: ToolView, by: usize) -> ToolView {
    match view {
        ToolView::Command(mut command) => {
            command.output = command.output.map(|range| range.shifted(by as u64));
            ToolView::Command(command)
        }
        other => other,
    }
}

/// Puts the preview's diff into a one-file edit view that has none yet (its card shows
/// the proposed change while the call waits or runs); true when it did.
fn with_proposed_diff(view: &mut ToolView, preview: &ToolPreview) -> bool {
    let (ToolView::FileEdit(edit), Some(diff)) = (view, &preview.diff) else {
        return false;
    };
    match edit.files.as_mut_slice() {
        [file] if file.diff.is_none() => {
            file.diff = Some(diff.clone());
            true
        }
        _ => false,
    }
}

/// Emits a running call's progress as `tool_progress` events of its turn.
fn progress_sink(scope: &TurnScope, call_id: &str) -> ProgressSink {
    let emit = scope.detached_emit();
    let call_id = ToolCallId::new(call_id.to_owned());
    ProgressSink::new(move |p| {
        emit(AgentEvent::ToolProgress {
            call_id: call_id.clone(),
            progress: p.progress,
            total: p.total,
            message: p.message,
        })
    })
}

/// Emits what a running command prints as `tool_output` events of its turn.
fn output_sink(scope: &TurnScope, call_id: &str) -> OutputSink {
    let emit = scope.detached_emit();
    let call_id = ToolCallId::new(call_id.to_owned());
    OutputSink::new(move |chunk| {
        emit(AgentEvent::ToolOutput {
            call_id: call_id.clone(),
            chunk,
        })
    })
}

/// Repairs what the schema makes unambiguous, then validates. Repairs that do not make the
/// call valid are not kept: the call fails as sent, and the message describes what the
/// model sent, not a half-repaired version it never saw.
fn repaired_and_valid(
    tool: &str,
    validator: &ArgsValidator,
    args: serde_json::Value,
) -> Result<(serde_json::Value, Vec<String>), ToolError> {
    let repaired = validator.repair(&args);
    if !repaired.repairs.is_empty() && validator.validate(tool, &repaired.args).is_ok() {
        return Ok((repaired.args, repaired.repairs));
    }
    validator.validate(tool, &args)?;
    Ok((args, Vec::new()))
}

fn error_label(kind: ToolErrorKind) -> &'static str {
    match kind {
        ToolErrorKind::UnknownTool => "unknown_tool",
        ToolErrorKind::InvalidInput => "invalid_input",
        ToolErrorKind::ApprovalDenied => "approval_denied",
        ToolErrorKind::PolicyDenied => "policy_denied",
        ToolErrorKind::SandboxDenied => "sandbox_denied",
        ToolErrorKind::Timeout => "timeout",
        ToolErrorKind::ExecutionFailed => "execution_failed",
        ToolErrorKind::Interrupted => "interrupted",
    }
}
