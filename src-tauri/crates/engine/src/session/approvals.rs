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
//!
//! A `PreToolUse` hook can have its say first ([`ApprovalHint`]): its `allow` counts as
//! an allow rule (deny rules, strict mode and critical calls still ask or refuse), its
//! `ask` asks even where nothing else would.
//!
//! A component of the turn: an [`Approver`] is made for each model step (an "approve
//! all" answer covers that step only) from the turn's scope, the session's
//! [`ApprovalState`] and the rules, and answers one call at a time.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use memo_config::{ApprovalRule, RuleStore};
pub use memo_protocol::ApprovalMode;

pub use super::children::Grants;
use memo_model::ToolCall;
use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, Phrase, ReviewDecision, RiskLevel, ToolCallId,
};
use tokio::sync::oneshot;

use super::scope::TurnScope;
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
    /// Run it; `accepted_hunks` or `accepted_edits` limit a file change to the hunks or
    /// the replacements the user accepted.
    Granted {
        accepted_hunks: Option<Vec<u32>>,
        accepted_edits: Option<Vec<u32>>,
    },
    Denied(String),
    Interrupted,
}

impl Approval {
    /// Run the whole call.
    pub(crate) fn granted() -> Self {
        Approval::Granted {
            accepted_hunks: None,
            accepted_edits: None,
        }
    }
}

/// What the call's `PreToolUse` hooks said about asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ApprovalHint {
    /// Nothing: the mode and rules decide.
    None,
    /// Run it without asking, as an allow rule would.
    Allow,
    /// Ask the user whatever the mode and rules say, with the hooks' reason.
    Ask(Option<String>),
}

/// Called when a question is put to the user (the Notification hooks); the asker waits
/// for what it returns once the user answered.
/// How long an answered call waits for its question's Notification hooks to finish.
const NOTIFY_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

pub(crate) type OnAsk<'a> =
    Box<dyn Fn(&ToolCall) -> Option<tokio::task::JoinHandle<()>> + Send + Sync + 'a>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here is a single insert/remove/read, so a poisoned lock
    // still holds consistent data.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The session's side of approvals, shared by the actor (answers, mode changes) and the
/// running turn (questions).
pub(crate) struct ApprovalState {
    /// Starts as the session's configured mode; `Op::SetApprovalMode` changes it, also
    /// while a turn runs (its next call asks in the new mode).
    mode: Mutex<ApprovalMode>,
    /// Fingerprints of writes the user allowed for the rest of the session.
    /// Shared with the session's subagents: what the user allowed for this session holds
    /// for the agents it started too.
    grants: Grants,
    /// Questions waiting for `Op::ResolveApproval`.
    pending: Mutex<HashMap<ApprovalId, oneshot::Sender<ReviewDecision>>>,
    /// Set in a subagent's session: its questions say which agent asks (its parent's
    /// UI shows them relayed).
    agent: Option<Box<memo_protocol::SubagentRef>>,
}

impl ApprovalState {
    pub fn new(
        mode: ApprovalMode,
        agent: Option<Box<memo_protocol::SubagentRef>>,
        grants: Option<Grants>,
    ) -> Self {
        Self {
            mode: Mutex::new(mode),
            grants: grants.unwrap_or_default(),
            pending: Mutex::new(HashMap::new()),
            agent,
        }
    }

    pub fn mode(&self) -> ApprovalMode {
        *lock(&self.mode)
    }

    pub fn set_mode(&self, mode: ApprovalMode) {
        *lock(&self.mode) = mode;
    }

    /// Hands the user's answer to the call waiting for it. False when no question with
    /// that id waits (answered already, or never asked).
    pub fn resolve(&self, id: &ApprovalId, decision: ReviewDecision) -> bool {
        match lock(&self.pending).remove(id) {
            Some(tx) => {
                let _ = tx.send(decision);
                true
            }
            None => false,
        }
    }

    fn ask(&self, id: ApprovalId) -> oneshot::Receiver<ReviewDecision> {
        let (tx, rx) = oneshot::channel();
        lock(&self.pending).insert(id, tx);
        rx
    }

    fn withdraw(&self, id: &ApprovalId) {
        lock(&self.pending).remove(id);
    }

    /// The session's grants, to share with the subagents it starts.
    pub fn grants(&self) -> Grants {
        self.grants.clone()
    }

    fn has_grant(&self, fingerprint: &str) -> bool {
        lock(&self.grants).contains(fingerprint)
    }

    fn add_grant(&self, fingerprint: String) {
        lock(&self.grants).insert(fingerprint);
    }
}

/// The kept rules a call is checked against, and where relative paths in them start.
pub(crate) struct ApprovalRules<'a> {
    /// The user's kept rules (`None`: none apply, and none can be kept).
    pub store: Option<&'a RuleStore>,
    /// Other agents' permissions, read when the session started.
    pub imported: &'a [ApprovalRule],
    pub cwd: &'a Path,
    /// The read-deny rules in effect: a command naming a file they cover always asks.
    pub denials: &'a memo_tools::ReadDenials,
    /// Where `~/` in a command points.
    pub home: Option<&'a Path>,
    /// See [`super::SessionContext::command_limits`].
    pub command_limits: &'a [Vec<String>],
}

