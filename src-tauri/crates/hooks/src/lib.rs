//! Hooks in Claude Code's format: shell commands the user configured to run at points of
//! a session (before and after a tool call, on a prompt, when the agent stops...), read
//! unchanged from the files users already have, so a guard or formatter written for
//! Claude Code works in Memo without a copy.
//!
//! - [`load_hooks`] reads `~/.claude/settings.json`, the project's `.claude/settings.json`
//!   and `.claude/settings.local.json`, and `[hooks]` in Memo's `config.toml`; project
//!   hooks only in a trusted folder, and enabled plugins' hook files (with
//!   `CLAUDE_PLUGIN_ROOT`). Problems are reported per file, never fatal.
//! - [`Hooks::run`] runs every hook matching one event, in parallel, each with the event's
//!   JSON on stdin, and combines their answers into a [`HookOutcome`]: a decision, context
//!   for the model, a rewritten tool input, a request to stop, and notices for the user.
//! - [`Hooks::run_system_prompt_chain`] runs `BeforeAgentStart` hooks in order instead,
//!   each seeing the system prompt the one before it left: a replacement for one turn.
//!
//! This crate knows nothing of the engine: the caller builds a [`HookInput`] at each seam
//! and acts on the outcome.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod answer;
mod error;
mod event;
mod load;
mod matcher;
mod outcome;
mod process;
mod tool_names;

use std::time::Duration;

/// Re-exported: the cancellation [`Hooks::run`] takes (the engine's turns use the same type).
pub use tokio_util::sync::CancellationToken;

pub use answer::{HookDecision, HookEffect};
pub use error::{IssueKind, LoadError, OutputError, SpawnError};
pub use event::{
    CompactTrigger, HookContext, HookEvent, HookInput, SessionEndReason, SessionStartSource,
    ToolCall,
};
pub use load::{
    load_hooks, HookDefinition, HookPaths, HookSource, LoadIssue, LoadReport, LoadedFile,
    LoadedHooks, PluginHooks, SkippedProjectHooks, SourceKind, DEFAULT_TIMEOUT,
};
pub use matcher::Matcher;
pub use outcome::{HookNotice, HookOutcome, HookRun, NoticeKind, StopRequest};
pub use process::{CapturedOutput, RunStatus, OUTPUT_LIMIT};
pub use tool_names::{claude_tool_name, hook_tool_input, memo_tool_input, memo_tools_for};

use process::{run_command, HookCommand};

/// The hooks in effect for a session, in configuration order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hooks {
    definitions: Vec<HookDefinition>,
}

impl Hooks {
    pub fn new(definitions: Vec<HookDefinition>) -> Hooks {
        Hooks { definitions }
    }

    pub fn definitions(&self) -> &[HookDefinition] {
        &self.definitions
    }

    pub fn is_empty(&self) -> bool {
        self.definitions.is_empty()
    }

    /// Whether any hook is configured for the event (cheap; lets the caller skip
    /// building an input).
    pub fn has(&self, event: HookEvent) -> bool {
        self.definitions.iter().any(|h| h.event == event)
    }

    /// The hooks that would run for `input`, in configuration order. A command that
    /// appears more than once (in two files, or under two matchers) runs once, as the
    /// first occurrence.
    pub fn matching(&self, input: &HookInput) -> Vec<&HookDefinition> {
        let event = input.event();
        let subjects = input.matcher_subjects();
        let mut selected: Vec<&HookDefinition> = Vec::new();
        for hook in self.definitions.iter().filter(|h| h.event == event) {
            if event.uses_matcher() && !hook.matcher.matches_any(&subjects) {
                continue;
            }
            if selected.iter().any(|s| s.command == hook.command) {
                continue;
            }
            selected.push(hook);
        }
        selected
    }

    /// Runs the `BeforeAgentStart` hooks one after another, as pi chains its
    /// `before_agent_start` handlers: each is given the system prompt as the previous one
    /// left it (the first gets `system_prompt`) and may answer with a new one for this
    /// turn. The outcome's runs are those of every hook, for the log; `system_prompt` is
    /// the last replacement, `None` when no hook changed it.
    pub async fn run_system_prompt_chain(
        &self,
        ctx: &HookContext,
        prompt: &str,
        system_prompt: &str,
        cancel: &CancellationToken,
    ) -> PromptChain {
        let probe = HookInput::BeforeAgentStart {
            prompt: prompt.to_owned(),
            system_prompt: String::new(),
        };
        let selected: Vec<HookDefinition> = self.matching(&probe).into_iter().cloned().collect();
        let mut current: Option<String> = None;
        let mut changed_by = Vec::new();
        let mut runs = Vec::new();
        for hook in selected {
            if cancel.is_cancelled() {
                break;
            }
            let input = HookInput::BeforeAgentStart {
                prompt: prompt.to_owned(),
                system_prompt: current.as_deref().unwrap_or(system_prompt).to_owned(),
            };
            let one = Hooks::new(vec![hook]);
            let mut outcome = one.run(ctx, &input, cancel).await;
            let Some(run) = outcome.runs.pop() else {
                continue;
            };
            if let Some(new) = &run.effect.system_prompt {
                changed_by.push((run.command.clone(), run.source.clone()));
                current = Some(new.clone());
            }
            runs.push(run);
        }
        PromptChain {
            outcome: HookOutcome::combine(HookEvent::BeforeAgentStart, runs, None),
            system_prompt: current,
            changed_by,
        }
    }

    /// Runs the hooks matching `input`, all at once, and combines their answers.
    /// Cancelling `cancel` stops every hook still running (its whole process group);
    /// their runs then say `Cancelled` and have no effect.
    pub async fn run(
        &self,
        ctx: &HookContext,
        input: &HookInput,
        cancel: &CancellationToken,
    ) -> HookOutcome {
        let event = input.event();
        let selected = self.matching(input);
        if selected.is_empty() {
            return HookOutcome::none(event);
        }
        // Serialising a Value cannot fail; an empty stdin would still be a valid run.
        let stdin = serde_json::to_vec(&input.stdin_json(ctx)).unwrap_or_default();
        let runs = selected.iter().map(|hook| {
            let stdin = stdin.clone();
            async move {
                let result = run_command(
                    HookCommand {
                        command: &hook.command,
                        project_dir: &ctx.project_dir,
                        plugin_root: hook.source.plugin.as_ref().map(|(_, root)| root.as_path()),
                        stdin,
                        timeout: hook.timeout(),
                    },
                    cancel,
                )
                .await;
                tracing::debug!(
                    target: "memo_hooks",
                    event = %event,
                    command = %hook.command,
                    status = ?result.status,
                    "hook finished"
                );
                let effect = answer::interpret(
                    event,
                    &hook.command,
                    &result.status,
                    &result.stdout,
                    &result.stderr,
                );
                HookRun {
                    command: hook.command.clone(),
                    source: hook.source.clone(),
                    status: result.status,
                    duration_ms: millis(result.duration),
                    stdout: result.stdout,
                    stderr: result.stderr,
                    effect,
                }
            }
        });
        let runs = futures::future::join_all(runs).await;
        HookOutcome::combine(event, runs, input.tool())
    }
}

/// What [`Hooks::run_system_prompt_chain`] came to.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptChain {
    /// Every hook's run, and the notices (errors, messages) to show.
    pub outcome: HookOutcome,
    /// This turn's system prompt, when a hook replaced it.
    pub system_prompt: Option<String>,
    /// Each hook that changed it (its command and where it is configured), in the order
    /// they ran.
    pub changed_by: Vec<(String, HookSource)>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
