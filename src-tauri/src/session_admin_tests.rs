use std::sync::{mpsc, Arc};
use std::time::Duration;

use memo_config::{MemoHome, MemoryCredentialStore};
use memo_protocol::{EventEnvelope, Op, UserInput};
use memo_test_support::{MockLlmServer, MockResponse};

use super::*;
use crate::bridge::EventSink;

struct VecSink(mpsc::Sender<Vec<EventEnvelope>>);

impl EventSink for VecSink {
    fn send(&self, batch: Vec<EventEnvelope>) -> bool {
        self.0.send(batch).is_ok()
    }
}

struct Fixture {
    mock: MockLlmServer,
    _home: tempfile::TempDir,
    work: tempfile::TempDir,
    bridge: Bridge,
}

async fn fixture(responses: Vec<MockResponse>) -> Fixture {
    let mock = MockLlmServer::start_with(responses).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"{}/v1\"\n",
            mock.base_url()
        ),
    )
    .unwrap();
    let bridge = Bridge::new(
        Ok(MemoHome::at(home.path())),
        Arc::new(MemoryCredentialStore::new()),
    );
    Fixture {
        mock,
        _home: home,
        work,
        bridge,
    }
}

impl Fixture {
    fn start(&self) -> SessionSummary {
        self.bridge
            .start_session(self.work.path().to_path_buf(), None, None)
            .unwrap()
    }

    /// Sends one message and waits for its turn to end.
    fn turn(&self, id: &SessionId, text: &str) {
        let (tx, rx) = mpsc::channel();
        let after = self.bridge.summary(id).unwrap().last_seq;
        self.bridge.subscribe(id, after, VecSink(tx)).unwrap();
        self.bridge
            .submit(
                id,
                Op::UserTurn {
                    input: UserInput::text(text),
                },
            )
            .unwrap();
        loop {
            let batch = rx.recv_timeout(Duration::from_secs(10)).unwrap();
            if batch
                .iter()
                .any(|e| matches!(e.event, AgentEvent::TurnEnded { .. }))
            {
                return;
            }
        }
    }

    fn turn_starts(&self, id: &SessionId) -> Vec<(u64, String)> {
        let store = self.bridge.store().unwrap();
        store
            .events_range(id, 1, u64::MAX)
            .unwrap()
            .into_iter()
            .filter_map(|e| match e.event {
                AgentEvent::TurnStarted { input } => Some((e.seq, input.text)),
                _ => None,
            })
            .collect()
    }

