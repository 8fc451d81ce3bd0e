//! Human-readable output of `memo-cli sessions`.

use std::io::Write;

use memo_engine::context::text::one_line;
use memo_protocol::{
    AgentEvent, CheckpointSummary, EventEnvelope, ImportReport, ImportStatus, RestoreAction,
    RestoreReport, ReviewDecision, SearchResult, SessionPage, SessionSummary, ToolStatus, ToolView,
    UsageReport,
};

use memo_service::format_timestamp as format_ms;

fn status_name(status: ImportStatus) -> &'static str {
    match status {
        ImportStatus::New => "new",
        ImportStatus::Updated => "updated",
        ImportStatus::Unchanged => "unchanged",
        ImportStatus::Empty => "empty",
    }
}

/// `provider/model`; imported history names neither.
fn model_name(provider: &str, model: &str) -> String {
    match (provider.is_empty(), model.is_empty()) {
        (true, true) => "(model not recorded)".into(),
        (true, false) => model.into(),
        _ => format!("{provider}/{model}"),
    }
}

/// `2026-02-23 16:22` in UTC.
fn when(ms: u64) -> String {
    let iso = format_ms(ms);
    format!("{} {}", &iso[..10], &iso[11..16])
}

pub fn print_list(page: &SessionPage, offset: usize) {
    let (records, total) = (&page.sessions, page.total);
    if records.is_empty() {
        println!("no sessions");
        return;
    }
    for r in records {
        let name = r
            .title
            .clone()
            .or_else(|| r.preview.clone())
            .unwrap_or_else(|| "(empty)".into());
        let mut flags = Vec::new();
        if r.read_only {
            flags.push(format!(
                "imported from {}",
                r.origin.as_deref().unwrap_or("?")
            ));
        }
        if let Some(parent) = &r.parent_session_id {
            flags.push(format!("fork of {parent}@{}", r.fork_seq.unwrap_or(0)));
        }
        let flags = if flags.is_empty() {
            String::new()
        } else {
            format!(" [{}]", flags.join(", "))
        };
        println!(
            "{}  {}  {}{flags}",
            r.id,
            when(r.updated_ms),
            one_line(&name, 60)
        );
        println!("    {}  {}", r.cwd, model_name(&r.provider, &r.model));
    }
    let shown = offset + records.len();
    if (shown as u64) < total {
        println!("({shown} of {total}; --offset {shown} for more)");
    }
}

pub fn print_transcript(
    out: &mut impl Write,
    record: &SessionSummary,
    events: &[EventEnvelope],
) -> std::io::Result<()> {
    let title = record
        .title
        .clone()
        .or_else(|| record.preview.clone())
        .unwrap_or_default();
    writeln!(out, "# {} — {}", record.id, title)?;
    writeln!(
        out,
        "{}  {}",
        record.cwd,
        model_name(&record.provider, &record.model)
    )?;
    for env in events.iter().filter(|e| in_transcript(&e.event)) {
        let seq = env.seq;
        match &env.event {
            AgentEvent::TurnStarted { input } => {
                writeln!(out, "\n[{seq}] > {}", input.text)?;
            }
            // Each call is one line at its end, where its view says what it did.
            AgentEvent::AssistantMessage { text, .. } if !text.trim().is_empty() => {
                writeln!(out, "[{seq}] {}", text.trim_end())?;
            }
            AgentEvent::ToolCallEnd {
                name,
                status,
                view,
                output,
                ..
            } => {
                writeln!(
                    out,
                    "[{seq}] {}",
                    tool_end_line(name, *status, view.as_ref(), output)
                )?;
            }
            AgentEvent::ToolCallAllowed { rules, .. } => {
                writeln!(out, "[{seq}] {}", allowed_line(rules))?;
            }
            AgentEvent::ApprovalRequested { request } => {
                writeln!(out, "[{seq}] ? approval for {}", request.tool_name)?;
            }
            AgentEvent::ApprovalResolved { decision, .. } => match decision {
                ReviewDecision::Unanswered { because } => {
                    writeln!(out, "[{seq}] approval not answered: {because}")?
                }
                _ if decision.is_approved() => writeln!(out, "[{seq}] approval approved")?,
                _ => writeln!(out, "[{seq}] approval denied")?,
            },
            AgentEvent::Error { message, .. } => writeln!(out, "[{seq}] error: {message}")?,
            AgentEvent::HookRan { .. } | AgentEvent::HooksSkipped { .. } => {
                for line in hook_lines(&env.event) {
                    writeln!(out, "[{seq}] {line}")?;
                }
            }
            AgentEvent::SubagentStarted { .. } | AgentEvent::SubagentUpdated { .. } => {
                if let Some(line) = subagent_line(&env.event) {
                    writeln!(out, "[{seq}] {line}")?;
                }
            }
            AgentEvent::TurnEnded { reason, usage } => writeln!(
                out,
                "[{seq}] — turn {} ({} in / {} out tokens)",
                format!("{reason:?}").to_lowercase(),
                usage.input_tokens,
                usage.output_tokens
            )?,
            _ => {}
        }
    }
    Ok(())
}

