//! What one hook's exit code and output mean, following Claude Code's contract:
//!
//! - exit 0: success. Stdout that starts with `{` is a JSON answer (see below); other
//!   stdout is context for the model on `UserPromptSubmit` and `SessionStart`, and only
//!   shown to the user elsewhere.
//! - exit 2: blocking. Stderr is the reason: the tool call is denied (`PreToolUse`), the
//!   reason goes to the model (`PostToolUse`), the prompt is blocked
//!   (`UserPromptSubmit`), or the agent has to carry on (`Stop`, `SubagentStop`). For
//!   events that cannot be blocked it is an error shown to the user.
//! - anything else (a timeout, a signal, another code): a non-blocking error for the
//!   user; the session goes on as if the hook had not run.
//!
//! JSON answers are read field by field: a hook's output is as untrusted as a model's,
//! so a field of the wrong type is reported and ignored while the valid ones still
//! count. A hook that asks to deny must not be turned into an allow by a typo elsewhere.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::OutputError;
use crate::event::HookEvent;
use crate::process::{CapturedOutput, RunStatus, OUTPUT_LIMIT};

/// What a hook decided. For `PreToolUse`, `Block` is a deny and `Allow` an approval
/// (the caller's own deny rules still apply); for the other blockable events only
/// `Block` exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookDecision {
    Allow,
    Ask,
    Block,
}

impl HookDecision {
    /// Block wins over ask, ask over allow.
    pub(crate) fn strength(self) -> u8 {
        match self {
            HookDecision::Allow => 0,
            HookDecision::Ask => 1,
            HookDecision::Block => 2,
        }
    }
}

/// What one hook asked for.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HookEffect {
    pub decision: Option<HookDecision>,
    /// Why: for the model (a block), the user (an ask), or the log (an allow).
    pub reason: Option<String>,
    pub additional_context: Option<String>,
    /// `updatedInput` as the hook wrote it (Claude Code's argument names).
    pub updated_input: Option<Value>,
    /// `"continue": false`: the agent stops after this event.
    pub stop: bool,
    pub stop_reason: Option<String>,
    /// `systemMessage`: shown to the user.
    pub system_message: Option<String>,
    /// Plain stdout to show the user (not context, not JSON), unless suppressed.
    pub output_for_user: Option<String>,
    /// `suppressOutput`: the hook's stdout is not shown.
    pub suppress_output: bool,
    /// `BeforeAgentStart`: the system prompt for this turn (`systemPrompt`, top level or
    /// in `hookSpecificOutput`), replacing the one the hook was given.
    pub system_prompt: Option<String>,
    /// Non-blocking errors, shown to the user.
    pub errors: Vec<String>,
}

pub(crate) fn interpret(
    event: HookEvent,
    command: &str,
    status: &RunStatus,
    stdout: &CapturedOutput,
    stderr: &CapturedOutput,
) -> HookEffect {
    let mut effect = HookEffect::default();
    match status {
        RunStatus::Exited { code: 0 } => success(event, command, stdout, &mut effect),
        RunStatus::Exited { code: 2 } => {
            let reason = non_empty(&stderr.text);
            if event.can_block() {
                effect.decision = Some(HookDecision::Block);
                effect.reason = Some(reason.unwrap_or_else(|| no_reason(command)));
            } else {
                effect.errors.push(match reason {
                    Some(reason) => format!("exited with code 2: {reason}"),
                    None => "exited with code 2".into(),
                });
            }
        }
        RunStatus::Exited { code } => effect.errors.push(match non_empty(&stderr.text) {
            Some(stderr) => format!("exited with code {code}: {stderr}"),
            None => format!("exited with code {code}"),
        }),
        RunStatus::Signalled { signal } => {
            effect.errors.push(format!("was killed by signal {signal}"));
        }
        RunStatus::TimedOut { after_ms } => effect.errors.push(format!(
            "timed out after {} and was stopped",
            seconds(*after_ms)
        )),
        RunStatus::Cancelled => {}
        RunStatus::SpawnFailed { message } => effect.errors.push(message.clone()),
    }
    effect
}

