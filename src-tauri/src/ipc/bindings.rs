//! Renders `ui/src/gen/ipc.ts` from [`super::specs`]: one typed function per command,
//! bound to the UI's single `invoke` wrapper. A test compares the committed file with a
//! fresh rendering, so a command changed in Rust without regenerating fails CI.

use std::collections::BTreeSet;

use ts_rs::TS;

use super::{specs, CommandSpec};
use crate::error::IpcError;

/// TypeScript names that are not protocol types.
const BUILTIN_TYPES: &[&str] = &["Array", "Record", "Promise", "Channel"];

pub fn typescript() -> String {
    let cfg = ts_rs::Config::new().with_large_int("number");
    let specs = specs();
    let error_decl = IpcError::decl(&cfg);

    let mut referenced = BTreeSet::new();
    for spec in &specs {
        let types = spec
            .args
            .iter()
            .map(|(_, ty)| ty)
            .chain(spec.channel.iter().map(|(_, ty)| ty))
            .chain(std::iter::once(&spec.result))
            .chain(std::iter::once(&error_decl));
        for ty in types {
            referenced.extend(type_names(ty));
        }
    }
    referenced.remove("IpcErrorPayload");

    let mut out = String::new();
    out.push_str(
        "// Generated from src-tauri/src/ipc/mod.rs; regenerate with\n\
         // `MEMO_UPDATE_BINDINGS=1 cargo test -p memo-desktop bindings`.\n\
         // Do not edit by hand: memo-desktop's tests fail when this file is stale.\n\n",
    );
    if specs.iter().any(|s| s.channel.is_some()) {
        out.push_str("import type { Channel } from \"@tauri-apps/api/core\";\n");
    }
    let names: Vec<&str> = referenced.iter().map(String::as_str).collect();
    out.push_str(&format!(
        "import type {{ {} }} from \"./protocol\";\n\n",
        names.join(", ")
    ));
    out.push_str("/** What every IPC call rejects with. */\n");
    out.push_str(&format!("export {}\n\n", error_decl.trim()));

    out.push_str("export const CALL_NAMES = [\n");
    for spec in &specs {
        out.push_str(&format!("  \"{}\",\n", spec.name));
    }
    out.push_str("] as const;\n\nexport type CallName = (typeof CALL_NAMES)[number];\n\n");
    out.push_str(
        "/** Makes one IPC call by name with its arguments (ui/src/ipc/invoke.ts). */\n\
         export type Invoke = <T>(call: CallName, args: Record<string, unknown>) => Promise<T>;\n\n",
    );

    out.push_str("export interface IpcCalls {\n");
    for spec in &specs {
        out.push_str(&doc_comment(spec.doc, "  "));
        out.push_str(&format!(
            "  {}({}): Promise<{}>;\n",
            camel(spec.name),
            params(spec),
            result(&spec.result)
        ));
    }
    out.push_str("}\n\n");

    out.push_str("export function bindCalls(invoke: Invoke): IpcCalls {\n  return {\n");
    for spec in &specs {
        let has_args = !spec.args.is_empty() || spec.channel.is_some();
        let (param, value) = if has_args {
            ("args", "args")
        } else {
            ("", "{}")
        };
        out.push_str(&format!(
            "    {}: ({param}) => invoke(\"{}\", {value}),\n",
            camel(spec.name),
            spec.name
        ));
    }
    out.push_str("  };\n}\n");
    out
}

/// `(args: { sessionId: SessionId; cwd?: string | null })`, or nothing.
fn params(spec: &CommandSpec) -> String {
    let mut fields: Vec<String> = spec
        .args
        .iter()
        .map(|(name, ty)| match ty.strip_suffix(" | null") {
            // Tauri reads a missing key as `None`, so optional arguments may be left out.
            Some(_) => format!("{}?: {ty}", camel(name)),
            None => format!("{}: {ty}", camel(name)),
        })
        .collect();
    if let Some((name, ty)) = &spec.channel {
        fields.push(format!("{}: Channel<{ty}>", camel(name)));
    }
    if fields.is_empty() {
        String::new()
    } else {
        format!("args: {{ {} }}", fields.join("; "))
    }
}

/// `()` crosses IPC as `null`; callers of such a command only wait for it.
fn result(ty: &str) -> String {
    match ty {
        "null" => "void".to_owned(),
        other => other.to_owned(),
    }
}

fn doc_comment(doc: &str, indent: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        out.push_str(&format!("{indent} * {line}\n"));
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

/// Tauri's default argument casing: `session_id` is sent as `sessionId`.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Capitalised identifiers in a TypeScript type: the protocol types it refers to.
fn type_names(ty: &str) -> Vec<String> {
    // Doc comments (ts-rs keeps them) are words, not types.
    let mut code = String::with_capacity(ty.len());
    let mut rest = ty;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    code.push_str(rest);
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with(|c: char| c.is_ascii_uppercase()))
        .filter(|word| !BUILTIN_TYPES.contains(word))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_file_is_up_to_date() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(super::super::BINDINGS_PATH);
        let fresh = typescript();
        if std::env::var_os("MEMO_UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} is stale: run `MEMO_UPDATE_BINDINGS=1 cargo test -p memo-desktop bindings`",
            path.display()
        );
    }

    #[test]
    fn arguments_use_tauris_casing_and_optional_ones_may_be_left_out() {
        assert_eq!(camel("session_id"), "sessionId");
        assert_eq!(camel("after_seq"), "afterSeq");
        let spec = CommandSpec {
            name: "x",
            doc: "",
            args: vec![
                ("session_id", "SessionId".into()),
                ("cwd", "string | null".into()),
            ],
            channel: Some(("on_events", "Array<EventEnvelope>".into())),
            result: "null".into(),
        };
        assert_eq!(
            params(&spec),
            "args: { sessionId: SessionId; cwd?: string | null; onEvents: Channel<Array<EventEnvelope>> }"
        );
        assert_eq!(result(&spec.result), "void");
        assert_eq!(type_names("Array<EventEnvelope> | null"), ["EventEnvelope"]);
    }

    #[test]
    fn the_window_may_call_exactly_the_declared_commands() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src-tauri/capabilities/default.json");
        let capability: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut granted: Vec<String> = capability["permissions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str()?.strip_prefix("allow-").map(str::to_owned))
            .collect();
        let mut declared: Vec<String> = specs().iter().map(|s| s.name.replace('_', "-")).collect();
        granted.sort();
        declared.sort();
        assert_eq!(granted, declared, "src-tauri/capabilities/default.json");
    }

    #[test]
    fn every_command_is_registered_once_and_documented() {
        let specs = specs();
        let mut names: Vec<_> = specs.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), specs.len());
        for spec in &specs {
            assert!(
                !spec.doc.trim().is_empty(),
                "{} has no doc comment",
                spec.name
            );
        }
    }
}
