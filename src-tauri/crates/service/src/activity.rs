//! The activity board: one [`SessionActivity`] per live session, kept current by a small
//! task per session that reads its events as they happen (`activity_feed`). Front ends
//! watch the board's version and read a snapshot when it moves, so a sidebar showing
//! twenty sessions costs twenty small records, not twenty event streams.
//!
//! Streamed deltas never touch the board: only the events that change what a glance shows
//! (a turn starting or ending, an approval or question asked or answered, an error) bump
//! its version.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use memo_protocol::{SessionActivity, SessionId};
use tokio::sync::watch;

/// Every live session's activity and a version that moves on each change.
pub(crate) struct ActivityBoard {
    entries: Mutex<HashMap<SessionId, SessionActivity>>,
    version: watch::Sender<u64>,
}

impl Default for ActivityBoard {
    fn default() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            version: watch::Sender::new(0),
        }
    }
}

impl ActivityBoard {
    fn entries(&self) -> MutexGuard<'_, HashMap<SessionId, SessionActivity>> {
        // Each critical section replaces or clones one record: a poisoned lock still
        // holds whole ones.
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// Puts a session on the board (replacing its old record).
    pub(crate) fn insert(&self, activity: SessionActivity) {
        self.entries().insert(activity.session_id.clone(), activity);
        self.bump();
    }

    /// Takes a session off the board.
    pub(crate) fn remove(&self, id: &SessionId) {
        if self.entries().remove(id).is_some() {
            self.bump();
        }
    }

    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    pub(crate) fn snapshot(&self) -> Vec<SessionActivity> {
        let mut all: Vec<_> = self.entries().values().cloned().collect();
        all.sort_by(|a, b| {
            b.updated_ms
                .cmp(&a.updated_ms)
                .then(a.session_id.cmp(&b.session_id))
        });
        all
    }

    /// Applies `change` to the session's entry (if it is still on the board) and bumps the
    /// version when it changed anything.
    pub(crate) fn update(&self, id: &SessionId, change: impl FnOnce(&mut SessionActivity)) {
        let changed = {
            let mut entries = self.entries();
            let Some(entry) = entries.get_mut(id) else {
                return;
            };
            let before = entry.clone();
            change(entry);
            if *entry != before {
                entry.updated_ms = now_ms();
                true
            } else {
                false
            }
        };
        if changed {
            self.bump();
        }
    }
}

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
