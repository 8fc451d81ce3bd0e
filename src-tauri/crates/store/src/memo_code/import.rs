//! Memo Code JSONL -> read-only sessions in the store.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use memo_protocol::{
    AgentEvent, CompactionStatus, CompactionTrigger, EventEnvelope, TokenUsage, ToolCallId,
    ToolCallSummary, ToolErrorKind, ToolStatus, TurnEndReason, TurnId, UserInput,
};
use rusqlite::{OptionalExtension, TransactionBehavior};
use serde_json::{Map, Value};

use super::time::parse_ms;
use super::{session_id_for, ImportReport, ImportStatus, ImportedFile, LineIssue, ORIGIN};
use crate::events::insert_events;
use crate::sessions::{insert_session, Origin};
use crate::{from_sql_int, NewSession, Result, Store};

/// A Memo Code file turned into our events, before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedSession {
    pub origin_id: String,
    pub cwd: String,
    pub title: Option<String>,
    pub created_ms: u64,
    /// Turn, timestamp, event; seqs are their positions + 1.
    pub events: Vec<(Option<TurnId>, u64, AgentEvent)>,
    pub issues: Vec<LineIssue>,
    /// Whether any user turn was found (a file without one is not worth a session).
    pub has_turns: bool,
}

/// One usable line.
struct Line {
    ts: Option<u64>,
    session_id: Option<String>,
    turn: Option<u64>,
    step: Option<u64>,
    kind: String,
    content: String,
    meta: Map<String, Value>,
    /// The line's other fields (`tool_calls`, `tool_call_id` of the message-style lines).
    fields: Map<String, Value>,
}

fn parse_line(text: &str) -> std::result::Result<Line, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut obj) = value else {
        return Err("not a JSON object".into());
    };
    let kind = match obj.get("type") {
        Some(Value::String(t)) if !t.trim().is_empty() => t.trim().to_owned(),
        _ => return Err("no \"type\"".into()),
    };
    let number = |v: Option<&Value>| match v {
        Some(Value::Number(n)) => n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    Ok(Line {
        ts: obj.get("ts").and_then(Value::as_str).and_then(parse_ms),
        session_id: obj
            .get("sessionId")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned),
        turn: number(obj.get("turn")),
        step: number(obj.get("step")),
        kind,
        content: obj
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        meta: match obj.remove("meta") {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        },
        fields: obj,
    })
}

