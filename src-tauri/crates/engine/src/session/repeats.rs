//! Noticing a model stuck on one failing call. Small local models, told a call is wrong,
//! often send it again unchanged (Qwen2.5-Coder 1.5B sent the same `apply_patch` with
//! identical old and new text 40 times, until the 5-minute limit). Each repetition costs a
//! whole prompt read; after a few, the turn is stopped with a message saying why.

use std::collections::HashMap;

use memo_providers::{Message, ToolCall};

/// Identical failures of one call in a turn before the turn is stopped.
pub(crate) const MAX_IDENTICAL_FAILURES: u32 = 3;

/// Failures of this turn, by call (tool, arguments) and error text.
#[derive(Default)]
pub(crate) struct RepeatGuard {
    failures: HashMap<(String, String, String), u32>,
}

impl RepeatGuard {
    /// Counts the failed results among `calls` (found in `history`); returns the tool
    /// whose identical call has now failed identically [`MAX_IDENTICAL_FAILURES`] times.
    pub fn observe(&mut self, calls: &[ToolCall], history: &[Message]) -> Option<String> {
        let mut stuck = None;
        for call in calls {
            let failed = history.iter().rev().find_map(|m| match m {
                Message::ToolResult {
                    call_id,
                    content,
                    is_error: true,
                    ..
                } if *call_id == call.id => Some(content.clone()),
                _ => None,
            });
            let Some(error) = failed else { continue };
            let key = (call.name.clone(), canonical(&call.arguments), error);
            let count = self.failures.entry(key).or_insert(0);
            *count += 1;
            if *count >= MAX_IDENTICAL_FAILURES {
                stuck = Some(call.name.clone());
            }
        }
        stuck
    }
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
            Some("apply_patch".into())
        );
    }
}
