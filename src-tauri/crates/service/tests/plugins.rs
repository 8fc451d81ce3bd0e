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
