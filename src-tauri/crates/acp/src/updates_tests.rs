use serde_json::{json, Value};

use super::*;
use memo_protocol::{ToolCallId, UserInput};

fn as_json(updates: Vec<acp::SessionUpdate>) -> Vec<Value> {
    updates
        .into_iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect()
}

fn view(value: Value) -> ToolView {
    serde_json::from_value(value).unwrap()
}

fn id(call: &str) -> ToolCallId {
    ToolCallId::new(call.to_owned())
}

#[test]
fn text_and_thinking_are_chunks_and_the_user_speaks_only_in_a_replay() {
    let mut live = Translator::new("/w", false);
    let turn = AgentEvent::TurnStarted {
        input: UserInput::text("hi"),
    };
    assert!(live.updates(&turn).is_empty());
    let got = as_json(live.updates(&AgentEvent::TextDelta {
        delta: "Hel".into(),
    }));
    assert_eq!(
        got,
        [
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Hel"}})
        ]
    );
    let got = as_json(live.updates(&AgentEvent::ReasoningDelta {
        delta: "hmm".into(),
    }));
    assert_eq!(got[0]["sessionUpdate"], "agent_thought_chunk");
    let mut replay = Translator::new("/w", true);
    let got = as_json(replay.updates(&turn));
    assert_eq!(
        got,
        [json!({"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "hi"}})]
    );
}

#[test]
fn an_edit_is_an_edit_call_with_its_diff_and_the_line_it_starts_at() {
    let mut t = Translator::new("/w", false);
    let begin = as_json(t.updates(&AgentEvent::ToolCallBegin {
        call_id: id("c1"),
        name: "edit_file".into(),
    }));
    assert_eq!(begin[0]["sessionUpdate"], "tool_call");
    assert_eq!(begin[0]["toolCallId"], "c1");
    // Pending is the protocol's default, left out on the wire.
    assert!(
        begin[0].get("status").is_none_or(|s| s == "pending"),
        "{begin:?}"
    );
    t.updates(&AgentEvent::ToolCallArgsDelta {
        call_id: id("c1"),
        delta: "{\"path\":\"src/a.rs\"}".into(),
    });
    let edit = view(json!({
        "type": "file_edit",
        "files": [{
            "path": "src/a.rs",
            "change": {"kind": "modify"},
            "diff": {
                "path": "src/a.rs",
                "unified": "",
                "hunks": [
                    {"index": 0, "header": "@@ -3,3 +3,3 @@", "text": " a\n-b\n+B\n c\n"},
                    {"index": 1, "header": "@@ -20,1 +20,2 @@", "text": " y\n+z\n"}
                ]
            }
        }]
    }));
    let got = as_json(t.updates(&AgentEvent::ToolCallView {
        call_id: id("c1"),
        view: edit.clone(),
    }));
    assert_eq!(got[0]["sessionUpdate"], "tool_call_update");
    assert_eq!(got[0]["kind"], "edit");
    assert_eq!(got[0]["title"], "edit src/a.rs");
    assert_eq!(
        got[0]["locations"],
        json!([{"path": "/w/src/a.rs", "line": 3}])
    );
    assert_eq!(got[0]["rawInput"], json!({"path": "src/a.rs"}));
    assert_eq!(
        got[0]["content"],
        json!([{"type": "diff", "path": "/w/src/a.rs", "oldText": "a\nb\nc\n⋮\ny", "newText": "a\nB\nc\n⋮\ny\nz"}])
    );
}

#[test]
fn a_person_taking_one_hunk_shows_only_that_hunk_written() {
    let mut t = Translator::new("/w", false);
    let mut edit = json!({
        "type": "file_edit",
        "files": [{
            "path": "a.txt",
            "change": {"kind": "modify"},
            "diff": {"path": "a.txt", "unified": "", "hunks": [
                {"index": 0, "header": "@@ -1 +1 @@", "text": "-a\n+A\n"},
                {"index": 1, "header": "@@ -9 +9 @@", "text": "-i\n+I\n"}
            ]},
            "applied_hunks": [1]
        }]
    });
    let end = AgentEvent::ToolCallEnd {
        call_id: id("c2"),
        name: "edit_file".into(),
        status: ToolStatus::Ok,
        error_kind: None,
        view: Some(view(edit.take())),
        output: "edited".into(),
        full_length: None,
    };
    let got = as_json(t.updates(&end));
    assert_eq!(got[0]["status"], "completed");
    assert_eq!(got[0]["content"][0]["oldText"], "i");
    assert_eq!(got[0]["content"][0]["newText"], "I");
    assert_eq!(got[0]["rawOutput"], "edited");
}

#[test]
fn a_command_streams_its_output_and_ends_with_its_own_output_not_the_models_header() {
    let mut t = Translator::new("/w", false);
    t.updates(&AgentEvent::ToolCallBegin {
        call_id: id("c3"),
        name: "exec_command".into(),
    });
    let live = as_json(t.updates(&AgentEvent::ToolOutput {
        call_id: id("c3"),
        chunk: "running 2 tests\n".into(),
    }));
    assert_eq!(live[0]["status"], "in_progress");
    assert_eq!(
        live[0]["content"][0]["content"]["text"],
        "```\nrunning 2 tests\n```"
    );
    let output = "Exit code: 1\nOutput:\ntest failed\n";
    let start = output.find("test failed").unwrap() as u64;
    let command = view(json!({
        "type": "command",
        "command": "cargo test",
        "sandboxed": true,
        "state": {"state": "exited", "code": 1},
        "duration_ms": 1200,
        "output": {"start": start, "end": output.len()}
    }));
    let end = AgentEvent::ToolCallEnd {
        call_id: id("c3"),
        name: "exec_command".into(),
        status: ToolStatus::Ok,
        error_kind: None,
        view: Some(command),
        output: output.into(),
        full_length: None,
    };
    let got = as_json(t.updates(&end));
    assert_eq!(got[0]["kind"], "execute");
    assert_eq!(got[0]["title"], "$ cargo test");
    // A non-zero exit is a failed call, whatever the tool reported.
    assert_eq!(got[0]["status"], "failed");
    assert_eq!(
        got[0]["content"],
        json!([{"type": "content", "content": {"type": "text", "text": "```\ntest failed\n```"}}])
    );
}

#[test]
fn files_a_command_changed_become_its_locations() {
    let mut t = Translator::new("/w", false);
    t.updates(&AgentEvent::ToolCallBegin {
        call_id: id("c4"),
        name: "exec_command".into(),
    });
    let changed: Vec<FileChange> = serde_json::from_value(json!([{
        "path": "gen/out.rs", "kind": "created", "sources": [], "restorable": true, "binary": false, "added": 3, "removed": 0
    }]))
    .unwrap();
    let got = as_json(t.updates(&AgentEvent::FilesChanged {
        call_id: Some(id("c4")),
        checkpoint: 2,
        changes: changed,
    }));
    assert_eq!(got[0]["locations"], json!([{"path": "/w/gen/out.rs"}]));
}

#[test]
fn reads_and_searches_point_at_their_places_and_the_plan_is_a_plan() {
    let mut t = Translator::new("/w", false);
    let read = view(
        json!({"type": "read", "path": "/abs/b.py", "start_line": 10, "end_line": 40, "truncated": false}),
    );
    let got = as_json(t.updates(&AgentEvent::ToolCallView {
        call_id: id("r"),
        view: read,
    }));
    assert_eq!(got[0]["kind"], "read");
    assert_eq!(
        got[0]["locations"],
        json!([{"path": "/abs/b.py", "line": 10}])
    );
    let search = view(
        json!({"type": "search", "pattern": "todo", "first": [{"path": "a.rs", "line": 2}, {"path": "b.rs"}], "truncated": false}),
    );
    let got = as_json(t.updates(&AgentEvent::ToolCallView {
        call_id: id("s"),
        view: search,
    }));
    assert_eq!(got[0]["kind"], "search");
    assert_eq!(
        got[0]["locations"],
        json!([{"path": "/w/a.rs", "line": 2}, {"path": "/w/b.rs"}])
    );
    let plan = AgentEvent::PlanUpdated {
        explanation: None,
        plan: serde_json::from_value(json!([{"step": "read", "status": "completed"}, {"step": "fix", "status": "in_progress"}])).unwrap(),
    };
    let got = as_json(t.updates(&plan));
    assert_eq!(
        got[0],
        json!({"sessionUpdate": "plan", "entries": [
            {"content": "read", "priority": "medium", "status": "completed"},
            {"content": "fix", "priority": "medium", "status": "in_progress"}
        ]})
    );
}

#[test]
fn a_long_running_command_keeps_only_the_tail_it_shows() {
    let mut t = Translator::new("/w", false);
    t.updates(&AgentEvent::ToolCallBegin {
        call_id: id("c5"),
        name: "exec_command".into(),
    });
    let line = "x".repeat(1023) + "\n";
    let mut last = Vec::new();
    for n in 0..200 {
        last = as_json(t.updates(&AgentEvent::ToolOutput {
            call_id: id("c5"),
            chunk: format!("{n:03}{line}"),
        }));
    }
    let shown = last[0]["content"][0]["content"]["text"].as_str().unwrap();
    assert!(shown.len() <= LIVE_OUTPUT_TAIL + 8, "{}", shown.len());
    assert!(shown
        .trim_end_matches("\n```")
        .ends_with(&format!("199{}", line.trim_end())));
    assert!(t.calls["c5"].output.len() <= 2 * LIVE_OUTPUT_TAIL);
}
