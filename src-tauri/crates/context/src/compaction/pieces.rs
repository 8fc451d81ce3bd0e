//! The summarised part of a history in pieces that each fit one summary request.
//!
//! A history far larger than the model's window (a long session moved to a model with a
//! smaller one) cannot be summarised in one call: the provider refuses the request. It is
//! summarised oldest first as a rolling summary instead: piece 1 is summarised, piece 2's
//! request starts with that snapshot (as [`snapshot_messages`], so it looks exactly like a
//! compacted history) followed by piece 2, and so on; the last snapshot is the result.
//!
//! - Pieces start at user messages, so every request is a sequence a provider accepts
//!   (a user message first, every tool call followed by its result).
//! - An earlier compaction's snapshot at the start (see [`snapshot_head`]) goes ahead of
//!   piece 1: it is the summary of everything before, so it is never left out.
//! - A piece that is still over budget (one turn with huge tool outputs) has its largest
//!   tool results cut to a head and a tail, in the summary input only.
//! - At most [`MAX_PIECES`] calls: beyond that the oldest messages are left out, and the
//!   first request says so in words the snapshot can pass on.

use std::ops::Range;

use memo_model::Message;

use super::{snapshot_head, snapshot_messages};
use crate::tokens::TokenCounter;

/// Share of the window, after the request's fixed part (system prompt, tool definitions,
/// the request to write the snapshot), that one piece's messages may fill. The other 40%
/// is for what is not known when the pieces are planned: the snapshot that goes ahead of
/// the piece (an earlier compaction's, or the running one), the answer (a snapshot of a
/// few thousand tokens, and providers count the answer against the window too), and the
/// error of the token estimate (the byte estimate can be off by a tenth or more).
pub const SUMMARY_INPUT_PERCENT: u64 = 60;

/// The most summary calls one compaction makes. Each call sends up to a piece's budget
/// and waits for a full answer: eight are about five windows of history (on a 128k model,
/// ~600k input tokens and several minutes), which covers what a session still needs;
/// older work is in the snapshot only as the note that it was left out.
pub const MAX_PIECES: usize = 8;

/// A shortened tool result keeps at least this many characters (half at the start, half
/// at the end: the command or file it came from, and how it ended).
const MIN_EXCERPT_CHARS: usize = 1_000;

/// What the marker in an excerpt costs, about: aimed for when cutting, so one cut is
/// usually enough.
const MARKER_TOKENS: u64 = 24;

/// Tokens one piece's own messages may take in a summary request, given the window and
/// the tokens of the request's fixed part. No limit with an unknown window (`0`).
pub fn input_budget(context_window: u64, fixed_tokens: u64) -> u64 {
    if context_window == 0 {
        return u64::MAX;
    }
    // At least one token, so a window the fixed part fills still plans (one turn a piece).
    (context_window
        .saturating_sub(fixed_tokens)
        .saturating_mul(SUMMARY_INPUT_PERCENT)
        / 100)
        .max(1)
}

/// How the summarised messages are split into requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pieces {
    /// `older[..head]` is an earlier compaction's snapshot and its acknowledgement (or
    /// nothing), sent ahead of the first piece.
    pub head: usize,
    /// Messages after the head that are not summarised: the oldest, beyond the cap.
    pub left_out: usize,
    /// Ranges of `older`, oldest first and adjacent, the last ending at `older.len()`.
    /// Each starts at a user message, except that the first may start right after the
    /// head when nothing is left out. Never empty.
    pub ranges: Vec<Range<usize>>,
}

