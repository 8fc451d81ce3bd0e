//! One model call: stream it, forward deltas as events, retry retryable failures.

use std::collections::HashMap;

use futures::StreamExt;
use memo_protocol::{AgentEvent, ToolCallId};
use memo_providers::{ModelRequest, ModelResponse, ProviderError, ResponseEvent};

use super::turn::Turn;
use crate::EngineError;

pub(crate) enum StepOutcome {
    Completed(ModelResponse),
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
    Done(ModelResponse),
    Interrupted(ModelResponse),
    Error {
        error: ProviderError,
        emitted_any: bool,
    },
}

impl Turn {
    pub(crate) async fn stream_step(
        &self,
        step: u32,
        request: ModelRequest,
    ) -> Result<StepOutcome, EngineError> {
        let policy = self.shared.limits.retry.clone();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            match self.attempt(step, request.clone()).await? {
                AttemptResult::Done(response) => return Ok(StepOutcome::Completed(response)),
                AttemptResult::Interrupted(partial) => {
                    return Ok(StepOutcome::Interrupted(partial))
                }
                AttemptResult::Error { error, emitted_any } => {
                    let Some(delay) = policy.delay(attempt, &error) else {
                        return Ok(StepOutcome::Failed(error));
                    };
                    self.emit(AgentEvent::Retrying {
                        attempt,
                        max_attempts: policy.max_attempts,
                        delay_ms: delay.as_millis() as u64,
                        reason: error.to_string(),
                        discarded_partial: emitted_any,
                    })?;
                    tokio::select! {
                        _ = self.cancel.cancelled() => {
                            return Ok(StepOutcome::Interrupted(ModelResponse::default()));
                        }
                        _ = tokio::time::sleep(delay) => {}
                    }
                }
            }
        }
    }

    async fn attempt(
        &self,
        step: u32,
        request: ModelRequest,
    ) -> Result<AttemptResult, EngineError> {
        let mut partial = Partial::default();
        let opened = tokio::select! {
            _ = self.cancel.cancelled() => return Ok(AttemptResult::Interrupted(partial.response)),
            opened = self.shared.client.stream(request) => opened,
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
        loop {
            // Dropping the stream on interrupt aborts the HTTP body read.
            let item = tokio::select! {
                _ = self.cancel.cancelled() => return Ok(AttemptResult::Interrupted(partial.response)),
                item = stream.next() => item,
            };
            let event = match item {
                Some(Ok(event)) => event,
                Some(Err(error)) => {
                    return Ok(AttemptResult::Error {
                        error,
                        emitted_any: partial.emitted_any,
                    })
                }
                None => {
                    return Ok(AttemptResult::Error {
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
                    self.emit(AgentEvent::TextDelta { delta })?;
                }
                ResponseEvent::ReasoningDelta(delta) => {
                    partial
                        .response
                        .reasoning
                        .get_or_insert_with(String::new)
                        .push_str(&delta);
                    partial.emitted_any = true;
                    self.emit(AgentEvent::ReasoningDelta { delta })?;
                }
                ResponseEvent::ToolCallStart { index, id, name } => {
                    let call_id = unique_call_id(&id, step, index, &self.turn_id.0);
                    partial.call_ids.insert(index, call_id.clone());
                    partial.emitted_any = true;
                    self.emit(AgentEvent::ToolCallBegin {
                        call_id: ToolCallId::new(call_id),
                        name,
                    })?;
                }
                ResponseEvent::ToolCallArgsDelta { index, delta } => {
                    if let Some(call_id) = partial.call_ids.get(&index) {
                        self.emit(AgentEvent::ToolCallArgsDelta {
                            call_id: ToolCallId::new(call_id.clone()),
                            delta,
                        })?;
                    }
                }
                ResponseEvent::Completed(mut response) => {
                    // Clients saw the ids announced at ToolCallStart; keep them.
                    for (index, call) in response.tool_calls.iter_mut().enumerate() {
                        match partial.call_ids.get(&index) {
                            Some(announced) => call.id = announced.clone(),
                            None => {
                                call.id = unique_call_id(&call.id, step, index, &self.turn_id.0)
                            }
                        }
                    }
                    return Ok(AttemptResult::Done(response));
                }
            }
        }
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
