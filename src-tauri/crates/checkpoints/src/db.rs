//! The checkpoint database (`checkpoints.db`, SQLite in WAL mode): what each workspace's
//! files held at the last scan, and the checkpoints with their per-file changes.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use crate::content::{Change, Content};
use crate::error::Result;
use crate::scan::Stat;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS workspaces (
    root TEXT PRIMARY KEY,
    -- Wall clock (ns) when the last scan started: files written in the same instant are
    -- hashed again next time, since their stat may not show a later change.
    last_scan_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    root TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    mode INTEGER NOT NULL,
    content TEXT,
    PRIMARY KEY (root, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    root TEXT NOT NULL,
    seq INTEGER NOT NULL,
    turn_id TEXT,
    call_id TEXT,
    source TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    -- done | pending (a restore writing files) | interrupted (a restore that was killed)
    state TEXT NOT NULL DEFAULT 'done'
);
CREATE INDEX IF NOT EXISTS checkpoints_by_session ON checkpoints(session_id, id);
CREATE TABLE IF NOT EXISTS changes (
    checkpoint_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    before TEXT,
    after TEXT,
    before_mode INTEGER NOT NULL,
    after_mode INTEGER NOT NULL,
    PRIMARY KEY (checkpoint_id, path)
) WITHOUT ROWID;
";

pub fn open(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // Survives a killed process (the issue here); a power cut may lose the newest commit.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

/// A file as the last scan saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub stat: Stat,
    pub content: Content,
}

/// A workspace's files as last seen, and when that scan started.
pub type Loaded = (Vec<(String, Known)>, Option<i64>);

pub fn load_files(conn: &Connection, root: &str) -> Result<Loaded> {
    let last: Option<i64> = conn
        .query_row(
            "SELECT last_scan_ns FROM workspaces WHERE root = ?1",
            [root],
            |r| r.get(0),
        )
        .optional()?;
    let mut stmt =
        conn.prepare("SELECT path, size, mtime_ns, ino, mode, content FROM files WHERE root = ?1")?;
    let rows = stmt
        .query_map([root], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Known {
                    stat: Stat {
                        size: r.get::<_, i64>(1)? as u64,
                        mtime_ns: r.get(2)?,
                        ino: r.get::<_, i64>(3)? as u64,
                        mode: r.get(4)?,
                    },
                    content: Content::from_sql(r.get(5)?),
                },
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok((rows, last))
}

/// Metadata of a new checkpoint.
#[derive(Debug, Clone)]
pub struct Meta {
    pub session_id: String,
    pub seq: u64,
    pub turn_id: Option<String>,
    pub call_id: Option<String>,
    pub source: String,
}

impl Meta {
    /// The same point, for changes found there that no tool of Memo's made.
    pub fn outside(&self) -> Meta {
        Meta {
            source: "outside".into(),
            call_id: None,
            ..self.clone()
        }
    }
}

/// What one scan found, written in one transaction: the checkpoint (when something
/// changed), its changes, and the new state of every file whose row changed.
pub struct Commit<'a> {
    pub root: &'a str,
    pub scan_ns: i64,
    pub meta: Option<&'a Meta>,
    pub state: &'a str,
    pub changes: &'a [Change],
    pub upserts: Vec<(&'a str, &'a Known)>,
    pub deletes: Vec<&'a str>,
}

pub fn commit(conn: &mut Connection, c: Commit<'_>) -> Result<Option<u64>> {
    let tx = conn.transaction()?;
    let mut id = None;
    if let Some(meta) = c.meta {
        tx.execute(
            "INSERT INTO checkpoints (session_id, root, seq, turn_id, call_id, source, created_ms, state)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                meta.session_id,
                c.root,
                meta.seq as i64,
                meta.turn_id,
                meta.call_id,
                meta.source,
                now_ms() as i64,
                c.state
            ],
        )?;
        let new_id = tx.last_insert_rowid() as u64;
        {
            let mut insert = tx.prepare(
                "INSERT INTO changes (checkpoint_id, path, before, after, before_mode, after_mode)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for ch in c.changes {
                insert.execute(params![
                    new_id as i64,
                    ch.path,
                    ch.before.to_sql(),
                    ch.after.to_sql(),
                    ch.before_mode,
                    ch.after_mode
                ])?;
            }
        }
        id = Some(new_id);
    }
    {
        let mut upsert = tx.prepare(
            "INSERT INTO files (root, path, size, mtime_ns, ino, mode, content)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (root, path) DO UPDATE SET size = excluded.size,
               mtime_ns = excluded.mtime_ns, ino = excluded.ino, mode = excluded.mode,
               content = excluded.content",
        )?;
        for (path, known) in &c.upserts {
            upsert.execute(params![
                c.root,
                path,
                known.stat.size as i64,
                known.stat.mtime_ns,
                known.stat.ino as i64,
                known.stat.mode,
                known.content.to_sql()
            ])?;
        }
        let mut delete = tx.prepare("DELETE FROM files WHERE root = ?1 AND path = ?2")?;
        for path in &c.deletes {
            delete.execute(params![c.root, path])?;
        }
    }
    tx.execute(
        "INSERT INTO workspaces (root, last_scan_ns) VALUES (?1, ?2)
         ON CONFLICT (root) DO UPDATE SET last_scan_ns = excluded.last_scan_ns",
        params![c.root, c.scan_ns],
    )?;
    tx.commit()?;
    Ok(id)
}

