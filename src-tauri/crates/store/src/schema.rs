//! Embedded, versioned schema migrations.
//!
//! The schema version lives in `PRAGMA user_version`. Step `n` (1-based) turns a version
//! `n - 1` database into version `n`; a database is brought up to date by running every step
//! above its version, in order, inside one transaction. Steps are never edited once
//! released: a later change adds a new step, and the tests migrate from every earlier
//! version and compare the result with a fresh database.

use rusqlite::{Connection, Transaction, TransactionBehavior};

/// One schema step. `sql` may hold several statements; `backfill`, when set, runs after it
/// in the same transaction to derive the new tables' rows from data already stored (work
/// that needs Rust, such as decoding event payloads).
pub(crate) struct Migration {
    pub(crate) version: u32,
    pub(crate) sql: &'static str,
    pub(crate) backfill: Option<fn(&Transaction<'_>) -> rusqlite::Result<()>>,
}

/// Version 1: workspaces, sessions, events.
///
/// `events` keeps a rowid (no `WITHOUT ROWID`) because payloads can be large tool outputs,
/// and SQLite recommends rowid tables for wide rows.
const V1: &str = "
CREATE TABLE workspaces (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL UNIQUE,
    created_ms  INTEGER NOT NULL
);

CREATE TABLE sessions (
    id                 TEXT PRIMARY KEY NOT NULL,
    workspace_id       INTEGER NOT NULL REFERENCES workspaces(id),
    title              TEXT,
    cwd                TEXT NOT NULL,
    provider           TEXT NOT NULL,
    model              TEXT NOT NULL,
    created_ms         INTEGER NOT NULL,
    updated_ms         INTEGER NOT NULL,
    parent_session_id  TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    fork_seq           INTEGER
);
CREATE INDEX sessions_by_updated ON sessions(updated_ms DESC, id DESC);
CREATE INDEX sessions_by_workspace ON sessions(workspace_id, updated_ms DESC, id DESC);
CREATE INDEX sessions_by_parent ON sessions(parent_session_id);

CREATE TABLE events (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    turn_id     TEXT,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    ts_ms       INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);
";

/// Version 2: approvals, usage, full-text search, imported (read-only) sessions.
///
/// `usage`, `approvals` and `search_docs` are derived from the event log in the same
/// transaction as the events themselves (see `derive.rs`), so they can never disagree with
/// it. The FTS table holds only text; `search_docs` maps its rowids back to events, and a
/// trigger keeps the two in step when a session's rows are deleted (including by cascade).
const V2: &str = "
ALTER TABLE sessions ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN origin TEXT;
ALTER TABLE sessions ADD COLUMN origin_id TEXT;
CREATE UNIQUE INDEX sessions_by_origin ON sessions(origin, origin_id) WHERE origin IS NOT NULL;

CREATE TABLE approvals (
    session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    request_id     TEXT NOT NULL,
    turn_id        TEXT,
    requested_seq  INTEGER NOT NULL,
    tool_name      TEXT NOT NULL,
    risk           TEXT NOT NULL,
    fingerprint    TEXT NOT NULL,
    request        TEXT NOT NULL,
    requested_ms   INTEGER NOT NULL,
    decision       TEXT,
    resolved_seq   INTEGER,
    resolved_ms    INTEGER,
    PRIMARY KEY (session_id, request_id)
);

CREATE TABLE usage (
    session_id           TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq                  INTEGER NOT NULL,
    turn_id              TEXT,
    provider             TEXT NOT NULL,
    model                TEXT NOT NULL,
    input_tokens         INTEGER NOT NULL,
    output_tokens        INTEGER NOT NULL,
    cached_input_tokens  INTEGER NOT NULL,
    reasoning_tokens     INTEGER NOT NULL,
    cost_usd             REAL,
    ts_ms                INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE INDEX usage_by_model ON usage(provider, model);

CREATE TABLE search_docs (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    role        TEXT NOT NULL
);
CREATE INDEX search_docs_by_session ON search_docs(session_id, seq);
CREATE VIRTUAL TABLE search_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER search_docs_delete AFTER DELETE ON search_docs BEGIN
    DELETE FROM search_fts WHERE rowid = old.id;
END;
";

/// Version 3: subagents' sessions. A subagent's session names the agent type it ran as
/// and, in `parent_session_id`, the session that spawned it (with no `fork_seq`: it shares
/// none of its parent's history). Lists leave them out; they are read through their parent.
const V3: &str = "
ALTER TABLE sessions ADD COLUMN agent_type TEXT;
";

/// Version 4: which process runs a session live (`holds.rs`), so two processes on one
/// store never run the same session at once.
const V4: &str = "
CREATE TABLE session_holds (
    session_id  TEXT PRIMARY KEY NOT NULL,
    pid         INTEGER NOT NULL,
    started     INTEGER NOT NULL,
    boot_id     TEXT NOT NULL,
    program     TEXT NOT NULL,
    since_ms    INTEGER NOT NULL
);
";

/// Version 5: what a person marked in the changes panel outside git (a hunk kept, a file
/// reviewed), by session and path; `mark` names what was marked by its content, so a
/// changed hunk or file shows afresh (`reviews.rs`).
const V5: &str = "
CREATE TABLE review_marks (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    mark        TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (session_id, path, mark)
);
";

pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sql: V1,
        backfill: None,
    },
    Migration {
        version: 2,
        sql: V2,
        backfill: Some(crate::derive::backfill_all),
    },
    Migration {
        version: 3,
        sql: V3,
        backfill: None,
    },
    Migration {
        version: 4,
        sql: V4,
        backfill: None,
    },
    Migration {
        version: 5,
        sql: V5,
        backfill: None,
    },
];

