//! History normalisation shared by the request builders.
//!
//! All three APIs reject a history where a tool call has no result right after it, or a
//! result has no call (OpenAI: "tool_calls must be followed by tool messages"; Anthropic:
//! "tool_use ids were found without tool_result blocks"; Gemini: mismatched function
//! response count). An interrupted turn or a user message typed while tools ran can produce
//! exactly that, and a session must never become unsendable because of it.

use std::borrow::Cow;

use crate::Message;

/// What a call that never returned is reported as.
pub(crate) const MISSING_RESULT: &str =
    "The tool call was interrupted before it produced a result.";

/// Returns the history with every assistant message that asked for tools followed directly
/// by one result per call, in call order. Missing results are synthesised as errors, results
/// without a call are dropped, and other messages that sat between a call and its results
/// move after the results.
pub(crate) fn normalize(messages: &[Message]) -> Vec<Cow<'_, Message>> {
    let mut out = Vec::with_capacity(messages.len());
    let mut i = 0;
    while i < messages.len() {
        let message = &messages[i];
        i += 1;
        match message {
            Message::Assistant { tool_calls, .. } if !tool_calls.is_empty() => {
                out.push(Cow::Borrowed(message));
                // Everything up to the next assistant message belongs to this step.
                let end = messages[i..]
                    .iter()
                    .position(|m| matches!(m, Message::Assistant { .. }))
                    .map_or(messages.len(), |p| i + p);
                let step = &messages[i..end];
                for call in tool_calls {
                    let result = step.iter().find(
                        |m| matches!(m, Message::ToolResult { call_id, .. } if *call_id == call.id),
                    );
                    out.push(match result {
                        Some(found) => Cow::Borrowed(found),
                        None => Cow::Owned(Message::ToolResult {
                            call_id: call.id.clone(),
                            name: call.name.clone(),
                            content: MISSING_RESULT.to_owned(),
                            is_error: true,
                        }),
                    });
                }
                for other in step {
                    match other {
                        Message::ToolResult { call_id, .. } => {
                            if !tool_calls.iter().any(|c| c.id == *call_id) {
                                tracing::warn!(%call_id, "dropping a tool result without a matching call");
                            }
                        }
                        _ => out.push(Cow::Borrowed(other)),
                    }
                }
                i = end;
            }
            Message::ToolResult { call_id, .. } => {
                tracing::warn!(%call_id, "dropping a tool result without a matching call");
            }
            _ => out.push(Cow::Borrowed(message)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCall;

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: format!("tool_{id}"),
            arguments: "{}".into(),
        }
    }

    fn assistant(calls: &[&str]) -> Message {
        Message::Assistant {
            text: String::new(),
            reasoning: None,
            tool_calls: calls.iter().map(|id| call(id)).collect(),
            provider_data: None,
        }
    }

    fn result(id: &str) -> Message {
        Message::ToolResult {
            call_id: id.into(),
            name: format!("tool_{id}"),
            content: format!("out {id}"),
            is_error: false,
        }
    }

    fn user(text: &str) -> Message {
        Message::user(text)
    }

    #[test]
    fn results_are_ordered_missing_ones_synthesised_orphans_dropped() {
        let history = vec![
            user("go"),
            assistant(&["a", "b", "c"]),
            result("c"),
            user("while you work: hi"),
            result("a"),
            result("zzz"),
            assistant(&[]),
            result("orphan"),
        ];
        let normalized: Vec<Message> = normalize(&history)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        assert_eq!(
            normalized,
            vec![
                user("go"),
                assistant(&["a", "b", "c"]),
                result("a"),
                Message::ToolResult {
                    call_id: "b".into(),
                    name: "tool_b".into(),
                    content: MISSING_RESULT.into(),
                    is_error: true
                },
                result("c"),
                user("while you work: hi"),
                assistant(&[]),
            ]
        );
    }

    #[test]
    fn well_formed_history_is_unchanged() {
        let history = vec![user("go"), assistant(&["a"]), result("a"), assistant(&[])];
        let normalized: Vec<Message> = normalize(&history)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        assert_eq!(normalized, history);
    }
}