/// Decides whether each call of one model step may run, asking the user when it must.
pub(crate) struct Approver<'a> {
    scope: &'a TurnScope,
    state: &'a ApprovalState,
    rules: ApprovalRules<'a>,
    /// Tools the user approved for the rest of this step ("approve all").
    step_grants: Mutex<HashSet<String>>,
    on_ask: Option<OnAsk<'a>>,
}

impl<'a> Approver<'a> {
    /// For one step: its "approve all" answers start empty.
    pub fn for_step(
        scope: &'a TurnScope,
        state: &'a ApprovalState,
        rules: ApprovalRules<'a>,
    ) -> Self {
        Self {
            scope,
            state,
            rules,
            step_grants: Mutex::new(HashSet::new()),
            on_ask: None,
        }
    }

    /// Calls `on_ask` whenever a question is put to the user.
    pub fn on_ask(mut self, on_ask: OnAsk<'a>) -> Self {
        self.on_ask = Some(on_ask);
        self
    }

    pub async fn approve(
        &self,
        call: &ToolCall,
        preview: &ToolPreview,
        args: &serde_json::Value,
        hint: &ApprovalHint,
    ) -> Result<Approval, EngineError> {
        let mode = self.state.mode();
        if let Some(why) =
            crate::rules::outside_command_limits(self.rules.command_limits, &preview.fingerprint)
        {
            return Ok(Approval::Denied(why));
        }
        // A command that names a file a rule denies reading may print it: the person
        // decides, whatever the mode or an allow rule says.
        let named = match &preview.command {
            Some(command) => {
                let cwd = preview
                    .cwd
                    .as_deref()
                    .map(Path::new)
                    .unwrap_or(self.rules.cwd);
                self.rules
                    .denials
                    .named_in_command(command, cwd, self.rules.home)
            }
            None => Vec::new(),
        };
        let denied_warning = memo_tools::NamedDenied::warning(&named);
        let forced = matches!(hint, ApprovalHint::Ask(_)) || denied_warning.is_some();
        if preview.risk > RiskLevel::Read {
            let (verdict, rules) = self.rules_verdict(preview, Some(args));
            match verdict {
                RuleVerdict::Deny(rule) => {
                    self.touch_rules(std::slice::from_ref(&rule.id));
                    return Ok(Approval::Denied(format!(
                        "the user's rule refuses this call ({} `{}`); do not try to get around it",
                        kind_label(rule.kind),
                        rule.pattern
                    )));
                }
                RuleVerdict::Allow(ids) if mode != ApprovalMode::Strict && !forced => {
                    self.touch_rules(&ids);
                    // Its card says why it ran without asking.
                    let patterns = ids
                        .iter()
                        .filter_map(|id| rules.iter().find(|rule| &rule.id == id))
                        .map(|rule| rule.pattern.clone())
                        .collect();
                    self.scope.emit(AgentEvent::ToolCallAllowed {
                        call_id: ToolCallId::new(call.id.clone()),
                        rules: patterns,
                    })?;
                    return Ok(Approval::granted());
                }
                _ => {}
            }
        }
        if !forced && self.runs_unasked(call, preview, mode, hint) {
            return Ok(Approval::granted());
        }
        let mut why = preview.why.clone();
        match hint {
            ApprovalHint::Ask(Some(asks)) => why.push(Phrase::HookAsks { why: asks.clone() }),
            ApprovalHint::Ask(None) => why.push(Phrase::HookAsksSilently),
            _ => {}
        }
        why.extend(denied_warning);
        let request_id = ApprovalId::new(uuid::Uuid::now_v7().to_string());
        let proposed = self.proposed_rules(preview, false);
        let rule_words = crate::rules::describe_proposed(&proposed);
        let rx = self.state.ask(request_id.clone());
        self.scope.emit(AgentEvent::ApprovalRequested {
            request: ApprovalRequest {
                request_id: request_id.clone(),
                call_id: ToolCallId::new(call.id.clone()),
                tool_name: call.name.clone(),
                risk: preview.risk,
                reason: Phrase::english_list(&why),
                why,
                fingerprint: preview.fingerprint.clone(),
                command: preview.command.clone(),
                cwd: preview.cwd.clone(),
                diff: preview.diff.clone().map(Box::new),
                arguments: args.clone(),
                rule_patterns: proposed.iter().map(|r| r.pattern.clone()).collect(),
                rule_summary: rule_words.as_ref().map(Phrase::english),
                rule_words,
                agent: self.state.agent.clone(),
            },
        })?;
        let notifying = self.on_ask.as_ref().and_then(|notify| notify(call));
        let decision = tokio::select! {
            _ = self.scope.cancel().cancelled() => None,
            d = rx => d.ok(),
        };
        if let Some(notifying) = notifying {
            // Usually done by now (it ran while the user read the question), and then its
            // hook_ran stays inside the turn; a slow one is left to finish on its own rather
            // than hold the answered call for up to its whole timeout.
            let _ = tokio::time::timeout(NOTIFY_WAIT, notifying).await;
        }
        let Some(decision) = decision else {
            self.state.withdraw(&request_id);
            self.scope.emit(AgentEvent::ApprovalResolved {
                request_id,
                decision: ReviewDecision::Unanswered {
                    because: Phrase::TurnStoppedBeforeAnswer,
                },
            })?;
            return Ok(Approval::Interrupted);
        };
        self.scope.emit(AgentEvent::ApprovalResolved {
            request_id,
            decision: decision.clone(),
        })?;
        Ok(match decision {
            ReviewDecision::ApproveOnce {
                accepted_hunks,
                accepted_edits,
            } => Approval::Granted {
                accepted_hunks,
                accepted_edits,
            },
            ReviewDecision::ApproveForSession => {
                // Kept even in strict mode (consulted once the session is back in auto);
                // only writes are covered by grants: commands need a kept rule.
                if preview.risk == RiskLevel::Write {
                    self.state.add_grant(preview.fingerprint.clone());
                }
                Approval::granted()
            }
            ReviewDecision::ApproveStep => {
                lock(&self.step_grants).insert(call.name.clone());
                Approval::granted()
            }
            ReviewDecision::ApproveAlways { project } => {
                self.keep_rules(preview, project)?;
                Approval::granted()
            }
            ReviewDecision::Deny { reason } => Approval::Denied(match reason {
                Some(r) => format!("the user declined this call: {r}"),
                None => "the user declined this call".into(),
            }),
            // Not an answer a person gives; if a client sends it, the call does not run.
            ReviewDecision::Unanswered { because } => {
                Approval::Denied(format!("this call was not answered: {because}"))
            }
        })
    }

