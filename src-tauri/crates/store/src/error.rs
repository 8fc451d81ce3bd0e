use std::path::PathBuf;

use memo_protocol::SessionId;

/// Everything that can go wrong in the store. Open-time errors name the file, because the
/// user has to find it to fix it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the directory for the database {path}: {source}")]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("cannot read the database {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{path} is not an SQLite database; refusing to open or overwrite it (move it away to start fresh)")]
    NotADatabase { path: PathBuf },

    #[error("the database {path} is corrupt ({message}); it was left untouched (move it away to start fresh)")]
    Corrupt { path: PathBuf, message: String },

    #[error("the database {path} has schema version {found}, but this build of Memo Desktop supports only up to {supported}; it was left untouched (update Memo Desktop)")]
    TooNew {
        path: PathBuf,
        found: u32,
        supported: u32,
    },

    #[error("cannot open the database {path}: {source}")]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },

    #[error("unknown session {0}")]
    UnknownSession(SessionId),

    #[error("session {0} already exists")]
    SessionExists(SessionId),

    /// Imported history is kept as it was; continuing it forks a new session.
    #[error("session {0} is read-only (imported history); fork it to continue")]
    ReadOnly(SessionId),

    #[error("session {session} has no event {seq} (its last event is {last})")]
    NoSuchEvent {
        session: SessionId,
        seq: u64,
        last: u64,
    },

    #[error("cannot write the export: {0}")]
    Export(#[source] std::io::Error),

    #[error("invalid search query: {0}")]
    BadQuery(String),

    /// The log must stay dense (`seq` = last + 1) so that "give me everything after N" can
    /// never silently skip an event.
    #[error("event out of order in session {session}: expected seq {expected}, got {got}")]
    SeqGap {
        session: SessionId,
        expected: u64,
        got: u64,
    },

    #[error("{what} is out of range for the database: {value}")]
    OutOfRange { what: &'static str, value: u64 },

    #[error("cannot encode an event of session {session}: {source}")]
    Encode {
        session: SessionId,
        #[source]
        source: serde_json::Error,
    },

    #[error("stored event {seq} of session {session} cannot be decoded: {source}")]
    CorruptEvent {
        session: SessionId,
        seq: u64,
        #[source]
        source: serde_json::Error,
    },

    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
