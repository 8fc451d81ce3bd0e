//! The format-neutral script: what the next model request should receive.
//!
//! One [`MockResponse`] is rendered in whichever wire format the consuming request
//! speaks, so a single script drives the OpenAI, Anthropic and Gemini adapters alike.

use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Default size, in characters, of the deltas text/reasoning/arguments are split into.
/// Small enough that every client has to reassemble fragments.
pub const DEFAULT_CHUNK_CHARS: usize = 8;

/// One scripted answer to one model request.
///
/// JSON form (as in scenario files): a stream script's fields at top level
/// (`{"text":"Hi"}`), or `{"error":{…}}`, or `{"raw_sse":{…}}`.
#[derive(Debug, Clone, PartialEq)]
// A script holds a few dozen responses: their size does not matter, and boxing the
// stream would make every script and match in the tests harder to read.
#[allow(clippy::large_enum_variant)]
pub enum MockResponse {
    /// A successful streamed (or, for non-streaming requests, complete) answer.
    Stream(StreamScript),
    /// An HTTP error with the provider's error body.
    Error(HttpError),
    /// Bytes sent verbatim, for malformed-stream tests.
    RawSse(RawSse),
}

/// Content and delivery of a successful answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamScript {
    /// Answers only a request whose first user message contains this text: the first
    /// queued response that matches (or has no `when`) answers a request. Sessions that
    /// run at once (a parent and its subagents) each get their own answers this way,
    /// whatever order their requests arrive in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// Reasoning / thinking text, sent before the answer text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Anthropic thinking-block signature, and Gemini's `thoughtSignature` on the first
    /// function call of a step; generated when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_signature: Option<String>,
    /// Answer text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Tool calls, after the text; several make a parallel call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<MockToolCall>,
    /// Token usage to report; estimated from sizes when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<MockUsage>,
    /// Why generation stopped; defaults to `tool_calls` when there are tool calls, else `stop`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<FinishReason>,
    /// Size of each text/reasoning/argument delta in characters; 0 sends each whole.
    #[serde(default = "default_chunk_chars")]
    pub chunk_chars: usize,
    /// Delay between consecutive SSE events, in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub drip_ms: u64,
    /// Silence before the first event (the headers go out at once), in milliseconds: a
    /// local server reading a long prompt.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_byte_delay_ms: u64,
    /// Close the connection abruptly after this many events (no terminal marker).
    /// Counts every SSE event, the opening ones (`message_start`, `ping`, OpenAI's
    /// role chunk) included. With fewer events than that, all are sent and the
    /// connection is still aborted rather than ended. Takes precedence over
    /// `hang_after_events`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_after_events: Option<usize>,
    /// With `cut_after_events`: also write the first half of the next event's bytes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut_mid_event: bool,
    /// Stop sending after this many events but keep the connection open until the
    /// client goes away (or the server shuts down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hang_after_events: Option<usize>,
    /// Send the provider's in-stream error event after the content, instead of the
    /// normal ending. Its `status` picks the error type (529 = overloaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mid_stream_error: Option<HttpError>,
}

/// One scripted tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockToolCall {
    /// Call id; generated per format when absent (`call_…`, `toolu_…`; Gemini omits it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    /// The arguments as the model would emit them: normally a JSON object text, but
    /// deliberately any string, so malformed arguments can be scripted.
    #[serde(default)]
    pub arguments: String,
}

/// Token usage, in provider-neutral terms.
///
/// `input_tokens` includes `cached_input_tokens` and `output_tokens` includes
/// `reasoning_tokens` (OpenAI's convention). Renderers convert: Anthropic reports
/// `input_tokens - cached` plus `cache_read_input_tokens`; Gemini reports
/// `candidatesTokenCount = output - reasoning` plus `thoughtsTokenCount`. An adapter
/// that normalises correctly gets the same numbers back from every format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cached_input_tokens: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reasoning_tokens: u64,
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// OpenAI `stop`, Anthropic `end_turn`, Gemini `STOP`.
    Stop,
    /// OpenAI `tool_calls`, Anthropic `tool_use`, Gemini `STOP`.
    ToolCalls,
    /// OpenAI `length`, Anthropic `max_tokens`, Gemini `MAX_TOKENS`.
    Length,
}

/// A scripted HTTP error (or, as `mid_stream_error`, an in-stream error event).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpError {
    pub status: u16,
    /// Sent as the `retry-after` header (OpenAI, Anthropic) or, as the real service
    /// does, only as the `RetryInfo` detail of the body (Gemini).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_secs: Option<u64>,
    /// Error message; a realistic default per status and format when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Overrides the classifier: OpenAI `code`, Anthropic `error.type`, Gemini `status`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A verbatim response body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSse {
    #[serde(default = "default_raw_status")]
    pub status: u16,
    #[serde(default = "default_raw_content_type")]
    pub content_type: String,
    pub body: String,
}

fn default_chunk_chars() -> usize {
    DEFAULT_CHUNK_CHARS
}

fn default_raw_status() -> u16 {
    200
}

