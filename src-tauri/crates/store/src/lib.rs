//! Session and event persistence on SQLite.
//!
//! This is the event log: the engine writes every [`EventEnvelope`] here *before* any
//! client sees it, so a client that reconnects can ask for `seq > last_seen` and miss
//! nothing. The API is synchronous; the engine calls it from a dedicated blocking context.
//!
//! [`EventEnvelope`]: memo_protocol::EventEnvelope
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod derive;
mod error;
mod events;
mod holds;
mod markdown;
pub mod memo_code;
mod paging;
mod reviews;
mod schema;
mod search;
mod sessions;
mod usage;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

pub use error::{Result, StoreError};
pub use holds::Holder;
pub use paging::EventPage;
pub use schema::SCHEMA_VERSION;
pub use search::{SearchHit, SearchQuery, SearchRole};
pub use sessions::{ForkSpec, NewSession, SessionRecord};
pub use usage::{ApprovalRecord, ModelPrice, ModelUsage, PriceTable, UsageSummary};

use schema::MigrateOutcome;

/// How long a statement waits for another connection (e.g. `memo-cli` on the same file)
/// to release its lock before failing with "database is locked".
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The first 16 bytes of every SQLite 3 database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// When a committed write counts as safe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous=FULL`: every commit fsyncs the WAL before it returns, so an event the
    /// store acknowledged survives a power loss or OS crash too, not only the process
    /// dying. The engine batches the deltas of one network read into one commit, which
    /// keeps the fsyncs to a few per second of streaming.
    #[default]
    Full,
    /// `synchronous=NORMAL`: a commit survives the process dying (SIGKILL, panic) but the
    /// last few may be lost on power loss. For benchmarks and throwaway stores.
    Normal,
}

/// How to open a store.
#[derive(Debug, Clone, Copy, Default)]
pub struct StoreOptions {
    pub durability: Durability,
}

/// A handle to the database. `Send + Sync`; share it with `Arc<Store>`.
///
/// One connection behind a mutex is enough: writes are serialised by SQLite anyway, and
/// reads are short indexed lookups.
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
    prices: Mutex<PriceTable>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it to
    /// [`SCHEMA_VERSION`].
    ///
    /// An existing file is inspected read-only first: a file that is not SQLite, is
    /// corrupt, or was written by a newer schema is reported and never modified.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Self::open_with(path, StoreOptions::default())
    }

    /// [`Store::open`] with explicit options.
    pub fn open_with(path: impl AsRef<Path>, options: StoreOptions) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::CreateDir {
                path: path.clone(),
                source,
            })?;
        }
        probe_existing(&path)?;

        let conn = Connection::open(&path).map_err(|e| classify(&path, e))?;
        configure(&conn, &path, options.durability)?;
        Self::finish_open(conn, path)
    }

    /// A private database in memory, for tests.
    pub fn open_in_memory() -> Result<Store> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| classify(&path, e))?;
        configure(&conn, &path, Durability::Normal)?;
        Self::finish_open(conn, path)
    }

    /// The file this store was opened from (`:memory:` for in-memory stores).
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn finish_open(mut conn: Connection, path: PathBuf) -> Result<Store> {
        match schema::migrate_to(&mut conn, SCHEMA_VERSION).map_err(|e| classify(&path, e))? {
            // Another, newer process may have migrated the file between our probe and here.
            MigrateOutcome::TooNew { found } => Err(StoreError::TooNew {
                path,
                found,
                supported: SCHEMA_VERSION,
            }),
            MigrateOutcome::Done { from } => {
                if from != SCHEMA_VERSION {
                    tracing::info!(path = %path.display(), from, to = SCHEMA_VERSION, "store migrated");
                }
                Ok(Store {
                    conn: Mutex::new(conn),
                    path,
                    prices: Mutex::new(PriceTable::default()),
                })
            }
        }
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while the lock was held cannot leave a half-done write behind: every
        // multi-statement write runs in a rusqlite Transaction, which rolls back on drop.
        // So the connection is still consistent and the poison flag can be ignored.
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn prices(&self) -> MutexGuard<'_, PriceTable> {
        // Only whole-entry inserts and removals happen under this lock.
        self.prices.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `PRAGMA integrity_check`: `Ok(())` when SQLite finds nothing wrong, else its report.
    pub fn integrity_check(&self) -> Result<Result<(), String>> {
        let conn = self.conn();
        let mut stmt = conn.prepare("PRAGMA integrity_check")?;
        let lines: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if lines.len() == 1 && lines[0] == "ok" {
            Ok(Ok(()))
        } else {
            Ok(Err(lines.join("\n")))
        }
    }
}