fn success(event: HookEvent, command: &str, stdout: &CapturedOutput, effect: &mut HookEffect) {
    let text = stdout.text.trim();
    if text.starts_with('{') {
        if stdout.was_cut() {
            effect.errors.push(
                OutputError::Cut {
                    limit: OUTPUT_LIMIT,
                }
                .to_string(),
            );
            return;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(answer)) => json_answer(event, command, &answer, effect),
            Ok(_) => unreachable_non_object(effect),
            Err(e) => effect.errors.push(
                OutputError::InvalidJson {
                    message: e.to_string(),
                }
                .to_string(),
            ),
        }
        return;
    }
    if text.is_empty() {
        return;
    }
    if event.stdout_is_context() {
        effect.additional_context = Some(text.to_owned());
    } else {
        effect.output_for_user = Some(text.to_owned());
    }
}

/// Text starting with `{` that parses is always an object; kept total rather than
/// panicking should that ever change.
fn unreachable_non_object(effect: &mut HookEffect) {
    effect.errors.push(
        OutputError::InvalidJson {
            message: "not an object".into(),
        }
        .to_string(),
    );
}

fn json_answer(
    event: HookEvent,
    command: &str,
    answer: &Map<String, Value>,
    effect: &mut HookEffect,
) {
    let mut fields = Fields {
        map: answer,
        errors: &mut effect.errors,
    };
    if fields.bool("continue") == Some(false) {
        effect.stop = true;
    }
    effect.stop_reason = fields.string("stopReason");
    effect.suppress_output = fields.bool("suppressOutput").unwrap_or(false);
    effect.system_message = fields.string("systemMessage");
    let legacy_reason = fields.string("reason");
    // The older top-level form: "approve" / "block".
    let legacy_decision = match fields.string("decision").as_deref() {
        None => None,
        Some("block") if event.can_block() => Some(HookDecision::Block),
        Some("approve") if event == HookEvent::PreToolUse => Some(HookDecision::Allow),
        Some("block" | "approve") => None,
        Some(other) => {
            fields.errors.push(
                OutputError::UnknownValue {
                    field: "decision",
                    value: other.to_owned(),
                }
                .to_string(),
            );
            None
        }
    };
    let top_level_prompt = if event == HookEvent::BeforeAgentStart {
        fields.string("systemPrompt")
    } else {
        None
    };
    let specific = specific_output(event, &mut fields);

    match specific.decision {
        Some(decision) => {
            effect.decision = decision;
            effect.reason = specific.decision_reason;
        }
        None => {
            effect.decision = legacy_decision;
            effect.reason = legacy_reason;
        }
    }
    if effect.decision == Some(HookDecision::Block) && effect.reason.is_none() {
        effect.reason = Some(no_reason(command));
    }
    effect.updated_input = specific.updated_input;
    effect.additional_context = specific.additional_context;
    effect.system_prompt = not_empty_prompt(
        specific.system_prompt.or(top_level_prompt),
        &mut effect.errors,
    );
}

#[derive(Default)]
struct SpecificOutput {
    /// `Some(None)`: `"defer"`, an explicit "no decision" that overrides the legacy form.
    decision: Option<Option<HookDecision>>,
    decision_reason: Option<String>,
    updated_input: Option<Value>,
    additional_context: Option<String>,
    system_prompt: Option<String>,
}

