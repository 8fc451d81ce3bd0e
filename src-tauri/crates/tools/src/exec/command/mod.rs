//! `exec_command` and `write_stdin`: Memo Code's unified exec. A command runs in a shell
//! on a pseudo-terminal; if it is still running after `yield_time_ms` the call returns what
//! it printed so far plus a session id, and `write_stdin` sends keystrokes to it (or just
//! polls) later. Before anything runs, the dangerous-command guard reads the command, the
//! working directory must pass the path policy, and the approval fingerprint names the
//! command prefix so a "for this session" grant never covers more than it said.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use memo_protocol::{CommandView, OutputRange, Phrase, RiskLevel, ToolErrorKind, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::command_guard::{check_command, denial_hint, GuardContext, Verdict};
use crate::exec::fingerprint::command_fingerprint;
use crate::exec::live;
use crate::exec::output::{deliver, format_response, ProcessState, DEFAULT_MAX_OUTPUT_TOKENS};
use crate::exec::sandbox::{self, SandboxPolicy, SandboxStatus};
use crate::exec::session::{
    kill_after, kill_on_cancel, ExecManager, ExecSession, KillReason, SpawnRequest,
};
use crate::exec::shells::SHELLS;
use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolPreview, ToolResult};

/// The shortest wait for a command before its call returns a session.
const MIN_EXEC_YIELD_MS: u64 = 500;
const DEFAULT_EXEC_YIELD_MS: u64 = 10_000;
const DEFAULT_WRITE_YIELD_MS: u64 = 250;
/// Above the compatibility tools' longest wait (10 minutes plus slack).
const MAX_YIELD_MS: u64 = 610_000;
/// A session still running this long after it started is killed.
const DEFAULT_TIMEOUT_MS: u64 = 30 * 60 * 1000;
const MAX_TIMEOUT_MS: u64 = 24 * 60 * 60 * 1000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExecInput {
    cmd: String,
    #[serde(default)]
    workdir: Option<String>,
    #[serde(default)]
    shell: Option<String>,
    #[serde(default)]
    login: Option<bool>,
    #[serde(default)]
    tty: Option<bool>,
    #[serde(default)]
    yield_time_ms: Option<u64>,
    #[serde(default)]
    max_output_tokens: Option<usize>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    sandbox_permissions: Option<SandboxPermissions>,
    #[serde(default)]
    justification: Option<String>,
    /// Accepted for compatibility with Codex-trained models; grants come from approvals.
    #[serde(default)]
    #[allow(dead_code)]
    prefix_rule: Option<Vec<String>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum SandboxPermissions {
    UseDefault,
    RequireEscalated,
}

/// Everything about a call that preview and run both need.
struct Plan {
    input: ExecInput,
    workdir: PathBuf,
    escalated: bool,
    verdict: Verdict,
}

fn plan(
    ctx: &ToolContext,
    args: serde_json::Value,
    sandbox: SandboxPolicy,
    label: &str,
) -> Result<Plan, ToolError> {
    let input: ExecInput = parse_args(label, args)?;
    if input.cmd.trim().is_empty() {
        return Err(ToolError::invalid_input("cmd must not be empty"));
    }
    if let Some(shell) = &input.shell {
        if !SHELLS.contains(&crate::command_guard::base_name(shell).as_str()) {
            return Err(ToolError::invalid_input(format!(
                "shell must be one of {} (got {shell})",
                SHELLS.join(", ")
            )));
        }
    }
    let workdir = ctx.readable(input.workdir.as_deref().unwrap_or("."))?;
    if !workdir.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "workdir {} is not a directory",
            workdir.display()
        )));
    }
    let escalated = input.sandbox_permissions == Some(SandboxPermissions::RequireEscalated)
        && sandbox != SandboxPolicy::Off;
    let verdict = check_command(&input.cmd, &guard_context(ctx, workdir.clone()));
    Ok(Plan {
        input,
        workdir,
        escalated,
        verdict,
    })
}

