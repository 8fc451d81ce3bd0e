use super::*;

const COMMENTED: &str = r#"# My Memo config — keep this comment
current_provider = "deepseek"
auto_compact_threshold_percent = 85   # trailing comment kept
some_future_key = "memo code owns this"

[[providers.deepseek]]
name = "deepseek"
env_api_key = "DEEPSEEK_API_KEY"
model = "deepseek-chat"   # the cheap one
base_url = "https://api.deepseek.com"
unknown_provider_key = 7

[model_profiles."deepseek-chat"]
# why: the provider's limit
context_window = 64000
custom = true

[mcp_servers.files]
command = "npx"
"#;

fn file_with(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn claude() -> ProviderEdit {
    ProviderEdit {
        name: "claude".into(),
        api: WireApi::Anthropic,
        model: "claude-sonnet-4-5".into(),
        base_url: None,
        env_api_key: Some("ANTHROPIC_API_KEY".into()),
    }
}

#[test]
fn adding_a_provider_keeps_comments_order_and_unknown_keys() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    file.upsert_provider(None, &claude()).unwrap();
    file.set_current_provider("claude").unwrap();
    file.save().unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    for kept in [
        "# My Memo config — keep this comment",
        "auto_compact_threshold_percent = 85   # trailing comment kept",
        "some_future_key = \"memo code owns this\"",
        "model = \"deepseek-chat\"   # the cheap one",
        "unknown_provider_key = 7",
        "# why: the provider's limit",
        "custom = true",
        "[mcp_servers.files]",
    ] {
        assert!(text.contains(kept), "lost {kept:?} in\n{text}");
    }
    assert!(text.contains("[[providers.claude]]"), "{text}");
    assert!(text.find("[[providers.deepseek]]") < text.find("[[providers.claude]]"));
    let config = Config::parse(&text, &path).unwrap();
    assert_eq!(config.current_provider.as_deref(), Some("claude"));
    let added = config.provider(Some("claude")).unwrap();
    assert_eq!(added.api, WireApi::Anthropic);
    assert_eq!(added.env_api_key.as_deref(), Some("ANTHROPIC_API_KEY"));
}

#[test]
fn editing_and_renaming_a_provider_moves_its_group_and_the_current_name() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    let edit = ProviderEdit {
        name: "ds".into(),
        api: WireApi::Openai,
        model: "deepseek-reasoner".into(),
        base_url: Some("https://api.deepseek.com".into()),
        env_api_key: None,
    };
    file.upsert_provider(Some("deepseek"), &edit).unwrap();
    file.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let config = Config::parse(&text, &path).unwrap();
    assert_eq!(config.current_provider.as_deref(), Some("ds"));
    let p = config.provider(Some("ds")).unwrap();
    assert_eq!(p.model, "deepseek-reasoner");
    assert_eq!(p.env_api_key, None);
    assert!(text.contains("[[providers.ds]]"), "{text}");
    assert!(text.contains("unknown_provider_key = 7"), "{text}");
    assert!(text.contains("# the cheap one"), "{text}");
}

#[test]
fn duplicate_names_bad_names_and_unknown_providers_are_refused() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    let mut dup = claude();
    dup.name = "deepseek".into();
    assert!(matches!(
        file.upsert_provider(None, &dup),
        Err(ConfigError::Edit { .. })
    ));
    let mut bad = claude();
    bad.name = "has space".into();
    assert!(file.upsert_provider(None, &bad).is_err());
    assert!(file.upsert_provider(Some("nope"), &claude()).is_err());
    assert!(file.remove_provider("nope").is_err());
    assert!(file.set_current_provider("nope").is_err());
    // Nothing was written by the refusals.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), COMMENTED);
}

#[test]
fn removing_the_current_provider_drops_current_provider() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    file.upsert_provider(None, &claude()).unwrap();
    file.remove_provider("deepseek").unwrap();
    file.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let config = Config::parse(&text, &path).unwrap();
    assert_eq!(config.current_provider, None);
    assert_eq!(config.provider_names(), ["claude"]);
    assert!(!text.contains("providers.deepseek"), "{text}");
}

#[test]
fn the_array_form_is_edited_in_place() {
    let (_dir, path) = file_with(
        "[[providers]]\nname = \"a\"\nmodel = \"m\"\n\n[[providers]]\nname = \"b\"\nmodel = \"m\"\n",
    );
    let mut file = ConfigFile::open(&path).unwrap();
    file.upsert_provider(None, &claude()).unwrap();
    file.remove_provider("a").unwrap();
    file.save().unwrap();
    let config = Config::load_file(&path).unwrap();
    assert_eq!(config.provider_names(), ["b", "claude"]);
}

