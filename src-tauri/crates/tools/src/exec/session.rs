//! Shell sessions on a real pseudo-terminal. A command runs as the leader of its own
//! session and process group (portable-pty calls `setsid` in the child), so one `killpg`
//! stops it together with everything it started. One thread drains the terminal, another
//! waits for the exit status; callers wait on a version counter both of them bump.
//!
//! A session outlives the tool call that started it when the command is still running
//! after the call's wait (a REPL, a dev server): later `write_stdin` calls continue it.
//! The manager kills every remaining process group when it is dropped, which happens when
//! the agent session ends and its tool registry goes away.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use memo_protocol::ToolErrorKind;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::exec::hosted::{self, HostedCommand, HostedSink, TerminalHost};
use crate::exec::output::{OutputBuffer, Taken};
use crate::exec::sandbox::{self, SandboxPolicy, SandboxStatus};
use crate::exec::shells::ExitInfo;
use crate::ToolError;

/// Live sessions allowed at once (Memo Code's limit).
pub const MAX_SESSIONS: usize = 64;
/// After the process exits, how long to wait for the terminal to drain (a background
/// child may keep it open indefinitely).
const DRAIN_GRACE: Duration = Duration::from_millis(300);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KillReason {
    Interrupted,
    TimedOut,
    SessionEnded,
}

#[derive(Default)]
struct State {
    output: OutputBuffer,
    exit: Option<ExitInfo>,
    exited_at: Option<Instant>,
    reader_done: bool,
    killed: Option<KillReason>,
    /// Raw output not yet forwarded live, while a caller is streaming it (`None` when
    /// nobody is: the session then keeps nothing extra).
    live: Option<Vec<u8>>,
}

/// Raw bytes held for the live forwarder between its polls; a command printing faster
/// than that loses the excess from the live view (never from its result).
const LIVE_PENDING_MAX: usize = 1024 * 1024;

/// Locks a mutex even if a thread panicked while holding it: the state stays usable for
/// reporting and killing, which matters more than the panic.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[derive(Clone)]
pub struct SpawnRequest {
    pub shell: String,
    pub login: bool,
    pub command: String,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub sandbox: SandboxPolicy,
    pub writable_roots: Vec<PathBuf>,
    /// Keep output for a live forwarder from the first byte on (see [`ExecSession::start_live`]).
    pub live: bool,
}

pub struct ExecSession {
    pub id: u32,
    pub command: String,
    pub started: Instant,
    pub sandbox: SandboxStatus,
    pgid: Option<i32>,
    state: Mutex<State>,
    version: watch::Sender<u64>,
    writer: Mutex<Option<Box<dyn Write + Send>>>,
    /// Kept open for the session's life: closing the master hangs the terminal up.
    /// `None` for a command in another program's terminal.
    _master: Mutex<Option<Box<dyn MasterPty + Send>>>,
    /// The other program's terminal the command runs in, when it does.
    hosted: Option<Hosted>,
    /// A partial line typed with `write_stdin` (the guard checks complete lines).
    pending_stdin: Mutex<String>,
}

