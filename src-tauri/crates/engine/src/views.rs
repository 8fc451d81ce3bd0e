//! Tool views for stored events written before calls carried them: one migration, run
//! when a session's events are read, so an old session's cards render like a new one's.
//!
//! A `tool_call_end` without a view gets the call's last `tool_call_view` when the log
//! has one (a call the engine closed after a crash), else the view its tool gives its
//! arguments, with what the old result text says (a command's exit code, time and where
//! its output starts; the agents a collab call reported). An edit's diff comes from what
//! the checkpoint saw the call write (`files_changed`), never from the file as it is now.
//! This is the one place Memo reads the text it wrote for the model.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use memo_protocol::{
    AgentEvent, AgentLine, CommandView, EventEnvelope, FileChange, FileEditView, OutputRange,
    SubagentState, SubagentView, ToolView,
};

use crate::agents::collab;
use crate::tools::exec::output::parse_response;
use crate::tools::{
    every_builtin, read_lines_in_result, search_matches_in_result, ToolContext, ToolRegistry,
};

fn registry() -> &'static ToolRegistry {
    static TOOLS: OnceLock<ToolRegistry> = OnceLock::new();
    TOOLS.get_or_init(every_builtin)
}

/// Fills in the view of every `tool_call_end` in `events` that has none. `cwd` is the
/// session's folder (paths are shown relative to it).
pub fn fill_missing(events: &mut [EventEnvelope], cwd: &Path) {
    let missing = |e: &EventEnvelope| matches!(e.event, AgentEvent::ToolCallEnd { view: None, .. });
    if !events.iter().any(missing) {
        return;
    }
    let ctx = ToolContext::for_workspace(cwd);
    // What each call was seen to write, wherever in the log it was recorded.
    let mut written: HashMap<String, Vec<FileChange>> = HashMap::new();
    for envelope in events.iter() {
        if let AgentEvent::FilesChanged {
            call_id: Some(call_id),
            changes,
            ..
        } = &envelope.event
        {
            written
                .entry(call_id.0.clone())
                .or_default()
                .extend(changes.iter().cloned());
        }
    }
    let mut asked: HashMap<String, String> = HashMap::new();
    let mut announced: HashMap<String, ToolView> = HashMap::new();
    for envelope in events.iter_mut() {
        match &mut envelope.event {
            AgentEvent::AssistantMessage { tool_calls, .. } => {
                for call in tool_calls {
                    asked.insert(call.call_id.0.clone(), call.arguments.clone());
                }
            }
            AgentEvent::ToolCallView { call_id, view } => {
                announced.insert(call_id.0.clone(), view.clone());
            }
            AgentEvent::ToolCallEnd {
                call_id,
                name,
                view: slot @ None,
                output,
                ..
            } => {
                let mut view = match announced.remove(&call_id.0) {
                    Some(view) => view,
                    None => {
                        let args = asked.get(&call_id.0).map_or("", String::as_str);
                        derive(&ctx, name, args, output)
                    }
                };
                if let (ToolView::FileEdit(edit), Some(changes)) =
                    (&mut view, written.get(&call_id.0))
                {
                    with_written_diffs(edit, changes);
                }
                *slot = Some(view);
            }
            _ => {}
        }
    }
}

/// Gives each edited file without a diff the one the checkpoint recorded for it (by path;
/// a single file and a single change pair up whatever their spelling).
fn with_written_diffs(edit: &mut FileEditView, changes: &[FileChange]) {
    let single = edit.files.len() == 1 && changes.len() == 1;
    for file in edit.files.iter_mut().filter(|file| file.diff.is_none()) {
        let change = changes
            .iter()
            .find(|change| change.path == file.path)
            .or_else(|| single.then(|| &changes[0]));
        if let Some(change) = change {
            file.diff = change.diff.clone();
        }
    }
}

/// The view of a stored call: from its tool and arguments, then its result's text.
pub fn derive(ctx: &ToolContext, name: &str, arguments: &str, output: &str) -> ToolView {
    let args: serde_json::Value = match arguments.trim() {
        "" => serde_json::Value::Object(Default::default()),
        raw => serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.into())),
    };
    let view = if !args.is_object() {
        ToolView::other(name, &args)
    } else if let Some(view) = collab::asked_view(name, &args) {
        view
    } else {
        match registry().get(name) {
            Some(tool) => tool.view(ctx, &args),
            None => ToolView::other(name, &args),
        }
    };
    with_result(view, output)
}

