//! The desktop shell: wires Tauri to the engine. Kept thin on purpose — logic lives in the
//! tauri-free crates under `src-tauri/crates/` so it can be tested without WebKit.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod api_keys;
pub mod bridge;
pub mod commands;
pub mod error;
pub mod session_admin;
pub mod state;

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

    let builder = tauri::Builder::default()
        .setup(|app| {
            let state = AppState::from_env(app.path().home_dir().ok());
            match state.memo_home() {
                Ok(path) => {
                    tracing::info!(memo_home = %path.display(), "starting Memo");
                    // First start: bootstrap files from templates, never overwriting.
                    let init = memo_engine::context::init_home(path);
                    for problem in init.problems {
                        tracing::warn!(path = %problem.path, "{}", problem.message);
                    }
                }
                Err(error) => tracing::warn!(%error, "MEMO_HOME could not be resolved"),
            }
            app.manage(state);
            Ok(())
        })
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(tauri::generate_handler![
            commands::app::app_info,
            commands::session::list_providers,
            commands::session::start_session,
            commands::session::resume_session,
            commands::session::list_sessions,
            commands::session::subscribe_session,
            commands::session::submit_op,
            commands::session::rename_session,
            commands::session::delete_session,
            commands::session::rewind_session,
            commands::session::search_sessions,
            commands::keys::key_status,
            commands::keys::set_api_key,
            commands::keys::delete_api_key,
            commands::prompt::prompt_layers,
        ]);

    let app = match builder.build(tauri::generate_context!()) {
        Ok(app) => app,
        Err(error) => {
            tracing::error!(%error, "Memo could not start");
            std::process::exit(1);
        }
    };
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            // Deny pending approvals and stop running turns so the event log ends cleanly.
            let state = handle.state::<AppState>();
            tauri::async_runtime::block_on(state.bridge().shutdown());
        }
    });
}
