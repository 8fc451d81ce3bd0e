//! Rebuilds the model conversation from the event log. The turn loop appends to its live
//! history in exactly the same way, so a reopened session sends what it would have sent.

use memo_protocol::{AgentEvent, EventEnvelope, ToolStatus};
use memo_providers::{Message, ToolCall};

/// Applies one event to a conversation. Events that carry no conversation content
/// (deltas, usage, approvals...) are ignored.
pub fn apply_event(history: &mut Vec<Message>, event: &AgentEvent) {
    match event {
        AgentEvent::TurnStarted { input } => history.push(Message::User {
            text: input.text.clone(),
        }),
        AgentEvent::AssistantMessage {
            text,
            reasoning,
            tool_calls,
            provider_data,
        } => history.push(Message::Assistant {
            text: text.clone(),
            reasoning: reasoning.clone(),
            tool_calls: tool_calls
                .iter()
                .map(|c| ToolCall {
                    id: c.call_id.0.clone(),
                    name: c.name.clone(),
                    arguments: c.arguments.clone(),
                })
                .collect(),
            provider_data: provider_data.clone(),
        }),
        AgentEvent::ToolCallEnd {
            call_id,
            name,
            status,
            output,
            ..
        } => history.push(Message::ToolResult {
            call_id: call_id.0.clone(),
            name: name.clone(),
            content: output.clone(),
            is_error: *status == ToolStatus::Error,
        }),
        _ => {}
    }
}

pub fn rebuild_history<'a>(events: impl IntoIterator<Item = &'a EventEnvelope>) -> Vec<Message> {
    let mut history = Vec::new();
    for env in events {
        apply_event(&mut history, &env.event);
    }
    history
}
