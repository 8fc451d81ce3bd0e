//! Asking the user before a tool with side effects runs.
//!
//! Each call is previewed by its tool (risk, fingerprint, diff), then the session's
//! approval mode decides whether to ask:
//! - `auto` (Memo Code's): read runs; a write asks once and can then be granted for the
//!   session; execute and critical ask every time unless a kept rule allows them.
//! - `strict`: everything above read asks, every time.
//! - `dangerous`: nothing asks except critical calls (commands the guard escalates, such as
//!   a force-push to main); blacklisted commands are still refused by the tools themselves.
//!
//! Before that, the user's kept rules (see [`crate::rules`]): a deny rule refuses the call
//! in every mode; an allow rule runs it without asking, except in strict mode and for
//! critical calls.

pub use memo_protocol::ApprovalMode;
use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ReviewDecision, RiskLevel, ToolCallId,
};
use memo_providers::ToolCall;
use tokio::sync::oneshot;

use super::turn::Turn;
use crate::rules::RuleVerdict;
use crate::tools::{ToolError, ToolPreview};
use crate::EngineError;

/// Whether a call of `risk` must be put to the user in `mode`, given whether a session
/// grant already covers it.
pub fn must_ask(mode: ApprovalMode, risk: RiskLevel, granted: bool) -> bool {
    match (mode, risk) {
        (_, RiskLevel::Read) => false,
        (ApprovalMode::Dangerous, RiskLevel::Critical) => true,
        (ApprovalMode::Dangerous, _) => false,
        (ApprovalMode::Strict, _) => true,
        (ApprovalMode::Auto, RiskLevel::Write) => !granted,
        (ApprovalMode::Auto, _) => true,
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
        let mode = self.shared.approval_mode();
        if preview.risk > RiskLevel::Read {
            match self.rules_verdict(preview, Some(args)) {
                RuleVerdict::Deny(rule) => {
                    self.touch_rules(std::slice::from_ref(&rule.id));
                    return Ok(Approval::Denied(format!(
                        "the user's rule refuses this call ({} `{}`); do not try to get around it",
                        kind_label(rule.kind),
                        rule.pattern
                    )));
                }
                RuleVerdict::Allow(ids) if mode != ApprovalMode::Strict => {
                    self.touch_rules(&ids);
                    return Ok(Approval::Granted {
                        accepted_hunks: None,
                    });
                }
                _ => {}
            }
        }
        if preview.risk < RiskLevel::Critical && self.step_granted(&call.name) {
            return Ok(Approval::Granted {
                accepted_hunks: None,
            });
        }
        let granted = self.shared.has_grant(&preview.fingerprint);
        if !must_ask(mode, preview.risk, granted) {
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
                rule_patterns: self
                    .proposed_rules(preview, false)
                    .into_iter()
                    .map(|r| r.pattern)
                    .collect(),
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
                // Kept even in strict mode (consulted once the session is back in auto);
                // only writes are covered by grants: commands need a kept rule.
                if preview.risk == RiskLevel::Write {
                    self.shared.add_grant(preview.fingerprint.clone());
                }
                Approval::Granted {
                    accepted_hunks: None,
                }
            }
            ReviewDecision::ApproveStep => {
                self.step_grants
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(call.name.clone());
                Approval::Granted {
                    accepted_hunks: None,
                }
            }
            ReviewDecision::ApproveAlways { project } => {
                self.keep_rules(preview, project)?;
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

impl Turn {
    fn step_granted(&self, tool: &str) -> bool {
        self.step_grants
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(tool)
    }

    fn rule_store(&self) -> Option<&memo_config::RuleStore> {
        self.shared.context.settings.approval_rules.as_ref()
    }

    /// A rules file that cannot be read is reported in settings; here no rule applies.
    fn rules_verdict(
        &self,
        preview: &ToolPreview,
        args: Option<&serde_json::Value>,
    ) -> RuleVerdict {
        let imported = &self.shared.context.settings.imported_rules;
        let mut rules = match self.rule_store().map(|s| s.list()) {
            Some(Ok(rules)) => rules,
            Some(Err(error)) => {
                tracing::warn!(%error, "approval rules unreadable; none applied");
                Vec::new()
            }
            None => Vec::new(),
        };
        rules.extend(imported.iter().cloned());
        if rules.is_empty() {
            return RuleVerdict::Unmatched;
        }
        crate::rules::evaluate(
            &rules,
            &preview.fingerprint,
            preview.risk,
            &self.shared.tool_ctx.cwd,
            args,
        )
    }

    fn touch_rules(&self, ids: &[String]) {
        if let Some(Err(error)) = self.rule_store().map(|s| s.touch(ids)) {
            tracing::warn!(%error, "could not record a rule's use");
        }
    }

    fn proposed_rules(&self, preview: &ToolPreview, project: bool) -> Vec<memo_config::NewRule> {
        if self.rule_store().is_none() {
            return Vec::new();
        }
        let cwd = &self.shared.tool_ctx.cwd;
        crate::rules::proposed(
            &preview.fingerprint,
            preview.risk,
            cwd,
            project.then_some(cwd.as_path()),
        )
    }

    /// Keeps what an "always" answer allows. The call runs either way; a rule that could
    /// not be saved is said so in the conversation.
    fn keep_rules(&self, preview: &ToolPreview, project: bool) -> Result<(), EngineError> {
        let (Some(store), rules) = (self.rule_store(), self.proposed_rules(preview, project))
        else {
            return Ok(());
        };
        for rule in rules {
            if let Err(error) = store.add(&rule) {
                self.emit(AgentEvent::Error {
                    kind: memo_protocol::ErrorKind::Config,
                    message: format!("approved once: the rule could not be kept: {error}"),
                    retryable: false,
                })?;
                break;
            }
        }
        Ok(())
    }
}

fn kind_label(kind: memo_config::RuleKind) -> &'static str {
    match kind {
        memo_config::RuleKind::Command => "command",
        memo_config::RuleKind::Write => "files",
        memo_config::RuleKind::Mcp => "MCP tool",
        memo_config::RuleKind::Web => "web origin",
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
    use super::must_ask;
    use super::ApprovalMode::*;
    use memo_protocol::RiskLevel::*;

    #[test]
    fn modes_decide_who_asks() {
        for mode in [Auto, Strict, Dangerous] {
            assert!(!must_ask(mode, Read, false));
        }
        assert!(must_ask(Auto, Write, false));
        assert!(!must_ask(Auto, Write, true));
        assert!(
            must_ask(Auto, Execute, true),
            "commands ask every time in auto"
        );
        assert!(must_ask(Auto, Critical, true));
        assert!(must_ask(Strict, Write, true));
        assert!(must_ask(Strict, Execute, true));
        assert!(!must_ask(Dangerous, Write, false));
        assert!(!must_ask(Dangerous, Execute, false));
        assert!(must_ask(Dangerous, Critical, false));
    }
}
