//! One actor task per session: it owns the conversation, runs at most one turn at a time
//! and answers ops (interrupt, approvals) while a turn runs.
//!
//! The layers, each importing only the ones below it: the actor (`actor`, with `input`
//! and `slash_answers` for what a user message becomes) starts turns; `turn` is the one
//! orchestrator of a turn; its components (`step`, `tool_calls`, `approvals`,
//! `compaction`) work through a `scope::TurnScope` and return what happened; `hooks`
//! runs the user's hooks at each of the turn's moments; `state` is what the actor and a
//! running turn share.

mod actor;
mod approvals;
mod checkpoint;
pub mod children;
mod compaction;
pub mod context;
mod conversation;
pub mod elicit;
mod emitter;
pub mod history;
mod hooks;
pub mod images;
mod input;
mod mcp;
mod model;
mod peer_terminals;
mod peer_turn;
mod prompt_sources;
mod repeats;
mod scope;
mod slash_answers;
mod state;
mod step;
mod subscription;
mod tool_calls;
mod tool_view;
mod turn;

pub use actor::{spawn_session, SessionHandle, SessionStart};
pub use approvals::{ApprovalMode, Grants};
pub use children::{ChildAgents, Children, ParentLink, SubagentRole};
pub use context::{PeerLink, SessionContext};
pub use model::{ModelBinding, ModelResolver};
pub use peer_turn::PeerTurn;
pub use state::{SessionParams, TurnLimits};
pub use subscription::EventReceiver;
pub(crate) use tool_view::{role_tokens, session_prompt_mode, with_role};
