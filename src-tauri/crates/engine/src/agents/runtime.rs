//! A session's subagents while they run: starting them, giving them more input, waiting
//! for them, closing them, and keeping the parent's log told.
//!
//! Each child is a session of its own (its actor, its history in the store). One task per
//! child follows the child's events and:
//! - relays its approval questions into the parent's log (they carry the agent that asks,
//!   so the parent's UI can show them), and the answers' `approval_resolved` after them;
//!   an answer given in the parent is passed on to the child ([`ChildAgents`]);
//! - records its state changes (`subagent_updated`) with its answer when a turn ends;
//! - wakes whoever waits for it.
//!
//! At most `max_running` children work at once: a spawn or an input beyond that is refused
//! with a message the model can act on (wait for one, or close one).

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use futures::future::BoxFuture;
use std::time::Duration;

use memo_protocol::{
    AgentEvent, ApprovalId, ReviewDecision, SessionId, SubagentRef, SubagentState, TurnEndReason,
    UserInput,
};
use serde::Serialize;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::definitions::{AgentCatalog, AgentDefinition, GENERAL};
use super::investigator::ReportSlot;
use crate::session::{ChildAgents, ParentLink, SessionHandle};
use memo_protocol::Op;

/// Default of `MEMO_SUBAGENT_MAX_AGENTS`.
pub const DEFAULT_MAX_AGENTS: u32 = 4;
/// How long a shutting-down parent waits for its children to stop.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(5);
/// What a `subagent_updated` keeps of an answer (the whole of it goes to `wait`).
const LOGGED_ANSWER_CHARS: usize = 4000;

/// What a child session is started from.
pub struct ChildSpec {
    pub definition: AgentDefinition,
    pub agent: SubagentRef,
    pub parent: SessionId,
    pub approval_mode: memo_protocol::ApprovalMode,
    /// The parent's session grants, shared.
    pub grants: crate::session::Grants,
}

/// A started child: its session, and where its report lands (investigator).
pub struct StartedChild {
    pub handle: SessionHandle,
    pub report: Option<Arc<ReportSlot>>,
}

/// Starts a child session (built by the engine, which knows the config and the keys).
pub trait ChildFactory: Send + Sync {
    fn start(&self, spec: ChildSpec) -> Result<StartedChild, String>;
}

/// Where a child is, as `wait` and `list_agents` report it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChildStatus {
    pub agent_id: String,
    pub agent_type: String,
    pub state: SubagentState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

struct Child {
    agent: SubagentRef,
    /// Its session while it runs; let go once its actor has stopped, so a closed child
    /// does not keep its conversation and tools in memory for the parent's lifetime.
    handle: Mutex<Option<SessionHandle>>,
    status: watch::Sender<ChildStatus>,
    report: Option<Arc<ReportSlot>>,
    /// Relayed approval questions not answered yet.
    pending: Mutex<Vec<ApprovalId>>,
    /// Set when the runtime stopped it at its agent type's time limit.
    limit_hit: Mutex<Option<String>>,
    /// Cancels its time limit's timer when it is closed.
    timer: CancellationToken,
    time_limit: Option<Duration>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Each critical section is one push, remove or replace: a poisoned lock still holds
    // a whole value.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Child {
    fn status(&self) -> ChildStatus {
        self.status.borrow().clone()
    }

    /// Its state, without copying its answer (counted on every spawn and input).
    fn state(&self) -> SubagentState {
        self.status.borrow().state
    }

    fn handle(&self) -> Option<SessionHandle> {
        lock(&self.handle).clone()
    }

    fn submit(&self, op: Op) -> Result<(), String> {
        match self.handle() {
            Some(handle) => handle.submit(op).map_err(|e| e.to_string()),
            None => Err("its session has stopped".into()),
        }
    }

