//! What the model sees: the assembled system prompt as layers with their sources, sizes
//! and token estimates.

use std::path::PathBuf;

use memo_protocol::{PromptReport, SessionId};
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// The open session's prompt when `session_id` is live, else the prompt a new session in
/// `cwd` would get (with `provider`/`model`, defaulting to the config's current ones).
#[tauri::command]
pub async fn prompt_layers(
    state: State<'_, AppState>,
    session_id: Option<SessionId>,
    cwd: Option<String>,
    provider: Option<String>,
    model: Option<String>,
) -> Result<PromptReport, CommandError> {
    state
        .bridge()
        .prompt_layers(session_id.as_ref(), cwd.map(PathBuf::from), provider, model)
}
