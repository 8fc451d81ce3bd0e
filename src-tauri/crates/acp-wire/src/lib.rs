//! The Agent Client Protocol on the wire, for both of Memo's sides of it: the agent
//! (`memo-cli acp`, in `memo-acp`) and the client that runs other agents in Memo's window
//! (`memo-acp-client`).
//!
//! - [`rpc`]: JSON-RPC 2.0 over newline-delimited JSON, both ways, bad input answered.
//! - [`schema`]: the protocol's messages, as the spec writes them.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod rpc;
pub mod schema;
