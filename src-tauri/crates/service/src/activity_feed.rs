//! Following each live session for the activity board: a small task per session reads
//! its events and changes only what a glance shows (a turn starting or ending, an approval
//! or question asked or answered, an error).

use std::sync::Arc;

use memo_engine::EventReceiver;
use memo_protocol::{
    ActivityState, AgentEvent, ApprovalRequest, PendingApproval, SessionActivity, SessionId,
    SessionSummary,
};
use tokio::sync::watch;

use crate::activity::{now_ms, ActivityBoard};
use crate::error::Result;
use crate::service::Service;
use crate::sessions::{one_line, PREVIEW_CHARS};

/// Characters of an approval's one-line summary.
const SUMMARY_CHARS: usize = 120;

impl Service {
    /// Every live session's activity, most recently changed first.
    pub fn activity(&self) -> Vec<SessionActivity> {
        self.activity.snapshot()
    }

    /// A receiver whose value moves whenever [`Self::activity`] would answer differently.
    pub fn activity_changes(&self) -> watch::Receiver<u64> {
        self.activity.changes()
    }

    /// Puts a session that just became live on the board and starts following its events.
    /// Must run inside the Tokio runtime.
    pub(crate) fn track_activity(&self, summary: &SessionSummary) -> Result<()> {
        let events = self.subscribe(&summary.id, summary.last_seq)?;
        let id = summary.id.clone();
        self.activity.insert(SessionActivity {
            session_id: id.clone(),
            cwd: summary.cwd.clone(),
            label: label(summary),
            state: ActivityState::Idle,
            approvals: Vec::new(),
            questions: 0,
            turns_ended: 0,
            last_outcome: None,
            last_error: None,
            updated_ms: now_ms(),
        });
        let board = self.activity.clone();
        let store = self.store()?;
        tokio::spawn(follow(board, store, id, events));
        Ok(())
    }
}

/// Reads one session's events until its actor stops, then takes it off the board.
async fn follow(
    board: Arc<ActivityBoard>,
    store: Arc<memo_store::Store>,
    id: SessionId,
    mut events: EventReceiver,
) {
    // Whether a turn runs: a subagent's question can come, and be answered, after the
    // turn that started it has ended.
    let mut in_turn = false;
    while let Some(envelope) = events.recv().await {
        match envelope.event {
            AgentEvent::TurnStarted { input } => board.update(&id, |a| {
                in_turn = true;
                a.state = ActivityState::Running;
                a.last_error = None;
                if a.label.is_empty() {
                    a.label = one_line(&input.text, PREVIEW_CHARS);
                }
            }),
            AgentEvent::ApprovalRequested { request } => board.update(&id, |a| {
                a.approvals.push(pending(&request));
                a.state = ActivityState::Waiting;
            }),
            AgentEvent::ApprovalResolved { request_id, .. } => board.update(&id, |a| {
                a.approvals.retain(|p| p.request_id != request_id);
                settle(a, in_turn);
            }),
            AgentEvent::ElicitationRequested { .. } => board.update(&id, |a| {
                a.questions += 1;
                a.state = ActivityState::Waiting;
            }),
            AgentEvent::ElicitationResolved { .. } => board.update(&id, |a| {
                a.questions = a.questions.saturating_sub(1);
                settle(a, in_turn);
            }),
            AgentEvent::Error { message, .. } => board.update(&id, |a| {
                a.last_error = Some(one_line(&message, 200));
            }),
            AgentEvent::TurnEnded { reason, .. } => {
                // The title is often named by the first turn (in the background): read it
                // again so the sidebar's row follows.
                let title = store.session(&id).ok().flatten().and_then(|r| r.title);
                in_turn = false;
                board.update(&id, |a| {
                    // The turn's own questions ended with it; its subagents' may still wait.
                    a.approvals.retain(|p| p.agent.is_some());
                    a.questions = 0;
                    a.state = if a.approvals.is_empty() {
                        ActivityState::Idle
                    } else {
                        ActivityState::Waiting
                    };
                    a.turns_ended += 1;
                    a.last_outcome = Some(reason);
                    if let Some(title) = title {
                        a.label = title;
                    }
                });
            }
            _ => {}
        }
    }
    board.remove(&id);
}

/// Once nothing waits any more: running if the turn goes on, else idle (a subagent's
/// question answered after its parent's turn ended).
fn settle(activity: &mut SessionActivity, in_turn: bool) {
    if activity.state == ActivityState::Waiting
        && activity.approvals.is_empty()
        && activity.questions == 0
    {
        activity.state = if in_turn {
            ActivityState::Running
        } else {
            ActivityState::Idle
        };
    }
}

fn pending(request: &ApprovalRequest) -> PendingApproval {
    let what = match (&request.command, &request.diff) {
        (Some(command), _) => command.clone(),
        (None, Some(diff)) => format!("{} {}", request.tool_name, diff.path),
        (None, None) => format!("{} {}", request.tool_name, request.arguments),
    };
    PendingApproval {
        request_id: request.request_id.clone(),
        tool_name: request.tool_name.clone(),
        summary: one_line(&what, SUMMARY_CHARS),
        risk: request.risk,
        has_diff: request.diff.is_some(),
        agent: request.agent.as_deref().cloned(),
    }
}

fn label(summary: &SessionSummary) -> String {
    summary
        .title
        .clone()
        .or_else(|| summary.preview.clone())
        .unwrap_or_default()
}