pub fn print_hits(hits: &[SearchResult]) {
    if hits.is_empty() {
        println!("no matches");
        return;
    }
    for h in hits {
        let title = h.session.title.as_deref().unwrap_or("");
        println!(
            "{}@{}  {}  {}  {}",
            h.session.id,
            h.seq,
            when(h.timestamp_ms),
            h.role,
            one_line(title, 50)
        );
        println!("    {}", one_line(&h.snippet, 200));
    }
    println!("(memo-cli sessions show ID --after SEQ-1 to read from a hit)");
}

pub fn print_import(report: &ImportReport) {
    for f in &report.files {
        let id = f
            .session_id
            .as_ref()
            .map_or_else(|| "-".to_owned(), |s| s.to_string());
        println!(
            "{:9}  {}  {} events  {}",
            status_name(f.status),
            id,
            f.events,
            f.path
        );
        for issue in &f.skipped_lines {
            println!("    skipped line {}: {}", issue.line, issue.reason);
        }
    }
    for failure in &report.failed {
        println!("failed     {}: {}", failure.path, failure.error);
    }
    let count = |s: &str| {
        report
            .files
            .iter()
            .filter(|f| status_name(f.status) == s)
            .count()
    };
    println!(
        "{} new, {} updated, {} unchanged, {} empty; {} lines skipped; {} failed",
        count("new"),
        count("updated"),
        count("unchanged"),
        count("empty"),
        report
            .files
            .iter()
            .map(|f| f.skipped_lines.len())
            .sum::<usize>(),
        report.failed.len()
    );
}

pub fn print_usage(summary: &UsageReport) {
    if summary.by_model.is_empty() {
        println!("no model calls recorded");
        return;
    }
    let cost = |c: Option<f64>| c.map_or_else(|| "-".to_owned(), |c| format!("${c:.4}"));
    for m in &summary.by_model {
        let who = model_name(&m.provider, &m.model);
        println!(
            "{who}: {} calls, {} in ({} cached) / {} out ({} reasoning) tokens, {}{}",
            m.calls,
            m.tokens.input_tokens,
            m.tokens.cached_input_tokens,
            m.tokens.output_tokens,
            m.tokens.reasoning_tokens,
            cost(m.cost_usd),
            if m.unpriced_calls > 0 {
                format!(" ({} calls without a price)", m.unpriced_calls)
            } else {
                String::new()
            }
        );
    }
    let t = &summary.tokens;
    println!(
        "total: {} calls, {} in / {} out tokens, {}",
        summary.calls,
        t.input_tokens,
        t.output_tokens,
        cost(summary.cost_usd)
    );
}

