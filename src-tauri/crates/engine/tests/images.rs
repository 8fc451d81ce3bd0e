//! Images in user messages, end to end over the mock server: each wire format's image
//! part, the vision gate, validation refusals that send nothing, a resumed session that
//! sends an earlier image again, and the profile's `supports_vision` through the Engine.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use memo_config::{Config, MemoryCredentialStore};
use memo_engine::tools::ToolRegistry;
use memo_engine::{spawn_session, Engine, EngineOptions, SessionHandle, SessionOptions};
use memo_engine::{SessionStart, TurnLimits};
use memo_model::WireApi;
use memo_protocol::{AgentEvent, ErrorKind, ImageInput, Op, SessionId, UserInput};
use memo_store::Store;
use memo_test_support::{MockLlmServer, MockResponse};
use serde_json::{json, Value};

/// A 1x1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

fn png() -> ImageInput {
    ImageInput {
        media_type: "image/png".into(),
        data: PNG.into(),
        name: Some("dot.png".into()),
    }
}

fn with_images(text: &str, images: Vec<ImageInput>) -> Op {
    Op::UserTurn {
        input: UserInput {
            images,
            ..UserInput::text(text)
        },
    }
}

/// The first user message of a request body, as the wire format has it.
fn first_user(api: WireApi, body: &Value) -> Value {
    let list = match api {
        WireApi::Openai => &body["messages"],
        WireApi::Anthropic => &body["messages"],
        WireApi::Gemini => &body["contents"],
    };
    let mut message = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "user")
        .cloned()
        .unwrap();
    without_session_context(&mut message);
    message
}

/// The text a session's first message carries before the person's words (the date, the
/// repository's state) is not what these tests are about.
fn without_session_context(value: &mut Value) {
    match value {
        Value::String(text) if text.starts_with("<session_context>") => {
            if let Some((_, rest)) = text.split_once("</session_context>\n\n") {
                *text = rest.to_owned();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(without_session_context),
        Value::Object(map) => map.values_mut().for_each(without_session_context),
        _ => {}
    }
}

/// What the first user message "what is this?" with [`png`] looks like on the wire.
fn expected_user(api: WireApi) -> Value {
    match api {
        WireApi::Openai => json!({"role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
        ]}),
        WireApi::Anthropic => json!({"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "text", "text": "what is this?"},
        ]}),
        WireApi::Gemini => json!({"role": "user", "parts": [
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"text": "what is this?"},
        ]}),
    }
}

/// Anthropic's rolling cache breakpoint sits on the newest block; it is not part of the
/// image's shape.
fn without_cache_marks(mut message: Value) -> Value {
    let blocks = message.get_mut("content").and_then(Value::as_array_mut);
    for block in blocks.into_iter().flatten() {
        if let Some(block) = block.as_object_mut() {
            block.remove("cache_control");
        }
    }
    message
}

async fn error_event(h: &mut Harness) -> (ErrorKind, String) {
    let events = h
        .until(|e| matches!(e, AgentEvent::Error { .. } | AgentEvent::TurnStarted { .. }))
        .await;
    match &events.last().unwrap().event {
        AgentEvent::Error { kind, message, .. } => (*kind, message.clone()),
        other => panic!("expected an error before any turn, got {other:?}"),
    }
}

