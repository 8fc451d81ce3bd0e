//! One model call outside any conversation: a session's title, or a commit message and a
//! pull request drafted from what the person is about to publish. No tools, no history;
//! the answer's text, with any think block taken out.

use std::sync::Arc;

use memo_model::{Message, ModelRequest};

use crate::engine::Engine;
use crate::error::EngineError;

impl Engine {
    /// Asks the model once: `provider`'s `model` where config.toml still has that provider
    /// (a session's own), else the current provider's model.
    pub async fn ask_once(
        &self,
        provider: Option<&str>,
        model: Option<&str>,
        system: &str,
        input: String,
        max_output_tokens: u32,
    ) -> Result<String, EngineError> {
        let config = self.config();
        let (provider, model) = match provider.map(|p| config.provider(Some(p))) {
            Some(Ok(found)) => {
                let model = model.map_or_else(|| found.model.clone(), str::to_owned);
                (found, model)
            }
            _ => {
                let current = config.provider(None)?;
                let model = current.model.clone();
                (current, model)
            }
        };
        let client = self.client_for(&provider)?;
        let request = ModelRequest {
            model,
            system: system.trim().to_owned(),
            messages: Arc::new(vec![Message::user(input)]),
            tools: Vec::new(),
            parallel_tool_calls: false,
            max_output_tokens: Some(max_output_tokens),
            thinking_budget_tokens: None,
            temperature: None,
        };
        let text = crate::answer::answer(client.as_ref(), request).await?;
        Ok(crate::answer::without_thinking(&text))
    }
}
