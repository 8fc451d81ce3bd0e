//! What the server saw: one record per model request, for assertions in tests.

use serde::{Deserialize, Serialize};

/// The provider wire format a request path belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WireFormat {
    /// OpenAI-compatible chat completions (also DeepSeek, OpenRouter, …).
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `generateContent` / `streamGenerateContent`.
    Gemini,
}

/// One model request as received.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    pub format: WireFormat,
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    /// Header names lower-cased, in arrival order, repeated headers kept.
    pub headers: Vec<(String, String)>,
    /// The parsed JSON body; `Null` when empty, a JSON string when it was not JSON.
    pub body: serde_json::Value,
}

impl RecordedRequest {
    /// First value of a header (name matched case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The requested model: the body's `model`, or for Gemini the path segment.
    pub fn model(&self) -> Option<String> {
        if let Some(model) = self.body.get("model").and_then(|m| m.as_str()) {
            return Some(model.to_owned());
        }
        gemini_model_from_path(&self.path).map(str::to_owned)
    }
}

/// `…/models/{model}:{method}` → `model`.
pub(crate) fn gemini_model_from_path(path: &str) -> Option<&str> {
    let (_, rest) = path.rsplit_once("/models/")?;
    let (model, _) = rest.rsplit_once(':')?;
    Some(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_comes_from_body_or_gemini_path() {
        let mut request = RecordedRequest {
            format: WireFormat::Gemini,
            method: "POST".into(),
            path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent".into(),
            query: Some("alt=sse".into()),
            headers: vec![("x-goog-api-key".into(), "k".into())],
            body: serde_json::json!({}),
        };
        assert_eq!(request.model().as_deref(), Some("gemini-2.5-flash"));
        assert_eq!(request.header("X-Goog-Api-Key"), Some("k"));
        request.body = serde_json::json!({"model": "gpt-4o"});
        assert_eq!(request.model().as_deref(), Some("gpt-4o"));
    }

    #[test]
    fn wire_format_serialises_lowercase() {
        assert_eq!(
            serde_json::to_string(&WireFormat::OpenAi).unwrap(),
            "\"openai\""
        );
    }
}
