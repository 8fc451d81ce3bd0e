//! Why a plugin could not be installed, changed or read. Each case is its own variant so
//! the service can give it the right error code and the settings page a clear sentence;
//! every message names the plugin, path or URL it is about.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    #[error("{}: no such folder", path.display())]
    SourceMissing { path: PathBuf },
    #[error("{}: not a folder", path.display())]
    NotAFolder { path: PathBuf },
    #[error("{}: not a Claude Code plugin (no .claude-plugin/plugin.json)", path.display())]
    NoManifest { path: PathBuf },
    #[error("{}: {message}", path.display())]
    InvalidManifest { path: PathBuf, message: String },
    #[error("\"{name}\" cannot be a plugin name: {reason}")]
    InvalidName { name: String, reason: String },
    #[error("a plugin named \"{name}\" is already installed; replace it to install this one")]
    AlreadyInstalled { name: String },
    #[error("no plugin named \"{name}\" is installed")]
    NotInstalled { name: String },
    #[error("\"{url}\" is not a git URL (https://, ssh://, git://, file:// or user@host:path)")]
    InvalidGitUrl { url: String },
    #[error("git is not available: {message}")]
    GitUnavailable { message: String },
    #[error("git clone {url} failed: {message}")]
    GitClone { url: String, message: String },
    /// installed.json exists but cannot be used; it is never overwritten.
    #[error("{}: {message}; fix or remove the file (it is not overwritten)", path.display())]
    Registry { path: PathBuf, message: String },
    #[error("{}: a link to {} outside the plugin's folder; a plugin is installed only with what its folder holds", path.display(), target.display())]
    LinkOutside { path: PathBuf, target: PathBuf },
    #[error("{}: the plugin is larger than {limit_mb} MB or {max_files} files; that is not a plugin", path.display())]
    TooLarge {
        path: PathBuf,
        limit_mb: u64,
        max_files: u64,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl PluginError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> PluginError {
        PluginError::Io {
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = PluginError> = std::result::Result<T, E>;
