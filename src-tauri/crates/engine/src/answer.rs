//! The answer of one model call outside any conversation (a title, a drafted commit
//! message): streamed to its end, its text without think blocks or an outer code fence.

use futures::StreamExt;
use memo_model::{ModelRequest, ResponseEvent};
use memo_providers::{ModelClient, ProviderError};

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
