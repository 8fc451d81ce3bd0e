use std::collections::HashSet;
use std::io::Write;

use memo_engine::context::text::one_line;
use memo_protocol::{AgentEvent, EventEnvelope};

use crate::sessions_text::{allowed_line, tool_end_line, tool_start_line};

pub trait Renderer {
    fn render(&mut self, envelope: &EventEnvelope);
    fn finish(&mut self) {}
}

/// One JSON object per line: exactly the envelopes the engine emitted.
pub struct JsonRenderer {
    out: std::io::Stdout,
}

impl JsonRenderer {
    pub fn new() -> Self {
        Self {
            out: std::io::stdout(),
        }
    }
}

impl Renderer for JsonRenderer {
    fn render(&mut self, envelope: &EventEnvelope) {
        if let Ok(line) = serde_json::to_string(envelope) {
            let mut out = self.out.lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }
}

/// Answer text on stdout; reasoning, tool activity and errors on stderr, so
/// `memo-cli exec "…" > answer.md` captures just the answer.
pub struct TextRenderer {
    /// Whether stdout's last byte was a newline, to keep stderr notes on their own line.
    at_line_start: bool,
    in_reasoning: bool,
    /// When the last request went out (event time), until the model's first byte.
    reading_since: Option<u64>,
    /// Calls already announced (a view is sent again when a hook or the preview adds to it).
    announced: HashSet<String>,
}

impl TextRenderer {
    pub fn new() -> Self {
        Self {
            at_line_start: true,
            in_reasoning: false,
            reading_since: None,
            announced: HashSet::new(),
        }
    }

    /// The model answered: how long it read the prompt, when that was long enough to
    /// have looked like a hang.
    fn answered(&mut self, at_ms: u64) {
        if let Some(since) = self.reading_since.take() {
            let seconds = at_ms.saturating_sub(since) / 1000;
            if seconds >= 5 {
                self.note(&format!("  (read the prompt in {seconds} s)"));
            }
        }
    }

