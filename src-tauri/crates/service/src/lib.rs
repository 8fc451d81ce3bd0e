//! The one API the front ends call. The desktop shell and memo-cli both go through
//! [`Service`] for sessions (live and stored), history, providers, keys and the prompt
//! report; neither opens the store or reads config.toml itself. Everything returned is a
//! protocol type (or an engine event stream), and every failure is a [`ServiceError`]
//! that knows its [`memo_protocol::ErrorCode`].
//!
//! Settings (providers in config.toml, SOUL.md, a folder's AGENTS.md, skills) are edited
//! in place and refused as a conflict when the file changed on disk since it was read.
//!
//! Config is re-read for each operation that needs it, so an edit to config.toml takes
//! effect for the next conversation without a restart. The store is opened once, lazily.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod activity;
mod activity_feed;
mod agents;
mod approvals;
mod changes;
mod complete;
mod connect;
mod error;
mod external_agents;
mod external_mcp;
mod folders;
mod git;
mod history;
mod keep;
mod keys;
mod mcp_login;
mod mcp_settings;
mod merge;
mod outputs;
mod pages;
mod plugins;
mod repository;
mod service;
mod sessions;
mod settings;
mod skills;
mod trust;
mod worktrees;

pub use connect::LOCAL_SERVERS;
pub use error::{Result, ServiceError};
pub use external_agents::ExternalSessionRequest;
pub use history::SearchRequest;
pub use memo_engine::{EventReceiver, SessionOverrides};
/// `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC) from milliseconds since the epoch, as Memo Code writes
/// times; for front ends that print stored times.
pub use memo_store::memo_code::time::format_ms as format_timestamp;
/// Where the file tools read and write instead of the disk (an editor, over ACP).
pub use memo_tools::exec::hosted::{sandbox_exec_main, SANDBOX_EXEC};
pub use memo_tools::{ExitInfo, FileHost, HostedCommand, HostedOutput, Hosts, TerminalHost};
pub use outputs::{for_window, WINDOW_OUTPUT_LIMIT};
pub use repository::GitPlace;
pub use service::Service;
pub use sessions::StartRequest;
pub use worktrees::WorktreeSessionRequest;
