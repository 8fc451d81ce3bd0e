//! Rebuilds the model conversation from the event log. The turn loop appends to its live
//! history in exactly the same way, so a reopened session sends what it would have sent.
//!
//! A log can end in the middle of a turn: the app was killed, the machine lost power, or
//! a fork was cut there. Every provider rejects a history where an assistant's tool call
//! has no result, so such calls get a synthetic "interrupted" result: in the history the
//! moment the conversation moves on (and at the end of a rebuild), and, when a session
//! is resumed, as real events that close the turn in the log for every client.

use std::collections::HashSet;

use memo_model::{ImagePart, Message, ToolCall};
use memo_protocol::{
    AgentEvent, ApprovalId, CompactionStatus, EventEnvelope, Phrase, ReviewDecision, SessionId,
    TokenUsage, ToolCallId, ToolErrorKind, ToolStatus, TurnEndReason, TurnId,
};
use memo_store::Store;

use crate::EngineError;

/// The result a tool call gets when its session stopped before the call finished.
pub const INTERRUPTED_RESULT: &str =
    "Error (interrupted): the session stopped before this tool call finished";

/// Applies one event to a conversation. Events that carry no conversation content
/// (deltas, usage, approvals...) are ignored.
pub fn apply_event(history: &mut Vec<Message>, event: &AgentEvent) {
    match event {
        AgentEvent::TurnStarted { input } => {
            close_dangling_calls(history);
            // What the model received: a command's prompt and attachments, not the
            // typed text, and the images (stored in the event, so a resume has them).
            let text = match &input.session_context {
                // A session's first message: the date and the repository's state first.
                Some(context) => format!("{context}\n\n{}", input.model_text()),
                None => input.model_text().to_owned(),
            };
            history.push(Message::User {
                text,
                images: input
                    .images
                    .iter()
                    .map(|image| ImagePart {
                        media_type: image.media_type.clone(),
                        data: image.data.as_str().into(),
                    })
                    .collect(),
            })
        }
        // A retried turn's calls that never got a result are closed before it goes on.
        AgentEvent::TurnResumed { .. } => close_dangling_calls(history),
        AgentEvent::AssistantMessage {
            text,
            reasoning,
            tool_calls,
            provider_data,
        } => {
            close_dangling_calls(history);
            history.push(Message::Assistant {
                text: text.clone(),
                reasoning: reasoning.clone(),
                tool_calls: tool_calls
                    .iter()
                    .map(|c| ToolCall {
                        id: c.call_id.0.clone(),
                        name: c.name.clone(),
                        arguments: c.arguments.clone(),
                    })
                    .collect(),
                provider_data: provider_data.clone(),
            })
        }
        AgentEvent::ToolCallEnd {
            call_id,
            name,
            status,
            output,
            ..
        } => history.push(Message::ToolResult {
            call_id: call_id.0.clone(),
            name: name.clone(),
            content: output.clone(),
            is_error: *status == ToolStatus::Error,
        }),
        // Hooks' words for the model outside any tool call (context from a prompt or a
        // session start, a Stop hook's reason to go on) are a user-side message.
        AgentEvent::HookRan {
            for_model: Some(text),
            ..
        } => {
            close_dangling_calls(history);
            history.push(Message::user(text.clone()));
        }
        AgentEvent::ContextCompacted {
            status: CompactionStatus::Compacted | CompactionStatus::Cleared,
            summary,
            kept_messages,
            ..
        } => memo_context::compaction::apply(
            history,
            summary.as_deref(),
            usize::try_from(*kept_messages).unwrap_or(usize::MAX),
        ),
        _ => {}
    }
}

/// The conversation a log describes, always valid to send: calls left without a result
/// at the end get an interrupted one.
pub fn rebuild_history<'a>(events: impl IntoIterator<Item = &'a EventEnvelope>) -> Vec<Message> {
    let mut history = Vec::new();
    for env in events {
        apply_event(&mut history, &env.event);
    }
    close_dangling_calls(&mut history);
    history
}