/// Splits `older` (per-message token `counts`) into pieces of at most `budget` tokens
/// each (the head is not counted: like the running snapshot, it is in the reserve), at
/// most `max_pieces` of them. Planned from the newest end, so when there are too many it
/// is the oldest messages that are left out. A single turn over the budget is a piece of
/// its own (see [`shorten_tool_results`]).
pub fn plan(older: &[Message], counts: &[u64], budget: u64, max_pieces: usize) -> Pieces {
    let head = snapshot_head(older).min(older.len());
    let len = older.len();
    // Where a piece may start: right after the head, and at every later user message.
    let starts: Vec<usize> = std::iter::once(head)
        .chain((head + 1..len).filter(|&i| matches!(older[i], Message::User { .. })))
        .collect();
    let mut prefix = Vec::with_capacity(len + 1);
    prefix.push(0u64);
    for i in 0..len {
        let before = prefix[i];
        prefix.push(before + counts.get(i).copied().unwrap_or(0));
    }
    let tokens = |range: Range<usize>| prefix[range.end] - prefix[range.start];

    let mut ranges = Vec::new();
    let mut end = len;
    // `starts[..k]` are the starts before `end`.
    let mut k = starts.len();
    while end > head && k > 0 && ranges.len() < max_pieces.max(1) {
        // The last turn before `end` always goes in; earlier ones while they fit.
        let mut j = k - 1;
        while j > 0 && tokens(starts[j - 1]..end) <= budget {
            j -= 1;
        }
        ranges.push(starts[j]..end);
        end = starts[j];
        k = j;
    }
    if ranges.is_empty() {
        // Nothing after the head: the earlier snapshot alone is summarised again.
        ranges.push(head..len);
    }
    ranges.reverse();
    Pieces {
        head,
        left_out: end.saturating_sub(head),
        ranges,
    }
}

impl Pieces {
    /// The messages of the summary request for piece `index` (without the request to write
    /// the snapshot): the head (piece 1) or the running snapshot (later pieces), then the
    /// piece, its tool results shortened to fit `budget`. The first piece starts with a
    /// note when older messages were left out. `counts` are those of `older`.
    pub fn messages(
        &self,
        older: &[Message],
        counts: &[u64],
        index: usize,
        running: Option<&str>,
        budget: u64,
        counter: TokenCounter,
    ) -> Vec<Message> {
        let Some(range) = self.ranges.get(index).cloned() else {
            return Vec::new();
        };
        let mut body = older.get(range.clone()).unwrap_or_default().to_vec();
        let mut body_counts: Vec<u64> = range
            .clone()
            .map(|i| counts.get(i).copied().unwrap_or(0))
            .collect();
        if index == 0 && self.left_out > 0 {
            if let (Some(first), Some(count)) = (body.first_mut(), body_counts.first_mut()) {
                add_left_out_note(first, self.left_out);
                *count = counter.message(first);
            }
        }
        shorten_tool_results(&mut body, &mut body_counts, budget, counter);
        let mut messages = match (index, running) {
            (0, _) => older.get(..self.head).unwrap_or_default().to_vec(),
            (_, Some(snapshot)) => snapshot_messages(snapshot).to_vec(),
            (_, None) => Vec::new(),
        };
        messages.extend(body);
        messages
    }
}

/// What the first request says when the oldest messages are not summarised.
pub fn left_out_note(count: usize) -> String {
    let messages = if count == 1 { "message" } else { "messages" };
    format!(
        "[Note: {count} earlier {messages} of this conversation, before this one, were left out \
         of this summary because the conversation was too long to summarise in full. Say in \
         the snapshot that the work before this point is not covered.]"
    )
}

/// Puts [`left_out_note`] ahead of a user message's text (a piece starts at one).
fn add_left_out_note(message: &mut Message, count: usize) {
    if let Message::User { text, .. } = message {
        *text = format!("{}\n\n{text}", left_out_note(count));
    }
}

