//! Which of the exec, web, plan and memory tools a session gets, decided by Memo Code's
//! environment switches: `MEMO_SHELL_TOOL_TYPE` and `MEMO_ENABLE_MEMORY_TOOL`, plus
//! `MEMO_SANDBOX` for the exec sandbox.

use std::sync::Arc;

use crate::exec::command::exec_tools;
use crate::exec::sandbox::SandboxPolicy;
use crate::exec::shell_compat::{ShellCompatTool, ShellForm};
use crate::get_memory::{memory_tool_enabled, GetMemoryTool};
use crate::save_memory::SaveMemoryTool;
use crate::update_plan::UpdatePlanTool;
use crate::webfetch::WebFetchTool;
use crate::ToolRegistry;

pub const SHELL_TOOL_TYPE_ENV: &str = "MEMO_SHELL_TOOL_TYPE";

/// Memo Code's shell tool modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShellToolType {
    /// `exec_command` + `write_stdin` (Memo's default).
    #[default]
    UnifiedExec,
    /// Memo's argv-form `shell` compatibility tool.
    Shell,
    /// Memo's string-form `shell_command` compatibility tool.
    ShellCommand,
    /// No command execution at all.
    Disabled,
}

impl ShellToolType {
    /// Memo treats an unknown value like the default.
    pub fn parse(value: &str) -> Self {
        match value.trim() {
            "shell" => Self::Shell,
            "shell_command" => Self::ShellCommand,
            "disabled" => Self::Disabled,
            _ => Self::UnifiedExec,
        }
    }

    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Self {
        env(SHELL_TOOL_TYPE_ENV)
            .map(|v| Self::parse(&v))
            .unwrap_or_default()
    }
}

/// Registers the tools this module owns, configured from the process environment.
pub fn register(registry: &mut ToolRegistry) {
    register_with_env(registry, |name| std::env::var(name).ok());
}

pub fn register_with_env(registry: &mut ToolRegistry, env: impl Fn(&str) -> Option<String>) {
    let sandbox = SandboxPolicy::from_env(&env);
    match ShellToolType::from_env(&env) {
        ShellToolType::UnifiedExec => {
            let (exec, stdin) = exec_tools(sandbox);
            registry.register(Arc::new(exec));
            registry.register(Arc::new(stdin));
        }
        ShellToolType::Shell => {
            registry.register(Arc::new(ShellCompatTool::new(ShellForm::Argv, sandbox)));
        }
        ShellToolType::ShellCommand => {
            registry.register(Arc::new(ShellCompatTool::new(ShellForm::String, sandbox)));
        }
        ShellToolType::Disabled => {}
    }
    registry.register(Arc::new(WebFetchTool::default()));
    registry.register(Arc::new(UpdatePlanTool));
    if memory_tool_enabled(&env) {
        registry.register(Arc::new(GetMemoryTool));
        registry.register(Arc::new(SaveMemoryTool));
    }
}

/// Every built-in tool of any configuration (each shell form, memory on), sandbox off:
/// for reading what a stored call of any of them was, never for running one.
pub fn every_builtin() -> ToolRegistry {
    let mut registry = ToolRegistry::builtin();
    // Nothing set: the memory tools are on.
    register_with_env(&mut registry, |_| None);
    let (exec, stdin) = exec_tools(SandboxPolicy::Off);
    registry.register(Arc::new(exec));
    registry.register(Arc::new(stdin));
    for form in [ShellForm::Argv, ShellForm::String] {
        registry.register(Arc::new(ShellCompatTool::new(form, SandboxPolicy::Off)));
    }
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(vars: &[(&str, &str)]) -> Vec<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut registry = ToolRegistry::new();
        register_with_env(&mut registry, |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        });
        registry.names()
    }

    #[test]
    fn env_switches_choose_the_tools() {
        let all = names(&[]);
        for tool in [
            "exec_command",
            "write_stdin",
            "webfetch",
            "update_plan",
            "get_memory",
        ] {
            assert!(
                all.contains(&tool.to_owned()),
                "{tool} missing from {all:?}"
            );
        }
        let none = names(&[
            ("MEMO_SHELL_TOOL_TYPE", "disabled"),
            ("MEMO_ENABLE_MEMORY_TOOL", "0"),
        ]);
        assert!(!none
            .iter()
            .any(|n| n == "exec_command" || n == "get_memory"));
        assert!(names(&[("MEMO_SHELL_TOOL_TYPE", "whatever")]).contains(&"exec_command".to_owned()));
        let shell = names(&[("MEMO_SHELL_TOOL_TYPE", "shell")]);
        assert!(shell.contains(&"shell".to_owned()) && !shell.contains(&"exec_command".to_owned()));
        let string = names(&[("MEMO_SHELL_TOOL_TYPE", "shell_command")]);
        assert!(
            string.contains(&"shell_command".to_owned())
                && !string.contains(&"write_stdin".to_owned())
        );
        assert_eq!(
            ShellToolType::parse("shell_command"),
            ShellToolType::ShellCommand
        );
    }

    #[test]
    fn schemas_compile_and_accept_what_the_tools_accept() {
        let mut registry = ToolRegistry::new();
        register_with_env(&mut registry, |_| None);
        registry.register(Arc::new(ShellCompatTool::new(
            ShellForm::String,
            SandboxPolicy::Off,
        )));
        registry.register(Arc::new(ShellCompatTool::new(
            ShellForm::Argv,
            SandboxPolicy::Off,
        )));
        let valid = |name: &str, args: serde_json::Value| {
            let spec = registry.get(name).unwrap().input_schema();
            let v = jsonschema::validator_for(&spec).unwrap_or_else(|e| panic!("{name}: {e}"));
            v.is_valid(&args)
        };
        use serde_json::json;
        assert!(valid(
            "exec_command",
            json!({"cmd": "ls", "yield_time_ms": 0, "sandbox_permissions": "require_escalated", "justification": "x", "prefix_rule": ["ls"]})
        ));
        assert!(!valid("exec_command", json!({"cmd": ""})));
        assert!(!valid("exec_command", json!({"command": "ls"})));
        assert!(valid("write_stdin", json!({"session_id": 1, "chars": ""})));
        assert!(!valid("write_stdin", json!({"session_id": 0})));
        assert!(valid(
            "webfetch",
            json!({"url": "https://x", "max_chars": 100, "page": 2})
        ));
        assert!(!valid(
            "webfetch",
            json!({"url": "https://x", "max_chars": 1000000})
        ));
        assert!(valid(
            "update_plan",
            json!({"plan": [{"step": "a", "status": "pending"}]})
        ));
        assert!(!valid(
            "update_plan",
            json!({"plan": [{"step": "a", "status": "done"}]})
        ));
        assert!(valid("get_memory", json!({})));
        assert!(valid(
            "shell_command",
            json!({"command": "ls", "timeout_ms": 5})
        ));
        assert!(valid("shell", json!({"command": ["ls"]})));
        assert!(!valid("shell", json!({"command": "ls"})));
    }
}
