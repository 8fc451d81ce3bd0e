//! The model a session talks to, and what a switch between turns (the header's picker,
//! `/models NAME`) is made of. The engine resolves a provider/model pair into a ready
//! client with its profile, so the session never reads config or keys itself.

use std::sync::Arc;

use memo_providers::ModelClient;

/// Everything that changes with the model.
pub struct ModelBinding {
    pub provider: String,
    pub model: String,
    pub client: Arc<dyn ModelClient>,
    pub parallel_tool_calls: bool,
    pub thinking_budget_tokens: Option<u32>,
    /// The profile's sampling temperature (`None`: the server's default).
    pub temperature: Option<f64>,
    /// Tokens the model accepts in one request (compaction works against it).
    pub context_window: u64,
    /// Whether user messages to this model may carry images (its profile's
    /// `supports_vision`); a message with images to a model without is refused.
    pub supports_vision: bool,
}

/// Builds the binding for `provider` (None: the session's own) and `model` (None: the
/// provider's configured model), or says why it cannot.
pub type ModelResolver =
    Arc<dyn Fn(Option<&str>, Option<&str>) -> Result<ModelBinding, String> + Send + Sync>;

/// `/models NAME`: a provider's name, `provider:model`, or a model of the session's own
/// provider.
pub(crate) fn parse_target<'a>(
    name: &'a str,
    providers: &[memo_protocol::ProviderSummary],
) -> (Option<&'a str>, Option<&'a str>) {
    let name = name.trim();
    if providers.iter().any(|p| p.name == name) {
        return (Some(name), None);
    }
    match name.split_once(':') {
        Some((provider, model)) if providers.iter().any(|p| p.name == provider) => {
            (Some(provider), Some(model))
        }
        _ => (None, Some(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(name: &str) -> memo_protocol::ProviderSummary {
        memo_protocol::ProviderSummary {
            name: name.into(),
            model: "m".into(),
            api: "openai".into(),
            base_url: "http://127.0.0.1/v1".into(),
            is_current: false,
        }
    }

    #[test]
    fn a_target_is_a_provider_a_provider_and_model_or_a_model() {
        let providers = [provider("deepseek"), provider("local")];
        assert_eq!(parse_target("local", &providers), (Some("local"), None));
        assert_eq!(
            parse_target("deepseek:deepseek-reasoner", &providers),
            (Some("deepseek"), Some("deepseek-reasoner"))
        );
        // Ollama model names have colons of their own.
        assert_eq!(
            parse_target("qwen2.5-coder:1.5b", &providers),
            (None, Some("qwen2.5-coder:1.5b"))
        );
        assert_eq!(
            parse_target(" gpt-4.1 ", &providers),
            (None, Some("gpt-4.1"))
        );
    }
}
