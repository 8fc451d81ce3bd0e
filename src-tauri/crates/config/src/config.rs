//! `config.toml`, as Memo Code writes it, plus the keys Memo Desktop adds.
//!
//! ```toml
//! current_provider = "deepseek"
//! auto_compact_threshold_percent = 90
//!
//! [[providers.deepseek]]          # the form Memo Code writes...
//! name = "deepseek"
//! env_api_key = "DEEPSEEK_API_KEY"
//! model = "deepseek-chat"
//! base_url = "https://api.deepseek.com"
//! api = "openai"                  # ours: openai | anthropic | gemini (default openai)
//!
//! [[providers]]                   # ...or the array form
//! name = "claude"
//! model = "claude-sonnet-4-5"
//! api = "anthropic"
//!
//! [model_profiles."deepseek-chat"]            # by model...
//! context_window = 120000
//! [model_profiles."deepseek:deepseek-chat"]   # ...or provider:model, which wins
//! supports_parallel_tool_calls = false
//! input_price_per_mtok = 0.27                 # ours: USD per million tokens, for the
//! output_price_per_mtok = 1.10                # usage table's cost column
//! cached_input_price_per_mtok = 0.07
//! [model_profiles."claude-sonnet-4-5"]
//! thinking_budget_tokens = 8000               # ours: ask for extended thinking
//! [model_profiles."qwen2.5-coder-1.5b"]
//! temperature = 0.2                           # ours: sampling temperature sent with
//!                                             # each request (default: the server's)
//! [model_profiles."qwen2.5vl:7b"]
//! supports_vision = true                      # ours: the model takes images (default:
//!                                             # Claude, Gemini, OpenAI and OpenRouter
//!                                             # yes; other OpenAI-style servers no)
//!
//! auto_title = true                           # ours: name new sessions with a short
//!                                             # model call after the first exchange
//! ```
//!
//! Tables this crate does not interpret (`mcp_servers`, `active_skills`, ...) are kept
//! verbatim in [`Config::extra`]: Memo Code owns them and later features read them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use memo_model::WireApi;
use toml::Value;

use crate::error::ConfigError;
use crate::home::MemoHome;
use crate::profiles::ModelProfileOverride;
use crate::source::{KeyPath, Source};
use crate::values::{boolean, percent, positive, string};

/// Memo Desktop's default; Memo Code uses 80 but we prefer to use more of the window.
pub const DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT: u8 = 90;
/// Context window assumed for models without a profile (Memo Code's default).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 120_000;

/// The parsed config.toml.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file this came from (or would have, when it does not exist); errors name it.
    pub path: PathBuf,
    pub current_provider: Option<String>,
    /// In file order.
    pub providers: Vec<ProviderConfig>,
    /// Keyed as written in the file: `model` or `provider:model`.
    pub model_profiles: BTreeMap<String, ModelProfileOverride>,
    /// Compact the conversation when this share of the context window is used (1..=100).
    pub auto_compact_threshold_percent: u8,
    /// Title new sessions with a short model call after their first exchange.
    pub auto_title: bool,
    /// `[checkpoints]`: what is kept of the files the agent changes.
    pub checkpoints: CheckpointSettings,
    /// `[external_agents.<name>]`: other agents Memo runs over ACP.
    pub external_agents: Vec<crate::ExternalAgentConfig>,
    /// Every other top-level key, untouched.
    pub extra: toml::Table,
    /// Things applied, but written in a form worth changing (`file:line:column: …`): a
    /// dotted model name left unquoted in a table header.
    pub warnings: Vec<String>,
}

/// `[checkpoints]` in config.toml (Memo's own section; Memo Code ignores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointSettings {
    /// Record checkpoints at all (`enabled = false` turns off file restore and the
    /// changes panel's session lists).
    pub enabled: bool,
    /// Files larger than this are recorded as changed but not kept (`max_file_kb`).
    pub max_file_kb: u64,
    /// Checkpoints older than this are pruned (`max_age_days`).
    pub max_age_days: u32,
    /// The kept copies are pruned, oldest first, past this size (`max_total_mb`).
    pub max_total_mb: u64,
}

impl Default for CheckpointSettings {
    fn default() -> Self {
        CheckpointSettings {
            enabled: true,
            max_file_kb: 2048,
            max_age_days: 30,
            max_total_mb: 2048,
        }
    }
}