/// Shortens the largest tool results of `messages` (token `counts` kept up to date) to a
/// head and a tail until the messages fit `budget`, or none can be shortened further; the
/// request is sent as it is then (a refusal is a failed compaction, the history stays).
/// The history itself is not touched: this is the summary input only. Returns how many
/// results were shortened.
pub fn shorten_tool_results(
    messages: &mut [Message],
    counts: &mut [u64],
    budget: u64,
    counter: TokenCounter,
) -> usize {
    // Per message: the original text and how many of its characters are kept now, once
    // shortened; each pass re-cuts the original, so there is only ever one marker.
    let len = messages.len().min(counts.len());
    let mut originals: Vec<Option<(String, usize)>> = vec![None; len];
    let mut at_minimum = vec![false; len];
    loop {
        let total: u64 = counts.iter().sum();
        if total <= budget {
            break;
        }
        let largest = (0..len)
            .filter(|&i| !at_minimum[i] && matches!(messages[i], Message::ToolResult { .. }))
            .max_by_key(|&i| counts[i]);
        let Some(i) = largest else { break };
        let Message::ToolResult { content, .. } = &mut messages[i] else {
            at_minimum[i] = true;
            continue;
        };
        let kept_now = match &originals[i] {
            Some((_, kept)) => *kept,
            None => content.chars().count(),
        };
        // Keep the share of what is kept now that takes off the excess, and at least an
        // eighth less each pass (the estimate is not linear in characters), so it ends.
        let tokens = counts[i].max(1);
        let wanted = tokens.saturating_sub(total - budget + MARKER_TOKENS);
        let by_share = (kept_now as u128 * u128::from(wanted) / u128::from(tokens)) as usize;
        let target = by_share.min(kept_now - kept_now / 8).max(MIN_EXCERPT_CHARS);
        if target >= kept_now {
            at_minimum[i] = true;
            continue;
        }
        let (original, kept) =
            originals[i].get_or_insert_with(|| (std::mem::take(content), kept_now));
        *kept = target;
        *content = excerpt(original, target);
        counts[i] = counter.message(&messages[i]);
        if target == MIN_EXCERPT_CHARS {
            at_minimum[i] = true;
        }
    }
    originals.iter().filter(|o| o.is_some()).count()
}

