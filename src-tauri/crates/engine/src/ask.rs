//! One model call outside any conversation: a session's title, or a commit message and a
//! pull request drafted from what the person is about to publish. No tools, no history;
//! the answer's text, with any think block taken out.

use std::sync::Arc;

use futures::StreamExt;
use memo_model::{Message, ModelRequest, ResponseEvent};
use memo_providers::{ModelClient, ProviderError};

use crate::engine::Engine;
use crate::error::EngineError;

/// Streams `request` to its end and returns the whole answer's text.
pub async fn answer(
    client: &dyn ModelClient,
    request: ModelRequest,
) -> Result<String, ProviderError> {
    let mut stream = client.stream(request).await?;
    while let Some(item) = stream.next().await {
        if let ResponseEvent::Completed(response) = item? {
            return Ok(response.text);
        }
    }
    Err(ProviderError::StreamInterrupted(
        "the answer ended without a final event".into(),
    ))
}

/// The answer without `<think>` blocks and without a code fence around all of it.
pub fn without_thinking(raw: &str) -> String {
    let mut text = raw.to_owned();
    for (open, close) in [("<think>", "</think>"), ("<thinking>", "</thinking>")] {
        while let Some(start) = text.find(open) {
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |e| start + e + close.len());
            text.replace_range(start..end, "");
        }
    }
    let trimmed = text.trim();
    let unfenced = trimmed
        .strip_prefix("```")
        .and_then(|rest| rest.strip_suffix("```"))
        .map(|inner| inner.split_once('\n').map_or(inner, |(_, body)| body));
    unfenced.unwrap_or(trimmed).trim().to_owned()
}

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
        Ok(without_thinking(&answer(client.as_ref(), request).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_blocks_and_an_outer_fence_are_taken_out() {
        assert_eq!(
            without_thinking("<think>hmm</think>\nFix the build\n"),
            "Fix the build"
        );
        assert_eq!(
            without_thinking("```text\nFix it\n\nBody\n```"),
            "Fix it\n\nBody"
        );
        assert_eq!(without_thinking("Keep `code` inline"), "Keep `code` inline");
    }
}