/// Gives every tool call of the last assistant message that has no result yet an
/// interrupted one, right after the results it has (where providers expect them).
pub fn close_dangling_calls(history: &mut Vec<Message>) {
    let Some(at) = history
        .iter()
        .rposition(|m| matches!(m, Message::Assistant { .. }))
    else {
        return;
    };
    let Message::Assistant { tool_calls, .. } = &history[at] else {
        return;
    };
    let answered: HashSet<&str> = history[at + 1..]
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    let missing: Vec<Message> = tool_calls
        .iter()
        .filter(|c| !answered.contains(c.id.as_str()))
        .map(|c| Message::ToolResult {
            call_id: c.id.clone(),
            name: c.name.clone(),
            content: INTERRUPTED_RESULT.to_owned(),
            is_error: true,
        })
        .collect();
    if missing.is_empty() {
        return;
    }
    // After the last result of this step, before anything else (a user message).
    let insert_at = history[at + 1..]
        .iter()
        .position(|m| !matches!(m, Message::ToolResult { .. }))
        .map_or(history.len(), |p| at + 1 + p);
    history.splice(insert_at..insert_at, missing);
}

/// The events that close a turn the log left open: a denial for each approval still
/// pending, an interrupted result for each call without one, and `turn_ended`.
/// `None` when the last turn ended normally.
pub fn closing_events(events: &[EventEnvelope]) -> Option<(TurnId, Vec<AgentEvent>)> {
    let mut open: Option<TurnId> = None;
    let mut calls: Vec<(ToolCallId, String)> = Vec::new();
    let mut approvals: Vec<ApprovalId> = Vec::new();
    let mut usage = TokenUsage::default();
    // What each open call had printed when the process stopped: kept in its result.
    let mut printed: std::collections::HashMap<ToolCallId, String> = Default::default();
    for env in events {
        match &env.event {
            AgentEvent::TurnStarted { .. } | AgentEvent::TurnResumed { .. } => {
                open = env.turn_id.clone();
                calls.clear();
                approvals.clear();
                printed.clear();
                usage = TokenUsage::default();
            }
            AgentEvent::TurnEnded { .. } => open = None,
            AgentEvent::AssistantMessage { tool_calls, .. } => calls.extend(
                tool_calls
                    .iter()
                    .map(|c| (c.call_id.clone(), c.name.clone())),
            ),
            AgentEvent::ToolCallEnd { call_id, .. } => {
                calls.retain(|(id, _)| id != call_id);
                printed.remove(call_id);
            }
            AgentEvent::ToolOutput { call_id, chunk } => {
                let text = printed.entry(call_id.clone()).or_default();
                text.push_str(chunk);
                keep_tail(text, PRINTED_KEPT_CHARS);
            }
            AgentEvent::ApprovalRequested { request } => approvals.push(request.request_id.clone()),
            AgentEvent::ApprovalResolved { request_id, .. } => {
                approvals.retain(|id| id != request_id)
            }
            AgentEvent::Usage { turn_total, .. } => usage = *turn_total,
            _ => {}
        }
    }
    let turn = open?;
    let mut closing: Vec<AgentEvent> = approvals
        .into_iter()
        .map(|request_id| AgentEvent::ApprovalResolved {
            request_id,
            decision: ReviewDecision::Unanswered {
                because: Phrase::SessionStoppedBeforeAnswer,
            },
        })
        .collect();
    closing.extend(calls.into_iter().map(|(call_id, name)| {
        let output = match printed.remove(&call_id) {
            Some(text) if !text.trim().is_empty() => format!(
                "{}\n\n{INTERRUPTED_RESULT}; above is what it had printed by then",
                text.trim_end()
            ),
            _ => INTERRUPTED_RESULT.to_owned(),
        };
        AgentEvent::ToolCallEnd {
            call_id,
            name,
            status: ToolStatus::Error,
            error_kind: Some(ToolErrorKind::Interrupted),
            // The call's last `tool_call_view` stands; it is found when read.
            view: None,
            output,
            full_length: None,
        }
    }));
    closing.push(AgentEvent::TurnEnded {
        reason: TurnEndReason::Interrupted,
        usage,
    });
    Some((turn, closing))
}

/// How much of what an open call printed is kept in its closing result (its end: where
/// the command was when it stopped).
const PRINTED_KEPT_CHARS: usize = 20_000;

