//! Saves the window's size and position shortly after it stops changing. The window-state
//! plugin saves only when the app exits normally; a crash, a kill or a logout would lose
//! what the person arranged.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::{AppHandle, Runtime};
use tauri_plugin_window_state::{AppHandleExt, StateFlags};

/// A drag or a resize sends many events; save once it has settled.
const SETTLE: Duration = Duration::from_millis(400);

static CHANGES: AtomicU64 = AtomicU64::new(0);

pub fn save_soon<R: Runtime>(app: &AppHandle<R>) {
    let change = CHANGES.fetch_add(1, Ordering::SeqCst) + 1;
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SETTLE).await;
        if CHANGES.load(Ordering::SeqCst) == change {
            if let Err(error) = app.save_window_state(StateFlags::all()) {
                tracing::debug!(%error, "could not save the window's size and position");
            }
        }
    });
}