fn default_raw_content_type() -> String {
    "text/event-stream".to_owned()
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for StreamScript {
    fn default() -> Self {
        StreamScript {
            when: None,
            reasoning: None,
            thinking_signature: None,
            text: None,
            tool_calls: Vec::new(),
            usage: None,
            finish_reason: None,
            chunk_chars: DEFAULT_CHUNK_CHARS,
            drip_ms: 0,
            first_byte_delay_ms: 0,
            cut_after_events: None,
            cut_mid_event: false,
            hang_after_events: None,
            mid_stream_error: None,
        }
    }
}

impl StreamScript {
    /// The finish reason that will be reported.
    pub fn effective_finish_reason(&self) -> FinishReason {
        match self.finish_reason {
            Some(reason) => reason,
            None if self.tool_calls.is_empty() => FinishReason::Stop,
            None => FinishReason::ToolCalls,
        }
    }
}

impl MockToolCall {
    pub fn new(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        MockToolCall {
            id: None,
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    /// Use a fixed call id instead of a generated one.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }
}

impl MockUsage {
    pub fn new(input_tokens: u64, output_tokens: u64) -> Self {
        MockUsage {
            input_tokens,
            output_tokens,
            ..MockUsage::default()
        }
    }
}

impl HttpError {
    pub fn new(status: u16) -> Self {
        HttpError {
            status,
            retry_after_secs: None,
            message: None,
            kind: None,
        }
    }
}

/// Builders. Stream modifiers (`with_*`, `drip`, `cut_*`, …) only touch a
/// [`MockResponse::Stream`]; error modifiers (`retry_after`, `message`, `kind`) only an
/// [`MockResponse::Error`]. On another variant they change nothing.
impl MockResponse {
    /// A stream with no content; combine with `with_*`.
    pub fn empty() -> Self {
        MockResponse::Stream(StreamScript::default())
    }

    /// A plain text answer.
    pub fn text(text: impl Into<String>) -> Self {
        MockResponse::empty().with_text(text)
    }

    /// A single tool call with the given (raw) argument text.
    pub fn tool_call(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        MockResponse::empty().with_tool_call(name, arguments)
    }

    /// Parallel tool calls, in order.
    pub fn tool_calls<N, A>(calls: impl IntoIterator<Item = (N, A)>) -> Self
    where
        N: Into<String>,
        A: Into<String>,
    {
        calls
            .into_iter()
            .fold(MockResponse::empty(), |r, (n, a)| r.with_tool_call(n, a))
    }

    /// An HTTP error with the given status (body in the request's format).
    pub fn http_error(status: u16) -> Self {
        MockResponse::Error(HttpError::new(status))
    }

    /// A 200 `text/event-stream` response whose body is sent verbatim.
    pub fn raw_sse(body: impl Into<String>) -> Self {
        MockResponse::raw(200, default_raw_content_type(), body)
    }

    /// Any status, content type and body, sent verbatim.
    pub fn raw(status: u16, content_type: impl Into<String>, body: impl Into<String>) -> Self {
        MockResponse::RawSse(RawSse {
            status,
            content_type: content_type.into(),
            body: body.into(),
        })
    }

    fn map_stream(mut self, f: impl FnOnce(&mut StreamScript)) -> Self {
        if let MockResponse::Stream(script) = &mut self {
            f(script);
        }
        self
    }

    fn map_error(mut self, f: impl FnOnce(&mut HttpError)) -> Self {
        if let MockResponse::Error(error) = &mut self {
            f(error);
        }
        self
    }

    pub fn with_reasoning(self, reasoning: impl Into<String>) -> Self {
        let reasoning = reasoning.into();
        self.map_stream(|s| s.reasoning = Some(reasoning))
    }

    pub fn with_thinking_signature(self, signature: impl Into<String>) -> Self {
        let signature = signature.into();
        self.map_stream(|s| s.thinking_signature = Some(signature))
    }

    /// Answers only a request whose first user message contains `text` (see
    /// [`StreamScript::when`]).
    pub fn when(self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.map_stream(|s| s.when = Some(text))
    }

    /// Whether this response may answer a request whose first user message (as JSON
    /// text) is `first_user`.
    pub fn answers(&self, first_user: &str) -> bool {
        match self {
            MockResponse::Stream(StreamScript {
                when: Some(when), ..
            }) => first_user.contains(when.as_str()),
            _ => true,
        }
    }

    pub fn with_text(self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.map_stream(|s| s.text = Some(text))
    }

    /// Append a tool call (after any already scripted).
    pub fn with_tool_call(self, name: impl Into<String>, arguments: impl Into<String>) -> Self {
        self.with_tool(MockToolCall::new(name, arguments))
    }

    /// Append a fully specified tool call, e.g. one with a fixed id.
    pub fn with_tool(self, call: MockToolCall) -> Self {
        self.map_stream(|s| s.tool_calls.push(call))
    }

    pub fn with_usage(self, input_tokens: u64, output_tokens: u64) -> Self {
        self.map_stream(|s| {
            let usage = s.usage.get_or_insert_with(MockUsage::default);
            usage.input_tokens = input_tokens;
            usage.output_tokens = output_tokens;
        })
    }

    /// Cached prompt tokens (part of `input_tokens`).
    pub fn with_cached_tokens(self, cached: u64) -> Self {
        self.map_stream(|s| {
            s.usage
                .get_or_insert_with(MockUsage::default)
                .cached_input_tokens = cached
        })
    }

    /// Reasoning tokens (part of `output_tokens`).
    pub fn with_reasoning_tokens(self, reasoning: u64) -> Self {
        self.map_stream(|s| {
            s.usage
                .get_or_insert_with(MockUsage::default)
                .reasoning_tokens = reasoning
        })
    }

    pub fn finish_reason(self, reason: FinishReason) -> Self {
        self.map_stream(|s| s.finish_reason = Some(reason))
    }

    /// Report that the output limit was hit (`length` / `max_tokens` / `MAX_TOKENS`).
    pub fn truncated(self) -> Self {
        self.finish_reason(FinishReason::Length)
    }

    /// Split strings into deltas of `chars` characters (0 = whole).
    pub fn chunk_chars(self, chars: usize) -> Self {
        self.map_stream(|s| s.chunk_chars = chars)
    }

    /// Wait this long between SSE events.
    /// Waits `delay` before the first event, as a server reading the prompt does.
    pub fn first_byte_delay(self, delay: Duration) -> Self {
        let ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        self.map_stream(|s| s.first_byte_delay_ms = ms)
    }

    pub fn drip(self, delay: Duration) -> Self {
        let ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        self.map_stream(|s| s.drip_ms = ms)
    }

    /// Close the connection abruptly after `events` events.
    pub fn cut_after_events(self, events: usize) -> Self {
        self.map_stream(|s| {
            s.cut_after_events = Some(events);
            s.cut_mid_event = false;
        })
    }

    /// Send `events` events, then half of the next one's bytes, then close abruptly.
    pub fn cut_mid_event(self, events: usize) -> Self {
        self.map_stream(|s| {
            s.cut_after_events = Some(events);
            s.cut_mid_event = true;
        })
    }

    /// Send `events` events, then keep the connection open, silent, until the client leaves.
    pub fn hang_after_events(self, events: usize) -> Self {
        self.map_stream(|s| s.hang_after_events = Some(events))
    }

    /// End the stream with the provider's "overloaded" in-stream error event.
    pub fn mid_stream_error(self) -> Self {
        self.mid_stream_error_with(HttpError::new(529))
    }

    /// End the stream with a specific in-stream error event.
    pub fn mid_stream_error_with(self, error: HttpError) -> Self {
        self.map_stream(|s| s.mid_stream_error = Some(error))
    }

    /// Set the `retry-after` header (seconds) of an error response.
    pub fn retry_after(self, secs: u64) -> Self {
        self.map_error(|e| e.retry_after_secs = Some(secs))
    }

    /// Set the message of an error response.
    pub fn message(self, message: impl Into<String>) -> Self {
        let message = message.into();
        self.map_error(|e| e.message = Some(message))
    }

    /// Override the provider-specific error classifier (see [`HttpError::kind`]).
    pub fn kind(self, kind: impl Into<String>) -> Self {
        let kind = kind.into();
        self.map_error(|e| e.kind = Some(kind))
    }
}

impl From<StreamScript> for MockResponse {
    fn from(script: StreamScript) -> Self {
        MockResponse::Stream(script)
    }
}

impl From<HttpError> for MockResponse {
    fn from(error: HttpError) -> Self {
        MockResponse::Error(error)
    }
}

impl From<RawSse> for MockResponse {
    fn from(raw: RawSse) -> Self {
        MockResponse::RawSse(raw)
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum Repr<'a> {
    Error { error: &'a HttpError },
    Raw { raw_sse: &'a RawSse },
    Stream(&'a StreamScript),
}

impl Serialize for MockResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            MockResponse::Stream(script) => Repr::Stream(script),
            MockResponse::Error(error) => Repr::Error { error },
            MockResponse::RawSse(raw_sse) => Repr::Raw { raw_sse },
        }
        .serialize(serializer)
    }
}

// Hand-written rather than `untagged` so a typo yields a precise message
// ("unknown field `txt`") instead of "did not match any variant".
impl<'de> Deserialize<'de> for MockResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let serde_json::Value::Object(mut object) = value else {
            return Err(D::Error::custom("a mock response must be a JSON object"));
        };
        if let Some(inner) = object.remove("error") {
            if !object.is_empty() {
                return Err(D::Error::custom(
                    "an \"error\" response takes no other keys",
                ));
            }
            return serde_json::from_value(inner)
                .map(MockResponse::Error)
                .map_err(|e| D::Error::custom(format!("in \"error\": {e}")));
        }
        if let Some(inner) = object.remove("raw_sse") {
            if !object.is_empty() {
                return Err(D::Error::custom(
                    "a \"raw_sse\" response takes no other keys",
                ));
            }
            return serde_json::from_value(inner)
                .map(MockResponse::RawSse)
                .map_err(|e| D::Error::custom(format!("in \"raw_sse\": {e}")));
        }
        serde_json::from_value(serde_json::Value::Object(object))
            .map(MockResponse::Stream)
            .map_err(D::Error::custom)
    }
}
