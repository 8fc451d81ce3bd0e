//! Running one hook command: `sh -c` in its own process group, the event's JSON on stdin,
//! stdout and stderr kept up to a bound, a deadline, and cancellation.
//!
//! A hook is an arbitrary program from a settings file, so nothing about it is assumed:
//! it may ignore stdin, print megabytes, hang, or start children that outlive it. The
//! group lets a timeout or cancellation stop all of it (SIGTERM, then SIGKILL after a
//! short grace); the output bound keeps a chatty hook from filling memory while the pipes
//! are still drained so it never blocks on a full pipe.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::error::SpawnError;

/// Bytes kept of each of stdout and stderr.
pub const OUTPUT_LIMIT: usize = 64 * 1024;
/// How long a stopped hook gets between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(500);
/// How long output is still read after the hook exited: a background child that kept
/// the pipe open must not hold the turn up.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How a hook process ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum RunStatus {
    Exited {
        code: i32,
    },
    /// Killed by a signal it did not get from Memo.
    Signalled {
        signal: i32,
    },
    /// Still running at its timeout; its process group was killed.
    TimedOut {
        after_ms: u64,
    },
    /// Stopped because the caller cancelled (the turn was interrupted).
    Cancelled,
    /// Never started.
    SpawnFailed {
        message: String,
    },
}

/// What the hook printed on one stream, cut at [`OUTPUT_LIMIT`] bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CapturedOutput {
    /// The text kept (invalid UTF-8 replaced), with a note at the end when cut.
    pub text: String,
    /// Bytes dropped after the limit; 0 when nothing was cut.
    pub cut_bytes: u64,
}

impl CapturedOutput {
    pub fn was_cut(&self) -> bool {
        self.cut_bytes > 0
    }
}

pub(crate) struct ProcessResult {
    pub status: RunStatus,
    pub stdout: CapturedOutput,
    pub stderr: CapturedOutput,
    pub duration: Duration,
}

pub(crate) struct HookCommand<'a> {
    pub command: &'a str,
    pub project_dir: &'a Path,
    /// A plugin's hook gets its folder as `CLAUDE_PLUGIN_ROOT`, as in Claude Code.
    pub plugin_root: Option<&'a Path>,
    pub stdin: Vec<u8>,
    pub timeout: Duration,
}

pub(crate) async fn run_command(cmd: HookCommand<'_>, cancel: &CancellationToken) -> ProcessResult {
    let started = Instant::now();
    let spawned = match spawn(&cmd) {
        Ok(spawned) => spawned,
        Err(e) => {
            return ProcessResult {
                status: RunStatus::SpawnFailed {
                    message: e.to_string(),
                },
                stdout: CapturedOutput::default(),
                stderr: CapturedOutput::default(),
                duration: started.elapsed(),
            }
        }
    };
    let Spawned {
        mut child,
        mut group,
        stdout,
        stderr,
        stdin_writer,
    } = spawned;

    let ended = tokio::select! {
        exit = child.wait() => Ended::Exited(exit),
        _ = tokio::time::sleep(cmd.timeout) => Ended::TimedOut,
        _ = cancel.cancelled() => Ended::Cancelled,
    };
    let status = match ended {
        Ended::Exited(Ok(exit)) => {
            // The group may live on in background children the hook started on
            // purpose; only a stopped hook has its group killed.
            group.disarm();
            exit_status(exit)
        }
        Ended::Exited(Err(e)) => {
            group.stop(&mut child).await;
            RunStatus::SpawnFailed {
                message: format!("waiting for the hook failed: {e}"),
            }
        }
        Ended::TimedOut => {
            group.stop(&mut child).await;
            RunStatus::TimedOut {
                after_ms: millis(cmd.timeout),
            }
        }
        Ended::Cancelled => {
            group.stop(&mut child).await;
            RunStatus::Cancelled
        }
    };
    stdin_writer.abort();
    let stdout = stdout.finish().await;
    let stderr = stderr.finish().await;
    ProcessResult {
        status,
        stdout,
        stderr,
        duration: started.elapsed(),
    }
}

enum Ended {
    Exited(std::io::Result<ExitStatus>),
    TimedOut,
    Cancelled,
}

struct Spawned {
    child: Child,
    group: GroupGuard,
    stdout: Reader,
    stderr: Reader,
    stdin_writer: JoinHandle<()>,
}

