//! Memo's tool names and argument names beside Claude Code's.
//!
//! Hook settings written for Claude Code say `"matcher": "Bash"` and their scripts read
//! `.tool_input.command`; Memo's shell tool is `exec_command` and takes `cmd`. Without a
//! translation such a hook would silently never fire, which for a guard hook means the
//! guard is off. So a matcher is tested against Memo's name and against every Claude Code
//! name the tool stands for, hooks are sent the Claude Code name (and Memo's as
//! `memo_tool_name`), and the few arguments that are named differently are sent under
//! both names. An `updatedInput` coming back is turned into Memo's shape again.

use serde_json::Value;

/// Claude Code's names for one Memo tool: the one sent as `tool_name`, then every name a
/// matcher may use for it.
struct ClaudeNames {
    sent: &'static str,
    matched: &'static [&'static str],
}

/// Built-in tools. `apply_patch` edits, creates and multi-edits files, so a hook on any
/// of Claude Code's file-writing tools should see it; `write_file` only writes whole
/// files, like `Write`.
fn builtin(memo: &str) -> Option<ClaudeNames> {
    let (sent, matched): (&'static str, &'static [&'static str]) = match memo {
        "exec_command" | "shell" | "shell_command" => ("Bash", &["Bash"]),
        "apply_patch" => ("Edit", &["Edit", "MultiEdit", "Write"]),
        "edit_file" => ("Edit", &["Edit", "MultiEdit"]),
        "write_file" => ("Write", &["Write"]),
        "read_file" => ("Read", &["Read"]),
        "grep_files" => ("Grep", &["Grep"]),
        "glob" => ("Glob", &["Glob"]),
        "list_dir" => ("LS", &["LS", "Glob"]),
        "webfetch" => ("WebFetch", &["WebFetch"]),
        "update_plan" => ("TodoWrite", &["TodoWrite"]),
        "list_mcp_resources" => ("ListMcpResourcesTool", &["ListMcpResourcesTool"]),
        "read_mcp_resource" => ("ReadMcpResourceTool", &["ReadMcpResourceTool"]),
        _ => return None,
    };
    Some(ClaudeNames { sent, matched })
}

/// Memo's built-in tools that have a Claude Code counterpart (the keys of [`builtin`]).
const MEMO_TOOLS_WITH_CLAUDE_NAMES: &[&str] = &[
    "exec_command",
    "shell",
    "shell_command",
    "apply_patch",
    "edit_file",
    "write_file",
    "read_file",
    "grep_files",
    "glob",
    "list_dir",
    "webfetch",
    "update_plan",
    "list_mcp_resources",
    "read_mcp_resource",
];

/// The Memo tools a Claude Code tool name stands for (`Bash` → the shell tools, `Write` →
/// `apply_patch` and `write_file`): what a Claude Code agent's `tools: Read, Bash` list
/// allows. Empty for a name Claude Code does not have.
pub fn memo_tools_for(claude: &str) -> Vec<&'static str> {
    MEMO_TOOLS_WITH_CLAUDE_NAMES
        .iter()
        .copied()
        .filter(|memo| builtin(memo).is_some_and(|names| names.matched.contains(&claude)))
        .collect()
}

/// The Claude Code name sent as `tool_name` for a Memo tool: the built-in counterpart,
/// `mcp__server__tool` for Memo's MCP tools (`server__tool`), `None` when Claude Code has
/// no such tool (then Memo's name is sent).
pub fn claude_tool_name(memo: &str) -> Option<String> {
    if let Some(names) = builtin(memo) {
        return Some(names.sent.to_owned());
    }
    mcp_name(memo)
}

/// Memo names MCP tools `server__tool` (server names never contain `__`, built-in tools
/// never do); Claude Code names the same tool `mcp__server__tool`.
fn mcp_name(memo: &str) -> Option<String> {
    if memo.starts_with("mcp__") {
        Some(memo.to_owned())
    } else if memo.contains("__") {
        Some(format!("mcp__{memo}"))
    } else {
        None
    }
}

/// Every name a matcher is tested against for this tool: Memo's first, then Claude
/// Code's.
pub(crate) fn names_for_matching(memo: &str) -> Vec<String> {
    let mut names = vec![memo.to_owned()];
    if let Some(claude) = builtin(memo) {
        names.extend(claude.matched.iter().map(|n| (*n).to_owned()));
    } else if let Some(mcp) = mcp_name(memo) {
        if mcp != memo {
            names.push(mcp);
        }
    }
    names
}

