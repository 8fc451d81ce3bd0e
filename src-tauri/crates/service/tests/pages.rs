//! Pages of a stored session through the service, on a real store: whole turns from the
//! end, then earlier ones, without the deltas of finished steps; a page reaching the
//! start says so; bad input is refused.

mod support;

use memo_protocol::{AgentEvent, ErrorCode};
use memo_test_support::MockResponse;
use support::fixture;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_read_from_its_end_in_pages_of_whole_turns() {
    let f = fixture(vec![
        MockResponse::text("first answer, streamed in pieces"),
        MockResponse::text("second answer, streamed in pieces"),
        MockResponse::text("third answer, streamed in pieces"),
    ])
    .await;
    let session = f.start();
    for text in ["one", "two", "three"] {
        f.turn(&session.id, text).await;
    }
    let all = f.service.events(&session.id, 0, usize::MAX).unwrap();
    let starts: Vec<u64> = all
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::TurnStarted { .. }))
        .map(|e| e.seq)
        .collect();
    assert_eq!(starts.len(), 3);
    let last = all.last().unwrap().seq;
    assert!(all
        .iter()
        .any(|e| matches!(e.event, AgentEvent::TextDelta { .. })));

    // The last two turns.
    let page = f
        .service
        .history_page(&session.id, None, Some(2), None)
        .unwrap();
    assert_eq!(page.from_seq, starts[1]);
    assert_eq!(page.to_seq, last);
    assert!(page.has_more);
    assert_eq!(page.events.first().unwrap().seq, starts[1]);
    assert!(!page
        .events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::TextDelta { .. })));
    let answers: Vec<&str> = page
        .events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::AssistantMessage { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        answers,
        [
            "second answer, streamed in pieces",
            "third answer, streamed in pieces"
        ]
    );

    // The page before it reaches the start: everything before, session_started included.
    let earlier = f
        .service
        .history_page(&session.id, Some(page.from_seq), Some(2), None)
        .unwrap();
    assert_eq!(earlier.from_seq, 1);
    assert_eq!(earlier.to_seq, starts[1] - 1);
    assert!(!earlier.has_more);
    assert!(matches!(
        earlier.events[0].event,
        AgentEvent::SessionStarted { .. }
    ));

    // From a search hit in the first turn's answer: that whole turn and all after it.
    let hit = all
        .iter()
        .find(|e| {
            e.seq > starts[0]
                && e.seq < starts[1]
                && matches!(e.event, AgentEvent::AssistantMessage { .. })
        })
        .unwrap()
        .seq;
    let around = f
        .service
        .history_page(&session.id, None, None, Some(hit))
        .unwrap();
    assert_eq!(around.from_seq, starts[0]);
    assert_eq!(around.to_seq, last);
    assert!(
        around.has_more,
        "session_started comes before the first turn"
    );

    // Before the first event there is nothing; an unknown session is not found.
    let err = f
        .service
        .history_page(&session.id, Some(0), None, None)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    let missing = memo_protocol::SessionId::new("nope");
    let err = f
        .service
        .history_page(&missing, None, None, None)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    f.service.shutdown().await;
    f.mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_tool_output_reaches_a_page_cut_and_is_read_whole_on_demand() {
    let f = fixture(vec![
        MockResponse::tool_call("exec_command", r#"{"cmd":"seq 1 2000"}"#),
        MockResponse::text("Counted."),
    ])
    .await;
    let config = f.home.path().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("approval_mode = \"dangerous\"\n{text}")).unwrap();
    let session = f.start();
    f.turn(&session.id, "count").await;

    let all = f.service.events(&session.id, 0, usize::MAX).unwrap();
    let (seq, whole) = all
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                output,
                full_length,
                ..
            } => {
                assert_eq!(*full_length, None, "the log keeps outputs whole");
                Some((e.seq, output.clone()))
            }
            _ => None,
        })
        .unwrap();
    assert!(
        whole.len() > memo_service::WINDOW_OUTPUT_LIMIT,
        "{}",
        whole.len()
    );
    assert!(whole.contains("\n1999\n2000"));
    // What the command printed while it ran is in the log, not in the page.
    assert!(all
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ToolOutput { .. })));

    let page = f
        .service
        .history_page(&session.id, None, None, None)
        .unwrap();
    assert!(!page
        .events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::ToolOutput { .. })));
    let (preview, full_length) = page
        .events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::ToolCallEnd {
                output,
                full_length,
                ..
            } => Some((output.clone(), *full_length)),
            _ => None,
        })
        .unwrap();
    assert_eq!(full_length, Some(whole.len() as u64));
    assert!(whole.starts_with(&preview) && preview.len() < whole.len());
    assert!(preview.contains("Process exited with code 0"));

    assert_eq!(f.service.tool_output(&session.id, seq).unwrap(), whole);
    let err = f.service.tool_output(&session.id, 1).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    let err = f.service.tool_output(&session.id, 10_000).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    f.service.shutdown().await;
    f.mock.shutdown().await;
}
