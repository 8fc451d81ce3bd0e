//! Importing Memo Code's JSONL sessions and exporting ours in their format.

use std::path::{Path, PathBuf};

use memo_protocol::{AgentEvent, SessionId, ToolErrorKind, ToolStatus, TurnEndReason};
use memo_store::memo_code::{ImportStatus, ORIGIN};
use memo_store::{SearchQuery, Store};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/memo_code/sessions")
}

/// A copy of the fixture tree, so tests can change files.
fn sessions_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("sessions");
    for project in std::fs::read_dir(fixtures()).unwrap() {
        let project = project.unwrap().path();
        let target = root.join(project.file_name().unwrap());
        std::fs::create_dir_all(&target).unwrap();
        for file in std::fs::read_dir(&project).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, target.join(file.file_name().unwrap())).unwrap();
        }
    }
    (dir, root)
}

fn kinds(store: &Store, id: &SessionId) -> Vec<&'static str> {
    store
        .all_events(id)
        .unwrap()
        .iter()
        .map(|e| e.event.kind())
        .collect()
}

#[test]
fn imports_the_project_layout_skipping_malformed_lines() {
    let (_dir, root) = sessions_copy();
    let store = Store::open_in_memory().unwrap();
    let report = store.import_memo_code_dir(&root);
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(report.files.len(), 3);

    let by_origin = |id: &str| {
        report
            .files
            .iter()
            .find(|f| f.origin_id == id)
            .unwrap_or_else(|| panic!("{id} not in {report:#?}"))
    };
    let first = by_origin("5f0c1d2e-aaaa-4bbb-8ccc-000000000001");
    assert_eq!(first.status, ImportStatus::New);
    let lines: Vec<usize> = first.skipped_lines.iter().map(|l| l.line).collect();
    // Not JSON, not an object, a result for a call never made, no type, cut mid-line.
    assert_eq!(lines, [8, 11, 14, 19, 26], "{:#?}", first.skipped_lines);
    assert!(first.skipped_lines[2]
        .reason
        .contains("without a matching action"));
    assert_eq!(report.skipped_lines(), 5);

    let empty = by_origin("empty-0003");
    assert_eq!(empty.status, ImportStatus::Empty);
    assert_eq!(empty.session_id, None);

    // The session: read-only, in the right workspace, titled, with Memo Code's turns.
    let id = first.session_id.clone().unwrap();
    assert_eq!(id.as_str(), "mc-5f0c1d2e-aaaa-4bbb-8ccc-000000000001");
    let record = store.session(&id).unwrap().unwrap();
    assert!(record.read_only);
    assert_eq!(record.origin.as_deref(), Some(ORIGIN));
    assert_eq!(record.cwd, "/home/me/proj");
    assert_eq!(record.title.as_deref(), Some("Quicksort in Rust"));
    assert_eq!(record.created_ms, 1_771_863_741_144);
    assert_eq!(
        kinds(&store, &id),
        [
            "session_started",
            "turn_started",
            "usage",
            "assistant_message",
            "tool_call_end",
            "usage",
            "assistant_message",
            "tool_call_end",
            "tool_call_end",
            "usage",
            "assistant_message",
            "turn_ended",
            "turn_started",
            "usage",
            "assistant_message",
            "tool_call_end",
            "turn_ended"
        ]
    );
    let events = store.all_events(&id).unwrap();
    match &events[6].event {
        AgentEvent::AssistantMessage { tool_calls, .. } => {
            let names: Vec<&str> = tool_calls.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["apply_patch", "exec_command"]);
            assert_eq!(tool_calls[1].call_id.as_str(), "call_exec_3");
            assert_eq!(tool_calls[1].arguments, r#"{"cmd":"cargo test"}"#);
        }
        other => panic!("{other:?}"),
    }
    // The cancelled turn's dangling call got an "interrupted" result.
    match &events[15].event {
        AgentEvent::ToolCallEnd {
            call_id,
            status,
            error_kind,
            ..
        } => {
            assert_eq!(call_id.as_str(), "call_bench_4");
            assert_eq!(*status, ToolStatus::Error);
            assert_eq!(*error_kind, Some(ToolErrorKind::Interrupted));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        events[16].event,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Interrupted,
            ..
        }
    ));
    match &events[11].event {
        AgentEvent::TurnEnded { reason, usage } => {
            assert_eq!(*reason, TurnEndReason::Completed);
            assert_eq!(usage.input_tokens, 3900);
        }
        other => panic!("{other:?}"),
    }

    // The other project: a denied call, and a failed model call whose message Memo Code
    // kept in the conversation.
    let second = by_origin("7e7e7e7e-bbbb-4ccc-8ddd-000000000002");
    assert!(second.skipped_lines.is_empty());
    let id2 = second.session_id.clone().unwrap();
    assert_eq!(
        store.session(&id2).unwrap().unwrap().cwd,
        "/home/me/other-app"
    );
    let events2 = store.all_events(&id2).unwrap();
    assert!(matches!(
        events2[4].event,
        AgentEvent::ToolCallEnd {
            error_kind: Some(ToolErrorKind::ApprovalDenied),
            ..
        }
    ));
    assert!(matches!(
        &events2[7].event,
        AgentEvent::AssistantMessage { text, .. } if text.starts_with("LLM call failed")
    ));
    assert_eq!(events2.len(), 9);

    // Imported history is searchable and its usage counted.
    let hits = store.search(&SearchQuery::new("快速排序")).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session_id, id);
    assert_eq!(store.usage_summary(Some(&id)).unwrap().calls(), 4);
    assert_eq!(
        store
            .list_sessions(Some("/home/me/proj"), 10, 0)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn reimport_is_idempotent_and_picks_up_growth() {
    let (_dir, root) = sessions_copy();
    let store = Store::open_in_memory().unwrap();
    store.import_memo_code_dir(&root);
    let again = store.import_memo_code_dir(&root);
    assert!(again
        .files
        .iter()
        .all(|f| matches!(f.status, ImportStatus::Unchanged | ImportStatus::Empty)));
    assert_eq!(store.count_sessions(None).unwrap(), 2);

    let file = root
        .join("-home-me-other_app/2026-03-01T09-00-00-7e7e7e7e-bbbb-4ccc-8ddd-000000000002.jsonl");
    let id = SessionId::new("mc-7e7e7e7e-bbbb-4ccc-8ddd-000000000002");
    store.set_title(&id, "renamed here").unwrap();
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(concat!(
        r#"{"ts":"2026-03-01T10:00:00.000Z","sessionId":"7e7e7e7e-bbbb-4ccc-8ddd-000000000002","turn":3,"type":"turn_start","content":"one more"}"#,
        "\n"
    ));
    std::fs::write(&file, text).unwrap();
    let grown = store.import_memo_code_file(&file).unwrap().unwrap();
    assert_eq!(grown.status, ImportStatus::Updated);
    assert_eq!(store.last_seq(&id).unwrap(), 11);
    let record = store.session(&id).unwrap().unwrap();
    assert_eq!(record.title.as_deref(), Some("renamed here"));
    assert_eq!(
        store.search(&SearchQuery::new("one more")).unwrap().len(),
        1
    );
    assert_eq!(store.count_sessions(None).unwrap(), 2);
}

#[test]
fn an_unreadable_folder_is_reported_not_fatal() {
    let store = Store::open_in_memory().unwrap();
    let report = store.import_memo_code_dir(Path::new("/nonexistent/memo/sessions"));
    assert!(report.files.is_empty());
    assert_eq!(report.failed.len(), 1);
}

#[test]
fn export_writes_memo_code_event_types() {
    let (_dir, root) = sessions_copy();
    let store = Store::open_in_memory().unwrap();
    store.import_memo_code_dir(&root);
    let id = SessionId::new("mc-5f0c1d2e-aaaa-4bbb-8ccc-000000000001");
    let mut out = Vec::new();
    let lines = store.export_memo_code(&id, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let parsed: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed.len() as u64, lines);
    let types: Vec<&str> = parsed.iter().map(|v| v["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "session_start",
            "session_title",
            "turn_start",
            "assistant",
            "action",
            "observation",
            "assistant",
            "action",
            "observation",
            "observation",
            "assistant",
            "final",
            "turn_end",
            "turn_start",
            "assistant",
            "action",
            "observation",
            "final",
            "turn_end",
            "session_end"
        ]
    );
    for v in &parsed {
        assert_eq!(v["sessionId"], id.as_str());
        assert!(v["ts"].as_str().unwrap().ends_with('Z'));
    }
    assert_eq!(parsed[0]["meta"]["cwd"], "/home/me/proj");
    assert_eq!(parsed[2]["turn"], 1);
    assert_eq!(parsed[3]["step"], 0);
    assert_eq!(parsed[7]["meta"]["parallel"], true);
    assert_eq!(
        parsed[7]["meta"]["toolBlocks"][1]["input"]["cmd"],
        "cargo test"
    );
    assert_eq!(parsed[8]["meta"]["status"], "success");
    assert_eq!(parsed[16]["meta"]["status"], "cancelled");
    assert_eq!(parsed[17]["meta"]["cancelled"], true);
    assert_eq!(parsed[18]["meta"]["status"], "cancelled");
    assert_eq!(parsed[12]["meta"]["tokens"]["inputTokens"], 3900);

    // Memo Code's own parser needs `ts` and `type` on every line; our importer reads the
    // export back to the same events.
    let back_dir = tempfile::tempdir().unwrap();
    let back = back_dir.path().join("-x/2026-01-01T00-00-00-again.jsonl");
    std::fs::create_dir_all(back.parent().unwrap()).unwrap();
    std::fs::write(&back, text.replace(id.as_str(), "again")).unwrap();
    let copy = store.import_memo_code_file(&back).unwrap().unwrap();
    assert!(copy.skipped_lines.is_empty(), "{:?}", copy.skipped_lines);
    let strip = |id: &SessionId| -> Vec<AgentEvent> {
        store
            .all_events(id)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect()
    };
    assert_eq!(strip(&copy.session_id.unwrap()), strip(&id));
}

#[test]
fn compactions_cross_both_ways_and_count_as_usage() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("-p/2026-02-23T16-22-21-cmp.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        concat!(
            r#"{"ts":"2026-02-23T16:22:21.000Z","sessionId":"cmp","turn":1,"type":"turn_start","content":"long task"}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:22:22.000Z","sessionId":"cmp","turn":1,"step":3,"type":"context_compact","content":"<state_snapshot>goal: finish</state_snapshot>","meta":{"reason":"auto","status":"success","before_tokens":90000,"after_tokens":3000,"tokens":{"inputTokens":90000,"outputTokens":800,"totalTokens":90800}}}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:22:23.000Z","sessionId":"cmp","turn":1,"step":4,"type":"context_compact","content":"","meta":{"reason":"manual","status":"failed","error_message":"boom","before_tokens":3000,"after_tokens":3000}}"#,
            "\n"
        ),
    )
    .unwrap();
    let store = Store::open_in_memory().unwrap();
    let id = store
        .import_memo_code_file(&file)
        .unwrap()
        .unwrap()
        .session_id
        .unwrap();
    let events = store.all_events(&id).unwrap();
    match &events[2].event {
        AgentEvent::ContextCompacted {
            trigger,
            status,
            summary,
            kept_messages,
            tokens_before,
            usage,
            ..
        } => {
            assert_eq!(*trigger, memo_protocol::CompactionTrigger::Auto);
            assert_eq!(*status, memo_protocol::CompactionStatus::Compacted);
            assert_eq!(
                summary.as_deref(),
                Some("<state_snapshot>goal: finish</state_snapshot>")
            );
            assert_eq!(*kept_messages, 0);
            assert_eq!(*tokens_before, 90000);
            assert_eq!(usage.output_tokens, 800);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        &events[3].event,
        AgentEvent::ContextCompacted { status: memo_protocol::CompactionStatus::Failed, message: Some(m), .. } if m == "boom"
    ));
    // The summarisation call is counted as a model call.
    assert_eq!(store.usage_summary(Some(&id)).unwrap().calls(), 1);

    // Ours -> Memo Code -> ours keeps every field.
    let mut out = Vec::new();
    store.export_memo_code(&id, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\"type\":\"context_compact\"").count(), 2);
    let again = dir.path().join("-p/2026-02-23T16-22-21-cmp2.jsonl");
    std::fs::write(&again, text.replace(id.as_str(), "cmp2")).unwrap();
    let id2 = store
        .import_memo_code_file(&again)
        .unwrap()
        .unwrap()
        .session_id
        .unwrap();
    let strip = |id: &SessionId| -> Vec<AgentEvent> {
        store
            .all_events(id)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect()
    };
    assert_eq!(strip(&id2), strip(&id));
}

