//! State the shell computes once at start-up and shares with every command.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::{CommandError, ErrorCode};

/// Environment variable that relocates Memo's data (config, sessions, prompts).
pub const MEMO_HOME_ENV: &str = "MEMO_HOME";

/// Name of the data folder inside the user's home when `MEMO_HOME` is not set.
const DEFAULT_DIR_NAME: &str = ".memo";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoHomeError {
    #[error(
        "cannot find the home directory; set {MEMO_HOME_ENV} to choose where Memo keeps its data"
    )]
    NoHomeDir,
    #[error("{MEMO_HOME_ENV} is relative ({0}) and the current directory is unknown")]
    RelativeWithoutCwd(String),
}

impl From<MemoHomeError> for CommandError {
    fn from(error: MemoHomeError) -> Self {
        CommandError::new(ErrorCode::Config, error.to_string())
    }
}

/// Where Memo keeps its data: `$MEMO_HOME` when set and non-empty, else `~/.memo`.
///
/// Same rules as `memo_config::MemoHome::resolve`, plus anchoring a relative value to the
/// start directory so the UI can show an absolute path. The shell does not depend on
/// memo-config yet; once it does, this should delegate to it.
///
/// Inputs are passed in rather than read here so the rules are testable without
/// mutating the process environment (which is shared by parallel tests).
pub fn resolve_memo_home(
    memo_home_env: Option<OsString>,
    home_dir: Option<PathBuf>,
    current_dir: Option<PathBuf>,
) -> Result<PathBuf, MemoHomeError> {
    // An empty value is what `MEMO_HOME= memo-desktop` produces; treating it as a
    // relative path would scatter data into whatever directory the app started in.
    if let Some(raw) = memo_home_env.filter(|value| !value.is_empty()) {
        let path = PathBuf::from(raw);
        // `~` expansion matches memo-config's rule (and Memo Code's), so the status bar
        // and the engine agree on the folder.
        if let Ok(rest) = path.strip_prefix("~") {
            return home_dir
                .map(|home| home.join(rest))
                .ok_or(MemoHomeError::NoHomeDir);
        }
        if path.is_absolute() {
            return Ok(path);
        }
        // Anchor a relative value once, at start-up, so it does not silently change
        // meaning if something later changes the working directory.
        return match current_dir {
            Some(cwd) => Ok(cwd.join(path)),
            None => Err(MemoHomeError::RelativeWithoutCwd(
                path.display().to_string(),
            )),
        };
    }
    home_dir
        .map(|home| home.join(DEFAULT_DIR_NAME))
        .ok_or(MemoHomeError::NoHomeDir)
}

/// Managed by Tauri and handed to commands through `State<'_, AppState>`.
#[derive(Debug)]
pub struct AppState {
    /// Kept as a `Result` so a broken environment still opens the window and the UI can
    /// explain the problem, instead of the process exiting before anything is shown.
    memo_home: Result<PathBuf, MemoHomeError>,
}

impl AppState {
    pub fn new(memo_home: Result<PathBuf, MemoHomeError>) -> Self {
        Self { memo_home }
    }

    /// Reads `MEMO_HOME` and the working directory from the process environment.
    pub fn from_env(home_dir: Option<PathBuf>) -> Self {
        let memo_home = resolve_memo_home(
            std::env::var_os(MEMO_HOME_ENV),
            home_dir,
            std::env::current_dir().ok(),
        );
        Self::new(memo_home)
    }

    pub fn memo_home(&self) -> Result<&Path, MemoHomeError> {
        self.memo_home.as_deref().map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home() -> Option<PathBuf> {
        Some(PathBuf::from("/home/ada"))
    }

    #[test]
    fn defaults_to_dot_memo_in_home() {
        let resolved = resolve_memo_home(None, home(), None).unwrap();
        assert_eq!(resolved, PathBuf::from("/home/ada/.memo"));
    }

    #[test]
    fn absolute_env_value_wins() {
        let resolved = resolve_memo_home(Some("/data/memo".into()), home(), None).unwrap();
        assert_eq!(resolved, PathBuf::from("/data/memo"));
    }

    #[test]
    fn tilde_in_env_value_means_the_home_directory() {
        let resolved = resolve_memo_home(Some("~/memo-data".into()), home(), None).unwrap();
        assert_eq!(resolved, PathBuf::from("/home/ada/memo-data"));
        let err = resolve_memo_home(Some("~/memo-data".into()), None, None).unwrap_err();
        assert_eq!(err, MemoHomeError::NoHomeDir);
    }

    #[test]
    fn empty_env_value_counts_as_unset() {
        let resolved = resolve_memo_home(Some(OsString::new()), home(), None).unwrap();
        assert_eq!(resolved, PathBuf::from("/home/ada/.memo"));
    }

    #[test]
    fn relative_env_value_is_anchored_to_the_start_directory() {
        let resolved = resolve_memo_home(
            Some("memo-data".into()),
            home(),
            Some(PathBuf::from("/work")),
        )
        .unwrap();
        assert_eq!(resolved, PathBuf::from("/work/memo-data"));

        let err = resolve_memo_home(Some("memo-data".into()), home(), None).unwrap_err();
        assert!(matches!(err, MemoHomeError::RelativeWithoutCwd(_)));
    }

    #[test]
    fn no_home_and_no_env_is_a_config_error() {
        let err = resolve_memo_home(None, None, None).unwrap_err();
        assert_eq!(err, MemoHomeError::NoHomeDir);
        assert_eq!(CommandError::from(err).code, ErrorCode::Config);
    }
}
