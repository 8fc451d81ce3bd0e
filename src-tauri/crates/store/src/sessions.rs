//! Sessions and the workspaces (working directories) they belong to.

use memo_protocol::SessionId;
use rusqlite::{params, OptionalExtension, Row, TransactionBehavior};

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
}

const SESSION_COLUMNS: &str = "id, workspace_id, title, cwd, provider, model, created_ms, \
                               updated_ms, parent_session_id, fork_seq";

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
    })
}

impl Store {
    /// Creates a session, creating or reusing the workspace for its `cwd`.
    pub fn create_session(&self, new: &NewSession) -> Result<SessionRecord> {
        let now = now_ms();
        let now_sql = to_sql_int("timestamp", now)?;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;

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

        tx.prepare_cached(
            "INSERT INTO sessions (id, workspace_id, title, cwd, provider, model, \
             created_ms, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        )?
        .execute(params![
            new.id.as_str(),
            workspace_id,
            new.title,
            new.cwd,
            new.provider,
            new.model,
            now_sql
        ])?;
        tx.commit()?;

        Ok(SessionRecord {
            id: new.id.clone(),
            workspace_id,
            title: new.title.clone(),
            cwd: new.cwd.clone(),
            provider: new.provider.clone(),
            model: new.model.clone(),
            created_ms: now,
            updated_ms: now,
            parent_session_id: None,
            fork_seq: None,
        })
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
                     ORDER BY updated_ms DESC, id DESC LIMIT ?2 OFFSET ?3"
                );
                let mut stmt = conn.prepare_cached(&sql)?;
                let rows = stmt.query_map(params![cwd, limit, offset], session_from_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            }
            None => {
                let sql = format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?1 OFFSET ?2"
                );
                let mut stmt = conn.prepare_cached(&sql)?;
                let rows = stmt.query_map(params![limit, offset], session_from_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            }
        };
        Ok(rows)
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

    /// Deletes a session and all its events. Forks of it survive, detached from their
    /// parent. Returns whether the session existed.
    pub fn delete_session(&self, id: &SessionId) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The foreign key would cascade too; deleting explicitly keeps this correct even
        // on a connection where someone turned foreign_keys off.
        tx.prepare_cached("DELETE FROM events WHERE session_id = ?1")?
            .execute([id.as_str()])?;
        tx.prepare_cached(
            "UPDATE sessions SET parent_session_id = NULL, fork_seq = NULL \
             WHERE parent_session_id = ?1",
        )?
        .execute([id.as_str()])?;
        let deleted = tx
            .prepare_cached("DELETE FROM sessions WHERE id = ?1")?
            .execute([id.as_str()])?;
        tx.commit()?;
        Ok(deleted > 0)
    }
}
