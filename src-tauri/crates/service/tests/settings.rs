//! Settings through the service, on real files: providers in config.toml, SOUL.md and a
//! folder's instructions, connection tests and the local-server probe.

mod support;

use memo_protocol::{
    EditableFileKind, ErrorCode, ModelProfileInput, ProviderChange, ProviderInput,
};
use memo_test_support::{MockLlmServer, MockResponse};
use support::{fixture, service_at};

fn input(name: &str, base_url: &str) -> ProviderInput {
    ProviderInput {
        name: name.into(),
        api: "openai".into(),
        model: "m2".into(),
        base_url: Some(base_url.into()),
        env_api_key: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn providers_are_added_made_current_and_profiled_keeping_comments() {
    let f = fixture(vec![MockResponse::text("ok")]).await;
    let path = f.home.path().join("config.toml");
    let original = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("# written by hand\n{original}")).unwrap();

    let page = f.service.provider_settings().unwrap();
    assert_eq!(page.providers.len(), 1);
    assert!(page.providers[0].is_current);
    assert!(
        !page.providers[0].key.required,
        "a loopback server needs no key"
    );

    let second = format!("{}/v1", f.mock.base_url());
    let page = f
        .service
        .update_providers(
            &ProviderChange::Save {
                original: None,
                provider: input("local", &second),
                make_current: true,
            },
            &page.revision,
        )
        .unwrap();
    assert_eq!(page.current_provider.as_deref(), Some("local"));
    let page = f
        .service
        .update_providers(
            &ProviderChange::SaveProfile {
                key: "m2".into(),
                profile: ModelProfileInput {
                    context_window: Some(16_000),
                    temperature: Some(0.2),
                    ..ModelProfileInput::default()
                },
            },
            &page.revision,
        )
        .unwrap();
    assert_eq!(page.model_profiles[0].profile.context_window, Some(16_000));
    assert_eq!(page.model_profiles[0].profile.temperature, Some(0.2));
    let too_hot = f
        .service
        .update_providers(
            &ProviderChange::SaveProfile {
                key: "m2".into(),
                profile: ModelProfileInput {
                    temperature: Some(3.0),
                    ..ModelProfileInput::default()
                },
            },
            &page.revision,
        )
        .unwrap_err();
    assert_eq!(too_hot.code(), ErrorCode::InvalidInput);
    assert!(too_hot.to_string().contains("from 0 to 2"), "{too_hot}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# written by hand\n"), "{text}");

    // The next session uses the new current provider.
    let session = f.start();
    assert_eq!(
        (session.provider.as_str(), session.model.as_str()),
        ("local", "m2")
    );
    // ...with the profile's temperature in its requests.
    f.turn(&session.id, "hi").await;
    assert_eq!(f.mock.requests()[0].body["temperature"], 0.2);

    // A stale revision is a conflict and writes nothing.
    let stale = f
        .service
        .update_providers(
            &ProviderChange::Remove {
                name: "mock".into(),
            },
            "1-0000",
        )
        .unwrap_err();
    assert_eq!(stale.code(), ErrorCode::Conflict);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    // Bad input is refused with a clear error and writes nothing.
    let mut bad = input("x", "ftp://nope");
    let err = f
        .service
        .update_providers(
            &ProviderChange::Save {
                original: None,
                provider: bad.clone(),
                make_current: false,
            },
            &page.revision,
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    bad.base_url = None;
    bad.api = "cobol".into();
    assert_eq!(
        f.service
            .update_providers(
                &ProviderChange::Save {
                    original: None,
                    provider: bad,
                    make_current: false
                },
                &page.revision,
            )
            .unwrap_err()
            .code(),
        ErrorCode::InvalidInput
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_config_is_reported_with_its_place_and_left_alone() {
    let home = tempfile::tempdir().unwrap();
    let broken = "current_provider = \"a\"\n[[providers.a]]\nname = \"a\"\nmodel = [1]\n";
    std::fs::write(home.path().join("config.toml"), broken).unwrap();
    let service = service_at(home.path(), Default::default());
    let err = service.provider_settings().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Config);
    assert!(err.to_string().contains("config.toml:4:"), "{err}");
    let err = service
        .update_providers(&ProviderChange::MakeCurrent { name: "a".into() }, "absent")
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Config);
    assert_eq!(
        std::fs::read_to_string(home.path().join("config.toml")).unwrap(),
        broken
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soul_md_edits_reach_the_next_request_and_stale_saves_are_conflicts() {
    let f = fixture(vec![MockResponse::text("a"), MockResponse::text("b")]).await;
    let session = f.start();
    f.turn(&session.id, "first").await;
    let soul = f
        .service
        .read_file(EditableFileKind::Soul, None, None)
        .unwrap();
    assert!(soul.path.ends_with("SOUL.md"));
    let saved = f
        .service
        .write_file(
            EditableFileKind::Soul,
            None,
            None,
            "Always answer like a pirate.\n",
            &soul.revision,
        )
        .unwrap();
    assert!(saved.exists);
    assert_ne!(saved.revision, soul.revision);
    let prompt = f
        .service
        .prompt_layers(None, Some(f.work.path().to_path_buf()), None, None)
        .unwrap();
    assert!(
        prompt
            .layers
            .iter()
            .any(|l| l.content.contains("like a pirate")),
        "SOUL.md is in the prompt"
    );
    // The session that was already open sends it with its next turn.
    f.turn(&session.id, "second").await;
    let requests = f.mock.requests();
    let first = serde_json::to_string(&requests[0].body).unwrap();
    let second = serde_json::to_string(&requests[1].body).unwrap();
    assert!(!first.contains("like a pirate"));
    assert!(second.contains("like a pirate"), "{second}");
    // Someone else wrote the file meanwhile: the old revision is refused.
    std::fs::write(&saved.path, "changed elsewhere").unwrap();
    let err = f
        .service
        .write_file(EditableFileKind::Soul, None, None, "mine", &saved.revision)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Conflict);
    assert_eq!(
        std::fs::read_to_string(&saved.path).unwrap(),
        "changed elsewhere"
    );
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folders_instructions_are_its_agents_md_or_the_claude_md_it_has() {
    let f = fixture(vec![]).await;
    let cwd = Some(f.work.path());
    let fresh = f
        .service
        .read_file(EditableFileKind::ProjectInstructions, cwd, None)
        .unwrap();
    assert!(fresh.path.ends_with("AGENTS.md") && !fresh.exists);
    assert_eq!(fresh.revision, "absent");
    std::fs::write(f.work.path().join("CLAUDE.md"), "Use tabs.").unwrap();
    let claude = f
        .service
        .read_file(EditableFileKind::ProjectInstructions, cwd, None)
        .unwrap();
    assert!(claude.path.ends_with("CLAUDE.md"));
    assert_eq!(claude.content, "Use tabs.");
    // Saving against "absent" when a file appeared in between is a conflict.
    let err = f
        .service
        .write_file(
            EditableFileKind::ProjectInstructions,
            cwd,
            None,
            "x",
            "absent",
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Conflict);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_connection_tells_ok_refused_key_nothing_listening_and_missing_key_apart() {
    let mock = MockLlmServer::start_with([MockResponse::text("OK"), MockResponse::http_error(401)])
        .await
        .unwrap();
    let f = fixture(vec![]).await;
    let url = format!("{}/v1", mock.base_url());
    let ok = f
        .service
        .test_connection(&input("t", &url), None)
        .await
        .unwrap();
    assert!(ok.ok, "{ok:?}");
    assert_eq!(ok.outcome, "ok");
    let refused = f
        .service
        .test_connection(&input("t", &url), Some("sk-wrong"))
        .await
        .unwrap();
    assert_eq!(refused.outcome, "auth", "{refused:?}");
    assert!(!refused.ok);
    let sent = mock.requests();
    assert_eq!(sent.len(), 2);
    assert!(format!("{:?}", sent[1].headers).contains("sk-wrong"));

    // Nothing listens on a port that was just freed.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let nothing = f
        .service
        .test_connection(&input("t", &format!("http://127.0.0.1:{port}/v1")), None)
        .await
        .unwrap();
    assert_eq!(nothing.outcome, "network", "{nothing:?}");

    let remote = f
        .service
        .test_connection(&input("t", "https://api.example.invalid/v1"), None)
        .await
        .unwrap();
    assert_eq!(remote.outcome, "missing_key", "{remote:?}");
    mock.shutdown().await;
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_finds_a_local_server_and_its_models() {
    let f = fixture(vec![]).await;
    f.mock.set_models(&["qwen2.5-coder:1.5b", "llama3"]);
    let port = f.mock.addr().port();
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let found = f
        .service
        .probe_ports(&[
            ("ollama".into(), "Ollama".into(), port),
            ("vllm".into(), "vLLM".into(), closed),
        ])
        .await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, "ollama");
    assert_eq!(found[0].base_url, format!("http://127.0.0.1:{port}/v1"));
    assert_eq!(found[0].models, ["qwen2.5-coder:1.5b", "llama3"]);
    assert_eq!(found[0].context_window, None, "the server did not say");

    // The context size the server runs with, as llama.cpp and Ollama report it.
    f.mock.set_context_window(Some(8192));
    for kind in ["ollama", "llama.cpp"] {
        let found = f
            .service
            .probe_ports(&[(kind.into(), kind.into(), port)])
            .await;
        assert_eq!(found[0].context_window, Some(8192), "{kind}");
    }
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_that_answers_without_models_is_said_not_hidden() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let f = fixture(vec![]).await;
    // Something on the port answers HTTP, but 404 to every path (another program).
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut buf = [0u8; 2048];
            let _ = socket.read(&mut buf).await;
            let _ = socket
                .write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .await;
        }
    });
    let found = f
        .service
        .probe_ports(&[("llama.cpp".into(), "llama.cpp".into(), port)])
        .await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].models.is_empty());
    assert_eq!(
        found[0].no_models.as_ref().map(|p| p.english()).as_deref(),
        Some("answered HTTP 404 at /v1/models")
    );
    assert_eq!(found[0].base_url, format!("http://127.0.0.1:{port}/v1"));
    server.abort();
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_composer_gets_commands_skills_and_paths_to_complete() {
    use memo_protocol::CompletionKind;
    let f = fixture(vec![]).await;
    let commands = f.work.path().join(".claude/commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(
        commands.join("review.md"),
        "---\ndescription: Review the staged diff\n---\nReview $ARGUMENTS",
    )
    .unwrap();
    std::fs::write(f.work.path().join("README.md"), "x").unwrap();
    let complete = |kind, typed: &str| {
        f.service
            .complete(f.work.path(), None, kind, typed, 12)
            .unwrap()
    };
    let found = complete(CompletionKind::Command, "rev");
    assert_eq!(found[0].value, "/review");
    assert_eq!(found[0].detail.as_deref(), Some("Review the staged diff"));
    assert!(complete(CompletionKind::Command, "he")
        .iter()
        .any(|c| c.value == "/help"));
    let skills = complete(CompletionKind::Skill, "skill");
    assert_eq!(skills[0].value, "$skill-creator");
    let paths = complete(CompletionKind::Path, "read");
    assert_eq!(paths[0].value, "@README.md");

    // Chinese names complete from their characters, whole or in part.
    std::fs::create_dir_all(f.work.path().join("文档")).unwrap();
    std::fs::write(f.work.path().join("文档/会议记录.md"), "x").unwrap();
    std::fs::write(commands.join("代码审查.md"), "审查 $ARGUMENTS").unwrap();
    let paths = complete(CompletionKind::Path, "文档/会议");
    assert_eq!(paths[0].value, "@文档/会议记录.md", "{paths:?}");
    let paths = complete(CompletionKind::Path, "记录");
    assert!(
        paths.iter().any(|c| c.value == "@文档/会议记录.md"),
        "{paths:?}"
    );
    let found = complete(CompletionKind::Command, "代码");
    assert_eq!(found[0].value, "/代码审查", "{found:?}");
    // A project skill with a Chinese name and description is offered for `$` by either.
    let skill = f.work.path().join(".claude/skills/周报");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: 周报\ndescription: 按团队模板写本周工作总结\n---\n先列出本周完成的事项。",
    )
    .unwrap();
    let skills = complete(CompletionKind::Skill, "周");
    assert_eq!(skills[0].value, "$周报", "{skills:?}");
    assert!(skills[0]
        .detail
        .as_deref()
        .unwrap_or_default()
        .contains("工作总结"));
    f.finish().await;
}
