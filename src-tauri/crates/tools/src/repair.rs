//! Repairs the predictable mistakes small models make in tool-call arguments, before
//! they are validated: JSON or numbers sent as strings, an argument put inside an options
//! object (or outside it), the options of a mode sent without the mode, unknown extras,
//! `./` in front of relative paths. It works from the tool's JSON schema alone, and only
//! where the intent is unambiguous; anything else is left as sent, so the call fails with
//! the validator's message telling the model the fix.
//!
//! Every repair is described in a short sentence: the engine shows them to the user and
//! tells the model in the call's result, so nothing is changed silently.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

/// The arguments after repair, and one sentence per change (empty when nothing changed).
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    pub args: Value,
    pub repairs: Vec<String>,
}

/// How deep `$ref` chains are followed; a cycle must not hang a tool call.
const MAX_REF_HOPS: usize = 16;
/// How deep the schema is walked for declared names; tool schemas are shallow.
const MAX_SCHEMA_DEPTH: usize = 8;

/// Repairs `args` against `schema`. `is_valid` is the compiled schema's check: unknown
/// arguments are only dropped when what remains is valid, so a call with other problems
/// keeps them and its error lists everything the model has to fix.
pub fn repair_args(schema: &Value, args: &Value, is_valid: impl Fn(&Value) -> bool) -> Repaired {
    let mut out = args.clone();
    let mut repairs = Vec::new();
    let top = resolve(schema, schema);
    if let Value::Object(map) = &mut out {
        coerce_object(schema, top, map, "", &mut repairs);
        for key in move_misplaced(schema, top, map, &mut repairs) {
            // A moved value was never checked against the schema of its new place.
            if let (Some(sub), Some(value)) =
                (property_schema(schema, top, &key), map.get_mut(&key))
            {
                coerce(schema, sub, value, &key, &mut repairs);
            }
        }
        infer_mode(schema, top, map, &mut repairs);
        drop_empty(schema, top, map, &mut repairs);
        drop_zero(schema, top, map, &mut repairs);
    }
    let mut trimmed = out.clone();
    let mut dropped = Vec::new();
    let declared = declared_names(schema, top, 0);
    drop_unknown(schema, top, &mut trimmed, "", &declared, &mut dropped);
    if !dropped.is_empty() && is_valid(&trimmed) {
        out = trimmed;
        repairs.extend(
            dropped
                .into_iter()
                .map(|path| format!("dropped the unknown argument {path}")),
        );
    }
    Repaired { args: out, repairs }
}

/// The one line appended to a repaired call's result, so the model learns what it should
/// send next time.
pub fn repair_note(repairs: &[String]) -> String {
    format!("(Memo repaired the arguments: {}.)", repairs.join("; "))
}

/// Follows local `$ref`s (`#/$defs/...`), which MCP servers' schemas use.
pub(crate) fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let mut schema = schema;
    for _ in 0..MAX_REF_HOPS {
        let Some(pointer) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
        else {
            break;
        };
        match root.pointer(pointer) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The JSON types a schema allows; empty when it does not say.
pub(crate) fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The (resolved) schema of property `key` of an object schema.
pub(crate) fn property_schema<'a>(
    root: &'a Value,
    schema: &'a Value,
    key: &str,
) -> Option<&'a Value> {
    resolve(root, schema)
        .get("properties")
        .and_then(|p| p.get(key))
        .map(|s| resolve(root, s))
}

/// The property names of an object schema.
pub(crate) fn property_names<'a>(root: &'a Value, schema: &'a Value) -> Vec<&'a str> {
    resolve(root, schema)
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Whether a schema describes an object with fixed properties (an options object).
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    types(schema).contains(&"object") || schema.get("properties").is_some()
}

/// Whether an object schema refuses properties it does not list.
pub(crate) fn is_closed(schema: &Value) -> bool {
    schema.get("additionalProperties") == Some(&Value::Bool(false))
        && schema.get("patternProperties").is_none()
}

/// `indentation.anchor_line`, `edits[0].file_path`: how a place in the arguments is named
/// in repairs and messages.
pub(crate) fn child_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn coerce_object(
    root: &Value,
    schema: &Value,
    map: &mut Map<String, Value>,
    path: &str,
    repairs: &mut Vec<String>,
) {
    for (key, value) in map.iter_mut() {
        if let Some(sub) = property_schema(root, schema, key) {
            coerce(root, sub, value, &child_path(path, key), repairs);
        }
    }
}