#[test]
fn model_profiles_are_set_kept_and_removed_when_empty() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    file.set_model_profile(
        "deepseek-chat",
        &ModelProfileEdit {
            context_window: Some(128_000),
            input_price_per_mtok: Some(0.27),
            ..ModelProfileEdit::default()
        },
    )
    .unwrap();
    file.set_model_profile(
        "claude-sonnet-4-5",
        &ModelProfileEdit {
            thinking_budget_tokens: Some(8000),
            temperature: Some(0.25),
            ..ModelProfileEdit::default()
        },
    )
    .unwrap();
    file.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# why: the provider's limit"), "{text}");
    assert!(text.contains("custom = true"), "{text}");
    let config = Config::parse(&text, &path).unwrap();
    let profile = &config.model_profiles["deepseek-chat"];
    assert_eq!(profile.context_window, Some(128_000));
    assert_eq!(profile.input_price_per_mtok, Some(0.27));
    assert_eq!(
        config.model_profiles["claude-sonnet-4-5"].thinking_budget_tokens,
        Some(8000)
    );
    assert_eq!(
        config.model_profiles["claude-sonnet-4-5"].temperature,
        Some(0.25)
    );

    let mut file = ConfigFile::open(&path).unwrap();
    file.set_model_profile("claude-sonnet-4-5", &ModelProfileEdit::default())
        .unwrap();
    file.save().unwrap();
    let config = Config::load_file(&path).unwrap();
    assert!(!config.model_profiles.contains_key("claude-sonnet-4-5"));
}

#[test]
fn a_change_on_disk_since_opening_is_a_conflict_and_nothing_is_lost() {
    let (_dir, path) = file_with(COMMENTED);
    let mut file = ConfigFile::open(&path).unwrap();
    file.upsert_provider(None, &claude()).unwrap();
    let theirs = format!("{COMMENTED}\n# added in an editor meanwhile\n");
    std::fs::write(&path, &theirs).unwrap();
    let err = file.save().unwrap_err();
    assert!(matches!(err, ConfigError::Conflict { .. }), "{err}");
    assert!(err.to_string().contains("changed on disk"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    // No temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != "config.toml")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn an_invalid_file_is_reported_with_its_place_and_never_edited() {
    let broken = "current_provider = \"x\"\n[[providers.x]]\nname = \"x\"\nmodel = 5\n";
    let (_dir, path) = file_with(broken);
    let err = ConfigFile::open(&path).err().unwrap();
    let message = err.to_string();
    assert!(message.contains("config.toml:4:"), "{message}");
    let (_dir2, path2) = file_with("this is = = not toml");
    assert!(matches!(
        ConfigFile::open(&path2),
        Err(ConfigError::Invalid { line: 1, .. })
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
}

#[test]
fn a_missing_file_is_created_and_lists_are_set_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let mut file = ConfigFile::open(&path).unwrap();
    assert_eq!(file.revision().as_str(), Revision::ABSENT);
    file.upsert_provider(None, &claude()).unwrap();
    file.set_string_list("active_skills", Some(&["review".to_owned()]));
    let revision = file.save().unwrap();
    assert_eq!(revision, Revision::of_file(&path).unwrap());
    let config = Config::load_file(&path).unwrap();
    assert_eq!(config.provider_names(), ["claude"]);
    assert!(config.extra.contains_key("active_skills"));
    let mut file = ConfigFile::open(&path).unwrap();
    file.set_string_list("active_skills", None);
    file.save().unwrap();
    assert!(!Config::load_file(&path)
        .unwrap()
        .extra
        .contains_key("active_skills"));
}

#[test]
fn revisions_follow_content() {
    assert_eq!(Revision::of(Some(b"a")), Revision::of(Some(b"a")));
    assert_ne!(Revision::of(Some(b"a")), Revision::of(Some(b"b")));
    assert_ne!(Revision::of(Some(b"")), Revision::of(None));
}

#[test]
fn external_agents_are_added_replaced_and_removed_keeping_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "# mine\nauto_title = true\n").unwrap();
    let mut file = ConfigFile::open(&path).unwrap();
    let mut agent = crate::ExternalAgentConfig {
        name: "claude-code".into(),
        command: "npx".into(),
        args: vec!["-y".into(), "@zed-industries/claude-code-acp".into()],
        env: [("DISABLE_TELEMETRY".to_owned(), "1".to_owned())].into(),
        secret_env: vec!["ANTHROPIC_API_KEY".into()],
        withhold_mcp_servers: false,
    };
    file.upsert_external_agent(&agent).unwrap();
    file.save().unwrap();
    let config = Config::load_file(&path).unwrap();
    assert_eq!(config.external_agents, vec![agent.clone()]);
    assert!(config.auto_title);

    let mut file = ConfigFile::open(&path).unwrap();
    agent.args.clear();
    agent.secret_env.clear();
    agent.withhold_mcp_servers = true;
    file.upsert_external_agent(&agent).unwrap();
    file.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("offer_mcp_servers = false"), "{text}");
    assert_eq!(
        Config::load_file(&path).unwrap().external_agents,
        vec![agent]
    );

    let mut file = ConfigFile::open(&path).unwrap();
    assert!(file.remove_external_agent("claude-code"));
    assert!(!file.remove_external_agent("claude-code"));
    file.save().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# mine\n"), "{text}");
    assert!(!text.contains("external_agents"), "{text}");
}
