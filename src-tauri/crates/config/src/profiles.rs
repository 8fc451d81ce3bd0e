//! `[model_profiles."<model>"]` in config.toml: per-model context window, prices,
//! capabilities and sampling, read with clear errors, including the unquoted dotted form
//! TOML turns into nested tables.

use std::collections::BTreeMap;

use toml::Value;

use crate::error::ConfigError;
use crate::source::{KeyPath, Source};
use crate::values::{boolean, found, price};

/// The highest sampling temperature any API accepts (OpenAI's and Gemini's range is 0–2;
/// Anthropic's is 0–1 and its provider clamps).
pub const MAX_TEMPERATURE: f64 = 2.0;

/// What `[model_profiles."..."]` sets; unset fields fall through to the next match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelProfileOverride {
    pub context_window: Option<u64>,
    pub supports_parallel_tool_calls: Option<bool>,
    pub supports_reasoning_content: Option<bool>,
    /// USD per million tokens.
    pub input_price_per_mtok: Option<f64>,
    pub output_price_per_mtok: Option<f64>,
    pub cached_input_price_per_mtok: Option<f64>,
    /// Ours: ask for extended thinking with this token budget (Claude, Gemini).
    pub thinking_budget_tokens: Option<u32>,
    /// Ours: whether the model takes images in user messages (`None`: the provider's
    /// default, see [`ModelProfile::supports_vision`]).
    pub supports_vision: Option<bool>,
    /// Ours: the sampling temperature, 0 to 2.
    pub temperature: Option<f64>,
    /// Keys we do not interpret.
    pub extra: toml::Table,
}

/// `[model_profiles.<name>]` tables, found also where a model name's dots made TOML read
/// an unquoted header as nested tables: `[model_profiles.qwen2.5-coder-1.5b]` is
/// `qwen2` → `5-coder-1` → `5b`, and names with dots are the rule (qwen2.5, gpt-4.1,
/// gemini-2.5). A table holding only tables is taken as such a name, joined back with its
/// dots; one holding both settings and tables cannot be read either way and is an error.
fn profile_tables<'v>(
    src: &Source<'_>,
    at: &KeyPath,
    name: String,
    table: &'v toml::Table,
    depth: usize,
    errors: &mut Vec<ConfigError>,
    out: &mut Vec<(String, KeyPath, &'v toml::Table, usize)>,
) {
    let nested: Vec<(&String, &toml::Table)> = table
        .iter()
        .filter_map(|(k, v)| v.as_table().map(|t| (k, t)))
        .collect();
    if nested.is_empty() || table.is_empty() {
        out.push((name, at.clone(), table, depth));
        return;
    }
    if nested.len() != table.len() {
        errors.push(src.error(
            at,
            format!(
                "[model_profiles.{name}] holds both settings and tables; if the model name has dots, quote it: [model_profiles.\"{name}.…\"]"
            ),
        ));
        return;
    }
    for (key, inner) in nested {
        profile_tables(
            src,
            &at.key(key),
            format!("{name}.{key}"),
            inner,
            depth + 1,
            errors,
            out,
        );
    }
}

