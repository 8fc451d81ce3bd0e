//! The desktop shell: wires Tauri to the engine. Kept thin on purpose — logic lives in the
//! tauri-free crates under `src-tauri/crates/` so it can be tested without WebKit.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod attention;
pub mod bridge;
pub mod caret;
pub mod error;
pub mod ipc;
mod languages;
pub mod launch;
pub mod page_channel;
pub mod rendering;
pub mod script_engine;
pub mod signals;
#[cfg(unix)]
pub mod single_instance;
pub mod state;
pub mod terminal;
pub mod time_zone;
mod window_state;

use memo_protocol::WindowSignal;
use tauri::Manager;

use crate::state::AppState;

/// Logs go to stderr with API keys redacted (memo-config's writer); `RUST_LOG` overrides
/// the default level.
fn init_tracing() {
    if let Err(error) = memo_config::init_tracing("info") {
        // Logging is not worth refusing to start over.
        eprintln!("memo: logging disabled: {error}");
    }
}

pub fn run() {
    init_tracing();
    // Before anything starts a thread or WebKit: its web process inherits the choices.
    rendering::apply();
    script_engine::apply();

    let memo_home = state::memo_home_from_env();
    #[cfg(unix)]
    let Launches { listener, socket } = claim_home(&memo_home);

    let builder = tauri::Builder::default();
    #[cfg(not(unix))]
    let builder = builder.plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
        take_launch(app, &argv, &cwd);
    }));
    let builder = builder
        // The window comes back where and as large as it was left.
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(languages::plugin())
        .on_window_event(|window, event| {
            if matches!(
                event,
                tauri::WindowEvent::Resized(_) | tauri::WindowEvent::Moved(_)
            ) {
                window_state::save_soon(window.app_handle());
            }
        })
        .setup(move |app| {
            let state = AppState::for_home(memo_home);
            // First start: bootstrap files from templates, never overwriting.
            match state.service().init_home() {
                Ok(problems) => {
                    for problem in problems {
                        tracing::warn!(path = %problem.path, "{}", problem.message);
                    }
                }
                Err(error) => tracing::warn!(%error, "MEMO_HOME could not be resolved"),
            }
            let args: Vec<String> = std::env::args().collect();
            if let Ok(cwd) = std::env::current_dir() {
                if let Some(folder) = launch::folder_from_args(&args, &cwd) {
                    state.open_requests().push(&folder);
                }
            }
            state.attention().attach(app.handle().clone());
            #[cfg(unix)]
            if let Some(listener) = listener {
                let handle = app.handle().clone();
                tauri::async_runtime::spawn(
                    listener.serve(move |launch| take_launch(&handle, &launch.args, &launch.cwd)),
                );
            }
            if let Some(window) = app.get_webview_window("main") {
                caret::attach(&window);
            }
            app.manage(state);
            Ok(())
        })
        // A (re)loading page has lost every terminal it had open: end their shells
        // instead of leaving them running unseen.
        .on_page_load(|webview, payload| {
            if payload.event() == tauri::webview::PageLoadEvent::Started {
                if let Some(state) = webview.try_state::<AppState>() {
                    state.terminals().close_all();
                    // Nor any channel: what waited for the old page is for no one.
                    state.mailbox().clear();
                }
            }
        })
        .plugin(tauri_plugin_dialog::init())
        // Links in answers open in the system browser, never in the app's own window.
        .plugin(tauri_plugin_opener::init())
        .invoke_handler(ipc::handler());

    let app = match builder.build(tauri::generate_context!()) {
        Ok(app) => app,
        Err(error) => {
            tracing::error!(%error, "Memo could not start");
            std::process::exit(1);
        }
    };
    app.run(move |handle, event| {
        if let tauri::RunEvent::Exit = event {
            // Deny pending approvals and stop running turns so the event log ends cleanly.
            let state = handle.state::<AppState>();
            tauri::async_runtime::block_on(state.bridge().shutdown());
            // No shell, nor anything started in a terminal, outlives the app.
            state.terminals().shutdown();
            #[cfg(unix)]
            if let Some(socket) = &socket {
                let _ = std::fs::remove_file(socket);
            }
        }
    });
}

/// A later launch's command line, taken by the running app: its folder opens here, and the
/// window comes to the front.
fn take_launch(app: &tauri::AppHandle, args: &[String], cwd: &str) {
    if let Some(state) = app.try_state::<AppState>() {
        if let Some(folder) = launch::folder_from_args(args, std::path::Path::new(cwd)) {
            state.open_requests().push(&folder);
            // Not delivered: the window takes the queue once it is ready.
            if !state.signals().send(WindowSignal::OpenRequests) {
                tracing::debug!("no window listening yet for a folder to open");
            }
        }
    }
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

#[cfg(unix)]
struct Launches {
    /// Serves later launches once the app is set up; none when another app has the home.
    listener: Option<single_instance::Listener>,
    /// Removed when the app ends.
    socket: Option<std::path::PathBuf>,
}

/// Becomes the Memo home's app, or hands this launch to the one running and exits, before
/// anything opens a window. When neither works (no private folder for the socket, a hung
/// app), this one runs on its own: a window is worth more than the single-instance rule.
#[cfg(unix)]
fn claim_home(memo_home: &Result<memo_config::MemoHome, String>) -> Launches {
    use single_instance::{Claim, Handover};
    let alone = Launches {
        listener: None,
        socket: None,
    };
    // Not resolved: reported once the app is up (AppState keeps the error).
    let Ok(home) = memo_home else {
        return alone;
    };
    let handover = Handover {
        args: std::env::args().collect(),
        cwd: std::env::current_dir()
            .map(|dir| dir.display().to_string())
            .unwrap_or_default(),
    };
    match single_instance::place_for(home.root())
        .and_then(|place| single_instance::claim(&place, &handover))
    {
        Ok(Claim::First(listener)) => Launches {
            socket: Some(listener.socket_path().to_path_buf()),
            listener: Some(listener),
        },
        Ok(Claim::HandedOver) => std::process::exit(0),
        Ok(Claim::Alone(why)) => {
            tracing::warn!("{why}");
            alone
        }
        Err(error) => {
            tracing::warn!(%error, "no single-instance socket; later launches open windows of their own");
            alone
        }
    }
}
