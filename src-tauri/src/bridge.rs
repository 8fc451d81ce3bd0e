//! Carries live sessions' events to the UI: one pump per session, from the engine's event
//! stream to a Tauri channel, coalescing streamed deltas into about one message a frame.
//! Long tool outputs go out cut to their start; the window reads them whole on demand.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use memo_protocol::{AgentEvent, EventEnvelope, SessionActivity, SessionId};
use memo_service::{for_window, EventReceiver, Result, Service};
use tokio::task::AbortHandle;

use crate::page_channel::PageChannel;

/// How long the pump waits to gather more deltas into one IPC message: about one frame,
/// so a fast stream costs one render per frame instead of one per token.
const DELTA_COALESCE: Duration = Duration::from_millis(16);
/// Upper bound of events per IPC message.
const MAX_BATCH: usize = 512;
/// Activity changes closer together than this go out as one snapshot.
const ACTIVITY_COALESCE: Duration = Duration::from_millis(40);

/// Delivers batches of events to one subscriber (a channel to the page in the app, a vector
/// in tests).
pub trait EventSink: Send + 'static {
    /// Returns false once the subscriber is gone.
    fn send(&self, batch: Vec<EventEnvelope>) -> bool;
}

impl EventSink for PageChannel<Vec<EventEnvelope>> {
    fn send(&self, batch: Vec<EventEnvelope>) -> bool {
        PageChannel::send(self, &batch)
    }
}

/// Delivers snapshots of every live session's activity.
pub trait ActivitySink: Send + 'static {
    /// Returns false once the subscriber is gone.
    fn send(&self, snapshot: Vec<SessionActivity>) -> bool;
}

impl ActivitySink for PageChannel<Vec<SessionActivity>> {
    fn send(&self, snapshot: Vec<SessionActivity>) -> bool {
        PageChannel::send(self, &snapshot)
    }
}

pub struct Bridge {
    service: Arc<Service>,
    /// One pump per session: a reloaded window resubscribes and replaces the old one.
    pumps: Mutex<HashMap<SessionId, AbortHandle>>,
    /// The one window's activity feed; a reload replaces it.
    activity: Mutex<Option<AbortHandle>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Bridge {
    pub fn new(service: Arc<Service>) -> Self {
        Self {
            service,
            pumps: Mutex::new(HashMap::new()),
            activity: Mutex::new(None),
        }
    }

    /// Sends every live session's activity to `sink` now and again whenever it changes,
    /// replacing an earlier subscriber. Must run inside the Tokio runtime.
    pub fn subscribe_activity(&self, sink: impl ActivitySink) {
        let service = self.service.clone();
        let mut changes = service.activity_changes();
        let feed = tokio::spawn(async move {
            loop {
                changes.mark_unchanged();
                if !sink.send(service.activity()) {
                    return;
                }
                if changes.changed().await.is_err() {
                    return;
                }
                // A turn ending brings several changes at once: one snapshot for them.
                tokio::time::sleep(ACTIVITY_COALESCE).await;
            }
        })
        .abort_handle();
        if let Some(old) = lock(&self.activity).replace(feed) {
            old.abort();
        }
    }

    /// Stops delivering a session's events (the session itself goes on).
    pub fn unsubscribe(&self, id: &SessionId) {
        if let Some(pump) = lock(&self.pumps).remove(id) {
            pump.abort();
        }
    }

    /// Streams the session's events after `after_seq` (stored ones first) to `sink`,
    /// replacing any earlier subscriber of this session. Must run inside the Tokio runtime.
    pub fn subscribe(&self, id: &SessionId, after_seq: u64, sink: impl EventSink) -> Result<()> {
        let events = self.service.subscribe(id, after_seq)?;
        let pump = tokio::spawn(pump(events, sink)).abort_handle();
        if let Some(old) = lock(&self.pumps).insert(id.clone(), pump) {
            old.abort();
        }
        Ok(())
    }

    /// Deletes a session (stopping it first) and its pump.
    pub async fn delete_session(&self, id: &SessionId) -> Result<()> {
        self.service.delete_session(id).await?;
        if let Some(pump) = lock(&self.pumps).remove(id) {
            pump.abort();
        }
        Ok(())
    }

    /// Stops every live session (pending approvals are denied, running turns interrupted),
    /// then the pumps, so the last events still reach the window.
    pub async fn shutdown(&self) {
        self.service.shutdown().await;
        for (_, pump) in lock(&self.pumps).drain() {
            pump.abort();
        }
        if let Some(feed) = lock(&self.activity).take() {
            feed.abort();
        }
    }
}

/// Where a pump reads a session's events: the engine's receiver (a channel in tests).
trait EventSource: Send + 'static {
    fn recv(&mut self) -> impl std::future::Future<Output = Option<EventEnvelope>> + Send;
    /// The next event if one is ready now.
    fn ready(&mut self) -> Option<EventEnvelope>;
}

impl EventSource for EventReceiver {
    fn recv(&mut self) -> impl std::future::Future<Output = Option<EventEnvelope>> + Send {
        EventReceiver::recv(self)
    }

    fn ready(&mut self) -> Option<EventEnvelope> {
        self.try_recv().ok()
    }
}

async fn pump(mut events: impl EventSource, sink: impl EventSink) {
    while let Some(first) = events.recv().await {
        let streaming = is_delta(&first.event);
        let mut batch = vec![for_window(first)];
        if streaming {
            tokio::time::sleep(DELTA_COALESCE).await;
        }
        while batch.len() < MAX_BATCH {
            match events.ready() {
                Some(env) => batch.push(for_window(env)),
                None => break,
            }
        }
        if !sink.send(batch) {
            return;
        }
    }
}