/// Keeps the last `max` characters of `text` (on a character boundary), marking the cut.
fn keep_tail(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut cut = text.len() - max;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    *text = format!("[… earlier output cut]\n{}", &text[cut..]);
}

/// What a reopened session needs at once: where its log ends, once what its last run
/// left open is closed, and whether automatic compaction was off. Its conversation is read
/// from the log only when first needed ([`super::conversation::Conversation`]): opening a
/// long session to read it must not load every tool output it ever produced.
pub(crate) struct Reopened {
    pub last_seq: u64,
    pub auto_blocked: bool,
}

/// Closes, in the log, a turn the last run left open (the process died mid-turn), so
/// every client sees it end and the history stays valid; then what its subagents left
/// open. Reads only the open turn's events and a few kinds of marks, not the whole log.
pub(crate) fn reopen(store: &Store, session: &SessionId) -> Result<Reopened, EngineError> {
    let last_seq = close_open_turn(store, session)?;
    let marks = store.events_of_kinds(
        session,
        &[
            "subagent_started",
            "subagent_updated",
            "approval_requested",
            "approval_resolved",
        ],
    )?;
    let last_seq = close_subagents(store, session, &marks, last_seq)?;
    let compactions = store.events_of_kinds(session, &["context_compacted"])?;
    Ok(Reopened {
        last_seq,
        auto_blocked: super::context::auto_blocked_by_log(&compactions),
    })
}

/// Closes the log's open turn, if it has one; returns the log's last seq.
fn close_open_turn(store: &Store, session: &SessionId) -> Result<u64, EngineError> {
    let last = store.last_seq(session)?;
    let Some(start) = store.open_turn_start(session)? else {
        return Ok(last);
    };
    let turn = store.events(session, start.saturating_sub(1), usize::MAX)?;
    let Some((turn_id, closing)) = closing_events(&turn) else {
        return Ok(last);
    };
    append_closing(store, session, Some(turn_id), closing, last)
}

/// What a resumed session's log must say about the subagents of its last run, which
/// stopped with it: each one not closed yet is closed, and each question one of them asked
/// that was never answered is denied (else the parent would show it waiting for good).
pub fn subagents_closing_events(events: &[EventEnvelope]) -> Vec<AgentEvent> {
    let mut open: Vec<String> = Vec::new();
    let mut questions: Vec<ApprovalId> = Vec::new();
    for env in events {
        match &env.event {
            AgentEvent::SubagentStarted { agent, .. } => open.push(agent.agent_id.clone()),
            AgentEvent::SubagentUpdated {
                agent_id,
                state: memo_protocol::SubagentState::Closed,
                ..
            } => open.retain(|id| id != agent_id),
            AgentEvent::ApprovalRequested { request } if request.agent.is_some() => {
                questions.push(request.request_id.clone())
            }
            AgentEvent::ApprovalResolved { request_id, .. } => {
                questions.retain(|id| id != request_id)
            }
            _ => {}
        }
    }
    let denied = questions
        .into_iter()
        .map(|request_id| AgentEvent::ApprovalResolved {
            request_id,
            decision: ReviewDecision::Unanswered {
                because: Phrase::SessionStoppedBeforeAnswer,
            },
        });
    let closed = open
        .into_iter()
        .map(|agent_id| AgentEvent::SubagentUpdated {
            agent_id,
            state: memo_protocol::SubagentState::Closed,
            answer: None,
            message: Some("stopped with its session".into()),
        });
    denied.chain(closed).collect()
}

/// Closes, in the log, what the last run of a session left open among its subagents:
/// their own open turns (in their sessions) and, in its log, their states and questions.
fn close_subagents(
    store: &Store,
    session: &SessionId,
    events: &[EventEnvelope],
    last_seq: u64,
) -> Result<u64, EngineError> {
    for child in store.subagents_of(session)? {
        close_open_turn(store, &child.id)?;
    }
    let closing = subagents_closing_events(events);
    if closing.is_empty() {
        return Ok(last_seq);
    }
    append_closing(store, session, None, closing, last_seq)
}

