//! The turn loop over all three wire protocols, against the mock LLM server over real HTTP.

mod common;

use std::time::{Duration, Instant};

use common::*;
use memo_model::WireApi;
use memo_protocol::{AgentEvent, ToolErrorKind, ToolStatus, TurnEndReason};
use memo_test_support::MockResponse;

macro_rules! per_api {
    ($name:ident, $body:path) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn openai() {
                $body(WireApi::Openai).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn anthropic() {
                $body(WireApi::Anthropic).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn gemini() {
                $body(WireApi::Gemini).await
            }
        }
    };
}

async fn plain_answer(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![MockResponse::text("Hello there, how can I help?").with_usage(12, 7)],
    )
    .await;
    let events = h.run_turn("hi").await;
    assert_eq!(text_of(&events), "Hello there, how can I help?");
    let (reason, usage) = end_reason(&events);
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!((usage.input_tokens, usage.output_tokens), (12, 7));
    // Deltas arrive as several events, not one blob.
    let deltas = events
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::TextDelta { .. }))
        .count();
    assert!(deltas > 1, "expected streamed deltas, got {deltas}");
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 1);
    assert!(sent_system_prompt(api, &bodies[0]).contains("You are a test agent."));
    // Every built-in tool is offered, by the name the registry knows it by.
    assert_eq!(
        sent_tool_names(api, &bodies[0]),
        memo_engine::tools::ToolRegistry::builtin().names()
    );
    // Sequence numbers are dense and every event is in the store.
    let stored = h.store.all_events(h.session.id()).unwrap();
    assert_eq!(stored.len() as u64, stored.last().unwrap().seq);
    assert_eq!(&stored[stored.len() - events.len()..], &events[..]);
    h.shutdown().await;
}
per_api!(plain_answer_streams_and_completes, plain_answer);

async fn one_tool_call(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("read_file", r#"{"file_path":"notes.txt"}"#).with_usage(20, 5),
            MockResponse::text("The file says hello.").with_usage(40, 6),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("notes.txt"), "hello from disk\n").unwrap();
    let events = h.run_turn("what is in notes.txt?").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let ends = tool_ends(&events);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].0, "read_file");
    assert_eq!(ends[0].1, ToolStatus::Ok);
    assert_eq!(ends[0].3, "1\thello from disk\n");
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 2);
    let results = sent_tool_results(api, &bodies[1]);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].content, "1\thello from disk\n");
    assert!(!results[0].is_error);
    // The result is paired with the call the assistant made.
    let calls = sent_tool_calls(api, &bodies[1]);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0], results[0].key);
    assert_eq!(end_reason(&events).1.input_tokens, 60);
    h.shutdown().await;
}
per_api!(one_tool_call_result_goes_back_paired, one_tool_call);

async fn parallel_tool_calls(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_calls([
                ("read_file", r#"{"file_path":"a.txt"}"#),
                ("list_dir", r#"{}"#),
            ]),
            MockResponse::text("done"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("a.txt"), "alpha\n").unwrap();
    let events = h.run_turn("look around").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let mut names: Vec<String> = tool_ends(&events).into_iter().map(|e| e.0).collect();
    names.sort();
    assert_eq!(names, vec!["list_dir", "read_file"]);
    let begins = events
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::ToolCallBegin { .. }))
        .count();
    assert_eq!(begins, 2);
    let bodies = h.request_bodies();
    let results = sent_tool_results(api, &bodies[1]);
    assert_eq!(results.len(), 2);
    let calls = sent_tool_calls(api, &bodies[1]);
    let mut keys: Vec<String> = results.iter().map(|r| r.key.clone()).collect();
    let mut call_keys = calls.clone();
    keys.sort();
    call_keys.sort();
    assert_eq!(keys, call_keys, "every call has exactly one result");
    h.shutdown().await;
}
per_api!(parallel_tool_calls_all_answered, parallel_tool_calls);