fn guard_context(ctx: &ToolContext, cwd: PathBuf) -> GuardContext {
    let mut roots = vec![ctx.cwd.clone()];
    roots.extend(ctx.paths.writable_roots().iter().cloned());
    GuardContext::new(cwd, roots)
}

pub struct ExecCommandTool {
    manager: Arc<ExecManager>,
    /// The tool name the model called, for messages and denial hints (the shell
    /// compatibility tools run through this one).
    label: &'static str,
}

pub struct WriteStdinTool {
    manager: Arc<ExecManager>,
}

/// The pair shares one set of sessions; both must come from here.
pub fn exec_tools(sandbox: SandboxPolicy) -> (ExecCommandTool, WriteStdinTool) {
    let manager = Arc::new(ExecManager::new(sandbox));
    (
        ExecCommandTool {
            manager: manager.clone(),
            label: "exec_command",
        },
        WriteStdinTool { manager },
    )
}

impl ExecCommandTool {
    /// The policy comes from `MEMO_SANDBOX` (see [`SandboxPolicy::from_env`]).
    pub fn sandbox(&self) -> SandboxPolicy {
        self.manager.sandbox
    }

    /// An exec tool with its own sessions that reports itself as `label`.
    pub(crate) fn labelled(sandbox: SandboxPolicy, label: &'static str) -> Self {
        Self {
            manager: Arc::new(ExecManager::new(sandbox)),
            label,
        }
    }
}

impl Tool for ExecCommandTool {
    fn shutdown(&self) {
        self.manager.kill_all();
    }

    fn name(&self) -> &str {
        "exec_command"
    }

