//! What MCP servers change in a session besides its tools (see `tool_view`): a turn
//! waits for their startup, and their state changes become `mcp_server_status` events.

use std::sync::Arc;

use memo_mcp::{McpEvent, McpManager, ServerSnapshot, ServerStatus};
use memo_protocol::{AgentEvent, McpServerState};
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

use super::emitter::Emitter;
use crate::tools::ToolRegistry;

/// Waits, at the start of a turn, until the MCP servers have had their startup time.
/// Returns false when the user interrupted the wait.
pub(crate) async fn wait_for_tools(tools: &ToolRegistry, cancel: &CancellationToken) -> bool {
    tokio::select! {
        _ = tools.ready() => true,
        _ = cancel.cancelled() => false,
    }
}

fn status_event(s: ServerSnapshot) -> AgentEvent {
    AgentEvent::McpServerStatus {
        status: match s.status {
            ServerStatus::Starting => McpServerState::Starting,
            ServerStatus::Ready => McpServerState::Ready,
            ServerStatus::Failed => McpServerState::Failed,
            ServerStatus::Crashed => McpServerState::Crashed,
            ServerStatus::NeedsAuth => McpServerState::NeedsAuth,
            ServerStatus::Stopped => McpServerState::Stopped,
            ServerStatus::Disabled => McpServerState::Disabled,
        },
        transport: s.transport,
        source: s.source.to_string(),
        tools: u32::try_from(s.tools.len()).unwrap_or(u32::MAX),
        message: s.message,
        phrase: s.phrase,
        stderr_tail: s.stderr_tail,
        restarts: s.restarts,
        server: s.name,
    }
}

/// Turns the servers' state changes into session events until the session ends.
pub(crate) fn forward_status(
    emitter: Arc<Emitter>,
    mcp: McpManager,
    mut finished: watch::Receiver<bool>,
) {
    let mut events = mcp.subscribe();
    tokio::spawn(async move {
        let emit = |snapshot: ServerSnapshot| {
            let _ = emitter.emit(None, status_event(snapshot));
        };
        for snapshot in mcp.servers() {
            emit(snapshot);
        }
        loop {
            tokio::select! {
                event = events.recv() => match event {
                    Ok(McpEvent::Status(snapshot)) => emit(snapshot),
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                changed = finished.changed() => {
                    if changed.is_err() || *finished.borrow() {
                        break;
                    }
                }
            }
        }
    });
}
