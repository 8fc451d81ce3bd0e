//! Context compaction, the pure part: when to compact, where to cut the history, how the
//! summary request looks, and how the summary replaces the older messages. The engine runs
//! the model call and records the result as an event; replaying that event through
//! [`apply`] rebuilds exactly the same history.

use memo_model::Message;

use crate::tokens::TokenCounter;

/// Share of the history (by tokens) kept verbatim after a compaction.
pub const PRESERVE_FRACTION_PERCENT: u64 = 30;

/// The assistant's reply after the snapshot; fixed so a replayed compaction is identical.
pub const SNAPSHOT_ACK: &str = "Understood. I will continue from this snapshot.";

/// Whether a prompt of `prompt_tokens` has passed `percent` of the context window.
pub fn over_threshold(prompt_tokens: u64, context_window: u64, percent: u8) -> bool {
    context_window > 0
        && prompt_tokens.saturating_mul(100) >= context_window.saturating_mul(u64::from(percent))
}

/// Where to cut: messages before the index are summarised, the rest are kept. The cut is
/// always at a user message (never between a tool call and its result), at the first one
/// after 70% of the history's tokens. With no user message past that point, a history
/// that ends with a plain answer is summarised whole; otherwise the cut falls at the last
/// user message. `None` when nothing can be summarised.
pub fn split_point(history: &[Message], counts: &[u64]) -> Option<usize> {
    let total: u64 = counts.iter().sum();
    let target = total.saturating_mul(100 - PRESERVE_FRACTION_PERCENT) / 100;
    let mut before = 0u64;
    let mut last_user = None;
    for (i, message) in history.iter().enumerate() {
        if i > 0 && matches!(message, Message::User { .. }) {
            if before >= target {
                return Some(i);
            }
            last_user = Some(i);
        }
        before += counts.get(i).copied().unwrap_or(0);
    }
    match history.last() {
        Some(Message::Assistant { tool_calls, .. }) if tool_calls.is_empty() => Some(history.len()),
        _ => last_user,
    }
}

/// The two messages that stand in for the summarised history.
pub fn snapshot_messages(summary: &str) -> [Message; 2] {
    [
        Message::user(format!(
                "The earlier part of this conversation was compacted to save context. This \
                 state snapshot is everything you remember of it; continue the work from here.\n\n{}",
                summary.trim()
            )),
        Message::Assistant {
            text: SNAPSHOT_ACK.to_owned(),
            reasoning: None,
            tool_calls: Vec::new(),
            provider_data: None,
        },
    ]
}

/// Replaces everything but the last `kept` messages with the snapshot (or with nothing,
/// for `/clear`).
pub fn apply(history: &mut Vec<Message>, summary: Option<&str>, kept: usize) {
    let keep_from = history.len().saturating_sub(kept);
    let kept: Vec<Message> = history.drain(keep_from..).collect();
    history.clear();
    if let Some(summary) = summary {
        history.extend(snapshot_messages(summary));
    }
    history.extend(kept);
}

/// The `<state_snapshot>` element of the model's answer (a scratchpad around it is
/// dropped). An answer without the element is used whole, wrapped in one; an empty
/// answer is `None`.
pub fn extract_snapshot(answer: &str) -> Option<String> {
    let answer = answer.trim();
    if answer.is_empty() {
        return None;
    }
    const OPEN: &str = "<state_snapshot>";
    const CLOSE: &str = "</state_snapshot>";
    if let Some(start) = answer.rfind(OPEN) {
        let end = answer[start..]
            .find(CLOSE)
            .map(|e| start + e + CLOSE.len())
            .unwrap_or(answer.len());
        let mut snapshot = answer[start..end].trim().to_owned();
        if !snapshot.ends_with(CLOSE) {
            snapshot.push('\n');
            snapshot.push_str(CLOSE);
        }
        return Some(snapshot);
    }
    Some(format!("{OPEN}\n{answer}\n{CLOSE}"))
}

/// The result of checking a candidate compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    pub before: u64,
    pub after: u64,
}

impl Sizes {
    /// A summary that costs more than what it replaces is a failed compaction.
    pub fn inflated(&self) -> bool {
        self.after > self.before
    }
}