async fn multi_step(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("list_dir", r#"{}"#),
            MockResponse::tool_call("read_file", r#"{"file_path":"b.txt"}"#),
            MockResponse::text("b.txt contains beta"),
        ],
    )
    .await;
    std::fs::write(h.workdir().join("b.txt"), "beta\n").unwrap();
    let events = h.run_turn("find and read").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    assert_eq!(tool_ends(&events).len(), 2);
    let bodies = h.request_bodies();
    assert_eq!(bodies.len(), 3);
    assert_eq!(sent_tool_results(api, &bodies[2]).len(), 2);
    assert!(sent_tool_results(api, &bodies[1])[0]
        .content
        .contains("b.txt"));
    h.shutdown().await;
}
per_api!(multi_step_turn, multi_step);

async fn tool_error_fed_back(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("read_file", r#"{"file_path":"missing.txt"}"#),
            MockResponse::text("That file does not exist."),
        ],
    )
    .await;
    let events = h.run_turn("read missing.txt").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let ends = tool_ends(&events);
    assert_eq!(ends[0].1, ToolStatus::Error);
    assert_eq!(ends[0].2, Some(ToolErrorKind::ExecutionFailed));
    let sent = sent_tool_results(api, &h.request_bodies()[1]);
    assert!(sent[0].is_error);
    assert!(
        sent[0].content.contains("missing.txt"),
        "{}",
        sent[0].content
    );
    h.shutdown().await;
}
per_api!(tool_error_is_fed_back, tool_error_fed_back);

async fn invalid_json_arguments(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("read_file", r#"{"file_path": "a.txt""#),
            MockResponse::text("sorry"),
        ],
    )
    .await;
    let events = h.run_turn("read").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let ends = tool_ends(&events);
    assert_eq!(ends[0].2, Some(ToolErrorKind::InvalidInput));
    let sent = sent_tool_results(api, &h.request_bodies()[1]);
    assert!(sent[0].is_error);
    assert!(
        sent[0].content.contains("invalid_input"),
        "{}",
        sent[0].content
    );
    h.shutdown().await;
}
per_api!(
    invalid_json_arguments_go_back_as_tool_error,
    invalid_json_arguments
);

async fn unknown_tool(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("delete_everything", r#"{}"#),
            MockResponse::text("ok"),
        ],
    )
    .await;
    let events = h.run_turn("go").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let ends = tool_ends(&events);
    assert_eq!(ends[0].2, Some(ToolErrorKind::UnknownTool));
    assert!(
        ends[0].3.contains("read_file"),
        "lists the available tools: {}",
        ends[0].3
    );
    assert!(sent_tool_results(api, &h.request_bodies()[1])[0].is_error);
    h.shutdown().await;
}
per_api!(unknown_tool_goes_back_as_tool_error, unknown_tool);

async fn rate_limit_then_success(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::http_error(429)
                .retry_after(1)
                .message("slow down"),
            MockResponse::text("finally"),
        ],
    )
    .await;
    let started = Instant::now();
    let events = h.run_turn("hi").await;
    let elapsed = started.elapsed();
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    assert_eq!(text_of(&events), "finally");
    let retry = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Retrying {
                delay_ms, attempt, ..
            } => Some((*delay_ms, *attempt)),
            _ => None,
        })
        .expect("a retrying event");
    assert!(
        retry.0 >= 1000,
        "Retry-After: 1 must be honoured, got {} ms",
        retry.0
    );
    assert_eq!(retry.1, 1);
    assert!(
        elapsed >= Duration::from_millis(1000),
        "waited only {elapsed:?}"
    );
    assert_eq!(h.request_bodies().len(), 2);
    h.shutdown().await;
}
per_api!(
    rate_limit_then_success_honours_retry_after,
    rate_limit_then_success
);

