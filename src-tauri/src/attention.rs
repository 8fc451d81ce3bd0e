//! Telling the user that a session needs them while they look elsewhere: a desktop
//! notification whose click brings the window back on that session, and the number of
//! sessions waiting on the window itself (its title, and the launcher badge where the
//! desktop has one).
//!
//! The UI decides *when* (it knows which session is in front and whether the window has
//! focus); this module only shows. Notifications go through notify-rust directly: Tauri's
//! notification plugin wraps the same crate but drops the handle on the desktop, so a click
//! could never be answered.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use memo_protocol::{SessionId, WindowSignal};
use tauri::{AppHandle, Manager};

use crate::signals::WindowSignals;

/// Notifications waited on at once (one thread each, until the notification closes); past
/// it they are still shown, only their click does nothing.
const MAX_WAITING: usize = 8;
const WINDOW_TITLE: &str = "Memo";

pub struct Attention {
    app: OnceLock<AppHandle>,
    waiting: std::sync::Arc<AtomicUsize>,
    /// Where a click asks the window to show its session.
    signals: Arc<WindowSignals>,
}

impl Attention {
    pub fn new(signals: Arc<WindowSignals>) -> Self {
        Self {
            app: OnceLock::new(),
            waiting: Arc::default(),
            signals,
        }
    }

    /// Given once, when the app is set up.
    pub fn attach(&self, app: AppHandle) {
        let _ = self.app.set(app);
    }

    /// Shows a notification; a click opens `session_id` in the window. Returns false when
    /// the desktop has no notification service (the badge and the sidebar still say it).
    pub fn notify(&self, session_id: &str, title: &str, body: &str, open_label: &str) -> bool {
        let mut notification = notify_rust::Notification::new();
        notification
            .appname(WINDOW_TITLE)
            .summary(title)
            .body(body)
            .icon("memo-desktop");
        #[cfg(all(unix, not(target_os = "macos")))]
        notification.action("default", open_label);
        let handle = match notification.show() {
            Ok(handle) => {
                tracing::info!(session = session_id, "desktop notification shown");
                handle
            }
            Err(error) => {
                tracing::info!(%error, "no desktop notification shown");
                return false;
            }
        };
        #[cfg(all(unix, not(target_os = "macos")))]
        self.wait_for_click(handle, session_id.to_owned());
        #[cfg(not(all(unix, not(target_os = "macos"))))]
        drop((handle, session_id));
        true
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    fn wait_for_click(&self, handle: notify_rust::NotificationHandle, session_id: String) {
        let Some(app) = self.app.get().cloned() else {
            return;
        };
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return;
        }
        let waiting = self.waiting.clone();
        let signals = self.signals.clone();
        // wait_for_action blocks until the notification is clicked or closed.
        let spawned = std::thread::Builder::new()
            .name("memo-notification".into())
            .spawn(move || {
                handle.wait_for_action(|action| {
                    if action == "default" {
                        open_session(&app, &signals, session_id);
                    }
                });
                waiting.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(error) = spawned {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!(%error, "could not wait for a notification's click");
        }
    }

    /// Shows how many sessions wait for the user: "Memo (2)" as the window title, and the
    /// launcher badge (only some Linux desktops have one; failing there is expected).
    pub fn set_count(&self, count: u32) {
        let Some(window) = self
            .app
            .get()
            .and_then(|app| app.get_webview_window("main"))
        else {
            return;
        };
        let title = if count == 0 {
            WINDOW_TITLE.to_owned()
        } else {
            format!("{WINDOW_TITLE} ({count})")
        };
        if let Err(error) = window.set_title(&title) {
            tracing::warn!(%error, "could not set the window title");
        }
        let badge = (count > 0).then_some(i64::from(count));
        if let Err(error) = window.set_badge_count(badge) {
            tracing::debug!(%error, "no launcher badge on this desktop");
        }
    }
}

/// Brings the window to the front and tells it which session to show.
fn open_session(app: &AppHandle, signals: &WindowSignals, session_id: String) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    let signal = WindowSignal::OpenSession {
        session_id: SessionId::new(session_id),
    };
    if !signals.send(signal) {
        tracing::warn!("could not ask the window to open a session: it is not listening");
    }
}