fn spawn(cmd: &HookCommand<'_>) -> Result<Spawned, SpawnError> {
    let mut command = Command::new("sh");
    for name in memo_child_env::internal() {
        command.env_remove(name);
    }
    command
        .arg("-c")
        .arg(cmd.command)
        .current_dir(cmd.project_dir)
        .env("CLAUDE_PROJECT_DIR", cmd.project_dir)
        .env("MEMO_PROJECT_DIR", cmd.project_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        // If everything else is skipped (the future dropped), the direct child still dies.
        .kill_on_drop(true);
    if let Some(root) = cmd.plugin_root {
        command.env("CLAUDE_PLUGIN_ROOT", root);
    }
    let mut child = command.spawn().map_err(|source| SpawnError::Spawn {
        cwd: cmd.project_dir.to_path_buf(),
        source,
    })?;
    let group = GroupGuard {
        pgid: child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw),
    };
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(SpawnError::NoPipes);
    };
    let input = cmd.stdin.clone();
    // A hook that never reads stdin must not block us: the write happens on its own
    // task, and a closed pipe is not an error.
    let stdin_writer = tokio::spawn(async move {
        let _ = stdin.write_all(&input).await;
        let _ = stdin.shutdown().await;
    });
    Ok(Spawned {
        child,
        group,
        stdout: Reader::start(stdout),
        stderr: Reader::start(stderr),
        stdin_writer,
    })
}

fn exit_status(exit: ExitStatus) -> RunStatus {
    match (exit.code(), exit.signal()) {
        (Some(code), _) => RunStatus::Exited { code },
        (None, Some(signal)) => RunStatus::Signalled { signal },
        (None, None) => RunStatus::Exited { code: -1 },
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The hook's process group, killed when the hook is stopped or the run is dropped
/// half-way; disarmed once the hook exited by itself.
struct GroupGuard {
    pgid: Option<Pid>,
}

impl GroupGuard {
    fn signal(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            let _ = killpg(pgid, signal);
        }
    }

    /// SIGTERM to the group, SIGKILL after [`TERM_GRACE`] (always, for children that
    /// ignored SIGTERM while the shell exited), then reaps the shell.
    async fn stop(&mut self, child: &mut Child) {
        self.signal(Signal::SIGTERM);
        if tokio::time::timeout(TERM_GRACE, child.wait())
            .await
            .is_err()
        {
            let _ = child.start_kill();
        }
        self.signal(Signal::SIGKILL);
        let _ = child.wait().await;
        self.pgid = None;
    }

    fn disarm(&mut self) {
        self.pgid = None;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.signal(Signal::SIGKILL);
    }
}

/// Reads one stream to its end on its own task, keeping the first [`OUTPUT_LIMIT`] bytes
/// and counting the rest.
struct Reader {
    captured: Arc<Mutex<Capture>>,
    task: JoinHandle<()>,
}

#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    cut: u64,
}

impl Reader {
    fn start(mut pipe: impl AsyncRead + Unpin + Send + 'static) -> Reader {
        let captured = Arc::new(Mutex::new(Capture::default()));
        let sink = Arc::clone(&captured);
        let task = tokio::spawn(async move {
            let mut buf = [0u8; 8192];
            loop {
                match pipe.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut capture = sink.lock().unwrap_or_else(|p| p.into_inner());
                        let room = OUTPUT_LIMIT.saturating_sub(capture.kept.len());
                        let keep = n.min(room);
                        capture.kept.extend_from_slice(&buf[..keep]);
                        capture.cut += (n - keep) as u64;
                    }
                }
            }
        });
        Reader { captured, task }
    }

    /// What was read by the time the stream closed, or [`DRAIN_GRACE`] passed.
    async fn finish(mut self) -> CapturedOutput {
        if tokio::time::timeout(DRAIN_GRACE, &mut self.task)
            .await
            .is_err()
        {
            self.task.abort();
        }
        let capture = std::mem::take(&mut *self.captured.lock().unwrap_or_else(|p| p.into_inner()));
        let mut text = text_of(&capture.kept);
        if capture.cut > 0 {
            text.push_str(&format!(
                "\n[output cut: {} more bytes after the first {} KiB]",
                capture.cut,
                OUTPUT_LIMIT / 1024
            ));
        }
        CapturedOutput {
            text,
            cut_bytes: capture.cut,
        }
    }
}

/// UTF-8 text of the bytes; a character split by the cut is dropped rather than shown
/// as a replacement character.
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(e) if e.error_len().is_none() => {
            String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned()
        }
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_at_the_end_is_dropped() {
        let bytes = "aé".as_bytes();
        assert_eq!(text_of(&bytes[..2]), "a");
        assert_eq!(text_of(bytes), "aé");
        assert_eq!(text_of(b"a\xffb"), "a\u{fffd}b");
    }
}
