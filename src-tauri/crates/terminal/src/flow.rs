//! Credit-based flow control between the PTY reader and the UI.
//!
//! Every byte read from the PTY is "outstanding" until the UI acks it (after xterm.js has
//! rendered it). The reader only reads as many bytes as the window has room for, so the
//! bytes held anywhere between the PTY and the screen (the pump's queue, the IPC channel,
//! xterm's write buffer) never exceed the window. When the window is full the reader stops
//! reading, the kernel's PTY buffer fills, and the program writing to the terminal blocks
//! in `write` — `yes` or `cat bigfile` slow down to the speed the screen renders at instead
//! of growing memory without bound.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

#[derive(Debug, Default)]
struct State {
    outstanding: usize,
    stopped: bool,
    /// The reader is waiting for credit (for tests and diagnostics).
    waiting: bool,
}

#[derive(Debug)]
pub(crate) struct Credits {
    window: usize,
    state: Mutex<State>,
    changed: Condvar,
}

/// How often a waiting reader wakes to look at the stop flag even without an ack: the
/// stop path notifies too, this only bounds the cost of a missed wake-up.
const RECHECK: Duration = Duration::from_millis(250);

impl Credits {
    pub(crate) fn new(window: usize) -> Self {
        Self {
            // A zero window would never let a byte through.
            window: window.max(1),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Blocks until the window has room, then returns how many bytes (at most `max`) the
    /// reader may read now; `None` once stopped.
    pub(crate) fn wait_for_room(&self, max: usize) -> Option<usize> {
        let mut state = self.lock();
        loop {
            if state.stopped {
                state.waiting = false;
                return None;
            }
            let room = self.window.saturating_sub(state.outstanding);
            if room > 0 {
                state.waiting = false;
                return Some(room.min(max));
            }
            state.waiting = true;
            state = self
                .changed
                .wait_timeout(state, RECHECK)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// `n` bytes were read from the PTY and are on their way to the UI.
    pub(crate) fn consumed(&self, n: usize) {
        self.lock().outstanding += n;
    }

    /// The UI rendered `n` bytes. More than outstanding (a confused or reloaded UI) only
    /// empties the window; it never goes negative or grants extra room.
    pub(crate) fn ack(&self, n: usize) {
        let mut state = self.lock();
        state.outstanding = state.outstanding.saturating_sub(n);
        drop(state);
        self.changed.notify_all();
    }

    /// Wakes and ends a waiting reader for good.
    pub(crate) fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }

    pub(crate) fn outstanding(&self) -> usize {
        self.lock().outstanding
    }

    pub(crate) fn reader_waiting(&self) -> bool {
        self.lock().waiting
    }

    pub(crate) fn window(&self) -> usize {
        self.window
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn grants_at_most_the_room_left_in_the_window() {
        let credits = Credits::new(100);
        assert_eq!(credits.wait_for_room(64), Some(64));
        credits.consumed(64);
        assert_eq!(credits.wait_for_room(64), Some(36));
        credits.consumed(36);
        credits.ack(10);
        assert_eq!(credits.wait_for_room(64), Some(10));
        assert_eq!(credits.outstanding(), 90);
    }

    #[test]
    fn over_acking_empties_the_window_without_granting_extra() {
        let credits = Credits::new(100);
        credits.consumed(50);
        credits.ack(1_000);
        assert_eq!(credits.outstanding(), 0);
        assert_eq!(credits.wait_for_room(usize::MAX), Some(100));
    }

    #[test]
    fn a_full_window_blocks_until_an_ack() {
        let credits = Arc::new(Credits::new(10));
        credits.consumed(10);
        let reader = {
            let credits = credits.clone();
            std::thread::spawn(move || credits.wait_for_room(8))
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !credits.reader_waiting() {
            assert!(Instant::now() < deadline, "reader never waited");
            std::thread::sleep(Duration::from_millis(5));
        }
        credits.ack(3);
        assert_eq!(reader.join().unwrap(), Some(3));
        assert!(!credits.reader_waiting());
    }

    #[test]
    fn stop_ends_a_waiting_reader() {
        let credits = Arc::new(Credits::new(1));
        credits.consumed(1);
        let reader = {
            let credits = credits.clone();
            std::thread::spawn(move || credits.wait_for_room(8))
        };
        credits.stop();
        assert_eq!(reader.join().unwrap(), None);
    }
}
