//! Sessions through the service: start, stream, list, resume, rename, delete, rewind,
//! search — against the mock LLM server and a real SQLite file.

mod support;

use memo_protocol::{ErrorCode, Op, SessionId, UserInput, SEARCH_MARK_END, SEARCH_MARK_START};
use memo_service::{SearchRequest, StartRequest};
use memo_test_support::MockResponse;
use support::{fixture, service_at};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_streams_its_events_in_order_and_is_listed_with_a_preview() {
    let f = fixture(vec![MockResponse::text("hello from the mock")]).await;
    assert_eq!(f.service.list_providers().unwrap()[0].name, "mock");
    let summary = f.start();
    assert_eq!(summary.model, "m1");
    assert_eq!(summary.preview, None);
    let text = f.turn(&summary.id, "hi   there\nfriend").await;
    assert_eq!(text, "hello from the mock");
    let seqs: Vec<u64> = f
        .service
        .events(&summary.id, 0, usize::MAX)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());

    let page = f.service.list_sessions(Some(f.work.path()), 50, 0).unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.sessions[0].id, summary.id);
    // The one owner of what names an untitled session: its first message, on one line.
    assert_eq!(page.sessions[0].preview.as_deref(), Some("hi there friend"));
    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(
        f.service
            .list_sessions(Some(elsewhere.path()), 50, 0)
            .unwrap()
            .total,
        0
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_imported_history_makes_its_fork_live() {
    let f = fixture(vec![]).await;
    let file = f
        .home
        .path()
        .join("sessions/-w/2026-02-23T16-22-21-imp.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        format!(
            "{{\"ts\":\"2026-02-23T16:22:21.000Z\",\"sessionId\":\"imp\",\"type\":\"session_start\",\"meta\":{{\"cwd\":{:?}}}}}\n\
             {{\"ts\":\"2026-02-23T16:22:22.000Z\",\"sessionId\":\"imp\",\"turn\":1,\"type\":\"turn_start\",\"content\":\"hi\"}}\n",
            f.work.path().display().to_string()
        ),
    )
    .unwrap();
    // No paths: the home's own Memo Code sessions folder.
    let report = f.service.import_memo_code(&[]).unwrap();
    assert!(report.failed.is_empty(), "{report:?}");
    let imported = report.files[0].session_id.clone().unwrap();
    let stored = f.service.session(&imported).unwrap();
    assert!(stored.read_only);
    assert_eq!(stored.origin.as_deref(), Some("memo-code"));

    let live = f.service.resume_session(&imported, None).unwrap();
    assert_ne!(live.id, imported);
    assert_eq!(live.model, "m1");
    assert_eq!(live.parent_session_id.as_ref(), Some(&imported));
    // The fork is what takes ops now; resuming it again is a no-op.
    f.service.submit(&live.id, Op::Interrupt).unwrap();
    assert_eq!(
        f.service.resume_session(&live.id, None).unwrap().id,
        live.id
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_layers_come_from_the_live_session_or_the_folder() {
    let f = fixture(vec![]).await;
    std::fs::write(f.work.path().join("AGENTS.md"), "Folder rule.").unwrap();
    let preview = f
        .service
        .prompt_layers(None, Some(f.work.path().to_path_buf()), None, None)
        .unwrap();
    assert_eq!(preview.layers.len(), 6);
    assert!(preview.layers[2].content.contains("Folder rule."));
    let summary = f.start();
    std::fs::write(f.work.path().join("AGENTS.md"), "Changed later.").unwrap();
    let live = f
        .service
        .prompt_layers(Some(&summary.id), None, None, None)
        .unwrap();
    // The live session's prompt follows its instruction files: the next request carries
    // the edit.
    assert!(live.layers[2].content.contains("Changed later."));
    let err = f.service.prompt_layers(None, None, None, None).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_errors_are_config_errors_with_their_place() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), "current_provider = 3\n").unwrap();
    let service = service_at(home.path(), Default::default());
    let err = service
        .start_session(StartRequest {
            cwd: home.path().to_path_buf(),
            ..StartRequest::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Config);
    assert!(err.to_string().contains("config.toml:1"), "{err}");
    let err = service
        .submit(&SessionId::new("nope"), Op::Interrupt)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    let broken = memo_service::Service::new(
        Err("no home directory".into()),
        std::sync::Arc::new(memo_config::MemoryCredentialStore::new()),
        std::sync::Arc::new(|_: &str| None),
    );
    assert_eq!(
        broken.list_providers().unwrap_err().code(),
        ErrorCode::Config
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_renamed_and_bad_titles_are_refused() {
    let f = fixture(vec![]).await;
    let s = f.start();
    let renamed = f
        .service
        .rename_session(&s.id, "  Fix the parser \n")
        .unwrap();
    assert_eq!(renamed.title.as_deref(), Some("Fix the parser"));
    let listed = f.service.list_sessions(None, 10, 0).unwrap();
    assert_eq!(listed.sessions[0].title.as_deref(), Some("Fix the parser"));
    for bad in ["   ", &"x".repeat(201)] {
        let err = f.service.rename_session(&s.id, bad).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidInput);
    }
    let unknown = f
        .service
        .rename_session(&SessionId::new("nope"), "t")
        .unwrap_err();
    assert_eq!(unknown.code(), ErrorCode::NotFound);
    assert_eq!(
        f.service.session(&s.id).unwrap().title.as_deref(),
        Some("Fix the parser")
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_open_session_stops_it_and_removes_its_history() {
    let f = fixture(vec![MockResponse::text("hi")]).await;
    let keep = f.start();
    let gone = f.start();
    f.turn(&gone.id, "hello").await;
    f.service.delete_session(&gone.id).await.unwrap();
    let listed: Vec<SessionId> = f
        .service
        .list_sessions(None, 10, 0)
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(listed, vec![keep.id.clone()]);
    assert_eq!(
        f.service.events(&gone.id, 0, 10).unwrap_err().code(),
        ErrorCode::NotFound
    );
    let submit = f
        .service
        .submit(
            &gone.id,
            Op::UserTurn {
                input: UserInput::text("still there?"),
            },
        )
        .unwrap_err();
    assert_eq!(submit.code(), ErrorCode::NotFound);
    let again = f.service.delete_session(&gone.id).await.unwrap_err();
    assert_eq!(again.code(), ErrorCode::NotFound);
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
    f.turn(&s.id, "first question").await;
    f.turn(&s.id, "second question").await;
    let starts = f.turn_starts(&s.id);
    assert_eq!(starts.len(), 2);
    let original_last = f.service.session(&s.id).unwrap().last_seq;

    let outcome = f.service.rewind_session(&s.id, starts[1].0).unwrap();
    assert_eq!(outcome.text, "second question");
    assert_ne!(outcome.session.id, s.id);
    assert_eq!(outcome.session.last_seq, starts[1].0 - 1);
    assert_eq!(
        outcome.session.title.as_deref(),
        Some("Rewound: first question")
    );
    assert_eq!(f.service.session(&s.id).unwrap().last_seq, original_last);
    assert_eq!(f.service.list_sessions(None, 10, 0).unwrap().total, 2);

    f.turn(&outcome.session.id, "second question, reworded")
        .await;
    let sent = serde_json::to_string(&f.mock.requests().last().unwrap().body).unwrap();
    assert!(
        sent.contains("first question") && sent.contains("first answer"),
        "{sent}"
    );
    assert!(sent.contains("second question, reworded"), "{sent}");
    assert!(!sent.contains("second answer"), "{sent}");

    let not_a_turn = f
        .service
        .rewind_session(&s.id, starts[1].0 + 1)
        .unwrap_err();
    assert_eq!(not_a_turn.code(), ErrorCode::InvalidInput);
    let past_the_end = f
        .service
        .rewind_session(&s.id, original_last + 5)
        .unwrap_err();
    assert_eq!(past_the_end.code(), ErrorCode::NotFound);

    // A fork at the end shares everything and starts closed.
    let fork = f.service.fork_session(&s.id, None).unwrap();
    assert_eq!(fork.fork_seq, Some(original_last));
    assert!(!f.service.is_live(&fork.id));
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
    f.turn(&a.id, "where is the parser?").await;
    let b = f.start();
    f.turn(&b.id, "where are the docs?").await;

    let hits = f
        .service
        .search_sessions(&SearchRequest::new("parser"))
        .unwrap();
    assert!(hits.len() >= 2, "{hits:?}");
    assert!(hits.iter().all(|h| h.session.id == a.id), "{hits:?}");
    let user = hits.iter().find(|h| h.role == "user").unwrap();
    assert_eq!(
        user.snippet,
        format!("where is the {SEARCH_MARK_START}parser{SEARCH_MARK_END}?")
    );
    assert_eq!(user.seq, f.turn_starts(&a.id)[0].0);

    let elsewhere = tempfile::tempdir().unwrap();
    let mut in_folder = SearchRequest::new("parser");
    in_folder.cwd = Some(elsewhere.path().to_path_buf());
    assert!(f.service.search_sessions(&in_folder).unwrap().is_empty());
    let mut docs = SearchRequest::new("docs");
    docs.cwd = Some(f.work.path().to_path_buf());
    let here = f.service.search_sessions(&docs).unwrap();
    assert!(!here.is_empty() && here.iter().all(|h| h.session.id == b.id));
    assert!(f
        .service
        .search_sessions(&SearchRequest::new("   "))
        .unwrap()
        .is_empty());
    // Usage is recorded per model call.
    let usage = f.service.usage(Some(&a.id)).unwrap();
    assert_eq!(usage.calls, 1);
    assert_eq!(usage.by_model[0].model, "m1");
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_switches_models_from_the_header_or_with_slash_models() {
    let f = fixture(vec![
        MockResponse::text("one"),
        MockResponse::text("two"),
        MockResponse::text("three"),
    ])
    .await;
    let config = f.home.path().join("config.toml");
    let base = std::fs::read_to_string(&config).unwrap();
    // A provider added after the session started is offered too.
    let s = f.start();
    std::fs::write(
        &config,
        format!(
            "{base}[[providers.other]]\nname = \"other\"\nmodel = \"m2\"\nbase_url = \"{}/v1\"\n[model_profiles.m2]\ncontext_window = 9000\n",
            f.mock.base_url()
        ),
    )
    .unwrap();
    f.turn(&s.id, "first").await;

    let mut events = f
        .service
        .subscribe(&s.id, f.service.session(&s.id).unwrap().last_seq)
        .unwrap();
    f.service
        .submit(
            &s.id,
            Op::SwitchModel {
                provider: Some("other".into()),
                model: None,
            },
        )
        .unwrap();
    let switched = tokio::time::timeout(std::time::Duration::from_secs(5), events.recv())
        .await
        .unwrap()
        .unwrap();
    match switched.event {
        memo_protocol::AgentEvent::ModelSwitched {
            provider,
            model,
            context_window,
        } => assert_eq!(
            (provider.as_str(), model.as_str(), context_window),
            ("other", "m2", 9000)
        ),
        other => panic!("expected model_switched, got {other:?}"),
    }
    f.turn(&s.id, "second").await;
    // `/models NAME` with a model of the session's provider.
    f.service
        .submit(
            &s.id,
            Op::UserTurn {
                input: UserInput::text("/models m3"),
            },
        )
        .unwrap();
    loop {
        let env = tokio::time::timeout(std::time::Duration::from_secs(5), events.recv())
            .await
            .unwrap()
            .unwrap();
        if let memo_protocol::AgentEvent::CommandResult { ok, output, .. } = env.event {
            assert!(ok, "{output}");
            assert!(output.contains("other · m3"), "{output}");
            break;
        }
    }
    f.turn(&s.id, "third").await;
    let models: Vec<String> = f
        .mock
        .requests()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(models, ["m1", "m2", "m3"]);
    // The switch is recorded: the stored session (and a resume) uses it.
    let stored = f.service.session(&s.id).unwrap();
    assert_eq!(
        (stored.provider.as_str(), stored.model.as_str()),
        ("other", "m3")
    );

    // An unknown provider is refused with an error, and nothing changes.
    f.service
        .submit(
            &s.id,
            Op::SwitchModel {
                provider: Some("nope".into()),
                model: None,
            },
        )
        .unwrap();
    loop {
        let env = tokio::time::timeout(std::time::Duration::from_secs(5), events.recv())
            .await
            .unwrap()
            .unwrap();
        if let memo_protocol::AgentEvent::Error { message, .. } = env.event {
            assert!(message.contains("nope"), "{message}");
            break;
        }
    }
    assert_eq!(f.service.session(&s.id).unwrap().model, "m3");
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_tells_how_full_the_context_is_and_what_it_cost() {
    let f = fixture(vec![MockResponse::text("ok").with_usage(1000, 50)]).await;
    let config = f.home.path().join("config.toml");
    let base = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("{base}[model_profiles.m1]\ncontext_window = 50000\ninput_price_per_mtok = 2.0\noutput_price_per_mtok = 10.0\n"),
    )
    .unwrap();
    let s = f.start();
    let before = f.service.session_status(&s.id).unwrap();
    assert_eq!(before.context_window, 50_000);
    assert!(before.used_tokens > 0, "the prompt counts before any call");
    assert_eq!((before.calls, before.cost_usd), (0, None));
    f.turn(&s.id, "hi").await;
    let after = f.service.session_status(&s.id).unwrap();
    assert_eq!(after.used_tokens, 1050);
    assert_eq!(after.calls, 1);
    let cost = after.cost_usd.unwrap();
    assert!(
        (cost - (1000.0 * 2.0 + 50.0 * 10.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );
    assert_eq!(after.compact_at_percent, 90);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_prompt_inspector_says_which_hook_replaced_a_turns_system_prompt() {
    let f = fixture(vec![MockResponse::text("One."), MockResponse::text("Two.")]).await;
    let hook = r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemPrompt": d["system_prompt"] + "\nTEAM POLICY"}) if "policy" in d["prompt"] else "")'"#;
    f.configure(
        "",
        &format!(
            "[[hooks.BeforeAgentStart]]\nmatcher = \"\"\nhooks = [{{ type = \"command\", command = '''{hook}''' }}]\n"
        ),
    );
    let summary = f.start();
    f.turn(&summary.id, "apply the policy").await;
    let live = f
        .service
        .prompt_layers(Some(&summary.id), None, None, None)
        .unwrap();
    let turn = live.turn_override.expect("the turn's replacement");
    assert!(turn.content.ends_with("\nTEAM POLICY"), "{}", turn.content);
    assert_eq!(turn.changed_by.len(), 1);
    assert_eq!(turn.changed_by[0].command, hook);
    assert!(
        turn.changed_by[0].file.ends_with("config.toml"),
        "{:?}",
        turn.changed_by
    );
    // The next turn runs with the session's own prompt, and the inspector says so.
    f.turn(&summary.id, "something else").await;
    let live = f
        .service
        .prompt_layers(Some(&summary.id), None, None, None)
        .unwrap();
    assert!(live.turn_override.is_none());
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_exports_as_markdown_to_read_and_as_jsonl_that_imports_back() {
    let f = fixture(vec![
        MockResponse::tool_call("read_file", r#"{"file_path":"notes.txt"}"#),
        MockResponse::text("The note says ```hello```."),
    ])
    .await;
    std::fs::write(f.work.path().join("notes.txt"), "hello ```` fence\n").unwrap();
    let summary = f.start();
    f.turn(&summary.id, "What does the note say?").await;
    let out = tempfile::tempdir().unwrap();

    let md = out.path().join("session.md");
    std::fs::write(&md, "an older export").unwrap();
    let bytes = f
        .service
        .export_session(&summary.id, &md, memo_protocol::ExportFormat::Markdown)
        .unwrap();
    let text = std::fs::read_to_string(&md).unwrap();
    assert_eq!(bytes, text.len() as u64);
    assert!(text.starts_with("# "), "{text}");
    assert!(text.contains("## You · "), "{text}");
    assert!(text.contains("What does the note say?"));
    assert!(
        text.contains("<summary>read_file · done</summary>"),
        "{text}"
    );
    assert!(text.contains("\"file_path\": \"notes.txt\""), "{text}");
    // The file's own four backticks cannot close the fence around them.
    assert!(text.contains("`````\n"), "{text}");
    assert!(
        text.contains("## Memo\n\nThe note says ```hello```."),
        "{text}"
    );
    assert!(!text.contains("an older export"));

    let jsonl = out.path().join("session.jsonl");
    f.service
        .export_session(
            &summary.id,
            &jsonl,
            memo_protocol::ExportFormat::MemoCodeJsonl,
        )
        .unwrap();
    let report = f
        .service
        .import_memo_code(std::slice::from_ref(&jsonl))
        .unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(report.files[0].status, memo_protocol::ImportStatus::New);
    let imported = report.files[0].session_id.clone().unwrap();
    assert_ne!(imported, summary.id);

    // A folder that is not there: an error, and no stray temporary file.
    let missing = out.path().join("gone/session.md");
    let err = f
        .service
        .export_session(&summary.id, &missing, memo_protocol::ExportFormat::Markdown)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    assert!(err.to_string().contains("gone"), "{err}");
    let left: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    f.finish().await;
}