    fn set(
        &self,
        parent: &ParentLink,
        state: SubagentState,
        answer: Option<String>,
        message: Option<String>,
    ) {
        let next = ChildStatus {
            agent_id: self.agent.agent_id.clone(),
            agent_type: self.agent.agent_type.clone(),
            state,
            answer: answer.clone(),
            message: message.clone(),
        };
        self.status.send_replace(next);
        let event = AgentEvent::SubagentUpdated {
            agent_id: self.agent.agent_id.clone(),
            state,
            answer: answer.map(|a| cut(&a, LOGGED_ANSWER_CHARS)),
            message,
        };
        if let Err(error) = parent.emit(event) {
            tracing::warn!(%error, "could not record a subagent's state");
        }
    }
}

/// The subagents of one session.
pub struct Subagents {
    catalog: Arc<AgentCatalog>,
    max_running: u32,
    factory: OnceLock<Arc<dyn ChildFactory>>,
    parent: OnceLock<ParentLink>,
    children: Mutex<Vec<Arc<Child>>>,
}

impl Subagents {
    pub fn new(catalog: Arc<AgentCatalog>, max_running: u32) -> Self {
        Self {
            catalog,
            max_running: max_running.max(1),
            factory: OnceLock::new(),
            parent: OnceLock::new(),
            children: Mutex::new(Vec::new()),
        }
    }

    /// Set once, when the engine has built everything a child shares with its parent.
    pub fn set_factory(&self, factory: Arc<dyn ChildFactory>) {
        let _ = self.factory.set(factory);
    }

    pub fn catalog(&self) -> &AgentCatalog {
        &self.catalog
    }

    pub fn max_running(&self) -> u32 {
        self.max_running
    }

    fn running(&self) -> usize {
        lock(&self.children)
            .iter()
            .filter(|c| c.state().is_running())
            .count()
    }

    fn check_room(&self) -> Result<(), String> {
        if self.running() >= self.max_running as usize {
            return Err(format!(
                "{} subagents are already working, the most that may run at once; wait for \
                 one to finish (wait) or close one (close_agent) first",
                self.max_running
            ));
        }
        Ok(())
    }

    fn child(&self, id: &str) -> Result<Arc<Child>, String> {
        let children = lock(&self.children);
        children
            .iter()
            .find(|c| c.agent.agent_id == id)
            .cloned()
            .ok_or_else(|| {
                let known: Vec<&str> = children.iter().map(|c| c.agent.agent_id.as_str()).collect();
                if known.is_empty() {
                    format!("there is no subagent {id}: none was started in this session")
                } else {
                    format!(
                        "there is no subagent {id}; the subagents are {}",
                        known.join(", ")
                    )
                }
            })
    }

    /// Starts a child on `task` as `agent_type` (default `general`).
    pub fn spawn(&self, task: &str, agent_type: Option<&str>) -> Result<SubagentRef, String> {
        let parent = self
            .parent
            .get()
            .ok_or("subagents cannot start before their session has")?
            .clone();
        let factory = self
            .factory
            .get()
            .ok_or("subagents are not set up in this session")?;
        let name = agent_type
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(GENERAL);
        let definition = self.catalog.get(name).cloned().ok_or_else(|| {
            let names: Vec<&str> = self
                .catalog
                .agents()
                .iter()
                .map(|a| a.name.as_str())
                .collect();
            format!(
                "there is no agent type {name:?}; the types are: {}",
                names.join(", ")
            )
        })?;
        if task.trim().is_empty() {
            return Err("the message (the subagent's task) is empty".into());
        }
        self.check_room()?;
        let session_id = SessionId::new(uuid::Uuid::now_v7().to_string());
        let agent = SubagentRef {
            agent_id: agent_id(&session_id),
            agent_type: definition.name.clone(),
            session_id: session_id.clone(),
        };
        let time_limit = definition.limits.max_time;
        let started = factory.start(ChildSpec {
            definition,
            agent: agent.clone(),
            parent: parent.session_id().clone(),
            approval_mode: parent.approval_mode(),
            grants: parent.grants(),
        })?;
        let child = Arc::new(Child {
            status: watch::channel(ChildStatus {
                agent_id: agent.agent_id.clone(),
                agent_type: agent.agent_type.clone(),
                state: SubagentState::Running,
                answer: None,
                message: None,
            })
            .0,
            agent: agent.clone(),
            handle: Mutex::new(Some(started.handle.clone())),
            report: started.report,
            pending: Mutex::new(Vec::new()),
            limit_hit: Mutex::new(None),
            timer: CancellationToken::new(),
            time_limit,
        });
        // Followed from its first event, so nothing it asks is missed.
        let events = started
            .handle
            .subscribe(0)
            .map_err(|e| format!("could not follow the subagent: {e}"))?;
        tokio::spawn(follow(child.clone(), parent, events, started.handle));
        lock(&self.children).push(child.clone());
        child
            .submit(Op::UserTurn {
                input: UserInput::text(task),
            })
            .map_err(|e| format!("the subagent did not start: {e}"))?;
        start_timer(&child);
        Ok(agent)
    }

