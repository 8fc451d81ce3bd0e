//! Scenario files: a JSON list of scripted responses, for the binary and for
//! `POST /__mock/responses`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::MockError;
use crate::script::MockResponse;

/// `{"responses":[ … ]}`: consumed in order, one per model request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub responses: Vec<MockResponse>,
}

impl Scenario {
    pub fn new(responses: impl IntoIterator<Item = MockResponse>) -> Self {
        Scenario {
            responses: responses.into_iter().collect(),
        }
    }

    pub fn from_json(json: &str) -> Result<Scenario, MockError> {
        serde_json::from_str(json).map_err(|source| MockError::ScenarioParse {
            origin: "JSON".to_owned(),
            source,
        })
    }

    pub fn from_file(path: impl AsRef<Path>) -> Result<Scenario, MockError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| MockError::ScenarioRead {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| MockError::ScenarioParse {
            origin: format!("file {}", path.display()),
            source,
        })
    }

    pub fn to_json(&self) -> String {
        // Serialising plain data structures with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::{FinishReason, MockToolCall, MockUsage, DEFAULT_CHUNK_CHARS};

    #[test]
    fn parses_the_documented_example() {
        let json = r#"{"responses":[
            {"text":"Hi","usage":{"input_tokens":10,"output_tokens":2}},
            {"tool_calls":[{"name":"read_file","arguments":"{\"file_path\":\"a\"}"}]},
            {"error":{"status":429,"retry_after_secs":1}},
            {"raw_sse":{"status":200,"content_type":"text/event-stream","body":"data: x\n\n"}}
        ]}"#;
        let scenario = Scenario::from_json(json).unwrap();
        assert_eq!(
            scenario.responses,
            vec![
                MockResponse::text("Hi").with_usage(10, 2),
                MockResponse::tool_call("read_file", r#"{"file_path":"a"}"#),
                MockResponse::http_error(429).retry_after(1),
                MockResponse::raw_sse("data: x\n\n"),
            ]
        );
    }

    #[test]
    fn round_trips_every_field() {
        let response = MockResponse::empty()
            .with_reasoning("think")
            .with_thinking_signature("sig")
            .with_text("answer")
            .with_tool(MockToolCall::new("a", "{}").with_id("call_1"))
            .with_usage(5, 6)
            .with_cached_tokens(2)
            .with_reasoning_tokens(3)
            .finish_reason(FinishReason::Length)
            .chunk_chars(3)
            .drip(std::time::Duration::from_millis(7))
            .cut_mid_event(4)
            .hang_after_events(9)
            .mid_stream_error();
        let scenario = Scenario::new([
            response,
            MockResponse::http_error(400).message("m").kind("k"),
            MockResponse::raw(502, "text/html", "<html>"),
        ]);
        let back = Scenario::from_json(&scenario.to_json()).unwrap();
        assert_eq!(back, scenario);
    }

    #[test]
    fn defaults_apply() {
        let scenario = Scenario::from_json(r#"{"responses":[{"text":"x"}]}"#).unwrap();
        let MockResponse::Stream(script) = &scenario.responses[0] else {
            panic!("expected a stream");
        };
        assert_eq!(script.chunk_chars, DEFAULT_CHUNK_CHARS);
        assert_eq!(script.effective_finish_reason(), FinishReason::Stop);
        assert_eq!(
            MockUsage::new(1, 2),
            MockUsage {
                input_tokens: 1,
                output_tokens: 2,
                cached_input_tokens: 0,
                reasoning_tokens: 0
            }
        );
    }

    #[test]
    fn rejects_typos_and_mixed_shapes() {
        let err = Scenario::from_json(r#"{"responses":[{"txt":"x"}]}"#).unwrap_err();
        assert!(err.to_string().contains("txt"), "{err}");
        let err = Scenario::from_json(r#"{"responses":[{"error":{"status":429},"text":"x"}]}"#)
            .unwrap_err();
        assert!(err.to_string().contains("no other keys"), "{err}");
        let err = Scenario::from_json(r#"{"responses":[{"error":{}}]}"#).unwrap_err();
        assert!(err.to_string().contains("status"), "{err}");
        assert!(Scenario::from_json(r#"{"responses":[3]}"#).is_err());
        assert!(Scenario::from_json(r#"{"respones":[]}"#).is_err());
    }

    #[test]
    fn file_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let err = Scenario::from_file(&missing).unwrap_err();
        assert!(matches!(err, MockError::ScenarioRead { .. }));
        assert!(err.to_string().contains("missing.json"));

        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{not json").unwrap();
        let err = Scenario::from_file(&bad).unwrap_err();
        assert!(matches!(err, MockError::ScenarioParse { .. }));
        assert!(err.to_string().contains("bad.json"), "{err}");
    }
}
