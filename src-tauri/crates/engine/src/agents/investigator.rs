//! The codebase investigator: a read-only subagent that maps the code relevant to a
//! question and ends with a structured report (Gemini CLI's limits: at most 15 model
//! calls and 5 minutes).
//!
//! It reads with `read_file`, `list_dir`, `grep_files` and `glob` only, and reports by
//! calling `complete_task` with the report's fields. The report is what its parent's
//! `wait` returns, as JSON; when it stops at a limit without reporting, its parent is
//! told which limit and gets its last words instead.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use memo_protocol::{AgentSource, RiskLevel};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::definitions::{AgentDefinition, RunLimits, INVESTIGATOR};
use crate::tools::{parse_args, Tool, ToolContext, ToolOutput, ToolResult};

/// Model calls the investigator may make in one task.
pub const MAX_TURNS: u32 = 15;
/// Wall-clock time it may take for one task.
pub const MAX_TIME: Duration = Duration::from_secs(5 * 60);
/// Overrides [`MAX_TIME`] (seconds), for a slow local model or a test.
pub const TIME_LIMIT_ENV: &str = "MEMO_INVESTIGATOR_TIME_LIMIT_SECS";

/// The tools it reads with (and nothing that writes or runs).
pub const READ_ONLY_TOOLS: &[&str] = &["read_file", "list_dir", "grep_files", "glob"];

pub const COMPLETE_TASK: &str = "complete_task";

const INSTRUCTIONS: &str = "\
You are the codebase investigator. Another agent is about to change this code and sent \
you to understand it first. Build a complete picture of the code that matters for the \
objective: the files, types and functions involved, why they are written the way they \
are, and what else would have to change with them (callers of a function, users of a \
type). Follow the references; do not stop at the first file that looks right.

You can only read: list folders, search, and read files. You do not write the change.

When you understand enough, call `complete_task` once with your report:
- summary: the answer for the other agent: the root cause of a bug and how to fix it, \
or where and how a feature fits, with the risks;
- exploration_trace: the steps you took, one line each;
- relevant_locations: every file that matters, with why, and its key symbols.
You have at most 15 model calls and 5 minutes: report before you run out.";

/// The built-in definition.
pub fn definition() -> AgentDefinition {
    AgentDefinition {
        name: INVESTIGATOR.into(),
        description: "Read-only: maps the code relevant to a question (a bug to fix, a \
                      feature to add) and returns a structured report of the files, \
                      symbols and consequences. Use it before changing code you do not \
                      know yet."
            .into(),
        source: AgentSource::Builtin,
        path: None,
        tools: Some(READ_ONLY_TOOLS.iter().map(|t| (*t).to_owned()).collect()),
        model: None,
        instructions: INSTRUCTIONS.into(),
        limits: RunLimits {
            max_steps: Some(MAX_TURNS),
            max_time: Some(MAX_TIME),
        },
        reports: true,
    }
}

/// One file in the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub file_path: String,
    pub reasoning: String,
    #[serde(default)]
    pub key_symbols: Vec<String>,
}

/// What the investigator hands back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub summary: String,
    #[serde(default)]
    pub exploration_trace: Vec<String>,
    #[serde(default)]
    pub relevant_locations: Vec<Location>,
}

/// Where `complete_task` leaves the report for the subagent's runtime.
#[derive(Debug, Default)]
pub struct ReportSlot(Mutex<Option<Report>>);

impl ReportSlot {
    pub fn take(&self) -> Option<Report> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    fn put(&self, report: Report) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
    }
}

/// `complete_task`: the investigator's way to end with its report.
pub struct CompleteTaskTool {
    slot: Arc<ReportSlot>,
}

impl CompleteTaskTool {
    pub fn new(slot: Arc<ReportSlot>) -> Self {
        Self { slot }
    }
}

impl Tool for CompleteTaskTool {
    fn name(&self) -> &str {
        COMPLETE_TASK
    }

    fn description(&self) -> &str {
        "Ends the investigation with your report for the agent that sent you. Call it once, \
         when you are done."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "summary": {"type": "string", "minLength": 1},
                "exploration_trace": {"type": "array", "items": {"type": "string"}},
                "relevant_locations": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "file_path": {"type": "string", "minLength": 1},
                            "reasoning": {"type": "string"},
                            "key_symbols": {"type": "array", "items": {"type": "string"}}
                        },
                        "required": ["file_path", "reasoning"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["summary"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn parallel_safe(&self) -> bool {
        false
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let result = parse_args::<Report>(COMPLETE_TASK, args).map(|report| {
            self.slot.put(report);
            ToolOutput::text(
                "Report received; the investigation is over. Reply with one short line and \
                 call no more tools.",
            )
        });
        Box::pin(async move { result })
    }
}

/// The investigator's time limit: [`TIME_LIMIT_ENV`] seconds when set and valid.
pub(crate) fn time_limit_from(env: &crate::options::EnvLookup) -> Option<std::time::Duration> {
    env(TIME_LIMIT_ENV)
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map(std::time::Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_report_lands_in_the_slot_and_a_bad_one_is_refused() {
        let slot = Arc::new(ReportSlot::default());
        let tool = CompleteTaskTool::new(slot.clone());
        let ctx = ToolContext::for_workspace(std::env::temp_dir());
        let bad = tool
            .run(ctx.clone(), json!({"relevant_locations": []}))
            .await;
        assert!(bad.is_err());
        assert!(slot.take().is_none());
        let report = json!({
            "summary": "The bug is in parse()",
            "relevant_locations": [{"file_path": "src/a.rs", "reasoning": "defines parse", "key_symbols": ["parse"]}]
        });
        tool.run(ctx, report).await.unwrap();
        let got = slot.take().unwrap();
        assert_eq!(got.relevant_locations[0].key_symbols, vec!["parse"]);
        assert!(got.exploration_trace.is_empty());
    }
}
