//! Provider API keys: where one would come from, and storing or removing it in the OS
//! keychain. The key only travels from the UI to the keychain; no command returns it.

use memo_protocol::KeyStatus;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

#[tauri::command]
pub async fn key_status(
    state: State<'_, AppState>,
    provider: String,
) -> Result<KeyStatus, CommandError> {
    state.bridge().key_status(&provider)
}

#[tauri::command]
pub async fn set_api_key(
    state: State<'_, AppState>,
    provider: String,
    key: String,
) -> Result<KeyStatus, CommandError> {
    state.bridge().set_api_key(&provider, &key)
}

#[tauri::command]
pub async fn delete_api_key(
    state: State<'_, AppState>,
    provider: String,
) -> Result<KeyStatus, CommandError> {
    state.bridge().delete_api_key(&provider)
}