    fn note(&mut self, text: &str) {
        if !self.at_line_start {
            println!();
            self.at_line_start = true;
        }
        eprintln!("{text}");
    }
}

impl Renderer for TextRenderer {
    fn render(&mut self, envelope: &EventEnvelope) {
        if matches!(
            envelope.event,
            AgentEvent::TextDelta { .. }
                | AgentEvent::ReasoningDelta { .. }
                | AgentEvent::ToolCallBegin { .. }
                | AgentEvent::Error { .. }
        ) {
            self.answered(envelope.timestamp_ms);
        }
        match &envelope.event {
            AgentEvent::ModelRequestSent {
                input_tokens,
                local,
                ..
            } => {
                self.reading_since = Some(envelope.timestamp_ms);
                // A local model on a CPU reads a long prompt for a minute or more: say so
                // rather than sit silent.
                if *local {
                    self.note(&format!(
                        "… the local model is reading the prompt (~{input_tokens} tokens)"
                    ));
                }
            }
            AgentEvent::TextDelta { delta } => {
                if self.in_reasoning {
                    eprintln!();
                    self.in_reasoning = false;
                }
                print!("{delta}");
                let _ = std::io::stdout().flush();
                self.at_line_start = delta.ends_with('\n');
            }
            AgentEvent::ReasoningDelta { delta } => {
                if !self.in_reasoning {
                    eprint!("[thinking] ");
                    self.in_reasoning = true;
                }
                eprint!("{delta}");
            }
            AgentEvent::AssistantMessage { .. } if self.in_reasoning => {
                eprintln!();
                self.in_reasoning = false;
            }
            AgentEvent::ToolCallView { call_id, view }
                if self.announced.insert(call_id.to_string()) =>
            {
                self.note(&tool_start_line(view));
            }
            AgentEvent::ToolCallAllowed { rules, .. } => self.note(&allowed_line(rules)),
            AgentEvent::ToolCallEnd {
                call_id,
                name,
                status,
                view,
                output,
                ..
            } => {
                self.announced.remove(call_id.as_str());
                self.note(&tool_end_line(name, *status, view.as_ref(), output));
            }
            AgentEvent::ToolOutput { chunk, .. } => {
                // Live command output, indented under the call that prints it.
                for line in chunk.lines() {
                    self.note(&format!("  │ {line}"));
                }
            }
            AgentEvent::ApprovalRequested { request } => {
                self.note(&format!(
                    "? approval needed for {} ({:?})",
                    request.tool_name, request.risk
                ));
            }
            AgentEvent::Retrying {
                attempt,
                max_attempts,
                delay_ms,
                reason,
                ..
            } => {
                self.note(&format!(
                    "… retry {attempt}/{max_attempts} in {delay_ms} ms: {reason}"
                ));
            }
            AgentEvent::Error { message, .. } => self.note(&format!("error: {message}")),
            AgentEvent::TurnResumed { .. } => self.note("… running the last turn again"),
            AgentEvent::ExternalAgentStarted {
                label,
                version,
                resumed,
                ..
            } => {
                let version = version
                    .as_deref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default();
                let how = if *resumed {
                    "continuing its session"
                } else {
                    "new session"
                };
                self.note(&format!("… {label}{version} started ({how})"));
            }
            AgentEvent::ExternalAgentSettings { settings } => {
                let said: Vec<String> = settings
                    .iter()
                    .map(|s| {
                        let current = s.choices.iter().find(|c| c.value == s.current);
                        let name = current.map_or(s.current.as_str(), |c| c.name.as_str());
                        let offered: Vec<&str> =
                            s.choices.iter().map(|c| c.value.as_str()).collect();
                        format!("{} = {name} ({}: {})", s.name, s.id, offered.join(", "))
                    })
                    .collect();
                self.note(&format!("… its settings: {}", said.join("; ")));
            }
            AgentEvent::TurnStarted { input } => {
                for notice in input.expansion.iter().flat_map(|e| &e.notices) {
                    self.note(&format!("note: {notice}"));
                }
            }
            AgentEvent::CompactionProgress { done, total } => {
                self.note(&if *total > 1 {
                    format!("… compacting the conversation ({}/{total})", done + 1)
                } else {
                    "… compacting the conversation".to_owned()
                });
            }
            AgentEvent::ContextCompacted {
                status,
                compacted_messages,
                kept_messages,
                tokens_before,
                tokens_after,
                message,
                ..
            } => {
                let status = serde_json::to_value(status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                self.note(&match message {
                    Some(why) => format!("context compaction {status}: {why}"),
                    None => format!(
                        "context {status}: {compacted_messages} messages summarised, {kept_messages} kept (~{tokens_before} -> ~{tokens_after} tokens)"
                    ),
                })
            }
            AgentEvent::McpServerStatus {
                server,
                status,
                message,
                stderr_tail,
                restarts,
                tools,
                ..
            } => {
                use memo_protocol::McpServerState as S;
                let what = match status {
                    S::Failed => "failed",
                    S::Crashed => "crashed",
                    S::NeedsAuth => "needs a login",
                    S::Ready if *restarts > 0 => "is running again",
                    _ => return,
                };
                let mut note = format!("MCP server \"{server}\" {what}");
                if let Some(message) = message {
                    note.push_str(&format!(": {message}"));
                }
                if matches!(status, S::Ready) {
                    note.push_str(&format!(" ({tools} tools)"));
                }
                if let Some(tail) = stderr_tail {
                    note.push_str(&format!("\n  stderr: {}", one_line(tail, 300)));
                }
                self.note(&note);
            }
            AgentEvent::CommandResult { output, .. } => {
                println!("{output}");
                self.at_line_start = true;
            }
            AgentEvent::HookRan { .. } | AgentEvent::HooksSkipped { .. } => {
                for line in crate::sessions_text::hook_lines(&envelope.event) {
                    self.note(&line);
                }
            }
            AgentEvent::SubagentStarted { .. } | AgentEvent::SubagentUpdated { .. } => {
                if let Some(line) = crate::sessions_text::subagent_line(&envelope.event) {
                    self.note(&line);
                }
            }
            _ => {}
        }
    }

    fn finish(&mut self) {
        if !self.at_line_start {
            println!();
        }
    }
}
