//! The editor's terminals, for Memo's `exec_command`: when the client offers `terminal/*`,
//! a session's commands run in the editor's own terminal, which it shows on the tool
//! call. What decides whether a command runs at all (the guard, approvals, the path
//! policy) is Memo's as ever, and the editor is asked to start Memo's sandbox wrapper
//! (`memo-cli sandbox-exec`), so Landlock bounds the command there too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use memo_service::{ExitInfo, HostedCommand, HostedOutput, TerminalHost};
use serde_json::{json, Value};

use crate::editor::Editor;
use crate::schema as acp;

/// One session's commands in the editor's terminals.
#[derive(Debug)]
pub struct EditorTerminals {
    editor: Arc<Editor>,
    /// The tool call each terminal was made for, so updates show it there.
    by_call: Arc<Mutex<HashMap<String, String>>>,
    /// The program that runs Memo's sandbox wrapper: this one.
    wrapper: Option<String>,
}

impl EditorTerminals {
    pub fn new(editor: Arc<Editor>) -> Arc<Self> {
        let wrapper = std::env::current_exe()
            .ok()
            .map(|exe| exe.display().to_string());
        Arc::new(Self {
            editor,
            by_call: Arc::default(),
            wrapper,
        })
    }

    /// The editor's terminal a tool call's command runs in, if it does.
    pub fn of_call(&self, call_id: &str) -> Option<String> {
        lock(&self.by_call).get(call_id).cloned()
    }

    fn terminal_request(
        &self,
        method: &'static str,
        terminal: &str,
    ) -> BoxFuture<'static, Result<Value, String>> {
        let editor = self.editor.clone();
        let params = json!({ "terminalId": terminal });
        Box::pin(async move { editor.request(method, params).await })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn exit_of(status: acp::TerminalExitStatus) -> ExitInfo {
    ExitInfo {
        // Killed by a signal: no code, as a shell would say 128 + n.
        code: status.exit_code.unwrap_or(-1),
        signal: status.signal,
    }
}

impl TerminalHost for EditorTerminals {
    fn create(&self, command: HostedCommand) -> BoxFuture<'static, Result<String, String>> {
        let editor = self.editor.clone();
        let this_call = command.call_id.clone();
        let params = json!({
            "command": command.program,
            "args": command.args,
            "env": command
                .env
                .iter()
                .map(|(name, value)| acp::EnvVariable { name: name.clone(), value: value.clone() })
                .collect::<Vec<_>>(),
            "cwd": command.cwd,
            "outputByteLimit": command.output_limit,
        });
        let by_call = self.by_call.clone();
        Box::pin(async move {
            let answer = editor.request("terminal/create", params).await?;
            let created: acp::CreateTerminalResponse = serde_json::from_value(answer)
                .map_err(|e| format!("the editor's answer to terminal/create: {e}"))?;
            if let Some(call) = this_call {
                lock(&by_call).insert(call.clone(), created.terminal_id.clone());
                // Shown on the call at once, before the command prints anything.
                editor.notify(acp::SessionUpdate::ToolCallUpdate(
                    acp::ToolCallUpdate::new(
                        call,
                        acp::ToolCallFields::new()
                            .status(acp::ToolCallStatus::InProgress)
                            .content(vec![acp::ToolCallContent::Terminal {
                                terminal_id: created.terminal_id.clone(),
                            }]),
                    ),
                ));
            }
            Ok(created.terminal_id)
        })
    }

    fn output(&self, terminal: &str) -> BoxFuture<'static, Result<HostedOutput, String>> {
        let asked = self.terminal_request("terminal/output", terminal);
        Box::pin(async move {
            let answer: acp::TerminalOutputResponse = serde_json::from_value(asked.await?)
                .map_err(|e| format!("the editor's answer to terminal/output: {e}"))?;
            Ok(HostedOutput {
                output: answer.output,
                truncated: answer.truncated,
                exit: answer.exit_status.map(exit_of),
            })
        })
    }

    fn wait_for_exit(&self, terminal: &str) -> BoxFuture<'static, Result<ExitInfo, String>> {
        let editor = self.editor.clone();
        let params = json!({ "terminalId": terminal });
        Box::pin(async move {
            // As long as the command runs: its timeout is Memo's, which kills it.
            let answer = editor
                .request_unbounded("terminal/wait_for_exit", params)
                .await?;
            serde_json::from_value::<acp::TerminalExitStatus>(answer)
                .map(exit_of)
                .map_err(|e| format!("the editor's answer to terminal/wait_for_exit: {e}"))
        })
    }

    fn kill(&self, terminal: &str) -> BoxFuture<'static, Result<(), String>> {
        let asked = self.terminal_request("terminal/kill", terminal);
        Box::pin(async move { asked.await.map(|_| ()) })
    }

    fn release(&self, terminal: &str) -> BoxFuture<'static, Result<(), String>> {
        let asked = self.terminal_request("terminal/release", terminal);
        Box::pin(async move { asked.await.map(|_| ()) })
    }

    fn sandbox_wrapper(&self) -> Option<(String, Vec<String>)> {
        self.wrapper.clone().map(|exe| (exe, Vec::new()))
    }
}
