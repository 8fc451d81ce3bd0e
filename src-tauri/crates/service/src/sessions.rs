//! Sessions: starting and resuming them, their event streams and ops, and listing the
//! stored ones.

use std::path::{Path, PathBuf};

pub(crate) use memo_engine::context::text::one_line;
use memo_engine::{EventReceiver, SessionOptions, SessionOverrides};
use memo_protocol::{
    AgentEvent, EventEnvelope, Op, Phrase, SessionId, SessionPage, SessionSummary,
};
use memo_store::{SessionRecord, Store};

use crate::error::{Result, ServiceError};
use crate::service::{lock, Service};

/// Characters of the first message kept as a session's preview.
pub(crate) const PREVIEW_CHARS: usize = 80;
/// Events looked at for the first message (it is the first event, after a fork header).
const PREVIEW_SCAN: usize = 8;

/// What a new session starts with.
#[derive(Debug, Clone, Default)]
pub struct StartRequest {
    pub cwd: PathBuf,
    /// Provider name from config.toml; `None` uses `current_provider`.
    pub provider: Option<String>,
    /// Overrides the provider's configured model.
    pub model: Option<String>,
    pub max_steps: Option<u32>,
    /// Starts the folder's project MCP servers whatever its recorded trust says
    /// (memo-cli `--trust`); `None` follows the decision.
    pub trust_project: Option<bool>,
    /// Overrides config.toml's `approval_mode` for this session.
    pub approval_mode: Option<memo_protocol::ApprovalMode>,
    /// MCP servers for this run only (an editor's, over ACP).
    pub mcp_servers: Vec<memo_mcp::ServerConfig>,
    /// Where the tools read, write and run commands instead of the disk and Memo's own
    /// terminal (an editor's buffers and terminals).
    pub hosts: memo_tools::Hosts,
}

impl StartRequest {
    pub(crate) fn options(&self) -> SessionOptions {
        SessionOptions {
            cwd: self.cwd.clone(),
            provider: self.provider.clone(),
            model: self.model.clone(),
            max_steps: self.max_steps,
            trust_project: self.trust_project,
            approval_mode: self.approval_mode,
            mcp_servers: self.mcp_servers.clone(),
            hosts: self.hosts.clone(),
        }
    }
}

impl Service {
    /// Starts a new live session. Must run inside the Tokio runtime.
    pub fn start_session(&self, request: StartRequest) -> Result<SessionSummary> {
        let engine = self.engine()?;
        let handle = engine.start_session(request.options())?;
        self.keep_background(&engine);
        let id = handle.id().clone();
        // A new id: nobody else can hold it; a store that cannot record it stops it.
        if let Err(error) = self.hold(&id) {
            let _ = handle.submit(Op::Shutdown);
            return Err(error);
        }
        lock(&self.live).insert(id.clone(), handle);
        let summary = self.session(&id)?;
        self.track_activity(&summary)?;
        Ok(summary)
    }

    /// Makes a stored session live (a no-op when it already is). Imported (read-only)
    /// history continues in a fork: the summary returned is then the fork's, with its own
    /// id. Must run inside the Tokio runtime.
    pub fn resume_session(&self, id: &SessionId, max_steps: Option<u32>) -> Result<SessionSummary> {
        self.resume_session_with(
            id,
            SessionOverrides {
                max_steps,
                ..SessionOverrides::default()
            },
        )
    }

