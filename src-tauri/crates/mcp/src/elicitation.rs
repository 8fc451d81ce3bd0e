//! Elicitation: a server asking the user for input in the middle of a call
//! (`elicitation/create`, form mode). The request must reach the user, so the crate only
//! carries it to an [`Elicitor`] the embedder supplies (a form in the app, a prompt in the
//! CLI). Without one, [`DeclineElicitor`] declines every request and logs why, so the
//! server can go on without the input instead of waiting for an answer that never comes.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Map, Value};

/// One request for input, as the user should see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitationRequest {
    /// The configured name of the server that asks.
    pub server: String,
    /// What the server says it needs, to be shown to the user as is.
    pub message: String,
    /// The form: a JSON Schema object whose properties are strings, numbers, integers,
    /// booleans or enums, each with an optional `title`, `description` and `default`.
    pub requested_schema: Value,
}

/// The user's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitationAnswer {
    /// Submitted: the values the user entered. Fields left out are filled with the
    /// schema's defaults before the answer is sent (SEP-1034).
    Accept(Map<String, Value>),
    /// The user said no; the server's operation goes on without the input.
    Decline,
    /// The user dismissed the request; the server's operation should stop.
    Cancel,
}

/// Answers elicitation requests. Called on the connection's task: an implementation
/// that shows a form returns a future that completes when the user answers. If the
/// server gives up first (the call is cancelled), the future is dropped.
pub trait Elicitor: Send + Sync {
    fn elicit(&self, request: ElicitationRequest) -> BoxFuture<'static, ElicitationAnswer>;
}

/// Declines everything: for embedders that cannot ask the user.
#[derive(Debug, Default, Clone, Copy)]
pub struct DeclineElicitor;

impl Elicitor for DeclineElicitor {
    fn elicit(&self, request: ElicitationRequest) -> BoxFuture<'static, ElicitationAnswer> {
        tracing::warn!(
            server = %request.server,
            message = %request.message,
            "the MCP server asked the user for input, but this client has no way to ask; declined"
        );
        Box::pin(std::future::ready(ElicitationAnswer::Decline))
    }
}

/// The default elicitor of a session.
pub(crate) fn default_elicitor() -> Arc<dyn Elicitor> {
    Arc::new(DeclineElicitor)
}

/// `content` with every property the user left out set to the schema's `default`, where
/// the schema has one. Values the user gave are kept as they are.
pub fn apply_defaults(schema: &Value, mut content: Map<String, Value>) -> Map<String, Value> {
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            if let Some(default) = property.get("default") {
                content
                    .entry(name.clone())
                    .or_insert_with(|| default.clone());
            }
        }
    }
    content
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_only_what_the_user_left_out() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "verified": {"type": "boolean", "default": true},
                "note": {"type": "string"}
            }
        });
        let given = json!({"age": 41}).as_object().cloned().unwrap();
        let filled = apply_defaults(&schema, given);
        assert_eq!(
            Value::Object(filled),
            json!({"name": "John Doe", "age": 41, "verified": true})
        );
    }

    #[tokio::test]
    async fn the_default_elicitor_declines() {
        let answer = DeclineElicitor
            .elicit(ElicitationRequest {
                server: "s".into(),
                message: "your name?".into(),
                requested_schema: json!({"type": "object", "properties": {}}),
            })
            .await;
        assert_eq!(answer, ElicitationAnswer::Decline);
    }
}