    /// Gives a child that is not working more input.
    pub fn send_input(&self, id: &str, message: &str) -> Result<ChildStatus, String> {
        let parent = self.parent.get().ok_or("no session")?.clone();
        let child = self.child(id)?;
        match child.state() {
            SubagentState::Running => {
                return Err(format!(
                    "{id} is still working; wait for it (wait) before sending more"
                ))
            }
            SubagentState::Closed => return Err(format!("{id} was closed; start a new one")),
            _ => {}
        }
        if message.trim().is_empty() {
            return Err("the message is empty".into());
        }
        self.check_room()?;
        // Running before the input goes in: the turn's end must not be overwritten.
        *lock(&child.limit_hit) = None;
        let before = child.status();
        child.set(&parent, SubagentState::Running, None, None);
        let sent = child.submit(Op::UserTurn {
            input: UserInput::text(message),
        });
        if let Err(why) = sent {
            child.set(&parent, before.state, before.answer, before.message);
            return Err(format!("{id} cannot take input: {why}"));
        }
        start_timer(&child);
        Ok(child.status())
    }

    /// Waits until none of `ids` (default: every running child) is working, for at most
    /// `timeout`; `cancel` (the parent's turn interrupted) ends the wait at once.
    pub async fn wait(
        &self,
        ids: &[String],
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<(Vec<ChildStatus>, bool), String> {
        let chosen: Vec<Arc<Child>> = if ids.is_empty() {
            lock(&self.children)
                .iter()
                .filter(|c| c.state() != SubagentState::Closed)
                .cloned()
                .collect()
        } else {
            ids.iter()
                .map(|id| self.child(id))
                .collect::<Result<_, _>>()?
        };
        if chosen.is_empty() {
            return Err("there is no subagent to wait for; start one with spawn_agent".into());
        }
        let all_done = futures::future::join_all(chosen.iter().map(|c| {
            let mut rx = c.status.subscribe();
            async move {
                let _ = rx.wait_for(|s| !s.state.is_running()).await;
            }
        }));
        let timed_out = tokio::select! {
            _ = cancel.cancelled() => return Err("interrupted".into()),
            done = tokio::time::timeout(timeout, all_done) => done.is_err(),
        };
        Ok((chosen.iter().map(|c| c.status()).collect(), timed_out))
    }

    /// Stops a child for good.
    pub fn close(&self, id: &str) -> Result<ChildStatus, String> {
        let parent = self.parent.get().ok_or("no session")?.clone();
        let child = self.child(id)?;
        let before = child.status();
        if before.state == SubagentState::Closed {
            return Ok(before);
        }
        close_child(&child, &parent, before);
        Ok(child.status())
    }

    pub fn list(&self) -> Vec<ChildStatus> {
        lock(&self.children).iter().map(|c| c.status()).collect()
    }
}

fn close_child(child: &Child, parent: &ParentLink, before: ChildStatus) {
    child.timer.cancel();
    let _ = child.submit(Op::Shutdown);
    child.set(parent, SubagentState::Closed, before.answer, before.message);
}

impl ChildAgents for Subagents {
    fn attach(&self, parent: ParentLink) {
        let _ = self.parent.set(parent);
    }