/// One `[[providers.<name>]]` (or `[[providers]]`) entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderConfig {
    pub name: String,
    pub api: WireApi,
    /// The environment variable holding the API key, e.g. `DEEPSEEK_API_KEY`.
    pub env_api_key: Option<String>,
    pub model: String,
    pub base_url: Option<String>,
    /// Keys of the entry we do not interpret.
    pub extra: toml::Table,
}

impl ProviderConfig {
    /// `base_url`, or the public endpoint of the provider's wire API.
    pub fn base_url_or_default(&self) -> &str {
        match (&self.base_url, self.api) {
            (Some(url), _) => url,
            (None, WireApi::Openai) => "https://api.openai.com/v1",
            (None, WireApi::Anthropic) => "https://api.anthropic.com",
            (None, WireApi::Gemini) => "https://generativelanguage.googleapis.com",
        }
    }
}

/// What calls to a model cost, in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPricing {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// `None`: cached input is billed as input.
    pub cached_input_per_mtok: Option<f64>,
}

/// The effective capabilities of a model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelProfile {
    pub context_window: u64,
    pub supports_parallel_tool_calls: bool,
    /// Whether the API returns `reasoning_content` (DeepSeek-style thinking) that must be
    /// shown folded and sent back.
    pub supports_reasoning_content: bool,
    /// Extended thinking to ask for, in tokens; `None`: the model's default (none for
    /// Claude, which must be asked).
    pub thinking_budget_tokens: Option<u32>,
    /// Whether user messages may carry images. Unless a profile says otherwise: yes for
    /// the Anthropic and Gemini APIs and for OpenAI's and OpenRouter's own endpoints, no
    /// for other OpenAI-style servers (local models mostly take text only).
    pub supports_vision: bool,
    /// The sampling temperature to send; `None`: the server's own (llama.cpp's is 0.8,
    /// which small models answer tool calls worse with).
    pub temperature: Option<f64>,
}

impl Default for ModelProfile {
    /// For a model nobody described: Memo Code's window, and the OpenAI defaults (parallel
    /// tool calls allowed, no reasoning field), without images (the provider may say
    /// otherwise: see [`Config::model_profile`]).
    fn default() -> Self {
        ModelProfile {
            context_window: DEFAULT_CONTEXT_WINDOW,
            supports_parallel_tool_calls: true,
            supports_reasoning_content: false,
            thinking_budget_tokens: None,
            supports_vision: false,
            temperature: None,
        }
    }
}

impl Config {
    /// The configuration of a missing file: no providers, defaults everywhere.
    pub fn empty(path: impl Into<PathBuf>) -> Config {
        Config {
            path: path.into(),
            current_provider: None,
            providers: Vec::new(),
            model_profiles: BTreeMap::new(),
            auto_compact_threshold_percent: DEFAULT_AUTO_COMPACT_THRESHOLD_PERCENT,
            auto_title: false,
            checkpoints: CheckpointSettings::default(),
            external_agents: Vec::new(),
            extra: toml::Table::new(),
            warnings: Vec::new(),
        }
    }

    /// Loads `config.toml` of the home; a missing file gives [`Config::empty`].
    pub fn load(home: &MemoHome) -> Result<Config, ConfigError> {
        Self::load_file(&home.config_toml())
    }

