//! Sessions and the workspaces (working directories) they belong to.

use memo_protocol::SessionId;
use rusqlite::{params, OptionalExtension, Row, Transaction, TransactionBehavior};

use crate::{from_sql_int, now_ms, to_sql_int, Result, Store, StoreError};

/// What the engine knows when it starts a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub id: SessionId,
    /// The working directory; sessions sharing it belong to the same workspace. Stored as
    /// given, so the caller should pass a canonical path.
    pub cwd: String,
    pub provider: String,
    pub model: String,
    pub title: Option<String>,
}

/// One row of the `sessions` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub id: SessionId,
    pub workspace_id: i64,
    pub title: Option<String>,
    pub cwd: String,
    pub provider: String,
    pub model: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Time of the last appended event (or creation); lists are ordered by it.
    pub updated_ms: u64,
    /// Set for a fork: the session it was forked from...
    pub parent_session_id: Option<SessionId>,
    /// ...and the last seq of the parent that the fork shares.
    pub fork_seq: Option<u64>,
    /// Imported history: kept as it was; continuing it forks a new session.
    pub read_only: bool,
    /// Where an imported session came from (`memo-code`), and its id there.
    pub origin: Option<String>,
    pub origin_id: Option<String>,
    /// Set for a subagent's session: the agent type it ran as (its parent is
    /// `parent_session_id`).
    pub agent_type: Option<String>,
}

/// A fork: a new session sharing `source`'s history up to and including `at_seq`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkSpec {
    pub source: SessionId,
    pub at_seq: u64,
    pub new_id: SessionId,
    pub title: Option<String>,
    /// Overrides of the source's provider and model (a read-only import may name a
    /// provider that is not configured here).
    pub provider: Option<String>,
    pub model: Option<String>,
}

const SESSION_COLUMNS: &str = "id, workspace_id, title, cwd, provider, model, created_ms, \
                               updated_ms, parent_session_id, fork_seq, read_only, origin, \
                               origin_id, agent_type";

fn session_from_row(row: &Row<'_>) -> rusqlite::Result<SessionRecord> {
    Ok(SessionRecord {
        id: SessionId(row.get(0)?),
        workspace_id: row.get(1)?,
        title: row.get(2)?,
        cwd: row.get(3)?,
        provider: row.get(4)?,
        model: row.get(5)?,
        created_ms: from_sql_int(row.get(6)?),
        updated_ms: from_sql_int(row.get(7)?),
        parent_session_id: row.get::<_, Option<String>>(8)?.map(SessionId),
        fork_seq: row.get::<_, Option<i64>>(9)?.map(from_sql_int),
        read_only: row.get(10)?,
        origin: row.get(11)?,
        origin_id: row.get(12)?,
        agent_type: row.get(13)?,
    })
}