/// Rules 1, 2 and 6: JSON and scalars sent as strings, `./` in front of paths; then the
/// same inside objects and arrays.
fn coerce(root: &Value, schema: &Value, value: &mut Value, path: &str, repairs: &mut Vec<String>) {
    let schema = resolve(root, schema);
    let wanted = types(schema);
    if let Value::String(text) = value {
        if let Some((parsed, repair)) = from_string(text, &wanted, path) {
            *value = parsed;
            repairs.push(repair);
        } else if wanted.contains(&"string") && is_path_name(path) {
            if let Some(plain) = strip_dot_slash(text) {
                repairs.push(format!("changed {path} from \"{text}\" to \"{plain}\""));
                *text = plain.to_owned();
            }
        }
    }
    match value {
        Value::Object(map) => coerce_object(root, schema, map, path, repairs),
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for (i, item) in items.iter_mut().enumerate() {
                    coerce(root, item_schema, item, &format!("{path}[{i}]"), repairs);
                }
            }
        }
        _ => {}
    }
}

/// A string that exactly spells a value of a wanted non-string type. Nothing when the
/// schema also accepts a string: then the string may well be meant.
fn from_string(text: &str, wanted: &[&str], path: &str) -> Option<(Value, String)> {
    if wanted.is_empty() || wanted.contains(&"string") {
        return None;
    }
    let trimmed = text.trim();
    for kind in wanted {
        let parsed = match *kind {
            "object" if trimmed.starts_with('{') => {
                serde_json::from_str(trimmed).ok().filter(Value::is_object)
            }
            "array" if trimmed.starts_with('[') => {
                serde_json::from_str(trimmed).ok().filter(Value::is_array)
            }
            _ => None,
        };
        if let Some(parsed) = parsed {
            return Some((
                parsed,
                format!("parsed {path}, a JSON {kind} sent as a string"),
            ));
        }
        // Only the exact JSON spelling: no spaces, no "+5", "050", "1.0" for an integer,
        // "yes" or "True" for a boolean.
        let scalar = match *kind {
            "integer" if text == trimmed => serde_json::from_str::<Value>(text)
                .ok()
                .filter(|v| v.is_i64() || v.is_u64()),
            "number" if text == trimmed => serde_json::from_str::<Value>(text)
                .ok()
                .filter(Value::is_number),
            "boolean" => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        };
        if let Some(scalar) = scalar {
            let repair = format!("converted {path} from the string \"{text}\" to {scalar}");
            return Some((scalar, repair));
        }
    }
    None
}

/// `path`, `file_path`, `dir_path`, `filePath`: arguments that hold a file system path
/// (not `xpath`, whose `./` means something).
fn is_path_name(path: &str) -> bool {
    let name = path.rsplit(['.', ']']).next().unwrap_or(path);
    name == "path" || name.ends_with("_path") || name.ends_with("Path")
}

/// `./src/a.rs` → `src/a.rs`. Nothing when dropping the `./` could change what the path
/// names: nothing left (`./`), an absolute path left (`.//etc`), a home (`./~`) or a
/// drive (`./C:`) that a tool might expand.
fn strip_dot_slash(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(r) = rest.strip_prefix("./") {
        rest = r;
    }
    let changes_meaning = rest.is_empty()
        || rest.starts_with(['/', '\\', '~'])
        || rest.as_bytes().get(1) == Some(&b':');
    (rest.len() != text.len() && !changes_meaning).then_some(rest)
}