fn meta_str<'a>(meta: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    meta.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// `meta.tokens` in Memo Code's shape (the AI SDK's usage object).
fn tokens(meta: &Map<String, Value>) -> Option<TokenUsage> {
    let t = meta.get("tokens")?.as_object()?;
    let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    let usage = TokenUsage {
        input_tokens: n(t.get("inputTokens")),
        output_tokens: n(t.get("outputTokens")),
        cached_input_tokens: n(t
            .get("inputTokenDetails")
            .and_then(|d| d.get("cacheReadTokens"))),
        reasoning_tokens: n(t
            .get("outputTokenDetails")
            .and_then(|d| d.get("reasoningTokens"))),
    };
    (usage != TokenUsage::default()).then_some(usage)
}

/// Tool input as the raw argument text the model would have produced.
fn arguments(input: Option<&Value>) -> String {
    match input {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The observation status Memo Code writes, as ours.
fn tool_status(status: Option<&str>) -> (ToolStatus, Option<ToolErrorKind>) {
    match status {
        None | Some("success") => (ToolStatus::Ok, None),
        Some("approval_denied") => (ToolStatus::Error, Some(ToolErrorKind::ApprovalDenied)),
        Some("cancelled") => (ToolStatus::Error, Some(ToolErrorKind::Interrupted)),
        Some(_) => (ToolStatus::Error, Some(ToolErrorKind::ExecutionFailed)),
    }
}

/// A `context_compact` line as our event. Memo Code keeps the
/// recent user messages next to the summary; without our `kept_messages` the summary
/// alone stands in for the older history (the full log is still there to read).
fn compaction(line: &Line) -> AgentEvent {
    let meta = &line.meta;
    let exact: Option<CompactionStatus> = meta
        .get("compaction_status")
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    let trigger = match meta_str(meta, "reason") {
        Some("manual") => CompactionTrigger::Manual,
        Some("clear") => CompactionTrigger::Clear,
        _ => CompactionTrigger::Auto,
    };
    let summary = Some(line.content.clone()).filter(|s| !s.trim().is_empty());
    let status = match (exact, meta_str(meta, "status")) {
        (Some(status), _) => status,
        (None, Some("success")) if summary.is_some() => CompactionStatus::Compacted,
        (None, Some("success")) => CompactionStatus::Cleared,
        (None, Some("skipped")) => CompactionStatus::Skipped,
        (None, _) => CompactionStatus::Failed,
    };
    let count = |key: &str| meta.get(key).and_then(Value::as_u64).unwrap_or(0);
    AgentEvent::ContextCompacted {
        trigger,
        status,
        summary,
        kept_messages: u32::try_from(count("kept_messages")).unwrap_or(u32::MAX),
        compacted_messages: u32::try_from(count("compacted_messages")).unwrap_or(u32::MAX),
        tokens_before: count("before_tokens"),
        tokens_after: count("after_tokens"),
        usage: tokens(meta).unwrap_or_default(),
        message: meta_str(meta, "error_message").map(str::to_owned),
    }
}

/// Builds our event sequence while walking the lines.
struct Builder {
    events: Vec<(Option<TurnId>, u64, AgentEvent)>,
    turn: Option<(u64, TurnId)>,
    turn_usage: TokenUsage,
    /// The current step's assistant text, held until we know whether tool calls follow.
    pending: Option<Pending>,
    /// Calls of the turn without a result yet, in call order.
    open_calls: Vec<(String, String)>,
    /// Text of the last assistant message of the turn (to drop the `final` repeating it).
    last_text: Option<String>,
    ts: u64,
    origin_id: String,
}

struct Pending {
    step: Option<u64>,
    text: String,
    reasoning: Option<String>,
    provider_data: Option<Value>,
}

impl Builder {
    fn push(&mut self, event: AgentEvent) {
        let turn = self.turn.as_ref().map(|(_, id)| id.clone());
        self.events.push((turn, self.ts, event));
    }

    fn flush(&mut self, tool_calls: Vec<ToolCallSummary>) {
        let pending = self.pending.take();
        if pending.is_none() && tool_calls.is_empty() {
            return;
        }
        let (text, reasoning, provider_data) = pending
            .map(|p| (p.text, p.reasoning, p.provider_data))
            .unwrap_or_default();
        self.open_calls.extend(
            tool_calls
                .iter()
                .map(|c| (c.call_id.0.clone(), c.name.clone())),
        );
        self.last_text = Some(text.clone());
        self.push(AgentEvent::AssistantMessage {
            text,
            reasoning,
            tool_calls,
            provider_data,
        });
    }

    /// Ends the open turn: every call without a result gets an "interrupted" one, so the
    /// history stays valid for every provider.
    fn end_turn(&mut self, reason: TurnEndReason) {
        self.flush(Vec::new());
        if self.turn.is_none() {
            return;
        }
        for (call_id, name) in std::mem::take(&mut self.open_calls) {
            self.push(AgentEvent::ToolCallEnd {
                // Derived when read, like any event from before views.
                view: None,
                call_id: ToolCallId(call_id),
                name,
                status: ToolStatus::Error,
                error_kind: Some(ToolErrorKind::Interrupted),
                output: "Error (interrupted): the session ended before this tool call finished"
                    .into(),
                full_length: None,
            });
        }
        let usage = std::mem::take(&mut self.turn_usage);
        self.push(AgentEvent::TurnEnded { reason, usage });
        self.turn = None;
        self.last_text = None;
    }

    fn begin_turn(&mut self, number: u64, input: String) {
        if self.turn.is_some() {
            self.end_turn(TurnEndReason::Interrupted);
        }
        let id = TurnId::new(format!("{}-turn-{number}", self.origin_id));
        self.turn = Some((number, id));
        self.push(AgentEvent::TurnStarted {
            input: UserInput::text(input),
        });
    }

    fn action(&mut self, line: &Line) {
        let step = line.step;
        let fallback_id = |i: usize| {
            format!(
                "{}-{}-{}-{i}",
                self.turn.as_ref().map(|(n, _)| *n).unwrap_or(0),
                step.unwrap_or(0),
                self.events.len()
            )
        };
        let mut calls = Vec::new();
        if let Some(Value::Array(blocks)) = line.meta.get("toolBlocks") {
            for (i, block) in blocks.iter().enumerate() {
                let Some(name) = block.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let id = block
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .unwrap_or_else(|| fallback_id(i));
                calls.push(ToolCallSummary {
                    call_id: ToolCallId(id),
                    name: name.to_owned(),
                    arguments: arguments(block.get("input")),
                });
            }
        } else if let Some(name) = meta_str(&line.meta, "tool") {
            let id = meta_str(&line.meta, "action_id")
                .map(str::to_owned)
                .unwrap_or_else(|| fallback_id(0));
            calls.push(ToolCallSummary {
                call_id: ToolCallId(id),
                name: name.to_owned(),
                arguments: arguments(line.meta.get("input")),
            });
        }
        // A pending text from another step is its own message.
        if self.pending.as_ref().is_some_and(|p| p.step != step) {
            self.flush(Vec::new());
        }
        self.flush(calls);
    }

    /// Returns why the observation was not usable.
    fn observation(&mut self, line: &Line) -> Option<String> {
        self.result(
            meta_str(&line.meta, "action_id"),
            meta_str(&line.meta, "tool"),
            meta_str(&line.meta, "status"),
            &line.content,
        )
        .map(|_| "observation without a matching action".to_owned())
    }

    /// A call's result, matched by its id, else by the tool's name; returns why it could
    /// not be matched.
    fn result(
        &mut self,
        id: Option<&str>,
        tool: Option<&str>,
        status: Option<&str>,
        content: &str,
    ) -> Option<String> {
        self.flush(Vec::new());
        let position = match id {
            Some(id) => self.open_calls.iter().position(|(c, _)| c == id),
            None => self
                .open_calls
                .iter()
                .position(|(_, name)| Some(name.as_str()) == tool)
                .or_else(|| (tool.is_none() && self.open_calls.len() == 1).then_some(0)),
        };
        let Some(position) = position else {
            return Some("a tool result without a matching call".into());
        };
        let (call_id, name) = self.open_calls.remove(position);
        let (status, error_kind) = tool_status(status);
        self.push(AgentEvent::ToolCallEnd {
            // Derived when read, like any event from before views.
            view: None,
            call_id: ToolCallId(call_id),
            name,
            status,
            error_kind,
            output: content.to_owned(),
            full_length: None,
        });
        None
    }

    /// The `tool_calls` of a message-style line: OpenAI's `{id, function: {name,
    /// arguments}}`, or a flat `{id, name, arguments | input}`.
    fn message_calls(&self, line: &Line) -> Vec<ToolCallSummary> {
        let Some(Value::Array(calls)) = line.fields.get("tool_calls") else {
            return Vec::new();
        };
        calls
            .iter()
            .enumerate()
            .filter_map(|(i, call)| {
                let function = call.get("function").unwrap_or(call);
                let name = function.get("name").and_then(Value::as_str)?;
                let id = call
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .unwrap_or_else(|| {
                        format!(
                            "{}-{}-{}-{i}",
                            self.turn.as_ref().map(|(n, _)| *n).unwrap_or(0),
                            line.step.unwrap_or(0),
                            self.events.len()
                        )
                    });
                let args = function.get("arguments").or_else(|| function.get("input"));
                Some(ToolCallSummary {
                    call_id: ToolCallId(id),
                    name: name.to_owned(),
                    arguments: arguments(args),
                })
            })
            .collect()
    }
}

/// Parses a Memo Code session file. Lines that are not JSON objects with a `type`, and
/// lines that make no sense where they are (a result for a call never made), are skipped
/// and reported; everything else is kept.
pub fn parse_file(path: &Path) -> std::io::Result<ParsedSession> {
    let bytes = std::fs::read(path)?;
    // A file cut mid-character (a crash while writing) still has good lines before it.
    let text = String::from_utf8_lossy(&bytes);
    let mut issues = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        match parse_line(raw) {
            Ok(line) => lines.push((i + 1, line)),
            Err(reason) => issues.push(LineIssue {
                line: i + 1,
                reason,
            }),
        }
    }

    let origin_id = lines
        .iter()
        .find_map(|(_, l)| l.session_id.clone())
        .unwrap_or_else(|| id_from_file_name(path));
    let cwd = lines
        .iter()
        .find(|(_, l)| l.kind == "session_start")
        .and_then(|(_, l)| meta_str(&l.meta, "cwd").map(str::to_owned))
        .unwrap_or_else(|| cwd_from_folder(path));
    let created_ms = lines.iter().find_map(|(_, l)| l.ts).unwrap_or(0);

    let mut b = Builder {
        events: Vec::new(),
        turn: None,
        turn_usage: TokenUsage::default(),
        pending: None,
        open_calls: Vec::new(),
        last_text: None,
        ts: created_ms,
        origin_id: origin_id.clone(),
    };
    b.push(AgentEvent::SessionStarted {
        cwd: cwd.clone(),
        provider: String::new(),
        model: String::new(),
    });
    let mut title = None;
    let mut has_turns = false;
    let mut next_turn = 1;
    for (number, line) in &lines {
        if let Some(ts) = line.ts {
            b.ts = ts;
        }
        let in_turn = b.turn.is_some();
        match line.kind.as_str() {
            "session_title" if !line.content.trim().is_empty() => {
                title = Some(line.content.trim().to_owned())
            }
            "turn_start" => {
                has_turns = true;
                let n = line.turn.unwrap_or(next_turn);
                next_turn = n + 1;
                b.begin_turn(n, line.content.clone());
            }
            // The message-style lines of the design notes' example: a user message opens a
            // turn (and ends the one before), an assistant message may carry tool calls in
            // OpenAI's shape, a tool result answers one by `tool_call_id`.
            "user_message" => {
                has_turns = true;
                if in_turn {
                    b.end_turn(TurnEndReason::Completed);
                }
                let n = line.turn.unwrap_or(next_turn).max(next_turn);
                next_turn = n + 1;
                b.begin_turn(n, line.content.clone());
            }
            "assistant" | "action" | "observation" | "final" | "turn_end" | "assistant_message"
            | "tool_result"
                if !in_turn =>
            {
                issues.push(LineIssue {
                    line: *number,
                    reason: format!("{} outside a turn", line.kind),
                });
            }
            "assistant" => {
                b.flush(Vec::new());
                if let Some(usage) = tokens(&line.meta) {
                    b.turn_usage.add(&usage);
                    let turn_total = b.turn_usage;
                    b.push(AgentEvent::Usage {
                        step: usage,
                        turn_total,
                    });
                }
                b.pending = Some(Pending {
                    step: line.step,
                    text: line.content.clone(),
                    reasoning: meta_str(&line.meta, "reasoning").map(str::to_owned),
                    provider_data: line.meta.get("provider_data").cloned(),
                });
            }
            "action" => b.action(line),
            "assistant_message" => {
                b.flush(Vec::new());
                b.pending = Some(Pending {
                    step: line.step,
                    text: line.content.clone(),
                    reasoning: None,
                    provider_data: None,
                });
                let calls = b.message_calls(line);
                if !calls.is_empty() {
                    b.flush(calls);
                }
            }
            "tool_result" => {
                let id = line.fields.get("tool_call_id").and_then(Value::as_str);
                let tool = line.fields.get("name").and_then(Value::as_str);
                if let Some(reason) = b.result(id, tool, None, &line.content) {
                    issues.push(LineIssue {
                        line: *number,
                        reason,
                    });
                }
            }
            "observation" => {
                if let Some(reason) = b.observation(line) {
                    issues.push(LineIssue {
                        line: *number,
                        reason,
                    });
                }
            }
            "final" => {
                b.flush(Vec::new());
                // Memo Code puts a final answer that no assistant step carried (a failed
                // model call's message) into the history; repeats, cancellations, denials
                // and our own exported errors are not conversation.
                let informational = ["cancelled", "rejected", "error_type", "errorMessage"]
                    .iter()
                    .any(|k| line.meta.contains_key(*k));
                let repeat = b.last_text.as_deref() == Some(line.content.as_str());
                if !informational && !repeat && !line.content.trim().is_empty() {
                    b.pending = Some(Pending {
                        step: line.step,
                        text: line.content.clone(),
                        reasoning: None,
                        provider_data: None,
                    });
                    b.flush(Vec::new());
                }
            }
            "context_compact" => {
                b.flush(Vec::new());
                b.push(compaction(line));
            }
            "turn_end" => {
                let reason = match meta_str(&line.meta, "status") {
                    Some("cancelled") => TurnEndReason::Interrupted,
                    Some("error") | Some("prompt_limit") => TurnEndReason::Failed,
                    _ => TurnEndReason::Completed,
                };
                // The turn's total, when given, is more complete than our sum of steps.
                if let Some(total) = tokens(&line.meta) {
                    b.turn_usage = total;
                }
                b.end_turn(reason);
            }
            _ => {}
        }
    }
    // A file that stops mid-turn (Memo Code was killed) ends as an interrupted turn. The
    // message-style lines have no turn end: their last turn is over unless a call waits.
    let message_style = lines.iter().any(|(_, l)| l.kind == "user_message");
    b.end_turn(if message_style && b.open_calls.is_empty() {
        TurnEndReason::Completed
    } else {
        TurnEndReason::Interrupted
    });
    issues.sort_by_key(|i| i.line);
    Ok(ParsedSession {
        origin_id,
        cwd,
        title,
        created_ms,
        events: b.events,
        issues,
        has_turns,
    })
}

/// `2026-02-23T16-22-21-<id>.jsonl` -> `<id>`; any other name is the id itself.
fn id_from_file_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let b = stem.as_bytes();
    let dated = b.len() > 20
        && b[..19].iter().enumerate().all(|(i, c)| match i {
            4 | 7 | 13 | 16 => *c == b'-',
            10 => *c == b'T' || *c == b'_',
            _ => c.is_ascii_digit(),
        })
        && matches!(b[19], b'-' | b'_');
    // The older layout: `2026-02-23_162221_<id>.jsonl`.
    let dated_old = b.len() > 18
        && b[..18].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 | 17 => *c == b'_',
            _ => c.is_ascii_digit(),
        });
    if dated {
        stem[20..].to_owned()
    } else if dated_old {
        stem[18..].to_owned()
    } else {
        stem
    }
}

