//! Session commands: start/resume/list sessions, stream their events, submit ops,
//! rename, delete and rewind them.
//! Async so they run on Tauri's Tokio runtime, which session actors need.

use std::path::PathBuf;

use memo_protocol::{
    EventEnvelope, Op, ProviderSummary, RewindOutcome, SearchResult, SessionId, SessionSummary,
};
use tauri::ipc::Channel;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

#[tauri::command]
pub async fn list_providers(
    state: State<'_, AppState>,
) -> Result<Vec<ProviderSummary>, CommandError> {
    state.bridge().list_providers()
}

#[tauri::command]
pub async fn start_session(
    state: State<'_, AppState>,
    cwd: String,
    provider: Option<String>,
    model: Option<String>,
) -> Result<SessionSummary, CommandError> {
    state
        .bridge()
        .start_session(PathBuf::from(cwd), provider, model)
}

#[tauri::command]
pub async fn resume_session(
    state: State<'_, AppState>,
    session_id: SessionId,
) -> Result<SessionSummary, CommandError> {
    state.bridge().resume_session(&session_id)
}

#[tauri::command]
pub async fn list_sessions(
    state: State<'_, AppState>,
    cwd: Option<String>,
) -> Result<Vec<SessionSummary>, CommandError> {
    state.bridge().list_sessions(cwd)
}

/// Events with `seq > after_seq` arrive on `on_events` in batches, stored ones first.
#[tauri::command]
pub async fn subscribe_session(
    state: State<'_, AppState>,
    session_id: SessionId,
    after_seq: u64,
    on_events: Channel<Vec<EventEnvelope>>,
) -> Result<(), CommandError> {
    state.bridge().subscribe(&session_id, after_seq, on_events)
}

#[tauri::command]
pub async fn submit_op(
    state: State<'_, AppState>,
    session_id: SessionId,
    op: Op,
) -> Result<(), CommandError> {
    state.bridge().submit(&session_id, op)
}

#[tauri::command]
pub async fn rename_session(
    state: State<'_, AppState>,
    session_id: SessionId,
    title: String,
) -> Result<SessionSummary, CommandError> {
    state.bridge().rename_session(&session_id, &title)
}

#[tauri::command]
pub async fn delete_session(
    state: State<'_, AppState>,
    session_id: SessionId,
) -> Result<(), CommandError> {
    state.bridge().delete_session(&session_id).await
}

/// A new open session with the history before the turn starting at event `turn_seq`,
/// and that turn's message.
#[tauri::command]
pub async fn rewind_session(
    state: State<'_, AppState>,
    session_id: SessionId,
    turn_seq: u64,
) -> Result<RewindOutcome, CommandError> {
    state.bridge().rewind_session(&session_id, turn_seq)
}

/// Messages matching `query` across stored sessions (those of `cwd` when given).
#[tauri::command]
pub async fn search_sessions(
    state: State<'_, AppState>,
    query: String,
    cwd: Option<String>,
) -> Result<Vec<SearchResult>, CommandError> {
    state.bridge().search_sessions(&query, cwd.as_deref())
}