/// Rule 4 both ways: a top-level argument found inside an options object is moved up;
/// an options field sent at the top level is moved into its object. Only when exactly
/// one place fits and nothing different is already there. Returns the keys moved up.
fn move_misplaced(
    root: &Value,
    top: &Value,
    map: &mut Map<String, Value>,
    repairs: &mut Vec<String>,
) -> Vec<String> {
    let top_names: BTreeSet<&str> = property_names(root, top).into_iter().collect();
    if top_names.is_empty() {
        return Vec::new();
    }
    // Options objects whose schema refuses what it does not list: a key there that it
    // does not list is certainly misplaced.
    let owners: Vec<(String, &Value)> = top_names
        .iter()
        .filter_map(|name| {
            property_schema(root, top, name)
                .filter(|s| is_object_schema(s) && is_closed(s))
                .map(|s| ((*name).to_owned(), s))
        })
        .collect();

    // Up: key -> the options objects it was found in.
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (owner, owner_schema) in &owners {
        let Some(Value::Object(inner)) = map.get(owner) else {
            continue;
        };
        let inner_names = property_names(root, owner_schema);
        for key in inner.keys() {
            if top_names.contains(key.as_str())
                && key != owner
                && !inner_names.contains(&key.as_str())
            {
                found.entry(key.clone()).or_default().push(owner.clone());
            }
        }
    }
    let mut moved_up = Vec::new();
    for (key, places) in found {
        let [owner] = places.as_slice() else {
            continue;
        };
        let Some(value) = map.get(owner).and_then(|inner| inner.get(&key)).cloned() else {
            continue;
        };
        match map.get(&key) {
            None => {
                if let Some(Value::Object(inner)) = map.get_mut(owner) {
                    inner.remove(&key);
                }
                map.insert(key.clone(), value);
                repairs.push(format!("moved {key} out of {owner} to the top level"));
                moved_up.push(key);
            }
            Some(existing) if *existing == value => {
                if let Some(Value::Object(inner)) = map.get_mut(owner) {
                    inner.remove(&key);
                }
                repairs.push(format!(
                    "removed {key} from {owner}, the top level already sets it"
                ));
            }
            // Two different values: which one is meant cannot be told.
            Some(_) => {}
        }
    }

    // Down: a key the top level does not know, declared by exactly one options object.
    // An open top level may mean such a key where it is.
    if !is_closed(top) {
        return moved_up;
    }
    let stray: Vec<String> = map
        .keys()
        .filter(|k| !top_names.contains(k.as_str()))
        .cloned()
        .collect();
    for key in stray {
        let homes: Vec<&String> = owners
            .iter()
            .filter(|(_, s)| property_names(root, s).contains(&key.as_str()))
            .map(|(owner, _)| owner)
            .collect();
        let [owner] = homes.as_slice() else {
            continue;
        };
        let owner = (*owner).clone();
        let Some(value) = map.get(&key).cloned() else {
            continue;
        };
        let target = map
            .entry(owner.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(inner) = target else {
            continue;
        };
        if inner.get(&key).is_some_and(|v| *v != value) {
            continue;
        }
        inner.insert(key.clone(), value);
        if let (Some(sub), Some(placed)) = (property_schema(root, top, &owner), inner.get_mut(&key))
        {
            let field = property_schema(root, sub, &key).unwrap_or(sub);
            coerce(root, field, placed, &child_path(&owner, &key), repairs);
        }
        map.remove(&key);
        repairs.push(format!("moved {key} into {owner}"));
    }
    moved_up
}

/// Rule 5: options of a mode sent without the mode. The schema's `mode` enum has a value
/// named like an options object that was sent (read_file: `indentation` options, `mode:
/// "indentation"`); exactly one such value sets the mode. A mode that was sent is never
/// changed: options of another mode sent beside it are dropped instead (a small model
/// sends `mode: "slice"` with `indentation` options filled with defaults; the mode it
/// names is the one call that can run).
fn infer_mode(root: &Value, top: &Value, map: &mut Map<String, Value>, repairs: &mut Vec<String>) {
    let Some(options) = property_schema(root, top, "mode")
        .and_then(|s| s.get("enum"))
        .and_then(Value::as_array)
    else {
        return;
    };
    if let Some(chosen) = map.get("mode").and_then(Value::as_str).map(str::to_owned) {
        let others: Vec<String> = options
            .iter()
            .filter_map(Value::as_str)
            .filter(|value| *value != chosen)
            .filter(|value| {
                // Options that name their own mode contradict the mode sent: ambiguous.
                map.get(*value)
                    .and_then(Value::as_object)
                    .is_some_and(|options| !options.contains_key("mode"))
                    && property_schema(root, top, value).is_some_and(is_object_schema)
            })
            .map(str::to_owned)
            .collect();
        for other in others {
            map.remove(&other);
            repairs.push(format!(
                "ignored the {other} options: mode is \"{chosen}\" (send mode \"{other}\" to use them)"
            ));
        }
        return;
    }
    let given: Vec<&str> = options
        .iter()
        .filter_map(Value::as_str)
        .filter(|value| {
            map.get(*value).is_some_and(Value::is_object)
                && property_schema(root, top, value).is_some_and(is_object_schema)
        })
        .collect();
    if let [only] = given.as_slice() {
        let only = (*only).to_owned();
        repairs.push(format!(
            "set mode to \"{only}\", which the {only} options need"
        ));
        map.insert("mode".to_owned(), Value::String(only));
    }
}

/// Rule 7: an optional argument sent as "" where the schema wants a non-empty string
/// (apply_patch's `input` beside `edits`): the model meant "not given".
fn drop_empty(root: &Value, top: &Value, map: &mut Map<String, Value>, repairs: &mut Vec<String>) {
    let required: Vec<&str> = top
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let empty: Vec<String> = map
        .iter()
        .filter(|(key, value)| {
            value.as_str() == Some("")
                && !required.contains(&key.as_str())
                && property_schema(root, top, key)
                    .and_then(|s| s.get("minLength"))
                    .and_then(Value::as_u64)
                    .is_some_and(|n| n >= 1)
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in empty {
        map.remove(&key);
        repairs.push(format!("dropped the empty argument {key}"));
    }
}

/// Rule 8: an optional number sent as 0 where the schema's minimum is 1 (read_file's
/// `offset: 0`, `limit: 0`, list_dir's `depth: 0`): the model meant "from the start" or
/// "no particular amount", which is what leaving it out gives. The bound is not in the
/// definitions the model sees, so it cannot know.
fn drop_zero(root: &Value, top: &Value, map: &mut Map<String, Value>, repairs: &mut Vec<String>) {
    let required: Vec<&str> = top
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let zero: Vec<String> = map
        .iter()
        .filter(|(key, value)| {
            value.as_f64() == Some(0.0)
                && !required.contains(&key.as_str())
                && property_schema(root, top, key)
                    .and_then(|s| s.get("minimum"))
                    .and_then(Value::as_f64)
                    == Some(1.0)
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in zero {
        map.remove(&key);
        repairs.push(format!(
            "dropped {key}: 0 (it starts at 1; left out, it takes its default)"
        ));
    }
}

/// Every property name the schema declares anywhere: a key known somewhere is misplaced
/// rather than unknown, and is never dropped.
fn declared_names(root: &Value, schema: &Value, depth: usize) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if depth > MAX_SCHEMA_DEPTH {
        return out;
    }
    let schema = resolve(root, schema);
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            out.insert(name.clone());
            out.extend(declared_names(root, sub, depth + 1));
        }
    }
    if let Some(items) = schema.get("items").filter(|s| s.is_object()) {
        out.extend(declared_names(root, items, depth + 1));
    }
    out
}

/// Rule 3: removes keys a closed object schema does not list and that the schema does
/// not declare anywhere else; records their paths.
fn drop_unknown(
    root: &Value,
    schema: &Value,
    value: &mut Value,
    path: &str,
    declared: &BTreeSet<String>,
    dropped: &mut Vec<String>,
) {
    let schema = resolve(root, schema);
    match value {
        Value::Object(map) => {
            if is_closed(schema) {
                let known = property_names(root, schema);
                let unknown: Vec<String> = map
                    .keys()
                    .filter(|k| !known.contains(&k.as_str()) && !declared.contains(k.as_str()))
                    .cloned()
                    .collect();
                for key in unknown {
                    map.remove(&key);
                    dropped.push(child_path(path, &key));
                }
            }
            for (key, inner) in map.iter_mut() {
                if let Some(sub) = property_schema(root, schema, key) {
                    drop_unknown(root, sub, inner, &child_path(path, key), declared, dropped);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for (i, item) in items.iter_mut().enumerate() {
                    let at = format!("{path}[{i}]");
                    drop_unknown(root, item_schema, item, &at, declared, dropped);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_optional_zero_below_a_minimum_of_one_means_the_default() {
        use crate::Tool;
        let schema = crate::ReadFileTool.input_schema();
        let sent = serde_json::json!({"file_path": "src/main.rs", "offset": 0, "limit": 20});
        let repaired = repair_args(&schema, &sent, |_| true);
        assert_eq!(
            repaired.args,
            serde_json::json!({"file_path": "src/main.rs", "limit": 20})
        );
        assert_eq!(
            repaired.repairs,
            ["dropped offset: 0 (it starts at 1; left out, it takes its default)"]
        );
        // A required number is the model's to fix (write_stdin's session_id), and so is
        // a zero where zero is allowed (exec_command's yield_time_ms).
        let stdin = serde_json::json!({"type": "object", "required": ["session_id"], "properties": {
            "session_id": {"type": "integer", "minimum": 1},
            "chars": {"type": "string"},
            "yield_time_ms": {"type": "integer", "minimum": 0}}});
        let sent = serde_json::json!({"session_id": 0, "chars": ""});
        assert!(repair_args(&stdin, &sent, |_| true).repairs.is_empty());
        let sent = serde_json::json!({"session_id": 3, "yield_time_ms": 0});
        assert!(repair_args(&stdin, &sent, |_| true).repairs.is_empty());
    }

    #[test]
    fn an_empty_optional_argument_that_must_not_be_empty_is_dropped() {
        use crate::Tool;
        let schema = crate::ApplyPatchTool::new().input_schema();
        let sent = serde_json::json!({"file_path": "calc.py", "input": "",
            "edits": [{"old_string": "a - b", "new_string": "a + b"}]});
        let repaired = repair_args(&schema, &sent, |_| true);
        assert!(repaired.args.get("input").is_none(), "{:?}", repaired.args);
        assert_eq!(repaired.repairs, ["dropped the empty argument input"]);
        // An empty old_string means "create the file": it stays.
        let create =
            serde_json::json!({"file_path": "new.txt", "old_string": "", "new_string": "x"});
        assert!(repair_args(&schema, &create, |_| true).repairs.is_empty());
    }

    #[test]
    fn options_of_another_mode_beside_an_explicit_mode_are_dropped() {
        use crate::Tool;
        let schema = crate::ReadFileTool.input_schema();
        let sent = serde_json::json!({"file_path": "src/main.rs", "mode": "slice", "limit": 2000,
            "indentation": {"anchor_line": 1, "include_siblings": true, "max_levels": 0}});
        let repaired = repair_args(&schema, &sent, |_| true);
        assert_eq!(
            repaired.args,
            serde_json::json!({"file_path": "src/main.rs", "mode": "slice", "limit": 2000})
        );
        assert_eq!(repaired.repairs.len(), 1);
        assert!(
            repaired.repairs[0].contains("ignored the indentation options"),
            "{:?}",
            repaired.repairs
        );
    }

    use super::*;
    use serde_json::json;

    /// read_file's real schema: the rules are checked against what the model is sent.
    fn read_file_schema() -> Value {
        use crate::Tool;
        crate::ReadFileTool.input_schema()
    }

    fn edit_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "edits": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/edit"}
                },
                "dry_run": {"type": "boolean"}
            },
            "required": ["edits"],
            "additionalProperties": false,
            "$defs": {
                "edit": {
                    "type": "object",
                    "properties": {
                        "file_path": {"type": "string"},
                        "old_string": {"type": "string"},
                        "new_string": {"type": "string"},
                        "replace_all": {"type": "boolean"}
                    },
                    "required": ["file_path", "old_string", "new_string"],
                    "additionalProperties": false
                }
            }
        })
    }

    fn validator(schema: &Value) -> impl Fn(&Value) -> bool {
        let compiled = jsonschema::validator_for(schema).unwrap();
        move |v: &Value| compiled.is_valid(v)
    }

    fn repair(schema: &Value, args: Value) -> Repaired {
        repair_args(schema, &args, validator(schema))
    }

    fn untouched(schema: &Value, args: Value) {
        let out = repair(schema, args.clone());
        assert_eq!(out.args, args, "{:?}", out.repairs);
        assert!(out.repairs.is_empty(), "{:?}", out.repairs);
    }

    #[test]
    fn valid_arguments_are_left_alone() {
        untouched(
            &read_file_schema(),
            json!({"file_path": "src/a.rs", "limit": 50}),
        );
        untouched(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "indentation", "indentation": {"anchor_line": 3}}),
        );
    }

    #[test]
    fn json_sent_as_a_string_is_parsed_and_repaired_inside() {
        let schema = edit_schema();
        let edits = r#" [{"file_path": "./a.rs", "old_string": "x", "new_string": "y", "replace_all": "true"}] "#;
        let out = repair(&schema, json!({"edits": edits}));
        assert_eq!(
            out.args,
            json!({"edits": [{"file_path": "a.rs", "old_string": "x", "new_string": "y", "replace_all": true}]})
        );
        assert_eq!(
            out.repairs,
            vec![
                "parsed edits, a JSON array sent as a string",
                "changed edits[0].file_path from \"./a.rs\" to \"a.rs\"",
                "converted edits[0].replace_all from the string \"true\" to true",
            ]
        );
    }

    #[test]
    fn an_options_object_sent_as_a_string_is_parsed() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "indentation", "indentation": "{\"anchor_line\": 5}"}),
        );
        assert_eq!(out.args["indentation"], json!({"anchor_line": 5}));
        assert_eq!(
            out.repairs,
            vec!["parsed indentation, a JSON object sent as a string"]
        );
    }

    #[test]
    fn strings_that_are_not_the_wanted_json_stay() {
        let schema = edit_schema();
        // Not JSON, and JSON of the wrong kind.
        untouched(&schema, json!({"edits": "[not json"}));
        untouched(&schema, json!({"edits": "{\"file_path\": \"a\"}"}));
        // A schema that accepts a string keeps the string.
        let text = json!({
            "type": "object",
            "properties": {"content": {"type": "string"}, "n": {"type": ["integer", "string"]}}
        });
        untouched(&text, json!({"content": "[1, 2]", "n": "5"}));
    }

    #[test]
    fn exact_numbers_and_booleans_in_strings_are_converted() {
        let schema = json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer"},
                "ratio": {"type": "number"},
                "all": {"type": "boolean"},
                "maybe": {"type": ["integer", "null"]}
            }
        });
        let out = repair(
            &schema,
            json!({"limit": "50", "ratio": "-0.5", "all": "false", "maybe": "7"}),
        );
        assert_eq!(
            out.args,
            json!({"limit": 50, "ratio": -0.5, "all": false, "maybe": 7})
        );
        assert_eq!(out.repairs.len(), 4, "{:?}", out.repairs);
        assert!(out
            .repairs
            .contains(&"converted limit from the string \"50\" to 50".to_owned()));
    }

    #[test]
    fn inexact_numbers_and_booleans_stay() {
        let schema = json!({
            "type": "object",
            "properties": {"limit": {"type": "integer"}, "all": {"type": "boolean"}}
        });
        for limit in ["fifty", " 50", "+50", "050", "50.0", "1e2", "", "50 lines"] {
            untouched(&schema, json!({ "limit": limit }));
        }
        for all in ["True", "yes", "1", " true"] {
            untouched(&schema, json!({ "all": all }));
        }
    }

    #[test]
    fn an_unknown_extra_is_dropped_when_the_rest_is_valid() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "limit": 10, "encoding": "utf-8", "indentation": {"anchor_line": 2, "verbose": true}, "mode": "indentation"}),
        );
        assert_eq!(
            out.args,
            json!({"file_path": "a", "limit": 10, "mode": "indentation", "indentation": {"anchor_line": 2}})
        );
        assert_eq!(
            out.repairs,
            vec![
                "dropped the unknown argument encoding",
                "dropped the unknown argument indentation.verbose",
            ]
        );
    }

    #[test]
    fn unknown_extras_stay_when_something_else_is_wrong() {
        // The model must fix `limit` anyway; it learns about `encoding` in the same message.
        untouched(
            &read_file_schema(),
            json!({"file_path": "a", "limit": "fifty", "encoding": "utf-8"}),
        );
        // An open schema accepts extras: nothing to drop.
        let open = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        untouched(&open, json!({"a": "x", "b": 1}));
    }

    #[test]
    fn mode_sent_inside_the_options_is_moved_up() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "indentation": {"mode": "indentation", "anchor_line": 5}}),
        );
        assert_eq!(
            out.args,
            json!({"file_path": "a", "mode": "indentation", "indentation": {"anchor_line": 5}})
        );
        assert_eq!(
            out.repairs,
            vec!["moved mode out of indentation to the top level"]
        );
    }

    #[test]
    fn a_moved_up_value_is_converted_for_its_new_place() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "indentation", "indentation": {"limit": "20"}}),
        );
        assert_eq!(out.args["limit"], json!(20));
        assert_eq!(out.args["indentation"], json!({}));
    }

    #[test]
    fn a_duplicate_inside_the_options_is_removed_and_a_conflict_stays() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "indentation", "indentation": {"mode": "indentation"}}),
        );
        assert_eq!(out.args["indentation"], json!({}));
        assert_eq!(
            out.repairs,
            vec!["removed mode from indentation, the top level already sets it"]
        );
        untouched(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "slice", "indentation": {"mode": "indentation"}}),
        );
    }

    #[test]
    fn an_options_field_sent_at_the_top_level_is_moved_in() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "anchor_line": "12", "max_levels": 2}),
        );
        assert_eq!(
            out.args,
            json!({"file_path": "a", "mode": "indentation", "indentation": {"anchor_line": 12, "max_levels": 2}})
        );
        assert!(out
            .repairs
            .contains(&"moved anchor_line into indentation".to_owned()));
        assert!(out.repairs.contains(
            &"converted indentation.anchor_line from the string \"12\" to 12".to_owned()
        ));
        assert!(out.repairs.contains(
            &"set mode to \"indentation\", which the indentation options need".to_owned()
        ));
    }

    #[test]
    fn a_field_two_options_objects_declare_is_not_guessed() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false},
                "b": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false}
            },
            "additionalProperties": false
        });
        untouched(&schema, json!({"n": 1}));
    }

    #[test]
    fn the_mode_of_given_options_is_set() {
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "indentation": {"anchor_line": 5}}),
        );
        assert_eq!(out.args["mode"], json!("indentation"));
        assert_eq!(
            out.repairs,
            vec!["set mode to \"indentation\", which the indentation options need"]
        );
    }

    #[test]
    fn a_mode_that_was_sent_or_cannot_be_told_is_left() {
        // The mode sent wins; the other mode's options go (reported), so the call runs.
        let out = repair(
            &read_file_schema(),
            json!({"file_path": "a", "mode": "slice", "indentation": {"anchor_line": 5}}),
        );
        assert_eq!(out.args, json!({"file_path": "a", "mode": "slice"}));
        assert_eq!(out.repairs.len(), 1, "{:?}", out.repairs);
        let two = json!({
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast", "full"]},
                "fast": {"type": "object"},
                "full": {"type": "object"}
            }
        });
        untouched(&two, json!({"fast": {}, "full": {}}));
        // Options that are not an object do not name a mode.
        untouched(&two, json!({"fast": true}));
    }

    #[test]
    fn dot_slash_is_dropped_from_paths_only_when_the_meaning_stays() {
        let schema = json!({
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "path": {"type": "string"},
                "xpath": {"type": "string"},
                "pattern": {"type": "string"}
            }
        });
        let out = repair(
            &schema,
            json!({"file_path": "././src/a.rs", "path": "./../b"}),
        );
        assert_eq!(out.args, json!({"file_path": "src/a.rs", "path": "../b"}));
        for path in [
            "./",
            ".",
            ".//etc/passwd",
            "./~/x",
            "./C:/x",
            "src/./a",
            ".hidden",
        ] {
            untouched(&schema, json!({ "file_path": path }));
        }
        untouched(&schema, json!({"xpath": "./a", "pattern": "./*.rs"}));
    }

    #[test]
    fn read_files_own_schema_gets_its_mode_and_its_place() {
        use crate::Tool;
        let schema = crate::ReadFileTool.input_schema();
        let out = repair(
            &schema,
            json!({"file_path": "./a.rs", "indentation": {"anchor_line": "5"}}),
        );
        assert_eq!(
            out.args,
            json!({"file_path": "a.rs", "mode": "indentation", "indentation": {"anchor_line": 5}})
        );
        let out = repair(
            &schema,
            json!({"file_path": "a.rs", "indentation": {"mode": "indentation"}}),
        );
        assert_eq!(out.args["mode"], json!("indentation"));
        assert_eq!(out.args["indentation"], json!({}));
    }

    #[test]
    fn the_note_for_the_model_is_one_line() {
        let note = repair_note(&[
            "set mode to \"indentation\", which the indentation options need".into(),
        ]);
        assert_eq!(
            note,
            "(Memo repaired the arguments: set mode to \"indentation\", which the indentation options need.)"
        );
    }

    #[test]
    fn a_ref_cycle_does_not_hang() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/x"}},
            "$defs": {"x": {"$ref": "#/$defs/x"}}
        });
        let args = json!({"a": "1"});
        let out = repair_args(&schema, &args, |_| true);
        assert_eq!(out.args, args);
    }
}