    /// [`Self::resume_session`] with settings overridden for this run of it (memo-cli
    /// `--trust`).
    pub fn resume_session_with(
        &self,
        id: &SessionId,
        overrides: SessionOverrides,
    ) -> Result<SessionSummary> {
        let _one_at_a_time = lock(&self.resuming);
        if lock(&self.live).contains_key(id) {
            return self.session(id);
        }
        // A subagent's session runs under its parent (or not at all): shown, not resumed.
        if self
            .store()?
            .session(id)?
            .is_some_and(|r| r.agent_type.is_some())
        {
            return self.session(id);
        }
        // Another process running it (the window, an editor's `memo-cli acp`) keeps it.
        self.hold(id)?;
        let external = self
            .store()?
            .session(id)?
            .and_then(|r| memo_protocol::external_agent_of(&r.provider).map(str::to_owned));
        let resumed = match external {
            Some(agent) => self.resume_external(id, &agent, overrides.approval_mode),
            None => self
                .engine()?
                .resume_session_with(id, overrides)
                .map_err(Into::into),
        };
        let handle = match resumed {
            Ok(handle) => handle,
            Err(error) => {
                self.release(id);
                return Err(error);
            }
        };
        let live_id = handle.id().clone();
        if live_id != *id {
            // Imported history continues in its fork: that is the session run here.
            self.release(id);
            if let Err(error) = self.hold(&live_id) {
                let _ = handle.submit(Op::Shutdown);
                return Err(error);
            }
        }
        let mut live = lock(&self.live);
        let started = match live.entry(live_id.clone()) {
            // Imported history resumes into its fork, which may already be open here:
            // keep that one and stop the actor just started.
            std::collections::hash_map::Entry::Occupied(_) => {
                let _ = handle.submit(Op::Shutdown);
                false
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(handle);
                true
            }
        };
        drop(live);
        let summary = self.session(&live_id)?;
        if started {
            self.track_activity(&summary)?;
        }
        Ok(summary)
    }

    pub fn is_live(&self, id: &SessionId) -> bool {
        lock(&self.live).contains_key(id)
    }

    /// The live session's events after `after_seq`, stored ones first, then as they happen.
    /// A subagent's session streams through its parent while it runs, and its stored
    /// events once nothing runs it.
    pub fn subscribe(&self, id: &SessionId, after_seq: u64) -> Result<EventReceiver> {
        if let Some(handle) = lock(&self.live).get(id) {
            return Ok(handle.subscribe(after_seq)?);
        }
        self.subscribe_child(id, after_seq)?.ok_or_else(|| {
            ServiceError::not_found(Phrase::SessionNotOpenResume { id: id.to_string() })
        })
    }

    pub fn submit(&self, id: &SessionId, op: Op) -> Result<()> {
        if let Some(handle) = lock(&self.live).get(id) {
            return Ok(handle.submit(op)?);
        }
        self.submit_to_child(id, op).unwrap_or_else(|| {
            Err(ServiceError::not_found(Phrase::SessionNotOpen {
                id: id.to_string(),
            }))
        })
    }

    /// A live session's MCP prompts as (command, description).
    pub(crate) fn live_mcp_prompts(&self, id: &SessionId) -> Vec<(String, Option<String>)> {
        lock(&self.live)
            .get(id)
            .map(|h| h.mcp_prompt_commands())
            .unwrap_or_default()
    }

    /// The assembled prompt of a live session as it started, if it is live.
    /// Restarts MCP server `name` in every open session that has it; returns how many.
    pub fn restart_mcp_server(&self, name: &str) -> u32 {
        lock(&self.live)
            .values()
            .filter(|h| h.restart_mcp_server(name))
            .count() as u32
    }

    pub(crate) fn live_approval_mode(&self, id: &SessionId) -> Option<memo_protocol::ApprovalMode> {
        lock(&self.live).get(id).map(|h| h.approval_mode())
    }

    pub(crate) fn live_prompt(&self, id: &SessionId) -> Option<memo_protocol::PromptReport> {
        lock(&self.live).get(id).and_then(|h| h.prompt_report())
    }

    /// Stops one session if it is live (its turn interrupted, approvals denied, its tools
    /// and MCP servers stopped) and forgets it. Returns whether it was live.
    pub async fn close_session(&self, id: &SessionId) -> bool {
        let Some(handle) = lock(&self.live).remove(id) else {
            return false;
        };
        let _ = handle.submit(Op::Shutdown);
        handle.closed().await;
        self.release(id);
        true
    }

    /// Stops every live session (pending approvals are denied, running turns interrupted).
    pub async fn shutdown(&self) {
        let live: Vec<_> = lock(&self.live).drain().collect();
        for (_, handle) in &live {
            let _ = handle.submit(Op::Shutdown);
        }
        for (id, handle) in live {
            handle.closed().await;
            self.release(&id);
        }
    }