    pub fn load_file(path: &Path) -> Result<Config, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::empty(path)),
            Err(source) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Parses and validates config text; `path` is only used in errors.
    ///
    /// When the file has several problems, the first one in the file is reported.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let src = Source::parse(path, text)?;
        // The span-preserving parse succeeded, so this one cannot fail on syntax; its
        // owned tree is simply nicer to validate.
        let root: toml::Table = toml::from_str(text)
            .map_err(|e| src.error_at(e.span().unwrap_or(0..0), None, e.message().to_owned()))?;

        let mut errors = Vec::new();
        let mut config = Config::empty(path);
        for (key, value) in root {
            let at = KeyPath::root().key(&key);
            match key.as_str() {
                "current_provider" => {
                    config.current_provider =
                        string(&src, &at, &value, &mut errors).filter(|s| !s.is_empty())
                }
                "auto_compact_threshold_percent" => {
                    if let Some(p) = percent(&src, &at, &value, &mut errors) {
                        config.auto_compact_threshold_percent = p;
                    }
                }
                "auto_title" => {
                    if let Some(b) = boolean(&src, &at, &value, &mut errors) {
                        config.auto_title = b;
                    }
                }
                "checkpoints" => config.checkpoints = checkpoints(&src, &at, &value, &mut errors),
                "providers" => config.providers = providers(&src, &at, &value, &mut errors),
                crate::external_agents::EXTERNAL_AGENTS => {
                    config.external_agents =
                        crate::external_agents::external_agents(&src, &at, &value, &mut errors)
                }
                "model_profiles" => {
                    config.model_profiles = crate::profiles::model_profiles(
                        &src,
                        &at,
                        &value,
                        &mut errors,
                        &mut config.warnings,
                    )
                }
                _ => {
                    config.extra.insert(key, value);
                }
            }
        }

        if let Some(current) = &config.current_provider {
            // With no providers at all the file just "needs setup" (Memo Code writes
            // current_provider even then); the error comes when a turn needs a provider.
            // After other errors the provider may only be missing because its entry was
            // invalid, and that entry's error is the one worth reading.
            let checkable = errors.is_empty() && !config.providers.is_empty();
            if checkable && config.find(current).is_none() {
                errors.push(src.error(
                    &KeyPath::root().key("current_provider"),
                    format!(
                        "no provider named {current:?} is configured (configured: {})",
                        config.provider_names().join(", ")
                    ),
                ));
            }
        }

        match earliest(errors) {
            Some(err) => Err(err),
            None => Ok(config),
        }
    }

    /// The provider to use: `name` if given, else `current_provider`, else the first one.
    pub fn provider(&self, name: Option<&str>) -> Result<ProviderConfig, ConfigError> {
        let Some(first) = self.providers.first() else {
            return Err(ConfigError::NoProviders {
                path: self.path.clone(),
            });
        };
        let wanted = name
            .filter(|n| !n.is_empty())
            .or(self.current_provider.as_deref());
        match wanted {
            None => Ok(first.clone()),
            Some(wanted) => {
                self.find(wanted)
                    .cloned()
                    .ok_or_else(|| ConfigError::UnknownProvider {
                        name: wanted.to_owned(),
                        path: self.path.clone(),
                        available: self.provider_names(),
                    })
            }
        }
    }

    /// The capabilities of `model` served by `provider`: fields of
    /// `[model_profiles."provider:model"]` win over `[model_profiles."model"]`, which win
    /// over [`ModelProfile::default`]. Keys match case-insensitively, as in Memo Code.
    /// `supports_vision` defaults by the configured provider named `provider` (see
    /// [`vision_by_default`]).
    pub fn model_profile(&self, provider: &str, model: &str) -> ModelProfile {
        let specific = self.profile_entry(&format!(
            "{}:{}",
            normalize_profile_key(provider),
            normalize_profile_key(model)
        ));
        let general = self.profile_entry(&normalize_profile_key(model));
        // Field by field: a provider:model entry that only sets one field still inherits
        // the others from the model entry.
        let defaults = ModelProfile::default();
        ModelProfile {
            context_window: layered(specific, general, |p| p.context_window)
                .unwrap_or(defaults.context_window),
            supports_parallel_tool_calls: layered(specific, general, |p| {
                p.supports_parallel_tool_calls
            })
            .unwrap_or(defaults.supports_parallel_tool_calls),
            supports_reasoning_content: layered(specific, general, |p| {
                p.supports_reasoning_content
            })
            .unwrap_or(defaults.supports_reasoning_content),
            thinking_budget_tokens: layered(specific, general, |p| p.thinking_budget_tokens),
            supports_vision: layered(specific, general, |p| p.supports_vision)
                .unwrap_or_else(|| self.find(provider).is_some_and(vision_by_default)),
            temperature: layered(specific, general, |p| p.temperature),
        }
    }

    /// The price of `model` served by `provider`, layered like [`Config::model_profile`];
    /// `None` unless both the input and the output price are configured.
    pub fn model_pricing(&self, provider: &str, model: &str) -> Option<ModelPricing> {
        let specific = self.profile_entry(&format!(
            "{}:{}",
            normalize_profile_key(provider),
            normalize_profile_key(model)
        ));
        let general = self.profile_entry(&normalize_profile_key(model));
        Some(ModelPricing {
            input_per_mtok: layered(specific, general, |p| p.input_price_per_mtok)?,
            output_per_mtok: layered(specific, general, |p| p.output_price_per_mtok)?,
            cached_input_per_mtok: layered(specific, general, |p| p.cached_input_price_per_mtok),
        })
    }

    fn profile_entry(&self, normalized: &str) -> Option<&ModelProfileOverride> {
        self.model_profiles
            .iter()
            .find(|(k, _)| normalize_profile_key(k) == normalized)
            .map(|(_, v)| v)
    }

    fn find(&self, name: &str) -> Option<&ProviderConfig> {
        self.providers.iter().find(|p| p.name == name)
    }

    pub fn provider_names(&self) -> Vec<String> {
        self.providers.iter().map(|p| p.name.clone()).collect()
    }
}

