//! Which process runs a session live, so two never write one session's log at once.
//!
//! The window, `memo-cli exec --resume` and an editor's `memo-cli acp` share one store.
//! Two of them running the same session would both append events after the same `seq`
//! and one would fail mid-turn. So a process holds a session while it runs it: a row
//! naming the process, taken in one transaction, released when the session closes. A
//! row whose process is gone (it crashed, or the machine restarted) holds nothing: the
//! process is recognised by its pid, its start time and the boot it ran in, so a pid
//! reused by another program does not count.

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use crate::{Result, Store};
use memo_protocol::SessionId;

/// A running process, as the holds table names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    /// Clock ticks after boot at which it started (`/proc/PID/stat`, field 22).
    pub started: u64,
    pub boot_id: String,
    /// What it is, for the person told it holds a session: `memo-cli acp`, `memo-desktop`.
    pub program: String,
}

impl Holder {
    /// This process; `None` where `/proc` cannot say (then nothing is held, as before).
    pub fn current() -> Option<Holder> {
        let pid = std::process::id();
        let program = std::env::args()
            .take(2)
            .enumerate()
            .map(|(i, arg)| match i {
                0 => std::path::Path::new(&arg)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or(arg),
                _ => arg,
            })
            .collect::<Vec<_>>()
            .join(" ");
        Some(Holder {
            pid,
            started: start_time(pid)?,
            boot_id: boot_id()?,
            program,
        })
    }

    /// Whether this process still runs.
    pub fn is_alive(&self) -> bool {
        boot_id().as_deref() == Some(self.boot_id.as_str())
            && start_time(self.pid) == Some(self.started)
    }

    fn same_process(&self, other: &Holder) -> bool {
        self.pid == other.pid && self.started == other.started && self.boot_id == other.boot_id
    }
}

fn boot_id() -> Option<String> {
    let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    Some(id.trim().to_owned())
}

/// Field 22 of `/proc/PID/stat`. The command name (field 2) is in parentheses and may
/// hold spaces and parentheses itself: the fields are counted after its last `)`.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    // Field 3 is the first after the name; field 22 is the 20th from there.
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// The hold recorded for `session`, whether its process lives or not.
fn recorded(conn: &rusqlite::Connection, session: &SessionId) -> rusqlite::Result<Option<Holder>> {
    conn.query_row(
        "SELECT pid, started, boot_id, program FROM session_holds WHERE session_id = ?1",
        params![session.as_str()],
        |row| {
            Ok(Holder {
                pid: row.get(0)?,
                started: row.get::<_, i64>(1)? as u64,
                boot_id: row.get(2)?,
                program: row.get(3)?,
            })
        },
    )
    .optional()
}

impl Store {
    /// Takes `session` for `me`. Returns the live process that holds it instead, when
    /// there is one; a hold left by a process that is gone is taken over.
    pub fn hold(&self, session: &SessionId, me: &Holder) -> Result<Option<Holder>> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let existing = recorded(&tx, session)?;
        if let Some(other) = existing {
            if !other.same_process(me) && other.is_alive() {
                return Ok(Some(other));
            }
        }
        tx.execute(
            "INSERT OR REPLACE INTO session_holds (session_id, pid, started, boot_id, program, since_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                session.as_str(),
                me.pid,
                me.started as i64,
                me.boot_id,
                me.program,
                crate::now_ms() as i64
            ],
        )?;
        tx.commit()?;
        Ok(None)
    }

    /// Lets go of `session`, if `me` holds it.
    pub fn release(&self, session: &SessionId, me: &Holder) -> Result<()> {
        self.conn().execute(
            "DELETE FROM session_holds WHERE session_id = ?1 AND pid = ?2 AND started = ?3 AND boot_id = ?4",
            params![session.as_str(), me.pid, me.started as i64, me.boot_id],
        )?;
        Ok(())
    }

    /// The live process holding `session`, if another one does.
    pub fn holder(&self, session: &SessionId, me: Option<&Holder>) -> Result<Option<Holder>> {
        let held = recorded(&self.conn(), session)?;
        Ok(held.filter(|h| me.is_none_or(|me| !h.same_process(me)) && h.is_alive()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("s.sqlite")).unwrap();
        (dir, store)
    }

    #[test]
    fn this_process_is_recognised_and_a_dead_or_reused_pid_is_not() {
        let me = Holder::current().unwrap();
        assert!(me.is_alive());
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let gone = Holder {
            pid,
            started: 1,
            ..me.clone()
        };
        assert!(!gone.is_alive());
        let reused = Holder {
            started: me.started + 1,
            ..me.clone()
        };
        assert!(!reused.is_alive());
        let other_boot = Holder {
            boot_id: "another-boot".into(),
            ..me.clone()
        };
        assert!(!other_boot.is_alive());
    }

    #[test]
    fn a_live_holder_keeps_its_session_and_a_gone_one_is_taken_over() {
        let (_dir, store) = store();
        let session = SessionId::new("s1".to_owned());
        let me = Holder::current().unwrap();
        assert_eq!(store.hold(&session, &me).unwrap(), None);
        // Holding again is fine: it is ours.
        assert_eq!(store.hold(&session, &me).unwrap(), None);

        // Another live process (the test's parent stands in for one) keeps it.
        let parent = std::os::unix::process::parent_id();
        let other = Holder {
            pid: parent,
            started: start_time(parent).unwrap(),
            program: "memo-cli acp".into(),
            ..me.clone()
        };
        store.release(&session, &me).unwrap();
        assert_eq!(store.hold(&session, &other).unwrap(), None);
        assert_eq!(store.hold(&session, &me).unwrap(), Some(other.clone()));
        assert_eq!(
            store.holder(&session, Some(&me)).unwrap(),
            Some(other.clone())
        );
        // Releasing someone else's hold does nothing.
        store.release(&session, &me).unwrap();
        assert_eq!(store.holder(&session, Some(&me)).unwrap(), Some(other));

        // A holder that is gone holds nothing.
        let gone = Holder {
            started: 1,
            ..me.clone()
        };
        let session2 = SessionId::new("s2".to_owned());
        assert_eq!(store.hold(&session2, &gone).unwrap(), None);
        assert_eq!(store.holder(&session2, Some(&me)).unwrap(), None);
        assert_eq!(store.hold(&session2, &me).unwrap(), None);
    }
}
