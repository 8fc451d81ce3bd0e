//! Mock LLM server: the one sanctioned test double for model providers.
//!
//! Real HTTP + SSE on `127.0.0.1`, speaking the real wire formats of OpenAI chat
//! completions, Anthropic Messages and Gemini `streamGenerateContent`. A test queues
//! format-neutral [`MockResponse`]s; each model request consumes the next one, rendered
//! in the format its path names. An empty queue answers HTTP 500
//! "mock script exhausted" so a test with too few responses fails loudly.
//!
//! ```no_run
//! # async fn demo() -> Result<(), memo_test_support::MockError> {
//! use memo_test_support::{MockLlmServer, MockResponse};
//! let server = MockLlmServer::start_with([
//!     MockResponse::tool_call("read_file", r#"{"file_path":"a.txt"}"#),
//!     MockResponse::text("Done.").with_usage(10, 5),
//! ])
//! .await?;
//! // point the client at server.base_url() …
//! server.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! Out of process (the `memo-mock-llm` binary, UI tests) the same script is driven
//! through `GET /__mock/requests`, `POST /__mock/responses` and `POST /__mock/reset`.

mod error;
pub mod git;
mod ids;
mod record;
mod render;
mod rng;
mod scenario;
mod script;
mod server;
mod stream;

pub use error::MockError;
pub use record::{RecordedRequest, WireFormat};
pub use rng::SeededRng;
pub use scenario::Scenario;
pub use script::{
    FinishReason, HttpError, MockResponse, MockToolCall, MockUsage, RawSse, StreamScript,
    DEFAULT_CHUNK_CHARS,
};
pub use server::{MockLlmServer, DEFAULT_MOCK_MODEL};
