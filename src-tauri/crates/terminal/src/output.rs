//! From the PTY to the UI: a reader thread and a pump thread per terminal.
//!
//! The reader blocks in `read` on the master (only for as much as the flow-control window
//! allows) and hands each chunk to the pump. The pump coalesces chunks that arrive within a
//! few milliseconds into one message of at most `max_message` bytes — a burst of output
//! costs one IPC message and one render per frame, not one per `read` — and sends the exit
//! status as the very last message, after all output.
//!
//! Two threads rather than one with `poll`: the blocking read needs no unsafe fd juggling,
//! and the pump's timed receive gives the coalescing deadline for free.

use std::io::Read;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use base64::Engine as _;
use memo_protocol::TerminalMessage;

use crate::flow::Credits;
use crate::{Limits, TerminalSink};

/// Largest single `read` from the PTY.
const READ_CHUNK: usize = 16 * 1024;
/// How often an idle pump looks at the terminal's state (closed, exited).
const IDLE_POLL: Duration = Duration::from_millis(100);
/// After the shell exited: how long the pump waits for the PTY to reach end-of-file before
/// it reports the exit anyway. End-of-file never comes while a process that escaped the
/// session (its own `setsid`) still holds the terminal open.
const EXIT_DRAIN: Duration = Duration::from_secs(1);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the manager, the reader, the pump and the waiter share about one terminal.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) credits: Credits,
    /// The shell's exit: `Some(code)` once reaped (the code itself `None` for a signal),
    /// with when.
    exit: Mutex<Option<(Option<i32>, Instant)>>,
    exited: Condvar,
    /// Set by close: nothing is delivered any more.
    closed: Mutex<bool>,
    /// Set once the shell exited and its session was ended: the session id (the shell's
    /// pid) is free for the system to reuse, so it must never be signalled again.
    session_ended: std::sync::atomic::AtomicBool,
}

impl Shared {
    pub(crate) fn new(window: usize) -> Self {
        Self {
            credits: Credits::new(window),
            exit: Mutex::new(None),
            exited: Condvar::new(),
            closed: Mutex::new(false),
            session_ended: std::sync::atomic::AtomicBool::new(false),
        }
    }

