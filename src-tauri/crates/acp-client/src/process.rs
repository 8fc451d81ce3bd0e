//! The agent's process: started in a process group of its own, so stopping it stops
//! everything it started (Claude Code's agent runs `claude` under it, and does not exit
//! when its input closes); what it prints on stderr is kept, the last part, for the error
//! a person reads when it dies.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use memo_child_env::path_env::resolve_command;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncReadExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::ClientError;

/// Stderr bytes kept.
const STDERR_TAIL: usize = 8 * 1024;
/// How long the agent gets after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// What to start.
#[derive(Debug, Clone)]
pub struct Launch {
    pub command: String,
    pub args: Vec<String>,
    /// Set on top of Memo's own environment (Memo's internal variables removed).
    pub env: BTreeMap<String, String>,
}

/// The PATH agents are found on and started with: the login shell's, as for MCP servers
/// (read once per process, blocking the first time, so off the runtime's threads).
pub async fn agent_path() -> String {
    tokio::task::spawn_blocking(|| memo_child_env::path_env::server_path().to_owned())
        .await
        .unwrap_or_default()
}

pub(crate) struct AgentProcess {
    child: Mutex<Option<Child>>,
    pgid: Option<i32>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// True once stderr reached its end (the agent and everything it started let go).
    stderr_done: tokio::sync::watch::Receiver<bool>,
}

impl AgentProcess {
    /// Starts `launch` in `cwd`, its command found on `path` (the login shell's PATH, as
    /// for MCP servers: an agent installed with nvm or `npm -g` is on it), which it gets
    /// as its PATH too unless `launch` sets one.
    pub fn spawn(
        launch: &Launch,
        cwd: &Path,
        path: &str,
    ) -> Result<(Self, ChildStdin, BufReader<ChildStdout>), ClientError> {
        let program =
            resolve_command(&launch.command, path, cwd).ok_or_else(|| ClientError::Spawn {
                command: launch.command.clone(),
                reason: "it is not installed: no such program on the PATH".into(),
            })?;
        let mut command = Command::new(program);
        command
            .env("PATH", path)
            .args(&launch.args)
            .current_dir(cwd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        for name in memo_child_env::internal() {
            command.env_remove(name);
        }
        command.envs(&launch.env);
        let mut child = command.spawn().map_err(|e| ClientError::Spawn {
            command: launch.command.clone(),
            reason: e.to_string(),
        })?;
        let missing = |what: &str| ClientError::Spawn {
            command: launch.command.clone(),
            reason: format!("its {what} could not be opened"),
        };
        let stdin = child.stdin.take().ok_or_else(|| missing("input"))?;
        let stdout = child.stdout.take().ok_or_else(|| missing("output"))?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, stderr_done) = tokio::sync::watch::channel(false);
        if let Some(mut err) = child.stderr.take() {
            let tail = stderr.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    let mut kept = tail.lock().unwrap_or_else(|p| p.into_inner());
                    kept.extend_from_slice(&buf[..n]);
                    let over = kept.len().saturating_sub(STDERR_TAIL);
                    kept.drain(..over);
                }
                let _ = done_tx.send(true);
            });
        } else {
            let _ = done_tx.send(true);
        }
        let pgid = child.id().and_then(|id| i32::try_from(id).ok());
        Ok((
            Self {
                child: Mutex::new(Some(child)),
                pgid,
                stderr,
                stderr_done,
            },
            stdin,
            BufReader::new(stdout),
        ))
    }

    /// [`Self::stderr_tail`] once stderr ended, or after `limit`: what a dying agent
    /// printed last comes just before its end.
    pub async fn stderr_tail_within(&self, limit: Duration) -> String {
        let mut done = self.stderr_done.clone();
        let _ = tokio::time::timeout(limit, done.wait_for(|ended| *ended)).await;
        self.stderr_tail()
    }

    /// The end of what it printed on stderr, as text.
    pub fn stderr_tail(&self) -> String {
        let kept = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&kept).trim().to_owned()
    }

    /// How it ended, if it has.
    pub fn exited(&self) -> Option<String> {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let status = child.as_mut()?.try_wait().ok()??;
        Some(status.to_string())
    }

    /// How it ended, waiting up to `limit` for it (its output closes just before).
    pub async fn exit_within(&self, limit: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.exited() {
                return Some(status);
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// SIGTERM to the whole group, SIGKILL after a grace; waits for the agent itself.
    pub async fn stop(&self) {
        let Some(mut child) = self.child.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        if let Some(pgid) = self.pgid {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGTERM);
        }
        if tokio::time::timeout(TERM_GRACE, child.wait())
            .await
            .is_err()
        {
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
        // What it started and left behind goes too.
        if let Some(pgid) = self.pgid {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        if let Some(pgid) = self.pgid {
            let running = self
                .child
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_some();
            if running {
                let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
            }
        }
    }
}
