//! Memo Code's compatibility shell tools, chosen with `MEMO_SHELL_TOOL_TYPE`:
//! `shell_command` (a command string) and `shell` (an argv array). Neither has a
//! `write_stdin` companion, so unlike `exec_command` they wait for the command to finish
//! (up to `timeout_ms`, default two minutes) and kill it past that. Both run through
//! exec_command's machinery: same guard, path policy, sandbox, fingerprints and output.

use futures::future::BoxFuture;
use memo_protocol::{RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::exec::command::ExecCommandTool;
use crate::exec::sandbox::SandboxPolicy;
use crate::{parse_args, Tool, ToolContext, ToolError, ToolPreview, ToolResult};

const DEFAULT_TIMEOUT_MS: u64 = 120_000;
const MAX_TIMEOUT_MS: u64 = 600_000;
/// The wait outlasts the timeout a little, so a killed command is reported as timed out
/// rather than as still running.
const WAIT_SLACK_MS: u64 = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellForm {
    /// `shell_command`: `command` is a string run by the shell.
    String,
    /// `shell`: `command` is an argv array, quoted into a command line.
    Argv,
}

pub struct ShellCompatTool {
    form: ShellForm,
    inner: ExecCommandTool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Command {
    Line(String),
    Argv(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    command: Command,
    #[serde(default)]
    workdir: Option<String>,
    #[serde(default)]
    login: Option<bool>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    sandbox_permissions: Option<String>,
    #[serde(default)]
    justification: Option<String>,
    #[serde(default)]
    prefix_rule: Option<Vec<String>>,
}

impl ShellCompatTool {
    pub fn new(form: ShellForm, sandbox: SandboxPolicy) -> Self {
        let label = match form {
            ShellForm::String => "shell_command",
            ShellForm::Argv => "shell",
        };
        Self {
            form,
            inner: ExecCommandTool::labelled(sandbox, label),
        }
    }

    /// The equivalent exec_command arguments.
    fn translate(&self, args: &Value) -> Result<Value, ToolError> {
        let input: Input = parse_args(self.name(), args.clone())?;
        let cmd = match (self.form, input.command) {
            (ShellForm::String, Command::Line(line)) => line,
            (ShellForm::Argv, Command::Argv(argv)) if !argv.is_empty() => shell_words::join(argv),
            (ShellForm::String, _) => {
                return Err(ToolError::invalid_input("command must be a string"))
            }
            (ShellForm::Argv, _) => {
                return Err(ToolError::invalid_input(
                    "command must be a non-empty array of strings (argv)",
                ))
            }
        };
        let timeout = input
            .timeout_ms
            .unwrap_or(DEFAULT_TIMEOUT_MS)
            .clamp(1, MAX_TIMEOUT_MS);
        let mut out = Map::new();
        out.insert("cmd".into(), json!(cmd));
        out.insert("yield_time_ms".into(), json!(timeout + WAIT_SLACK_MS));
        out.insert("timeout_ms".into(), json!(timeout));
        // No login profile unless asked: it would print its noise into every output, and
        // the argv form must run exactly what it names.
        let login = input.login.unwrap_or(false);
        out.insert("login".into(), json!(login));
        if let Some(w) = input.workdir {
            out.insert("workdir".into(), json!(w));
        }
        if let Some(p) = input.sandbox_permissions {
            out.insert("sandbox_permissions".into(), json!(p));
        }
        if let Some(j) = input.justification {
            out.insert("justification".into(), json!(j));
        }
        if let Some(r) = input.prefix_rule {
            out.insert("prefix_rule".into(), json!(r));
        }
        Ok(Value::Object(out))
    }
}

impl Tool for ShellCompatTool {
    /// The sessions belong to the wrapped exec tool: stop their process groups too.
    fn shutdown(&self) {
        self.inner.shutdown();
    }

    fn name(&self) -> &str {
        match self.form {
            ShellForm::String => "shell_command",
            ShellForm::Argv => "shell",
        }
    }

    fn description(&self) -> &str {
        match self.form {
            ShellForm::String => {
                "Runs a shell command string and returns its output and exit code once it \
                 finishes (killed after `timeout_ms`, default 120000, at most 600000). Use `workdir` instead \
                 of `cd`. Writes outside the workspace need `sandbox_permissions: \
                 \"require_escalated\"` with a `justification`."
            }
            ShellForm::Argv => {
                "Runs a command given as an argv array (no shell parsing of the arguments) \
                 and returns its output and exit code once it finishes (killed after \
                 `timeout_ms`, default 120000)."
            }
        }
    }

    fn input_schema(&self) -> Value {
        let command = match self.form {
            ShellForm::String => {
                json!({"type": "string", "minLength": 1, "description": "Command line."})
            }
            ShellForm::Argv => {
                json!({"type": "array", "minItems": 1, "items": {"type": "string"}, "description": "argv, e.g. [\"ls\", \"-la\"]."})
            }
        };
        json!({
            "type": "object",
            "properties": {
                "command": command,
                "workdir": {"type": "string", "description": "Working directory (default: the session's)."},
                "login": {"type": "boolean", "description": "Run as a login shell that reads the user's profile (default false)."},
                "timeout_ms": {"type": "integer", "minimum": 1, "description": "Kill the command after this long (default 120000)."},
                "sandbox_permissions": {"type": "string", "enum": ["use_default", "require_escalated"]},
                "justification": {"type": "string", "description": "Why the command needs to run outside the sandbox."},
                "prefix_rule": {"type": "array", "items": {"type": "string"}, "description": "Accepted for compatibility; ignored."}
            },
            "required": ["command"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Execute
    }

    fn is_mutating(&self) -> bool {
        true
    }

    fn parallel_safe(&self) -> bool {
        true
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        match self.translate(args) {
            Ok(exec_args) => self.inner.preview(ctx, &exec_args),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }

    fn view(&self, ctx: &ToolContext, args: &Value) -> ToolView {
        match self.translate(args) {
            Ok(exec_args) => self.inner.view(ctx, &exec_args),
            Err(_) => ToolView::other(self.name(), args),
        }
    }

    fn run(&self, ctx: ToolContext, args: Value) -> BoxFuture<'static, ToolResult> {
        match self.translate(&args) {
            Ok(exec_args) => self.inner.run(ctx, exec_args),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ToolErrorKind;

    #[tokio::test]
    async fn string_and_argv_forms_run_to_completion() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let sc = ShellCompatTool::new(ShellForm::String, SandboxPolicy::Off);
        let out = sc
            .run(
                ctx.clone(),
                json!({"command": "sleep 0.3; echo done", "login": false}),
            )
            .await
            .unwrap()
            .content;
        assert!(out.contains("Process exited with code 0"), "{out}");
        assert!(out.contains("done"), "{out}");
        let sh = ShellCompatTool::new(ShellForm::Argv, SandboxPolicy::Off);
        let out = sh
            .run(
                ctx.clone(),
                json!({"command": ["printf", "%s|", "a b", "$HOME"]}),
            )
            .await
            .unwrap()
            .content;
        assert!(out.contains("a b|$HOME|"), "{out}");
        let p = sh
            .preview(&ctx, &json!({"command": ["cargo", "test", "-q"]}))
            .await
            .unwrap();
        assert_eq!(p.fingerprint, "exec:cargo test");
    }

    #[tokio::test]
    async fn bad_input_timeouts_and_guard() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let sc = ShellCompatTool::new(ShellForm::String, SandboxPolicy::Off);
        let sh = ShellCompatTool::new(ShellForm::Argv, SandboxPolicy::Off);
        for (tool, args) in [
            (&sc, json!({"command": ["ls"]})),
            (&sh, json!({"command": "ls"})),
            (&sh, json!({"command": []})),
            (&sc, json!({"cmd": "ls"})),
        ] {
            let err = tool.run(ctx.clone(), args.clone()).await.unwrap_err();
            assert_eq!(
                err.kind,
                ToolErrorKind::InvalidInput,
                "{args}: {}",
                err.message
            );
        }
        let err = sc
            .run(
                ctx.clone(),
                json!({"command": "sleep 30", "timeout_ms": 300, "login": false}),
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::Timeout);
        let err = sh
            .preview(&ctx, &json!({"command": ["rm", "-rf", "/"]}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
        assert!(err.message.contains("tool=\"shell\""), "{}", err.message);
    }
}
