//! config.toml parsing: Memo Code's files, our additions, and the exact error texts.

use std::path::Path;

use memo_config::{
    Config, ConfigError, MemoHome, ModelProfile, DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT,
    DEFAULT_CONTEXT_WINDOW,
};
use memo_model::WireApi;

const PATH: &str = "/home/u/.memo/config.toml";

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new(PATH))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(c) => panic!("expected an error, parsed {c:?}"),
        Err(e) => e.to_string(),
    }
}

/// What Memo Code's own writer produces.
const MEMO_CODE_WRITTEN: &str = r#"current_provider = "deepseek"
active_mcp_servers = ["github"]
active_skills = ["/home/u/.memo/skills/review/SKILL.md"]
mcp_oauth_credentials_store_mode = "auto"
auto_compact_threshold_percent = 80

[[providers.openai]]
name = "openai"
env_api_key = "OPENAI_API_KEY"
model = "gpt-4.1"

[[providers.deepseek]]
name = "deepseek"
env_api_key = "DEEPSEEK_API_KEY"
model = "deepseek-chat"
base_url = "https://api.deepseek.com"

[model_profiles.deepseek-chat]
supports_parallel_tool_calls = false
context_window = 64000

[model_profiles."deepseek:deepseek-chat"]
supports_reasoning_content = true

[mcp_servers.github]
type = "stdio"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

[mcp_servers.github.env]
"GITHUB_TOKEN" = "x"
"#;

#[test]
fn memo_code_config_is_read_and_unknown_tables_preserved() {
    let c = parse(MEMO_CODE_WRITTEN).unwrap();
    assert_eq!(c.path, Path::new(PATH));
    assert_eq!(c.current_provider.as_deref(), Some("deepseek"));
    assert_eq!(c.auto_compact_threshold_percent, 80);
    // File order, not alphabetical.
    let names: Vec<_> = c.providers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["openai", "deepseek"]);

    let ds = c.provider(None).unwrap();
    assert_eq!(ds.name, "deepseek");
    assert_eq!(ds.api, WireApi::Openai);
    assert_eq!(ds.model, "deepseek-chat");
    assert_eq!(ds.env_api_key.as_deref(), Some("DEEPSEEK_API_KEY"));
    assert_eq!(ds.base_url.as_deref(), Some("https://api.deepseek.com"));
    assert_eq!(
        c.provider(Some("openai")).unwrap().base_url_or_default(),
        "https://api.openai.com/v1"
    );

    for key in [
        "active_mcp_servers",
        "active_skills",
        "mcp_oauth_credentials_store_mode",
        "mcp_servers",
    ] {
        assert!(c.extra.contains_key(key), "{key} not preserved");
    }
    let github = &c.extra["mcp_servers"]["github"];
    assert_eq!(github["command"].as_str(), Some("npx"));
    assert_eq!(github["env"]["GITHUB_TOKEN"].as_str(), Some("x"));
    assert!(!c.extra.contains_key("providers"));
}

#[test]
fn array_form_and_api_field() {
    let c = parse(
        r#"
[[providers]]
name = "claude"
model = "claude-sonnet-4-5"
api = "anthropic"
env_api_key = "ANTHROPIC_API_KEY"

[[providers]]
name = "gemini"
model = "gemini-2.5-pro"
api = "gemini"
custom_flag = true
"#,
    )
    .unwrap();
    assert_eq!(c.current_provider, None);
    // No current_provider: the first one.
    let first = c.provider(None).unwrap();
    assert_eq!(first.name, "claude");
    assert_eq!(first.api, WireApi::Anthropic);
    assert_eq!(first.base_url_or_default(), "https://api.anthropic.com");
    let gemini = c.provider(Some("gemini")).unwrap();
    assert_eq!(gemini.api, WireApi::Gemini);
    assert_eq!(gemini.extra["custom_flag"].as_bool(), Some(true));
    assert_eq!(
        c.auto_compact_threshold_percent,
        DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT
    );
}

