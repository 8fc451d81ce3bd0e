//! Context compaction, the pure part: when to compact, where to cut the history, how the
//! summary request looks, and how the summary replaces the older messages. The engine runs
//! the model call(s) and records the result as an event; replaying that event through
//! [`apply`] rebuilds exactly the same history.
//!
//! The summarised part can be far larger than one request may carry (a long session moved
//! to a model with a smaller window): [`pieces`] splits it into requests that each fit.

pub mod pieces;

use memo_model::Message;

use crate::tokens::TokenCounter;

/// Share of the history (by tokens) kept verbatim after a compaction; also its bound as a
/// share of the context window (see [`keep_limit`]).
pub const PRESERVE_FRACTION_PERCENT: u64 = 30;

/// The assistant's reply after the snapshot; fixed so a replayed compaction is identical.
pub const SNAPSHOT_ACK: &str = "Understood. I will continue from this snapshot.";

/// How the user message carrying a snapshot begins. Part of every recorded compaction's
/// replayed history, so it must never change.
const SNAPSHOT_PREAMBLE: &str = "The earlier part of this conversation was compacted to save \
     context. This state snapshot is everything you remember of it; continue the work from here.";

/// Whether a prompt of `prompt_tokens` has passed `percent` of the context window.
pub fn over_threshold(prompt_tokens: u64, context_window: u64, percent: u8) -> bool {
    context_window > 0
        && prompt_tokens.saturating_mul(100) >= context_window.saturating_mul(u64::from(percent))
}

/// The most tokens a compaction keeps verbatim out of a history of `total`: 30% of the
/// history, and never more than 30% of the context window (`0`: unknown, no bound). The
/// window bound matters when the history is many times the window (a long session
/// switched to a smaller model): 30% of the history alone would still be over the window
/// and the very next request would be refused. 30% of the window leaves the rest for the
/// system prompt, the snapshot and the turns to come before the next compaction.
pub fn keep_limit(total: u64, context_window: u64) -> u64 {
    // `total - 70%` rather than `30%`, so the cut is where it always was when the window
    // does not bind.
    let share = total - total.saturating_mul(100 - PRESERVE_FRACTION_PERCENT) / 100;
    if context_window == 0 {
        return share;
    }
    share.min(context_window.saturating_mul(PRESERVE_FRACTION_PERCENT) / 100)
}

/// Where to cut: messages before the index are summarised, the rest are kept. The cut is
/// always at a user message (never between a tool call and its result), at the first one
/// that leaves at most [`keep_limit`] tokens after it. With no such user message, a
/// history that ends with a plain answer is summarised whole; otherwise the cut falls at
/// the last user message (the turn still running cannot be split, even when it alone is
/// over the limit). `None` when nothing can be summarised.
pub fn split_point(history: &[Message], counts: &[u64], context_window: u64) -> Option<usize> {
    let total: u64 = counts.iter().sum();
    let target = total - keep_limit(total, context_window);
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
        Message::user(format!("{SNAPSHOT_PREAMBLE}\n\n{}", summary.trim())),
        Message::Assistant {
            text: SNAPSHOT_ACK.to_owned(),
            reasoning: None,
            tool_calls: Vec::new(),
            provider_data: None,
        },
    ]
}

