//! What can go wrong with a terminal, with the IPC error code each failure maps to.

use std::path::PathBuf;

use memo_protocol::{ErrorCode, TerminalId};

pub type Result<T, E = TerminalError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// Closed, or never opened (a UI holding an id from before a reload).
    #[error("terminal {0} is not open")]
    NotFound(TerminalId),
    #[error("cannot open a terminal in {}: it is not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The OS refused a pseudo-terminal (out of PTYs, no /dev/ptmx).
    #[error("cannot open a pseudo-terminal: {0}")]
    Pty(String),
    #[error("cannot start {}: {message}", shell.display())]
    Spawn { shell: PathBuf, message: String },
    #[error("terminal i/o failed: {0}")]
    Io(#[from] std::io::Error),
}

impl TerminalError {
    /// The stable code the UI branches on.
    pub fn code(&self) -> ErrorCode {
        match self {
            TerminalError::NotFound(_) => ErrorCode::NotFound,
            TerminalError::NotAFolder(_) => ErrorCode::InvalidInput,
            TerminalError::Pty(_) | TerminalError::Spawn { .. } | TerminalError::Io(_) => {
                ErrorCode::Io
            }
        }
    }
}
