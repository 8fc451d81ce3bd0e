//! The embedded terminal's backend: interactive shells on pseudo-terminals.
//!
//! A [`TerminalManager`] owns every terminal of the app by [`TerminalId`]. Each terminal
//! streams its output to a [`TerminalSink`] (a Tauri channel in the app) as
//! [`TerminalMessage`]s: raw bytes in batches of a few milliseconds, then the exit status.
//!
//! Three promises:
//! - **Bounded memory.** Output is flow-controlled by credits the UI returns with
//!   [`TerminalManager::ack`] once it has rendered the bytes; with a full window the PTY is
//!   not read, and a program flooding the terminal blocks (see [`flow`](crate::flow)).
//! - **Nothing left behind.** Closing a terminal ends every process of its session,
//!   background jobs included: SIGHUP, then SIGKILL after a short grace. Dropping the
//!   manager closes everything and waits for it.
//! - **Ordered output.** Bytes arrive in order and the exit comes last.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod error;
mod flow;
mod output;
mod process;
mod terminal;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

pub use error::{Result, TerminalError};
pub use memo_protocol::{TerminalId, TerminalMessage};

use crate::terminal::Terminal;

/// Receives one terminal's messages, in order, on the terminal's own thread.
pub trait TerminalSink: Send + 'static {
    /// Returns false once the receiver is gone for good; the terminal then ends itself.
    fn send(&self, message: TerminalMessage) -> bool;
}

/// What to start a terminal with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRequest {
    /// The shell's working directory; must be an existing folder.
    pub cwd: PathBuf,
    pub cols: u16,
    pub rows: u16,
    /// `None`: `$SHELL`, else /bin/bash, else /bin/sh.
    pub shell: Option<PathBuf>,
    /// Terminals are closed together by group: the app uses the workspace folder, so
    /// closing a workspace ends its terminals.
    pub group: String,
}

/// Tuning of output batching, flow control and killing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes read from the PTY but not yet acked that a terminal may hold; at that many
    /// the reader stops reading.
    pub window: usize,
    /// Largest output message (before base64).
    pub max_message: usize,
    /// How long output is gathered into one message: about a frame.
    pub coalesce: Duration,
    /// Between SIGHUP and SIGKILL when a terminal closes.
    pub kill_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            // Enough for several screens of fast output in flight (so `cat` of a big file
            // runs at render speed without stalling on every round trip), small enough not
            // to matter for memory with many terminals open.
            window: 1024 * 1024,
            max_message: 64 * 1024,
            coalesce: Duration::from_millis(8),
            kill_grace: Duration::from_millis(500),
        }
    }
}

/// Flow-control state of one terminal, for diagnostics and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowState {
    /// Bytes read from the PTY and not yet acked.
    pub unacked: usize,
    pub window: usize,
    /// The reader is waiting for acks: the PTY is not being read.
    pub reader_waiting: bool,
}

/// Every open terminal of the app.
pub struct TerminalManager {
    terminals: Mutex<HashMap<TerminalId, Terminal>>,
    next_id: AtomicU32,
    limits: Limits,
}

impl Default for TerminalManager {
    fn default() -> Self {
        Self::new(Limits::default())
    }
}

impl TerminalManager {
    pub fn new(limits: Limits) -> Self {
        Self {
            terminals: Mutex::new(HashMap::new()),
            next_id: AtomicU32::new(1),
            limits,
        }
    }

    fn terminals(&self) -> MutexGuard<'_, HashMap<TerminalId, Terminal>> {
        // A panic elsewhere must not make terminals unclosable.
        self.terminals
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts a shell on a new PTY; its output goes to `sink` until it exits or is closed.
    pub fn open(&self, request: OpenRequest, sink: impl TerminalSink) -> Result<TerminalId> {
        let id = TerminalId(self.next_id.fetch_add(1, Ordering::Relaxed));
        let terminal = Terminal::open(id, request, sink, self.limits)?;
        self.terminals().insert(id, terminal);
        Ok(id)
    }

    /// Sends keystrokes or pasted text to the terminal. Queued, never blocks.
    pub fn write(&self, id: TerminalId, data: impl Into<Vec<u8>>) -> Result<()> {
        self.with(id, |t| t.write(data.into()))
    }

