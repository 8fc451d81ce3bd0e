//! A stored session -> Memo Code JSONL.

use std::io::Write;

use memo_protocol::{
    AgentEvent, CompactionStatus, EventEnvelope, SessionId, TokenUsage, ToolErrorKind, ToolStatus,
    TurnEndReason,
};
use serde_json::{json, Map, Value};

use super::time::format_ms;
use crate::{Result, SessionRecord, Store, StoreError};

/// Events are read in pages of this size, so exporting a huge session needs little memory.
const PAGE: usize = 2000;

fn tokens_json(u: &TokenUsage) -> Value {
    json!({
        "inputTokens": u.input_tokens,
        "outputTokens": u.output_tokens,
        "totalTokens": u.total(),
        "inputTokenDetails": { "cacheReadTokens": u.cached_input_tokens },
        "outputTokenDetails": { "reasoningTokens": u.reasoning_tokens },
    })
}

fn error_label(kind: Option<ToolErrorKind>) -> Option<Value> {
    let kind = kind?;
    serde_json::to_value(kind).ok()
}

/// Turns our events into Memo Code lines, keeping the per-turn state that needs.
struct Exporter<'a> {
    session: &'a SessionRecord,
    turn: u64,
    step: u64,
    /// Usage of the step whose assistant message comes next.
    step_usage: Option<TokenUsage>,
    session_usage: TokenUsage,
    /// Whether the current turn already wrote its `final`.
    final_written: bool,
    last_error: Option<String>,
}

