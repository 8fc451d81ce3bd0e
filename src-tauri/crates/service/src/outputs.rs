//! Large tool outputs stay in the store until someone looks at them. A window is sent the
//! start of each long output (enough for a card's folded line: a command's exit code and
//! time come first) with the whole length, and reads the rest with `tool_output` when the
//! card is opened. A long session holds megabytes of build logs and file dumps that nobody
//! reads again; carrying them over IPC and keeping them in the window's memory is what
//! makes other agents slow down as sessions grow.

use memo_protocol::{AgentEvent, EventEnvelope, Phrase, SessionId};

use crate::error::{Result, ServiceError};
use crate::service::Service;

/// Outputs longer than this (in bytes) reach a window cut to their start.
pub const WINDOW_OUTPUT_LIMIT: usize = 4 * 1024;
/// How much of a cut output a window gets (at most; cut at a line end when there is one).
const PREVIEW_BYTES: usize = 1024;

/// The envelope as a window is sent it: a long tool output is cut to its start and marked
/// with its whole length. Everything else passes unchanged.
pub fn for_window(mut envelope: EventEnvelope) -> EventEnvelope {
    if let AgentEvent::ToolCallEnd {
        output,
        full_length,
        ..
    } = &mut envelope.event
    {
        if output.len() > WINDOW_OUTPUT_LIMIT && full_length.is_none() {
            *full_length = Some(output.len() as u64);
            let cut = preview_end(output);
            output.truncate(cut);
        }
    }
    envelope
}

/// Where the preview of `text` ends: within PREVIEW_BYTES, on a char boundary, after the
/// last full line when one fits.
fn preview_end(text: &str) -> usize {
    let mut end = PREVIEW_BYTES.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(line_end) if line_end > 0 => line_end + 1,
        _ => end,
    }
}

impl Service {
    /// The whole output of the tool call whose `tool_call_end` is event `seq` of session
    /// `id`, as the model saw it.
    pub fn tool_output(&self, id: &SessionId, seq: u64) -> Result<String> {
        let store = self.store()?;
        let events = store.events_range(id, seq, seq)?;
        match events.into_iter().next() {
            Some(EventEnvelope {
                event: AgentEvent::ToolCallEnd { output, .. },
                ..
            }) => Ok(output),
            Some(other) => Err(ServiceError::invalid(Phrase::EventNotToolEnd {
                id: id.to_string(),
                seq,
                kind: other.event.kind().to_string(),
            })),
            None => Err(ServiceError::not_found(Phrase::SessionNoEvent {
                id: id.to_string(),
                seq,
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::{ToolCallId, ToolStatus};

    fn end(output: String) -> EventEnvelope {
        EventEnvelope {
            session_id: SessionId::new("s"),
            turn_id: None,
            seq: 7,
            timestamp_ms: 1,
            event: AgentEvent::ToolCallEnd {
                view: None,
                call_id: ToolCallId::new("c"),
                name: "exec_command".into(),
                status: ToolStatus::Ok,
                error_kind: None,
                output,
                full_length: None,
            },
        }
    }

    fn cut(envelope: &EventEnvelope) -> (&str, Option<u64>) {
        match &envelope.event {
            AgentEvent::ToolCallEnd {
                output,
                full_length,
                ..
            } => (output, *full_length),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_short_output_passes_whole() {
        let text = "x".repeat(WINDOW_OUTPUT_LIMIT);
        let sent = for_window(end(text.clone()));
        assert_eq!(cut(&sent), (text.as_str(), None));
    }

    #[test]
    fn a_long_output_is_cut_after_a_line_with_its_length() {
        let text = "Wall time: 1.0 seconds\nProcess exited with code 0\nOutput:\n".to_owned()
            + &"line of build output\n".repeat(2000);
        let sent = for_window(end(text.clone()));
        let (preview, full) = cut(&sent);
        assert_eq!(full, Some(text.len() as u64));
        assert!(preview.len() <= PREVIEW_BYTES, "{}", preview.len());
        assert!(preview.starts_with("Wall time: 1.0 seconds\nProcess exited with code 0\n"));
        assert!(preview.ends_with("line of build output\n"));
        assert!(text.starts_with(preview));
    }

    #[test]
    fn a_long_line_of_wide_characters_is_cut_on_a_char_boundary() {
        let text = "é".repeat(WINDOW_OUTPUT_LIMIT);
        let sent = for_window(end(text.clone()));
        let (preview, full) = cut(&sent);
        assert_eq!(full, Some(text.len() as u64));
        assert!(!preview.is_empty() && preview.len() <= PREVIEW_BYTES);
        assert!(text.starts_with(preview));
    }

    #[test]
    fn other_events_pass_unchanged() {
        let envelope = EventEnvelope {
            event: AgentEvent::TextDelta {
                delta: "y".repeat(WINDOW_OUTPUT_LIMIT * 2),
            },
            ..end(String::new())
        };
        assert_eq!(for_window(envelope.clone()), envelope);
    }
}