async fn server_errors_exhaust_retries(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::http_error(500).message("boom"),
            MockResponse::http_error(500).message("boom"),
            MockResponse::http_error(500).message("boom"),
        ],
    )
    .await;
    let events = h.run_turn("hi").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Failed);
    let retries = events
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::Retrying { .. }))
        .count();
    assert_eq!(retries, 2, "3 attempts = 2 retries");
    let error = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Error { message, kind, .. } => Some((message.clone(), *kind)),
            _ => None,
        })
        .expect("an error event");
    assert!(
        error.0.contains("boom"),
        "the provider's message is shown: {}",
        error.0
    );
    assert_eq!(error.1, memo_protocol::ErrorKind::Network);
    assert_eq!(h.request_bodies().len(), 3);
    h.shutdown().await;
}
per_api!(
    server_errors_exhaust_retries_with_clear_error,
    server_errors_exhaust_retries
);

async fn stream_cut_midway(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::text("This answer will be cut somewhere in the middle")
                .cut_after_events(5),
            MockResponse::text("Complete answer"),
        ],
    )
    .await;
    let events = h.run_turn("hi").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let discarded = events.iter().any(|e| {
        matches!(
            e.event,
            AgentEvent::Retrying {
                discarded_partial: true,
                ..
            }
        )
    });
    assert!(discarded, "the retry announces that partial output is void");
    // The history holds only the complete answer.
    let history = h.session.history();
    match history.last() {
        Some(memo_model::Message::Assistant { text, .. }) => {
            assert_eq!(text, "Complete answer")
        }
        other => panic!("unexpected history tail {other:?}"),
    }
    h.shutdown().await;
}
per_api!(stream_cut_midway_is_retried, stream_cut_midway);

async fn stream_cut_every_time(api: WireApi) {
    let cut = || MockResponse::text("never finishes properly, never ever").cut_after_events(2);
    let mut h = Harness::start(api, vec![cut(), cut(), cut()]).await;
    let events = h.run_turn("hi").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Failed);
    let message = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(message.contains("ended early"), "{message}");
    h.shutdown().await;
}
per_api!(stream_cut_every_time_fails_clearly, stream_cut_every_time);

async fn interrupt_mid_stream(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::text("Partial words then the server goes quiet forever")
                .hang_after_events(5),
            MockResponse::text("next turn works"),
        ],
    )
    .await;
    h.submit("hi");
    h.until(|e| matches!(e, AgentEvent::TextDelta { .. })).await;
    let asked = Instant::now();
    h.session.submit(memo_protocol::Op::Interrupt).unwrap();
    let events = h.until_turn_end().await;
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "interrupt took {:?}",
        asked.elapsed()
    );
    assert_eq!(end_reason(&events).0, TurnEndReason::Interrupted);
    // What the user saw stays in the conversation.
    match h.session.history().last() {
        Some(memo_model::Message::Assistant {
            text, tool_calls, ..
        }) => {
            assert!(!text.is_empty());
            assert!(tool_calls.is_empty());
        }
        other => panic!("unexpected history tail {other:?}"),
    }
    // The session is usable afterwards.
    let events = h.run_turn("again").await;
    assert_eq!(text_of(&events), "next turn works");
    h.shutdown().await;
}
per_api!(interrupt_mid_stream_ends_cleanly, interrupt_mid_stream);

async fn usage_summed(api: WireApi) {
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::tool_call("list_dir", "{}").with_usage(100, 10),
            MockResponse::tool_call("list_dir", "{}").with_usage(150, 20),
            MockResponse::text("ok").with_usage(200, 30),
        ],
    )
    .await;
    let events = h.run_turn("go").await;
    let (reason, usage) = end_reason(&events);
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!((usage.input_tokens, usage.output_tokens), (450, 60));
    let totals: Vec<u64> = events
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::Usage { turn_total, .. } => Some(turn_total.input_tokens),
            _ => None,
        })
        .collect();
    assert_eq!(totals, vec![100, 250, 450]);
    h.shutdown().await;
}
per_api!(usage_is_summed_over_steps, usage_summed);

