//! The session's side of checkpoints: a baseline copy of the workspace taken in the
//! background when the session starts, a scan before each turn (changes made outside
//! Memo between turns) and around each mutating tool call (what the call changed, whatever
//! tool it was), announced as `files_changed` events.

use std::path::PathBuf;
use std::sync::Arc;

use memo_checkpoints::{Checkpoints, Meta, Recorded};
use memo_protocol::{AgentEvent, ToolCallId, TurnId};
use tokio::sync::OnceCell;

use super::scope::TurnScope;
use crate::changes::file_change;

pub(crate) struct Checkpointing {
    store: Checkpoints,
    root: PathBuf,
    session_id: String,
    /// Done once the workspace's baseline copy exists; mutating calls wait for it.
    baseline: OnceCell<()>,
}

impl Checkpointing {
    pub fn new(store: Checkpoints, root: PathBuf, session_id: String) -> Arc<Self> {
        Arc::new(Checkpointing {
            store,
            root,
            session_id,
            baseline: OnceCell::new(),
        })
    }

    fn meta(
        &self,
        seq: u64,
        turn: Option<&TurnId>,
        call: Option<&ToolCallId>,
        source: &str,
    ) -> Meta {
        Meta {
            session_id: self.session_id.clone(),
            seq,
            turn_id: turn.map(|t| t.0.clone()),
            call_id: call.map(|c| c.0.clone()),
            source: source.to_owned(),
        }
    }

    /// Starts the baseline copy without waiting for it.
    pub fn start(self: &Arc<Self>) {
        let this = self.clone();
        tokio::spawn(async move { this.ready().await });
    }

    /// Waits for the baseline copy (the first scan of a workspace reads every file).
    pub async fn ready(self: &Arc<Self>) {
        self.baseline
            .get_or_init(|| async {
                let this = self.clone();
                let done = tokio::task::spawn_blocking(move || {
                    this.store
                        .prepare(&this.root, &this.meta(0, None, None, "outside"))
                })
                .await;
                match done {
                    Ok(Ok(_)) => {}
                    Ok(Err(error)) => tracing::warn!(%error, "checkpoint baseline failed"),
                    Err(error) => tracing::warn!(%error, "checkpoint baseline panicked"),
                }
            })
            .await;
    }

    /// Records what changed outside Memo since the last scan, attributed to no tool.
    /// Skipped before the baseline exists (that copy is the state) and, with a file
    /// watcher, when nothing moved.
    pub async fn outside(self: &Arc<Self>, seq: u64, turn: Option<&TurnId>) {
        if !self.baseline.initialized() {
            return;
        }
        let meta = self.meta(seq, turn, None, "outside");
        self.scan(meta, true).await;
    }

    /// Before a mutating call: the baseline exists and changes since the last scan are
    /// someone else's, so the call is charged only with its own.
    pub async fn before_call(self: &Arc<Self>, scope: &TurnScope) {
        self.ready().await;
        let meta = self.meta(scope.last_seq(), scope.turn_id(), None, "outside");
        self.scan(meta, true).await;
    }

    /// After a call: what it changed, announced as `files_changed` (before its result).
    /// Returns the paths the call changed (workspace-relative), for its view.
    pub async fn after_call(
        self: &Arc<Self>,
        scope: &TurnScope,
        call: &ToolCallId,
        tool: &str,
    ) -> Vec<String> {
        let meta = self.meta(scope.last_seq(), scope.turn_id(), Some(call), tool);
        let Some(recorded) = self.scan(meta, false).await else {
            return Vec::new();
        };
        let paths: Vec<String> = recorded.changes.iter().map(|c| c.path.clone()).collect();
        let this = self.clone();
        let id = recorded.id;
        let source = tool.to_owned();
        let changes = tokio::task::spawn_blocking(move || {
            recorded
                .changes
                .iter()
                .map(|c| {
                    file_change(
                        &this.store,
                        &c.path,
                        &c.before,
                        &c.after,
                        vec![source.clone()],
                    )
                })
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        match scope.emit(AgentEvent::FilesChanged {
            call_id: Some(call.clone()),
            checkpoint: id,
            changes,
        }) {
            Ok(seq) => {
                if let Err(error) = self.store.set_seq(id, seq) {
                    tracing::warn!(%error, "could not link a checkpoint to its event");
                }
            }
            Err(error) => tracing::warn!(%error, "could not announce changed files"),
        }
        paths
    }

    async fn scan(self: &Arc<Self>, meta: Meta, skip_if_quiet: bool) -> Option<Recorded> {
        let this = self.clone();
        let done = tokio::task::spawn_blocking(move || {
            this.store.record(&this.root, &meta, skip_if_quiet)
        })
        .await;
        match done {
            Ok(Ok(recorded)) => recorded,
            Ok(Err(error)) => {
                tracing::warn!(%error, "checkpoint scan failed");
                None
            }
            Err(error) => {
                tracing::warn!(%error, "checkpoint scan panicked");
                None
            }
        }
    }
}