#[test]
fn single_table_and_name_from_key() {
    // Memo Code accepts a plain table and falls back to the key for the name.
    let c = parse(
        "[providers.local]\nmodel = \"qwen3:8b\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n",
    )
    .unwrap();
    let p = c.provider(Some("local")).unwrap();
    assert_eq!(p.model, "qwen3:8b");
    assert_eq!(p.env_api_key, None);
}

#[test]
fn lookups_fail_clearly() {
    let empty = parse("").unwrap();
    let err = empty.provider(None).unwrap_err();
    assert!(matches!(err, ConfigError::NoProviders { .. }));
    assert!(
        err.to_string()
            .starts_with(&format!("no model provider is configured in {PATH}")),
        "{err}"
    );

    // current_provider without any provider is "needs setup", not an error at load time.
    let setup = parse("current_provider = \"deepseek\"\n").unwrap();
    assert!(matches!(
        setup.provider(None),
        Err(ConfigError::NoProviders { .. })
    ));

    let c = parse(MEMO_CODE_WRITTEN).unwrap();
    assert_eq!(
        c.provider(Some("nope")).unwrap_err().to_string(),
        format!("no provider named \"nope\" in {PATH} (configured: openai, deepseek)")
    );
}

#[test]
fn missing_file_gives_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let home = MemoHome::at(dir.path());
    let c = Config::load(&home).unwrap();
    assert_eq!(c, Config::empty(home.config_toml()));
    assert!(c.providers.is_empty());

    std::fs::write(home.config_toml(), MEMO_CODE_WRITTEN).unwrap();
    let c = Config::load(&home).unwrap();
    assert_eq!(c.providers.len(), 2);

    // A directory in place of the file is a read error naming it.
    let other = MemoHome::at(dir.path().join("x"));
    std::fs::create_dir_all(other.config_toml()).unwrap();
    let err = Config::load(&other).unwrap_err();
    assert!(matches!(err, ConfigError::Read { .. }));
    assert!(err
        .to_string()
        .contains(&other.config_toml().display().to_string()));
}

#[test]
fn model_profiles_layer_field_by_field() {
    let c = parse(MEMO_CODE_WRITTEN).unwrap();
    assert_eq!(
        c.model_profile("deepseek", "deepseek-chat"),
        ModelProfile {
            context_window: 64_000,
            supports_parallel_tool_calls: false,
            supports_reasoning_content: true,
            thinking_budget_tokens: None,
            supports_vision: false,
            temperature: None,
        }
    );
    // Another provider serving the same model gets only the model-level entry.
    assert_eq!(
        c.model_profile("proxy", "DeepSeek-Chat"),
        ModelProfile {
            context_window: 64_000,
            supports_parallel_tool_calls: false,
            supports_reasoning_content: false,
            thinking_budget_tokens: None,
            supports_vision: false,
            temperature: None,
        }
    );
    // OpenAI's own endpoint takes images unless a profile says otherwise.
    assert_eq!(
        c.model_profile("openai", "gpt-4.1"),
        ModelProfile {
            supports_vision: true,
            ..ModelProfile::default()
        }
    );
    assert_eq!(
        ModelProfile::default().context_window,
        DEFAULT_CONTEXT_WINDOW
    );

    let c = parse("[model_profiles.\"p:m\"]\ncontext_window = 1000\n[model_profiles.m]\ncontext_window = 2000\n").unwrap();
    assert_eq!(
        c.model_profile("p", "m").context_window,
        1000,
        "provider:model wins"
    );
    assert_eq!(c.model_profile("q", "m").context_window, 2000);
}

