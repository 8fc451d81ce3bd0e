//! One event's hooks taken together: what the caller has to do, and what each hook did.
//!
//! The hooks of one event run in parallel, so none of them sees another's answer, and
//! their answers are combined by fixed rules rather than by who finished first:
//!
//! - the decision: block (deny) wins over ask, ask over allow; the reason is every
//!   reason given for the winning decision, in configuration order;
//! - additional context: every hook's, in configuration order;
//! - stopping (`"continue": false`): any hook can stop the agent;
//! - `updatedInput`: ignored when the call is blocked; otherwise the one from the hook
//!   that comes last in configuration order (user settings, project, project local,
//!   Memo's config.toml; within a file, as written), the way a later settings file
//!   overrides an earlier one. When several hooks rewrote the input the user is told
//!   which one was used.
//!
//! Everything is serialisable so the engine can record it as session-log events.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::answer::{HookDecision, HookEffect};
use crate::event::{HookEvent, ToolCall};
use crate::load::HookSource;
use crate::process::{CapturedOutput, RunStatus};
use crate::tool_names::memo_tool_input;

/// One hook that ran (or tried to).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookRun {
    pub command: String,
    pub source: HookSource,
    pub status: RunStatus,
    pub duration_ms: u64,
    pub stdout: CapturedOutput,
    pub stderr: CapturedOutput,
    pub effect: HookEffect,
}

/// `"continue": false` from at least one hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StopRequest {
    /// The hooks' `stopReason`s, for the user; `None` when none gave one.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A hook's `systemMessage`, or a note about how answers were combined.
    Message,
    /// A hook's stdout, for events where it is not context (hidden by `suppressOutput`).
    Output,
    /// A non-blocking error: the hook failed, timed out, or answered badly.
    Error,
}

/// Something to show the user about one hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookNotice {
    pub kind: NoticeKind,
    /// The hook it is about.
    pub command: String,
    pub file: PathBuf,
    pub text: String,
}

/// The combined result of one event's hooks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookOutcome {
    pub event: HookEvent,
    pub runs: Vec<HookRun>,
    /// `PreToolUse`: `Block` = deny the call, `Ask` = ask the user even if a rule
    /// allows it, `Allow` = the hooks approve it. `PostToolUse`: `Block` = give
    /// `reason` to the model. `UserPromptSubmit`: `Block` = the prompt is not sent (show
    /// `reason` to the user). `Stop` / `SubagentStop`: `Block` = the agent must go on,
    /// with `reason` as its instruction.
    pub decision: Option<HookDecision>,
    pub reason: Option<String>,
    /// Stop the agent after this event (takes precedence over `decision`).
    pub stop: Option<StopRequest>,
    /// For the model, in configuration order.
    pub additional_context: Option<String>,
    /// `PreToolUse`: the tool's new arguments, in Memo's shape; validate them again, a
    /// hook is not trusted to produce valid input.
    pub updated_input: Option<Value>,
    pub notices: Vec<HookNotice>,
}

impl HookOutcome {
    /// The outcome of an event no hook matched.
    pub fn none(event: HookEvent) -> HookOutcome {
        HookOutcome {
            event,
            runs: Vec::new(),
            decision: None,
            reason: None,
            stop: None,
            additional_context: None,
            updated_input: None,
            notices: Vec::new(),
        }
    }

    pub fn is_blocked(&self) -> bool {
        self.decision == Some(HookDecision::Block)
    }

    pub(crate) fn combine(event: HookEvent, runs: Vec<HookRun>, tool: Option<&ToolCall>) -> Self {
        let mut outcome = HookOutcome::none(event);
        outcome.decision = runs
            .iter()
            .filter_map(|r| r.effect.decision)
            .max_by_key(|d| d.strength());
        outcome.reason = join(
            runs.iter()
                .filter(|r| r.effect.decision.is_some() && r.effect.decision == outcome.decision)
                .filter_map(|r| r.effect.reason.as_deref()),
            "\n",
        );
        if runs.iter().any(|r| r.effect.stop) {
            outcome.stop = Some(StopRequest {
                reason: join(
                    runs.iter()
                        .filter(|r| r.effect.stop)
                        .filter_map(|r| r.effect.stop_reason.as_deref()),
                    "\n",
                ),
            });
        }
        outcome.additional_context = join(
            runs.iter()
                .filter_map(|r| r.effect.additional_context.as_deref()),
            "\n\n",
        );

        for run in &runs {
            let notice = |kind, text: &str| HookNotice {
                kind,
                command: run.command.clone(),
                file: run.source.file.clone(),
                text: text.to_owned(),
            };
            if let Some(message) = &run.effect.system_message {
                outcome.notices.push(notice(NoticeKind::Message, message));
            }
            if let Some(output) = &run.effect.output_for_user {
                if !run.effect.suppress_output {
                    outcome.notices.push(notice(NoticeKind::Output, output));
                }
            }
            for error in &run.effect.errors {
                outcome.notices.push(notice(NoticeKind::Error, error));
            }
        }

        if !outcome.is_blocked() {
            let rewrites: Vec<&HookRun> = runs
                .iter()
                .filter(|r| r.effect.updated_input.is_some())
                .collect();
            if let Some(last) = rewrites.last() {
                outcome.updated_input = last.effect.updated_input.clone().map(|v| match tool {
                    Some(tool) => memo_tool_input(&tool.memo_name, &tool.input, v),
                    None => v,
                });
                if rewrites.len() > 1 {
                    outcome.notices.push(HookNotice {
                        kind: NoticeKind::Message,
                        command: last.command.clone(),
                        file: last.source.file.clone(),
                        text: format!(
                            "{} hooks changed the tool's input; only this one's change was used (the last in configuration order)",
                            rewrites.len()
                        ),
                    });
                }
            }
        }
        outcome.runs = runs;
        outcome
    }
}

fn join<'a>(parts: impl Iterator<Item = &'a str>, separator: &str) -> Option<String> {
    let parts: Vec<&str> = parts.filter(|p| !p.trim().is_empty()).collect();
    (!parts.is_empty()).then(|| parts.join(separator))
}
