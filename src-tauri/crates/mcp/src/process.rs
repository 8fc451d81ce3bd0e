//! Stdio server processes. Each runs in its own process group so stopping it also stops
//! what it started (`npx` runs `node`, `uvx` runs `python`); its stderr is kept as a
//! bounded tail so a crash can be reported with the server's last words.

use std::collections::VecDeque;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::config::{StderrMode, StdioConfig};
use crate::error::McpError;
use memo_child_env::path_env::resolve_command;

const TAIL_LINES: usize = 40;
const TAIL_LINE_CHARS: usize = 400;
/// How long a server gets to exit after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// The last lines a server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    fn push(&self, line: &str) {
        let mut lines = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if lines.len() == TAIL_LINES {
            lines.pop_front();
        }
        lines.push_back(line.chars().take(TAIL_LINE_CHARS).collect());
    }

    /// The tail as text, `None` when the server wrote nothing.
    pub fn text(&self) -> Option<String> {
        let lines = self.0.lock().unwrap_or_else(|p| p.into_inner());
        (!lines.is_empty()).then(|| lines.iter().cloned().collect::<Vec<_>>().join("\n"))
    }
}

pub struct ServerProcess {
    child: Child,
    pgid: Option<Pid>,
    /// Set once the group has been killed: the id may be reused afterwards.
    stopped: bool,
    pub stderr: StderrTail,
}

/// Starts a stdio server: its PATH is `path`, its cwd the configured one (relative to
/// `base_cwd`) or `base_cwd`.
pub fn spawn(
    server: &str,
    cfg: &StdioConfig,
    path: &str,
    base_cwd: &Path,
) -> Result<(ServerProcess, ChildStdout, ChildStdin), McpError> {
    let cwd = match &cfg.cwd {
        Some(dir) => base_cwd.join(dir),
        None => base_cwd.to_path_buf(),
    };
    let program =
        resolve_command(&cfg.command, path, &cwd).ok_or_else(|| McpError::CommandNotFound {
            command: cfg.command.clone(),
            path: path.to_owned(),
        })?;
    let mut cmd = Command::new(&program);
    for name in memo_child_env::internal() {
        cmd.env_remove(name);
    }
    cmd.args(&cfg.args)
        .current_dir(&cwd)
        .env("PATH", path)
        .envs(&cfg.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(match cfg.stderr {
            StderrMode::Pipe => Stdio::piped(),
            StderrMode::Inherit => Stdio::inherit(),
            StderrMode::Ignore => Stdio::null(),
        })
        .process_group(0)
        // The last line of defence: a dropped handle still kills the direct child.
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| McpError::Spawn {
        command: program.display().to_string(),
        message: e.to_string(),
    })?;
    let pgid = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .map(Pid::from_raw);
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(McpError::Spawn {
            command: program.display().to_string(),
            message: "no stdio pipes".into(),
        });
    };
    let stderr = StderrTail::default();
    if let Some(pipe) = child.stderr.take() {
        let tail = stderr.clone();
        let server = server.to_owned();
        tokio::spawn(async move {
            let mut lines = BufReader::new(pipe).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::debug!(target: "memo_mcp::stderr", server = %server, "{line}");
                tail.push(&line);
            }
        });
    }
    Ok((
        ServerProcess {
            child,
            pgid,
            stopped: false,
            stderr,
        },
        stdout,
        stdin,
    ))
}

impl ServerProcess {
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Resolves when the process exits.
    pub async fn exited(&mut self) -> Option<ExitStatus> {
        self.child.wait().await.ok()
    }

    /// SIGTERM to the whole group, SIGKILL after a grace period; waits for the exit.
    pub async fn terminate(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            self.kill_group(Signal::SIGKILL);
            self.stopped = true;
            return;
        }
        self.kill_group(Signal::SIGTERM);
        if tokio::time::timeout(TERM_GRACE, self.child.wait())
            .await
            .is_err()
        {
            self.kill_group(Signal::SIGKILL);
            let _ = self.child.kill().await;
        }
        // Grandchildren that ignored SIGTERM while the leader exited.
        self.kill_group(Signal::SIGKILL);
        self.stopped = true;
    }

    fn kill_group(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            let _ = killpg(pgid, signal);
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Never leave a server's process group behind, whatever path dropped us.
        if !self.stopped {
            self.kill_group(Signal::SIGKILL);
        }
    }
}

/// How an exit reads in a crash report.
pub fn describe_exit(status: Option<ExitStatus>) -> memo_protocol::Phrase {
    use memo_protocol::Phrase;
    use std::os::unix::process::ExitStatusExt;
    match status.map(|s| (s.code(), s.signal())) {
        Some((Some(code), _)) => Phrase::ProcessExitedWithCode {
            status: code.to_string(),
        },
        Some((None, Some(signal))) => Phrase::ProcessKilledBySignal {
            signal: signal.to_string(),
        },
        _ => Phrase::ProcessExited,
    }
}
