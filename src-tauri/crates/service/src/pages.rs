//! A long session shown a page at a time: pages of whole turns read from the store, from
//! its end backwards or from a search hit forwards, instead of the whole log replayed from
//! its first event. A page leaves out the
//! streamed deltas of every step that ended (its `assistant_message` repeats them whole),
//! which are most of a long log; the deltas of a step still streaming are kept. Long tool
//! outputs come cut to their start (see `outputs`).

use std::collections::HashSet;

use memo_protocol::{AgentEvent, EventEnvelope, HistoryPage, Phrase, SessionId};

use crate::error::{Result, ServiceError};
use crate::outputs::for_window;
use crate::service::Service;
use memo_store::Store;

/// Turns per page when the caller asks for none.
const DEFAULT_TURNS: usize = 30;
/// Turns per page at the most: a page is one IPC message.
const MAX_TURNS: usize = 500;

impl Service {
    /// A page of whole turns, deltas of finished steps left out. Without `from_seq`: the
    /// `turns` turns before `before_seq` (default: the session's end), for a window reading
    /// back. With it: `turns` turns from the one holding that event on, for a window that
    /// opened at a search hit and reads forward until it meets the live end (a page from
    /// before the first turn counts what precedes it as one of them). `has_more` and
    /// `has_after` say whether events exist before and after the page.
    pub fn history_page(
        &self,
        id: &SessionId,
        before_seq: Option<u64>,
        turns: Option<u32>,
        from_seq: Option<u64>,
    ) -> Result<HistoryPage> {
        let store = self.store()?;
        let session = self.session(id)?;
        let turns = match turns {
            None => DEFAULT_TURNS,
            Some(0) => return Err(ServiceError::invalid(Phrase::PageNeedsTurn)),
            Some(t) => (t as usize).min(MAX_TURNS),
        };
        let last = store.last_seq(id)?;
        let (from, to) = match (before_seq, from_seq) {
            (Some(_), Some(_)) => return Err(ServiceError::invalid(Phrase::PageBothWays)),
            (_, Some(seq)) => forward(&store, id, seq, turns, last)?,
            (before, None) => backward(&store, id, before, turns, last)?,
        };
        let mut events = if to < from {
            Vec::new()
        } else {
            store.events_range(id, from, to)?
        };
        // Whole turns: each call's arguments are on the page with its end.
        memo_engine::views::fill_missing(&mut events, std::path::Path::new(&session.cwd));
        Ok(HistoryPage {
            events: without_finished_deltas(events)
                .into_iter()
                .map(for_window)
                .collect(),
            from_seq: from,
            to_seq: to,
            has_more: from > 1,
            has_after: to < last,
        })
    }
}

/// Where a page of `turns` turns ending before `before_seq` lies.
fn backward(
    store: &Store,
    id: &SessionId,
    before_seq: Option<u64>,
    turns: usize,
    last: u64,
) -> Result<(u64, u64)> {
    let before = before_seq.unwrap_or(u64::MAX).min(last.saturating_add(1));
    if before == 0 {
        return Err(ServiceError::invalid(Phrase::PageBeforeZero));
    }
    let starts = store.turn_starts_before(id, before, turns)?;
    // Fewer turns than asked for: the page reaches the session's first event.
    let from = match starts.last() {
        Some(&seq) if starts.len() == turns => seq,
        _ => 1,
    };
    Ok((from, before - 1))
}

/// Where a page of `turns` turns from the one holding event `seq` lies.
fn forward(store: &Store, id: &SessionId, seq: u64, turns: usize, last: u64) -> Result<(u64, u64)> {
    if seq == 0 {
        return Err(ServiceError::invalid(Phrase::PageStartsAtZero));
    }
    if seq > last {
        // Also what a seq of another, longer session gives: there is no such event here.
        return Err(ServiceError::not_found(Phrase::SessionNoEventPastLast {
            id: id.as_str().to_owned(),
            seq,
            last,
        }));
    }
    let from = store
        .turn_starts_before(id, seq.saturating_add(1), 1)?
        .first()
        .copied()
        .unwrap_or(1);
    // The page ends just before the turn after its last one, else at the session's end.
    let next = store.turn_starts_after(id, from, turns)?;
    let to = match next.get(turns - 1) {
        Some(&start) => start - 1,
        None => last,
    };
    Ok((from, to))
}

fn is_delta(event: &AgentEvent) -> bool {
    matches!(
        event,
        AgentEvent::TextDelta { .. }
            | AgentEvent::ReasoningDelta { .. }
            | AgentEvent::ToolCallBegin { .. }
            | AgentEvent::ToolCallArgsDelta { .. }
    )
}