fn is_delta(event: &AgentEvent) -> bool {
    matches!(
        event,
        AgentEvent::TextDelta { .. }
            | AgentEvent::ReasoningDelta { .. }
            | AgentEvent::ToolCallArgsDelta { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_config::{MemoHome, MemoryCredentialStore};
    use memo_protocol::{Op, UserInput};
    use memo_service::StartRequest;
    use memo_test_support::{MockLlmServer, MockResponse};
    use std::sync::mpsc;

    struct VecSink(mpsc::Sender<Vec<EventEnvelope>>);

    impl EventSource for tokio::sync::mpsc::UnboundedReceiver<EventEnvelope> {
        fn recv(&mut self) -> impl std::future::Future<Output = Option<EventEnvelope>> + Send {
            tokio::sync::mpsc::UnboundedReceiver::recv(self)
        }

        fn ready(&mut self) -> Option<EventEnvelope> {
            self.try_recv().ok()
        }
    }

    impl EventSink for VecSink {
        fn send(&self, batch: Vec<EventEnvelope>) -> bool {
            self.0.send(batch).is_ok()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn deltas_arrive_batched_replay_first_and_a_resubscription_replaces_the_pump() {
        let long = "word ".repeat(200);
        let mock = MockLlmServer::start_with([MockResponse::text(long.trim_end())])
            .await
            .unwrap();
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            format!(
                "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"{}/v1\"\n",
                mock.base_url()
            ),
        )
        .unwrap();
        let service = Arc::new(Service::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
            Arc::new(|_: &str| None),
        ));
        let bridge = Bridge::new(service.clone());
        let summary = service
            .start_session(StartRequest {
                cwd: work.path().to_path_buf(),
                ..StartRequest::default()
            })
            .unwrap();
        let (old_tx, old_rx) = mpsc::channel();
        bridge.subscribe(&summary.id, 0, VecSink(old_tx)).unwrap();
        let (tx, rx) = mpsc::channel();
        bridge.subscribe(&summary.id, 0, VecSink(tx)).unwrap();
        service
            .submit(
                &summary.id,
                Op::UserTurn {
                    input: UserInput::text("hi"),
                },
            )
            .unwrap();
        let (mut text, mut seqs, mut batches) = (String::new(), Vec::new(), 0);
        'outer: loop {
            let batch = rx.recv_timeout(Duration::from_secs(10)).unwrap();
            batches += 1;
            for env in batch {
                seqs.push(env.seq);
                match env.event {
                    AgentEvent::TextDelta { delta } => text.push_str(&delta),
                    AgentEvent::TurnEnded { .. } => break 'outer,
                    _ => {}
                }
            }
        }
        assert_eq!(text, long.trim_end());
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
        assert!(
            batches < seqs.len(),
            "{batches} batches for {} events",
            seqs.len()
        );
        // The replaced subscriber got nothing of the turn.
        assert!(!old_rx
            .try_iter()
            .flatten()
            .any(|e| matches!(e.event, AgentEvent::TurnStarted { .. })));
        bridge.delete_session(&summary.id).await.unwrap();
        assert!(lock(&bridge.pumps).is_empty());
        bridge.shutdown().await;
        mock.shutdown().await;
    }

    struct ActivityVec(mpsc::Sender<Vec<SessionActivity>>);

    impl ActivitySink for ActivityVec {
        fn send(&self, snapshot: Vec<SessionActivity>) -> bool {
            self.0.send(snapshot).is_ok()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_activity_feed_sends_a_snapshot_now_and_at_each_change_to_the_last_subscriber() {
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"http://127.0.0.1:9/v1\"\n",
        )
        .unwrap();
        let service = Arc::new(Service::new(
            Ok(MemoHome::at(home.path())),
            Arc::new(MemoryCredentialStore::new()),
            Arc::new(|_: &str| None),
        ));
        let bridge = Bridge::new(service.clone());
        let (old_tx, old_rx) = mpsc::channel();
        bridge.subscribe_activity(ActivityVec(old_tx));
        assert_eq!(
            old_rx.recv_timeout(Duration::from_secs(10)).unwrap(),
            vec![]
        );
        let (tx, rx) = mpsc::channel();
        bridge.subscribe_activity(ActivityVec(tx));
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), vec![]);
        let summary = service
            .start_session(StartRequest {
                cwd: work.path().to_path_buf(),
                ..StartRequest::default()
            })
            .unwrap();
        let snapshot = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(snapshot.len(), 1);
        assert_eq!(snapshot[0].session_id, summary.id);
        // The replaced subscriber heard nothing more.
        assert!(old_rx.try_recv().is_err());
        bridge.delete_session(&summary.id).await.unwrap();
        let gone = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(gone.is_empty());
        bridge.shutdown().await;
    }

    #[tokio::test]
    async fn a_long_tool_output_goes_out_cut_to_its_start() {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let output = "a line of a long build log\n".repeat(1000);
        tx.send(EventEnvelope {
            session_id: SessionId::new("s"),
            turn_id: None,
            seq: 3,
            timestamp_ms: 0,
            event: AgentEvent::ToolCallEnd {
                view: None,
                call_id: memo_protocol::ToolCallId::new("c"),
                name: "exec_command".into(),
                status: memo_protocol::ToolStatus::Ok,
                error_kind: None,
                output: output.clone(),
                full_length: None,
            },
        })
        .unwrap();
        drop(tx);
        let (sent, received) = mpsc::channel();
        pump(rx, VecSink(sent)).await;
        let batch = received.recv().unwrap();
        match &batch[0].event {
            AgentEvent::ToolCallEnd {
                output: preview,
                full_length,
                ..
            } => {
                assert_eq!(*full_length, Some(output.len() as u64));
                assert!(output.starts_with(preview.as_str()) && preview.len() < 2048);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