/// How many messages at the start of `history` are an earlier compaction's snapshot and
/// its acknowledgement: 2 or 0.
pub fn snapshot_head(history: &[Message]) -> usize {
    match history {
        [Message::User { text, images }, Message::Assistant {
            text: ack,
            tool_calls,
            ..
        }, ..]
            if images.is_empty()
                && text.starts_with(SNAPSHOT_PREAMBLE)
                && ack == SNAPSHOT_ACK
                && tool_calls.is_empty() =>
        {
            2
        }
        _ => 0,
    }
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

/// Messages for the tests of compaction and of its pieces.
#[cfg(test)]
pub(crate) mod fixtures {
    use memo_model::{Message, ToolCall};

    pub fn user(t: &str) -> Message {
        Message::user(t)
    }
    pub fn answer(t: &str) -> Message {
        Message::Assistant {
            text: t.into(),
            reasoning: None,
            tool_calls: Vec::new(),
            provider_data: None,
        }
    }
    pub fn call(id: &str) -> Message {
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
    pub fn result(id: &str, content: &str) -> Message {
        Message::ToolResult {
            call_id: id.into(),
            name: "read_file".into(),
            content: content.into(),
            is_error: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::*;

    #[test]
    fn the_cut_is_at_the_first_user_message_past_seventy_percent() {
        // 0 user, 1 call, 2 result, 3 answer | 4 user, 5 answer | 6 user, 7 call, 8 result
        let history = vec![
            user("a"),
            call("1"),
            result("1", "x"),
            answer("b"),
            user("c"),
            answer("d"),
            user("e"),
            call("2"),
            result("2", "x"),
        ];
        let counts = vec![10, 10, 10, 10, 30, 10, 5, 5, 10];
        // total 100, target 70: before index 4 is 40, before 6 is 80.
        assert_eq!(split_point(&history, &counts, 0), Some(6));
        // A window that does not bind changes nothing.
        assert_eq!(split_point(&history, &counts, 1000), Some(6));
    }

    #[test]
    fn a_tool_result_is_never_separated_from_its_call() {
        // Heavy tool results: 70% falls inside the tool span; the cut moves to the next
        // user message, not between call and result.
        let history = vec![
            user("a"),
            call("1"),
            result("1", "x"),
            call("2"),
            result("2", "x"),
            user("b"),
            answer("c"),
        ];
        let counts = vec![1, 1, 40, 1, 40, 10, 7];
        let cut = split_point(&history, &counts, 0).unwrap();
        assert_eq!(cut, 5);
        assert!(matches!(history[cut], Message::User { .. }));
    }

    #[test]
    fn without_a_late_user_message_a_finished_history_is_summarised_whole() {
        let history = vec![user("a"), answer("b"), user("c"), answer(&"d".repeat(100))];
        assert_eq!(split_point(&history, &[1, 1, 1, 97], 0), Some(4));
        // Mid-turn (last message is a tool result) the current turn is kept whole.
        let history = vec![
            user("a"),
            answer("b"),
            user("c"),
            call("1"),
            result("1", "x"),
        ];
        assert_eq!(split_point(&history, &[1, 1, 1, 1, 96], 0), Some(2));
        // A single turn still running cannot be compacted.
        let history = vec![user("a"), call("1"), result("1", "x")];
        assert_eq!(split_point(&history, &[1, 1, 98], 0), None);
    }

    /// Ten turns of 100 tokens (user 10, answer 90): 1,000 tokens in all.
    fn ten_turns() -> (Vec<Message>, Vec<u64>) {
        let mut history = Vec::new();
        let mut counts = Vec::new();
        for i in 0..10 {
            history.push(user(&format!("q{i}")));
            history.push(answer(&format!("a{i}")));
            counts.extend([10, 90]);
        }
        (history, counts)
    }

    #[test]
    fn the_kept_part_is_bounded_by_the_window_too() {
        let (history, counts) = ten_turns();
        // No window: 30% of the history, 300 tokens, three turns.
        assert_eq!(keep_limit(1000, 0), 300);
        assert_eq!(split_point(&history, &counts, 0), Some(14));
        // A window of 400 (the history is 2.5 windows): at most 120 tokens kept, one turn.
        assert_eq!(keep_limit(1000, 400), 120);
        assert_eq!(split_point(&history, &counts, 400), Some(18));
        // A window of 1,000 keeps up to 300: the history's own 30% binds again.
        assert_eq!(split_point(&history, &counts, 1000), Some(14));
        // Seven million tokens to a 120k window: the kept part is at most 36k, not 2.1M.
        assert_eq!(keep_limit(7_000_000, 120_000), 36_000);
    }

    #[test]
    fn a_bounded_cut_still_falls_only_at_a_user_message() {
        // 0 user, 1 call, 2 result, 3 answer | 4 user, 5 call, 6 result, 7 answer
        let history = vec![
            user("a"),
            call("1"),
            result("1", "x"),
            answer("b"),
            user("c"),
            call("2"),
            result("2", "x"),
            answer("d"),
        ];
        let counts = vec![5, 5, 60, 5, 5, 5, 10, 5];
        // Without a window the last turn (25 of 100 tokens) is kept.
        assert_eq!(split_point(&history, &counts, 0), Some(4));
        // Window 50: keep at most 15; the last turn alone is 25, so no user message leaves
        // few enough tokens, and the history ends with an answer: summarised whole.
        assert_eq!(split_point(&history, &counts, 50), Some(8));
        // Mid-turn (ending on a tool result) the running turn is kept whole: the cut is at
        // its user message although it is over the limit.
        assert_eq!(split_point(&history[..7], &counts[..7], 50), Some(4));
        assert!(matches!(history[4], Message::User { .. }));
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
    fn the_snapshot_message_never_changes_and_is_recognised_at_the_head() {
        // Recorded compactions replay through this text: it must stay byte for byte.
        let [snapshot, ack] = snapshot_messages(" <state_snapshot>s</state_snapshot>\n");
        assert_eq!(
            snapshot,
            user(
                "The earlier part of this conversation was compacted to save context. This state \
                 snapshot is everything you remember of it; continue the work from here.\n\n\
                 <state_snapshot>s</state_snapshot>"
            )
        );
        assert_eq!(ack, answer(SNAPSHOT_ACK));
        let mut history = vec![user("a"), answer("b"), user("c"), answer("d")];
        assert_eq!(snapshot_head(&history), 0);
        apply(&mut history, Some("<state_snapshot>s</state_snapshot>"), 2);
        assert_eq!(snapshot_head(&history), 2);
        assert_eq!(snapshot_head(&history[..1]), 0);
        // A user who writes the same words is not a snapshot without the acknowledgement.
        assert_eq!(snapshot_head(&[history[0].clone(), answer("sure")]), 0);
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