#[test]
fn error_unknown_api_names_file_line_column_and_key() {
    let text = r#"current_provider = "deepseek"

[[providers.deepseek]]
name = "deepseek"
model = "deepseek-chat"
env_api_key = "DEEPSEEK_API_KEY"
api = "foo"
"#;
    assert_eq!(
        error(text),
        "/home/u/.memo/config.toml:7:7: providers.deepseek[0].api: unknown variant \"foo\", expected one of openai, anthropic, gemini"
    );
    match parse(text).unwrap_err() {
        ConfigError::Invalid {
            line, column, key, ..
        } => {
            assert_eq!((line, column), (7, 7));
            assert_eq!(key.as_deref(), Some("providers.deepseek[0].api"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn error_percent_out_of_range() {
    assert_eq!(
        error("current_provider = \"x\"\nauto_compact_threshold_percent = 150\n"),
        "/home/u/.memo/config.toml:2:34: auto_compact_threshold_percent: expected an integer from 1 to 100, found 150"
    );
    assert_eq!(
        error("auto_compact_threshold_percent = 0\n"),
        "/home/u/.memo/config.toml:1:34: auto_compact_threshold_percent: expected an integer from 1 to 100, found 0"
    );
    assert_eq!(
        error("auto_compact_threshold_percent = \"90\"\n"),
        "/home/u/.memo/config.toml:1:34: auto_compact_threshold_percent: expected an integer from 1 to 100, found \"90\""
    );
    assert_eq!(
        parse("auto_compact_threshold_percent = 100")
            .unwrap()
            .auto_compact_threshold_percent,
        100
    );
    assert_eq!(
        parse("auto_compact_threshold_percent = 1")
            .unwrap()
            .auto_compact_threshold_percent,
        1
    );
}

#[test]
fn error_provider_without_model() {
    let text = "[[providers.deepseek]]\nname = \"deepseek\"\n\n[[providers.deepseek]]\nname = \"second\"\nenv_api_key = \"K\"\n";
    assert_eq!(
        error(text),
        "/home/u/.memo/config.toml:1:1: providers.deepseek[0]: missing required key \"model\" (the model to use, e.g. \"deepseek-chat\")"
    );
    assert_eq!(
        error("[[providers]]\nname = \"a\"\nmodel = \"m\"\n\n[[providers]]\nmodel = \"m\"\n"),
        "/home/u/.memo/config.toml:5:1: providers[1]: missing required key \"name\""
    );
    assert_eq!(
        error("[[providers.a]]\nmodel = \"\"\n"),
        "/home/u/.memo/config.toml:2:9: providers.a[0].model: the model name must not be empty"
    );
}

#[test]
fn error_current_provider_unknown() {
    let text =
        "current_provider = \"deepsek\"\n\n[[providers.deepseek]]\nmodel = \"deepseek-chat\"\n";
    assert_eq!(
        error(text),
        "/home/u/.memo/config.toml:1:20: current_provider: no provider named \"deepsek\" is configured (configured: deepseek)"
    );
}

#[test]
fn error_wrong_types() {
    assert_eq!(
        error("[[providers.a]]\nmodel = 3\n"),
        "/home/u/.memo/config.toml:2:9: providers.a[0].model: expected a string, found integer"
    );
    assert_eq!(
        error("providers = 3\n"),
        "/home/u/.memo/config.toml:1:13: providers: expected [[providers.<name>]] or [[providers]] tables, found integer"
    );
    assert_eq!(
        error("[providers]\na = \"x\"\n"),
        "/home/u/.memo/config.toml:2:5: providers.a: expected a [[providers.a]] table, found string"
    );
    assert_eq!(
        error("[model_profiles.\"deepseek:deepseek-chat\"]\ncontext_window = -5\n"),
        "/home/u/.memo/config.toml:2:18: model_profiles.\"deepseek:deepseek-chat\".context_window: expected a positive integer, found -5"
    );
    assert_eq!(
        error("[model_profiles.m]\nsupports_parallel_tool_calls = \"yes\"\n"),
        "/home/u/.memo/config.toml:2:32: model_profiles.m.supports_parallel_tool_calls: expected true or false, found \"yes\""
    );
    assert_eq!(
        error("[[providers.a]]\nmodel = \"m\"\nbase_url = \"api.deepseek.com\"\n"),
        "/home/u/.memo/config.toml:3:12: providers.a[0].base_url: expected an http:// or https:// URL, found \"api.deepseek.com\""
    );
}

#[test]
fn the_first_problem_in_the_file_is_reported() {
    // `zz` sorts after `auto_...` but comes first in the file... and vice versa.
    let text = "[[providers.zz]]\napi = \"bad\"\nmodel = \"m\"\n\n[[providers.aa]]\nmodel = 1\n";
    assert!(
        error(text).starts_with("/home/u/.memo/config.toml:2:7: providers.zz[0].api:"),
        "{}",
        error(text)
    );
}

#[test]
fn syntax_errors_name_position_and_key() {
    assert_eq!(
        error("current_provider = \"deepseek\"\n[[providers.deepseek]]\nmodel = deepseek-chat\n"),
        "/home/u/.memo/config.toml:3:9: providers.deepseek[0].model: invalid TOML: string values must be quoted, expected literal string"
    );
    let dup = error("[mcp_servers]\na = 1\n[mcp_servers]\n");
    assert!(
        dup.starts_with("/home/u/.memo/config.toml:3:2: mcp_servers: invalid TOML: duplicate key"),
        "{dup}"
    );
    // Without any key to blame, just the position.
    let text = error("= 1\n");
    assert!(
        text.starts_with("/home/u/.memo/config.toml:1:1: invalid TOML:"),
        "{text}"
    );
}

#[test]
fn a_broken_current_provider_reports_its_own_error() {
    // Not "no provider named deepseek": the entry exists, it is just invalid.
    let text = "current_provider = \"deepseek\"\n\n[[providers.deepseek]]\nmodel = \"m\"\napi = \"openia\"\n";
    assert_eq!(
        error(text),
        "/home/u/.memo/config.toml:5:7: providers.deepseek[0].api: unknown variant \"openia\", expected one of openai, anthropic, gemini"
    );
}

#[test]
fn prices_layer_like_profiles_and_need_input_and_output() {
    let c = parse(
        "[model_profiles.m]\ninput_price_per_mtok = 2\noutput_price_per_mtok = 8.5\n\
         [model_profiles.\"p:m\"]\ncached_input_price_per_mtok = 0.5\n\
         [model_profiles.half]\ninput_price_per_mtok = 1.0\n",
    )
    .unwrap();
    assert_eq!(
        c.model_pricing("p", "M"),
        Some(memo_config::ModelPricing {
            input_per_mtok: 2.0,
            output_per_mtok: 8.5,
            cached_input_per_mtok: Some(0.5),
        })
    );
    assert_eq!(
        c.model_pricing("q", "m").unwrap().cached_input_per_mtok,
        None
    );
    assert_eq!(c.model_pricing("p", "half"), None, "no output price");
    assert_eq!(c.model_pricing("p", "other"), None);
    assert_eq!(
        error("[model_profiles.m]\ninput_price_per_mtok = -1\n"),
        "/home/u/.memo/config.toml:2:24: model_profiles.m.input_price_per_mtok: expected a price in USD per million tokens (a number >= 0), found -1"
    );
}

#[test]
fn auto_title_is_off_unless_asked_for() {
    assert!(!parse("").unwrap().auto_title);
    assert!(parse("auto_title = true\n").unwrap().auto_title);
    assert_eq!(
        error("auto_title = \"yes\"\n"),
        "/home/u/.memo/config.toml:1:14: auto_title: expected true or false, found \"yes\""
    );
}

#[test]
fn a_temperature_is_read_layered_and_checked() {
    let c = parse(
        "[model_profiles.\"qwen2.5-coder\"]\ntemperature = 0.2\n\
         [model_profiles.\"lab:qwen2.5-coder\"]\ntemperature = 0\n",
    )
    .unwrap();
    assert_eq!(
        c.model_profile("local", "qwen2.5-coder").temperature,
        Some(0.2)
    );
    assert_eq!(
        c.model_profile("lab", "qwen2.5-coder").temperature,
        Some(0.0)
    );
    assert_eq!(c.model_profile("x", "other").temperature, None);
    assert_eq!(
        error("[model_profiles.m]\ntemperature = 3.5\n"),
        "/home/u/.memo/config.toml:2:15: model_profiles.m.temperature: expected a number from 0 to 2, found 3.5"
    );
    assert_eq!(
        error("[model_profiles.m]\ntemperature = \"low\"\n"),
        "/home/u/.memo/config.toml:2:15: model_profiles.m.temperature: expected a number from 0 to 2, found \"low\""
    );
}

#[test]
fn a_thinking_budget_is_read_layered_and_checked() {
    let c = parse(
        "[model_profiles.claude-sonnet-4-5]\nthinking_budget_tokens = 8000\n\
         [model_profiles.\"fast:claude-sonnet-4-5\"]\nthinking_budget_tokens = 2048\n",
    )
    .unwrap();
    assert_eq!(
        c.model_profile("anthropic", "claude-sonnet-4-5")
            .thinking_budget_tokens,
        Some(8000)
    );
    assert_eq!(
        c.model_profile("fast", "claude-sonnet-4-5")
            .thinking_budget_tokens,
        Some(2048)
    );
    assert_eq!(c.model_profile("x", "other").thinking_budget_tokens, None);
    assert_eq!(
        error("[model_profiles.m]\nthinking_budget_tokens = 100\n"),
        "/home/u/.memo/config.toml:2:26: model_profiles.m.thinking_budget_tokens: expected an integer of at least 1024, found 100"
    );
}

#[test]
fn vision_defaults_by_provider_and_a_profile_overrides_it() {
    let c = parse(
        r#"[[providers.openai]]
name = "openai"
model = "gpt-4.1"

[[providers.router]]
name = "router"
model = "openai/gpt-4o"
base_url = "https://openrouter.ai/api/v1"

[[providers.claude]]
name = "claude"
model = "claude-sonnet-4-5"
api = "anthropic"
base_url = "http://127.0.0.1:9000"

[[providers.gemini]]
name = "gemini"
model = "gemini-2.5-pro"
api = "gemini"

[[providers.deepseek]]
name = "deepseek"
model = "deepseek-chat"
base_url = "https://api.deepseek.com"

[[providers.local]]
name = "local"
model = "qwen2.5vl:7b"
base_url = "http://127.0.0.1:11434/v1"

[[providers.spoof]]
name = "spoof"
model = "m"
base_url = "https://api.openai.com.example.net/v1"

[model_profiles."qwen2.5vl:7b"]
supports_vision = true

[model_profiles."openai:gpt-3.5-turbo"]
supports_vision = false
"#,
    )
    .unwrap();
    let vision = |provider: &str, model: &str| c.model_profile(provider, model).supports_vision;
    assert!(vision("openai", "gpt-4.1"));
    assert!(vision("router", "openai/gpt-4o"));
    assert!(vision("claude", "claude-sonnet-4-5"));
    assert!(vision("gemini", "gemini-2.5-pro"));
    assert!(!vision("deepseek", "deepseek-chat"));
    assert!(!vision("local", "llama3"));
    assert!(!vision("spoof", "m"));
    assert!(!vision("not-configured", "m"));
    // Profiles win over the provider's default, both ways.
    assert!(vision("local", "qwen2.5vl:7b"));
    assert!(!vision("openai", "gpt-3.5-turbo"));
    // The key is ours and typed, not left in `extra`.
    let profile = &c.model_profiles["qwen2.5vl:7b"];
    assert_eq!(profile.supports_vision, Some(true));
    assert!(profile.extra.is_empty());
    assert_eq!(
        error("[model_profiles.m]\nsupports_vision = \"yes\"\n"),
        "/home/u/.memo/config.toml:2:19: model_profiles.m.supports_vision: expected true or false, found \"yes\""
    );
}