/// Refuses, without writing anything, files we must not touch.
fn probe_existing(path: &Path) -> Result<()> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    if !meta.is_file() {
        return Err(StoreError::NotADatabase {
            path: path.to_path_buf(),
        });
    }
    // SQLite treats an empty file as a new database; that is safe to initialise.
    if meta.len() == 0 {
        return Ok(());
    }

    // Check the magic ourselves rather than relying on SQLite: it makes the "never
    // overwrite a foreign file" promise independent of how SQLite handles odd files.
    let mut header = [0u8; 16];
    let io_err = |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io_err)?;
    let mut filled = 0;
    while filled < header.len() {
        match file.read(&mut header[filled..]).map_err(io_err)? {
            0 => break,
            n => filled += n,
        }
    }
    if filled < header.len() || &header != SQLITE_MAGIC {
        return Err(StoreError::NotADatabase {
            path: path.to_path_buf(),
        });
    }

    // A read-only connection never writes the main file (it does not even checkpoint on
    // close), so a too-new or corrupt database is left byte-for-byte as it was.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| classify(path, e))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| classify(path, e))?;
    let found = schema::user_version(&conn).map_err(|e| classify(path, e))?;
    // Reading the schema table touches the first b-tree page, which catches most
    // truncated or scrambled files before we start writing.
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    })
    .map_err(|e| classify(path, e))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

fn configure(conn: &Connection, path: &Path, durability: Durability) -> Result<()> {
    let wrap = |e| classify(path, e);
    conn.busy_timeout(BUSY_TIMEOUT).map_err(wrap)?;
    // WAL lets readers (a UI catching up) run while the engine appends, and makes each
    // append a cheap sequential write.
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
        .map_err(wrap)?;
    if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
        tracing::warn!(path = %path.display(), mode, "database is not in WAL mode");
    }
    // Durability promise: with WAL, synchronous=FULL fsyncs the log on every commit, so an
    // acknowledged event is on disk. NORMAL still survives the process dying (the data
    // is in the OS page cache) but not a power loss. See [`Durability`].
    let sync = match durability {
        Durability::Full => "FULL",
        Durability::Normal => "NORMAL",
    };
    conn.pragma_update(None, "synchronous", sync)
        .map_err(wrap)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(wrap)?;
    Ok(())
}

/// Turns SQLite's "this is not a database" and "corrupt" codes into errors that name the
/// file; everything else stays an open error with its cause.
fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotADatabase {
            path: path.to_path_buf(),
        },
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path: path.to_path_buf(),
            message: e.to_string(),
        },
        _ => StoreError::Open {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        // A clock before 1970 is a broken machine; 0 still orders correctly among itself.
        .unwrap_or(0)
}

/// SQLite integers are signed; our seqs and timestamps are u64 on the wire.
pub(crate) fn to_sql_int(what: &'static str, value: u64) -> Result<i64> {
    i64::try_from(value).map_err(|_| StoreError::OutOfRange { what, value })
}

/// Reads back a value written by [`to_sql_int`]; negatives cannot occur for our rows but a
/// hand-edited database might hold one, and 0 is a harmless reading of it.
pub(crate) fn from_sql_int(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Store>();
        assert_send_sync::<std::sync::Arc<Store>>();
    }

    #[test]
    fn in_memory_store_is_at_the_current_version() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        assert_eq!(schema::user_version(&conn).unwrap(), SCHEMA_VERSION);
        let fk: i64 = conn
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
    }

    #[test]
    fn file_store_uses_wal_and_full_sync_by_default() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db.sqlite")).unwrap();
        let conn = store.conn();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = conn
            .pragma_query_value(None, "synchronous", |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 2, "FULL");
        drop(conn);
        let relaxed = Store::open_with(
            dir.path().join("other.sqlite"),
            StoreOptions {
                durability: Durability::Normal,
            },
        )
        .unwrap();
        let sync: i64 = relaxed
            .conn()
            .pragma_query_value(None, "synchronous", |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 1, "NORMAL");
    }

    #[test]
    fn bundled_sqlite_has_fts5() {
        let store = Store::open_in_memory().unwrap();
        let conn = store.conn();
        let enabled: bool = conn
            .query_row("SELECT sqlite_compileoption_used('ENABLE_FTS5')", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(enabled);
    }
}