    /// Takes `id` for this process, or says which other one runs it.
    pub(crate) fn hold(&self, id: &SessionId) -> Result<()> {
        let Some(me) = &self.holder else {
            return Ok(());
        };
        match self.store()?.hold(id, me)? {
            None => Ok(()),
            Some(other) => Err(ServiceError::said(
                memo_protocol::ErrorCode::Conflict,
                Phrase::SessionHeldElsewhere {
                    program: other.program,
                    pid: other.pid.to_string(),
                },
            )),
        }
    }

    fn release(&self, id: &SessionId) {
        let (Some(me), Ok(store)) = (&self.holder, self.store()) else {
            return;
        };
        if let Err(error) = store.release(id, me) {
            // A hold left behind is taken over once this process is gone.
            tracing::warn!(%error, session = %id, "could not release the session");
        }
    }

    /// Stored sessions, most recently active first; those of `cwd` when given.
    pub fn list_sessions(
        &self,
        cwd: Option<&Path>,
        limit: usize,
        offset: usize,
    ) -> Result<SessionPage> {
        let store = self.store()?;
        let cwd = cwd.map(canonical_string);
        let records = store.list_sessions(cwd.as_deref(), limit, offset)?;
        let total = store.count_sessions(cwd.as_deref())?;
        let sessions = records
            .into_iter()
            .map(|r| summarize(&store, r))
            .collect::<Result<_>>()?;
        Ok(SessionPage { total, sessions })
    }

    /// One stored session.
    pub fn session(&self, id: &SessionId) -> Result<SessionSummary> {
        let store = self.store()?;
        let record = store.session(id)?.ok_or_else(|| session_not_found(id))?;
        summarize(&store, record)
    }

    /// Stored events with `seq > after`, at most `limit`.
    /// Calls stored before tool views get theirs (`memo_engine::views`).
    pub fn events(&self, id: &SessionId, after: u64, limit: usize) -> Result<Vec<EventEnvelope>> {
        let session = self.session(id)?;
        let mut events = self.store()?.events(id, after, limit)?;
        memo_engine::views::fill_missing(&mut events, std::path::Path::new(&session.cwd));
        Ok(events)
    }

    /// The last `count` stored events, with views as [`Service::events`].
    pub fn last_events(&self, id: &SessionId, count: usize) -> Result<Vec<EventEnvelope>> {
        let session = self.session(id)?;
        let mut events = self.store()?.events_before(id, u64::MAX, count)?;
        memo_engine::views::fill_missing(&mut events, std::path::Path::new(&session.cwd));
        Ok(events)
    }
}

/// No stored session `id`.
pub(crate) fn session_not_found(id: &SessionId) -> ServiceError {
    ServiceError::not_found(Phrase::SessionNotFound { id: id.to_string() })
}

pub(crate) fn summarize(store: &Store, r: SessionRecord) -> Result<SessionSummary> {
    let last_seq = store.last_seq(&r.id)?;
    let preview = first_message(store, &r.id)?.map(|text| one_line(&text, PREVIEW_CHARS));
    Ok(SessionSummary {
        id: r.id,
        title: r.title,
        cwd: r.cwd,
        provider: r.provider,
        model: r.model,
        created_ms: r.created_ms,
        updated_ms: r.updated_ms,
        last_seq,
        preview,
        parent_session_id: r.parent_session_id,
        fork_seq: r.fork_seq,
        read_only: r.read_only,
        origin: r.origin,
        origin_id: r.origin_id,
        agent_type: r.agent_type,
    })
}

/// The text of the session's first turn, looked for in its first events.
pub(crate) fn first_message(store: &Store, id: &SessionId) -> Result<Option<String>> {
    let head = store.events(id, 0, PREVIEW_SCAN)?;
    Ok(head.into_iter().find_map(|e| match e.event {
        AgentEvent::TurnStarted { input } => Some(input.text),
        _ => None,
    }))
}

/// Sessions are stored under the canonical path the engine resolved.
pub(crate) fn canonical_string(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}
