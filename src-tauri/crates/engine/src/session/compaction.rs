//! Runs context compaction: asks the model to summarise the older history into a
//! `<state_snapshot>`, checks the result is smaller, and records a `context_compacted`
//! event. The event is applied to the live history through the same function a resumed
//! session replays, so both agree.
//!
//! Both sides of the cut are bounded by the model's window, for a history many times
//! larger (a long session switched to a smaller model): the kept part by
//! [`compaction::split_point`], and the summary requests by [`pieces`], which splits the
//! older part into pieces summarised one after the other as a rolling snapshot. However
//! many calls that takes, it is one event with the last snapshot, the usage of them all,
//! and the same shape as ever, so older logs replay the same.
//!
//! Triggers: automatic before a model step once the request reaches the configured share
//! of the context window (or after the provider reported an overflow), `/compact` and
//! `Op::Compact`, and `/clear` (no summary, nothing kept).
//!
//! A component: a [`Compactor`] is given the scope it records in, the model and the
//! settings it needs, and returns what it did. When to compact, and what the cost and
//! the outcome mean for a turn or a `/compact` command, is decided in `turn.rs`.

use std::path::Path;
use std::sync::Arc;

use futures::StreamExt;
use memo_context::compaction::{self, pieces, Sizes};
use memo_context::{EnvFacts, Templates};
use memo_model::{Message, ModelRequest, ModelResponse, ResponseEvent, ToolSpec};
use memo_protocol::{AgentEvent, CompactionStatus, CompactionTrigger, TokenUsage};
use memo_providers::{ProviderError, RetryPolicy};
use serde_json::json;

use super::context::{blocked_after, ContextState};
use super::model::ModelBinding;
use super::scope::TurnScope;
use crate::EngineError;

/// What one compaction attempt did.
pub(crate) struct Outcome {
    pub status: CompactionStatus,
    pub compacted: u32,
    pub kept: u32,
    pub sizes: Sizes,
    /// The snapshot, when compacted.
    pub summary: Option<String>,
    /// Why it failed or was skipped.
    pub message: Option<String>,
    /// The oldest messages that were too many to summarise (the snapshot says so).
    pub left_out: u32,
}

impl Outcome {
    fn unchanged(
        status: CompactionStatus,
        history_len: usize,
        before: u64,
        message: String,
    ) -> Self {
        Outcome {
            status,
            compacted: 0,
            kept: len_u32(history_len),
            sizes: Sizes {
                before,
                after: before,
            },
            summary: None,
            message: Some(message),
            left_out: 0,
        }
    }
}

/// The result of an attempt that may have been cancelled.
pub(crate) enum Attempt {
    Done(Outcome),
    Interrupted,
}

/// What summarising the older history came to.
enum Summary {
    Snapshot {
        text: String,
        left_out: usize,
    },
    /// Why not: a provider's error, or an empty answer.
    Failed(String),
    Interrupted,
}

/// The system prompt and the request to write the snapshot, rendered once a compaction.
struct SummaryPrompt {
    system: String,
    ask: Message,
}

/// Compacts the conversation of one scope.
pub(crate) struct Compactor<'a> {
    pub scope: &'a TurnScope,
    /// Writes the summary.
    pub model: &'a ModelBinding,
    pub retry: RetryPolicy,
    pub max_output_tokens: Option<u32>,
    /// The templates, environment and token counter; whether automatic compaction is on.
    pub context: &'a ContextState,
    /// The session's tool definitions.
    pub tool_specs: &'a [ToolSpec],
    /// The workspace, for the summary prompt's environment when there is no workspace
    /// context.
    pub cwd: &'a Path,
}