#[test]
fn the_design_notes_message_lines_import_as_turns_with_their_calls() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("abc123.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"ts":"2026-02-23T16:22:21.144Z","sessionId":"abc123","turn":0,"step":0,"type":"user_message","content":"帮我写个快速排序","role":"user"}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:22:22.300Z","sessionId":"abc123","turn":0,"step":1,"type":"assistant_message","content":"好的，我来帮你实现快速排序算法。","role":"assistant","tool_calls":[{"id":"call_abc","type":"function","function":{"name":"write_file","arguments":"{\"file_path\":\"qs.js\"}"}}]}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:22:25.100Z","sessionId":"abc123","turn":0,"step":2,"type":"tool_result","content":"// 快速排序实现...","role":"tool","tool_call_id":"call_abc"}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:22:26.000Z","sessionId":"abc123","turn":0,"step":3,"type":"assistant_message","content":"写好了。","role":"assistant"}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:23:00.000Z","sessionId":"abc123","turn":1,"step":0,"type":"user_message","content":"谢谢","role":"user"}"#,
            "\n",
            r#"{"ts":"2026-02-23T16:23:01.000Z","sessionId":"abc123","turn":1,"step":1,"type":"assistant_message","content":"不客气","role":"assistant","tool_calls":[...]}"#,
            "\n",
        )
        .replace("[...]", "\"[...]\""),
    )
    .unwrap();
    let parsed = memo_store::memo_code::parse_file(&file).unwrap();
    assert!(parsed.has_turns);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    let kinds: Vec<&str> = parsed.events.iter().map(|(_, _, e)| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            "session_started",
            "turn_started",
            "assistant_message",
            "tool_call_end",
            "assistant_message",
            "turn_ended",
            "turn_started",
            "assistant_message",
            "turn_ended"
        ]
    );
    match &parsed.events[2].2 {
        AgentEvent::AssistantMessage {
            text, tool_calls, ..
        } => {
            assert_eq!(text, "好的，我来帮你实现快速排序算法。");
            assert_eq!(tool_calls[0].call_id.0, "call_abc");
            assert_eq!(tool_calls[0].name, "write_file");
            assert_eq!(tool_calls[0].arguments, r#"{"file_path":"qs.js"}"#);
        }
        other => panic!("{other:?}"),
    }
    match &parsed.events[3].2 {
        AgentEvent::ToolCallEnd { output, status, .. } => {
            assert_eq!(output, "// 快速排序实现...");
            assert_eq!(*status, ToolStatus::Ok);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parsed.events[8].2,
        AgentEvent::TurnEnded {
            reason: TurnEndReason::Completed,
            ..
        }
    ));
}