    fn description(&self) -> &str {
        "Runs a shell command; returns its output and exit code, or a session ID for \
         write_stdin if still running after `yield_time_ms`. Use `workdir`, not `cd`. \
         Writes outside the workspace are blocked unless `sandbox_permissions` is \
         \"require_escalated\" with a `justification` (asks the user)."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "cmd": {"type": "string", "minLength": 1},
                "workdir": {"type": "string"},
                "shell": {"type": "string", "description": "Shell binary (bash, sh, zsh, dash, ksh, fish; default $SHELL)."},
                "login": {"type": "boolean", "description": "Run as a login shell that reads the user's profile (default false)."},
                "tty": {"type": "boolean", "description": "Behave like an interactive terminal: colours and TERM=xterm-256color (default false)."},
                "yield_time_ms": {"type": "integer", "minimum": 0},
                "max_output_tokens": {"type": "integer", "minimum": 1, "description": "Output budget in tokens (default 2000)."},
                "timeout_ms": {"type": "integer", "minimum": 1, "description": "Kill the command if still running after this long (default 30 minutes)."},
                "sandbox_permissions": {"type": "string", "enum": ["use_default", "require_escalated"]},
                "justification": {"type": "string", "description": "Why it must run outside the sandbox."},
                "prefix_rule": {"type": "array", "items": {"type": "string"}, "description": "Accepted for compatibility; ignored."}
            },
            "required": ["cmd"],
            "additionalProperties": false
        })
    }

    // A small model is not offered a way out of the sandbox: asking for it is rarely what
    // such a model means, and each offer is one more thing to get wrong.
    fn compact_hidden_params(&self) -> &'static [&'static str] {
        &["sandbox_permissions", "justification"]
    }

    fn advanced_params(&self) -> &'static [&'static str] {
        &[
            "login",
            "prefix_rule",
            "shell",
            "tty",
            "max_output_tokens",
            "timeout_ms",
        ]
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Execute
    }

    fn is_mutating(&self) -> bool {
        true
    }

    /// As in Memo Code: commands may run side by side (each has its own terminal).
    fn parallel_safe(&self) -> bool {
        true
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let label = self.label;
        let result = plan(ctx, args.clone(), self.manager.sandbox, label).and_then(|p| {
            let mut risk = RiskLevel::Execute;
            let mut why = vec![Phrase::RunCommand {
                command: one_line(&p.input.cmd),
            }];
            match &p.verdict {
                Verdict::Block { rule, .. } => {
                    return Err(ToolError::policy_denied(denial_hint(
                        label,
                        rule,
                        &p.input.cmd,
                        None,
                    )))
                }
                Verdict::Ask { reason, .. } => {
                    risk = RiskLevel::Critical;
                    why.push(reason.clone());
                }
                Verdict::Allow => {}
            }
            let mut fingerprint = format!("exec:{}", command_fingerprint(&p.input.cmd));
            if p.escalated {
                risk = RiskLevel::Critical;
                fingerprint.push_str(" [unsandboxed]");
                why.push(match &p.input.justification {
                    Some(justification) => Phrase::OutsideSandbox {
                        justification: justification.clone(),
                    },
                    None => Phrase::OutsideSandboxUnjustified,
                });
            }
            Ok(ToolPreview {
                risk,
                fingerprint,
                why,
                command: Some(p.input.cmd.clone()),
                cwd: Some(p.workdir.display().to_string()),
                diff: None,
            })
        });
        Box::pin(async move { result })
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let escalated =
            args.get("sandbox_permissions").and_then(|v| v.as_str()) == Some("require_escalated");
        let command = args.get("cmd").and_then(|v| v.as_str()).unwrap_or_default();
        let cwd = args
            .get("workdir")
            .and_then(|v| v.as_str())
            .map_or_else(|| ctx.cwd.clone(), |w| ctx.resolve(w));
        ToolView::Command(CommandView::pending(
            command.to_owned(),
            Some(cwd.display().to_string()),
            !escalated && self.manager.sandbox != SandboxPolicy::Off,
            None,
        ))
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let manager = self.manager.clone();
        let label = self.label;
        Box::pin(async move {
            let p = plan(&ctx, args, manager.sandbox, label)?;
            // The engine previews first, but a host that calls run directly is guarded too.
            if let Verdict::Block { rule, .. } = &p.verdict {
                return Err(ToolError::policy_denied(denial_hint(
                    label,
                    rule,
                    &p.input.cmd,
                    None,
                )));
            }
            let policy = if p.escalated {
                SandboxPolicy::Off
            } else {
                manager.sandbox
            };
            let id = manager.next_id()?;
            let shell = p.input.shell.clone().unwrap_or_else(default_shell);
            let tty = p.input.tty.unwrap_or(false);
            let request = SpawnRequest {
                shell,
                // A login shell prints the profile's noise into every output; ask for it.
                login: p.input.login.unwrap_or(false),
                command: p.input.cmd.clone(),
                cwd: p.workdir.clone(),
                env: child_env(tty),
                sandbox: policy,
                writable_roots: ctx.paths.writable_roots().to_vec(),
                live: ctx.live_output.is_some(),
            };
            // In the editor's terminal when it offers one (and can run the sandbox).
            let hosted = match &ctx.terminals {
                Some(host) => {
                    ExecSession::spawn_hosted(
                        id,
                        request.clone(),
                        host.clone(),
                        ctx.call_id.clone(),
                    )
                    .await
                }
                None => None,
            };
            let session = match hosted {
                Some(session) => session?,
                None => ExecSession::spawn(id, request).await?,
            };
            manager.insert(session.clone());
            let timeout = p
                .input
                .timeout_ms
                .unwrap_or(DEFAULT_TIMEOUT_MS)
                .clamp(1, MAX_TIMEOUT_MS);
            kill_after(&session, Duration::from_millis(timeout));
            kill_on_cancel(&session, ctx.cancel.clone());
            // A command that ends within a moment should come back with its result, not
            // a session: small models send `yield_time_ms: 0` and then read "still
            // running" as a failure.
            let yield_ms = p
                .input
                .yield_time_ms
                .unwrap_or(DEFAULT_EXEC_YIELD_MS)
                .clamp(MIN_EXEC_YIELD_MS, MAX_YIELD_MS);
            let mut notes = Vec::new();
            if session.sandbox == SandboxStatus::Unavailable && manager.take_sandbox_note() {
                notes.push(
                    "<system_hint type=\"sandbox_unavailable\">This kernel has no Landlock support: commands run without a filesystem sandbox and only the approvals guard them.</system_hint>"
                        .to_owned(),
                );
            }
            let view = CommandView::pending(
                p.input.cmd.clone(),
                Some(p.workdir.display().to_string()),
                session.sandbox.active(),
                None,
            );
            respond(
                &manager,
                &session,
                &ctx,
                Reply {
                    yield_ms,
                    max_output_tokens: p.input.max_output_tokens,
                    policy,
                    view,
                },
                notes,
            )
            .await
        })
    }
}