impl Compactor<'_> {
    /// Compacts (or clears) the conversation now, recording the outcome in the log.
    /// Returns the tokens the summarisation calls cost; the caller reports them as usage.
    pub async fn compact(
        &self,
        trigger: CompactionTrigger,
        instructions: Option<&str>,
    ) -> Result<(Attempt, TokenUsage), EngineError> {
        let history = self.scope.history();
        let counts = self.scope.token_counts(&history);
        let before: u64 = counts.iter().sum();
        let mut usage = TokenUsage::default();
        let window = self.model.context_window;
        let outcome = if trigger == CompactionTrigger::Clear {
            Outcome {
                status: CompactionStatus::Cleared,
                compacted: len_u32(history.len()),
                kept: 0,
                sizes: Sizes { before, after: 0 },
                summary: None,
                message: None,
                left_out: 0,
            }
        } else {
            match compaction::split_point(&history, &counts, window).filter(|s| *s > 0) {
                None => {
                    let why = if history.is_empty() {
                        "the conversation is empty"
                    } else {
                        "only the current request is in the history"
                    };
                    Outcome::unchanged(CompactionStatus::Skipped, history.len(), before, why.into())
                }
                Some(split) => {
                    let older = &history[..split];
                    match self
                        .summarise(older, &counts[..split], instructions, &mut usage)
                        .await?
                    {
                        Summary::Interrupted => return Ok((Attempt::Interrupted, usage)),
                        Summary::Failed(why) => {
                            Outcome::unchanged(CompactionStatus::Failed, history.len(), before, why)
                        }
                        Summary::Snapshot { text, left_out } => Outcome {
                            left_out: len_u32(left_out),
                            ..self.judge(&history, &counts, split, text)
                        },
                    }
                }
            }
        };
        let event = AgentEvent::ContextCompacted {
            trigger,
            status: outcome.status,
            summary: outcome.summary.clone(),
            kept_messages: outcome.kept,
            compacted_messages: outcome.compacted,
            tokens_before: outcome.sizes.before,
            tokens_after: outcome.sizes.after,
            usage,
            message: outcome.message.clone(),
        };
        // Our snapshot must not be a second owner when the history is rewritten, or
        // `Arc::make_mut` would deep-copy the whole old history just to replace it.
        drop(history);
        self.scope.record(event)?;
        let ctx = self.context;
        ctx.set_auto_blocked(blocked_after(outcome.status, ctx.auto_blocked()));
        Ok((Attempt::Done(outcome), usage))
    }

    /// Summarises `older` (per-message token `counts`) into one snapshot, in as many
    /// requests as the window needs (see [`pieces`]): each piece's request starts with the
    /// snapshot of the pieces before it, the last snapshot is the result. The usage of
    /// every call is added to `usage`, whatever the outcome.
    async fn summarise(
        &self,
        older: &[Message],
        counts: &[u64],
        instructions: Option<&str>,
        usage: &mut TokenUsage,
    ) -> Result<Summary, EngineError> {
        let prompt = self.prompt(instructions);
        let counter = self.context.settings.counter;
        let fixed = counter.count(&prompt.system)
            + counter.tools(self.tool_specs)
            + counter.message(&prompt.ask);
        let budget = pieces::input_budget(self.model.context_window, fixed);
        let plan = pieces::plan(older, counts, budget, pieces::MAX_PIECES);
        let cancel = self.scope.cancel();
        let mut running: Option<String> = None;
        let total = len_u32(plan.ranges.len());
        for index in 0..plan.ranges.len() {
            // Between calls too: a cancelled compaction must not start another one.
            if cancel.is_cancelled() {
                return Ok(Summary::Interrupted);
            }
            // The user sees the wait for what it is (several calls on a long history).
            self.scope.record(AgentEvent::CompactionProgress {
                done: len_u32(index),
                total,
            })?;
            let messages = plan.messages(older, counts, index, running.as_deref(), budget, counter);
            let response = match self.call_model(self.request(&prompt, messages)).await {
                None => return Ok(Summary::Interrupted),
                Some(Err(err)) => return Ok(Summary::Failed(err.to_string())),
                Some(Ok(response)) => response,
            };
            usage.add(&response.usage);
            match compaction::extract_snapshot(&response.text) {
                Some(snapshot) => running = Some(snapshot),
                None => {
                    return Ok(Summary::Failed(
                        "the model returned an empty summary".into(),
                    ))
                }
            }
        }
        Ok(match running {
            Some(text) => Summary::Snapshot {
                text,
                left_out: plan.left_out,
            },
            None => Summary::Failed("nothing was summarised".into()),
        })
    }

    /// Decides what a snapshot is worth: one that would make the history larger is a
    /// failure (and the history stays as it was).
    fn judge(
        &self,
        history: &[Message],
        counts: &[u64],
        split: usize,
        snapshot: String,
    ) -> Outcome {
        let before: u64 = counts.iter().sum();
        let sizes = compaction::sizes(counts, split, &snapshot, self.context.settings.counter);
        if sizes.inflated() {
            let why = format!(
            "the summarised history (~{} tokens) would be larger than the original (~{} tokens)",
            sizes.after, sizes.before
        );
            return Outcome {
                sizes,
                ..Outcome::unchanged(CompactionStatus::Inflated, history.len(), before, why)
            };
        }
        Outcome {
            status: CompactionStatus::Compacted,
            compacted: len_u32(split),
            kept: len_u32(history.len() - split),
            sizes,
            summary: Some(snapshot),
            message: None,
            left_out: 0,
        }
    }

    /// The summary prompt: the same for every piece of one compaction.
    fn prompt(&self, instructions: Option<&str>) -> SummaryPrompt {
        let templates = self
            .context
            .settings
            .workspace
            .as_ref()
            .map(|w| w.templates.clone())
            .unwrap_or_else(Templates::builtin_only);
        let env = self
            .context
            .settings
            .workspace
            .as_ref()
            .map(|w| w.env.clone())
            .unwrap_or_else(|| EnvFacts::fixed(self.cwd, self.cwd));
        let vars = json!({ "env": env, "model": self.model.model, "instructions": instructions });
        // Problems with a user's override are already reported by the prompt report.
        let mut problems = Vec::new();
        let system = templates.render("compaction.md", &vars, &mut problems).text;
        let ask = templates
            .render("compaction_request.md", &vars, &mut problems)
            .text;
        SummaryPrompt {
            system,
            ask: Message::user(ask.trim().to_owned()),
        }
    }

    /// One summary request: `messages` (a piece, after its snapshot) and the ask.
    fn request(&self, prompt: &SummaryPrompt, messages: Vec<Message>) -> ModelRequest {
        let binding = self.model;
        let mut messages: Vec<Message> = if binding.supports_vision {
            messages
        } else {
            messages.iter().map(super::images::without_images).collect()
        };
        messages.push(prompt.ask.clone());
        ModelRequest {
            model: binding.model.clone(),
            system: prompt.system.clone(),
            messages: Arc::new(messages),
            // Providers reject a history with tool calls when no tools are declared.
            tools: self.tool_specs.to_vec(),
            parallel_tool_calls: binding.parallel_tool_calls,
            max_output_tokens: self.max_output_tokens,
            thinking_budget_tokens: None,
            temperature: binding.temperature,
        }
    }

    /// One non-streamed-to-the-user model call with the session's retry policy. `None` when
    /// cancelled.
    async fn call_model(
        &self,
        request: ModelRequest,
    ) -> Option<Result<ModelResponse, ProviderError>> {
        let policy = self.retry;
        let cancel = self.scope.cancel();
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let result = tokio::select! {
                _ = cancel.cancelled() => return None,
                result = self.collect(request.clone()) => result,
            };
            match result {
                Ok(response) => return Some(Ok(response)),
                Err(err) => match policy.delay(attempt, &err) {
                    Some(delay) => tokio::select! {
                        _ = cancel.cancelled() => return None,
                        _ = tokio::time::sleep(delay) => {}
                    },
                    None => return Some(Err(err)),
                },
            }
        }
    }

    async fn collect(&self, request: ModelRequest) -> Result<ModelResponse, ProviderError> {
        let mut stream = self.model.client.stream(request).await?;
        while let Some(item) = stream.next().await {
            if let ResponseEvent::Completed(response) = item? {
                return Ok(response);
            }
        }
        Err(ProviderError::StreamInterrupted(
            "the stream ended without a final event".into(),
        ))
    }
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What `/compact` (or `/clear`) tells the user.
pub(crate) fn report(attempt: &Attempt) -> (bool, String) {
    let Attempt::Done(o) = attempt else {
        return (
            false,
            "Compaction interrupted; the history is unchanged.".into(),
        );
    };
    let reason = o.message.as_deref().unwrap_or("unknown reason");
    match o.status {
        CompactionStatus::Compacted => {
            let mut said = format!(
                "Compacted {} older messages into a state snapshot and kept the last {} (history ~{} -> ~{} tokens).",
                o.compacted, o.kept, o.sizes.before, o.sizes.after
            );
            if o.left_out > 0 {
                said.push_str(&format!(
                    " The conversation was too long to summarise in full: {} earlier messages are not in the snapshot.",
                    o.left_out
                ));
            }
            (true, said)
        }
        CompactionStatus::Cleared => (
            true,
            "Cleared the conversation: the next message starts fresh (the session log keeps the old messages).".into(),
        ),
        CompactionStatus::Skipped => (true, format!("Nothing to compact: {reason}.")),
        CompactionStatus::Inflated | CompactionStatus::Failed => (
            false,
            format!(
                "Compaction failed: {reason}. The history is unchanged and automatic compaction is off until /compact succeeds."
            ),
        ),
    }
}