/// One line per hook that ran (`hook PreToolUse · ./guard.sh blocked: no rm`), or the
/// note about a folder's skipped hooks; nothing for other events.
pub fn hook_lines(event: &AgentEvent) -> Vec<String> {
    use memo_protocol::{HookRunStatus as S, HookVerdict as V};
    match event {
        AgentEvent::HookRan { event, hooks, .. } => hooks
            .iter()
            .map(|h| {
                let what = match (h.status, h.decision) {
                    (S::Blocked, _) | (_, Some(V::Block)) => "blocked".to_owned(),
                    (S::Ok, Some(V::Allow)) => "allowed".to_owned(),
                    (S::Ok, Some(V::Ask)) => "asked".to_owned(),
                    (S::Ok, None) => format!("ok ({} ms)", h.duration_ms),
                    (S::Failed, _) => match h.exit_code {
                        Some(code) => format!("failed (exit {code})"),
                        None => "failed".to_owned(),
                    },
                    (S::TimedOut, _) => "timed out".to_owned(),
                    (S::Cancelled, _) => "cancelled".to_owned(),
                };
                let mut line = format!(
                    "hook {} · {} {what}",
                    event.as_str(),
                    one_line(&h.command, 60)
                );
                if let Some(message) = &h.message {
                    line.push_str(&format!(": {}", one_line(message, 160)));
                }
                line
            })
            .collect(),
        AgentEvent::HooksSkipped { message, .. } => vec![message.clone()],
        _ => Vec::new(),
    }
}

/// The line for a subagent's start or state change (`subagent agent-3f9a… (reviewer)
/// finished: …`); `None` for other events.
pub fn subagent_line(event: &AgentEvent) -> Option<String> {
    match event {
        AgentEvent::SubagentStarted { agent, task, .. } => Some(format!(
            "subagent {} ({}) started: {}",
            agent.agent_id,
            agent.agent_type,
            one_line(task, 120)
        )),
        AgentEvent::SubagentUpdated {
            agent_id,
            state,
            answer,
            message,
        } => {
            let mut line = format!(
                "subagent {agent_id} {}",
                format!("{state:?}").to_lowercase()
            );
            if let Some(message) = message {
                line.push_str(&format!(" ({})", one_line(message, 120)));
            }
            if let Some(answer) = answer {
                line.push_str(&format!(": {}", one_line(answer, 160)));
            }
            Some(line)
        }
        _ => None,
    }
}

/// Whether an event is worth a line in a transcript (deltas are repeated whole by the
/// step's `assistant_message`).
/// A call as it is announced: what its view says it is.
pub fn tool_start_line(view: &ToolView) -> String {
    format!("→ {}", view.title())
}

/// A call as it ended: ✓ or ✗, what it was, what came of it. The output the model got is
/// quoted only where the view says nothing more (another tool, an MCP answer) or the call
/// failed.
pub fn tool_end_line(
    name: &str,
    status: ToolStatus,
    view: Option<&ToolView>,
    output: &str,
) -> String {
    let ok = status == ToolStatus::Ok;
    // A command the tool ran fine may still have failed.
    let failed = !ok || matches!(view, Some(ToolView::Command(command)) if command.failed());
    let mark = if failed { "✗" } else { "✓" };
    let Some(view) = view else {
        return format!("{mark} {name}: {}", one_line(output, 120));
    };
    let mut line = format!("{mark} {}", view.title());
    let outcome = view.outcome();
    if let Some(outcome) = &outcome {
        line.push_str(&format!(" · {outcome}"));
    }
    let quote = !ok
        || (outcome.is_none()
            && matches!(
                view,
                ToolView::Other(_) | ToolView::McpCall(_) | ToolView::Memory(_)
            ));
    if quote && !output.trim().is_empty() {
        line.push_str(&format!(": {}", one_line(output, 120)));
    }
    line
}

/// A call a kept rule let run without asking.
pub fn allowed_line(rules: &[String]) -> String {
    let quoted: Vec<String> = rules.iter().map(|rule| format!("`{rule}`")).collect();
    format!(
        "  allowed by {} {}",
        if rules.len() == 1 { "rule" } else { "rules" },
        quoted.join(", ")
    )
}