fn with_result(view: ToolView, output: &str) -> ToolView {
    match view {
        ToolView::Command(command) => ToolView::Command(command_result(command, output)),
        ToolView::Subagent(agents) => ToolView::Subagent(collab_result(agents, output)),
        ToolView::Read(mut read) => {
            if let Some((start, end)) = read_lines_in_result(output) {
                read.start_line = Some(start);
                read.end_line = Some(end);
            }
            ToolView::Read(read)
        }
        ToolView::Search(mut search) => {
            let (matches, first) = search_matches_in_result(output);
            if matches.is_some() {
                search.matches = matches;
                search.first = first;
            }
            ToolView::Search(search)
        }
        other => other,
    }
}

/// An exec-format result, maybe after an error's preamble ("Error (timeout): … killed\n").
fn command_result(mut command: CommandView, output: &str) -> CommandView {
    let Some(at) = output
        .find("Chunk ID: ")
        .or_else(|| output.find("Wall time: "))
    else {
        return command;
    };
    let Some((state, wall, printed)) = parse_response(&output[at..]) else {
        return command;
    };
    let printed = at + printed;
    command.state = state.command_state();
    command.duration_ms = Some((wall * 1000.0).round() as u64);
    command.output = Some(OutputRange {
        start: printed as u64,
        end: output.len() as u64,
    });
    command
}

/// The agents a collab call's JSON result lists (or the one it is about).
fn collab_result(mut view: SubagentView, output: &str) -> SubagentView {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(output) else {
        return view;
    };
    let line = |v: &serde_json::Value| -> Option<AgentLine> {
        let text = |key: &str| v.get(key).and_then(|x| x.as_str()).map(str::to_owned);
        Some(AgentLine {
            agent_id: text("agent_id")?,
            agent_type: text("agent_type"),
            state: v
                .get("state")
                .and_then(|s| serde_json::from_value::<SubagentState>(s.clone()).ok()),
            answer: text("answer"),
            message: text("message"),
        })
    };
    let agents: Vec<AgentLine> = match value.get("agents").and_then(|a| a.as_array()) {
        Some(list) => list.iter().filter_map(line).collect(),
        None => line(&value).into_iter().collect(),
    };
    if !agents.is_empty() {
        view.agents = agents;
    }
    view.timed_out = value.get("timed_out").and_then(|t| t.as_bool()) == Some(true);
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::CommandState;

    #[test]
    fn an_old_exec_result_gives_its_exit_time_and_output() {
        let ctx = ToolContext::for_workspace("/w");
        let out = "Chunk ID: ab12\nWall time: 0.5000 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nboom\n";
        let ToolView::Command(view) = derive(&ctx, "exec_command", r#"{"cmd":"make"}"#, out) else {
            panic!("a command")
        };
        assert_eq!(view.command, "make");
        assert_eq!(view.state, CommandState::Exited { code: 2 });
        assert_eq!(view.duration_ms, Some(500));
        assert_eq!(view.output.map(|r| r.of(out)), Some("boom\n"));
        let timed = format!("Error (timeout): the command ran past its timeout and its process group was killed\n{}", out.replace("code 2", "code -1 (signal: SIGKILL)"));
        let ToolView::Command(view) = derive(&ctx, "exec_command", r#"{"cmd":"sleep 9"}"#, &timed)
        else {
            panic!("a command")
        };
        assert_eq!(
            view.state,
            CommandState::Killed {
                signal: "SIGKILL".into(),
                code: Some(-1)
            }
        );
        assert_eq!(view.output.map(|r| r.of(&timed)), Some("boom\n"));
    }

    #[test]
    fn unknown_tools_and_bad_arguments_are_shown_as_they_came() {
        let ctx = ToolContext::for_workspace("/w");
        assert_eq!(
            derive(&ctx, "github__create_issue", r#"{"title":"x"}"#, "ok"),
            ToolView::other("github__create_issue", &serde_json::json!({"title": "x"}))
        );
        assert!(matches!(
            derive(&ctx, "read_file", "{not json", ""),
            ToolView::Other(_)
        ));
    }
}