/// Token sizes of a history (`counts` per message) before and after replacing the
/// messages before `split` with `summary`.
pub fn sizes(counts: &[u64], split: usize, summary: &str, counter: TokenCounter) -> Sizes {
    let before: u64 = counts.iter().sum();
    let kept: u64 = counts[split.min(counts.len())..].iter().sum();
    let after = counter.messages(&snapshot_messages(summary)) + kept;
    Sizes { before, after }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_model::ToolCall;

    fn user(t: &str) -> Message {
        Message::user(t)
    }
    fn answer(t: &str) -> Message {
        Message::Assistant {
            text: t.into(),
            reasoning: None,
            tool_calls: Vec::new(),
            provider_data: None,
        }
    }
    fn call(id: &str) -> Message {
        Message::Assistant {
            text: String::new(),
            reasoning: None,
            tool_calls: vec![ToolCall {
                id: id.into(),
                name: "read_file".into(),
                arguments: "{}".into(),
            }],
            provider_data: None,
        }
    }
    fn result(id: &str) -> Message {
        Message::ToolResult {
            call_id: id.into(),
            name: "read_file".into(),
            content: "x".into(),
            is_error: false,
        }
    }

    #[test]
    fn the_cut_is_at_the_first_user_message_past_seventy_percent() {
        // 0 user, 1 call, 2 result, 3 answer | 4 user, 5 answer | 6 user, 7 call, 8 result
        let history = vec![
            user("a"),
            call("1"),
            result("1"),
            answer("b"),
            user("c"),
            answer("d"),
            user("e"),
            call("2"),
            result("2"),
        ];
        let counts = vec![10, 10, 10, 10, 30, 10, 5, 5, 10];
        // total 100, target 70: before index 4 is 40, before 6 is 80.
        assert_eq!(split_point(&history, &counts), Some(6));
    }

    #[test]
    fn a_tool_result_is_never_separated_from_its_call() {
        // Heavy tool results: 70% falls inside the tool span; the cut moves to the next
        // user message, not between call and result.
        let history = vec![
            user("a"),
            call("1"),
            result("1"),
            call("2"),
            result("2"),
            user("b"),
            answer("c"),
        ];
        let counts = vec![1, 1, 40, 1, 40, 10, 7];
        let cut = split_point(&history, &counts).unwrap();
        assert_eq!(cut, 5);
        assert!(matches!(history[cut], Message::User { .. }));
    }

    #[test]
    fn without_a_late_user_message_a_finished_history_is_summarised_whole() {
        let history = vec![user("a"), answer("b"), user("c"), answer(&"d".repeat(100))];
        assert_eq!(split_point(&history, &[1, 1, 1, 97]), Some(4));
        // Mid-turn (last message is a tool result) the current turn is kept whole.
        let history = vec![user("a"), answer("b"), user("c"), call("1"), result("1")];
        assert_eq!(split_point(&history, &[1, 1, 1, 1, 96]), Some(2));
        // A single turn still running cannot be compacted.
        let history = vec![user("a"), call("1"), result("1")];
        assert_eq!(split_point(&history, &[1, 1, 98]), None);
    }

    #[test]
    fn apply_keeps_the_tail_after_the_snapshot() {
        let mut history = vec![user("a"), answer("b"), user("c"), answer("d")];
        apply(&mut history, Some("<state_snapshot>s</state_snapshot>"), 2);
        assert_eq!(history.len(), 4);
        assert!(
            matches!(&history[0], Message::User { text, .. } if text.ends_with("<state_snapshot>s</state_snapshot>"))
        );
        assert_eq!(history[2], user("c"));
        apply(&mut history, None, 0);
        assert!(history.is_empty());
    }

    #[test]
    fn snapshots_are_extracted_or_wrapped() {
        assert_eq!(
            extract_snapshot("<scratchpad>x</scratchpad>\n<state_snapshot>\n<overall_goal>g</overall_goal>\n</state_snapshot> bye").as_deref(),
            Some("<state_snapshot>\n<overall_goal>g</overall_goal>\n</state_snapshot>")
        );
        assert_eq!(
            extract_snapshot("just prose").as_deref(),
            Some("<state_snapshot>\njust prose\n</state_snapshot>")
        );
        assert_eq!(extract_snapshot("  "), None);
    }

    #[test]
    fn threshold_and_inflation() {
        assert!(over_threshold(90, 100, 90));
        assert!(!over_threshold(89, 100, 90));
        assert!(!over_threshold(10, 0, 90));
        let sizes = sizes(
            &[5, 5],
            2,
            &"long summary ".repeat(50),
            TokenCounter::bytes(),
        );
        assert!(sizes.inflated());
    }
}
