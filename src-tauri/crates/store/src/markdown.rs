//! A stored session as Markdown, for reading (a bug report, a note, a pull request): the
//! messages as they were written, each tool call with its arguments and what it returned.
//! Not for moving a session elsewhere; Memo Code JSONL is (`memo_code`).

use std::collections::HashMap;
use std::io::Write;

use memo_protocol::{
    AgentEvent, CompactionStatus, EventEnvelope, SessionId, ToolStatus, TurnEndReason,
};

use crate::memo_code::time::format_ms;
use crate::{Result, SessionRecord, Store, StoreError};

/// Events are read in pages of this size, so exporting a huge session needs little memory.
const PAGE: usize = 2000;

/// Characters of a tool's output kept in the document: enough to read what happened,
/// short of pasting a whole build log.
const OUTPUT_CHARS: usize = 4000;

impl Store {
    /// Writes the session as Markdown; returns the bytes written.
    pub fn export_markdown(&self, session: &SessionId, out: &mut dyn Write) -> Result<u64> {
        let record = self
            .session(session)?
            .ok_or_else(|| StoreError::UnknownSession(session.clone()))?;
        let mut writer = Counting { out, bytes: 0 };
        writer.put(&header(&record))?;
        let mut doc = Document::default();
        let mut after = 0;
        loop {
            let page = self.events(session, after, PAGE)?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            for env in &page {
                if let Some(text) = doc.render(env) {
                    writer.put(&text)?;
                }
            }
        }
        writer.out.flush().map_err(StoreError::Export)?;
        Ok(writer.bytes)
    }
}

struct Counting<'a> {
    out: &'a mut dyn Write,
    bytes: u64,
}

impl Counting<'_> {
    fn put(&mut self, text: &str) -> Result<()> {
        self.out
            .write_all(text.as_bytes())
            .map_err(StoreError::Export)?;
        self.bytes += text.len() as u64;
        Ok(())
    }
}

fn header(record: &SessionRecord) -> String {
    let title = record.title.as_deref().unwrap_or("Memo session");
    format!(
        "# {}\n\n- Folder: `{}`\n- Model: {} · {}\n- Started: {}\n- Session: `{}`\n",
        one_line(title),
        record.cwd,
        record.provider,
        record.model,
        format_ms(record.created_ms),
        record.id.0
    )
}

/// What the rendering remembers between events: each call's name and arguments, sent
/// with the assistant's message and shown with the result.
#[derive(Default)]
struct Document {
    calls: HashMap<String, (String, String)>,
}

impl Document {
    fn render(&mut self, env: &EventEnvelope) -> Option<String> {
        Some(match &env.event {
            AgentEvent::TurnStarted { input } => {
                let mut text = format!(
                    "\n---\n\n## You · {}\n\n{}\n",
                    format_ms(env.timestamp_ms),
                    input.text.trim_end()
                );
                if !input.images.is_empty() {
                    text.push_str(&format!(
                        "\n*({} image(s) sent with this message, not included here.)*\n",
                        input.images.len()
                    ));
                }
                text
            }
            AgentEvent::TurnResumed { .. } => "\n*The turn was run again.*\n".to_owned(),
            AgentEvent::AssistantMessage {
                text, tool_calls, ..
            } => {
                for call in tool_calls {
                    self.calls.insert(
                        call.call_id.0.clone(),
                        (call.name.clone(), call.arguments.clone()),
                    );
                }
                if text.trim().is_empty() {
                    return None;
                }
                format!("\n## Memo\n\n{}\n", text.trim_end())
            }
            AgentEvent::ToolCallEnd {
                call_id,
                name,
                status,
                output,
                ..
            } => {
                let arguments = self
                    .calls
                    .remove(&call_id.0)
                    .map(|(_, args)| args)
                    .unwrap_or_default();
                let how = match status {
                    ToolStatus::Ok => "done",
                    _ => "failed",
                };
                let mut text = format!(
                    "\n<details><summary>{} · {how}</summary>\n\n",
                    escape_html(name)
                );
                if !arguments.trim().is_empty() {
                    text.push_str(&fenced(&pretty_json(&arguments), "json"));
                }
                text.push_str(&fenced(&cut(output), ""));
                text.push_str("</details>\n");
                text
            }
            AgentEvent::Error { message, .. } => format!("\n> **Error:** {}\n", one_line(message)),
            AgentEvent::ContextCompacted { status, .. } => match status {
                CompactionStatus::Compacted => {
                    "\n*The conversation was compacted here: the model went on from a summary.*\n"
                        .to_owned()
                }
                CompactionStatus::Cleared => "\n*The conversation was cleared here.*\n".to_owned(),
                _ => return None,
            },
            AgentEvent::TurnEnded { reason, .. } => match reason {
                TurnEndReason::Completed => return None,
                TurnEndReason::Interrupted => "\n*Interrupted.*\n".to_owned(),
                TurnEndReason::StepLimit => "\n*Stopped at the step limit.*\n".to_owned(),
                TurnEndReason::Failed => "\n*The turn failed.*\n".to_owned(),
            },
            _ => return None,
        })
    }
}

/// `text` in a code fence longer than any run of backticks inside it, so no output can
/// close the fence early and turn the rest of the document into something else.
fn fenced(text: &str, lang: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat((longest + 1).max(3));
    let body = text.trim_end_matches('\n');
    format!("{fence}{lang}\n{body}\n{fence}\n\n")
}

fn cut(output: &str) -> String {
    match output.char_indices().nth(OUTPUT_CHARS) {
        Some((at, _)) => format!(
            "{}\n… ({} more characters)",
            &output[..at],
            output[at..].chars().count()
        ),
        None => output.to_owned(),
    }
}

fn pretty_json(arguments: &str) -> String {
    serde_json::from_str::<serde_json::Value>(arguments)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| arguments.to_owned())
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_the_backticks_inside_it() {
        assert_eq!(fenced("plain", ""), "```\nplain\n```\n\n");
        assert_eq!(fenced("a ```` b", "json"), "`````json\na ```` b\n`````\n\n");
    }

    #[test]
    fn long_output_is_cut_with_what_was_left_out() {
        let long = "x".repeat(OUTPUT_CHARS + 10);
        assert!(cut(&long).ends_with("… (10 more characters)"));
        assert_eq!(cut("short"), "short");
    }
}
