//! Plugins through the service, as Settings → Plugins uses them: installed from a folder
//! and listed with every part under its namespace, errors with their own codes, switched
//! off and on, removed; an installed plugin's command reaching the model through a
//! session started by the service, and its skill offered on the skills page.

mod support;

use std::path::{Path, PathBuf};

use memo_protocol::{ErrorCode, PluginInstall, PluginSourceKind, SkillScopeKind};
use memo_test_support::MockResponse;
use support::fixture;

fn fixture_plugin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../plugins/tests/fixtures/memo-demo")
        .canonicalize()
        .unwrap()
}

fn folder(path: &Path) -> PluginInstall {
    PluginInstall::Folder {
        path: path.display().to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugin_installed_in_settings_is_listed_with_its_parts_and_its_command_works() {
    let f = fixture(vec![MockResponse::text("Hello.")]).await;
    assert!(f.service.list_plugins().unwrap().plugins.is_empty());

    let page = f
        .service
        .install_plugin(&folder(&fixture_plugin()), false)
        .await
        .unwrap();
    assert_eq!(
        page.dir,
        f.home.path().join("plugins").display().to_string()
    );
    let [plugin] = page.plugins.as_slice() else {
        panic!("{page:?}")
    };
    assert_eq!(plugin.name, "memo-demo");
    assert_eq!(plugin.version.as_deref(), Some("1.2.0"));
    assert_eq!(plugin.author.as_deref(), Some("Memo tests"));
    assert!(plugin
        .description
        .as_deref()
        .unwrap()
        .starts_with("A demo plugin"));
    assert_eq!(plugin.source_kind, PluginSourceKind::Folder);
    assert_eq!(plugin.source, fixture_plugin().display().to_string());
    assert!(plugin.enabled);
    assert_eq!(plugin.commands[0].name, "memo-demo:greet");
    assert_eq!(plugin.skills[0].name, "memo-demo:release-notes");
    assert_eq!(plugin.agents[0].name, "memo-demo:reviewer");
    assert_eq!(plugin.hooks[0].event, "UserPromptSubmit");
    assert_eq!(plugin.mcp_servers[0].name, "memo-demo_notes");
    assert!(plugin.problems.is_empty(), "{:?}", plugin.problems);

    // The skills page shows the plugin's skill, read-only and on.
    let skills = f.service.list_skills(Some(f.work.path())).unwrap();
    let skill = skills
        .skills
        .iter()
        .find(|s| s.name == "memo-demo:release-notes")
        .unwrap();
    assert_eq!(skill.scope, SkillScopeKind::Plugin);
    assert!(skill.enabled && !skill.editable);

    let session = f.start();
    f.turn(&session.id, "/memo-demo:greet Grace").await;
    let sent = serde_json::to_string(&f.mock.requests()[0].body).unwrap();
    assert!(
        sent.contains("Say hello to Grace on behalf of the memo-demo plugin."),
        "{sent}"
    );

    let page = f.service.set_plugin_enabled("memo-demo", false).unwrap();
    assert!(!page.plugins[0].enabled);
    let skills = f.service.list_skills(Some(f.work.path())).unwrap();
    assert!(!skills
        .skills
        .iter()
        .any(|s| s.name.starts_with("memo-demo:")));

    let page = f.service.remove_plugin("memo-demo").unwrap();
    assert!(page.plugins.is_empty());
    assert!(!f.home.path().join("plugins/memo-demo").exists());
    assert!(fixture_plugin().join(".claude-plugin/plugin.json").exists());
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plugin_errors_carry_their_own_codes() {
    let f = fixture(Vec::new()).await;
    let code = |e: memo_service::ServiceError| e.code();
    let missing = f.work.path().join("missing");
    let err = f
        .service
        .install_plugin(&folder(&missing), false)
        .await
        .unwrap_err();
    assert_eq!(code(err), ErrorCode::NotFound);
    let err = f
        .service
        .install_plugin(&folder(f.work.path()), false)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("not a Claude Code plugin"),
        "{err}"
    );
    assert_eq!(code(err), ErrorCode::InvalidInput);
    let err = f
        .service
        .install_plugin(
            &PluginInstall::Folder {
                path: "relative/dir".into(),
            },
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(code(err), ErrorCode::InvalidInput);
    let err = f
        .service
        .install_plugin(&PluginInstall::Git { url: "nope".into() }, false)
        .await
        .unwrap_err();
    assert_eq!(code(err), ErrorCode::InvalidInput);

    f.service
        .install_plugin(&folder(&fixture_plugin()), false)
        .await
        .unwrap();
    let err = f
        .service
        .install_plugin(&folder(&fixture_plugin()), false)
        .await
        .unwrap_err();
    assert_eq!(code(err), ErrorCode::Conflict);
    let page = f
        .service
        .install_plugin(&folder(&fixture_plugin()), true)
        .await
        .unwrap();
    assert_eq!(page.plugins.len(), 1);
    let err = f.service.set_plugin_enabled("ghost", true).unwrap_err();
    assert_eq!(code(err), ErrorCode::NotFound);
    let err = f.service.remove_plugin("../memo-demo").unwrap_err();
    assert_eq!(code(err), ErrorCode::InvalidInput);
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plugins_claude_code_installed_are_used_where_they_are_and_turned_off_for_memo_only() {
    let f = fixture(vec![MockResponse::text("Hi.")]).await;
    let user = tempfile::tempdir().unwrap();
    // Claude Code's layout: the copy in its cache (no plugin.json: the name comes from
    // the id), the install list in version 2, and the plugin on in its user settings.
    let root = user
        .path()
        .join(".claude/plugins/cache/team-market/hello-cc/0.3.0");
    std::fs::create_dir_all(root.join("commands")).unwrap();
    std::fs::write(
        root.join("commands/hi.md"),
        "---\ndescription: Greets\n---\nGreet $ARGUMENTS from the Claude Code plugin.\n",
    )
    .unwrap();
    let other = user
        .path()
        .join(".claude/plugins/cache/team-market/quiet/1.0.0");
    std::fs::create_dir_all(&other).unwrap();
    let list = serde_json::json!({
        "version": 2,
        "plugins": {
            "hello-cc@team-market": [
                {"scope": "project", "projectPath": "/elsewhere", "installPath": "/nowhere", "version": "0.1.0"},
                {"scope": "user", "installPath": root, "version": "0.3.0"}
            ],
            "quiet@team-market": [{"scope": "user", "installPath": other, "version": "1.0.0"}]
        }
    });
    std::fs::write(
        user.path().join(".claude/plugins/installed_plugins.json"),
        list.to_string(),
    )
    .unwrap();
    let settings = user.path().join(".claude/settings.json");
    std::fs::write(
        &settings,
        r#"{"enabledPlugins": {"hello-cc@team-market": true, "quiet@team-market": false}}"#,
    )
    .unwrap();
    let home = user.path().display().to_string();
    let service = memo_service::Service::new(
        Ok(memo_config::MemoHome::at(f.home.path())),
        std::sync::Arc::new(memo_config::MemoryCredentialStore::new()),
        std::sync::Arc::new(move |name: &str| (name == "HOME").then(|| home.clone())),
    );

    let page = service.list_plugins().unwrap();
    let names: Vec<(&str, bool, PluginSourceKind)> = page
        .plugins
        .iter()
        .map(|p| (p.name.as_str(), p.enabled, p.source_kind))
        .collect();
    assert_eq!(
        names,
        [
            ("hello-cc", true, PluginSourceKind::ClaudeCode),
            ("quiet", false, PluginSourceKind::ClaudeCode)
        ]
    );
    let hello = &page.plugins[0];
    assert_eq!(hello.source, "hello-cc@team-market");
    assert_eq!(hello.version.as_deref(), Some("0.3.0"));
    assert_eq!(hello.commands[0].name, "hello-cc:hi");
    assert!(page.plugins[1].problems[0].contains("off in Claude Code"));

    // Its command reaches the model in a session.
    let session = service
        .start_session(memo_service::StartRequest {
            cwd: f.work.path().to_path_buf(),
            ..memo_service::StartRequest::default()
        })
        .unwrap();
    let mut events = service.subscribe(&session.id, 0).unwrap();
    service
        .submit(
            &session.id,
            memo_protocol::Op::UserTurn {
                input: memo_protocol::UserInput::text("/hello-cc:hi Ann"),
            },
        )
        .unwrap();
    loop {
        let env = tokio::time::timeout(std::time::Duration::from_secs(10), events.recv())
            .await
            .unwrap()
            .unwrap();
        if matches!(env.event, memo_protocol::AgentEvent::TurnEnded { .. }) {
            break;
        }
    }
    let sent = serde_json::to_string(&f.mock.requests()[0].body).unwrap();
    assert!(
        sent.contains("Greet Ann from the Claude Code plugin."),
        "{sent}"
    );

    // Off in Memo: Claude Code's own settings stay as they were.
    let before = std::fs::read_to_string(&settings).unwrap();
    let page = service.set_plugin_enabled("hello-cc", false).unwrap();
    assert!(!page.plugins[0].enabled);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
    let page = service.set_plugin_enabled("hello-cc", true).unwrap();
    assert!(page.plugins[0].enabled);
    let err = service.remove_plugin("hello-cc").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(
        err.to_string().contains("installed by Claude Code"),
        "{err}"
    );
    assert!(root.join("commands/hi.md").exists());
    service.close_session(&session.id).await;
    f.finish().await;
}