impl ExecSession {
    pub async fn spawn(id: u32, req: SpawnRequest) -> Result<Arc<Self>, ToolError> {
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            ToolError::failed(format!("cannot {what} for the command: {e}"))
        };
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 200,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| failed("open a terminal", &e))?;
        let mut cmd = CommandBuilder::new(&req.shell);
        for name in memo_child_env::internal() {
            cmd.env_remove(name);
        }
        cmd.arg(if req.login { "-lc" } else { "-c" });
        cmd.arg(&req.command);
        cmd.cwd(&req.cwd);
        for (k, v) in &req.env {
            cmd.env(k, v);
        }
        let reader = pair
            .master
            .try_clone_reader()
            .map_err(|e| failed("read the terminal", &e))?;
        let writer = pair
            .master
            .take_writer()
            .map_err(|e| failed("write to the terminal", &e))?;
        let slave = pair.slave;
        let (spawned, status) =
            sandbox::run_sandboxed(req.sandbox, &req.writable_roots, move || {
                let child = slave.spawn_command(cmd).map_err(|e| e.to_string());
                // The child has its own copy; ours would keep the terminal open after it exits.
                drop(slave);
                child
            })
            .await?;
        let child = spawned.map_err(|e| {
            ToolError::new(
                ToolErrorKind::ExecutionFailed,
                format!("cannot start {}: {e}", req.shell),
            )
        })?;
        let pgid = child.process_id().and_then(|pid| i32::try_from(pid).ok());
        let session = Self::made(
            id,
            &req,
            status,
            Backend::Pty {
                pgid,
                writer,
                master: pair.master,
            },
        );
        session.start_reader(reader)?;
        session.start_waiter(child)?;
        Ok(session)
    }

    /// Runs the command in `host`'s terminal (see [`crate::exec::hosted`]); `None` when
    /// the sandbox is wanted and the host cannot run Memo's wrapper: the caller then runs
    /// it on Memo's own terminal.
    pub async fn spawn_hosted(
        id: u32,
        req: SpawnRequest,
        host: Arc<dyn TerminalHost>,
        call_id: Option<String>,
    ) -> Option<Result<Arc<Self>, ToolError>> {
        let argv = vec![
            req.shell.clone(),
            if req.login { "-lc" } else { "-c" }.to_owned(),
            req.command.clone(),
        ];
        let (program, args, status) =
            hosted::command_line(host.as_ref(), req.sandbox, &req.writable_roots, argv)?;
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let created = host
            .create(HostedCommand {
                program,
                args,
                cwd: hosted::absolute(&req.cwd),
                env: req.env.clone(),
                output_limit: hosted::OUTPUT_LIMIT,
                call_id,
            })
            .await;
        let terminal = match created {
            Ok(terminal) => terminal,
            Err(error) => {
                return Some(Err(ToolError::new(
                    ToolErrorKind::ExecutionFailed,
                    format!("the editor could not start the command in its terminal: {error}"),
                )))
            }
        };
        let session = Self::made(
            id,
            &req,
            status,
            Backend::Hosted(Hosted {
                host: host.clone(),
                terminal: terminal.clone(),
                runtime,
            }),
        );
        hosted::poll(host, terminal, Arc::downgrade(&session));
        Some(Ok(session))
    }

    /// A session of `req` whose command now runs on `backend`.
    fn made(id: u32, req: &SpawnRequest, sandbox: SandboxStatus, backend: Backend) -> Arc<Self> {
        let (pgid, writer, master, hosted) = match backend {
            Backend::Pty {
                pgid,
                writer,
                master,
            } => (pgid, Some(writer), Some(master), None),
            Backend::Hosted(hosted) => (None, None, None, Some(hosted)),
        };
        let (version, _) = watch::channel(0u64);
        Arc::new(Self {
            id,
            command: req.command.clone(),
            started: Instant::now(),
            sandbox,
            pgid,
            state: Mutex::new(State {
                live: req.live.then(Vec::new),
                ..State::default()
            }),
            version,
            writer: Mutex::new(writer),
            _master: Mutex::new(master),
            hosted,
            pending_stdin: Mutex::new(String::new()),
        })
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v = v.wrapping_add(1));
    }

    fn start_reader(self: &Arc<Self>, mut reader: Box<dyn Read + Send>) -> Result<(), ToolError> {
        let session = Arc::downgrade(self);
        std::thread::Builder::new()
            .name(format!("memo-exec-{}-out", self.id))
            .spawn(move || {
                let mut buf = [0u8; 8192];
                loop {
                    let n = match reader.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        // EIO: every holder of the terminal's other end has gone.
                        Err(_) => break,
                    };
                    let Some(s) = session.upgrade() else { return };
                    s.printed(&buf[..n]);
                }
                if let Some(s) = session.upgrade() {
                    lock(&s.state).reader_done = true;
                    s.bump();
                }
            })
            .map(|_| ())
            .map_err(|e| ToolError::failed(format!("cannot start the output reader: {e}")))
    }

    fn start_waiter(
        self: &Arc<Self>,
        mut child: Box<dyn Child + Send + Sync>,
    ) -> Result<(), ToolError> {
        let session = Arc::downgrade(self);
        std::thread::Builder::new()
            .name(format!("memo-exec-{}-wait", self.id))
            .spawn(move || {
                let info = match child.wait() {
                    Ok(status) => ExitInfo {
                        code: i32::try_from(status.exit_code()).unwrap_or(-1),
                        signal: status.signal().map(str::to_owned),
                    },
                    Err(e) => ExitInfo {
                        code: -1,
                        signal: Some(format!("wait failed: {e}")),
                    },
                };
                if let Some(s) = session.upgrade() {
                    let mut state = lock(&s.state);
                    state.exit = Some(info);
                    state.exited_at = Some(Instant::now());
                    drop(state);
                    s.bump();
                }
            })
            .map(|_| ())
            .map_err(|e| ToolError::failed(format!("cannot start the exit watcher: {e}")))
    }

    /// Kills the command's whole process group. The first reason sticks.
    pub fn kill(&self, reason: KillReason) {
        {
            let mut state = lock(&self.state);
            if state.exit.is_some() && state.reader_done {
                return;
            }
            state.killed.get_or_insert(reason);
        }
        if let Some(pgid) = self.pgid {
            // ESRCH (already gone) is fine.
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
        if let Some(hosted) = &self.hosted {
            hosted.kill();
        }
        self.bump();
    }

    pub fn exit(&self) -> Option<ExitInfo> {
        lock(&self.state).exit.clone()
    }

    pub fn killed(&self) -> Option<KillReason> {
        lock(&self.state).killed
    }

    /// Finished and fully drained: nothing will ever be printed again.
    pub fn is_done(&self) -> bool {
        let state = lock(&self.state);
        state.exit.is_some() && state.reader_done
    }

    /// Still holds the terminal (running, or exited with a background child on it).
    pub fn is_live(&self) -> bool {
        !self.is_done()
    }

    fn settled(&self) -> bool {
        let state = lock(&self.state);
        match state.exited_at {
            Some(at) => state.reader_done || at.elapsed() >= DRAIN_GRACE,
            None => false,
        }
    }

    /// Waits until the process has exited (and its output drained) or `yield_for` passed.
    /// Returns false when `cancel` fired first; the process group is then killed.
    pub async fn wait(&self, yield_for: Duration, cancel: &CancellationToken) -> bool {
        let deadline = tokio::time::Instant::now() + yield_for;
        let mut changes = self.version.subscribe();
        loop {
            if self.settled() {
                return true;
            }
            let grace = tokio::time::sleep(DRAIN_GRACE / 3);
            tokio::select! {
                _ = changes.changed() => {}
                // Re-check the drain grace now and then: no event marks its end.
                _ = grace => {}
                _ = tokio::time::sleep_until(deadline) => return true,
                _ = cancel.cancelled() => {
                    self.kill(KillReason::Interrupted);
                    return false;
                }
            }
        }
    }

    /// Resolves once the process has exited.
    pub async fn exited(&self) {
        let mut changes = self.version.subscribe();
        while lock(&self.state).exit.is_none() {
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// The unfinished line typed so far with `write_stdin`.
    pub fn pending_line(&self) -> String {
        lock(&self.pending_stdin).clone()
    }

    /// Keeps the unfinished last line of what was typed (bounded), so a command typed in
    /// pieces is still checked as a whole line.
    pub fn remember_typed(&self, chars: &str) {
        const MAX_PENDING: usize = 4096;
        let mut pending = lock(&self.pending_stdin);
        pending.push_str(chars);
        let normalized = pending.replace("\r\n", "\n").replace('\r', "\n");
        let rest = match normalized.rsplit_once('\n') {
            Some((_, rest)) => rest.to_owned(),
            None => normalized,
        };
        let skip = rest.chars().count().saturating_sub(MAX_PENDING);
        *pending = rest.chars().skip(skip).collect();
    }

    /// Starts keeping output for a live forwarder ([`Self::take_live`]).
    pub fn start_live(&self) {
        lock(&self.state).live.get_or_insert_with(Vec::new);
    }

    /// Output printed since the last call, while live forwarding is on.
    pub fn take_live(&self) -> Vec<u8> {
        lock(&self.state)
            .live
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Stops live forwarding; returns what was not taken yet.
    pub fn stop_live(&self) -> Vec<u8> {
        lock(&self.state).live.take().unwrap_or_default()
    }

    pub fn take_output(&self) -> Taken {
        let mut state = lock(&self.state);
        let finished = state.exit.is_some();
        state.output.take(finished)
    }

    /// Sends keystrokes to the terminal (blocking: runs on a blocking thread).
    pub async fn write(self: &Arc<Self>, chars: String) -> Result<(), ToolError> {
        if let Some(hosted) = &self.hosted {
            if hosted::is_interrupt(&chars) {
                hosted.kill();
                return Ok(());
            }
            return Err(ToolError::invalid_input(format!(
                "session {} runs in the editor's terminal, which takes no typed input (ACP terminals have none): send \"\\u0003\" to stop it, or run the command with its answers as arguments or piped in",
                self.id
            )));
        }
        let session = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut writer = lock(&session.writer);
            let Some(w) = writer.as_mut() else {
                return Err(ToolError::failed("the session's input is closed"));
            };
            w.write_all(chars.as_bytes())
                .and_then(|_| w.flush())
                .map_err(|e| {
                    ToolError::failed(format!("cannot write to session {}: {e}", session.id))
                })
        })
        .await
        .map_err(|e| ToolError::failed(format!("write task failed: {e}")))?
    }
}

/// Where a session's command runs.
enum Backend {
    /// Memo's own pseudo-terminal.
    Pty {
        pgid: Option<i32>,
        writer: Box<dyn Write + Send>,
        master: Box<dyn MasterPty + Send>,
    },
    Hosted(Hosted),
}

/// The other program's terminal a session's command runs in.
struct Hosted {
    host: Arc<dyn TerminalHost>,
    terminal: String,
    /// Kills are asked for from synchronous code (the session's end, a timeout).
    runtime: tokio::runtime::Handle,
}

impl Hosted {
    fn kill(&self) {
        let asked = self.host.kill(&self.terminal);
        self.runtime.spawn(async move {
            let _ = asked.await;
        });
    }
}

impl HostedSink for ExecSession {
    fn printed(&self, bytes: &[u8]) {
        let mut state = lock(&self.state);
        state.output.push(bytes);
        if let Some(live) = state.live.as_mut() {
            let room = LIVE_PENDING_MAX.saturating_sub(live.len());
            live.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
        drop(state);
        self.bump();
    }

    fn exited(&self, exit: ExitInfo) {
        let mut state = lock(&self.state);
        state.exit = Some(exit);
        state.exited_at = Some(Instant::now());
        // The host's output was fetched once more with the exit: nothing follows.
        state.reader_done = true;
        drop(state);
        self.bump();
    }
}

/// The sessions of one agent session (shared by exec_command and write_stdin).
pub struct ExecManager {
    sessions: Mutex<HashMap<u32, Arc<ExecSession>>>,
    next_id: AtomicU32,
    chunks: AtomicU64,
    pub sandbox: SandboxPolicy,
    /// The "no Landlock on this kernel" note is given once per session.
    sandbox_note_given: AtomicBool,
}

impl ExecManager {
    pub fn new(sandbox: SandboxPolicy) -> Self {
        Self {
            sessions: Mutex::new(HashMap::new()),
            next_id: AtomicU32::new(1),
            chunks: AtomicU64::new(0),
            sandbox,
            sandbox_note_given: AtomicBool::new(false),
        }
    }

    pub fn next_id(&self) -> Result<u32, ToolError> {
        // Count only sessions still holding a terminal; finished ones stay until their
        // last output has been delivered (`forget_if_done`), or a later write_stdin on
        // them would lose it.
        let sessions = lock(&self.sessions);
        if sessions.values().filter(|s| s.is_live()).count() >= MAX_SESSIONS {
            return Err(ToolError::failed(format!(
                "too many running sessions ({MAX_SESSIONS}); finish or interrupt some (write_stdin with chars \"\\u0003\") first"
            )));
        }
        Ok(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    pub fn insert(&self, session: Arc<ExecSession>) {
        lock(&self.sessions).insert(session.id, session);
    }

    pub fn get(&self, id: u32) -> Option<Arc<ExecSession>> {
        lock(&self.sessions).get(&id).cloned()
    }

    /// Forgets a session once everything it printed has been delivered.
    pub fn forget_if_done(&self, session: &ExecSession) {
        let mut sessions = lock(&self.sessions);
        if session.is_done() {
            sessions.remove(&session.id);
        }
    }

    pub fn chunk_id(&self) -> String {
        let n = self.chunks.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        format!(
            "{:06x}",
            (u64::from(nanos) ^ n.wrapping_mul(0x9e37_79b9)) & 0xff_ffff
        )
    }

    /// True the first time it is called: the caller then tells the model once.
    pub fn take_sandbox_note(&self) -> bool {
        !self.sandbox_note_given.swap(true, Ordering::Relaxed)
    }
}

impl ExecManager {
    /// Kills every running command (session end).
    pub fn kill_all(&self) {
        let sessions = self
            .sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for session in sessions.values() {
            session.kill(KillReason::SessionEnded);
        }
    }
}

impl Drop for ExecManager {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// Kills the session when `cancel` fires (a user interrupt), until the process exits.
pub fn kill_on_cancel(session: &Arc<ExecSession>, cancel: CancellationToken) {
    let session = session.clone();
    tokio::spawn(async move {
        tokio::select! {
            _ = cancel.cancelled() => session.kill(KillReason::Interrupted),
            _ = session.exited() => {}
        }
    });
}

/// Kills the session if it is still running after `timeout`.
pub fn kill_after(session: &Arc<ExecSession>, timeout: Duration) {
    let session = session.clone();
    tokio::spawn(async move {
        tokio::select! {
            _ = tokio::time::sleep(timeout) => session.kill(KillReason::TimedOut),
            _ = session.exited() => {}
        }
    });
}
