use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("stored copy {id} is damaged: {reason}")]
    Damaged { id: String, reason: String },
    #[error("no checkpoint {0}")]
    UnknownCheckpoint(u64),
    /// A workspace an earlier scan found too large; the reason is that scan's.
    #[error("{0}")]
    Untracked(String),
    /// A folder this large (a home directory opened by mistake) is not copied.
    #[error("{root} has {files} files, more than the {max} checkpoints keep copies of")]
    TooManyFiles {
        root: PathBuf,
        files: usize,
        max: usize,
    },
}

impl CheckpointError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| CheckpointError::Io {
            action,
            path,
            source,
        }
    }
}

pub type Result<T> = std::result::Result<T, CheckpointError>;
