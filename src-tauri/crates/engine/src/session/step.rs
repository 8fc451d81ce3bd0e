//! One model call: stream it, forward deltas as events, retry retryable failures. A
//! component of the turn: it is given the turn's scope, the client and the retry policy,
//! and returns how the call ended; the turn decides what follows.

use std::collections::HashMap;

use std::sync::Arc;

use futures::StreamExt;
use memo_model::{ModelRequest, ModelResponse, ResponseEvent};
use memo_protocol::{AgentEvent, ToolCallId};
use memo_providers::{ModelClient, ProviderError, RetryPolicy};

use super::scope::TurnScope;
use crate::EngineError;

/// Upper bound of stream items persisted in one transaction.
const MAX_BATCH: usize = 256;
/// How long after an item more are gathered into its transaction. A model streaming
/// a token per millisecond would otherwise cost a durable commit (an fsync) per token,
/// which caps the stream at what the disk can sync; this caps commits at ~100 a second.
/// Below a frame, so nobody sees the difference.
const GATHER: std::time::Duration = std::time::Duration::from_millis(10);

pub(crate) enum StepOutcome {
    /// The response, and stream events still to persist with the step's end.
    Completed(ModelResponse, Vec<AgentEvent>),
    /// Cancelled by the user; carries what had streamed so far.
    Interrupted(ModelResponse),
    /// A provider error that retries did not (or could not) fix.
    Failed(ProviderError),
}

/// Deltas seen so far in one attempt, kept for an interruption.
#[derive(Default)]
struct Partial {
    response: ModelResponse,
    emitted_any: bool,
    /// Stream index -> the call id announced to clients.
    call_ids: HashMap<usize, String>,
}

enum AttemptResult {
    /// The response and the events of its last stream read, not yet persisted: the turn
    /// commits them together with the step's usage and assistant message.
    Done(ModelResponse, Vec<AgentEvent>),
    Interrupted(ModelResponse),
    Error {
        error: ProviderError,
        emitted_any: bool,
    },
}

/// Streams model calls into one turn.
pub(crate) struct Step<'a> {
    pub scope: &'a TurnScope,
    pub client: Arc<dyn ModelClient>,
    pub retry: RetryPolicy,
}

/// One request of a turn.
pub(crate) struct StepRequest {
    /// The step's number in its turn (from 0).
    pub step: u32,
    pub request: ModelRequest,
    /// The request's estimated size (messages, system prompt and tool definitions), told
    /// to clients while the model reads the prompt.
    pub input_tokens: u64,
}

