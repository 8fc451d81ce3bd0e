//! Asking the user before a tool with side effects runs.
//!
//! Each call is previewed by its tool (risk, fingerprint, diff), then the session's
//! approval mode decides whether to ask:
//! - `auto`: read runs; write and execute ask unless a session grant covers the call's
//!   fingerprint; critical always asks.
//! - `strict`: everything above read asks, every time.
//! - `dangerous`: nothing asks except critical calls (commands the guard escalates, such as
//!   a force-push to main); blacklisted commands are still refused by the tools themselves.

use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ReviewDecision, RiskLevel, ToolCallId,
};
use memo_providers::ToolCall;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::turn::Turn;
use crate::tools::{ToolError, ToolPreview};
use crate::EngineError;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalMode {
    #[default]
    Auto,
    Strict,
    Dangerous,
}

impl ApprovalMode {
    /// Whether a call of `risk` must be put to the user, given whether a session grant
    /// already covers it.
    pub fn must_ask(self, risk: RiskLevel, granted: bool) -> bool {
        match (self, risk) {
            (_, RiskLevel::Read) => false,
            (ApprovalMode::Dangerous, RiskLevel::Critical) => true,
            (ApprovalMode::Dangerous, _) => false,
            (ApprovalMode::Strict, _) => true,
            (ApprovalMode::Auto, RiskLevel::Critical) => true,
            (ApprovalMode::Auto, _) => !granted,
        }
    }
}

pub(crate) enum Approval {
    /// Run it; `accepted_hunks` limits a file change to the hunks the user accepted.
    Granted {
        accepted_hunks: Option<Vec<u32>>,
    },
    Denied(String),
    Interrupted,
}

impl Turn {
    pub(crate) async fn approve(
        &self,
        call: &ToolCall,
        preview: &ToolPreview,
        args: &serde_json::Value,
    ) -> Result<Approval, EngineError> {
        let mode = self.shared.limits.approval_mode;
        let granted = self.shared.has_grant(&preview.fingerprint);
        if !mode.must_ask(preview.risk, granted) {
            return Ok(Approval::Granted {
                accepted_hunks: None,
            });
        }
        let request_id = ApprovalId::new(uuid::Uuid::now_v7().to_string());
        let (tx, rx) = oneshot::channel();
        self.shared.add_pending_approval(request_id.clone(), tx);
        self.emit(AgentEvent::ApprovalRequested {
            request: ApprovalRequest {
                request_id: request_id.clone(),
                call_id: ToolCallId::new(call.id.clone()),
                tool_name: call.name.clone(),
                risk: preview.risk,
                reason: preview.reason.clone(),
                fingerprint: preview.fingerprint.clone(),
                command: preview.command.clone(),
                cwd: preview.cwd.clone(),
                diff: preview.diff.clone(),
                arguments: args.clone(),
            },
        })?;
        let decision = tokio::select! {
            _ = self.cancel.cancelled() => None,
            d = rx => d.ok(),
        };
        let Some(decision) = decision else {
            self.shared.take_pending_approval(&request_id);
            self.emit(AgentEvent::ApprovalResolved {
                request_id,
                decision: ReviewDecision::Deny {
                    reason: Some("interrupted".into()),
                },
            })?;
            return Ok(Approval::Interrupted);
        };
        self.emit(AgentEvent::ApprovalResolved {
            request_id,
            decision: decision.clone(),
        })?;
        Ok(match decision {
            ReviewDecision::ApproveOnce { accepted_hunks } => Approval::Granted { accepted_hunks },
            ReviewDecision::ApproveForSession => {
                // Strict mode asks every time, so a grant would never be consulted; critical
                // calls are never covered by grants.
                if mode == ApprovalMode::Auto && preview.risk < RiskLevel::Critical {
                    self.shared.add_grant(preview.fingerprint.clone());
                }
                Approval::Granted {
                    accepted_hunks: None,
                }
            }
            ReviewDecision::Deny { reason } => Approval::Denied(match reason {
                Some(r) => format!("the user declined this call: {r}"),
                None => "the user declined this call".into(),
            }),
        })
    }
}

/// An accepted hunk list must name hunks the preview offered.
pub(crate) fn check_hunks(
    preview: &ToolPreview,
    accepted: &Option<Vec<u32>>,
) -> Result<(), ToolError> {
    let (Some(accepted), Some(diff)) = (accepted, &preview.diff) else {
        return Ok(());
    };
    let count = diff.hunks.len() as u32;
    match accepted.iter().find(|&&h| h >= count) {
        Some(bad) => Err(ToolError::invalid_input(format!(
            "the approval accepted hunk {bad}, but the change has {count} hunks"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::ApprovalMode::*;
    use memo_protocol::RiskLevel::*;

    #[test]
    fn modes_decide_who_asks() {
        for mode in [Auto, Strict, Dangerous] {
            assert!(!mode.must_ask(Read, false));
        }
        assert!(Auto.must_ask(Write, false));
        assert!(!Auto.must_ask(Write, true));
        assert!(!Auto.must_ask(Execute, true));
        assert!(Auto.must_ask(Critical, true));
        assert!(Strict.must_ask(Write, true));
        assert!(Strict.must_ask(Execute, true));
        assert!(!Dangerous.must_ask(Write, false));
        assert!(!Dangerous.must_ask(Execute, false));
        assert!(Dangerous.must_ask(Critical, false));
    }
}