pub(crate) fn model_profiles(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
    warnings: &mut Vec<String>,
) -> BTreeMap<String, ModelProfileOverride> {
    let mut out = BTreeMap::new();
    let Value::Table(profiles) = value else {
        errors.push(src.error(at, format!("expected a table, found {}", value.type_str())));
        return out;
    };
    let mut tables = Vec::new();
    for (name, entry) in profiles {
        let entry_at = at.key(name);
        let Value::Table(entry) = entry else {
            errors.push(src.error(
                &entry_at,
                format!("expected a table, found {}", entry.type_str()),
            ));
            continue;
        };
        profile_tables(src, &entry_at, name.clone(), entry, 0, errors, &mut tables);
    }
    for (name, entry_at, entry, depth) in tables {
        if depth > 0 {
            warnings.push(
                src.error(
                    &entry_at,
                    format!(
                        "[model_profiles.{name}] is read by TOML as nested tables (the dots split the name); Memo applies it as the profile \"{name}\", but write it quoted: [model_profiles.\"{name}\"]"
                    ),
                )
                .to_string(),
            );
        }
        let mut profile = ModelProfileOverride::default();
        for (key, v) in entry {
            let key_at = entry_at.key(key);
            match key.as_str() {
                "context_window" => match v {
                    Value::Integer(n) if *n > 0 => profile.context_window = u64::try_from(*n).ok(),
                    other => errors.push(src.error(
                        &key_at,
                        format!("expected a positive integer, found {}", found(other)),
                    )),
                },
                "supports_parallel_tool_calls" => {
                    profile.supports_parallel_tool_calls = boolean(src, &key_at, v, errors)
                }
                "supports_reasoning_content" => {
                    profile.supports_reasoning_content = boolean(src, &key_at, v, errors)
                }
                "input_price_per_mtok" => {
                    profile.input_price_per_mtok = price(src, &key_at, v, errors)
                }
                "output_price_per_mtok" => {
                    profile.output_price_per_mtok = price(src, &key_at, v, errors)
                }
                "cached_input_price_per_mtok" => {
                    profile.cached_input_price_per_mtok = price(src, &key_at, v, errors)
                }
                "supports_vision" => profile.supports_vision = boolean(src, &key_at, v, errors),
                "temperature" => {
                    let t = match v {
                        Value::Float(f) => Some(*f),
                        Value::Integer(i) => Some(*i as f64),
                        _ => None,
                    }
                    .filter(|t| (0.0..=MAX_TEMPERATURE).contains(t));
                    if t.is_none() {
                        errors.push(src.error(
                            &key_at,
                            format!(
                                "expected a number from 0 to 2, found {}",
                                match v {
                                    Value::Float(_) | Value::Integer(_) => v.to_string(),
                                    other => found(other),
                                }
                            ),
                        ));
                    }
                    profile.temperature = t;
                }
                "thinking_budget_tokens" => match v {
                    // Anthropic's minimum budget; Gemini accepts it too.
                    Value::Integer(n) if (1024..=i64::from(u32::MAX)).contains(n) => {
                        profile.thinking_budget_tokens = u32::try_from(*n).ok()
                    }
                    other => errors.push(src.error(
                        &key_at,
                        format!(
                            "expected an integer of at least 1024, found {}",
                            found(other)
                        ),
                    )),
                },
                _ => {
                    profile.extra.insert(key.clone(), v.clone());
                }
            }
        }
        out.insert(name.clone(), profile);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Config;

    #[test]
    fn an_unquoted_dotted_model_name_is_applied_and_reported_with_its_line() {
        let path = std::path::Path::new("/x/config.toml");
        let text = "[providers]\n\n[model_profiles.qwen2.5-coder-1.5b]\ncontext_window = 32768\n\n[model_profiles.\"gpt-4.1\"]\ncontext_window = 1000000\n";
        let config = Config::parse(text, path).unwrap();
        assert_eq!(
            config.model_profiles["qwen2.5-coder-1.5b"].context_window,
            Some(32768)
        );
        assert_eq!(
            config.model_profiles["gpt-4.1"].context_window,
            Some(1_000_000)
        );
        assert_eq!(config.warnings.len(), 1, "{:?}", config.warnings);
        let warning = &config.warnings[0];
        assert!(warning.starts_with("/x/config.toml:3:"), "{warning}");
        assert!(
            warning.contains("write it quoted: [model_profiles.\"qwen2.5-coder-1.5b\"]"),
            "{warning}"
        );
    }

    #[test]
    fn a_table_mixing_settings_and_tables_is_an_error_that_says_to_quote() {
        let path = std::path::Path::new("/x/config.toml");
        let text = "[model_profiles.qwen2]\ncontext_window = 1\n[model_profiles.qwen2.5b]\ncontext_window = 2\n";
        let error = Config::parse(text, path).unwrap_err().to_string();
        assert!(error.contains("holds both settings and tables"), "{error}");
    }
}
