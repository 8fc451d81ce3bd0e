//! Asking the user before a tool with side effects runs. The foundation's rule is simple:
//! anything above `read` asks, unless the session already granted the same fingerprint.

use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ReviewDecision, RiskLevel, ToolCallId,
};
use memo_providers::ToolCall;
use tokio::sync::oneshot;

use super::turn::Turn;
use crate::tools::Tool;
use crate::EngineError;

pub(crate) enum Approval {
    Granted,
    Denied(String),
    Interrupted,
}

impl Turn {
    pub(crate) async fn approve(
        &self,
        call: &ToolCall,
        tool: &dyn Tool,
        args: &serde_json::Value,
    ) -> Result<Approval, EngineError> {
        if tool.risk() == RiskLevel::Read {
            return Ok(Approval::Granted);
        }
        // Exact tool + arguments: a grant never covers anything the user did not see.
        let fingerprint = format!("{}:{}", tool.name(), args);
        if self.shared.has_grant(&fingerprint) {
            return Ok(Approval::Granted);
        }
        let request_id = ApprovalId::new(uuid::Uuid::now_v7().to_string());
        let (tx, rx) = oneshot::channel();
        self.shared.add_pending_approval(request_id.clone(), tx);
        self.emit(AgentEvent::ApprovalRequested {
            request: ApprovalRequest {
                request_id: request_id.clone(),
                call_id: ToolCallId::new(call.id.clone()),
                tool_name: call.name.clone(),
                risk: tool.risk(),
                reason: format!("{} has {:?} risk", call.name, tool.risk()).to_lowercase(),
                fingerprint: fingerprint.clone(),
                command: None,
                cwd: Some(self.shared.tool_ctx.cwd.display().to_string()),
                diff: None,
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
            ReviewDecision::ApproveOnce { .. } => Approval::Granted,
            ReviewDecision::ApproveForSession => {
                self.shared.add_grant(fingerprint);
                Approval::Granted
            }
            ReviewDecision::Deny { reason } => Approval::Denied(match reason {
                Some(r) => format!("the user declined this call: {r}"),
                None => "the user declined this call".into(),
            }),
        })
    }
}
