//! How `memo-cli exec` answers approval requests, since it cannot ask anyone: `--yes`
//! approves calls up to execute risk (file writes, ordinary commands). A critical call —
//! one the command guard flags, such as a write under /etc or into ~/.ssh — also needs
//! `--allow-critical`, and a command's own request to leave the sandbox
//! (`sandbox_permissions: "require_escalated"`) needs `--allow-escalation`, so a
//! prompt-injected model cannot lift Landlock or reach credentials with one argument. A
//! refusal is explained to the model, so it can take another way, and to the user on
//! stderr, so they know which flag would allow it.

use std::path::{Path, PathBuf};

use memo_protocol::{ApprovalRequest, ReviewDecision, RiskLevel};
use memo_tools::command_guard::{check_command, GuardContext, Verdict};
use memo_tools::PathPolicy;

/// What the user allowed on the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags {
    pub yes: bool,
    pub allow_critical: bool,
    pub allow_escalation: bool,
}

#[derive(Debug, PartialEq)]
pub enum Answer {
    Approve,
    Refuse {
        /// Sent back as the denial reason the model reads.
        to_model: String,
        /// Printed on stderr.
        to_user: String,
    },
}

impl Answer {
    pub fn decision(&self) -> ReviewDecision {
        match self {
            Answer::Approve => ReviewDecision::approve_once(),
            Answer::Refuse { to_model, .. } => ReviewDecision::Deny {
                reason: Some(to_model.clone()),
            },
        }
    }
}

/// Whether the call asks to run outside the sandbox. Only a critical request counts:
/// with the sandbox off there is nothing to leave, and the tool does not raise the risk.
fn escalates(request: &ApprovalRequest) -> bool {
    request.risk >= RiskLevel::Critical
        && request
            .arguments
            .get("sandbox_permissions")
            .and_then(|v| v.as_str())
            == Some("require_escalated")
}

/// Why the command guard itself finds the call's command critical, if it does. An
/// escalated call is critical for leaving the sandbox alone; this tells whether its
/// command would have been critical inside it too.
fn guard_reason(request: &ApprovalRequest, workspace: &Path) -> Option<String> {
    let Some(command) = request.command.as_deref() else {
        // Nothing to read: take the call for critical.
        return Some(request.reason.clone());
    };
    let cwd = request
        .cwd
        .as_deref()
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.to_path_buf());
    let policy = PathPolicy::from_env(workspace, |name| std::env::var(name).ok());
    match check_command(
        command,
        &GuardContext::new(cwd, policy.writable_roots().to_vec()),
    ) {
        Verdict::Allow => None,
        Verdict::Ask { reason, .. } => Some(reason.english()),
        Verdict::Block { rule, .. } => Some(format!("blocked by the rule {rule}")),
    }
}

fn what(request: &ApprovalRequest) -> String {
    let call = call_text(request);
    match &request.agent {
        Some(agent) => format!(
            "{call} (asked by subagent {} · {})",
            agent.agent_id, agent.agent_type
        ),
        None => call,
    }
}

fn call_text(request: &ApprovalRequest) -> String {
    match &request.command {
        Some(cmd) => {
            let line = cmd.split_whitespace().collect::<Vec<_>>().join(" ");
            let short: String = line.chars().take(120).collect();
            let more = if short.len() < line.len() { "…" } else { "" };
            format!("{} `{short}{more}`", request.tool_name)
        }
        None => request.tool_name.clone(),
    }
}