fn specific_output(event: HookEvent, fields: &mut Fields<'_>) -> SpecificOutput {
    let mut out = SpecificOutput::default();
    let Some(specific) = fields.object("hookSpecificOutput") else {
        return out;
    };
    let mut inner = Fields {
        map: specific,
        errors: fields.errors,
    };
    if let Some(said) = inner.string("hookEventName") {
        if said != event.name() {
            inner.errors.push(
                OutputError::OtherEvent {
                    said,
                    event: event.name().into(),
                }
                .to_string(),
            );
            // The rest is for another event and not used, except a deny: a hook that
            // meant to refuse a call must not let it run because of a wrong name.
            if event == HookEvent::PreToolUse
                && inner.string("permissionDecision").as_deref() == Some("deny")
            {
                out.decision = Some(Some(HookDecision::Block));
                out.decision_reason = inner.string("permissionDecisionReason");
            }
            return out;
        }
    }
    if event == HookEvent::PreToolUse {
        out.decision = match inner.string("permissionDecision").as_deref() {
            None => None,
            Some("allow") => Some(Some(HookDecision::Allow)),
            Some("ask") => Some(Some(HookDecision::Ask)),
            Some("deny") => Some(Some(HookDecision::Block)),
            Some("defer") => Some(None),
            Some(other) => {
                inner.errors.push(
                    OutputError::UnknownValue {
                        field: "permissionDecision",
                        value: other.to_owned(),
                    }
                    .to_string(),
                );
                None
            }
        };
        out.decision_reason = inner.string("permissionDecisionReason");
        out.updated_input = inner.object("updatedInput").cloned().map(Value::Object);
    }
    if event.takes_additional_context() {
        out.additional_context = inner.string("additionalContext").filter(|c| !c.is_empty());
    }
    if event == HookEvent::BeforeAgentStart {
        out.system_prompt = inner.string("systemPrompt");
    }
    out
}

/// An empty system prompt would leave the model with no instructions at all, safety
/// included: refused, as a hook's slip rather than its wish.
fn not_empty_prompt(prompt: Option<String>, errors: &mut Vec<String>) -> Option<String> {
    match prompt {
        Some(p) if p.trim().is_empty() => {
            errors.push("answered with an empty systemPrompt; the turn keeps its own".into());
            None
        }
        other => other,
    }
}

/// Typed reads of a JSON answer's fields; a wrong type is recorded and read as absent.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    errors: &'a mut Vec<String>,
}

