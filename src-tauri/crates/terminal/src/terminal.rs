//! One terminal: a shell on a fresh PTY, and the threads around it.
//!
//! Besides the reader and the pump (see [`crate::output`]) each terminal has a waiter,
//! blocked in `wait` on the shell, and a writer: keystrokes are queued to it so an IPC
//! call never blocks when a program stops reading its input and the PTY's input buffer
//! fills (a large paste into `sleep`).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;

use memo_protocol::TerminalId;
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

use crate::output::{self, Shared};
use crate::process;
use crate::{Limits, OpenRequest, Result, TerminalError, TerminalSink};

pub(crate) struct Terminal {
    pub(crate) group: String,
    /// The shell's pid, which is also its session id.
    pub(crate) pid: Option<i32>,
    pub(crate) shared: Arc<Shared>,
    /// Kept for resizing; dropping it closes the PTY.
    master: Box<dyn MasterPty + Send>,
    input: Sender<Vec<u8>>,
}

/// `$SHELL` when it names an existing file, else bash, else sh.
pub(crate) fn default_shell(
    env_shell: Option<OsString>,
    exists: impl Fn(&Path) -> bool,
) -> PathBuf {
    env_shell
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .filter(|p| exists(p))
        .or_else(|| {
            ["/bin/bash", "/bin/sh"]
                .into_iter()
                .map(PathBuf::from)
                .find(|p| exists(p))
        })
        .unwrap_or_else(|| PathBuf::from("/bin/sh"))
}

/// PTY sizes of zero confuse programs (division by the width); a hidden panel may report
/// them.
fn pty_size(cols: u16, rows: u16) -> PtySize {
    PtySize {
        rows: rows.max(1),
        cols: cols.max(1),
        pixel_width: 0,
        pixel_height: 0,
    }
}

fn spawn_thread(name: String, body: impl FnOnce() + Send + 'static) -> Result<()> {
    std::thread::Builder::new()
        .name(name)
        .spawn(body)
        .map(|_| ())
        .map_err(TerminalError::Io)
}

impl Terminal {
    pub(crate) fn open(
        id: TerminalId,
        request: OpenRequest,
        sink: impl TerminalSink,
        limits: Limits,
    ) -> Result<Self> {
        if !request.cwd.is_dir() {
            return Err(TerminalError::NotAFolder(request.cwd));
        }
        let shell = request
            .shell
            .unwrap_or_else(|| default_shell(std::env::var_os("SHELL"), Path::is_file));
        fn pty(error: impl std::fmt::Display) -> TerminalError {
            TerminalError::Pty(error.to_string())
        }
        let pair = native_pty_system()
            .openpty(pty_size(request.cols, request.rows))
            .map_err(pty)?;
        let reader = pair.master.try_clone_reader().map_err(pty)?;
        let writer = pair.master.take_writer().map_err(pty)?;

        let mut command = CommandBuilder::new(&shell);
        for name in memo_child_env::internal() {
            command.env_remove(name);
        }
        command.cwd(&request.cwd);
        // The app's own working directory would otherwise be the shell's $PWD.
        command.env("PWD", &request.cwd);
        command.env("TERM", "xterm-256color");
        command.env("COLORTERM", "truecolor");
        command.env("TERM_PROGRAM", "memo");
        let child = pair
            .slave
            .spawn_command(command)
            .map_err(|e| TerminalError::Spawn {
                shell: shell.clone(),
                message: e.to_string(),
            })?;
        // The shell has its own copy; ours would keep the PTY open after the session ends,
        // and the reader would never see end-of-file.
        drop(pair.slave);

        let pid = child.process_id().and_then(|p| i32::try_from(p).ok());
        let shared = Arc::new(Shared::new(limits.window));
        let terminal = Self {
            group: request.group,
            pid,
            shared: shared.clone(),
            master: pair.master,
            input: mpsc::channel().0,
        };
        match terminal.start_threads(id, child, reader, writer, sink, limits) {
            Ok(input) => Ok(Self { input, ..terminal }),
            Err(error) => {
                terminal.shared.close();
                if let Some(pid) = pid {
                    process::end_sessions(&[pid], limits.kill_grace);
                }
                Err(error)
            }
        }
    }

