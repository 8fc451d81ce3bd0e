//! State the shell computes once at start-up and shares with every command.

use std::path::PathBuf;
use std::sync::Arc;

use memo_config::MemoHome;
use memo_service::Service;
use memo_terminal::TerminalManager;

use crate::attention::Attention;
use crate::bridge::Bridge;
use crate::launch::OpenRequests;
use crate::page_channel::Mailbox;
use crate::signals::WindowSignals;

/// Where Memo keeps its data: `$MEMO_HOME` when set and non-empty (`~` expanded), else
/// `~/.memo` — the rules of memo-config, which the engine and CLI use too. A relative value
/// is anchored to the start directory once, so it cannot change meaning later.
pub fn resolve_memo_home(
    memo_home_env: Option<std::ffi::OsString>,
    home_dir: Option<PathBuf>,
    current_dir: Option<PathBuf>,
) -> Result<MemoHome, String> {
    let home = MemoHome::resolve_from(memo_home_env, home_dir).map_err(|e| e.to_string())?;
    if home.root().is_absolute() {
        return Ok(home);
    }
    match current_dir {
        Some(cwd) => Ok(MemoHome::at(cwd.join(home.root()))),
        None => Err(format!(
            "MEMO_HOME is relative ({}) and the current directory is unknown",
            home.root().display()
        )),
    }
}

/// The home this process serves, from `MEMO_HOME`, the user's home folder and the start
/// directory. Resolved once at start: the single-instance claim and the app use the same.
pub fn memo_home_from_env() -> Result<MemoHome, String> {
    resolve_memo_home(
        std::env::var_os(memo_config::MEMO_HOME_ENV),
        std::env::home_dir(),
        std::env::current_dir().ok(),
    )
}

/// Managed by Tauri and handed to commands through `State<'_, AppState>`.
pub struct AppState {
    service: Arc<Service>,
    bridge: Bridge,
    open_requests: OpenRequests,
    attention: Attention,
    signals: Arc<WindowSignals>,
    mailbox: Arc<Mailbox>,
    terminals: TerminalManager,
}

impl AppState {
    pub fn new(service: Service) -> Self {
        let service = Arc::new(service);
        let signals = Arc::new(WindowSignals::default());
        Self {
            bridge: Bridge::new(service.clone()),
            service,
            open_requests: OpenRequests::default(),
            attention: Attention::new(signals.clone()),
            signals,
            mailbox: Arc::default(),
            terminals: TerminalManager::default(),
        }
    }

    /// The shell for a home resolved by [`memo_home_from_env`]; keys come from the OS
    /// keychain.
    pub fn for_home(memo_home: Result<MemoHome, String>) -> Self {
        Self::new(Service::for_process(memo_home))
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    pub fn bridge(&self) -> &Bridge {
        &self.bridge
    }

    /// Folders asked for from outside the window (command line, a second launch).
    pub fn open_requests(&self) -> &OpenRequests {
        &self.open_requests
    }

    /// What the shell tells the window on its own (a notification clicked, a second launch).
    pub fn signals(&self) -> &WindowSignals {
        &self.signals
    }

    /// Messages on the page's channels that it has not taken yet.
    pub fn mailbox(&self) -> Arc<Mailbox> {
        self.mailbox.clone()
    }

    /// Notifications and the window's waiting count.
    pub fn attention(&self) -> &Attention {
        &self.attention
    }

    /// The embedded terminals of every workspace.
    pub fn terminals(&self) -> &TerminalManager {
        &self.terminals
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn home() -> Option<PathBuf> {
        Some(PathBuf::from("/home/ada"))
    }

    #[test]
    fn defaults_to_dot_memo_in_home() {
        let resolved = resolve_memo_home(None, home(), None).unwrap();
        assert_eq!(resolved.root(), Path::new("/home/ada/.memo"));
    }

    #[test]
    fn absolute_and_tilde_env_values() {
        let resolved = resolve_memo_home(Some("/data/memo".into()), home(), None).unwrap();
        assert_eq!(resolved.root(), Path::new("/data/memo"));
        let resolved = resolve_memo_home(Some("~/memo-data".into()), home(), None).unwrap();
        assert_eq!(resolved.root(), Path::new("/home/ada/memo-data"));
    }

    #[test]
    fn empty_env_value_counts_as_unset() {
        let resolved = resolve_memo_home(Some(std::ffi::OsString::new()), home(), None).unwrap();
        assert_eq!(resolved.root(), Path::new("/home/ada/.memo"));
    }

    #[test]
    fn relative_env_value_is_anchored_to_the_start_directory() {
        let resolved = resolve_memo_home(
            Some("memo-data".into()),
            home(),
            Some(PathBuf::from("/work")),
        )
        .unwrap();
        assert_eq!(resolved.root(), Path::new("/work/memo-data"));
        assert!(resolve_memo_home(Some("memo-data".into()), home(), None).is_err());
    }

    #[test]
    fn no_home_and_no_env_is_an_error_the_ui_can_show() {
        let err = resolve_memo_home(None, None, None).unwrap_err();
        assert!(!err.is_empty());
    }
}
