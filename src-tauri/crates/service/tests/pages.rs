//! Pages of a stored session through the service, on a real store: whole turns from the
//! end, then earlier ones, without the deltas of finished steps; from a search hit forward
//! until the end; a page reaching the start or the end says so; bad input is refused.

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

    // From a search hit in the first turn's answer: that whole turn and the ones after it,
    // up to the page's default size (all three here).
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
    assert!(!around.has_after);
    // An earlier page is followed by the loaded one: it says so.
    assert!(!page.has_after && earlier.has_after);

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

fn answers(page: &memo_protocol::HistoryPage) -> Vec<String> {
    page.events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::AssistantMessage { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_a_search_hit_pages_are_read_forward_until_they_meet_the_end() {
    let f = fixture(vec![
        MockResponse::text("answer one"),
        MockResponse::text("answer two"),
        MockResponse::text("answer three"),
        MockResponse::text("answer four"),
        MockResponse::text("the other session's answer"),
    ])
    .await;
    let session = f.start();
    for text in ["one", "two", "three", "four"] {
        f.turn(&session.id, text).await;
    }
    let all = f.service.events(&session.id, 0, usize::MAX).unwrap();
    let starts: Vec<u64> = all
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::TurnStarted { .. }))
        .map(|e| e.seq)
        .collect();
    assert_eq!(starts.len(), 4);
    let last = all.last().unwrap().seq;
    let hit = all
        .iter()
        .find(|e| {
            e.seq > starts[1]
                && e.seq < starts[2]
                && matches!(e.event, AgentEvent::AssistantMessage { .. })
        })
        .unwrap()
        .seq;

    // Two turns from the hit's: not the end yet, and the next page starts right after.
    let first = f
        .service
        .history_page(&session.id, None, Some(2), Some(hit))
        .unwrap();
    assert_eq!((first.from_seq, first.to_seq), (starts[1], starts[3] - 1));
    assert!(first.has_more && first.has_after);
    assert_eq!(answers(&first), ["answer two", "answer three"]);
    assert!(!first
        .events
        .iter()
        .any(|e| matches!(e.event, AgentEvent::TextDelta { .. })));

    // The next page meets the end: the seqs of both pages join with no gap and no overlap.
    let next = f
        .service
        .history_page(&session.id, None, Some(2), Some(first.to_seq + 1))
        .unwrap();
    assert_eq!((next.from_seq, next.to_seq), (starts[3], last));
    assert!(next.has_more && !next.has_after);
    assert_eq!(answers(&next), ["answer four"]);

    // From before the first turn: what precedes it counts as one of the turns asked for.
    let opening = f
        .service
        .history_page(&session.id, None, Some(2), Some(1))
        .unwrap();
    assert_eq!((opening.from_seq, opening.to_seq), (1, starts[1] - 1));
    assert!(!opening.has_more && opening.has_after);
    assert!(matches!(
        opening.events[0].event,
        AgentEvent::SessionStarted { .. }
    ));
    assert_eq!(answers(&opening), ["answer one"]);

    // The last event: its turn, which is the end.
    let end = f
        .service
        .history_page(&session.id, None, Some(5), Some(last))
        .unwrap();
    assert_eq!((end.from_seq, end.to_seq), (starts[3], last));
    assert!(!end.has_after);

    // Bad input is refused with a typed error, never an empty or wrong page.
    let refused = |before: Option<u64>, turns: Option<u32>, from: Option<u64>| {
        f.service
            .history_page(&session.id, before, turns, from)
            .unwrap_err()
            .code()
    };
    assert_eq!(refused(None, None, Some(last + 1)), ErrorCode::NotFound);
    assert_eq!(refused(None, None, Some(0)), ErrorCode::InvalidInput);
    assert_eq!(refused(None, Some(0), Some(hit)), ErrorCode::InvalidInput);
    assert_eq!(refused(None, Some(0), None), ErrorCode::InvalidInput);
    assert_eq!(
        refused(Some(last), None, Some(hit)),
        ErrorCode::InvalidInput
    );
    // A seq of another, shorter session's log is not an event of it.
    let other = f.start();
    f.turn(&other.id, "elsewhere").await;
    let other_last = f.service.session(&other.id).unwrap().last_seq;
    assert!(other_last < last);
    let err = f
        .service
        .history_page(&other.id, None, Some(2), Some(last))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    assert!(err.to_string().contains(&last.to_string()), "{err}");
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
    f.configure("approval_mode = \"dangerous\"", "");
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
