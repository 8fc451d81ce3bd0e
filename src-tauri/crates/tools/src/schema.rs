//! Validates a call's arguments against its tool's JSON schema before anything else
//! happens, so the model gets one precise message listing every problem instead of the
//! first serde error, and tools never see arguments their schema forbids. Each problem is
//! one line that names the argument and says the fix, in words a small model can follow
//! ("`limit` must be an integer like 50, not \"fifty\"").

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::{Map, Value};

use crate::repair::{
    child_path, is_object_schema, property_names, property_schema, repair_args, resolve, Repaired,
};
use crate::ToolError;

/// How many problems one message lists; a call that wrong needs rewriting anyway.
const MAX_PROBLEMS: usize = 10;
/// Values quoted in messages are cut to this many characters.
const SHOWN_CHARS: usize = 40;

/// A compiled schema. Compiled once per tool per session.
pub struct ArgsValidator {
    validator: Option<Validator>,
    schema: Value,
}

impl ArgsValidator {
    /// A schema that does not compile (a buggy MCP server) validates nothing rather than
    /// blocking the tool: the tool's own parsing still guards it.
    pub fn new(tool: &str, schema: &Value) -> Self {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Self {
                validator: Some(validator),
                schema: schema.clone(),
            },
            Err(error) => {
                tracing::warn!(tool, %error, "tool schema does not compile; arguments are not validated");
                Self {
                    validator: None,
                    schema: schema.clone(),
                }
            }
        }
    }

    /// Fixes the common small-model mistakes the schema makes unambiguous (see
    /// [`crate::repair`]). Nothing is repaired against a schema that does not compile.
    pub fn repair(&self, args: &Value) -> Repaired {
        match &self.validator {
            Some(validator) => repair_args(&self.schema, args, |v| validator.is_valid(v)),
            None => Repaired {
                args: args.clone(),
                repairs: Vec::new(),
            },
        }
    }

    pub fn validate(&self, tool: &str, args: &Value) -> Result<(), ToolError> {
        let Some(validator) = &self.validator else {
            return Ok(());
        };
        let mut problems: Vec<String> = Vec::new();
        for error in validator.iter_errors(args) {
            for problem in describe(tool, &self.schema, args, &error) {
                if !problems.contains(&problem) {
                    problems.push(problem);
                }
            }
            if problems.len() >= MAX_PROBLEMS {
                break;
            }
        }
        problems.truncate(MAX_PROBLEMS);
        match problems.as_slice() {
            [] => Ok(()),
            [one] => Err(ToolError::invalid_input(format!(
                "the arguments for {tool} do not match its schema: {one}"
            ))),
            many => Err(ToolError::invalid_input(format!(
                "the arguments for {tool} do not match its schema:\n- {}",
                many.join("\n- ")
            ))),
        }
    }
}

/// Where an error is, as property names and array indices.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

fn steps(error: &ValidationError<'_>) -> Vec<Step> {
    error
        .instance_path()
        .segments()
        .map(|segment| match segment {
            LocationSegment::Property(name) => Step::Key(name.into_owned()),
            LocationSegment::Index(i) => Step::Index(i),
        })
        .collect()
}

/// `indentation.anchor_line`, `edits[0].file_path`.
fn path_name(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(key) => out = child_path(&out, key),
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The schema of the value at `steps`, following properties and array items.
fn schema_at<'a>(root: &'a Value, steps: &[Step]) -> Option<&'a Value> {
    let mut schema = resolve(root, root);
    for step in steps {
        schema = match step {
            Step::Key(key) => property_schema(root, schema, key)?,
            Step::Index(_) => resolve(root, schema.get("items")?),
        };
    }
    Some(schema)
}