    pub(crate) fn mark_session_ended(&self) {
        self.session_ended
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub(crate) fn session_ended(&self) -> bool {
        self.session_ended.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub(crate) fn set_exit(&self, code: Option<i32>) {
        *lock(&self.exit) = Some((code, Instant::now()));
        self.exited.notify_all();
    }

    pub(crate) fn exit(&self) -> Option<(Option<i32>, Instant)> {
        *lock(&self.exit)
    }

    pub(crate) fn close(&self) {
        *lock(&self.closed) = true;
        self.credits.stop();
        self.exited.notify_all();
    }

    pub(crate) fn is_closed(&self) -> bool {
        *lock(&self.closed)
    }

    /// Waits for the shell's exit code; `None` if the terminal is closed first.
    fn wait_exit(&self) -> Option<Option<i32>> {
        let mut exit = lock(&self.exit);
        loop {
            if let Some((code, _)) = *exit {
                return Some(code);
            }
            if self.is_closed() {
                return None;
            }
            exit = self
                .exited
                .wait_timeout(exit, IDLE_POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// The reader thread's body: PTY bytes into `chunks` until end-of-file (every slave fd is
/// closed: the session is gone) or until the terminal is closed.
pub(crate) fn read_pty(
    mut pty: Box<dyn Read + Send>,
    shared: Arc<Shared>,
    chunks: Sender<Vec<u8>>,
) {
    let mut buf = vec![0u8; READ_CHUNK];
    while let Some(room) = shared.credits.wait_for_room(buf.len()) {
        match pty.read(&mut buf[..room]) {
            // Linux reports a hung-up terminal as EIO rather than 0.
            Ok(0) => break,
            Ok(n) => {
                shared.credits.consumed(n);
                if chunks.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// The pump thread's body. `on_orphaned` runs when the sink reports its receiver gone:
/// output that nobody will see must not keep a shell running.
pub(crate) fn pump(
    chunks: Receiver<Vec<u8>>,
    sink: impl TerminalSink,
    shared: Arc<Shared>,
    limits: Limits,
    on_orphaned: impl FnOnce(),
) {
    let mut batcher = Batcher::new(sink, limits.max_message);
    loop {
        let first = match chunks.recv_timeout(IDLE_POLL) {
            Ok(chunk) => chunk,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                if shared.is_closed() {
                    return;
                }
                if exited_without_eof(&shared) {
                    break;
                }
                continue;
            }
        };
        let (batch, end) = coalesce(first, &chunks, limits.coalesce, limits.max_message);
        if shared.is_closed() {
            return;
        }
        if !batcher.send(&batch) {
            on_orphaned();
            return;
        }
        if end {
            break;
        }
    }
    // All output is out; the exit comes last.
    if let Some(code) = shared.wait_exit() {
        if !shared.is_closed() {
            batcher.finish(code);
        }
    }
}

/// The shell is gone, the UI has every byte read so far, and nothing came for a while:
/// something outside the session keeps the PTY open, so report the exit without waiting
/// for an end-of-file that may never come.
fn exited_without_eof(shared: &Shared) -> bool {
    matches!(shared.exit(), Some((_, at)) if at.elapsed() >= EXIT_DRAIN)
        && shared.credits.outstanding() == 0
}

/// `first` plus whatever arrives until `window` has passed or the batch is full; also
/// whether the reader ended.
fn coalesce(
    first: Vec<u8>,
    chunks: &Receiver<Vec<u8>>,
    window: Duration,
    max: usize,
) -> (Vec<u8>, bool) {
    let mut batch = first;
    let deadline = Instant::now() + window;
    while batch.len() < max {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        match chunks.recv_timeout(left) {
            Ok(chunk) => batch.extend_from_slice(&chunk),
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => return (batch, true),
        }
    }
    (batch, false)
}

/// Turns byte batches into messages no larger than `max` bytes each.
struct Batcher<S> {
    sink: S,
    max: usize,
}

impl<S: TerminalSink> Batcher<S> {
    fn new(sink: S, max: usize) -> Self {
        Self {
            sink,
            max: max.max(1),
        }
    }

    /// Returns false once the sink's receiver is gone.
    fn send(&mut self, bytes: &[u8]) -> bool {
        bytes.chunks(self.max).all(|part| {
            let data = base64::engine::general_purpose::STANDARD.encode(part);
            self.sink.send(TerminalMessage::Output { data })
        })
    }

    fn finish(&mut self, code: Option<i32>) {
        self.sink.send(TerminalMessage::Exit { code });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[derive(Clone, Default)]
    struct Recorder(Arc<Mutex<Vec<TerminalMessage>>>);

    impl TerminalSink for Recorder {
        fn send(&self, message: TerminalMessage) -> bool {
            self.0.lock().unwrap().push(message);
            true
        }
    }

    fn decode(message: &TerminalMessage) -> Vec<u8> {
        match message {
            TerminalMessage::Output { data } => base64::engine::general_purpose::STANDARD
                .decode(data)
                .unwrap(),
            TerminalMessage::Exit { .. } => panic!("not output"),
        }
    }

    #[test]
    fn large_batches_are_split_into_bounded_messages_without_losing_bytes() {
        let recorder = Recorder::default();
        let mut batcher = Batcher::new(recorder.clone(), 4);
        assert!(batcher.send(b"0123456789"));
        let messages = recorder.0.lock().unwrap().clone();
        let parts: Vec<Vec<u8>> = messages.iter().map(decode).collect();
        assert_eq!(parts, [b"0123".to_vec(), b"4567".to_vec(), b"89".to_vec()]);
    }

    #[test]
    fn chunks_arriving_together_become_one_batch() {
        let (tx, rx) = mpsc::channel();
        tx.send(b"b".to_vec()).unwrap();
        tx.send(b"c".to_vec()).unwrap();
        let (batch, end) = coalesce(b"a".to_vec(), &rx, Duration::from_millis(50), 1024);
        assert_eq!(batch, b"abc");
        assert!(!end);
        drop(tx);
        let (batch, end) = coalesce(b"d".to_vec(), &rx, Duration::from_secs(60), 1024);
        assert_eq!(batch, b"d");
        assert!(end, "a finished reader ends the batch at once");
    }

    #[test]
    fn a_full_batch_goes_out_without_waiting_for_the_window() {
        let (tx, rx) = mpsc::channel();
        tx.send(vec![1; 8]).unwrap();
        let started = Instant::now();
        let (batch, _) = coalesce(vec![0; 8], &rx, Duration::from_secs(60), 16);
        assert_eq!(batch.len(), 16);
        assert!(started.elapsed() < Duration::from_secs(30));
        drop(tx);
    }

    #[test]
    fn the_exit_comes_after_all_output() {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(Shared::new(1024));
        let recorder = Recorder::default();
        tx.send(b"bye".to_vec()).unwrap();
        drop(tx);
        shared.set_exit(Some(3));
        pump(rx, recorder.clone(), shared, Limits::default(), || {});
        let messages = recorder.0.lock().unwrap().clone();
        assert_eq!(decode(&messages[0]), b"bye");
        assert_eq!(messages[1], TerminalMessage::Exit { code: Some(3) });
        assert_eq!(messages.len(), 2);
    }
}
