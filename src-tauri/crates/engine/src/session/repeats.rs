//! Noticing a model stuck on one call. Small local models, told a call is wrong, often
//! send it again unchanged (Qwen2.5-Coder 1.5B sent the same `apply_patch` with identical
//! old and new text 40 times, until the 5-minute limit), or read the same file again and
//! again (38 identical `read_file` calls). Each repetition costs a whole prompt read; when
//! the same call has given the same result a few times, the turn is stopped with a
//! message saying why. Results that change (a command's output, a file being edited
//! between reads) never match, so polling and edit-check cycles are left alone.

use std::collections::HashMap;

use memo_model::{Message, ToolCall};

/// Times one call may give one result in a turn; the turn stops when it does.
pub(crate) const MAX_IDENTICAL_RESULTS: u32 = 3;

/// One call and what it gave: tool, arguments, result text, whether it failed.
type Key = (String, String, String, bool);

/// This turn's results, by call and result.
#[derive(Default)]
pub(crate) struct RepeatGuard {
    seen: HashMap<Key, u32>,
}

/// Why a turn was stopped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stuck {
    pub tool: String,
    pub failed: bool,
}

impl Stuck {
    pub fn message(&self) -> String {
        let what = if self.failed { "failing " } else { "" };
        format!(
            "stopped: the model sent the same {what}{} call {MAX_IDENTICAL_RESULTS} times and \
             got the same result each time; rephrase the request, or try a larger model",
            self.tool
        )
    }
}

impl RepeatGuard {
    /// Counts the results of `calls` (found in `history`); returns the call that has now
    /// given the same result [`MAX_IDENTICAL_RESULTS`] times.
    pub fn observe(&mut self, calls: &[ToolCall], history: &[Message]) -> Option<Stuck> {
        let mut stuck = None;
        for call in calls {
            let result = history.iter().rev().find_map(|m| match m {
                Message::ToolResult {
                    call_id,
                    content,
                    is_error,
                    ..
                } if *call_id == call.id => Some((content.clone(), *is_error)),
                _ => None,
            });
            let Some((content, failed)) = result else {
                continue;
            };
            // The hint added to a repeat does not make it a different result.
            let content = match content.strip_suffix(REPEAT_HINT) {
                Some(bare) => bare.trim_end().to_owned(),
                None => content,
            };
            let key = (
                call.name.clone(),
                canonical(&call.arguments),
                content,
                failed,
            );
            let count = self.seen.entry(key).or_insert(0);
            *count += 1;
            if *count >= MAX_IDENTICAL_RESULTS {
                stuck = Some(Stuck {
                    tool: call.name.clone(),
                    failed,
                });
            }
        }
        stuck
    }
}

/// Said in a result the model already got for the same call: a small model that re-sends
/// a call usually did not take in the first answer. Often enough, being told so is what
/// makes it answer instead of looping into [`RepeatGuard`]'s stop.
pub(crate) const REPEAT_HINT: &str = "<system_hint type=\"repeated_call\">You made this exact call before and got this same result. Use it: answer the user, or do something different.</system_hint>";

/// Whether this turn (the history since its user message) already holds `call` (same
/// tool and arguments) answered with `output`. Only the turn is searched: this runs for
/// every tool result, and the guard it feeds counts per turn too.
pub(crate) fn answered_before(history: &[Message], call: &ToolCall, output: &str) -> bool {
    let start = history
        .iter()
        .rposition(|m| matches!(m, Message::User { .. }))
        .map_or(0, |i| i + 1);
    let turn = &history[start..];
    let args = canonical(&call.arguments);
    let earlier: Vec<&str> = turn
        .iter()
        .filter_map(|m| match m {
            Message::Assistant { tool_calls, .. } => Some(tool_calls),
            _ => None,
        })
        .flatten()
        .filter(|c| c.id != call.id && c.name == call.name && canonical(&c.arguments) == args)
        .map(|c| c.id.as_str())
        .collect();
    turn.iter().any(|m| match m {
        Message::ToolResult {
            call_id, content, ..
        } => {
            earlier.contains(&call_id.as_str())
                && (content == output
                    || content.strip_suffix(REPEAT_HINT).map(str::trim_end) == Some(output))
        }
        _ => false,
    })
}

