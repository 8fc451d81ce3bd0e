//! Validates a call's arguments against its tool's JSON schema before anything else
//! happens, so the model gets one precise message listing every problem instead of the
//! first serde error, and tools never see arguments their schema forbids.

use jsonschema::Validator;

use crate::ToolError;

/// A compiled schema. Compiled once per tool per session.
pub struct ArgsValidator {
    validator: Option<Validator>,
}

impl ArgsValidator {
    /// A schema that does not compile (a buggy MCP server) validates nothing rather than
    /// blocking the tool: the tool's own parsing still guards it.
    pub fn new(tool: &str, schema: &serde_json::Value) -> Self {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Self {
                validator: Some(validator),
            },
            Err(error) => {
                tracing::warn!(tool, %error, "tool schema does not compile; arguments are not validated");
                Self { validator: None }
            }
        }
    }

    pub fn validate(&self, tool: &str, args: &serde_json::Value) -> Result<(), ToolError> {
        let Some(validator) = &self.validator else {
            return Ok(());
        };
        let problems: Vec<String> = validator
            .iter_errors(args)
            .take(10)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() {
                    e.to_string()
                } else {
                    format!("{at}: {e}")
                }
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ToolError::invalid_input(format!(
                "the arguments for {tool} do not match its schema: {}",
                problems.join("; ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_every_problem_with_its_location() {
        let schema = json!({
            "type": "object",
            "properties": {"file_path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
            "required": ["file_path"],
            "additionalProperties": false
        });
        let v = ArgsValidator::new("read_file", &schema);
        assert!(v.validate("read_file", &json!({"file_path": "a"})).is_ok());
        let err = v
            .validate("read_file", &json!({"limit": 0, "extra": true}))
            .unwrap_err();
        assert_eq!(err.kind, memo_protocol::ToolErrorKind::InvalidInput);
        assert!(err.message.contains("file_path"), "{}", err.message);
        assert!(err.message.contains("/limit"), "{}", err.message);
        assert!(err.message.contains("extra"), "{}", err.message);
    }

    #[test]
    fn a_broken_schema_does_not_block_calls() {
        let v = ArgsValidator::new("x", &json!({"type": 12}));
        assert!(v.validate("x", &json!({})).is_ok());
    }
}
