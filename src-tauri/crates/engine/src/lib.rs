//! The agent engine: session actors running the turn loop over a model client and a tool
//! registry, persisting every event before delivering it. No Tauri here: the desktop
//! shell, the CLI, tests and benches all drive this crate through `Op`s and events.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod agents;
pub mod answer;
mod ask;
pub mod changes;
mod engine;
mod error;
pub mod imported_rules;
mod options;
pub mod peer;
mod preview;
pub mod prompt;
mod read_skill;
pub mod rules;
pub mod session;
pub mod title;
pub mod tool_groups;
pub mod trust;
pub mod views;

pub use engine::{approval_mode, disabled_tools, is_loopback, Engine};
pub use error::EngineError;
/// Prompt assembly, skills, commands and compaction, re-exported for hosts.
pub use memo_context as context;
/// The tool layer, re-exported so clients of the engine need one dependency.
pub use memo_tools as tools;
pub use options::{EngineOptions, EnvLookup, SessionOptions, SessionOverrides};
pub use preview::prompt_layers;
pub use read_skill::{ReadSkillTool, NAME as READ_SKILL};
pub use session::{
    spawn_session, ApprovalMode, EventReceiver, PeerLink, SessionContext, SessionHandle,
    SessionParams, SessionStart, TurnLimits,
};