impl Step<'_> {
    pub async fn run(&self, request: StepRequest) -> Result<StepOutcome, EngineError> {
        let policy = self.retry;
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            match self.attempt(&request).await? {
                AttemptResult::Done(response, pending) => {
                    return Ok(StepOutcome::Completed(response, pending))
                }
                AttemptResult::Interrupted(partial) => {
                    return Ok(StepOutcome::Interrupted(partial))
                }
                AttemptResult::Error { error, emitted_any } => {
                    let Some(delay) = policy.delay(attempt, &error) else {
                        return Ok(StepOutcome::Failed(error));
                    };
                    self.scope.emit(AgentEvent::Retrying {
                        attempt,
                        max_attempts: policy.max_attempts,
                        delay_ms: delay.as_millis() as u64,
                        reason: error.to_string(),
                        discarded_partial: emitted_any,
                    })?;
                    tokio::select! {
                        _ = self.scope.cancel().cancelled() => {
                            return Ok(StepOutcome::Interrupted(ModelResponse::default()));
                        }
                        _ = tokio::time::sleep(delay) => {}
                    }
                }
            }
        }
    }

    async fn attempt(&self, request: &StepRequest) -> Result<AttemptResult, EngineError> {
        let mut partial = Partial::default();
        let step = request.step;
        // Until the first byte the model is reading the prompt: the UI and the CLI show
        // that (and for how long) instead of a silent spinner.
        self.scope.emit(AgentEvent::ModelRequestSent {
            step,
            input_tokens: request.input_tokens,
            local: self.client.is_local(),
        })?;
        let opened = tokio::select! {
            _ = self.scope.cancel().cancelled() => return Ok(AttemptResult::Interrupted(partial.response)),
            opened = self.client.stream(request.request.clone()) => opened,
        };
        let mut stream = match opened {
            Ok(stream) => stream,
            Err(error) => {
                return Ok(AttemptResult::Error {
                    error,
                    emitted_any: false,
                })
            }
        };
        let mut batch = Vec::new();
        loop {
            // Dropping the stream on interrupt aborts the HTTP body read.
            let first = tokio::select! {
                _ = self.scope.cancel().cancelled() => return Ok(AttemptResult::Interrupted(partial.response)),
                item = stream.next() => item,
            };
            // Items that are already buffered, or arrive within GATHER, are persisted in one
            // transaction: one commit per GATHER instead of one per delta, still before
            // anyone sees them.
            let mut item = first;
            let mut taken = 1;
            let gather_until = tokio::time::Instant::now() + GATHER;
            loop {
                if let Some(end) = self.absorb(step, item, &mut partial, &mut batch) {
                    if let AttemptResult::Done(response, _) = end {
                        return Ok(AttemptResult::Done(response, std::mem::take(&mut batch)));
                    }
                    self.scope.emit_batch(std::mem::take(&mut batch))?;
                    return Ok(end);
                }
                if taken >= MAX_BATCH {
                    break;
                }
                match tokio::time::timeout_at(gather_until, stream.next()).await {
                    Ok(next) => {
                        item = next;
                        taken += 1;
                    }
                    Err(_) => break,
                }
            }
            self.scope.emit_batch(std::mem::take(&mut batch))?;
        }
    }

    /// Folds one stream item into the partial response, queueing the events it produces.
    /// Returns the attempt's result when the item ends the stream.
    fn absorb(
        &self,
        step: u32,
        item: Option<Result<ResponseEvent, ProviderError>>,
        partial: &mut Partial,
        batch: &mut Vec<AgentEvent>,
    ) -> Option<AttemptResult> {
        let event = match item {
            Some(Ok(event)) => event,
            Some(Err(error)) => {
                return Some(AttemptResult::Error {
                    error,
                    emitted_any: partial.emitted_any,
                })
            }
            None => {
                return Some(AttemptResult::Error {
                    error: ProviderError::StreamInterrupted(
                        "the stream ended without a final event".into(),
                    ),
                    emitted_any: partial.emitted_any,
                })
            }
        };
        match event {
            ResponseEvent::TextDelta(delta) => {
                partial.response.text.push_str(&delta);
                partial.emitted_any = true;
                batch.push(AgentEvent::TextDelta { delta });
            }
            ResponseEvent::ReasoningDelta(delta) => {
                partial
                    .response
                    .reasoning
                    .get_or_insert_with(String::new)
                    .push_str(&delta);
                partial.emitted_any = true;
                batch.push(AgentEvent::ReasoningDelta { delta });
            }
            ResponseEvent::ToolCallStart { index, id, name } => {
                let call_id = unique_call_id(&id, step, index, self.turn_key());
                partial.call_ids.insert(index, call_id.clone());
                partial.emitted_any = true;
                batch.push(AgentEvent::ToolCallBegin {
                    call_id: ToolCallId::new(call_id),
                    name,
                });
            }
            ResponseEvent::ToolCallArgsDelta { index, delta } => {
                if let Some(call_id) = partial.call_ids.get(&index) {
                    batch.push(AgentEvent::ToolCallArgsDelta {
                        call_id: ToolCallId::new(call_id.clone()),
                        delta,
                    });
                }
            }
            ResponseEvent::Completed(mut response) => {
                // Clients saw the ids announced at ToolCallStart; keep them.
                for (index, call) in response.tool_calls.iter_mut().enumerate() {
                    call.id = match partial.call_ids.get(&index) {
                        Some(announced) => announced.clone(),
                        None => unique_call_id(&call.id, step, index, self.turn_key()),
                    };
                }
                return Some(AttemptResult::Done(response, Vec::new()));
            }
        }
        None
    }

    /// What tells this turn's generated call ids from other turns'.
    fn turn_key(&self) -> &str {
        self.scope.turn_id().map_or("", |t| t.0.as_str())
    }
}

/// Some OpenAI-compatible servers send empty or repeated ids; the history needs every call
/// to have its own id so results pair up.
fn unique_call_id(id: &str, step: u32, index: usize, turn: &str) -> String {
    if id.trim().is_empty() {
        let short: String = turn.chars().rev().take(8).collect();
        format!("call_{short}_{step}_{index}")
    } else {
        id.to_owned()
    }
}
