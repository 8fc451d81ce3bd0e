//! One actor task per session: it owns the conversation, runs at most one turn at a time
//! and answers ops (interrupt, approvals) while a turn runs.

mod actor;
mod approvals;
mod checkpoint;
mod commands;
mod compaction;
pub mod context;
mod conversation;
pub mod elicit;
mod emitter;
pub mod history;
pub mod images;
mod input;
mod mcp;
mod model;
mod prompt_sources;
mod repeats;
mod scope;
mod step;
mod tool_calls;
mod turn;

pub use actor::{spawn_session, SessionHandle, SessionParams, SessionStart, TurnLimits};
pub use approvals::ApprovalMode;
pub use context::SessionContext;
pub use emitter::EventReceiver;
pub use model::{ModelBinding, ModelResolver};