/// One line per problem of one validation error (an error listing several unexpected
/// properties makes several lines).
fn describe(tool: &str, root: &Value, args: &Value, error: &ValidationError<'_>) -> Vec<String> {
    let at = steps(error);
    let name = path_name(&at);
    let value: &Value = error.instance();
    let one = |line: String| vec![line];
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let property = property.as_str().unwrap_or_default();
            one(missing(root, args, &at, property))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
            .iter()
            .map(|key| unexpected_key(tool, root, args, &at, key))
            .collect(),
        ValidationErrorKind::Type { kind } => {
            let wanted: Vec<JsonType> = match kind {
                TypeKind::Single(t) => vec![*t],
                TypeKind::Multiple(set) => set.iter().collect(),
            };
            let wanted: Vec<&str> = wanted.into_iter().map(type_example).collect();
            one(format!(
                "`{}` must be {}, not {}",
                shown_name(&name),
                wanted.join(" or "),
                shown(value)
            ))
        }
        ValidationErrorKind::Enum { options } => {
            let options: Vec<String> = options
                .as_array()
                .map(|o| o.iter().map(Value::to_string).collect())
                .unwrap_or_default();
            one(format!(
                "`{}` must be one of {}, not {}",
                shown_name(&name),
                options.join(", "),
                shown(value)
            ))
        }
        ValidationErrorKind::Minimum { limit } => one(bound(&name, "at least", limit, value)),
        ValidationErrorKind::Maximum { limit } => one(bound(&name, "at most", limit, value)),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            one(bound(&name, "greater than", limit, value))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            one(bound(&name, "less than", limit, value))
        }
        ValidationErrorKind::MinLength { limit } => one(format!(
            "`{}` must be at least {limit} characters long",
            shown_name(&name)
        )),
        ValidationErrorKind::MaxLength { limit } => one(format!(
            "`{}` must be at most {limit} characters long",
            shown_name(&name)
        )),
        ValidationErrorKind::MinItems { limit } => one(format!(
            "`{}` must have at least {limit} items",
            shown_name(&name)
        )),
        ValidationErrorKind::MaxItems { limit } => one(format!(
            "`{}` must have at most {limit} items",
            shown_name(&name)
        )),
        _ => {
            // The library's own words, kept to one line.
            let message = error.to_string().replace(['\n', '\r'], " ");
            one(if name.is_empty() {
                message
            } else {
                format!("`{name}`: {message}")
            })
        }
    }
}

/// The arguments as a whole have no name of their own.
fn shown_name(name: &str) -> &str {
    if name.is_empty() {
        "the arguments"
    } else {
        name
    }
}

/// What a value of a type looks like, for "must be …".
fn type_example(kind: JsonType) -> &'static str {
    match kind {
        JsonType::Integer => "an integer like 50",
        JsonType::Number => "a number like 0.5",
        JsonType::Boolean => "true or false",
        JsonType::String => "a string in quotes",
        JsonType::Array => "a JSON array [...]",
        JsonType::Object => "a JSON object {...}",
        JsonType::Null => "null",
    }
}

fn bound(name: &str, relation: &str, limit: &Value, value: &Value) -> String {
    format!(
        "`{}` must be {relation} {limit}, not {}",
        shown_name(name),
        shown(value)
    )
}

/// A value as JSON, cut short.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A required property that is missing: maybe sent inside one of the options objects.
fn missing(root: &Value, args: &Value, at: &[Step], property: &str) -> String {
    let name = path_name(&[at, &[Step::Key(property.to_owned())]].concat());
    if at.is_empty() {
        if let Some(map) = args.as_object() {
            let inside = map
                .iter()
                .find(|(_, v)| v.get(property).is_some())
                .map(|(k, _)| k.clone());
            if let Some(owner) = inside {
                return misplaced_up(map, &owner, property);
            }
        }
    }
    let kind = schema_at(root, &[at, &[Step::Key(property.to_owned())]].concat())
        .and_then(|s| crate::repair::types(s).first().map(|t| (*t).to_owned()));
    match kind {
        Some(kind) => format!("`{name}` is missing: it is required ({kind})"),
        None => format!("`{name}` is missing: it is required"),
    }
}

