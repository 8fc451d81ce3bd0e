//! What the shell tells the window on its own — a notification was clicked, a second launch
//! handed over a folder — through one channel the window opens at start.
//!
//! Not Tauri events: `listen` and `emit` each run a script in the page, and WebKit reads
//! every such script's result into a JavaScript engine of the app process, which then
//! stays (~3 MiB, measured at idle). A page channel's messages are fetched by the page
//! instead (see `page_channel`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use memo_protocol::WindowSignal;

use crate::page_channel::PageChannel;

/// Delivers signals to the window (a channel to the page in the app, a vector in tests).
pub trait SignalSink: Send + 'static {
    /// Returns false once the window is gone.
    fn send(&self, signal: WindowSignal) -> bool;
}

impl SignalSink for PageChannel<WindowSignal> {
    fn send(&self, signal: WindowSignal) -> bool {
        PageChannel::send(self, &signal)
    }
}

/// The window's signal channel; a reloaded page subscribes again and replaces it.
#[derive(Default)]
pub struct WindowSignals {
    sink: Mutex<Option<Box<dyn SignalSink>>>,
}

impl WindowSignals {
    fn sink(&self) -> MutexGuard<'_, Option<Box<dyn SignalSink>>> {
        self.sink.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn subscribe(&self, sink: impl SignalSink) {
        *self.sink() = Some(Box::new(sink));
    }

    /// Sends `signal` to the window; false when no window listens (it has not subscribed
    /// yet, or is gone), so the caller can say the signal was lost.
    pub fn send(&self, signal: WindowSignal) -> bool {
        let mut sink = self.sink();
        let delivered = sink.as_ref().is_some_and(|s| s.send(signal));
        if !delivered {
            *sink = None;
        }
        delivered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::SessionId;
    use std::sync::mpsc;

    struct VecSink(mpsc::Sender<WindowSignal>);

    impl SignalSink for VecSink {
        fn send(&self, signal: WindowSignal) -> bool {
            self.0.send(signal).is_ok()
        }
    }

    #[test]
    fn signals_reach_the_last_subscriber_and_none_is_delivered_without_one() {
        let signals = WindowSignals::default();
        assert!(!signals.send(WindowSignal::OpenRequests));
        let (old_tx, old_rx) = mpsc::channel();
        signals.subscribe(VecSink(old_tx));
        let (tx, rx) = mpsc::channel();
        signals.subscribe(VecSink(tx));
        let open = WindowSignal::OpenSession {
            session_id: SessionId::new("s1"),
        };
        assert!(signals.send(open.clone()));
        assert_eq!(rx.try_recv().unwrap(), open);
        assert!(old_rx.try_recv().is_err());
        // The window went away: the signal is reported lost, and so is the next.
        drop(rx);
        assert!(!signals.send(WindowSignal::OpenRequests));
        assert!(!signals.send(WindowSignal::OpenRequests));
    }
}