async fn step_limit(api: WireApi) {
    let limits = memo_engine::TurnLimits {
        max_steps: 2,
        retry: fast_retry(),
        ..Default::default()
    };
    let mut h = Harness::start_with(
        api,
        vec![
            MockResponse::tool_call("list_dir", "{}"),
            MockResponse::tool_call("list_dir", "{}"),
        ],
        memo_engine::tools::ToolRegistry::builtin(),
        limits,
    )
    .await;
    let events = h.run_turn("loop forever").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::StepLimit);
    assert_eq!(h.request_bodies().len(), 2);
    h.shutdown().await;
}
per_api!(step_limit_ends_the_turn, step_limit);

async fn overloaded_then_success(api: WireApi) {
    let status = if api == WireApi::Anthropic { 529 } else { 503 };
    let mut h = Harness::start(
        api,
        vec![
            MockResponse::http_error(status).message("busy"),
            MockResponse::text("back"),
        ],
    )
    .await;
    let events = h.run_turn("hi").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Completed);
    let reason = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Retrying { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("a retry");
    assert!(reason.contains("overloaded"), "{reason}");
    h.shutdown().await;
}
per_api!(overloaded_is_retried, overloaded_then_success);

async fn context_overflow_is_not_retried(api: WireApi) {
    let (kind, message) = match api {
        WireApi::Openai => (
            "context_length_exceeded",
            "This model's maximum context length is 8192 tokens",
        ),
        WireApi::Anthropic => (
            "invalid_request_error",
            "prompt is too long: 210000 tokens > 200000 maximum",
        ),
        WireApi::Gemini => (
            "INVALID_ARGUMENT",
            "The input token count exceeds the maximum number of tokens allowed",
        ),
    };
    let mut h = Harness::start(
        api,
        vec![MockResponse::http_error(400).kind(kind).message(message)],
    )
    .await;
    let events = h.run_turn("hi").await;
    assert_eq!(end_reason(&events).0, TurnEndReason::Failed);
    let error = events
        .iter()
        .find_map(|e| match &e.event {
            AgentEvent::Error {
                kind, retryable, ..
            } => Some((*kind, *retryable)),
            _ => None,
        })
        .unwrap();
    assert_eq!(error, (memo_protocol::ErrorKind::ContextOverflow, false));
    assert_eq!(h.request_bodies().len(), 1, "no retry");
    h.shutdown().await;
}
per_api!(
    context_overflow_fails_without_retry,
    context_overflow_is_not_retried
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_runs_the_failed_turn_again_with_the_message_sent_once() {
    let mut h = Harness::start(
        WireApi::Openai,
        vec![MockResponse::http_error(400), MockResponse::text("pong")],
    )
    .await;
    let failed = h.run_turn("ping").await;
    assert_eq!(end_reason(&failed).0, TurnEndReason::Failed);
    let failed_turn = failed.last().unwrap().turn_id.clone().unwrap();
    h.session.submit(memo_protocol::Op::RetryTurn).unwrap();
    let retried = h.until_turn_end().await;
    match &retried[0].event {
        AgentEvent::TurnResumed { retry_of } => assert_eq!(retry_of, &failed_turn),
        other => panic!("a retry begins with turn_resumed, got {other:?}"),
    }
    assert!(
        !retried
            .iter()
            .any(|e| matches!(e.event, AgentEvent::TurnStarted { .. })),
        "no new message"
    );
    assert_eq!(text_of(&retried), "pong");
    let bodies = h.request_bodies();
    let last = bodies.last().unwrap().to_string();
    assert_eq!(last.matches("ping").count(), 1, "{last}");

    // A completed turn is not retried.
    h.session.submit(memo_protocol::Op::RetryTurn).unwrap();
    let refused = h.until(|e| matches!(e, AgentEvent::Error { .. })).await;
    match &refused.last().unwrap().event {
        AgentEvent::Error { message, .. } => {
            assert!(message.contains("ended normally"), "{message}")
        }
        _ => unreachable!(),
    }
    h.shutdown().await;
}
