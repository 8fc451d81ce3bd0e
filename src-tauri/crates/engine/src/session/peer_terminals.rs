//! The terminals another agent asks Memo for (`terminal/*` in ACP): each a command on a
//! PTY of Memo's, with the sandbox Memo's own commands get, its output kept up to the
//! agent's byte limit (the oldest dropped first), killed when released or when the turn
//! that made it ends — nothing the agent started outlives its turn.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::peer::{PeerError, PeerExit, PeerOutput};
use crate::tools::exec::output::clean_terminal_text;
use crate::tools::{ExecSession, KillReason, SandboxPolicy, SpawnRequest};

/// Output kept when the agent sets no limit.
const DEFAULT_LIMIT: u64 = 1024 * 1024;
/// The most kept whatever the agent asks.
const MAX_LIMIT: u64 = 16 * 1024 * 1024;
/// What a terminal's watcher holds between looks at most.
const UNSENT_MAX: usize = 1024 * 1024;
/// How often a running terminal's new output is passed on to its card.
const LIVE_EVERY: Duration = Duration::from_millis(150);

/// Receives a terminal's new output as it runs (cleaned text), for its call's card.
pub(crate) type LiveOutput = Box<dyn Fn(String) + Send + Sync>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

struct Terminal {
    process: Arc<ExecSession>,
    /// Raw bytes kept (the newest `limit`).
    kept: Mutex<Vec<u8>>,
    truncated: Mutex<bool>,
    limit: usize,
    /// What it printed since its watcher last looked (the newest 1 MiB), when it has one.
    unsent: Option<Mutex<Vec<u8>>>,
    /// Released by the agent (or its turn ended): its watcher stops.
    released: std::sync::atomic::AtomicBool,
}

impl Terminal {
    /// Moves what the process printed since the last look into `kept` (and into what its
    /// watcher has not passed on yet).
    fn drain(&self) {
        let fresh = self.process.take_live();
        if fresh.is_empty() {
            return;
        }
        if let Some(unsent) = &self.unsent {
            let mut unsent = lock(unsent);
            unsent.extend_from_slice(&fresh);
            let over = unsent.len().saturating_sub(UNSENT_MAX);
            unsent.drain(..over);
        }
        let mut kept = lock(&self.kept);
        kept.extend_from_slice(&fresh);
        if kept.len() > self.limit {
            let mut cut = kept.len() - self.limit;
            // Never start in the middle of a UTF-8 character.
            while cut < kept.len() && (kept[cut] & 0b1100_0000) == 0b1000_0000 {
                cut += 1;
            }
            kept.drain(..cut);
            *lock(&self.truncated) = true;
        }
    }

    /// Passes what it prints on to `live` while it runs.
    async fn watch(self: Arc<Self>, live: LiveOutput) {
        loop {
            tokio::time::sleep(LIVE_EVERY).await;
            self.drain();
            let fresh = match &self.unsent {
                Some(unsent) => std::mem::take(&mut *lock(unsent)),
                None => return,
            };
            if !fresh.is_empty() {
                live(clean_terminal_text(&String::from_utf8_lossy(&fresh)));
            } else if self.process.is_done() || self.released.load(Ordering::Acquire) {
                return;
            }
        }
    }

    fn exit(&self) -> Option<PeerExit> {
        if !self.process.is_done() {
            return None;
        }
        let info = self.process.exit()?;
        Some(PeerExit {
            code: info.signal.is_none().then_some(info.code),
            signal: info.signal,
        })
    }
}

/// A terminal to start: the shell line, where, with what, and who watches it.
pub(crate) struct NewTerminal {
    pub command: String,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub sandbox: SandboxPolicy,
    pub writable_roots: Vec<PathBuf>,
    /// Output kept for `terminal/output`, at most (the newest).
    pub byte_limit: Option<u64>,
    pub live: Option<LiveOutput>,
}

#[derive(Default)]
pub(crate) struct Terminals {
    open: Mutex<HashMap<String, Arc<Terminal>>>,
    next: AtomicU32,
}

impl Terminals {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn next_id(&self) -> u32 {
        self.next.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn get(&self, id: &str) -> Result<Arc<Terminal>, PeerError> {
        lock(&self.open)
            .get(id)
            .cloned()
            .ok_or_else(|| PeerError(format!("no terminal {id} is open")))
    }

    pub async fn create(&self, new: NewTerminal) -> Result<String, PeerError> {
        let NewTerminal {
            command,
            cwd,
            env,
            sandbox,
            writable_roots,
            byte_limit,
            live,
        } = new;
        let number = self.next_id();
        let process = ExecSession::spawn(
            number,
            SpawnRequest {
                shell: crate::tools::default_shell(),
                login: false,
                command,
                cwd,
                env,
                sandbox,
                writable_roots,
                live: true,
            },
        )
        .await
        .map_err(|e| PeerError(e.message))?;
        let limit = byte_limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
        let id = format!("term-{number}");
        let terminal = Arc::new(Terminal {
            process,
            kept: Mutex::default(),
            truncated: Mutex::new(false),
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            unsent: live.is_some().then(Mutex::default),
            released: std::sync::atomic::AtomicBool::new(false),
        });
        if let Some(live) = live {
            tokio::spawn(terminal.clone().watch(live));
        }
        lock(&self.open).insert(id.clone(), terminal);
        Ok(id)
    }

    /// Whether terminal `id`'s command runs inside Memo's sandbox.
    pub fn sandboxed(&self, id: &str) -> bool {
        self.get(id).is_ok_and(|t| t.process.sandbox.active())
    }

    pub fn output(&self, id: &str) -> Result<PeerOutput, PeerError> {
        let terminal = self.get(id)?;
        terminal.drain();
        let raw = String::from_utf8_lossy(&lock(&terminal.kept)).into_owned();
        let truncated = *lock(&terminal.truncated);
        Ok(PeerOutput {
            output: clean_terminal_text(&raw),
            truncated,
            exit: terminal.exit(),
        })
    }

    pub async fn wait(&self, id: &str, cancel: &CancellationToken) -> Result<PeerExit, PeerError> {
        let terminal = self.get(id)?;
        loop {
            // `wait` returns at its deadline too: look again until it has really ended.
            if !terminal
                .process
                .wait(Duration::from_secs(3600), cancel)
                .await
            {
                return Err(PeerError("the turn was stopped".into()));
            }
            terminal.drain();
            if let Some(exit) = terminal.exit() {
                return Ok(exit);
            }
        }
    }

    pub fn kill(&self, id: &str) -> Result<(), PeerError> {
        self.get(id)?.process.kill(KillReason::Interrupted);
        Ok(())
    }

    pub fn release(&self, id: &str) -> Result<(), PeerError> {
        let terminal = lock(&self.open)
            .remove(id)
            .ok_or_else(|| PeerError(format!("no terminal {id} is open")))?;
        terminal.released.store(true, Ordering::Release);
        terminal.process.kill(KillReason::SessionEnded);
        Ok(())
    }

    pub fn release_all(&self) {
        for (_, terminal) in lock(&self.open).drain() {
            terminal.released.store(true, Ordering::Release);
            terminal.process.kill(KillReason::SessionEnded);
        }
    }
}

impl Drop for Terminals {
    fn drop(&mut self) {
        self.release_all();
    }
}
