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