impl Store {
    /// Creates a session, creating or reusing the workspace for its `cwd`.
    pub fn create_session(&self, new: &NewSession) -> Result<SessionRecord> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let record = insert_session(&tx, new, now_ms(), None)?;
        tx.commit()?;
        Ok(record)
    }

    /// Creates a subagent's session, spawned by `parent` and running as `agent_type`, in
    /// one transaction (a crash never leaves it listed as an ordinary session).
    pub fn create_subagent_session(
        &self,
        new: &NewSession,
        parent: &SessionId,
        agent_type: &str,
    ) -> Result<SessionRecord> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut record = insert_session(&tx, new, now_ms(), None)?;
        tx.prepare_cached(
            "UPDATE sessions SET parent_session_id = ?2, agent_type = ?3 WHERE id = ?1",
        )?
        .execute(params![new.id.as_str(), parent.as_str(), agent_type])?;
        tx.commit()?;
        record.parent_session_id = Some(parent.clone());
        record.agent_type = Some(agent_type.to_owned());
        Ok(record)
    }

    pub fn session(&self, id: &SessionId) -> Result<Option<SessionRecord>> {
        let conn = self.conn();
        let sql = format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1");
        let record = conn
            .prepare_cached(&sql)?
            .query_row([id.as_str()], session_from_row)
            .optional()?;
        Ok(record)
    }

    /// How many sessions there are (in the workspace of `cwd`, when given).
    pub fn count_sessions(&self, cwd: Option<&str>) -> Result<u64> {
        let conn = self.conn();
        let n: i64 = conn
            .prepare_cached(
                "SELECT count(*) FROM sessions WHERE agent_type IS NULL AND (?1 IS NULL \
                 OR workspace_id = (SELECT id FROM workspaces WHERE path = ?1))",
            )?
            .query_row([cwd], |r| r.get(0))?;
        Ok(from_sql_int(n))
    }

    /// Sessions, most recently active first (ties broken by id, so paging is stable).
    /// With `cwd`, only the sessions of that workspace.
    pub fn list_sessions(
        &self,
        cwd: Option<&str>,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SessionRecord>> {
        // SQLite's LIMIT is an i64; anything larger means "all of them" anyway.
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let conn = self.conn();
        let rows = match cwd {
            Some(cwd) => {
                let sql = format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions \
                     WHERE workspace_id = (SELECT id FROM workspaces WHERE path = ?1) \
                     AND agent_type IS NULL \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?2 OFFSET ?3"
                );
                let mut stmt = conn.prepare_cached(&sql)?;
                let rows = stmt.query_map(params![cwd, limit, offset], session_from_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            }
            None => {
                let sql = format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions WHERE agent_type IS NULL \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?1 OFFSET ?2"
                );
                let mut stmt = conn.prepare_cached(&sql)?;
                let rows = stmt.query_map(params![limit, offset], session_from_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            }
        };
        Ok(rows)
    }

    /// The sessions forked from `parent`, oldest first.
    pub fn forks_of(&self, parent: &SessionId) -> Result<Vec<SessionRecord>> {
        let conn = self.conn();
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE parent_session_id = ?1 \
             AND agent_type IS NULL ORDER BY created_ms, id"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([parent.as_str()], session_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The subagents' sessions `parent` spawned, oldest first.
    pub fn subagents_of(&self, parent: &SessionId) -> Result<Vec<SessionRecord>> {
        let conn = self.conn();
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE parent_session_id = ?1 \
             AND agent_type IS NOT NULL ORDER BY created_ms, id"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([parent.as_str()], session_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Makes `id` a subagent's session: spawned by `parent`, running as `agent_type`.
    /// From then on lists leave it out.
    pub fn set_subagent(&self, id: &SessionId, parent: &SessionId, agent_type: &str) -> Result<()> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached(
                "UPDATE sessions SET parent_session_id = ?2, agent_type = ?3 WHERE id = ?1",
            )?
            .execute(params![id.as_str(), parent.as_str(), agent_type])?;
        if changed == 0 {
            return Err(StoreError::UnknownSession(id.clone()));
        }
        Ok(())
    }

    /// Renames a session. Does not touch `updated_ms`: a rename is not activity, and
    /// should not move the session to the top of the list.
    pub fn set_title(&self, id: &SessionId, title: &str) -> Result<()> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached("UPDATE sessions SET title = ?2 WHERE id = ?1")?
            .execute(params![id.as_str(), title])?;
        if changed == 0 {
            return Err(StoreError::UnknownSession(id.clone()));
        }
        Ok(())
    }

    /// Records the provider and model a session talks to from now on (a switch); a resume
    /// then uses them.
    pub fn set_model(&self, id: &SessionId, provider: &str, model: &str) -> Result<()> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached("UPDATE sessions SET provider = ?2, model = ?3 WHERE id = ?1")?
            .execute(params![id.as_str(), provider, model])?;
        if changed == 0 {
            return Err(StoreError::UnknownSession(id.clone()));
        }
        Ok(())
    }

    /// Creates a fork: a new session with a copy of `spec.source`'s events up to and
    /// including `spec.at_seq`, which then continues independently (appending to either
    /// never shows in the other, and deleting the parent keeps the fork). The fork is
    /// searchable like any session; usage and approvals stay with the parent, where those
    /// calls were made. Forking a read-only import gives a normal, writable session.
    pub fn fork_session(&self, spec: &ForkSpec) -> Result<SessionRecord> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let sql = format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1");
        let source = tx
            .prepare_cached(&sql)?
            .query_row([spec.source.as_str()], session_from_row)
            .optional()?
            .ok_or_else(|| StoreError::UnknownSession(spec.source.clone()))?;
        let last: i64 = tx
            .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?1")?
            .query_row([spec.source.as_str()], |r| r.get(0))?;
        let last = from_sql_int(last);
        if spec.at_seq == 0 || spec.at_seq > last {
            return Err(StoreError::NoSuchEvent {
                session: spec.source.clone(),
                seq: spec.at_seq,
                last,
            });
        }
        let new = NewSession {
            id: spec.new_id.clone(),
            cwd: source.cwd.clone(),
            provider: spec.provider.clone().unwrap_or(source.provider),
            model: spec.model.clone().unwrap_or(source.model),
            title: spec.title.clone(),
        };
        let mut record = insert_session(&tx, &new, now_ms(), None)?;
        let at = to_sql_int("seq", spec.at_seq)?;
        tx.prepare_cached(
            "UPDATE sessions SET parent_session_id = ?2, fork_seq = ?3 WHERE id = ?1",
        )?
        .execute(params![new.id.as_str(), spec.source.as_str(), at])?;
        // The copy keeps seqs, turn ids and timestamps: a fork's early history is
        // literally the parent's.
        tx.prepare_cached(
            "INSERT INTO events (session_id, seq, turn_id, kind, payload, ts_ms) \
             SELECT ?1, seq, turn_id, kind, payload, ts_ms FROM events \
             WHERE session_id = ?2 AND seq <= ?3",
        )?
        .execute(params![new.id.as_str(), spec.source.as_str(), at])?;
        let docs: Vec<(i64, String, String)> = {
            let mut stmt = tx.prepare_cached(
                "SELECT d.seq, d.role, f.text FROM search_docs d \
                 JOIN search_fts f ON f.rowid = d.id \
                 WHERE d.session_id = ?1 AND d.seq <= ?2 ORDER BY d.id",
            )?;
            let rows = stmt.query_map(params![spec.source.as_str(), at], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for (seq, role, text) in docs {
            tx.prepare_cached(
                "INSERT INTO search_docs (session_id, seq, role) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![new.id.as_str(), seq, role])?;
            let id = tx.last_insert_rowid();
            // Already in indexed form: copied, not re-derived.
            tx.prepare_cached("INSERT INTO search_fts (rowid, text) VALUES (?1, ?2)")?
                .execute(params![id, text])?;
        }
        tx.commit()?;
        record.parent_session_id = Some(spec.source.clone());
        record.fork_seq = Some(spec.at_seq);
        Ok(record)
    }

    /// Deletes a session and all its events, with its subagents' sessions. Forks of it
    /// survive, detached from their parent. Returns whether the session existed.
    pub fn delete_session(&self, id: &SessionId) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let deleted = delete_in(&tx, id)?;
        tx.commit()?;
        Ok(deleted)
    }
}