/// The arguments with key order and spacing normalised, so `{"a":1, "b":2}` and
/// `{"b": 2,"a": 1}` are one call.
fn canonical(arguments: &str) -> String {
    serde_json::from_str::<serde_json::Value>(arguments)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| arguments.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str, args: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "apply_patch".into(),
            arguments: args.into(),
        }
    }

    fn result(id: &str, error: bool, text: &str) -> Message {
        Message::ToolResult {
            call_id: id.into(),
            name: "apply_patch".into(),
            content: text.into(),
            is_error: error,
        }
    }

    #[test]
    fn the_third_identical_success_is_reported_but_not_a_changing_one() {
        let mut guard = RepeatGuard::default();
        let history = vec![
            result("1", false, "same file"),
            result("2", false, "same file, edited"),
            result("3", false, "same file"),
            result("4", false, "same file"),
        ];
        let read = r#"{"file_path":"a.py"}"#;
        assert_eq!(guard.observe(&[call("1", read)], &history), None);
        assert_eq!(guard.observe(&[call("2", read)], &history), None);
        assert_eq!(guard.observe(&[call("3", read)], &history), None);
        let stuck = guard.observe(&[call("4", read)], &history).unwrap();
        assert!(!stuck.failed);
        assert!(
            stuck.message().contains("same apply_patch call 3 times"),
            "{}",
            stuck.message()
        );
    }

    #[test]
    fn the_third_identical_failure_is_reported_and_nothing_else_is() {
        let mut guard = RepeatGuard::default();
        let history = vec![
            result("1", true, "identical"),
            result("2", true, "identical"),
            result("3", false, "ok"),
            result("4", true, "other error"),
            result("5", true, "identical"),
        ];
        assert_eq!(
            guard.observe(&[call("1", r#"{"a":1,"b":2}"#)], &history),
            None
        );
        assert_eq!(
            guard.observe(&[call("2", r#"{"b": 2, "a": 1}"#)], &history),
            None
        );
        // A success and a different error do not count toward it.
        assert_eq!(
            guard.observe(&[call("3", r#"{"a":1,"b":2}"#)], &history),
            None
        );
        assert_eq!(
            guard.observe(&[call("4", r#"{"a":1,"b":2}"#)], &history),
            None
        );
        assert_eq!(
            guard.observe(&[call("5", r#"{"a":1,"b":2}"#)], &history),
            Some(Stuck {
                tool: "apply_patch".into(),
                failed: true
            })
        );
    }

    #[test]
    fn a_result_the_model_already_got_for_the_same_call_is_recognised() {
        let assistant = |calls: Vec<ToolCall>| Message::Assistant {
            text: String::new(),
            reasoning: None,
            tool_calls: calls,
            provider_data: None,
        };
        let history = vec![
            assistant(vec![call("1", r#"{"f":"a"}"#)]),
            result("1", false, "content"),
        ];
        assert!(answered_before(
            &history,
            &call("2", r#"{ "f": "a" }"#),
            "content"
        ));
        assert!(!answered_before(
            &history,
            &call("2", r#"{"f":"b"}"#),
            "content"
        ));
        assert!(!answered_before(
            &history,
            &call("2", r#"{"f":"a"}"#),
            "changed"
        ));
        // A hinted earlier result still counts as the same answer.
        let hinted = vec![
            assistant(vec![call("1", r#"{"f":"a"}"#)]),
            result("1", false, &format!("content\n{REPEAT_HINT}")),
        ];
        assert!(answered_before(
            &hinted,
            &call("3", r#"{"f":"a"}"#),
            "content"
        ));
    }
}
