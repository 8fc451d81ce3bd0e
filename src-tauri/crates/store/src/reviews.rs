//! Review marks outside git: the hunks a person kept and the files they marked reviewed in
//! the changes panel, per session, so a long change can be reviewed over several sittings
//! and the marks survive closing the panel and restarting. (In a git repository a kept
//! hunk is staged in the index instead, and git remembers it.) A mark names its hunk or
//! file by content, so a hunk that changes afterwards is shown afresh.

use rusqlite::params;

use crate::{Result, Store};
use memo_protocol::SessionId;

impl Store {
    /// Every mark of `session` on `path`.
    pub fn review_marks(&self, session: &SessionId, path: &str) -> Result<Vec<String>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT mark FROM review_marks WHERE session_id = ?1 AND path = ?2 ORDER BY mark",
        )?;
        let marks = stmt
            .query_map(params![session.as_str(), path], |row| row.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(marks)
    }

    /// Sets or clears one mark.
    pub fn set_review_mark(
        &self,
        session: &SessionId,
        path: &str,
        mark: &str,
        on: bool,
    ) -> Result<()> {
        let conn = self.conn();
        if on {
            conn.execute(
                "INSERT OR IGNORE INTO review_marks (session_id, path, mark, created_ms) VALUES (?1, ?2, ?3, ?4)",
                params![session.as_str(), path, mark, crate::now_ms() as i64],
            )?;
        } else {
            conn.execute(
                "DELETE FROM review_marks WHERE session_id = ?1 AND path = ?2 AND mark = ?3",
                params![session.as_str(), path, mark],
            )?;
        }
        Ok(())
    }
}
