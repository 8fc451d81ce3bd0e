//! A session stored before tool calls carried views still reads as typed views: the
//! fixture is a real session's log in the format written until then (memo-cli exec against
//! the mock model: a failing command, a read, a search, a two-hunk patch, a subagent
//! spawned and waited for), with no `tool_call_view` events and no `view` on any end.

use std::path::Path;

use memo_engine::views::fill_missing;
use memo_protocol::{
    AgentEvent, CommandState, EditKind, EventEnvelope, SubagentAction, SubagentState, ToolView,
};

fn fixture() -> Vec<EventEnvelope> {
    let text = include_str!("fixtures/session_before_views.jsonl");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a stored envelope"))
        .collect()
}

/// Each call's name, view and output, in order.
fn ends(events: &[EventEnvelope]) -> Vec<(String, ToolView, String)> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                name, view, output, ..
            } => Some((name.clone(), view.clone().expect("filled"), output.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn an_old_session_gets_the_views_a_new_one_carries() {
    let mut events = fixture();
    assert!(
        events.iter().all(|e| !matches!(
            e.event,
            AgentEvent::ToolCallEnd { view: Some(_), .. } | AgentEvent::ToolCallView { .. }
        )),
        "the fixture is from before views"
    );
    fill_missing(&mut events, Path::new("/tmp/fx/work"));
    let ends = ends(&events);
    let names: Vec<&str> = ends.iter().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "exec_command",
            "read_file",
            "grep_files",
            "apply_patch",
            "spawn_agent",
            "wait"
        ]
    );

    let ToolView::Command(command) = &ends[0].1 else {
        panic!("{:?}", ends[0].1)
    };
    assert_eq!(command.command, "echo built; exit 2");
    assert_eq!(command.state, CommandState::Exited { code: 2 });
    assert!(command.duration_ms.is_some());
    let printed = command.output.expect("where its output is").of(&ends[0].2);
    assert_eq!(printed, "built\n", "the header for the model left out");

    let ToolView::Read(read) = &ends[1].1 else {
        panic!("{:?}", ends[1].1)
    };
    assert_eq!(read.path, "main.rs");
    assert_eq!((read.start_line, read.end_line), (Some(1), Some(11)));

    let ToolView::Search(search) = &ends[2].1 else {
        panic!("{:?}", ends[2].1)
    };
    assert_eq!(search.pattern, "TODO");
    assert_eq!(search.matches, Some(1));
    assert_eq!(search.first[0].path, "notes.txt");
    assert_eq!(search.first[0].line, Some(2));

    // The diff is what the checkpoint saw written then, both hunks with their lines.
    let ToolView::FileEdit(edit) = &ends[3].1 else {
        panic!("{:?}", ends[3].1)
    };
    assert_eq!(edit.files.len(), 1);
    assert_eq!(edit.files[0].path, "main.rs");
    assert_eq!(edit.files[0].change, EditKind::Modify);
    let diff = edit.files[0].diff.as_ref().expect("the written diff");
    assert_eq!(diff.hunks.len(), 2);
    assert_eq!(diff.line_counts(), (2, 2));
    assert!(diff.hunks[0].text.contains("+    println!(\"uno\");"));

    let ToolView::Subagent(spawn) = &ends[4].1 else {
        panic!("{:?}", ends[4].1)
    };
    assert_eq!(spawn.action, SubagentAction::Spawn);
    assert_eq!(spawn.task.as_deref(), Some("Count the files"));
    assert!(spawn.agents[0].agent_id.starts_with("agent-"));

    let ToolView::Subagent(wait) = &ends[5].1 else {
        panic!("{:?}", ends[5].1)
    };
    assert_eq!(wait.action, SubagentAction::WaitFor);
    assert_eq!(wait.agents[0].state, Some(SubagentState::Finished));
    assert_eq!(wait.agents[0].answer.as_deref(), Some("There are 2 files."));
    assert!(!wait.timed_out);
}

#[test]
fn filling_twice_changes_nothing() {
    let mut once = fixture();
    fill_missing(&mut once, Path::new("/tmp/fx/work"));
    let mut twice = once.clone();
    fill_missing(&mut twice, Path::new("/tmp/fx/work"));
    assert_eq!(
        serde_json::to_string(&once).unwrap(),
        serde_json::to_string(&twice).unwrap()
    );
}