    /// Whether the call runs without a question, short of the rules: a hook's allow
    /// (like an allow rule: not in strict mode, not for a critical call), an "approve
    /// all" of this step, a session grant, or a mode that does not ask.
    fn runs_unasked(
        &self,
        call: &ToolCall,
        preview: &ToolPreview,
        mode: ApprovalMode,
        hint: &ApprovalHint,
    ) -> bool {
        let below_critical = preview.risk < RiskLevel::Critical;
        if *hint == ApprovalHint::Allow && mode != ApprovalMode::Strict && below_critical {
            return true;
        }
        if below_critical && self.step_granted(&call.name) {
            return true;
        }
        let granted = self.state.has_grant(&preview.fingerprint);
        !must_ask(mode, preview.risk, granted)
    }

    fn step_granted(&self, tool: &str) -> bool {
        lock(&self.step_grants).contains(tool)
    }

    fn rule_store(&self) -> Option<&'a RuleStore> {
        self.rules.store
    }

    /// A rules file that cannot be read is reported in settings; here no rule applies.
    fn rules_verdict(
        &self,
        preview: &ToolPreview,
        args: Option<&serde_json::Value>,
    ) -> (RuleVerdict, Vec<ApprovalRule>) {
        let imported = self.rules.imported;
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
            return (RuleVerdict::Unmatched, rules);
        }
        let verdict = crate::rules::evaluate(
            &rules,
            &preview.fingerprint,
            preview.risk,
            self.rules.cwd,
            args,
        );
        (verdict, rules)
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
        let cwd = self.rules.cwd;
        crate::rules::proposed(
            &preview.fingerprint,
            preview.risk,
            cwd,
            project.then_some(cwd),
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
                self.scope.emit(AgentEvent::Error {
                    kind: memo_protocol::ErrorKind::Config,
                    message: format!("approved once: the rule could not be kept: {error}"),
                    retryable: false,
                    detail: None,
                    phrase: None,
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
        memo_config::RuleKind::Read => "reading",
    }
}

/// Refuses a partial approval that names hunks or edits the preview does not have, or
/// both at once (they would disagree on what to write).
pub(crate) fn check_hunks(
    preview: &ToolPreview,
    accepted_hunks: &Option<Vec<u32>>,
    accepted_edits: &Option<Vec<u32>>,
) -> Result<(), ToolError> {
    let Some(diff) = &preview.diff else {
        return Ok(());
    };
    let out_of = |accepted: &[u32], count: usize, what: &str| {
        let count = count as u32;
        match accepted.iter().find(|&&h| h >= count) {
            Some(bad) => Err(ToolError::invalid_input(format!(
                "the approval accepted {what} {bad}, but the change has {count} {what}s"
            ))),
            None => Ok(()),
        }
    };
    match (accepted_hunks, accepted_edits) {
        (Some(_), Some(_)) => Err(ToolError::invalid_input(
            "the approval chose both hunks and edits; choose one or the other",
        )),
        (Some(hunks), None) => out_of(hunks, diff.hunks.len(), "hunk"),
        (None, Some(edits)) if diff.edits.is_empty() => Err(ToolError::invalid_input(format!(
            "the approval chose edits {edits:?}, but this change is not made of several edits"
        ))),
        (None, Some(edits)) => out_of(edits, diff.edits.len(), "edit"),
        (None, None) => Ok(()),
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