/// Whether a provider's models take images when no profile says: the Anthropic and
/// Gemini APIs, and OpenAI's and OpenRouter's own endpoints do; other OpenAI-style
/// servers (Ollama, llama.cpp, vLLM, most hosted compatibles) are not assumed to.
pub fn vision_by_default(provider: &ProviderConfig) -> bool {
    match provider.api {
        WireApi::Anthropic | WireApi::Gemini => true,
        WireApi::Openai => {
            let url = provider.base_url_or_default();
            let rest = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"))
                .unwrap_or(url);
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let host = authority
                .rsplit_once('@')
                .map_or(authority, |(_, host)| host)
                .split(':')
                .next()
                .unwrap_or("")
                .trim_end_matches('.')
                .to_ascii_lowercase();
            host == "api.openai.com" || host == "openrouter.ai" || host.ends_with(".openrouter.ai")
        }
    }
}

fn layered<T>(
    specific: Option<&ModelProfileOverride>,
    general: Option<&ModelProfileOverride>,
    field: impl Fn(&ModelProfileOverride) -> Option<T>,
) -> Option<T> {
    specific
        .and_then(&field)
        .or_else(|| general.and_then(&field))
}

fn normalize_profile_key(key: &str) -> String {
    key.trim().to_lowercase()
}

/// The error that comes first in the file.
fn earliest(errors: Vec<ConfigError>) -> Option<ConfigError> {
    errors.into_iter().min_by_key(|e| match e {
        ConfigError::Invalid { line, column, .. } => (*line, *column),
        _ => (usize::MAX, usize::MAX),
    })
}

