//! Facts about the running app that the UI shows (status bar, about box, bug reports).

use std::path::Path;

use serde::Serialize;
use tauri::{AppHandle, Runtime, State};

use crate::error::CommandError;
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppInfo {
    /// The app's own version (from Cargo.toml; tauri.conf.json leaves it unset on purpose
    /// so there is one source of truth).
    pub version: String,
    /// Absolute path of Memo's data folder, as the Rust side resolved it.
    pub memo_home: String,
    /// `<os>-<arch>`, e.g. `linux-x86_64`.
    pub platform: String,
    /// `memo-engine <version>`.
    pub engine: String,
}

/// The engine crate takes its version from the workspace, like this package, so the two
/// are the same number. If the engine ever versions separately it should export its own
/// constant and this should read that instead.
const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

impl AppInfo {
    pub fn collect(version: &str, memo_home: &Path) -> Self {
        Self {
            version: version.to_owned(),
            memo_home: memo_home.display().to_string(),
            platform: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
            engine: format!("memo-engine {ENGINE_VERSION}"),
        }
    }
}

#[tauri::command]
pub fn app_info<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
) -> Result<AppInfo, CommandError> {
    let memo_home = state.memo_home()?;
    let version = app.package_info().version.to_string();
    Ok(AppInfo::collect(&version, memo_home))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_what_the_status_bar_needs() {
        let info = AppInfo::collect("1.2.3", Path::new("/tmp/memo-home"));
        assert_eq!(info.version, "1.2.3");
        assert_eq!(info.memo_home, "/tmp/memo-home");
        assert_eq!(info.engine, format!("memo-engine {ENGINE_VERSION}"));
        assert!(info.platform.starts_with(std::env::consts::OS));
    }

    #[test]
    fn serializes_with_the_field_names_the_ui_reads() {
        let info = AppInfo::collect("1.2.3", Path::new("/m"));
        let json = serde_json::to_value(&info).unwrap();
        for key in ["version", "memo_home", "platform", "engine"] {
            assert!(json.get(key).is_some(), "missing {key} in {json}");
        }
    }
}