fn one_line(cmd: &str) -> String {
    let line = cmd.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 200 {
        format!("{}…", line.chars().take(200).collect::<String>())
    } else {
        line
    }
}

/// The shell commands run in: `$SHELL` when it is one Memo knows, else bash or sh.
pub fn default_shell() -> String {
    std::env::var("SHELL")
        .ok()
        .filter(|s| SHELLS.contains(&crate::command_guard::base_name(s).as_str()))
        .unwrap_or_else(|| {
            if std::path::Path::new("/bin/bash").exists() {
                "/bin/bash".into()
            } else {
                "/bin/sh".into()
            }
        })
}

/// Keeps output plain for the model (no pagers waiting for a key, no colours) unless the
/// call asked for a real terminal.
fn child_env(tty: bool) -> Vec<(String, String)> {
    let mut env = vec![
        ("PAGER".to_owned(), "cat".to_owned()),
        ("GIT_PAGER".to_owned(), "cat".to_owned()),
    ];
    if tty {
        env.push(("TERM".into(), "xterm-256color".into()));
    } else {
        env.push(("TERM".into(), "dumb".into()));
        env.push(("NO_COLOR".into(), "1".into()));
        env.push(("CLICOLOR".into(), "0".into()));
        // A credential prompt nobody can answer would hang the command until its timeout.
        env.push(("GIT_TERMINAL_PROMPT".into(), "0".into()));
    }
    env
}

/// How a call wants its session reported.
struct Reply {
    yield_ms: u64,
    max_output_tokens: Option<usize>,
    policy: SandboxPolicy,
    /// What the call is; the report fills in the state, duration and output.
    view: CommandView,
}