/// The schema version this build writes and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))
        // A negative or huge value can only come from a foreign tool; treat it as "newer
        // than anything we know" so the file is left alone.
        .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

/// What [`migrate_to`] found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MigrateOutcome {
    /// Migrated (or already) at the target version; `from` is the version found.
    Done { from: u32 },
    /// The database is newer than `target`; nothing was changed.
    TooNew { found: u32 },
}

/// Brings the database to `target` (normally [`SCHEMA_VERSION`]; tests use lower targets
/// to build databases "as an older release left them").
///
/// The version is re-read inside an IMMEDIATE transaction so two processes opening the same
/// file at once cannot both run a step.
pub(crate) fn migrate_to(conn: &mut Connection, target: u32) -> rusqlite::Result<MigrateOutcome> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let from = user_version(&tx)?;
    if from > target {
        return Ok(MigrateOutcome::TooNew { found: from });
    }
    for step in MIGRATIONS
        .iter()
        .filter(|m| m.version > from && m.version <= target)
    {
        tx.execute_batch(step.sql)?;
        if let Some(backfill) = step.backfill {
            backfill(&tx)?;
        }
        // user_version is part of the database header and therefore transactional: a crash
        // before commit leaves both the tables and the version untouched.
        tx.pragma_update(None, "user_version", step.version)?;
        tracing::info!(version = step.version, "applied store migration");
    }
    tx.commit()?;
    Ok(MigrateOutcome::Done { from })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema as SQLite records it, for comparing two databases.
    fn schema_of(conn: &Connection) -> Vec<(String, String, String)> {
        let mut stmt = conn
            .prepare(
                "SELECT type, name, COALESCE(sql, '') FROM sqlite_master \
                 WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
            )
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn versions_are_dense_and_ordered() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(
                m.version as usize,
                i + 1,
                "migration {i} has the wrong version"
            );
        }
        assert_eq!(SCHEMA_VERSION as usize, MIGRATIONS.len());
    }

    #[test]
    fn every_earlier_version_migrates_to_the_fresh_schema() {
        let mut fresh = Connection::open_in_memory().unwrap();
        migrate_to(&mut fresh, SCHEMA_VERSION).unwrap();
        let expected = schema_of(&fresh);
        assert!(!expected.is_empty());

        for start in 0..SCHEMA_VERSION {
            let mut conn = Connection::open_in_memory().unwrap();
            assert_eq!(
                migrate_to(&mut conn, start).unwrap(),
                MigrateOutcome::Done { from: 0 }
            );
            assert_eq!(user_version(&conn).unwrap(), start);
            assert_eq!(
                migrate_to(&mut conn, SCHEMA_VERSION).unwrap(),
                MigrateOutcome::Done { from: start }
            );
            assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
            assert_eq!(schema_of(&conn), expected, "migrating from v{start}");
        }
    }

    #[test]
    fn migrating_twice_is_a_no_op() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate_to(&mut conn, SCHEMA_VERSION).unwrap();
        let before = schema_of(&conn);
        assert_eq!(
            migrate_to(&mut conn, SCHEMA_VERSION).unwrap(),
            MigrateOutcome::Done {
                from: SCHEMA_VERSION
            }
        );
        assert_eq!(schema_of(&conn), before);
    }

    #[test]
    fn newer_database_is_reported_and_left_alone() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        assert_eq!(
            migrate_to(&mut conn, SCHEMA_VERSION).unwrap(),
            MigrateOutcome::TooNew {
                found: SCHEMA_VERSION + 1
            }
        );
        assert!(schema_of(&conn).is_empty());
    }
}