    async fn finish(self) {
        self.bridge.shutdown().await;
        self.mock.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_renamed_and_bad_titles_are_refused() {
    let f = fixture(vec![]).await;
    let s = f.start();
    let renamed = f
        .bridge
        .rename_session(&s.id, "  Fix the parser \n")
        .unwrap();
    assert_eq!(renamed.title.as_deref(), Some("Fix the parser"));
    let listed = f.bridge.list_sessions(None).unwrap();
    assert_eq!(listed[0].title.as_deref(), Some("Fix the parser"));

    let empty = f.bridge.rename_session(&s.id, "   ").unwrap_err();
    assert_eq!(empty.code, ErrorCode::InvalidInput);
    let long = f
        .bridge
        .rename_session(&s.id, &"x".repeat(201))
        .unwrap_err();
    assert_eq!(long.code, ErrorCode::InvalidInput);
    let unknown = f
        .bridge
        .rename_session(&SessionId::new("nope".to_owned()), "t")
        .unwrap_err();
    assert_eq!(unknown.code, ErrorCode::NotFound);
    // Refusals changed nothing.
    assert_eq!(
        f.bridge.summary(&s.id).unwrap().title.as_deref(),
        Some("Fix the parser")
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_open_session_stops_it_and_removes_its_history() {
    let f = fixture(vec![MockResponse::text("hi")]).await;
    let keep = f.start();
    let gone = f.start();
    f.turn(&gone.id, "hello");
    f.bridge.delete_session(&gone.id).await.unwrap();

    let listed: Vec<SessionId> = f
        .bridge
        .list_sessions(None)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(listed, vec![keep.id.clone()]);
    let store = f.bridge.store().unwrap();
    assert!(store.session(&gone.id).unwrap().is_none());
    assert!(store
        .events_range(&gone.id, 1, u64::MAX)
        .unwrap()
        .is_empty());
    let submit = f
        .bridge
        .submit(
            &gone.id,
            Op::UserTurn {
                input: UserInput::text("still there?"),
            },
        )
        .unwrap_err();
    assert_eq!(submit.code, ErrorCode::NotFound);
    let again = f.bridge.delete_session(&gone.id).await.unwrap_err();
    assert_eq!(again.code, ErrorCode::NotFound);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rewinding_forks_the_history_before_a_turn_and_gives_its_message_back() {
    let f = fixture(vec![
        MockResponse::text("first answer"),
        MockResponse::text("second answer"),
        MockResponse::text("answer to the edited message"),
    ])
    .await;
    let s = f.start();
    f.turn(&s.id, "first question");
    f.turn(&s.id, "second question");
    let starts = f.turn_starts(&s.id);
    assert_eq!(starts.len(), 2);
    let original_last = f.bridge.summary(&s.id).unwrap().last_seq;

    let outcome = f.bridge.rewind_session(&s.id, starts[1].0).unwrap();
    assert_eq!(outcome.text, "second question");
    assert_ne!(outcome.session.id, s.id);
    assert_eq!(outcome.session.last_seq, starts[1].0 - 1);
    assert_eq!(
        outcome.session.title.as_deref(),
        Some("Rewound: first question")
    );
    // The original is untouched and still listed.
    assert_eq!(f.bridge.summary(&s.id).unwrap().last_seq, original_last);
    assert_eq!(f.bridge.list_sessions(None).unwrap().len(), 2);

    // The rewound session is open: an edited message continues from the first turn only.
    f.turn(&outcome.session.id, "second question, reworded");
    let sent = serde_json::to_string(&f.mock.requests().last().unwrap().body).unwrap();
    assert!(
        sent.contains("first question") && sent.contains("first answer"),
        "{sent}"
    );
    assert!(sent.contains("second question, reworded"), "{sent}");
    assert!(!sent.contains("second answer"), "{sent}");
    let texts: Vec<String> = f
        .turn_starts(&outcome.session.id)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(texts, ["first question", "second question, reworded"]);

    // Only the start of a turn can be rewound to.
    let not_a_turn = f.bridge.rewind_session(&s.id, starts[1].0 + 1).unwrap_err();
    assert_eq!(not_a_turn.code, ErrorCode::InvalidInput);
    let past_the_end = f
        .bridge
        .rewind_session(&s.id, original_last + 5)
        .unwrap_err();
    assert_eq!(past_the_end.code, ErrorCode::NotFound);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_finds_messages_across_sessions_with_marked_terms() {
    let f = fixture(vec![
        MockResponse::text("The parser lives in src/parse.rs."),
        MockResponse::text("Docs are in README."),
    ])
    .await;
    let a = f.start();
    f.turn(&a.id, "where is the parser?");
    let b = f.start();
    f.turn(&b.id, "where are the docs?");

    let hits = f.bridge.search_sessions("parser", None).unwrap();
    assert!(hits.len() >= 2, "{hits:?}");
    assert!(hits.iter().all(|h| h.session.id == a.id), "{hits:?}");
    let roles: Vec<&str> = hits.iter().map(|h| h.role.as_str()).collect();
    assert!(
        roles.contains(&"user") && roles.contains(&"assistant"),
        "{roles:?}"
    );
    let user = hits.iter().find(|h| h.role == "user").unwrap();
    assert_eq!(
        user.snippet,
        format!("where is the {SEARCH_MARK_START}parser{SEARCH_MARK_END}?")
    );
    // The hit points at the turn's start event, which a rewind or a scroll can use.
    let starts = f.turn_starts(&a.id);
    assert_eq!(user.seq, starts[0].0);

    // Limited to a folder: another folder's sessions do not match.
    let elsewhere = tempfile::tempdir().unwrap();
    let none = f
        .bridge
        .search_sessions("parser", Some(&elsewhere.path().display().to_string()))
        .unwrap();
    assert!(none.is_empty());
    let here = f
        .bridge
        .search_sessions("docs", Some(&f.work.path().display().to_string()))
        .unwrap();
    assert!(here.iter().all(|h| h.session.id == b.id) && !here.is_empty());
    assert!(f.bridge.search_sessions("   ", None).unwrap().is_empty());
    f.finish().await;
}