/// Waits on the session, then reports: output so far plus exit code or session id.
async fn respond(
    manager: &ExecManager,
    session: &Arc<ExecSession>,
    ctx: &ToolContext,
    reply: Reply,
    mut notes: Vec<String>,
) -> ToolResult {
    let Reply {
        yield_ms,
        max_output_tokens,
        policy,
        view,
    } = reply;
    let finished = live::wait_streaming(
        session,
        Duration::from_millis(yield_ms),
        &ctx.cancel,
        ctx.live_output.as_ref(),
    )
    .await;
    if !finished {
        // Interrupted: the group was killed; give it a moment so the output is complete.
        session
            .wait(Duration::from_millis(500), &Default::default())
            .await;
    }
    let delivered = deliver(
        session.take_output(),
        max_output_tokens.unwrap_or(DEFAULT_MAX_OUTPUT_TOKENS),
    );
    let exit = session.exit();
    let state = match &exit {
        Some(info) => ProcessState::Exited {
            code: info.code,
            signal: info.signal.clone(),
        },
        None => ProcessState::Running {
            session_id: session.id,
        },
    };
    let body = format_response(
        &manager.chunk_id(),
        session.started.elapsed().as_secs_f64(),
        &state,
        &delivered,
    );
    if exit.is_some() {
        manager.forget_if_done(session);
    }
    // What the command printed ends the body; `prefix` is what comes before the body.
    let printed_at = (body.len() - delivered.text.len()) as u64;
    let view_with = |prefix: usize| {
        ToolView::Command(CommandView {
            state: state.command_state(),
            duration_ms: Some(session.started.elapsed().as_millis() as u64),
            output: Some(
                OutputRange {
                    start: printed_at,
                    end: body.len() as u64,
                }
                .shifted(prefix as u64),
            ),
            ..view.clone()
        })
    };
    let killed = |kind: ToolErrorKind, why: &str| {
        let prefix = format!("{why}\n");
        ToolError::new(kind, format!("{prefix}{body}")).with_view(view_with(prefix.len()))
    };
    match session.killed() {
        Some(KillReason::Interrupted) => {
            return Err(killed(
                ToolErrorKind::Interrupted,
                "interrupted by the user; the command's process group was killed",
            ))
        }
        Some(KillReason::TimedOut) => {
            return Err(killed(
                ToolErrorKind::Timeout,
                "the command ran past its timeout and its process group was killed",
            ))
        }
        Some(KillReason::SessionEnded) | None => {}
    }
    let failed = exit.as_ref().is_some_and(|e| e.code != 0);
    if failed && session.sandbox.active() && sandbox::denial_suspected(&delivered.text) {
        return Err(ToolError::new(
            ToolErrorKind::SandboxDenied,
            format!(
                "{body}\n<system_hint type=\"sandbox_denied\" policy=\"{}\">The command failed with a permission error; {}. If it must write elsewhere, retry with sandbox_permissions=\"require_escalated\" and a justification.</system_hint>",
                policy.label(),
                sandbox::describe(policy, ctx.paths.writable_roots())
            ),
        )
        .with_view(view_with(0)));
    }
    let view = view_with(0);
    notes.insert(0, body);
    Ok(ToolOutput::text(notes.join("\n")).with_view(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteInput {
    session_id: u32,
    #[serde(default)]
    chars: Option<String>,
    #[serde(default)]
    yield_time_ms: Option<u64>,
    #[serde(default)]
    max_output_tokens: Option<usize>,
}

impl WriteStdinTool {
    fn session(&self, id: u32) -> Result<Arc<ExecSession>, ToolError> {
        self.manager.get(id).ok_or_else(|| {
            ToolError::invalid_input(format!(
                "session_id {id} not found: it has exited and its output was already returned, or it never existed"
            ))
        })
    }

    /// The complete lines these keystrokes finish, checked like a command: a shell session
    /// must not become a way around the guard. A blocked line is refused; a line the
    /// guard would ask about comes back as that reason (the call is then critical).
    fn guard(
        &self,
        ctx: &ToolContext,
        session: &ExecSession,
        chars: &str,
    ) -> Result<Option<Phrase>, ToolError> {
        let pending = session.pending_line();
        let typed = format!("{pending}{chars}")
            .replace("\r\n", "\n")
            .replace('\r', "\n");
        let guard = guard_context(ctx, ctx.cwd.clone()).typed_lines();
        let complete = typed.rsplit_once('\n').map(|(done, _)| done).unwrap_or("");
        let mut ask = None;
        for line in complete.split('\n').filter(|l| !l.trim().is_empty()) {
            match check_command(line, &guard) {
                Verdict::Block { rule, .. } => {
                    return Err(ToolError::policy_denied(denial_hint(
                        "write_stdin",
                        rule,
                        line,
                        Some(session.id),
                    )))
                }
                Verdict::Ask { reason, .. } => {
                    ask.get_or_insert(Phrase::TypedLine {
                        line: one_line(line),
                        why: Box::new(reason),
                    });
                }
                Verdict::Allow => {}
            }
        }
        Ok(ask)
    }
}

impl Tool for WriteStdinTool {
    fn name(&self) -> &str {
        "write_stdin"
    }

    fn description(&self) -> &str {
        "Types `chars` into a running exec_command session and returns its new output. \
         \"\\n\" is Enter, \"\\u0003\" Ctrl-C; empty `chars` just waits for more output."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "session_id": {"type": "integer", "minimum": 1},
                "chars": {"type": "string"},
                "yield_time_ms": {"type": "integer", "minimum": 0, "description": "Wait for output (default 250)."},
                "max_output_tokens": {"type": "integer", "minimum": 1, "description": "Output budget in tokens (default 2000)."}
            },
            "required": ["session_id"],
            "additionalProperties": false
        })
    }

    fn advanced_params(&self) -> &'static [&'static str] {
        &["max_output_tokens"]
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Execute
    }

    fn is_mutating(&self) -> bool {
        true
    }

    /// Keystrokes to one terminal must arrive in the order the model wrote them.
    fn parallel_safe(&self) -> bool {
        false
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let result = parse_args::<WriteInput>("write_stdin", args.clone()).and_then(|input| {
            let session = self.session(input.session_id)?;
            let chars = input.chars.unwrap_or_default();
            let ask = self.guard(ctx, &session, &chars)?;
            let mut why = vec![if chars.is_empty() {
                Phrase::WaitOnSession {
                    session: session.id.to_string(),
                    command: one_line(&session.command),
                }
            } else {
                Phrase::SendToSession {
                    text: format!("{chars:?}"),
                    session: session.id.to_string(),
                    command: one_line(&session.command),
                }
            }];
            Ok(ToolPreview {
                // A line the guard asks about (a force-push to main typed into a shell)
                // is as critical as the same command run directly: asked every time.
                risk: if ask.is_some() {
                    RiskLevel::Critical
                } else {
                    RiskLevel::Execute
                },
                // A grant covers this one session (whatever runs in it), never others.
                fingerprint: format!(
                    "stdin:{}:{}",
                    session.id,
                    command_fingerprint(&session.command)
                ),
                why: {
                    why.extend(ask);
                    why
                },
                command: Some(session.command.clone()),
                cwd: Some(ctx.cwd.display().to_string()),
                diff: None,
            })
        });
        Box::pin(async move { result })
    }

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        let session = args
            .get("session_id")
            .and_then(|v| v.as_u64())
            .and_then(|id| u32::try_from(id).ok())
            .and_then(|id| self.manager.get(id));
        let chars = args
            .get("chars")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        ToolView::Command(CommandView::pending(
            session
                .as_ref()
                .map(|s| s.command.clone())
                .unwrap_or_default(),
            None,
            session.as_ref().is_some_and(|s| s.sandbox.active()),
            Some(chars.to_owned()),
        ))
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let manager = self.manager.clone();
        let prepared = parse_args::<WriteInput>("write_stdin", args).and_then(|input| {
            let session = self.session(input.session_id)?;
            let chars = input.chars.clone().unwrap_or_default();
            self.guard(&ctx, &session, &chars)?;
            Ok((input, session, chars))
        });
        Box::pin(async move {
            let (input, session, chars) = prepared?;
            if !chars.is_empty() {
                if session.exit().is_some() {
                    return Err(ToolError::invalid_input(format!(
                        "session {} has exited; its remaining output comes with an empty `chars`",
                        session.id
                    )));
                }
                session.remember_typed(&chars);
                if ctx.live_output.is_some() {
                    // Before writing: the reply may come faster than the wait starts.
                    session.start_live();
                }
                session.write(chars.clone()).await?;
                kill_on_cancel(&session, ctx.cancel.clone());
            }
            let yield_ms = input
                .yield_time_ms
                .unwrap_or(DEFAULT_WRITE_YIELD_MS)
                .min(MAX_YIELD_MS);
            let view = CommandView::pending(
                session.command.clone(),
                None,
                session.sandbox.active(),
                Some(chars),
            );
            let reply = Reply {
                yield_ms,
                max_output_tokens: input.max_output_tokens,
                policy: manager.sandbox,
                view,
            };
            respond(&manager, &session, &ctx, reply, Vec::new()).await
        })
    }
}

#[cfg(test)]
mod tests;