/// Appends events that close what a stopped run left open, after `last`; returns the
/// log's new last seq.
fn append_closing(
    store: &Store,
    session: &SessionId,
    turn_id: Option<TurnId>,
    closing: Vec<AgentEvent>,
    last: u64,
) -> Result<u64, EngineError> {
    let now = super::emitter::now_ms();
    let envs: Vec<EventEnvelope> = closing
        .into_iter()
        .enumerate()
        .map(|(i, event)| EventEnvelope {
            session_id: session.clone(),
            turn_id: turn_id.clone(),
            seq: last + 1 + i as u64,
            timestamp_ms: now,
            event,
        })
        .collect();
    store.append_batch(&envs)?;
    Ok(last + envs.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::{ToolCallSummary, UserInput};

    #[test]
    fn a_resume_closes_the_last_runs_subagents_and_their_questions() {
        let agent = |id: &str| memo_protocol::SubagentRef {
            agent_id: id.into(),
            agent_type: "general".into(),
            session_id: SessionId::new(format!("s-{id}")),
        };
        let started = |id: &str| AgentEvent::SubagentStarted {
            call_id: ToolCallId::new(format!("c-{id}")),
            agent: agent(id),
            task: "t".into(),
        };
        let asked = |request: &str, by: Option<&str>| AgentEvent::ApprovalRequested {
            request: memo_protocol::ApprovalRequest {
                request_id: ApprovalId::new(request),
                call_id: ToolCallId::new("x"),
                tool_name: "write_file".into(),
                risk: memo_protocol::RiskLevel::Write,
                reason: String::new(),
                why: Vec::new(),
                fingerprint: String::new(),
                command: None,
                cwd: None,
                diff: None,
                arguments: serde_json::json!({}),
                rule_patterns: Vec::new(),
                rule_summary: None,
                rule_words: None,
                agent: by.map(|b| Box::new(agent(b))),
            },
        };
        let events: Vec<EventEnvelope> = [
            started("a"),
            started("b"),
            asked("q1", Some("a")),
            asked("q2", Some("b")),
            asked("q3", None),
            AgentEvent::ApprovalResolved {
                request_id: ApprovalId::new("q2"),
                decision: ReviewDecision::Deny { reason: None },
            },
            AgentEvent::SubagentUpdated {
                agent_id: "b".into(),
                state: memo_protocol::SubagentState::Closed,
                answer: None,
                message: None,
            },
        ]
        .into_iter()
        .enumerate()
        .map(|(i, e)| env(i as u64 + 1, e))
        .collect();
        let closing = subagents_closing_events(&events);
        assert_eq!(closing.len(), 2, "{closing:?}");
        assert!(matches!(&closing[0],
            AgentEvent::ApprovalResolved { request_id, .. } if request_id.as_str() == "q1"));
        assert!(matches!(&closing[1],
            AgentEvent::SubagentUpdated { agent_id, state: memo_protocol::SubagentState::Closed, .. } if agent_id == "a"));
        assert!(subagents_closing_events(&events[..0]).is_empty());
    }

    #[test]
    fn a_turn_left_open_keeps_what_its_command_had_printed() {
        let events = vec![
            env(1, user("build it")),
            env(2, step(&["c1", "c2"])),
            env(
                3,
                AgentEvent::ToolOutput {
                    call_id: ToolCallId::new("c1"),
                    chunk: "Compiling memo v0.1\n".into(),
                },
            ),
            env(
                4,
                AgentEvent::ToolOutput {
                    call_id: ToolCallId::new("c1"),
                    chunk: "error[E0308]: mismatched types\n".into(),
                },
            ),
        ];
        let (_, closing) = closing_events(&events).unwrap();
        let outputs: Vec<&str> = closing
            .iter()
            .filter_map(|e| match e {
                AgentEvent::ToolCallEnd { output, .. } => Some(output.as_str()),
                _ => None,
            })
            .collect();
        assert!(
            outputs[0].starts_with("Compiling memo v0.1\nerror[E0308]: mismatched types\n\n"),
            "{}",
            outputs[0]
        );
        assert!(outputs[0].ends_with("above is what it had printed by then"));
        assert_eq!(
            outputs[1], INTERRUPTED_RESULT,
            "a call that printed nothing"
        );

        let mut long = "x".repeat(PRINTED_KEPT_CHARS + 10);
        keep_tail(&mut long, PRINTED_KEPT_CHARS);
        assert!(long.starts_with("[… earlier output cut]\n"));
    }

    fn env(seq: u64, event: AgentEvent) -> EventEnvelope {
        EventEnvelope {
            session_id: SessionId::new("s"),
            turn_id: Some(TurnId::new("t")),
            seq,
            timestamp_ms: 0,
            event,
        }
    }

    fn step(ids: &[&str]) -> AgentEvent {
        AgentEvent::AssistantMessage {
            text: String::new(),
            reasoning: None,
            tool_calls: ids
                .iter()
                .map(|id| ToolCallSummary {
                    call_id: ToolCallId::new(*id),
                    name: "read_file".into(),
                    arguments: "{}".into(),
                })
                .collect(),
            provider_data: None,
        }
    }

    fn result(id: &str) -> AgentEvent {
        AgentEvent::ToolCallEnd {
            view: None,
            call_id: ToolCallId::new(id),
            name: "read_file".into(),
            status: ToolStatus::Ok,
            error_kind: None,
            output: "ok".into(),
            full_length: None,
        }
    }

    fn user(text: &str) -> AgentEvent {
        AgentEvent::TurnStarted {
            input: UserInput::text(text),
        }
    }

    fn shape(history: &[Message]) -> Vec<String> {
        history
            .iter()
            .map(|m| match m {
                Message::User { text, images } if images.is_empty() => format!("user:{text}"),
                Message::User { text, images } => format!("user:{text}+{}img", images.len()),
                Message::Assistant { tool_calls, .. } => format!(
                    "assistant:{}",
                    tool_calls
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                Message::ToolResult {
                    call_id, content, ..
                } => {
                    let mark = if content == INTERRUPTED_RESULT {
                        "!"
                    } else {
                        ""
                    };
                    format!("result:{call_id}{mark}")
                }
            })
            .collect()
    }

    #[test]
    fn dangling_calls_get_interrupted_results_in_place() {
        let events = [
            env(1, user("a")),
            env(2, step(&["c1", "c2", "c3"])),
            env(3, result("c2")),
            // The process died here; the next turn starts after a resume.
            env(4, user("b")),
            env(5, step(&["c4"])),
        ];
        assert_eq!(
            shape(&rebuild_history(&events)),
            [
                "user:a",
                "assistant:c1,c2,c3",
                "result:c2",
                "result:c1!",
                "result:c3!",
                "user:b",
                "assistant:c4",
                "result:c4!"
            ]
        );
    }

    #[test]
    fn complete_histories_are_untouched() {
        let events = [
            env(1, user("a")),
            env(2, step(&["c1"])),
            env(3, result("c1")),
            env(4, step(&[])),
        ];
        assert_eq!(
            shape(&rebuild_history(&events)),
            ["user:a", "assistant:c1", "result:c1", "assistant:"]
        );
    }

    #[test]
    fn an_open_turn_is_closed_with_events() {
        let events = [
            env(1, user("a")),
            env(
                2,
                AgentEvent::Usage {
                    step: TokenUsage::default(),
                    turn_total: TokenUsage {
                        input_tokens: 7,
                        ..TokenUsage::default()
                    },
                },
            ),
            env(3, step(&["c1", "c2"])),
            env(4, result("c1")),
        ];
        let (turn, closing) = closing_events(&events).unwrap();
        assert_eq!(turn, TurnId::new("t"));
        assert!(matches!(
            &closing[0],
            AgentEvent::ToolCallEnd { call_id, error_kind: Some(ToolErrorKind::Interrupted), .. }
                if call_id.as_str() == "c2"
        ));
        assert!(matches!(
            closing[1],
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Interrupted,
                usage: TokenUsage {
                    input_tokens: 7,
                    ..
                }
            }
        ));
        let mut ended = events.to_vec();
        ended.push(env(
            5,
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Completed,
                usage: TokenUsage::default(),
            },
        ));
        assert!(closing_events(&ended).is_none());
    }
}