fn checkpoints(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> CheckpointSettings {
    let mut out = CheckpointSettings::default();
    let Value::Table(table) = value else {
        errors.push(src.error(at, format!("expected a table, found {}", value.type_str())));
        return out;
    };
    for (key, value) in table {
        let at = at.key(key);
        match key.as_str() {
            "enabled" => out.enabled = boolean(src, &at, value, errors).unwrap_or(out.enabled),
            "max_file_kb" => out.max_file_kb = positive(src, &at, value, errors).unwrap_or(out.max_file_kb),
            "max_age_days" => {
                out.max_age_days = positive(src, &at, value, errors)
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or(out.max_age_days)
            }
            "max_total_mb" => out.max_total_mb = positive(src, &at, value, errors).unwrap_or(out.max_total_mb),
            other => errors.push(src.error(
                &at,
                format!("unknown key {other:?} (known: enabled, max_file_kb, max_age_days, max_total_mb)"),
            )),
        }
    }
    out
}

/// `providers` in either form, in file order.
fn providers(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Vec<ProviderConfig> {
    let mut out: Vec<(usize, ProviderConfig)> = Vec::new();
    match value {
        // `[[providers.deepseek]]`: a table of arrays keyed by provider name. Memo Code
        // also accepts a plain `[providers.deepseek]` table, so do we.
        Value::Table(groups) => {
            for (group, entries) in groups {
                let group_at = at.key(group);
                let items: Vec<(KeyPath, &Value)> = match entries {
                    Value::Array(items) => items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (group_at.index(i), v))
                        .collect(),
                    Value::Table(_) => vec![(group_at.clone(), entries)],
                    other => {
                        errors.push(src.error(
                            &group_at,
                            format!(
                                "expected a [[{group_at}]] table, found {}",
                                other.type_str()
                            ),
                        ));
                        continue;
                    }
                };
                for (entry_at, entry) in items {
                    if let Some(p) = provider(src, &entry_at, entry, Some(group), errors) {
                        out.push((src.span_of(&entry_at).start, p));
                    }
                }
            }
        }
        // `[[providers]]` with `name = ...` in each entry.
        Value::Array(items) => {
            for (i, entry) in items.iter().enumerate() {
                let entry_at = at.index(i);
                if let Some(p) = provider(src, &entry_at, entry, None, errors) {
                    out.push((src.span_of(&entry_at).start, p));
                }
            }
        }
        other => errors.push(src.error(
            at,
            format!(
                "expected [[providers.<name>]] or [[providers]] tables, found {}",
                other.type_str()
            ),
        )),
    }
    // Tables come back sorted by key; "the first provider" must mean the first in the file.
    out.sort_by_key(|(pos, _)| *pos);
    out.into_iter().map(|(_, p)| p).collect()
}

fn provider(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    group: Option<&str>,
    errors: &mut Vec<ConfigError>,
) -> Option<ProviderConfig> {
    let Value::Table(table) = value else {
        errors.push(src.error(at, format!("expected a table, found {}", value.type_str())));
        return None;
    };
    let before = errors.len();
    let mut name = None;
    let mut model = None;
    let mut api = WireApi::default();
    let mut env_api_key = None;
    let mut base_url = None;
    let mut extra = toml::Table::new();

    for (key, v) in table {
        let key_at = at.key(key);
        match key.as_str() {
            "name" => name = string(src, &key_at, v, errors).filter(|s| !s.is_empty()),
            "model" => {
                model = string(src, &key_at, v, errors);
                if model.as_deref() == Some("") {
                    errors.push(src.error(&key_at, "the model name must not be empty"));
                }
            }
            "api" => {
                if let Some(s) = string(src, &key_at, v, errors) {
                    match wire_api(&s) {
                        Some(parsed) => api = parsed,
                        None => errors.push(src.error(
                            &key_at,
                            format!(
                                "unknown variant {s:?}, expected one of openai, anthropic, gemini"
                            ),
                        )),
                    }
                }
            }
            "env_api_key" => {
                env_api_key = string(src, &key_at, v, errors).filter(|s| !s.is_empty())
            }
            "base_url" => {
                base_url = string(src, &key_at, v, errors).filter(|s| !s.is_empty());
                if let Some(url) = &base_url {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        errors.push(src.error(
                            &key_at,
                            format!("expected an http:// or https:// URL, found {url:?}"),
                        ));
                    }
                }
            }
            _ => {
                extra.insert(key.clone(), v.clone());
            }
        }
    }

    let name = name.or_else(|| group.map(str::to_owned));
    if name.is_none() {
        errors.push(src.error(at, "missing required key \"name\""));
    }
    if !table.contains_key("model") {
        errors.push(src.error(
            at,
            "missing required key \"model\" (the model to use, e.g. \"deepseek-chat\")",
        ));
    }
    if errors.len() > before {
        return None;
    }
    Some(ProviderConfig {
        name: name?,
        api,
        env_api_key,
        model: model?,
        base_url,
        extra,
    })
}

fn wire_api(s: &str) -> Option<WireApi> {
    match s {
        "openai" => Some(WireApi::Openai),
        "anthropic" => Some(WireApi::Anthropic),
        "gemini" => Some(WireApi::Gemini),
        _ => None,
    }
}

#[cfg(test)]
mod checkpoint_tests {
    use super::*;

    #[test]
    fn checkpoint_settings_parse_with_defaults_and_clear_errors() {
        let path = std::path::Path::new("/x/config.toml");
        let config = Config::parse("[checkpoints]\nmax_file_kb = 64\n", path).unwrap();
        assert_eq!(config.checkpoints.max_file_kb, 64);
        assert!(config.checkpoints.enabled);
        assert_eq!(config.checkpoints.max_age_days, 30);
        let error = Config::parse("[checkpoints]\nmax_age_days = -1\n", path).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("expected a positive integer, found -1"),
            "{error}"
        );
        let error = Config::parse("[checkpoints]\nkeep = 3\n", path).unwrap_err();
        assert!(
            error.to_string().contains("unknown key \"keep\""),
            "{error}"
        );
    }
}