    fn resolve_approval(&self, id: &ApprovalId, decision: ReviewDecision) -> bool {
        let child = lock(&self.children)
            .iter()
            .find(|c| lock(&c.pending).contains(id))
            .cloned();
        match child {
            Some(child) => child
                .submit(Op::ResolveApproval {
                    request_id: id.clone(),
                    decision,
                })
                .is_ok(),
            None => false,
        }
    }

    fn interrupt_all(&self) -> usize {
        let running: Vec<Arc<Child>> = lock(&self.children)
            .iter()
            .filter(|c| c.state().is_running())
            .cloned()
            .collect();
        for child in &running {
            let _ = child.submit(Op::Interrupt);
        }
        running.len()
    }

    fn agent_types(&self) -> (Vec<memo_protocol::AgentInfo>, Vec<String>) {
        (self.catalog.infos(), self.catalog.problems.clone())
    }

    fn session(&self, id: &SessionId) -> Option<SessionHandle> {
        lock(&self.children)
            .iter()
            .find(|c| c.agent.session_id == *id)
            .and_then(|c| c.handle())
    }

    fn shutdown_all(&self) -> BoxFuture<'static, ()> {
        let Some(parent) = self.parent.get() else {
            return Box::pin(async {});
        };
        let children: Vec<Arc<Child>> = lock(&self.children).clone();
        let mut stopping = Vec::new();
        for child in children {
            let before = child.status();
            if let Some(handle) = child.handle() {
                stopping.push(handle);
            }
            if before.state != SubagentState::Closed {
                close_child(&child, parent, before);
            }
        }
        Box::pin(async move {
            let all = futures::future::join_all(stopping.iter().map(|h| h.closed()));
            if tokio::time::timeout(SHUTDOWN_WAIT, all).await.is_err() {
                tracing::warn!("subagents did not stop in time; leaving them");
            }
        })
    }

    fn set_approval_mode(&self, mode: memo_protocol::ApprovalMode) {
        for child in lock(&self.children).iter() {
            let _ = child.submit(Op::SetApprovalMode { mode });
        }
    }
}

/// `agent-` and the random end of the child's session id: short for the model, unique
/// in practice (the id's start is its creation time, shared by children of one step).
fn agent_id(session: &SessionId) -> String {
    let hex: String = session.as_str().chars().filter(|c| *c != '-').collect();
    let tail = &hex[hex.len().saturating_sub(8)..];
    format!("agent-{tail}")
}

/// Interrupts the child when its agent type's time limit passes in a turn.
fn start_timer(child: &Arc<Child>) {
    let Some(limit) = child.time_limit else {
        return;
    };
    let child = child.clone();
    let mut status = child.status.subscribe();
    tokio::spawn(async move {
        let finished = async {
            let _ = status.wait_for(|s| !s.state.is_running()).await;
        };
        tokio::select! {
            _ = child.timer.cancelled() => {}
            _ = finished => {}
            _ = tokio::time::sleep(limit) => {
                *lock(&child.limit_hit) = Some(format!(
                    "stopped at its time limit ({})",
                    human_duration(limit)
                ));
                let _ = child.submit(Op::Interrupt);
            }
        }
    });
}

fn human_duration(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 60 && secs.is_multiple_of(60) {
        format!("{} min", secs / 60)
    } else {
        format!("{secs} s")
    }
}

