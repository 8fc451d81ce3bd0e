//! What of each tool's definition the model is sent. Every definition travels with every
//! request; a local model on a CPU reads it again each time (about 70 tokens a second on
//! two cores), so the standard profile leaves out arguments few calls need, and the
//! compact profile (models with a small context window) also shortens descriptions and
//! drops argument descriptions that only repeat the argument's name. Neither profile
//! sends the schema's bounds (`additionalProperties`, `minimum`, `minLength`…): they cost
//! about a tenth of the tool tokens, models rarely heed them, and validation still checks
//! every call against the full schema, with an error that names the fix.

use memo_model::ToolSpec;
use serde_json::Value;

use crate::Tool;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolProfile {
    #[default]
    Standard,
    Compact,
}

impl ToolProfile {
    /// The compact profile for context windows up to 16K tokens.
    pub fn for_context_window(tokens: u64) -> Self {
        if tokens > 0 && tokens <= 16_384 {
            ToolProfile::Compact
        } else {
            ToolProfile::Standard
        }
    }
}

pub(crate) fn advertised(tool: &dyn Tool, profile: ToolProfile) -> ToolSpec {
    let mut schema = tool.input_schema();
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for name in tool.advanced_params() {
            props.remove(*name);
        }
    }
    strip_bounds(&mut schema);
    let description = match profile {
        ToolProfile::Standard => tool.description().to_owned(),
        ToolProfile::Compact => {
            if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
                for name in tool.compact_hidden_params() {
                    props.remove(*name);
                }
            }
            strip_descriptions(&mut schema, 0);
            tool.brief()
                .map(str::to_owned)
                .unwrap_or_else(|| first_sentence(tool.description()))
        }
    };
    ToolSpec {
        name: tool.name().to_owned(),
        description,
        input_schema: schema,
    }
}

/// Keywords that only bound a number, a string or a list. Validation enforces them; the
/// model is not told.
const BOUNDS: [&str; 6] = [
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

fn strip_bounds(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for key in BOUNDS {
                if map.get(key).is_some_and(Value::is_number) {
                    map.remove(key);
                }
            }
            // `false` only forbids extras; an object here describes a map's values.
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                map.remove("additionalProperties");
            }
            for (key, value) in map.iter_mut() {
                if key == "properties" {
                    // Its keys are argument names (one may be called `maximum`).
                    if let Some(props) = value.as_object_mut() {
                        props.values_mut().for_each(strip_bounds);
                    }
                } else {
                    strip_bounds(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_bounds),
        _ => {}
    }
}

/// Removes argument descriptions below the top level, except where the argument is an
/// object or a choice (its description is what says when to use it).
fn strip_descriptions(schema: &mut Value, depth: usize) {
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for prop in props.values_mut() {
        let keep = prop.get("enum").is_some() || prop.get("type") == Some(&Value::from("object"));
        if let Some(obj) = prop.as_object_mut() {
            if !keep || depth > 0 {
                obj.remove("description");
            }
        }
        strip_descriptions(prop, depth + 1);
        if let Some(items) = prop.get_mut("items") {
            strip_descriptions(items, depth + 1);
        }
    }
}

/// Up to the end of the first sentence of the first line.
fn first_sentence(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let end = line
        .match_indices(". ")
        .map(|(i, _)| i + 1)
        .next()
        .unwrap_or(line.len());
    line[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoxFuture, RiskLevel, ToolContext, ToolResult};
    use serde_json::json;

    struct Sample;

    impl Tool for Sample {
        fn name(&self) -> &str {
            "sample"
        }
        fn description(&self) -> &str {
            "Does the thing. In great detail.\nMore."
        }
        fn input_schema(&self) -> Value {
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "Where."},
                "mode": {"type": "string", "enum": ["a", "b"], "description": "Which way."},
                "rare": {"type": "boolean", "description": "Almost never."},
                "maximum": {"type": "integer", "minimum": 1, "maximum": 9},
                "env": {"type": "object", "additionalProperties": {"type": "string"}},
                "edits": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "additionalProperties": false,
                    "properties": {"text": {"type": "string", "minLength": 1}}
                }}
            }, "additionalProperties": false})
        }
        fn advanced_params(&self) -> &'static [&'static str] {
            &["rare"]
        }
        fn risk(&self) -> RiskLevel {
            RiskLevel::Read
        }
        fn run(&self, _: ToolContext, _: Value) -> BoxFuture<'static, ToolResult> {
            Box::pin(async { Err(crate::ToolError::failed("unused")) })
        }
    }

    #[test]
    fn standard_hides_advanced_arguments_and_compact_also_shortens() {
        let standard = advertised(&Sample, ToolProfile::Standard);
        assert_eq!(
            standard.description,
            "Does the thing. In great detail.\nMore."
        );
        assert!(standard.input_schema["properties"].get("rare").is_none());
        assert_eq!(
            standard.input_schema["properties"]["path"]["description"],
            "Where."
        );
        let compact = advertised(&Sample, ToolProfile::Compact);
        assert_eq!(compact.description, "Does the thing.");
        assert!(compact.input_schema["properties"]["path"]
            .get("description")
            .is_none());
        assert_eq!(
            compact.input_schema["properties"]["mode"]["description"],
            "Which way."
        );
        assert_eq!(ToolProfile::for_context_window(8192), ToolProfile::Compact);
    }

    #[test]
    fn bounds_are_validated_but_not_sent() {
        for profile in [ToolProfile::Standard, ToolProfile::Compact] {
            let schema = advertised(&Sample, profile).input_schema;
            assert!(schema.get("additionalProperties").is_none());
            let props = &schema["properties"];
            assert_eq!(
                props["maximum"],
                json!({"type": "integer"}),
                "an argument named like a keyword stays"
            );
            assert_eq!(
                props["env"]["additionalProperties"],
                json!({"type": "string"}),
                "a map's value schema stays"
            );
            assert_eq!(
                props["edits"],
                json!({"type": "array", "items": {"type": "object", "properties": {"text": {"type": "string"}}}})
            );
        }
        assert_eq!(
            Sample.input_schema()["properties"]["maximum"]["maximum"],
            9,
            "the full schema keeps them"
        );
        assert_eq!(
            ToolProfile::for_context_window(128_000),
            ToolProfile::Standard
        );
        assert_eq!(ToolProfile::for_context_window(0), ToolProfile::Standard);
    }
}