pub fn answer(request: &ApprovalRequest, flags: Flags, workspace: &Path) -> Answer {
    if !flags.yes {
        return Answer::Refuse {
            to_model: "memo-cli exec cannot ask interactively; rerun with --yes to allow".into(),
            to_user: format!(
                "refused {}: it needs approval; rerun with --yes to approve calls up to execute risk",
                what(request)
            ),
        };
    }
    let escalated = escalates(request);
    if escalated && !flags.allow_escalation {
        return Answer::Refuse {
            to_model: "memo-cli exec --yes does not let a command leave the sandbox (sandbox_permissions: \"require_escalated\"); run it inside the sandbox, writing only in the workspace, or the user must rerun memo-cli with --allow-escalation".into(),
            to_user: format!(
                "refused {}: it asks to run outside the sandbox; rerun with --allow-escalation to allow that (dangerous: the command may then write anywhere you can)",
                what(request)
            ),
        };
    }
    if request.risk >= RiskLevel::Critical && !flags.allow_critical {
        let critical = if escalated {
            guard_reason(request, workspace)
        } else {
            Some(request.reason.clone())
        };
        if let Some(reason) = critical {
            return Answer::Refuse {
                to_model: format!(
                    "memo-cli exec --yes approves calls up to execute risk, and this call is critical ({reason}); it was not run. Find a way that stays inside the workspace, or the user must rerun memo-cli with --allow-critical"
                ),
                to_user: format!(
                    "refused critical {}: {reason}; rerun with --allow-critical to allow critical calls (dangerous)",
                    what(request)
                ),
            };
        }
    }
    Answer::Approve
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::{ApprovalId, ToolCallId};
    use serde_json::json;

    fn request(risk: RiskLevel, command: &str, arguments: serde_json::Value) -> ApprovalRequest {
        ApprovalRequest {
            request_id: ApprovalId::new("r".to_owned()),
            call_id: ToolCallId::new("c".to_owned()),
            tool_name: "exec_command".into(),
            risk,
            reason: format!("run `{command}`"),
            why: Vec::new(),
            fingerprint: format!("exec:{command}"),
            command: Some(command.into()),
            cwd: Some("/work/proj".into()),
            diff: None,
            arguments,
            rule_patterns: Vec::new(),
            rule_summary: None,
            rule_words: None,
            agent: None,
        }
    }

    fn approved(r: &ApprovalRequest, yes: bool, critical: bool, escalation: bool) -> bool {
        let flags = Flags {
            yes,
            allow_critical: critical,
            allow_escalation: escalation,
        };
        answer(r, flags, Path::new("/work/proj")) == Answer::Approve
    }

    #[test]
    fn yes_stops_at_execute_and_the_dangerous_flags_each_open_one_door() {
        let plain = request(
            RiskLevel::Execute,
            "cargo test",
            json!({"cmd": "cargo test"}),
        );
        assert!(!approved(&plain, false, true, true));
        assert!(approved(&plain, true, false, false));

        let critical = request(
            RiskLevel::Critical,
            "rm -rf /etc/x",
            json!({"cmd": "rm -rf /etc/x"}),
        );
        assert!(!approved(&critical, true, false, false));
        assert!(!approved(&critical, true, false, true));
        assert!(approved(&critical, true, true, false));

        let escape = json!({"cmd": "echo hi", "sandbox_permissions": "require_escalated"});
        let escalated = request(RiskLevel::Critical, "echo hi", escape);
        assert!(!approved(&escalated, true, false, false));
        assert!(!approved(&escalated, true, true, false));
        assert!(approved(&escalated, true, false, true));

        // Escalated and critical by itself: both doors.
        let both = json!({"cmd": "rm -rf /etc/x", "sandbox_permissions": "require_escalated"});
        let both = request(RiskLevel::Critical, "rm -rf /etc/x", both);
        assert!(!approved(&both, true, false, true));
        assert!(approved(&both, true, true, true));
    }

    #[test]
    fn refusals_name_the_flag_for_the_model_and_the_user() {
        let critical = request(RiskLevel::Critical, "rm -rf /etc/x", json!({}));
        let Answer::Refuse { to_model, to_user } = answer(
            &critical,
            Flags {
                yes: true,
                ..Flags::default()
            },
            Path::new("/w"),
        ) else {
            panic!("approved");
        };
        assert!(to_model.contains("--allow-critical"), "{to_model}");
        assert!(
            to_user.contains("--allow-critical") && to_user.contains("rm -rf /etc/x"),
            "{to_user}"
        );
        let escape = request(
            RiskLevel::Critical,
            "ls",
            json!({"sandbox_permissions": "require_escalated"}),
        );
        let Answer::Refuse { to_model, .. } = answer(
            &escape,
            Flags {
                yes: true,
                ..Flags::default()
            },
            Path::new("/w"),
        ) else {
            panic!("approved");
        };
        assert!(to_model.contains("--allow-escalation"), "{to_model}");
    }
}