fn turns_in_log(h: &Harness) -> usize {
    h.store
        .all_events(&SessionId::new("s-1"))
        .unwrap()
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::TurnStarted { .. }))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_reaches_the_model_in_each_wire_format() {
    for api in ALL_APIS {
        let mut h = Harness::start(api, vec![MockResponse::text("A dot.")]).await;
        h.session
            .submit(with_images("what is this?", vec![png()]))
            .unwrap();
        let events = h.until_turn_end().await;
        assert_eq!(
            end_reason(&events).0,
            memo_protocol::TurnEndReason::Completed
        );
        // The log keeps the image with the text.
        let started = events
            .iter()
            .find_map(|e| match &e.event {
                AgentEvent::TurnStarted { input } => Some(input.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(started.images, vec![png()], "{api:?}");
        let bodies = h.request_bodies();
        assert_eq!(bodies.len(), 1);
        assert_eq!(
            without_cache_marks(first_user(api, &bodies[0])),
            expected_user(api),
            "{api:?}"
        );
        h.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_without_vision_refuses_images_and_sends_nothing() {
    let limits = TurnLimits {
        supports_vision: false,
        retry: fast_retry(),
        ..TurnLimits::default()
    };
    let mut h = Harness::start_with(
        WireApi::Openai,
        vec![MockResponse::text("text is fine")],
        ToolRegistry::builtin(),
        limits,
    )
    .await;
    h.session
        .submit(with_images("what is this?", vec![png()]))
        .unwrap();
    let (kind, message) = error_event(&mut h).await;
    assert_eq!(kind, ErrorKind::Config);
    assert_eq!(
        message,
        "mock-model does not take images (set supports_vision = true in \
         [model_profiles.\"mock-model\"] if it does)"
    );
    assert!(h.mock.requests().is_empty());
    assert_eq!(turns_in_log(&h), 0);
    // The session goes on: a message without images is sent as usual.
    let events = h.run_turn("then just text").await;
    assert_eq!(text_of(&events), "text is fine");
    assert_eq!(h.mock.requests().len(), 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_images_are_refused_before_a_turn_starts() {
    let mut h = Harness::start(WireApi::Anthropic, vec![]).await;
    let image = |media_type: &str, data: String| ImageInput {
        media_type: media_type.into(),
        data,
        name: None,
    };
    let cases: Vec<(Vec<ImageInput>, &str)> = vec![
        (vec![png(); 9], "at most 8 images; this one has 9"),
        (
            vec![png(), image("image/svg+xml", PNG.into())],
            "image 2 has media type \"image/svg+xml\"; expected one of image/png, image/jpeg, image/gif, image/webp",
        ),
        (
            vec![image("image/png", "not*base64".into())],
            "image 1 is not valid base64",
        ),
        (
            vec![image("image/jpeg", "A".repeat(7 * 1024 * 1024))],
            "image 1 is 5505024 bytes; an image may have at most 5242880 bytes (5 MiB)",
        ),
        (vec![image("image/gif", String::new())], "image 1 is empty"),
    ];
    for (images, expected) in cases {
        h.session.submit(with_images("look", images)).unwrap();
        let (kind, message) = error_event(&mut h).await;
        assert_eq!(kind, ErrorKind::InvalidOp, "{message}");
        assert!(message.contains(expected), "{message:?} lacks {expected:?}");
    }
    // A refused slash command with images runs nothing either.
    h.session
        .submit(with_images("/compact", vec![png(); 9]))
        .unwrap();
    let (kind, _) = error_event(&mut h).await;
    assert_eq!(kind, ErrorKind::InvalidOp);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(h.mock.requests().is_empty());
    assert_eq!(turns_in_log(&h), 0);
    h.shutdown().await;
}

async fn turn(session: &SessionHandle, op: Op) {
    let mut events = session.subscribe(session.last_seq()).unwrap();
    session.submit(op).unwrap();
    loop {
        let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .expect("turn end in time")
            .expect("events");
        match env.event {
            AgentEvent::TurnEnded { .. } => return,
            AgentEvent::Error {
                kind: ErrorKind::Config | ErrorKind::InvalidOp,
                message,
                ..
            } => panic!("refused: {message}"),
            _ => {}
        }
    }
}

async fn stop(session: SessionHandle) {
    let _ = session.submit(Op::Shutdown);
    session.closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_session_sends_the_earlier_image_again() {
    for api in ALL_APIS {
        let h = Harness::start(
            api,
            vec![MockResponse::text("A dot."), MockResponse::text("Red.")],
        )
        .await;
        turn(&h.session, with_images("what is this?", vec![png()])).await;
        let before = h.session.history();
        stop(h.session.clone()).await;

        let reopened = spawn_session(
            params(
                api,
                &h.mock,
                &h.workdir(),
                h.store.clone(),
                "s-1",
                ToolRegistry::builtin(),
                TurnLimits::default(),
            ),
            SessionStart::Resume,
        )
        .unwrap();
        assert_eq!(reopened.history(), before, "{api:?}");
        turn(
            &reopened,
            Op::UserTurn {
                input: UserInput::text("which colour?"),
            },
        )
        .await;
        let bodies = h.request_bodies();
        assert_eq!(bodies.len(), 2);
        assert_eq!(
            without_cache_marks(first_user(api, &bodies[1])),
            expected_user(api),
            "{api:?}: the rebuilt history has the image"
        );
        stop(reopened).await;
        h.mock.shutdown().await;
    }
}

/// An engine over the mock server (an OpenAI-style server on 127.0.0.1: no vision by
/// default), with `extra` appended to config.toml.
fn engine(mock: &MockLlmServer, dir: &Path, extra: &str) -> Engine {
    let toml = format!(
        "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\n\
         base_url = \"{}/v1\"\n{extra}",
        mock.base_url()
    );
    std::fs::write(dir.join("config.toml"), &toml).unwrap();
    let config = Config::parse(&toml, &dir.join("config.toml")).unwrap();
    Engine::new(EngineOptions {
        memo_home: None,
        config,
        store: Arc::new(Store::open(dir.join("memo.sqlite")).unwrap()),
        credentials: Arc::new(MemoryCredentialStore::new()),
        env: Arc::new(|_: &str| None),
        checkpoints: None,
    })
}

async fn refusal(session: &SessionHandle, op: Op) -> String {
    let mut events = session.subscribe(session.last_seq()).unwrap();
    session.submit(op).unwrap();
    loop {
        let env = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .expect("an event in time")
            .expect("events");
        match env.event {
            AgentEvent::Error { message, .. } => return message,
            AgentEvent::TurnStarted { .. } => panic!("the turn started"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_profile_decides_and_a_switch_leaves_old_images_out() {
    let mock =
        MockLlmServer::start_with([MockResponse::text("A dot."), MockResponse::text("Seen.")])
            .await
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let options = || SessionOptions {
        cwd: dir.path().to_path_buf(),
        ..SessionOptions::default()
    };

    // A local server's model takes no images unless its profile says so.
    let plain = engine(&mock, dir.path(), "");
    let session = plain.start_session(options()).unwrap();
    let message = refusal(&session, with_images("what is this?", vec![png()])).await;
    assert!(
        message.starts_with("mock-model does not take images"),
        "{message}"
    );
    stop(session).await;
    drop(plain);
    assert!(mock.requests().is_empty());

    let vision = engine(
        &mock,
        dir.path(),
        "[model_profiles.\"mock-model\"]\nsupports_vision = true\n",
    );
    let session = vision.start_session(options()).unwrap();
    turn(&session, with_images("what is this?", vec![png()])).await;
    assert_eq!(
        first_user(WireApi::Openai, &mock.requests()[0].body),
        expected_user(WireApi::Openai)
    );

    // Switched to a model without vision: new images are refused, and the earlier one
    // is left out of the next request with a note instead of breaking the session.
    session
        .submit(Op::SwitchModel {
            provider: None,
            model: Some("text-model".into()),
        })
        .unwrap();
    let message = refusal(&session, with_images("and this?", vec![png()])).await;
    assert!(
        message.starts_with("text-model does not take images"),
        "{message}"
    );
    turn(
        &session,
        Op::UserTurn {
            input: UserInput::text("describe it again"),
        },
    )
    .await;
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].body["model"], "text-model");
    assert_eq!(
        first_user(WireApi::Openai, &requests[1].body),
        json!({"role": "user", "content":
            "what is this?\n\n[1 image not shown: the current model does not take images]"})
    );
    stop(session).await;
    mock.shutdown().await;
}