impl<'a> Fields<'a> {
    fn present(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    fn wrong(&mut self, field: &'static str, expected: &'static str) {
        self.errors
            .push(OutputError::WrongType { field, expected }.to_string());
    }

    fn bool(&mut self, field: &'static str) -> Option<bool> {
        let value = self.present(field)?;
        let b = value.as_bool();
        if b.is_none() {
            self.wrong(field, "true or false");
        }
        b
    }

    fn string(&mut self, field: &'static str) -> Option<String> {
        let value = self.present(field)?;
        let s = value.as_str().map(str::to_owned);
        if s.is_none() {
            self.wrong(field, "a string");
        }
        s
    }

    fn object(&mut self, field: &'static str) -> Option<&'a Map<String, Value>> {
        let value = self.present(field)?;
        let o = value.as_object();
        if o.is_none() {
            self.wrong(field, "an object");
        }
        o
    }
}

fn non_empty(text: &str) -> Option<String> {
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

fn no_reason(command: &str) -> String {
    format!("blocked by the hook `{command}` (it gave no reason)")
}

fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(text: &str) -> CapturedOutput {
        CapturedOutput {
            text: text.into(),
            cut_bytes: 0,
        }
    }

    fn exit0(event: HookEvent, stdout: &str) -> HookEffect {
        interpret(
            event,
            "hook.sh",
            &RunStatus::Exited { code: 0 },
            &out(stdout),
            &out(""),
        )
    }

    #[test]
    fn exit_two_blocks_only_blockable_events() {
        let blocked = interpret(
            HookEvent::PreToolUse,
            "g",
            &RunStatus::Exited { code: 2 },
            &out(""),
            &out("no rm\n"),
        );
        assert_eq!(blocked.decision, Some(HookDecision::Block));
        assert_eq!(blocked.reason.as_deref(), Some("no rm"));
        let shown = interpret(
            HookEvent::Notification,
            "g",
            &RunStatus::Exited { code: 2 },
            &out(""),
            &out("oops"),
        );
        assert_eq!(shown.decision, None);
        assert_eq!(shown.errors, ["exited with code 2: oops"]);
    }

    #[test]
    fn json_fields_of_the_wrong_type_are_reported_and_the_rest_used() {
        let effect = exit0(
            HookEvent::PreToolUse,
            r#"{"continue": "no", "systemMessage": 3,
                "hookSpecificOutput": {"hookEventName": "PreToolUse",
                  "permissionDecision": "deny", "permissionDecisionReason": "secrets"}}"#,
        );
        assert_eq!(effect.decision, Some(HookDecision::Block));
        assert_eq!(effect.reason.as_deref(), Some("secrets"));
        assert!(!effect.stop);
        assert_eq!(effect.errors.len(), 2, "{:?}", effect.errors);
    }

    #[test]
    fn a_deny_under_another_events_name_still_denies_and_nothing_else_is_used() {
        let denied = exit0(
            HookEvent::PreToolUse,
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse",
                 "permissionDecision": "deny", "permissionDecisionReason": "no rm"}}"#,
        );
        assert_eq!(denied.decision, Some(HookDecision::Block));
        assert_eq!(denied.reason.as_deref(), Some("no rm"));
        assert_eq!(denied.errors.len(), 1, "{:?}", denied.errors);
        let allowed = exit0(
            HookEvent::PreToolUse,
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse",
                 "permissionDecision": "allow", "updatedInput": {"command": "x"}}}"#,
        );
        assert_eq!(allowed.decision, None);
        assert_eq!(allowed.updated_input, None);
    }

    #[test]
    fn legacy_decisions_and_defer() {
        let approve = exit0(
            HookEvent::PreToolUse,
            r#"{"decision": "approve", "reason": "ok"}"#,
        );
        assert_eq!(approve.decision, Some(HookDecision::Allow));
        let deferred = exit0(
            HookEvent::PreToolUse,
            r#"{"decision": "block", "hookSpecificOutput": {"permissionDecision": "defer"}}"#,
        );
        assert_eq!(deferred.decision, None);
        let stop = exit0(HookEvent::Stop, r#"{"decision": "block"}"#);
        assert_eq!(stop.decision, Some(HookDecision::Block));
        assert!(stop.reason.unwrap().contains("gave no reason"));
        let ignored = exit0(HookEvent::Notification, r#"{"decision": "block"}"#);
        assert_eq!(ignored.decision, None);
        assert!(ignored.errors.is_empty());
    }

    #[test]
    fn plain_stdout_is_context_only_where_documented() {
        let ctx = exit0(HookEvent::SessionStart, "branch: main\n");
        assert_eq!(ctx.additional_context.as_deref(), Some("branch: main"));
        let shown = exit0(HookEvent::PostToolUse, "formatted 3 files");
        assert_eq!(shown.additional_context, None);
        assert_eq!(shown.output_for_user.as_deref(), Some("formatted 3 files"));
    }

    #[test]
    fn broken_or_cut_json_is_a_non_blocking_error() {
        let broken = exit0(HookEvent::PreToolUse, "{\"decision\": ");
        assert_eq!(broken.decision, None);
        assert!(broken.errors[0].contains("does not parse"));
        let cut = interpret(
            HookEvent::PreToolUse,
            "h",
            &RunStatus::Exited { code: 0 },
            &CapturedOutput {
                text: "{\"a\": 1}".into(),
                cut_bytes: 10,
            },
            &out(""),
        );
        assert!(cut.errors[0].contains("was cut"));
    }

    #[test]
    fn another_events_specific_output_is_ignored() {
        let effect = exit0(
            HookEvent::PostToolUse,
            r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}}"#,
        );
        assert_eq!(effect.additional_context, None);
        assert!(effect.errors[0].contains("is for PreToolUse"));
    }
}