/// A property the schema does not allow where it was sent.
fn unexpected_key(tool: &str, root: &Value, args: &Value, at: &[Step], key: &str) -> String {
    let top_names = property_names(root, root);
    let Some(map) = args.as_object() else {
        return format!("`{key}` is not an argument of {tool}: remove it");
    };
    match at {
        // Inside a top-level options object, but it is a top-level argument.
        [Step::Key(owner)] if top_names.contains(&key) => misplaced_up(map, owner, key),
        [] => {
            // A field of an options object sent at the top level.
            let homes: Vec<&str> = top_names
                .iter()
                .copied()
                .filter(|owner| {
                    property_schema(root, root, owner).is_some_and(|s| {
                        is_object_schema(s) && property_names(root, s).contains(&key)
                    })
                })
                .collect();
            match homes.as_slice() {
                [owner] => misplaced_down(map, owner, key),
                [] => format!(
                    "`{key}` is not an argument of {tool}: remove it{} (arguments: {})",
                    did_you_mean(key, &top_names),
                    top_names.join(", ")
                ),
                many => format!(
                    "`{key}` is not a top-level argument of {tool}: it belongs inside one of {}",
                    many.iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
        _ => {
            let owner = path_name(at);
            let allowed = schema_at(root, at)
                .map(|s| property_names(root, s))
                .unwrap_or_default();
            format!(
                "`{key}` is not allowed in `{owner}`: remove it{} (allowed there: {})",
                did_you_mean(key, &allowed),
                allowed.join(", ")
            )
        }
    }
}

/// "`mode` is a top-level argument, not inside `indentation`: send {…}" with the
/// arguments as they should be.
fn misplaced_up(map: &Map<String, Value>, owner: &str, key: &str) -> String {
    let mut fixed = map.clone();
    if let Some(Value::Object(inner)) = fixed.get_mut(owner) {
        if let Some(value) = inner.remove(key) {
            fixed.insert(key.to_owned(), value);
        }
    }
    format!(
        "`{key}` is a top-level argument, not inside `{owner}`: send {}",
        sketch(&fixed)
    )
}

/// "`anchor_line` belongs inside `indentation`: send {…}".
fn misplaced_down(map: &Map<String, Value>, owner: &str, key: &str) -> String {
    let mut fixed = map.clone();
    if let Some(value) = fixed.remove(key) {
        let target = fixed
            .entry(owner.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(inner) = target {
            inner.insert(key.to_owned(), value);
        }
    }
    format!(
        "`{key}` is not a top-level argument, it belongs inside `{owner}`: send {}",
        sketch(&fixed)
    )
}

/// Arguments written out for a message: short values in full, long ones as `…`, so the
/// fix stays on one line.
fn sketch(map: &Map<String, Value>) -> String {
    let fields: Vec<String> = map
        .iter()
        .map(|(key, value)| {
            let text = value.to_string();
            let text = if text.chars().count() <= SHOWN_CHARS {
                text
            } else {
                match value {
                    Value::Object(_) => "{…}".to_owned(),
                    Value::Array(_) => "[…]".to_owned(),
                    Value::String(_) => "\"…\"".to_owned(),
                    _ => "…".to_owned(),
                }
            };
            format!("{}: {text}", Value::String(key.clone()))
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

/// " (did you mean `file_path`?)" for a near miss: same letters ignoring case and
/// separators, or one name ending the other (`path` for `file_path`).
fn did_you_mean(key: &str, names: &[&str]) -> String {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = plain(key);
    if wanted.is_empty() {
        return String::new();
    }
    let close: Vec<&&str> = names
        .iter()
        .filter(|name| {
            let candidate = plain(name);
            candidate == wanted || candidate.ends_with(&wanted) || wanted.ends_with(&candidate)
        })
        .collect();
    match close.as_slice() {
        [only] => format!(" (did you mean `{only}`?)"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_file() -> ArgsValidator {
        use crate::Tool;
        ArgsValidator::new("read_file", &crate::ReadFileTool.input_schema())
    }

    fn message(v: &ArgsValidator, args: Value) -> String {
        let err = v.validate("read_file", &args).unwrap_err();
        assert_eq!(err.kind, memo_protocol::ToolErrorKind::InvalidInput);
        err.message
    }

    #[test]
    fn reports_every_problem_one_line_each() {
        let v = read_file();
        assert!(v.validate("read_file", &json!({"file_path": "a"})).is_ok());
        let msg = message(&v, json!({"limit": 0, "extra": true}));
        let lines: Vec<&str> = msg.lines().collect();
        assert_eq!(
            lines[0], "the arguments for read_file do not match its schema:",
            "{msg}"
        );
        assert_eq!(lines.len(), 4, "{msg}");
        assert!(
            msg.contains("- `file_path` is missing: it is required (string)"),
            "{msg}"
        );
        assert!(msg.contains("- `limit` must be at least 1, not 0"), "{msg}");
        assert!(
            msg.contains("- `extra` is not an argument of read_file: remove it (arguments: file_path, indentation, limit, mode, offset)"),
            "{msg}"
        );
    }

    #[test]
    fn a_single_problem_is_a_single_line() {
        let msg = message(&read_file(), json!({"file_path": "a", "limit": "fifty"}));
        assert_eq!(
            msg,
            "the arguments for read_file do not match its schema: `limit` must be an integer like 50, not \"fifty\""
        );
    }

    #[test]
    fn a_top_level_argument_inside_options_gets_the_exact_fix() {
        let msg = message(
            &read_file(),
            json!({"file_path": "a.rs", "mode": "slice", "indentation": {"mode": "indentation", "anchor_line": 5}}),
        );
        assert_eq!(
            msg,
            "the arguments for read_file do not match its schema: `mode` is a top-level argument, not inside `indentation`: send {\"file_path\": \"a.rs\", \"indentation\": {\"anchor_line\":5}, \"mode\": \"indentation\"}"
        );
    }

    #[test]
    fn an_options_field_at_the_top_level_gets_the_exact_fix() {
        let msg = message(
            &read_file(),
            json!({"file_path": "a.rs", "anchor_line": "five"}),
        );
        assert!(
            msg.ends_with("`anchor_line` is not a top-level argument, it belongs inside `indentation`: send {\"file_path\": \"a.rs\", \"indentation\": {\"anchor_line\":\"five\"}}"),
            "{msg}"
        );
    }

    #[test]
    fn a_required_argument_sent_inside_options_is_named() {
        let msg = message(&read_file(), json!({"indentation": {"file_path": "a.rs"}}));
        assert!(
            msg.contains("`file_path` is a top-level argument, not inside `indentation`: send {\"file_path\": \"a.rs\", \"indentation\": {}}"),
            "{msg}"
        );
    }

    #[test]
    fn enums_types_and_nested_names_are_spelled_out() {
        let v = read_file();
        assert!(message(&v, json!({"file_path": "a", "mode": "indent"}))
            .ends_with("`mode` must be one of \"slice\", \"indentation\", not \"indent\""));
        assert!(message(
            &v,
            json!({"file_path": "a", "indentation": {"include_siblings": "yes"}})
        )
        .ends_with("`indentation.include_siblings` must be true or false, not \"yes\""));
        assert!(message(
            &v,
            json!({"file_path": "a", "indentation": {"anchor": 3}})
        )
        .ends_with("`anchor` is not allowed in `indentation`: remove it (allowed there: anchor_line, include_siblings, max_levels)"));
        assert!(message(&v, json!({"path": "a"})).contains(
            "`path` is not an argument of read_file: remove it (did you mean `file_path`?)"
        ));
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        let long = "x".repeat(200);
        let msg = message(&read_file(), json!({"file_path": "a", "limit": long}));
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains('…'), "{msg}");
    }

    #[test]
    fn repair_goes_through_the_compiled_schema() {
        let out = read_file().repair(&json!({"file_path": "a", "indentation": {"anchor_line": 5}}));
        assert_eq!(out.args["mode"], json!("indentation"));
        assert_eq!(out.repairs.len(), 1);
    }

    #[test]
    fn a_broken_schema_does_not_block_calls() {
        let v = ArgsValidator::new("x", &json!({"type": 12}));
        assert!(v.validate("x", &json!({})).is_ok());
        assert!(v.repair(&json!({"a": "1"})).repairs.is_empty());
    }
}
