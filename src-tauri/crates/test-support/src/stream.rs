//! Delivering SSE events over a real connection: pacing ("drip"), abrupt cuts and
//! hangs.
//!
//! A spawned task feeds the response body through a channel. Ending the body with an
//! error makes hyper drop the connection without the chunked terminator, which is
//! exactly what a client sees when a provider's stream dies mid-way.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use bytes::Bytes;
use tokio::sync::{mpsc, watch};

/// How long to let hyper flush the bytes already handed over before aborting the
/// connection; without the pause the abort can overtake them.
const FLUSH_GRACE: Duration = Duration::from_millis(50);

/// How a stream is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StreamPlan {
    /// Pause between consecutive events.
    pub drip: Duration,
    /// Pause before the first event.
    pub first_delay: Duration,
    pub end: StreamEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamEnd {
    /// Every event, then a clean end of body.
    Complete,
    /// `after` events (optionally plus half the next), then an aborted connection.
    Cut { after: usize, mid_event: bool },
    /// `after` events, then silence until the client leaves or the server stops.
    Hang { after: usize },
}

/// Counts streams still being delivered, so tests can see a client hang up.
#[derive(Debug, Default)]
pub(crate) struct ActiveStreams(AtomicUsize);

impl ActiveStreams {
    pub(crate) fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

struct ActiveGuard(Arc<ActiveStreams>);

impl ActiveGuard {
    fn new(active: Arc<ActiveStreams>) -> Self {
        active.0.fetch_add(1, Ordering::SeqCst);
        ActiveGuard(active)
    }
}

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0 .0.fetch_sub(1, Ordering::SeqCst);
    }
}

type Item = Result<Bytes, std::io::Error>;

fn aborted(reason: &str) -> Item {
    Err(std::io::Error::new(
        std::io::ErrorKind::ConnectionAborted,
        format!("mock LLM server: {reason}"),
    ))
}

/// Build a streaming body that plays `events` according to `plan`.
pub(crate) fn sse_body(
    events: Vec<Bytes>,
    plan: StreamPlan,
    shutdown: watch::Receiver<bool>,
    active: Arc<ActiveStreams>,
) -> Body {
    let (tx, rx) = mpsc::channel::<Item>(1);
    // Counted from here, not from when the task first runs, so a test that checks
    // right after the response headers arrive already sees the stream.
    let guard = ActiveGuard::new(active);
    tokio::spawn(async move {
        let _guard = guard;
        play(events, plan, tx, shutdown).await;
    });
    Body::from_stream(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    }))
}

/// Why a wait ended early.
enum Interrupted {
    ClientGone,
    Shutdown,
}

/// Resolves once the server starts shutting down. The watch guard is dropped
/// inside, so callers' futures stay `Send`.
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Sleep for `delay` unless the client leaves or the server stops first.
async fn pause(
    delay: Duration,
    tx: &mpsc::Sender<Item>,
    shutdown: &mut watch::Receiver<bool>,
) -> Result<(), Interrupted> {
    if delay.is_zero() {
        return Ok(());
    }
    tokio::select! {
        () = tokio::time::sleep(delay) => Ok(()),
        () = tx.closed() => Err(Interrupted::ClientGone),
        () = stopped(shutdown) => Err(Interrupted::Shutdown),
    }
}

/// Waits until `due` (at once when it has passed).
async fn pause_until(
    due: tokio::time::Instant,
    tx: &mpsc::Sender<Item>,
    shutdown: &mut watch::Receiver<bool>,
) -> Result<(), Interrupted> {
    if due <= tokio::time::Instant::now() {
        return Ok(());
    }
    tokio::select! {
        () = tokio::time::sleep_until(due) => Ok(()),
        () = tx.closed() => Err(Interrupted::ClientGone),
        () = stopped(shutdown) => Err(Interrupted::Shutdown),
    }
}

async fn play(
    events: Vec<Bytes>,
    plan: StreamPlan,
    tx: mpsc::Sender<Item>,
    mut shutdown: watch::Receiver<bool>,
) {
    let limit = match plan.end {
        StreamEnd::Complete => events.len(),
        StreamEnd::Cut { after, .. } | StreamEnd::Hang { after } => after.min(events.len()),
    };
    // Each event is due a drip after the one before, counted from the start rather than
    // from when the last one went out: a timer that wakes late (a 1 ms sleep often takes
    // two) does not slow the whole stream, so `drip` sets its rate.
    let mut due = tokio::time::Instant::now();
    for (i, event) in events.iter().take(limit).enumerate() {
        due += if i == 0 { plan.first_delay } else { plan.drip };
        {
            match pause_until(due, &tx, &mut shutdown).await {
                Ok(()) => {}
                Err(Interrupted::ClientGone) => return,
                Err(Interrupted::Shutdown) => {
                    let _ = tx.send(aborted("server shutting down")).await;
                    return;
                }
            }
        }
        if tx.send(Ok(event.clone())).await.is_err() {
            return; // client went away
        }
    }

    match plan.end {
        StreamEnd::Complete => {} // dropping `tx` ends the body cleanly
        StreamEnd::Cut { after, mid_event } => {
            if mid_event {
                if let Some(next) = events.get(after) {
                    if after > 0 && pause(plan.drip, &tx, &mut shutdown).await.is_err() {
                        return;
                    }
                    let half = next.slice(..next.len() / 2);
                    if tx.send(Ok(half)).await.is_err() {
                        return;
                    }
                }
            }
            tokio::time::sleep(FLUSH_GRACE).await;
            let _ = tx.send(aborted("stream cut by script")).await;
        }
        StreamEnd::Hang { .. } => {
            tokio::select! {
                () = tx.closed() => {}
                () = stopped(&mut shutdown) => {
                    let _ = tx.send(aborted("server shutting down")).await;
                }
            }
        }
    }
}
