//! What can go wrong reading hook settings, starting a hook, and reading its answer.
//!
//! None of these ends anything: a bad file costs only its own hooks, a bad answer only
//! that hook's effect. They become user-visible text in [`crate::LoadReport`] and
//! [`crate::HookOutcome`], so every message names the file or the hook to look at.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A problem in one settings file. The file's other hooks, and other files, still load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{}:{line}:{column}: invalid JSON, none of its hooks are used: {message}", .path.display())]
    Json {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },

    #[error("{}: invalid TOML, none of its hooks are used: {message}", .path.display())]
    Toml { path: PathBuf, message: String },

    /// A part of the `hooks` table that does not have the documented shape.
    #[error("{}: {at}: {message}", .path.display())]
    Entry {
        path: PathBuf,
        /// Where in the file: `hooks.PreToolUse[0].hooks[1].command`.
        at: String,
        message: String,
    },

    #[error("{}: {at}: \"{name}\" is not an event Memo runs hooks for; its hooks are ignored", .path.display())]
    UnknownEvent {
        path: PathBuf,
        at: String,
        name: String,
    },

    #[error("{}: {at}: hooks of type \"{kind}\" are not supported (only \"command\"); not run", .path.display())]
    UnsupportedType {
        path: PathBuf,
        at: String,
        kind: String,
    },

    #[error("{}: {at}: matcher {matcher:?} is not a valid pattern, so its hooks never run: {message}", .path.display())]
    InvalidMatcher {
        path: PathBuf,
        at: String,
        matcher: String,
        message: String,
    },
}

/// The kind of a [`LoadError`], for the UI to group or count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueKind {
    Unreadable,
    Malformed,
    InvalidEntry,
    UnknownEvent,
    UnsupportedType,
    InvalidMatcher,
}

impl LoadError {
    pub fn kind(&self) -> IssueKind {
        match self {
            LoadError::Read { .. } => IssueKind::Unreadable,
            LoadError::Json { .. } | LoadError::Toml { .. } => IssueKind::Malformed,
            LoadError::Entry { .. } => IssueKind::InvalidEntry,
            LoadError::UnknownEvent { .. } => IssueKind::UnknownEvent,
            LoadError::UnsupportedType { .. } => IssueKind::UnsupportedType,
            LoadError::InvalidMatcher { .. } => IssueKind::InvalidMatcher,
        }
    }

    pub fn path(&self) -> &PathBuf {
        match self {
            LoadError::Read { path, .. }
            | LoadError::Json { path, .. }
            | LoadError::Toml { path, .. }
            | LoadError::Entry { path, .. }
            | LoadError::UnknownEvent { path, .. }
            | LoadError::UnsupportedType { path, .. }
            | LoadError::InvalidMatcher { path, .. } => path,
        }
    }
}

/// Why a hook process could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("could not start `sh -c` in {}: {source}", .cwd.display())]
    Spawn {
        cwd: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("the hook process has no stdio pipes")]
    NoPipes,
}

/// A hook's stdout that was meant as JSON (it starts with `{`) but cannot be used. Only
/// that hook's answer is lost; it is reported to the user.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OutputError {
    #[error("its output looks like JSON but does not parse ({message}); it was ignored")]
    InvalidJson { message: String },

    #[error("its output was longer than {limit} bytes and was cut, so it was not read as JSON")]
    Cut { limit: usize },

    #[error("\"{field}\" should be {expected}; it was ignored")]
    WrongType {
        field: &'static str,
        expected: &'static str,
    },

    #[error("\"{field}\": unknown value {value:?}; it was ignored")]
    UnknownValue { field: &'static str, value: String },

    #[error("hookSpecificOutput is for {said}, not {event}; it was ignored")]
    OtherEvent { said: String, event: String },
}
