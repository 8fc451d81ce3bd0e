//! Tool-call arguments with a small model's predictable mistakes: repaired when the intent
//! is unambiguous (and said so: an event, and a note in the result the model reads),
//! otherwise refused with the one-line fix.

mod common;

use common::*;
use memo_model::WireApi;
use memo_protocol::{AgentEvent, SessionId, ToolErrorKind, ToolStatus};
use memo_test_support::MockResponse;

const SOURCE: &str = "def f():\n    x = 1\n    return x\n\ndef g():\n    pass\n";
const NOTE: &str = "(Memo repaired the arguments: set mode to \"indentation\", which the indentation options need.)";

fn repairs_of(events: &[memo_protocol::EventEnvelope]) -> Vec<Vec<String>> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolArgsRepaired { repairs, .. } => Some(repairs.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn indentation_options_without_mode_are_repaired_and_the_model_is_told() {
    for api in ALL_APIS {
        let mut h = Harness::start(
            api,
            vec![
                MockResponse::tool_call(
                    "read_file",
                    r#"{"file_path": "a.py", "indentation": {"anchor_line": 2}}"#,
                ),
                MockResponse::text("done"),
            ],
        )
        .await;
        std::fs::write(h.workdir().join("a.py"), SOURCE).unwrap();
        let events = h.run_turn("show f").await;

        let kinds = kinds(&events);
        let repaired = kinds.iter().position(|k| *k == "tool_args_repaired");
        let ended = kinds.iter().position(|k| *k == "tool_call_end");
        assert!(
            repaired.is_some() && repaired < ended,
            "{api:?}: the repair is announced before the call ends: {kinds:?}"
        );
        assert_eq!(
            repairs_of(&events),
            vec![vec![
                "set mode to \"indentation\", which the indentation options need".to_owned()
            ]]
        );

        let ends = tool_ends(&events);
        assert_eq!(ends.len(), 1);
        let (_, status, kind, output) = &ends[0];
        assert_eq!(*status, ToolStatus::Ok, "{api:?}: {output}");
        assert_eq!(*kind, None);
        // Indentation mode ran: the block of line 2, not the whole file.
        assert!(output.contains("1\tdef f():"), "{output}");
        assert!(!output.contains("def g()"), "{output}");
        assert!(output.ends_with(&format!("\n{NOTE}")), "{output}");

        // The model reads the note with the result.
        let bodies = h.request_bodies();
        assert_eq!(bodies.len(), 2);
        let sent = sent_tool_results(api, &bodies[1]);
        assert_eq!(sent.len(), 1);
        assert!(!sent[0].is_error, "{:?}", sent[0]);
        assert!(
            sent[0].content.contains(NOTE),
            "{api:?}: {}",
            sent[0].content
        );

        // The event is stored like every other (a reopened session shows it), and the
        // history keeps the arguments as the model sent them.
        let stored = h.store.all_events(&SessionId::new("s-1")).unwrap();
        assert_eq!(repairs_of(&stored).len(), 1);
        if api == WireApi::Openai {
            let args = bodies[1]["messages"]
                .as_array()
                .unwrap()
                .iter()
                .find_map(|m| m["tool_calls"][0]["function"]["arguments"].as_str())
                .unwrap()
                .to_owned();
            assert!(!args.contains("mode"), "{args}");
        }
        h.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrepairable_mistake_gets_the_one_line_fix() {
    let mut h = Harness::start(
        WireApi::Openai,
        vec![
            MockResponse::tool_calls([
                ("read_file", r#"{"file_path": "a.py", "limit": "fifty"}"#),
                (
                    "read_file",
                    r#"{"file_path": "a.py", "mode": "slice", "indentation": {"mode": "indentation"}}"#,
                ),
            ]),
            MockResponse::text("done"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.py"), SOURCE).unwrap();
    let events = h.run_turn("read").await;
    assert!(repairs_of(&events).is_empty(), "{:?}", kinds(&events));

    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 2);
    for (_, status, kind, _) in &ends {
        assert_eq!(*status, ToolStatus::Error);
        assert_eq!(*kind, Some(ToolErrorKind::InvalidInput));
    }
    assert_eq!(
        ends[0].3,
        "Error (invalid_input): the arguments for read_file do not match its schema: `limit` must be an integer like 50, not \"fifty\""
    );
    assert_eq!(
        ends[1].3,
        "Error (invalid_input): the arguments for read_file do not match its schema: `mode` is a top-level argument, not inside `indentation`: send {\"file_path\": \"a.py\", \"indentation\": {}, \"mode\": \"indentation\"}"
    );
    let sent = sent_tool_results(WireApi::Openai, &h.request_bodies()[1]);
    assert_eq!(sent.len(), 2);
    assert!(sent
        .iter()
        .all(|s| s.is_error && !s.content.contains("repaired")));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_repeating_the_same_failing_call_is_stopped_on_the_third() {
    let same = r#"{"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 1"}"#;
    let mut h = Harness::start(
        WireApi::Openai,
        vec![
            MockResponse::tool_call("apply_patch", same),
            // Another spelling of the same arguments is the same call.
            MockResponse::tool_call(
                "apply_patch",
                r#"{"new_string":"x = 1","old_string":"x = 1","file_path":"a.py"}"#,
            ),
            MockResponse::tool_call("apply_patch", same),
            MockResponse::text("never asked for"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.py"), SOURCE).unwrap();
    let events = h.run_turn("fix it").await;
    assert_eq!(end_reason(&events).0, memo_protocol::TurnEndReason::Failed);
    let message = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        message.contains("same failing apply_patch call 3 times and"),
        "{message}"
    );
    assert_eq!(h.request_bodies().len(), 3, "no fourth request");
    // From the second time on, the model is told it already had this answer.
    let results: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::ToolCallEnd { output, .. } => Some(output.clone()),
            _ => None,
        })
        .collect();
    assert!(!results[0].contains("repeated_call"));
    assert!(
        results[1].contains("<system_hint type=\"repeated_call\">"),
        "{}",
        results[1]
    );
    assert_eq!(
        std::fs::read_to_string(h.workdir().join("a.py")).unwrap(),
        SOURCE
    );
    h.shutdown().await;
}