/// Arguments Memo names differently from Claude Code: (Memo's, Claude Code's).
fn renamed_fields(memo: &str) -> &'static [(&'static str, &'static str)] {
    match memo {
        "exec_command" => &[("cmd", "command")],
        "list_dir" => &[("dir_path", "path")],
        _ => &[],
    }
}

/// The `tool_input` sent to hooks: Memo's arguments, plus each renamed one under Claude
/// Code's name too (`cmd` also as `command`), so scripts written for Claude Code find it.
pub fn hook_tool_input(memo: &str, input: &Value) -> Value {
    let mut sent = input.clone();
    if let Value::Object(map) = &mut sent {
        for (memo_field, claude_field) in renamed_fields(memo) {
            if map.contains_key(*claude_field) {
                continue;
            }
            if let Some(value) = map.get(*memo_field).cloned() {
                map.insert((*claude_field).to_owned(), value);
            }
        }
    }
    sent
}

/// A hook's `updatedInput` in Memo's shape. The hook saw [`hook_tool_input`] of
/// `original`; a renamed argument it changed under Claude Code's name (`command`) is
/// moved to Memo's (`cmd`), and the Claude Code names Memo added are removed again. The
/// result still has to pass the tool's own validation: a hook's output is not trusted.
pub fn memo_tool_input(memo: &str, original: &Value, updated: Value) -> Value {
    let sent = hook_tool_input(memo, original);
    let Value::Object(mut map) = updated else {
        return updated;
    };
    for (memo_field, claude_field) in renamed_fields(memo) {
        let Some(claude_value) = map.get(*claude_field).cloned() else {
            continue;
        };
        let changed = sent.get(*claude_field) != Some(&claude_value);
        if changed || !map.contains_key(*memo_field) {
            map.insert((*memo_field).to_owned(), claude_value);
        }
        let memo_has_it = original.get(*claude_field).is_some();
        if !memo_has_it {
            map.remove(*claude_field);
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_names_map_back_to_memo_tools() {
        assert_eq!(memo_tools_for("Read"), vec!["read_file"]);
        assert_eq!(memo_tools_for("Write"), vec!["apply_patch", "write_file"]);
        assert_eq!(
            memo_tools_for("Bash"),
            vec!["exec_command", "shell", "shell_command"]
        );
        assert_eq!(memo_tools_for("Glob"), vec!["glob", "list_dir"]);
        assert!(memo_tools_for("Teleport").is_empty());
    }

    #[test]
    fn builtin_and_mcp_names() {
        assert_eq!(claude_tool_name("exec_command").as_deref(), Some("Bash"));
        assert_eq!(claude_tool_name("write_file").as_deref(), Some("Write"));
        assert_eq!(
            claude_tool_name("github__create_issue").as_deref(),
            Some("mcp__github__create_issue")
        );
        assert_eq!(
            claude_tool_name("mcp__memory__read").as_deref(),
            Some("mcp__memory__read")
        );
        assert_eq!(claude_tool_name("write_stdin"), None);
        assert_eq!(
            names_for_matching("apply_patch"),
            ["apply_patch", "Edit", "MultiEdit", "Write"]
        );
        assert_eq!(
            names_for_matching("fs__read"),
            ["fs__read", "mcp__fs__read"]
        );
        assert_eq!(names_for_matching("write_stdin"), ["write_stdin"]);
    }

    #[test]
    fn a_changed_command_goes_back_to_cmd() {
        let original = json!({"cmd": "rm -rf build", "workdir": "/p"});
        let sent = hook_tool_input("exec_command", &original);
        assert_eq!(sent["command"], "rm -rf build");

        // Changed under Claude Code's name: moved to Memo's.
        let updated =
            json!({"command": "rm -rf build/tmp", "cmd": "rm -rf build", "workdir": "/p"});
        assert_eq!(
            memo_tool_input("exec_command", &original, updated),
            json!({"cmd": "rm -rf build/tmp", "workdir": "/p"})
        );
        // Only `command` given, as a Claude Code script would.
        let updated = json!({"command": "ls"});
        assert_eq!(
            memo_tool_input("exec_command", &original, updated),
            json!({"cmd": "ls"})
        );
        // Changed under Memo's name, the alias echoed unchanged: Memo's wins.
        let updated = json!({"command": "rm -rf build", "cmd": "ls"});
        assert_eq!(
            memo_tool_input("exec_command", &original, updated),
            json!({"cmd": "ls"})
        );
        // Tools with no renamed arguments pass through.
        let updated = json!({"file_path": "a", "content": "b"});
        assert_eq!(
            memo_tool_input("write_file", &json!({}), updated.clone()),
            updated
        );
    }
}
