//! Memo's engine as an Agent Client Protocol agent: `memo-cli acp` serves it on stdin and
//! stdout, so Zed, JetBrains, Neovim and any other ACP client run Memo's agent with
//! Memo's approvals, guard, sandbox, checkpoints and store.
//!
//! - [`rpc`] and [`schema`] (from `memo-acp-wire`): the connection and the messages.
//! - [`agent`]: each ACP method as a call on the service; sessions are Memo sessions.
//! - [`updates`]: events as `session/update`s, tool calls from their typed views.
//! - [`permission`]: approvals as `session/request_permission`, answers read strictly.
//! - [`editor`]: the editor a session's tools ask for its files and terminals.
//! - [`files`]: the editor's buffers for Memo's file tools, when it offers `fs/*`.
//! - [`terminals`]: the editor's terminals for `exec_command`, when it offers `terminal/*`.
//! - [`input`]: a prompt's content blocks as the message the engine takes.
//! - [`models`]: model selection, as the session's `model` setting.
//! - [`mcp`]: the editor's MCP servers as Memo's server definitions, for the session.
//!
//! Nothing here is written to stdout but protocol messages: logs go to stderr.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod agent;
pub mod editor;
pub mod files;
pub mod input;
pub mod mcp;
pub mod models;
pub mod permission;
pub mod terminals;
pub mod updates;

pub use memo_acp_wire::{rpc, schema};

use std::sync::Arc;

use memo_service::Service;
use tokio::io::{AsyncBufRead, AsyncWrite};

/// Serves ACP on `input` and `output` until the input closes, then stops the sessions
/// this connection opened.
pub async fn serve<R, W>(service: Arc<Service>, input: R, output: W)
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (peer, mut incoming) = rpc::connect(input, output);
    let agent = agent::Agent::new(service, peer);
    while let Some(message) = incoming.recv().await {
        agent.receive(message);
    }
    agent.close().await;
}