    fn start_threads(
        &self,
        id: TerminalId,
        mut child: Box<dyn Child + Send + Sync>,
        reader: Box<dyn std::io::Read + Send>,
        mut writer: Box<dyn Write + Send>,
        sink: impl TerminalSink,
        limits: Limits,
    ) -> Result<Sender<Vec<u8>>> {
        let (chunks_tx, chunks_rx) = mpsc::channel();
        let shared = self.shared.clone();
        spawn_thread(format!("terminal-{id}-read"), move || {
            output::read_pty(reader, shared, chunks_tx)
        })?;

        let shared = self.shared.clone();
        let pid = self.pid;
        let ended = self.shared.clone();
        let on_orphaned = move || {
            if ended.session_ended() {
                return;
            }
            if let Some(pid) = pid {
                tracing::info!(terminal = %id, "terminal output has no receiver; ending it");
                process::end_sessions(&[pid], limits.kill_grace);
            }
        };
        spawn_thread(format!("terminal-{id}-pump"), move || {
            output::pump(chunks_rx, sink, shared, limits, on_orphaned)
        })?;

        let shared = self.shared.clone();
        spawn_thread(format!("terminal-{id}-wait"), move || {
            let code = match child.wait() {
                Ok(status) if status.signal().is_none() => i32::try_from(status.exit_code()).ok(),
                Ok(_) | Err(_) => None,
            };
            shared.set_exit(code);
            // The shell is gone; whatever it left running in its session goes with it, and
            // the PTY then reaches end-of-file so the pump can report the exit.
            if let Some(pid) = pid {
                process::end_sessions(&[pid], limits.kill_grace);
            }
            shared.mark_session_ended();
        })?;

        let (input_tx, input_rx) = mpsc::channel::<Vec<u8>>();
        spawn_thread(format!("terminal-{id}-write"), move || {
            for data in input_rx {
                if writer
                    .write_all(&data)
                    .and_then(|()| writer.flush())
                    .is_err()
                {
                    break;
                }
            }
        })?;
        Ok(input_tx)
    }

    pub(crate) fn write(&self, data: Vec<u8>) -> Result<()> {
        self.input.send(data).map_err(|_| {
            TerminalError::Io(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the terminal no longer takes input",
            ))
        })
    }

    pub(crate) fn resize(&self, cols: u16, rows: u16) -> Result<()> {
        self.master
            .resize(pty_size(cols, rows))
            .map_err(|e| TerminalError::Pty(e.to_string()))
    }

    /// Stops delivery; the caller then ends the session (see [`process::end_sessions`])
    /// and drops the terminal.
    pub(crate) fn stop_delivery(&self) {
        self.shared.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_is_shell_env_then_bash_then_sh() {
        let all = |_: &Path| true;
        let none = |_: &Path| false;
        let only_sh = |p: &Path| p == Path::new("/bin/sh");
        assert_eq!(
            default_shell(Some("/usr/bin/fish".into()), all),
            Path::new("/usr/bin/fish")
        );
        assert_eq!(default_shell(Some("".into()), all), Path::new("/bin/bash"));
        assert_eq!(default_shell(None, all), Path::new("/bin/bash"));
        assert_eq!(
            default_shell(Some("/gone/zsh".into()), only_sh),
            Path::new("/bin/sh")
        );
        assert_eq!(default_shell(None, none), Path::new("/bin/sh"));
    }

    #[test]
    fn zero_sizes_become_one() {
        let size = pty_size(0, 0);
        assert_eq!((size.cols, size.rows), (1, 1));
    }
}
