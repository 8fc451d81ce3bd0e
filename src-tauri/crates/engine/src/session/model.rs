//! The model a session talks to, and switching it between turns (the header's picker,
//! `/models NAME`). The engine resolves a provider/model pair into a ready client with its
//! profile, so the actor never reads config or keys itself.

use std::sync::Arc;

use memo_protocol::{AgentEvent, ErrorKind};
use memo_providers::ModelClient;

use super::actor::Shared;

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

impl Shared {
    /// Switches to the resolved model: recorded on the session (a resume uses it) and
    /// announced with `model_switched`. Returns the new binding or why it failed (the
    /// caller reports that: as an error event, or in a command's answer).
    pub fn switch_model(
        &self,
        provider: Option<&str>,
        model: Option<&str>,
    ) -> Result<Arc<ModelBinding>, String> {
        let Some(resolver) = self.resolver.clone() else {
            return Err("this session cannot switch models".into());
        };
        let own = self.binding();
        let provider = provider
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .unwrap_or(&own.provider);
        let model = model.map(str::trim).filter(|m| !m.is_empty());
        let binding = match resolver(Some(provider), model) {
            Ok(binding) => Arc::new(binding),
            Err(reason) => return Err(reason),
        };
        if let Err(error) = self.emitter.store().set_model(
            self.emitter.session_id(),
            &binding.provider,
            &binding.model,
        ) {
            return Err(format!("could not record the switch: {error}"));
        }
        self.set_binding(binding.clone());
        // A failed write is already reported to subscribers by the emitter.
        let _ = self.emitter.emit(
            None,
            AgentEvent::ModelSwitched {
                provider: binding.provider.clone(),
                model: binding.model.clone(),
                context_window: binding.context_window,
            },
        );
        Ok(binding)
    }

    /// Reports a switch that could not be made.
    pub fn report_switch_failure(&self, reason: &str) {
        // A failed write is already reported to subscribers by the emitter.
        let _ = self.emitter.emit(
            None,
            AgentEvent::Error {
                kind: ErrorKind::Config,
                message: format!("could not switch models: {reason}"),
                retryable: false,
            },
        );
    }
}

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