impl Exporter<'_> {
    fn line(&self, ts: u64, kind: &str, fields: Value) -> Value {
        let mut obj = Map::new();
        obj.insert("ts".into(), Value::String(format_ms(ts)));
        obj.insert("sessionId".into(), Value::String(self.session.id.0.clone()));
        obj.insert("type".into(), Value::String(kind.into()));
        if let Value::Object(extra) = fields {
            obj.extend(extra);
        }
        Value::Object(obj)
    }

    fn convert(&mut self, env: &EventEnvelope) -> Vec<Value> {
        let ts = env.timestamp_ms;
        let (turn, step) = (self.turn, self.step);
        match &env.event {
            AgentEvent::SessionStarted {
                cwd,
                provider,
                model,
            } => {
                let mut out = vec![self.line(
                    ts,
                    "session_start",
                    json!({ "meta": { "cwd": cwd, "provider": provider, "model": model,
                                      "source": "memo-desktop" } }),
                )];
                if let Some(title) = &self.session.title {
                    out.push(self.line(
                        ts,
                        "session_title",
                        json!({ "content": title, "meta": { "source": "memo-desktop" } }),
                    ));
                }
                out
            }
            AgentEvent::TurnStarted { input } => {
                self.turn += 1;
                self.step = 0;
                self.final_written = false;
                self.last_error = None;
                // Memo Code's format has no images: a turn's images stay in Memo
                // Desktop's own log and are not exported.
                vec![self.line(
                    ts,
                    "turn_start",
                    json!({ "turn": self.turn, "content": input.text }),
                )]
            }
            AgentEvent::Usage { step, .. } => {
                self.step_usage = Some(*step);
                self.session_usage.add(step);
                Vec::new()
            }
            AgentEvent::AssistantMessage {
                text,
                reasoning,
                tool_calls,
                provider_data,
            } => {
                self.step += 1;
                let mut meta = Map::new();
                if let Some(usage) = self.step_usage.take() {
                    meta.insert("tokens".into(), tokens_json(&usage));
                }
                // Ours, in Memo Code's free-form meta: what a resume needs to send the
                // step back exactly (reasoning, provider signatures).
                if let Some(reasoning) = reasoning {
                    meta.insert("reasoning".into(), Value::String(reasoning.clone()));
                }
                if let Some(data) = provider_data {
                    meta.insert("provider_data".into(), data.clone());
                }
                let mut out = vec![self.line(
                    ts,
                    "assistant",
                    json!({ "turn": turn, "step": step, "content": text, "role": "assistant",
                            "meta": meta.clone() }),
                )];
                let input = |args: &str| {
                    serde_json::from_str::<Value>(args)
                        .unwrap_or_else(|_| Value::String(args.to_owned()))
                };
                match tool_calls.as_slice() {
                    [] => {
                        meta.remove("reasoning");
                        meta.remove("provider_data");
                        self.final_written = true;
                        out.push(self.line(
                            ts,
                            "final",
                            json!({ "turn": turn, "step": step, "content": text,
                                    "role": "assistant", "meta": meta }),
                        ));
                    }
                    [call] => out.push(self.line(
                        ts,
                        "action",
                        json!({ "turn": turn, "step": step, "meta": {
                            "tool": call.name, "input": input(&call.arguments),
                            "action_id": call.call_id.0, "phase": "dispatch" } }),
                    )),
                    calls => out.push(self.line(
                        ts,
                        "action",
                        json!({ "turn": turn, "step": step, "meta": {
                            "tools": calls.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
                            "action_ids": calls.iter().map(|c| c.call_id.0.clone()).collect::<Vec<_>>(),
                            "action_id": calls[0].call_id.0,
                            "parallel": true,
                            "phase": "dispatch",
                            "toolBlocks": calls.iter().map(|c| json!({
                                "id": c.call_id.0, "name": c.name, "input": input(&c.arguments)
                            })).collect::<Vec<_>>(),
                        } }),
                    )),
                }
                out
            }
            AgentEvent::ToolCallEnd {
                call_id,
                name,
                status,
                error_kind,
                output,
                ..
            } => {
                let status = match (status, error_kind) {
                    (ToolStatus::Ok, _) => "success",
                    (_, Some(ToolErrorKind::ApprovalDenied)) => "approval_denied",
                    (_, Some(ToolErrorKind::Interrupted)) => "cancelled",
                    _ => "error",
                };
                vec![self.line(
                    ts,
                    "observation",
                    json!({ "turn": turn, "step": step.saturating_sub(1), "content": output,
                            "meta": { "tool": name, "action_id": call_id.0, "phase": "result",
                                      "status": status, "error_type": error_label(*error_kind) } }),
                )]
            }
            AgentEvent::ContextCompacted {
                trigger,
                status,
                summary,
                kept_messages,
                compacted_messages,
                tokens_before,
                tokens_after,
                usage,
                message,
            } => {
                let memo_status = match status {
                    CompactionStatus::Compacted | CompactionStatus::Cleared => "success",
                    CompactionStatus::Skipped => "skipped",
                    CompactionStatus::Inflated | CompactionStatus::Failed => "failed",
                };
                self.session_usage.add(usage);
                // Memo Code's fields, plus ours (kept/compacted counts, exact status) so
                // an import rebuilds the same history.
                vec![self.line(
                    ts,
                    "context_compact",
                    json!({ "turn": turn, "step": step, "content": summary.clone().unwrap_or_default(),
                            "meta": { "reason": trigger, "status": memo_status,
                                      "before_tokens": tokens_before, "after_tokens": tokens_after,
                                      "error_message": message,
                                      "kept_messages": kept_messages,
                                      "compacted_messages": compacted_messages,
                                      "compaction_status": status,
                                      "tokens": tokens_json(usage) } }),
                )]
            }
            AgentEvent::Error { message, .. } => {
                self.last_error = Some(message.clone());
                Vec::new()
            }
            AgentEvent::TurnEnded { reason, usage } => {
                let status = match reason {
                    TurnEndReason::Completed => "ok",
                    TurnEndReason::Interrupted => "cancelled",
                    TurnEndReason::StepLimit | TurnEndReason::Failed => "error",
                };
                let mut out = Vec::new();
                if !self.final_written {
                    let meta = match reason {
                        TurnEndReason::Interrupted => json!({ "cancelled": true }),
                        _ => json!({ "errorMessage": self.last_error.clone().unwrap_or_default() }),
                    };
                    out.push(self.line(
                        ts,
                        "final",
                        json!({ "turn": turn, "content": self.last_error.clone().unwrap_or_default(),
                                "role": "assistant", "meta": meta }),
                    ));
                }
                out.push(self.line(
                    ts,
                    "turn_end",
                    json!({ "turn": turn, "meta": { "status": status, "stepCount": self.step,
                                                    "tokens": tokens_json(usage) } }),
                ));
                out
            }
            _ => Vec::new(),
        }
    }
}

impl Store {
    /// Writes a session as Memo Code JSONL, one event per line; returns the lines written.
    /// Memo Code has no place for some of our data (approvals, retries), so those are
    /// left out; reasoning and provider signatures travel in the `assistant` line's
    /// `meta.reasoning` and `meta.provider_data`.
    pub fn export_memo_code(&self, session: &SessionId, out: &mut dyn Write) -> Result<u64> {
        let record = self
            .session(session)?
            .ok_or_else(|| StoreError::UnknownSession(session.clone()))?;
        let mut exporter = Exporter {
            session: &record,
            turn: 0,
            step: 0,
            step_usage: None,
            session_usage: TokenUsage::default(),
            final_written: false,
            last_error: None,
        };
        let mut written = 0;
        let mut after = 0;
        let mut last_ts = record.created_ms;
        loop {
            let page = self.events(session, after, PAGE)?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            for env in &page {
                last_ts = env.timestamp_ms;
                for line in exporter.convert(env) {
                    writeln!(out, "{line}").map_err(StoreError::Export)?;
                    written += 1;
                }
            }
        }
        let end = exporter.line(
            last_ts,
            "session_end",
            json!({ "meta": { "tokens": tokens_json(&exporter.session_usage) } }),
        );
        writeln!(out, "{end}").map_err(StoreError::Export)?;
        out.flush().map_err(StoreError::Export)?;
        Ok(written + 1)
    }
}