pub fn set_seq(conn: &Connection, id: u64, seq: u64) -> Result<()> {
    conn.execute(
        "UPDATE checkpoints SET seq = ?2 WHERE id = ?1",
        params![id as i64, seq as i64],
    )?;
    Ok(())
}

pub fn set_state(conn: &Connection, id: u64, state: &str) -> Result<()> {
    conn.execute(
        "UPDATE checkpoints SET state = ?2 WHERE id = ?1",
        params![id as i64, state],
    )?;
    Ok(())
}

/// Restores killed half-way are marked so they can be reported (and undone).
pub fn mark_interrupted(conn: &Connection, root: &str) -> Result<usize> {
    Ok(conn.execute(
        "UPDATE checkpoints SET state = 'interrupted' WHERE root = ?1 AND state = 'pending'",
        [root],
    )?)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointRow {
    pub id: u64,
    pub session_id: String,
    pub root: String,
    pub seq: u64,
    pub turn_id: Option<String>,
    pub call_id: Option<String>,
    pub source: String,
    pub created_ms: u64,
    pub state: String,
    pub changes: Vec<Change>,
}

/// A session's checkpoints, oldest first, with their changes; `from_id` and `turn_id`
/// narrow the list, `include_outside` keeps changes made outside Memo.
pub fn session_checkpoints(
    conn: &Connection,
    session_id: &str,
    from_id: u64,
    turn_id: Option<&str>,
    include_outside: bool,
) -> Result<Vec<CheckpointRow>> {
    let mut stmt = conn.prepare(
        "SELECT id, session_id, root, seq, turn_id, call_id, source, created_ms, state
         FROM checkpoints WHERE session_id = ?1 AND id >= ?2
           AND (?3 IS NULL OR turn_id = ?3) AND (?4 OR source != 'outside')
         ORDER BY id",
    )?;
    let mut rows = stmt
        .query_map(
            params![session_id, from_id as i64, turn_id, include_outside],
            |r| {
                Ok(CheckpointRow {
                    id: r.get::<_, i64>(0)? as u64,
                    session_id: r.get(1)?,
                    root: r.get(2)?,
                    seq: r.get::<_, i64>(3)? as u64,
                    turn_id: r.get(4)?,
                    call_id: r.get(5)?,
                    source: r.get(6)?,
                    created_ms: r.get::<_, i64>(7)? as u64,
                    state: r.get(8)?,
                    changes: Vec::new(),
                })
            },
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut changes = conn.prepare(
        "SELECT path, before, after, before_mode, after_mode FROM changes
         WHERE checkpoint_id = ?1 ORDER BY path",
    )?;
    for row in &mut rows {
        row.changes = changes
            .query_map([row.id as i64], |r| {
                Ok(Change {
                    path: r.get(0)?,
                    before: Content::from_sql(r.get(1)?),
                    after: Content::from_sql(r.get(2)?),
                    before_mode: r.get(3)?,
                    after_mode: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
    }
    Ok(rows)
}

/// The first checkpoint of a session recorded after event `seq`.
pub fn first_after_seq(conn: &Connection, session_id: &str, seq: u64) -> Result<Option<u64>> {
    Ok(conn
        .query_row(
            "SELECT MIN(id) FROM checkpoints WHERE session_id = ?1 AND seq > ?2",
            params![session_id, seq as i64],
            |r| r.get::<_, Option<i64>>(0),
        )?
        .map(|id| id as u64))
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}
