//! Memo's approval questions as ACP `session/request_permission`, and the client's answer
//! back as Memo's decision.
//!
//! The options are Memo's own: once, for this session, always in this folder (when the
//! call can be kept as a rule) and deny. A critical call offers only once and deny, as in
//! the window. An answer is read strictly: an option Memo did not offer, an error or a
//! closed connection is a deny; a cancelled request means the client cancelled the
//! prompt: the call does not run, and the `session/cancel` it sends ends the turn, as the
//! window's Stop does.

use crate::schema as acp;
use memo_protocol::{ApprovalRequest, Phrase, ReviewDecision, RiskLevel};

const ONCE: &str = "once";
const SESSION: &str = "session";
const FOLDER: &str = "always_here";
const DENY: &str = "deny";

/// The choices offered for `request`, best first.
pub fn options(request: &ApprovalRequest) -> Vec<acp::PermissionOption> {
    let option = |id: &str, name: String, kind| acp::PermissionOption {
        option_id: id.to_owned(),
        name,
        kind,
    };
    let mut options = vec![option(
        ONCE,
        Phrase::AcpAllowOnce.english(),
        acp::PermissionOptionKind::AllowOnce,
    )];
    if request.risk < RiskLevel::Critical {
        options.push(option(
            SESSION,
            Phrase::AcpAllowForSession.english(),
            acp::PermissionOptionKind::AllowAlways,
        ));
        if !request.rule_patterns.is_empty() {
            let name = match &request.rule_words {
                Some(words) => Phrase::AcpAllowAlwaysHereTo {
                    rule: Box::new(words.clone()),
                }
                .english(),
                None => Phrase::AcpAllowAlwaysHere.english(),
            };
            options.push(option(FOLDER, name, acp::PermissionOptionKind::AllowAlways));
        }
    }
    options.push(option(
        DENY,
        Phrase::AcpDeny.english(),
        acp::PermissionOptionKind::RejectOnce,
    ));
    options
}

/// What the client's answer means.
#[derive(Debug, PartialEq)]
pub enum Answer {
    Decide(ReviewDecision),
    /// The prompt was cancelled while it asked (its `session/cancel` stops the turn).
    Cancelled,
}

/// Reads the client's answer (or the failure to get one) to the options of `request`.
pub fn answer(
    request: &ApprovalRequest,
    response: Result<serde_json::Value, acp::Error>,
) -> Answer {
    let denied = |why: &str| {
        Answer::Decide(ReviewDecision::Deny {
            reason: Some(why.to_owned()),
        })
    };
    let response = match response {
        Ok(value) => value,
        Err(error) => {
            tracing::warn!(message = %error.message, "acp: the permission request failed; denied");
            return denied("the editor could not ask the user");
        }
    };
    let outcome = match serde_json::from_value::<acp::RequestPermissionResponse>(response) {
        Ok(parsed) => parsed.outcome,
        Err(error) => {
            tracing::warn!(%error, "acp: a permission answer that does not parse; denied");
            return denied("the editor's answer could not be read");
        }
    };
    let chosen = match outcome {
        acp::RequestPermissionOutcome::Cancelled => return Answer::Cancelled,
        acp::RequestPermissionOutcome::Selected { option_id } => option_id,
    };
    // Only what was offered: a client cannot widen a critical call's grant.
    if !options(request).iter().any(|o| o.option_id == chosen) {
        return denied("the editor chose an option Memo did not offer");
    }
    Answer::Decide(match chosen.as_str() {
        ONCE => ReviewDecision::approve_once(),
        SESSION => ReviewDecision::ApproveForSession,
        FOLDER => ReviewDecision::ApproveAlways { project: true },
        _ => ReviewDecision::Deny { reason: None },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(risk: RiskLevel, rules: &[&str]) -> ApprovalRequest {
        serde_json::from_value(json!({
            "request_id": "a1",
            "call_id": "c1",
            "tool_name": "exec_command",
            "risk": risk,
            "reason": "runs a command",
            "fingerprint": "exec:cargo test",
            "arguments": {"cmd": "cargo test"},
            "rule_patterns": rules,
        }))
        .unwrap()
    }

    fn ids(options: &[acp::PermissionOption]) -> Vec<String> {
        options.iter().map(|o| o.option_id.clone()).collect()
    }

    fn chose(id: &str) -> Result<serde_json::Value, acp::Error> {
        Ok(json!({"outcome": {"outcome": "selected", "optionId": id}}))
    }

    #[test]
    fn the_options_are_memos_and_a_critical_call_gets_no_lasting_grant() {
        assert_eq!(
            ids(&options(&request(RiskLevel::Execute, &["cargo test"]))),
            [ONCE, SESSION, FOLDER, DENY]
        );
        assert_eq!(
            ids(&options(&request(RiskLevel::Write, &[]))),
            [ONCE, SESSION, DENY]
        );
        assert_eq!(
            ids(&options(&request(RiskLevel::Critical, &[]))),
            [ONCE, DENY]
        );
    }

    #[test]
    fn each_answer_means_what_the_window_means() {
        let asked = request(RiskLevel::Execute, &["cargo test"]);
        assert_eq!(
            answer(&asked, chose(ONCE)),
            Answer::Decide(ReviewDecision::approve_once())
        );
        assert_eq!(
            answer(&asked, chose(SESSION)),
            Answer::Decide(ReviewDecision::ApproveForSession)
        );
        assert_eq!(
            answer(&asked, chose(FOLDER)),
            Answer::Decide(ReviewDecision::ApproveAlways { project: true })
        );
        assert_eq!(
            answer(&asked, chose(DENY)),
            Answer::Decide(ReviewDecision::Deny { reason: None })
        );
        assert_eq!(
            answer(&asked, Ok(json!({"outcome": {"outcome": "cancelled"}}))),
            Answer::Cancelled
        );
    }

    #[test]
    fn anything_else_is_a_deny() {
        let critical = request(RiskLevel::Critical, &[]);
        let is_deny =
            |a: Answer| matches!(a, Answer::Decide(ReviewDecision::Deny { reason: Some(_) }));
        // Not offered for a critical call.
        assert!(is_deny(answer(&critical, chose(SESSION))));
        assert!(is_deny(answer(&critical, chose("yolo"))));
        assert!(is_deny(answer(&critical, Ok(json!({"outcome": "yes"})))));
        assert!(is_deny(answer(
            &critical,
            Err(acp::Error::internal_error())
        )));
    }
}