/// Memo Code's project folder `-home-me-proj` -> `/home/me/proj` (best effort: the
/// encoding is lossy, so a `session_start` cwd always wins).
fn cwd_from_folder(path: &Path) -> String {
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match folder.strip_prefix('-') {
        Some("root") | Some("") | None => "/".to_owned(),
        Some(rest) => format!("/{}", rest.replace('-', "/")),
    }
}

impl Store {
    /// Imports one Memo Code session file as a read-only session. Importing the same
    /// session again is a no-op while the file is unchanged, and replaces the copy when
    /// the file has grown (Memo Code continued the session).
    pub fn import_memo_code_file(&self, path: &Path) -> std::io::Result<Result<ImportedFile>> {
        let parsed = parse_file(path)?;
        Ok(self.store_parsed(path, parsed))
    }

    fn store_parsed(&self, path: &Path, parsed: ParsedSession) -> Result<ImportedFile> {
        let id = session_id_for(&parsed.origin_id);
        let mut file = ImportedFile {
            path: path.to_path_buf(),
            status: ImportStatus::Empty,
            session_id: None,
            origin_id: parsed.origin_id.clone(),
            events: parsed.events.len() as u64,
            skipped_lines: parsed.issues.clone(),
        };
        if !parsed.has_turns {
            return Ok(file);
        }
        let envs: Vec<EventEnvelope> = parsed
            .events
            .iter()
            .enumerate()
            .map(|(i, (turn, ts, event))| EventEnvelope {
                session_id: id.clone(),
                turn_id: turn.clone(),
                seq: i as u64 + 1,
                timestamp_ms: *ts,
                event: event.clone(),
            })
            .collect();
        let prices = self.prices().clone();
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let existing: Option<(String, i64)> = tx
            .prepare_cached(
                "SELECT id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = s.id) \
                 FROM sessions s WHERE origin = ?1 AND origin_id = ?2",
            )?
            .query_row([ORIGIN, parsed.origin_id.as_str()], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        file.session_id = Some(id.clone());
        file.status = match &existing {
            Some((_, last)) if from_sql_int(*last) == envs.len() as u64 => ImportStatus::Unchanged,
            Some(_) => ImportStatus::Updated,
            None => ImportStatus::New,
        };
        if file.status == ImportStatus::Unchanged {
            return Ok(file);
        }
        let mut title = parsed.title.clone();
        if let Some((old, _)) = &existing {
            // A title given here (a rename) outlives the refresh.
            let renamed: Option<String> = tx
                .prepare_cached("SELECT title FROM sessions WHERE id = ?1")?
                .query_row([old], |r| r.get(0))?;
            title = renamed.or(title);
            crate::sessions::delete_in(&tx, &memo_protocol::SessionId(old.clone()))?;
        }
        let new = NewSession {
            id: id.clone(),
            cwd: parsed.cwd.clone(),
            provider: String::new(),
            model: String::new(),
            title,
        };
        insert_session(
            &tx,
            &new,
            parsed.created_ms,
            Some(Origin {
                origin: ORIGIN,
                origin_id: &parsed.origin_id,
            }),
        )?;
        insert_events(&tx, &envs, &prices, true)?;
        tx.commit()?;
        Ok(file)
    }

    /// Imports every `*.jsonl` under `dir` (Memo Code's `$MEMO_HOME/sessions`, searched
    /// recursively for its per-project folders). A file that cannot be read or stored is
    /// reported and the others still imported.
    pub fn import_memo_code_dir(&self, dir: &Path) -> ImportReport {
        let mut report = ImportReport::default();
        let mut files = Vec::new();
        collect_jsonl(dir, &mut files, &mut report, &mut HashSet::new());
        files.sort();
        for path in files {
            match self.import_memo_code_file(&path) {
                Ok(Ok(file)) => report.files.push(file),
                Ok(Err(err)) => report.failed.push((path, err.to_string())),
                Err(err) => report.failed.push((path, err.to_string())),
            }
        }
        report
    }
}

fn collect_jsonl(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    report: &mut ImportReport,
    seen: &mut HashSet<PathBuf>,
) {
    // Symlink loops would recurse forever; visit each real folder once.
    if let Ok(real) = std::fs::canonicalize(dir) {
        if !seen.insert(real) {
            return;
        }
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            report.failed.push((dir.to_path_buf(), err.to_string()));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_jsonl(&path, out, report, seen);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_cwds_from_paths() {
        let p = Path::new("/m/sessions/-home-me-proj/2026-02-23T16-22-21-abc-123.jsonl");
        assert_eq!(id_from_file_name(p), "abc-123");
        assert_eq!(cwd_from_folder(p), "/home/me/proj");
        let p = Path::new("/m/sessions/-root/2026-02-23_162221_xyz.jsonl");
        assert_eq!(id_from_file_name(p), "xyz");
        assert_eq!(cwd_from_folder(p), "/");
        assert_eq!(id_from_file_name(Path::new("plain.jsonl")), "plain");
    }
}