/// `text` cut to its first and last characters, `keep` in all, with a marker saying how
/// many are left out between them. Cuts at character boundaries.
pub fn excerpt(text: &str, keep: usize) -> String {
    let chars = text.chars().count();
    if keep >= chars {
        return text.to_owned();
    }
    let head = keep / 2;
    let tail = keep - head;
    let byte_at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(b, _)| b);
    let head_end = byte_at(head);
    let tail_start = byte_at(chars - tail);
    format!(
        "{}\n[… {} characters left out of the summary input …]\n{}",
        &text[..head_end],
        chars - keep,
        &text[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compaction::fixtures::*;

    fn is_user(m: &Message) -> bool {
        matches!(m, Message::User { .. })
    }
    /// A plan of one piece.
    fn one(range: Range<usize>) -> Vec<Range<usize>> {
        vec![range]
    }
    fn sum(counts: &[u64], range: &Range<usize>) -> u64 {
        counts[range.clone()].iter().sum()
    }

    /// `turns` turns of user (10 tokens), call (10), result (60), answer (20): 100 each.
    fn turns(turns: usize) -> (Vec<Message>, Vec<u64>) {
        let mut history = Vec::new();
        let mut counts = Vec::new();
        for i in 0..turns {
            let id = i.to_string();
            history.extend([
                user(&format!("q{i}")),
                call(&id),
                result(&id, "x"),
                answer("a"),
            ]);
            counts.extend([10, 10, 60, 20]);
        }
        (history, counts)
    }

    #[test]
    fn the_budget_is_a_share_of_the_window_after_the_fixed_part() {
        assert_eq!(input_budget(120_000, 20_000), 60_000);
        assert_eq!(
            input_budget(0, 20_000),
            u64::MAX,
            "unknown window: no limit"
        );
        assert_eq!(input_budget(1_000, 5_000), 1, "never zero");
    }

    #[test]
    fn pieces_start_at_user_messages_and_respect_the_budget() {
        let (older, counts) = turns(10);
        let pieces = plan(&older, &counts, 250, MAX_PIECES);
        assert_eq!((pieces.head, pieces.left_out), (0, 0));
        // Two turns (200 tokens) a piece: three would be 300. Planned from the newest end.
        assert_eq!(
            pieces.ranges,
            vec![0..8, 8..16, 16..24, 24..32, 32..40],
            "adjacent, covering everything"
        );
        for range in &pieces.ranges {
            assert!(is_user(&older[range.start]), "{range:?}");
            assert!(sum(&counts, range) <= 250);
        }
        // Uneven: the odd turn is the oldest piece.
        let pieces = plan(&older[..36], &counts[..36], 250, MAX_PIECES);
        assert_eq!(pieces.ranges[0], 0..4);
        assert_eq!(pieces.ranges.last(), Some(&(28..36)));
    }

    #[test]
    fn a_history_that_fits_is_one_piece_as_before() {
        let (older, counts) = turns(3);
        let pieces = plan(&older, &counts, 1000, MAX_PIECES);
        assert_eq!(pieces.ranges, one(0..12));
        assert_eq!(pieces.left_out, 0);
        let messages = pieces.messages(&older, &counts, 0, None, 1000, TokenCounter::bytes());
        assert_eq!(messages, older, "the request carries the history unchanged");
        // No window, no limit.
        let pieces = plan(&older, &counts, input_budget(0, 0), MAX_PIECES);
        assert_eq!(pieces.ranges, one(0..12));
    }

    #[test]
    fn a_turn_over_the_budget_is_a_piece_of_its_own() {
        let (older, counts) = turns(4);
        let pieces = plan(&older, &counts, 150, MAX_PIECES);
        assert_eq!(pieces.ranges, vec![0..4, 4..8, 8..12, 12..16]);
        // Far too small a budget still makes progress: one turn a piece, never a cut
        // between a call and its result.
        let pieces = plan(&older, &counts, 1, MAX_PIECES);
        assert_eq!(pieces.ranges.len(), 4);
    }

    #[test]
    fn beyond_the_cap_the_oldest_messages_are_left_out_and_the_first_request_says_so() {
        let (older, counts) = turns(10);
        let pieces = plan(&older, &counts, 250, 3);
        assert_eq!(pieces.ranges, vec![16..24, 24..32, 32..40]);
        assert_eq!(pieces.left_out, 16);
        let first = pieces.messages(&older, &counts, 0, None, 250, TokenCounter::bytes());
        assert_eq!(first.len(), 8);
        let Message::User { text, .. } = &first[0] else {
            panic!("a piece starts at a user message")
        };
        assert!(
            text.starts_with("[Note: 16 earlier messages of this conversation")
                && text.ends_with("\n\nq4"),
            "{text}"
        );
        // Only the first request carries the note.
        let second = pieces.messages(&older, &counts, 1, Some("s1"), 250, TokenCounter::bytes());
        assert!(!format!("{second:?}").contains("[Note:"));
    }

    #[test]
    fn an_earlier_snapshot_heads_the_first_piece_and_is_never_left_out() {
        let (body, body_counts) = turns(10);
        let mut older = snapshot_messages("<state_snapshot>old</state_snapshot>").to_vec();
        older.extend(body);
        let mut counts = vec![30, 10];
        counts.extend(body_counts);

        let pieces = plan(&older, &counts, 250, MAX_PIECES);
        assert_eq!(pieces.head, 2);
        assert_eq!(pieces.ranges.first(), Some(&(2..10)), "after the head");
        let first = pieces.messages(&older, &counts, 0, None, 250, TokenCounter::bytes());
        assert_eq!(&first[..10], &older[..10], "snapshot, ack, the piece");

        let pieces = plan(&older, &counts, 250, 2);
        assert_eq!(pieces.ranges, vec![26..34, 34..42]);
        assert_eq!(
            pieces.left_out, 24,
            "the messages between the snapshot and the pieces"
        );
        let first = pieces.messages(&older, &counts, 0, None, 250, TokenCounter::bytes());
        assert_eq!(&first[..2], &older[..2]);
        assert!(matches!(&first[2], Message::User { text, .. } if text.starts_with("[Note: 24 ")));

        // Only the snapshot before the cut: it alone is the one piece.
        let pieces = plan(&older[..2], &counts[..2], 250, MAX_PIECES);
        assert_eq!((pieces.head, pieces.ranges.clone()), (2, one(2..2)));
        let only = pieces.messages(&older, &counts, 0, None, 250, TokenCounter::bytes());
        assert_eq!(only, older[..2].to_vec());
    }

    #[test]
    fn later_pieces_start_with_the_running_snapshot() {
        let (older, counts) = turns(4);
        let pieces = plan(&older, &counts, 250, MAX_PIECES);
        let second = pieces.messages(
            &older,
            &counts,
            1,
            Some("<state_snapshot>one</state_snapshot>"),
            250,
            TokenCounter::bytes(),
        );
        assert_eq!(
            &second[..2],
            &snapshot_messages("<state_snapshot>one</state_snapshot>")
        );
        assert_eq!(&second[2..], &older[8..16]);
    }

    #[test]
    fn an_oversized_piece_has_its_largest_tool_results_shortened() {
        let counter = TokenCounter::bytes();
        let big = format!("START{}END", "é".repeat(40_000)); // one token a character
        let small = "s".repeat(4_000);
        let mut older = vec![
            user("read them"),
            call("1"),
            result("1", &big),
            call("2"),
            result("2", &small),
            answer("done"),
        ];
        let counts: Vec<u64> = older.iter().map(|m| counter.message(m)).collect();
        let pieces = plan(&older, &counts, 5_000, MAX_PIECES);
        assert_eq!(pieces.ranges, one(0..6), "one turn: one piece, over budget");
        let sent = pieces.messages(&older, &counts, 0, None, 5_000, counter);
        assert!(
            counter.messages(&sent) <= 5_000,
            "{}",
            counter.messages(&sent)
        );
        let Message::ToolResult { content, .. } = &sent[2] else {
            panic!()
        };
        assert!(
            content.starts_with("START") && content.ends_with("END"),
            "head and tail"
        );
        assert!(content.contains(" characters left out of the summary input …]"));
        assert_eq!(content.matches("left out").count(), 1, "one marker");
        assert_eq!(sent[4], older[4], "the smaller result was not needed");
        // The history itself is untouched.
        assert!(matches!(&older[2], Message::ToolResult { content, .. } if *content == big));

        // When even the shortest excerpts do not fit, it stops and sends what it has.
        older[0] = user(&"u".repeat(40_000));
        let mut counts: Vec<u64> = older.iter().map(|m| counter.message(m)).collect();
        let mut messages = older.clone();
        assert_eq!(
            shorten_tool_results(&mut messages, &mut counts, 5_000, counter),
            2
        );
        for i in [2, 4] {
            let Message::ToolResult { content, .. } = &messages[i] else {
                panic!()
            };
            assert!(content.chars().count() < 1_100, "at the minimum: {content}");
        }
        assert_eq!(messages[0], older[0], "user text is never shortened");
    }

    #[test]
    fn a_piece_within_budget_is_left_alone() {
        let counter = TokenCounter::bytes();
        let mut messages = vec![user("q"), call("1"), result("1", &"x".repeat(8_000))];
        let mut counts: Vec<u64> = messages.iter().map(|m| counter.message(m)).collect();
        let before = messages.clone();
        assert_eq!(
            shorten_tool_results(&mut messages, &mut counts, 10_000, counter),
            0
        );
        assert_eq!(messages, before);
        // A result already shorter than an excerpt is not touched, whatever the budget.
        let mut short = vec![result("1", &"y".repeat(900))];
        let mut counts = vec![counter.message(&short[0])];
        assert_eq!(shorten_tool_results(&mut short, &mut counts, 1, counter), 0);
        assert!(matches!(&short[0], Message::ToolResult { content, .. } if content.len() == 900));
    }

    #[test]
    fn excerpts_cut_at_character_boundaries() {
        let text = "αβγδεζηθικ"; // two bytes a character
        assert_eq!(
            excerpt(text, 4),
            "αβ\n[… 6 characters left out of the summary input …]\nικ"
        );
        assert_eq!(excerpt(text, 10), text);
        assert_eq!(excerpt(text, 20), text);
        assert!(excerpt(text, 0).starts_with("\n[… 10 characters"));
    }
}
