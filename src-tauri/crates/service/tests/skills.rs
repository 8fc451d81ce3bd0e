//! Skills through the service: listed from every root, created, edited, renamed, deleted
//! (to the trash) and enabled through `active_skills`, and a created skill's body reaching
//! the model with `$name`.

mod support;

use memo_protocol::{EditableFileKind, ErrorCode, SkillChange, SkillScopeKind, SkillsPage};
use memo_test_support::MockResponse;
use support::fixture;

fn find<'a>(page: &'a SkillsPage, name: &str) -> &'a memo_protocol::SkillInfo {
    page.skills
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no skill {name} in {page:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_created_in_settings_is_listed_enabled_and_its_body_reaches_the_model() {
    let f = fixture(vec![MockResponse::text("Done.")]).await;
    let cwd = Some(f.work.path());
    let page = f
        .service
        .change_skill(
            &SkillChange::Create {
                scope: SkillScopeKind::User,
                name: "Release Notes".into(),
                description: "Write release notes: from the changelog".into(),
                body: "# Release notes\n\nGroup changes by kind; thank contributors.".into(),
            },
            cwd,
        )
        .unwrap();
    let created = find(&page, "Release Notes");
    assert_eq!(created.scope, SkillScopeKind::User);
    assert!(created.enabled && created.editable);
    assert!(
        created.path.ends_with("skills/release-notes/SKILL.md"),
        "{}",
        created.path
    );
    assert_eq!(
        created.description,
        "Write release notes: from the changelog"
    );

    let session = f.start();
    f.turn(&session.id, "Use $release-notes for v2").await;
    let sent = serde_json::to_string(&f.mock.requests()[0].body).unwrap();
    assert!(sent.contains("thank contributors"), "{sent}");

    // A second skill of the same name is refused; bad input writes nothing.
    for (name, description) in [("Release Notes", "again"), ("", "x"), ("ok", "  ")] {
        let err = f
            .service
            .change_skill(
                &SkillChange::Create {
                    scope: SkillScopeKind::User,
                    name: name.into(),
                    description: description.into(),
                    body: String::new(),
                },
                cwd,
            )
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidInput, "{name:?}: {err}");
    }
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_are_edited_renamed_disabled_and_deleted_to_the_trash() {
    let f = fixture(vec![]).await;
    let cwd = Some(f.work.path());
    std::fs::create_dir_all(f.work.path().join(".git")).unwrap();
    let page = f
        .service
        .change_skill(
            &SkillChange::Create {
                scope: SkillScopeKind::Project,
                name: "lint".into(),
                description: "Run the linters.".into(),
                body: "Run `cargo clippy`.".into(),
            },
            cwd,
        )
        .unwrap();
    let lint = find(&page, "lint").clone();
    assert_eq!(lint.scope, SkillScopeKind::Project);
    assert!(
        lint.path.contains(".agents/skills/lint/SKILL.md"),
        "{}",
        lint.path
    );

    // Edit: the text is checked first; a SKILL.md without a description is refused.
    let file = f
        .service
        .read_file(EditableFileKind::Skill, cwd, Some(lint.path.as_ref()))
        .unwrap();
    let err = f
        .service
        .change_skill(
            &SkillChange::Save {
                path: lint.path.clone(),
                content: "---\nname: lint\n---\nbody".into(),
                revision: file.revision.clone(),
            },
            cwd,
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(err.to_string().contains("description"), "{err}");
    let page = f
        .service
        .change_skill(
            &SkillChange::Save {
                path: lint.path.clone(),
                content: file
                    .content
                    .replace("Run the linters.", "Run every linter."),
                revision: file.revision.clone(),
            },
            cwd,
        )
        .unwrap();
    assert_eq!(find(&page, "lint").description, "Run every linter.");

    // Disable: active_skills is written in Memo Code's path form and hides only it.
    let page = f
        .service
        .change_skill(
            &SkillChange::SetEnabled {
                path: lint.path.clone(),
                enabled: false,
                config_revision: page.config_revision.clone(),
            },
            cwd,
        )
        .unwrap();
    assert!(page.filtered);
    assert!(!find(&page, "lint").enabled);
    assert!(find(&page, "skill-creator").enabled);
    let config = std::fs::read_to_string(f.home.path().join("config.toml")).unwrap();
    assert!(config.contains("active_skills"), "{config}");
    let prompt = f
        .service
        .prompt_layers(None, Some(f.work.path().to_path_buf()), None, None)
        .unwrap();
    let listing: String = prompt.layers.iter().map(|l| l.content.clone()).collect();
    assert!(!listing.contains("Run every linter."));
    assert!(listing.contains("skill-creator"));
    let page = f
        .service
        .change_skill(
            &SkillChange::SetEnabled {
                path: lint.path.clone(),
                enabled: true,
                config_revision: page.config_revision.clone(),
            },
            cwd,
        )
        .unwrap();
    assert!(find(&page, "lint").enabled);

    // Rename moves the folder and keeps it enabled.
    let page = f
        .service
        .change_skill(
            &SkillChange::Rename {
                path: lint.path.clone(),
                new_name: "Lint All".into(),
            },
            cwd,
        )
        .unwrap();
    let renamed = find(&page, "Lint All").clone();
    assert!(
        renamed.path.ends_with("lint-all/SKILL.md"),
        "{}",
        renamed.path
    );
    assert!(renamed.enabled);
    assert!(!std::path::Path::new(&lint.path).exists());

    // Delete moves the folder to the trash.
    let page = f
        .service
        .change_skill(
            &SkillChange::Delete {
                path: renamed.path.clone(),
            },
            cwd,
        )
        .unwrap();
    assert!(page.skills.iter().all(|s| s.name != "Lint All"));
    let trash = f.home.path().join("trash/skills");
    let kept: Vec<_> = std::fs::read_dir(&trash).unwrap().flatten().collect();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].path().join("SKILL.md").is_file());

    // The built-in skill cannot be changed.
    let builtin = find(&page, "skill-creator").clone();
    assert!(!builtin.editable);
    let err = f
        .service
        .change_skill(
            &SkillChange::Delete {
                path: builtin.path.clone(),
            },
            cwd,
        )
        .unwrap_err();
    assert!(matches!(
        err.code(),
        ErrorCode::NotFound | ErrorCode::InvalidInput
    ));
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_agents_user_skills_are_listed_read_only() {
    let f = fixture(vec![]).await;
    let user_home = tempfile::tempdir().unwrap();
    let dir = user_home.path().join(".claude/skills/commit");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: commit\ndescription: Write commit messages.\n---\nbody",
    )
    .unwrap();
    let home = user_home.path().display().to_string();
    let service = memo_service::Service::new(
        Ok(memo_config::MemoHome::at(f.home.path())),
        std::sync::Arc::new(memo_config::MemoryCredentialStore::new()),
        std::sync::Arc::new(move |name: &str| (name == "HOME").then(|| home.clone())),
    );
    let page = service.list_skills(None).unwrap();
    let commit = find(&page, "commit");
    assert_eq!(commit.scope, SkillScopeKind::OtherAgent);
    assert!(!commit.editable);
    let err = service
        .change_skill(
            &SkillChange::Delete {
                path: commit.path.clone(),
            },
            None,
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(dir.join("SKILL.md").is_file());
    f.finish().await;
}