/// Where an imported session came from.
pub(crate) struct Origin<'a> {
    pub origin: &'a str,
    pub origin_id: &'a str,
}

/// Inserts a session row (and its workspace) inside `tx`. With `origin`, the session is a
/// read-only import.
pub(crate) fn insert_session(
    tx: &Transaction<'_>,
    new: &NewSession,
    created_ms: u64,
    origin: Option<Origin<'_>>,
) -> Result<SessionRecord> {
    let now_sql = to_sql_int("timestamp", created_ms)?;
    let exists = tx
        .prepare_cached("SELECT 1 FROM sessions WHERE id = ?1")?
        .exists([new.id.as_str()])?;
    if exists {
        return Err(StoreError::SessionExists(new.id.clone()));
    }

    tx.prepare_cached(
        "INSERT INTO workspaces (path, created_ms) VALUES (?1, ?2) \
         ON CONFLICT(path) DO NOTHING",
    )?
    .execute(params![new.cwd, now_sql])?;
    let workspace_id: i64 = tx
        .prepare_cached("SELECT id FROM workspaces WHERE path = ?1")?
        .query_row([&new.cwd], |r| r.get(0))?;

    let (origin_name, origin_id) = match &origin {
        Some(o) => (Some(o.origin), Some(o.origin_id)),
        None => (None, None),
    };
    tx.prepare_cached(
        "INSERT INTO sessions (id, workspace_id, title, cwd, provider, model, \
         created_ms, updated_ms, read_only, origin, origin_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        new.id.as_str(),
        workspace_id,
        new.title,
        new.cwd,
        new.provider,
        new.model,
        now_sql,
        origin.is_some(),
        origin_name,
        origin_id,
    ])?;

    Ok(SessionRecord {
        id: new.id.clone(),
        workspace_id,
        title: new.title.clone(),
        cwd: new.cwd.clone(),
        provider: new.provider.clone(),
        model: new.model.clone(),
        created_ms,
        updated_ms: created_ms,
        parent_session_id: None,
        fork_seq: None,
        read_only: origin.is_some(),
        origin: origin_name.map(str::to_owned),
        origin_id: origin_id.map(str::to_owned),
        agent_type: None,
    })
}

/// Deletes a session with everything derived from it, inside `tx`; forks of it are
/// detached. Returns whether it existed.
pub(crate) fn delete_in(tx: &Transaction<'_>, id: &SessionId) -> Result<bool> {
    // A subagent's session is part of its parent's work and shown only through it: it
    // goes with its parent (and its own subagents with it).
    let children: Vec<String> = tx
        .prepare_cached(
            "SELECT id FROM sessions WHERE parent_session_id = ?1 AND agent_type IS NOT NULL",
        )?
        .query_map([id.as_str()], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for child in children {
        delete_in(tx, &SessionId(child))?;
    }
    // The foreign keys would cascade too; deleting explicitly keeps this correct even
    // on a connection where someone turned foreign_keys off. Deleting search_docs
    // rows fires the trigger that removes their full-text entries.
    for table in ["events", "search_docs", "usage", "approvals"] {
        tx.prepare_cached(&format!("DELETE FROM {table} WHERE session_id = ?1"))?
            .execute([id.as_str()])?;
    }
    tx.prepare_cached(
        "UPDATE sessions SET parent_session_id = NULL, fork_seq = NULL \
         WHERE parent_session_id = ?1",
    )?
    .execute([id.as_str()])?;
    let deleted = tx
        .prepare_cached("DELETE FROM sessions WHERE id = ?1")?
        .execute([id.as_str()])?;
    Ok(deleted > 0)
}
