//! Keeps the store within its limits: checkpoints past the age limit go, then the oldest
//! ones while the copies take more than the size limit; copies nothing refers to any more
//! (not a file's last-seen content, not a side of a kept change, not a delta's base) are
//! deleted.

use std::collections::HashSet;
use std::time::{Duration, SystemTime};

use rusqlite::{params, Connection};

use crate::blobs::{BlobId, BlobStore};
use crate::db::now_ms;
use crate::error::Result;
use crate::Limits;

/// A copy written this recently may belong to a checkpoint still being recorded.
const GRACE: Duration = Duration::from_secs(600);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneReport {
    pub checkpoints_removed: u64,
    pub blobs_removed: u64,
    pub bytes_freed: u64,
}

pub(crate) fn prune(
    conn: &mut Connection,
    blobs: &BlobStore,
    limits: &Limits,
) -> Result<PruneReport> {
    let mut report = PruneReport::default();
    let cutoff = now_ms().saturating_sub(u64::from(limits.max_age_days) * 86_400_000);
    report.checkpoints_removed += conn.execute(
        "DELETE FROM checkpoints WHERE created_ms < ?1 AND state != 'pending'",
        params![cutoff as i64],
    )? as u64;
    sweep(conn, blobs, &mut report)?;
    // Over the size limit: drop the oldest tenth of the checkpoints at a time.
    for _ in 0..10 {
        let total: u64 = blobs.list().iter().map(|(_, s)| s).sum();
        if total <= limits.max_total_bytes {
            break;
        }
        let count: i64 = conn.query_row("SELECT COUNT(*) FROM checkpoints", [], |r| r.get(0))?;
        if count == 0 {
            break;
        }
        report.checkpoints_removed += conn.execute(
            "DELETE FROM checkpoints WHERE id IN
               (SELECT id FROM checkpoints WHERE state != 'pending' ORDER BY id LIMIT ?1)",
            params![(count / 10).max(1)],
        )? as u64;
        sweep(conn, blobs, &mut report)?;
    }
    Ok(report)
}

fn sweep(conn: &Connection, blobs: &BlobStore, report: &mut PruneReport) -> Result<()> {
    let mut keep: HashSet<BlobId> = HashSet::new();
    for sql in [
        "SELECT content FROM files WHERE content IS NOT NULL",
        "SELECT before FROM changes WHERE before IS NOT NULL",
        "SELECT after FROM changes WHERE after IS NOT NULL",
    ] {
        let mut stmt = conn.prepare(sql)?;
        let ids = stmt.query_map([], |r| r.get::<_, String>(0))?;
        for id in ids {
            if let Some(id) = BlobId::parse(&id?) {
                keep.insert(id);
            }
        }
    }
    // A kept delta needs its whole chain of bases.
    let mut queue: Vec<BlobId> = keep.iter().cloned().collect();
    while let Some(id) = queue.pop() {
        if let Some(base) = blobs.base_of(&id) {
            if keep.insert(base.clone()) {
                queue.push(base);
            }
        }
    }
    let now = SystemTime::now();
    for (id, size) in blobs.list() {
        if keep.contains(&id) {
            continue;
        }
        let recent = std::fs::metadata(blobs.dir().join(&id.as_str()[..2]).join(&id.as_str()[2..]))
            .and_then(|m| m.modified())
            .map(|t| now.duration_since(t).unwrap_or_default() < GRACE)
            .unwrap_or(true);
        if recent {
            continue;
        }
        blobs.remove(&id);
        report.blobs_removed += 1;
        report.bytes_freed += size;
    }
    Ok(())
}
