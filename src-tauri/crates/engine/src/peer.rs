//! Sessions whose turns another agent runs: an external agent (Claude Code, Codex,
//! Gemini CLI… over the Agent Client Protocol) instead of Memo's model loop.
//!
//! Memo keeps everything around the agent: the session's log (persisted before it is
//! delivered, like any session's), its approvals (the person's kept rules and session
//! grants, by the same fingerprints as Memo's own tools), the path policy and read-deny
//! rules on the files the agent asks Memo to read or write, the command guard and the
//! sandbox on the terminals it asks for, and checkpoints around each of its tool calls, so
//! the changes panel, per-hunk revert and rewind work on what it changed — by Memo's
//! hands or its own.
//!
//! The agent's side is a [`Peer`] (the ACP client implements it); each prompt gets a
//! [`PeerTurn`], through which everything the agent does reaches the session.

use futures::future::BoxFuture;
use memo_protocol::{AgentSetting, RiskLevel, UserInput};

pub use crate::session::PeerTurn;

/// Another agent, running one session of its own for this Memo session.
pub trait Peer: Send + Sync + 'static {
    /// Runs one prompt to its end. What the agent says and does arrives through `turn`
    /// meanwhile; the future ends when the agent answers the prompt.
    fn prompt(
        &self,
        input: UserInput,
        turn: PeerTurn,
    ) -> BoxFuture<'static, Result<PeerStop, PeerError>>;
    /// Asks the agent to stop the running prompt; its [`Peer::prompt`] still returns.
    fn cancel(&self);
    /// Stops the agent for good: its whole process tree.
    fn shutdown(&self) -> BoxFuture<'static, ()>;
    /// Sets one of the agent's own settings (its mode, model…): now when it runs, else when
    /// it starts. Gives all its settings as they are then.
    fn set_setting(
        &self,
        setting: String,
        value: String,
    ) -> BoxFuture<'static, Result<Vec<AgentSetting>, PeerError>>;
}

/// Why the agent ended a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerStop {
    EndTurn,
    MaxTokens,
    MaxTurnRequests,
    Refusal,
    Cancelled,
}

/// The agent failed: it crashed, hung up, broke the protocol or answered with an error.
/// The message is for the person, in English (what the agent or its OS said).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PeerError(pub String);

/// What the agent wants to do, as Memo's approvals judge it.
#[derive(Debug, Clone, PartialEq)]
pub enum PeerAction {
    /// A shell command: judged as Memo's `exec_command` would be (the guard, rules by
    /// command prefix).
    Command {
        command: String,
        cwd: Option<String>,
    },
    /// A file written whole: judged as Memo's `write_file` (path policy, a diff, rules by
    /// file).
    Write { path: String, content: String },
    /// A replacement in a file (`old_text` → `new_text`, the first match), or a new file
    /// (`old_text` is `None`): judged as the whole file it makes would be.
    Edit {
        path: String,
        old_text: Option<String>,
        new_text: String,
    },
    /// Anything else (its own MCP tools, a fetch…): `risk` as the agent's tool kind says,
    /// rules by `fingerprint`.
    Other {
        risk: RiskLevel,
        fingerprint: String,
    },
}

/// A question the agent asks before a call of its own (`session/request_permission`).
#[derive(Debug, Clone, PartialEq)]
pub struct PeerAsk {
    /// The agent's id of the call.
    pub call_id: String,
    /// The call's name on its card (the agent's title).
    pub title: String,
    pub action: PeerAction,
    /// The agent's arguments, as it sent them.
    pub arguments: serde_json::Value,
}

/// How a question was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerAnswer {
    /// Go ahead (the person said so, or a kept rule, a session grant or the mode does).
    Allowed,
    /// Do not; why, for the agent.
    Denied(String),
    /// The turn was stopped before an answer.
    Cancelled,
}

/// How a terminal's command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerExit {
    pub code: Option<i32>,
    pub signal: Option<String>,
}

/// What a terminal printed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerOutput {
    pub output: String,
    /// Bytes were dropped from the start to keep within the agent's limit.
    pub truncated: bool,
    pub exit: Option<PeerExit>,
}

/// What a session another agent runs starts with.
pub struct PeerSessionOptions {
    pub cwd: std::path::PathBuf,
    /// The external agent's name in config.toml: stored as the session's provider, with
    /// [`memo_protocol::EXTERNAL_AGENT_PROVIDER_PREFIX`] in front.
    pub agent: String,
    /// What the session is labelled with as its model (the agent's own name for itself).
    pub label: String,
    /// Overrides config.toml's `approval_mode`.
    pub approval_mode: Option<crate::ApprovalMode>,
    /// A stored session to continue (`None`: a new one).
    pub resume: Option<memo_protocol::SessionId>,
}

/// The model client of a session another agent runs: Memo never calls a model for it.
struct NoModel;

impl memo_providers::ModelClient for NoModel {
    fn stream(
        &self,
        _request: memo_model::ModelRequest,
    ) -> BoxFuture<'static, Result<memo_providers::ResponseStream, memo_providers::ProviderError>>
    {
        Box::pin(async {
            Err(memo_providers::ProviderError::Fatal(
                "this session's turns are run by an external agent, not by a model of Memo's"
                    .into(),
            ))
        })
    }
}

impl crate::Engine {
    /// Starts (or resumes) a session whose turns `peer` runs. Memo's approvals, kept rules,
    /// read-deny rules and checkpoints apply to what it does; Memo's model, tools for the
    /// model, MCP servers and hooks do not run (the agent has its own).
    pub fn start_peer_session(
        &self,
        opts: PeerSessionOptions,
        peer: std::sync::Arc<dyn Peer>,
    ) -> Result<crate::SessionHandle, crate::EngineError> {
        let cwd = crate::options::usable_cwd(opts.cwd)?;
        let (id, start) = match opts.resume {
            Some(id) => (id, crate::SessionStart::Resume),
            None => (
                memo_protocol::SessionId::new(uuid::Uuid::now_v7().to_string()),
                crate::SessionStart::New,
            ),
        };
        let options = self.options();
        let imported = self.imported_permissions(Some(&cwd));
        let trusted = self.project_trusted(&cwd, &imported);
        let context = crate::SessionContext {
            approval_rules: self.rule_store(),
            imported_rules: crate::imported_rules::as_rules(&imported, &cwd, trusted),
            command_limits: crate::imported_rules::command_limits(&imported),
            peer: Some(crate::PeerLink(peer)),
            ..crate::SessionContext::default()
        };
        let limits = crate::TurnLimits {
            approval_mode: match opts.approval_mode {
                Some(mode) => mode,
                None => crate::approval_mode(&options.config)?,
            },
            ..crate::TurnLimits::default()
        };
        let params = crate::SessionParams {
            id,
            cwd,
            provider: memo_protocol::external_agent_provider(&opts.agent),
            model: opts.label,
            client: std::sync::Arc::new(NoModel),
            resolver: None,
            // Memo's own file and exec tools judge (and write) what the agent asks for.
            tools: crate::tools::ToolRegistry::builtin(),
            store: options.store.clone(),
            system_prompt: String::new(),
            limits,
            memo_home: options.memo_home.clone(),
            context,
            checkpoints: options.checkpoints.clone(),
        };
        crate::spawn_session(params, start)
    }
}