fn in_transcript(event: &AgentEvent) -> bool {
    !matches!(
        event,
        AgentEvent::TextDelta { .. }
            | AgentEvent::ReasoningDelta { .. }
            | AgentEvent::ToolCallBegin { .. }
            | AgentEvent::ToolCallArgsDelta { .. }
    )
}

pub fn print_checkpoints(list: &[CheckpointSummary]) {
    if list.is_empty() {
        println!("No checkpoints: the agent has not changed any file in this session.");
        return;
    }
    println!(
        "{:>6}  {:>6}  {:<19}  {:<16}  FILES",
        "ID", "SEQ", "TIME", "BY"
    );
    for c in list {
        let files = match c.files.len() {
            0 => String::new(),
            1..=3 => c.files.join(", "),
            n => format!("{}, … ({n} files)", c.files[..3].join(", ")),
        };
        println!(
            "{:>6}  {:>6}  {:<19}  {:<16}  {files}",
            c.id,
            c.seq,
            when(c.created_ms),
            one_line(&c.source, 16)
        );
    }
}

pub fn print_restore(report: &RestoreReport, dry_run: bool) {
    if report.files.is_empty() && report.session.is_none() {
        println!("Nothing to restore: the agent changed no file after that point.");
    }
    for f in &report.files {
        let verb = match (f.action, dry_run) {
            (RestoreAction::Write, false) => "wrote",
            (RestoreAction::Write, true) => "would write",
            (RestoreAction::Delete, false) => "deleted",
            (RestoreAction::Delete, true) => "would delete",
            (RestoreAction::Conflict, _) => "conflict",
            (RestoreAction::NotRestorable, _) => "skipped",
            (RestoreAction::Unchanged, _) => "unchanged",
        };
        match &f.detail {
            Some(detail) => println!("{verb:>12}  {} ({detail})", f.path),
            None => println!("{verb:>12}  {}", f.path),
        }
    }
    if report
        .files
        .iter()
        .any(|f| f.action == RestoreAction::Conflict)
    {
        println!("Conflicting files were left as they are; name them with --overwrite PATH to restore them anyway.");
    }
    if let Some(checkpoint) = report.undo_checkpoint {
        println!("Undo with: memo-cli sessions restore ID --undo {checkpoint}");
    }
    if let Some(session) = &report.session {
        println!("Conversation restored as session {}", session.id);
    }
}

#[cfg(test)]
mod tests {
    use super::hook_lines;
    use memo_protocol::{AgentEvent, HookEventName, HookRunStatus, HookRunSummary, HookVerdict};

    #[test]
    fn hook_lines_say_which_hook_did_what() {
        let run = |status, exit_code, decision, message: Option<&str>| HookRunSummary {
            command: "./guard.sh".into(),
            source: "/home/u/.claude/settings.json".into(),
            status,
            exit_code,
            duration_ms: 12,
            decision,
            message: message.map(str::to_owned),
        };
        let event = AgentEvent::HookRan {
            event: HookEventName::PreToolUse,
            call_id: None,
            hooks: vec![
                run(
                    HookRunStatus::Blocked,
                    Some(2),
                    Some(HookVerdict::Block),
                    Some("no rm"),
                ),
                run(HookRunStatus::Ok, Some(0), None, None),
                run(HookRunStatus::Failed, Some(1), None, Some("oops")),
            ],
            decision: Some(HookVerdict::Block),
            reason: Some("no rm".into()),
            stopped: false,
            for_model: None,
        };
        assert_eq!(
            hook_lines(&event),
            [
                "hook PreToolUse · ./guard.sh blocked: no rm",
                "hook PreToolUse · ./guard.sh ok (12 ms)",
                "hook PreToolUse · ./guard.sh failed (exit 1): oops",
            ]
        );
    }
}