    pub fn resize(&self, id: TerminalId, cols: u16, rows: u16) -> Result<()> {
        self.with(id, |t| t.resize(cols, rows))
    }

    /// The UI rendered `bytes` more bytes of output: that much room opens in the window.
    pub fn ack(&self, id: TerminalId, bytes: usize) -> Result<()> {
        self.with(id, |t| {
            t.shared.credits.ack(bytes);
            Ok(())
        })
    }

    /// The shell's pid (also its session id), while the terminal is open.
    pub fn pid(&self, id: TerminalId) -> Result<Option<u32>> {
        self.with(id, |t| Ok(t.pid.and_then(|p| u32::try_from(p).ok())))
    }

    pub fn flow(&self, id: TerminalId) -> Result<FlowState> {
        self.with(id, |t| {
            let credits = &t.shared.credits;
            Ok(FlowState {
                unacked: credits.outstanding(),
                window: credits.window(),
                reader_waiting: credits.reader_waiting(),
            })
        })
    }

    /// Open terminals, in id order.
    pub fn ids(&self) -> Vec<TerminalId> {
        let mut ids: Vec<TerminalId> = self.terminals().keys().copied().collect();
        ids.sort();
        ids
    }

    fn with<T>(&self, id: TerminalId, f: impl FnOnce(&Terminal) -> Result<T>) -> Result<T> {
        match self.terminals().get(&id) {
            Some(terminal) => f(terminal),
            None => Err(TerminalError::NotFound(id)),
        }
    }

    /// Closes one terminal: no more output is delivered and its session is hung up now;
    /// SIGKILL follows in the background for whatever outlives the grace.
    pub fn close(&self, id: TerminalId) -> Result<()> {
        let terminal = self
            .terminals()
            .remove(&id)
            .ok_or(TerminalError::NotFound(id))?;
        self.end_in_background(vec![terminal]);
        Ok(())
    }

    /// Closes every terminal of `group` (see [`close`](Self::close)); returns how many.
    pub fn close_group(&self, group: &str) -> usize {
        let closing: Vec<Terminal> = {
            let mut terminals = self.terminals();
            let ids: Vec<TerminalId> = terminals
                .iter()
                .filter(|(_, t)| t.group == group)
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| terminals.remove(id)).collect()
        };
        let count = closing.len();
        self.end_in_background(closing);
        count
    }

    /// Closes every terminal (see [`close`](Self::close)); returns how many.
    pub fn close_all(&self) -> usize {
        let closing = self.take_all();
        let count = closing.len();
        self.end_in_background(closing);
        count
    }

    /// Closes every terminal and waits until their processes are gone (at most the grace
    /// plus a moment for SIGKILL): for the app's exit, when no background thread would
    /// survive to finish the job.
    pub fn shutdown(&self) {
        let closing = self.take_all();
        end_now(&closing, self.limits.kill_grace);
    }

    fn take_all(&self) -> Vec<Terminal> {
        self.terminals().drain().map(|(_, t)| t).collect()
    }

    fn end_in_background(&self, closing: Vec<Terminal>) {
        if closing.is_empty() {
            return;
        }
        // Nothing more reaches the UI from the moment close returns; the hang-up, the
        // grace and the SIGKILL for stragglers run on a thread.
        for terminal in &closing {
            terminal.stop_delivery();
        }
        let grace = self.limits.kill_grace;
        let spawned = std::thread::Builder::new()
            .name("terminal-close".into())
            .spawn(move || end_now(&closing, grace));
        if let Err(error) = spawned {
            tracing::warn!(%error, "no thread to finish closing terminals");
        }
    }
}

/// Ends the terminals' sessions (SIGHUP, grace, SIGKILL) and waits, then drops them,
/// which closes their PTYs.
fn end_now(terminals: &[Terminal], grace: Duration) {
    for terminal in terminals {
        terminal.stop_delivery();
    }
    // A session already ended with its shell is not signalled again: its id may by now
    // belong to an unrelated process that started a session of its own.
    let sids: Vec<i32> = terminals
        .iter()
        .filter(|t| !t.shared.session_ended())
        .filter_map(|t| t.pid)
        .collect();
    process::end_sessions(&sids, grace);
}

impl Drop for TerminalManager {
    fn drop(&mut self) {
        self.shutdown();
    }
}