/// Drops each run of deltas that an `assistant_message` confirms later in the same turn,
/// and what a command printed while it ran once its `tool_call_end` holds the result.
/// Deltas voided by a retry, or of a step that never ended (interrupted, or streaming now),
/// stay: they are what the window shows for it.
fn without_finished_deltas(events: Vec<EventEnvelope>) -> Vec<EventEnvelope> {
    // Walking backwards, a delta is dropped while a confirming message lies ahead of it.
    let mut confirmed = false;
    let mut ended = HashSet::new();
    let mut keep = vec![true; events.len()];
    for (index, envelope) in events.iter().enumerate().rev() {
        match &envelope.event {
            AgentEvent::AssistantMessage { .. } => confirmed = true,
            AgentEvent::ToolCallEnd { call_id, .. } => {
                ended.insert(call_id);
            }
            AgentEvent::ToolOutput { call_id, .. } => keep[index] = !ended.contains(call_id),
            event if is_delta(event) => keep[index] = !confirmed,
            // A new turn or a retry ends what the message ahead could confirm.
            AgentEvent::TurnStarted { .. }
            | AgentEvent::TurnResumed { .. }
            | AgentEvent::TurnEnded { .. }
            | AgentEvent::Retrying { .. } => confirmed = false,
            _ => {}
        }
    }
    events
        .into_iter()
        .zip(keep)
        .filter_map(|(envelope, keep)| keep.then_some(envelope))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::{TokenUsage, ToolCallId, ToolStatus, TurnEndReason, UserInput};

    fn env(seq: u64, event: AgentEvent) -> EventEnvelope {
        EventEnvelope {
            session_id: SessionId::new("s"),
            turn_id: None,
            seq,
            timestamp_ms: seq,
            event,
        }
    }

    fn delta(text: &str) -> AgentEvent {
        AgentEvent::TextDelta { delta: text.into() }
    }

    fn message(text: &str) -> AgentEvent {
        AgentEvent::AssistantMessage {
            text: text.into(),
            reasoning: None,
            tool_calls: Vec::new(),
            provider_data: None,
        }
    }

    fn kept(events: Vec<EventEnvelope>) -> Vec<u64> {
        without_finished_deltas(events)
            .into_iter()
            .map(|e| e.seq)
            .collect()
    }

    #[test]
    fn confirmed_deltas_go_and_unconfirmed_ones_stay() {
        let started = || AgentEvent::TurnStarted {
            input: UserInput::text("hi"),
        };
        let ended = |reason| AgentEvent::TurnEnded {
            reason,
            usage: TokenUsage::default(),
        };
        let events = vec![
            env(1, started()),
            env(2, delta("a")),
            env(3, delta("b")),
            env(4, message("ab")),
            env(5, ended(TurnEndReason::Completed)),
            // Interrupted: nothing confirms these.
            env(6, started()),
            env(7, delta("half")),
            env(8, ended(TurnEndReason::Interrupted)),
            // Streaming now.
            env(9, started()),
            env(10, delta("so far")),
        ];
        assert_eq!(kept(events), vec![1, 4, 5, 6, 7, 8, 9, 10]);
    }

    #[test]
    fn deltas_a_retry_voided_stay_for_the_retry_to_discard() {
        let events = vec![
            env(1, delta("lost")),
            env(
                2,
                AgentEvent::Retrying {
                    attempt: 1,
                    max_attempts: 3,
                    delay_ms: 10,
                    reason: "overloaded".into(),
                    discarded_partial: true,
                },
            ),
            env(3, delta("kept")),
            env(4, message("kept")),
        ];
        assert_eq!(kept(events), vec![1, 2, 4]);
    }

    #[test]
    fn what_a_command_printed_goes_once_its_result_is_in_the_page() {
        let chunk = |call: &str| AgentEvent::ToolOutput {
            call_id: ToolCallId::new(call),
            chunk: "compiling\n".into(),
        };
        let events = vec![
            env(1, chunk("done")),
            env(2, chunk("running")),
            env(
                3,
                AgentEvent::ToolCallEnd {
                    view: None,
                    call_id: ToolCallId::new("done"),
                    name: "exec_command".into(),
                    status: ToolStatus::Ok,
                    error_kind: None,
                    output: "compiling\n".into(),
                    full_length: None,
                },
            ),
            env(4, chunk("running")),
        ];
        assert_eq!(kept(events), vec![2, 3, 4]);
    }
}
