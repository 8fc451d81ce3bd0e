//! The typed view of each call, as the events carry it: announced when its arguments are
//! known, complete with its end, filled by the tool and the engine.

mod common;

use common::*;
use memo_engine::ApprovalMode;
use memo_protocol::{AgentEvent, CommandState, EventEnvelope, ToolKind, ToolView};
use memo_test_support::MockResponse;

async fn harness(mode: ApprovalMode, responses: Vec<MockResponse>) -> Harness {
    Harness::builtin(mode, responses).await
}

/// (announced views, end view and output) of the turn's calls, in order.
fn views(events: &[EventEnvelope]) -> (Vec<ToolView>, Vec<(ToolView, String)>) {
    let mut announced = Vec::new();
    let mut ended = Vec::new();
    for e in events {
        match &e.event {
            AgentEvent::ToolCallView { view, .. } => announced.push(view.clone()),
            AgentEvent::ToolCallEnd { view, output, .. } => ended.push((
                view.clone().expect("every end carries a view"),
                output.clone(),
            )),
            _ => {}
        }
    }
    (announced, ended)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_says_its_exit_code_time_and_where_its_output_is() {
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call("exec_command", r#"{"cmd":"echo hi; exit 3"}"#),
            MockResponse::text("done"),
        ],
    )
    .await;
    let events = h.run_turn("run it").await;
    let (announced, ended) = views(&events);
    let ToolView::Command(start) = &announced[0] else {
        panic!("{announced:?}")
    };
    assert_eq!(start.command, "echo hi; exit 3");
    assert_eq!(start.state, CommandState::Pending);
    let (ToolView::Command(end), output) = &ended[0] else {
        panic!("{ended:?}")
    };
    assert_eq!(end.state, CommandState::Exited { code: 3 });
    assert!(end.duration_ms.is_some());
    assert_eq!(end.output.expect("a range").of(output), "hi\n");
    assert_eq!(ended[0].0.kind(), ToolKind::Execute);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_and_a_search_say_what_they_covered() {
    let mut h = harness(
        ApprovalMode::Dangerous,
        vec![
            MockResponse::tool_call("read_file", r#"{"file_path":"a.txt","offset":2,"limit":2}"#),
            MockResponse::tool_call("grep_files", r#"{"pattern":"needle"}"#),
            MockResponse::text("found"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.txt"), "one\ntwo\nneedle\nfour\n").unwrap();
    let events = h.run_turn("look").await;
    let (_, ended) = views(&events);
    let ToolView::Read(read) = &ended[0].0 else {
        panic!("{ended:?}")
    };
    assert_eq!(
        (
            read.path.as_str(),
            read.start_line,
            read.end_line,
            read.truncated
        ),
        ("a.txt", Some(2), Some(3), true)
    );
    let ToolView::Search(search) = &ended[1].0 else {
        panic!("{ended:?}")
    };
    assert_eq!(search.matches, Some(1));
    assert_eq!(search.first[0].path, "a.txt");
    assert_eq!(search.first[0].line, Some(3));
    h.shutdown().await;
}