/// Follows one child's events until its actor stops (then the events it wrote last are
/// taken, and its session let go).
async fn follow(
    child: Arc<Child>,
    parent: ParentLink,
    mut events: crate::session::EventReceiver,
    session: SessionHandle,
) {
    let mut last_text: Option<String> = None;
    let mut last_error: Option<String> = None;
    let mut stopped = false;
    loop {
        let envelope = if stopped {
            // Everything is persisted before it is delivered: what is left is ready now.
            match events.try_recv() {
                Ok(envelope) => envelope,
                Err(_) => break,
            }
        } else {
            tokio::select! {
                biased;
                next = events.recv() => match next {
                    Some(envelope) => envelope,
                    None => break,
                },
                _ = session.closed() => {
                    stopped = true;
                    continue;
                }
            }
        };
        match envelope.event {
            AgentEvent::TurnStarted { .. } | AgentEvent::TurnResumed { .. } => {
                last_text = None;
                last_error = None;
            }
            AgentEvent::AssistantMessage { text, .. } if !text.trim().is_empty() => {
                last_text = Some(text);
            }
            AgentEvent::Error { message, .. } => last_error = Some(message),
            AgentEvent::ApprovalRequested { request } => {
                lock(&child.pending).push(request.request_id.clone());
                if let Err(error) = parent.emit(AgentEvent::ApprovalRequested { request }) {
                    tracing::warn!(%error, "could not relay a subagent's approval question");
                }
            }
            AgentEvent::ApprovalResolved {
                request_id,
                decision,
            } => {
                let was_pending = {
                    let mut pending = lock(&child.pending);
                    let before = pending.len();
                    pending.retain(|id| *id != request_id);
                    pending.len() != before
                };
                if was_pending {
                    let event = AgentEvent::ApprovalResolved {
                        request_id,
                        decision,
                    };
                    if let Err(error) = parent.emit(event) {
                        tracing::warn!(%error, "could not relay a subagent's approval answer");
                    }
                }
            }
            AgentEvent::TurnEnded { reason, .. } => {
                if child.state() == SubagentState::Closed {
                    continue;
                }
                let (state, answer, message) =
                    ended(&child, reason, last_text.take(), last_error.take());
                child.set(&parent, state, answer, message);
            }
            _ => {}
        }
    }
    // The session is gone (closed, or its actor stopped): nothing more will come.
    *lock(&child.handle) = None;
    drop(session);
    let status = child.status();
    if status.state != SubagentState::Closed {
        child.set(
            &parent,
            SubagentState::Closed,
            status.answer,
            status.message,
        );
    }
}

/// What a child's ended turn comes to: its state, answer and why it stopped.
fn ended(
    child: &Child,
    reason: TurnEndReason,
    last_text: Option<String>,
    last_error: Option<String>,
) -> (SubagentState, Option<String>, Option<String>) {
    let report = child
        .report
        .as_ref()
        .and_then(|slot| slot.take())
        .and_then(|r| serde_json::to_string_pretty(&r).ok());
    let reports = child.report.is_some();
    let answer = report.clone().or(last_text);
    let limit = lock(&child.limit_hit).take();
    match reason {
        TurnEndReason::Completed if reports && report.is_none() => (
            SubagentState::Finished,
            answer,
            Some("ended without a structured report (it did not call complete_task); its last answer is given instead".into()),
        ),
        TurnEndReason::Completed => (SubagentState::Finished, answer, None),
        TurnEndReason::Interrupted => match limit {
            Some(limit) => (SubagentState::Failed, answer, Some(limit)),
            None => (SubagentState::Interrupted, answer, None),
        },
        // It reported on its last allowed call: the report is what was asked for.
        TurnEndReason::StepLimit if report.is_some() => (SubagentState::Finished, answer, None),
        TurnEndReason::StepLimit => (
            SubagentState::Failed,
            answer,
            Some("stopped at its limit of model calls for one task".into()),
        ),
        TurnEndReason::Failed => (
            SubagentState::Failed,
            answer,
            Some(last_error.unwrap_or_else(|| "its turn failed".into())),
        ),
    }
}

fn cut(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max_chars).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_ids_take_the_random_end_of_the_session_id() {
        let id = SessionId::new("0192f1a2-3b4c-7d5e-8f60-1a2b3c4d5e6f");
        assert_eq!(agent_id(&id), "agent-3c4d5e6f");
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(human_duration(Duration::from_secs(300)), "5 min");
        assert_eq!(human_duration(Duration::from_secs(2)), "2 s");
    }
}
