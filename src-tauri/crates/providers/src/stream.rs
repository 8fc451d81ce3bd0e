//! Glue between bytes and [`ResponseEvent`]s: the [`StreamAssembler`] trait each wire format
//! implements, the [`SseDecoder`] that runs an assembler behind the SSE parser (used by the
//! HTTP path, the tests and the bench alike), and the HTTP-backed [`ResponseStream`].

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use futures::stream::{BoxStream, Stream, StreamExt};

use crate::http::Timeouts;
use crate::sse::{SseEvent, SseParser};
use crate::{ApiKey, ProviderError, ResponseEvent, ResponseStream};

/// A wire format's incremental response assembler: fed one SSE event at a time, it emits
/// deltas as they arrive and finally one [`ResponseEvent::Completed`].
pub trait StreamAssembler: Send {
    /// Handles one event, pushing whatever it produces onto `out`.
    fn on_event(
        &mut self,
        event: &SseEvent<'_>,
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError>;

    /// The body ended. Pushes `Completed` if the response is whole (when the format has no
    /// terminal event), otherwise fails with [`ProviderError::StreamInterrupted`].
    fn finish(&mut self, out: &mut VecDeque<ResponseEvent>) -> Result<(), ProviderError>;

    /// Whether the terminal event (`[DONE]`, `message_stop`) was seen and `Completed` pushed.
    fn is_done(&self) -> bool;
}

/// The most body bytes one response may have. A long answer is well under a MiB of
/// text; this only stops a server that streams without end (the idle timeout never
/// fires while bytes keep coming), before the assembled answer exhausts memory.
pub const MAX_RESPONSE_BYTES: usize = 256 * 1024 * 1024;

/// SSE parser + assembler: bytes in, response events out.
#[derive(Debug, Default)]
pub struct SseDecoder<A> {
    parser: SseParser,
    assembler: A,
    /// Body bytes fed so far.
    received: usize,
    /// Bound of `received`; 0 = [`MAX_RESPONSE_BYTES`].
    max_response_bytes: usize,
}

impl<A: StreamAssembler> SseDecoder<A> {
    pub fn new(assembler: A) -> Self {
        Self::with_max_response_bytes(assembler, MAX_RESPONSE_BYTES)
    }

    /// A decoder that fails once the body exceeds `max_response_bytes`.
    pub fn with_max_response_bytes(assembler: A, max_response_bytes: usize) -> Self {
        Self {
            parser: SseParser::new(),
            assembler,
            received: 0,
            max_response_bytes,
        }
    }

    /// Feeds a chunk of the body. Events produced before an error are still in `out`.
    pub fn feed(
        &mut self,
        bytes: &[u8],
        out: &mut VecDeque<ResponseEvent>,
    ) -> Result<(), ProviderError> {
        self.received = self.received.saturating_add(bytes.len());
        let limit = match self.max_response_bytes {
            0 => MAX_RESPONSE_BYTES,
            n => n,
        };
        if self.received > limit && !self.assembler.is_done() {
            return Err(ProviderError::Fatal(format!(
                "the response stream exceeded {} MiB without finishing",
                limit.div_ceil(1024 * 1024)
            )));
        }
        let assembler = &mut self.assembler;
        self.parser.feed(bytes, &mut |event| {
            // Anything after the terminal event is noise (some proxies append comments).
            if assembler.is_done() {
                return Ok(());
            }
            assembler.on_event(&event, out)
        })?;
        if self.parser.overflowed() && !self.assembler.is_done() {
            return Err(ProviderError::Fatal(format!(
                "the response stream sent an event larger than {} MiB",
                crate::sse::MAX_EVENT_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }

    /// The body ended.
    pub fn finish(&mut self, out: &mut VecDeque<ResponseEvent>) -> Result<(), ProviderError> {
        let assembler = &mut self.assembler;
        self.parser.finish(&mut |event| {
            if assembler.is_done() {
                return Ok(());
            }
            assembler.on_event(&event, out)
        })?;
        if self.assembler.is_done() {
            return Ok(());
        }
        self.assembler.finish(out)
    }

    pub fn is_done(&self) -> bool {
        self.assembler.is_done()
    }
}

/// Decodes a whole in-memory body; the error, if any, comes after the events before it.
pub fn decode_all<A: StreamAssembler>(
    assembler: A,
    body: &[u8],
) -> (Vec<ResponseEvent>, Option<ProviderError>) {
    let mut decoder = SseDecoder::new(assembler);
    let mut out = VecDeque::new();
    let result = decoder
        .feed(body, &mut out)
        .and_then(|()| decoder.finish(&mut out));
    (out.into(), result.err())
}

/// A unique id for a tool call the provider sent without one. Process-wide so that ids
/// stay unique across the steps of a conversation, where results are paired by id.
pub(crate) fn synthesize_call_id(prefix: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The response stream of one HTTP call. Dropping it drops the body, which closes the
/// connection: that is how an interrupt aborts a call promptly.
struct HttpEventStream<A> {
    body: Option<BoxStream<'static, reqwest::Result<Bytes>>>,
    /// Fires when the next chunk is late: the first one has until the request's
    /// first-byte deadline, every later one the idle timeout.
    deadline: Pin<Box<tokio::time::Sleep>>,
    started: bool,
    timeouts: Timeouts,
    decoder: SseDecoder<A>,
    queue: VecDeque<ResponseEvent>,
    /// An error to deliver once the events decoded before it are out.
    pending_error: Option<ProviderError>,
    api_key: Option<ApiKey>,
}

/// What every adapter does once it has its URL, headers and body: encode the body, POST
/// it expecting SSE, and decode the answer with `assembler`. HTTP errors come back
/// classified (and with the key redacted) before any event.
pub(crate) fn post_and_stream<A: StreamAssembler + Unpin + Send + 'static>(
    http: reqwest::Client,
    url: String,
    headers: Result<reqwest::header::HeaderMap, ProviderError>,
    body: &serde_json::Value,
    assembler: A,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
) -> futures::future::BoxFuture<'static, Result<ResponseStream, ProviderError>> {
    let body = serde_json::to_vec(body)
        .map_err(|e| ProviderError::Fatal(format!("cannot encode the request: {e}")));
    Box::pin(async move {
        let first_byte = tokio::time::Instant::now() + timeouts.first_byte;
        let sent = crate::http::post_sse(&http, &url, headers?, body?, api_key.as_ref());
        let response = match tokio::time::timeout_at(first_byte, sent).await {
            Ok(response) => response?,
            Err(_) => return Err(timeouts.expired(true)),
        };
        Ok(http_event_stream(
            response, assembler, api_key, timeouts, first_byte,
        ))
    })
}

pub(crate) fn http_event_stream<A: StreamAssembler + Unpin + 'static>(
    response: reqwest::Response,
    assembler: A,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
    first_byte: tokio::time::Instant,
) -> ResponseStream {
    Box::pin(HttpEventStream {
        body: Some(response.bytes_stream().boxed()),
        deadline: Box::pin(tokio::time::sleep_until(first_byte)),
        started: false,
        timeouts,
        decoder: SseDecoder::new(assembler),
        queue: VecDeque::new(),
        pending_error: None,
        api_key,
    })
}

impl<A> HttpEventStream<A> {
    fn fail(&mut self, err: ProviderError) {
        // Stop reading at once: nothing after an error is trustworthy.
        self.body = None;
        self.pending_error = Some(err.redact(self.api_key.as_ref()));
    }
}

impl<A: StreamAssembler + Unpin> Stream for HttpEventStream<A> {
    type Item = Result<ResponseEvent, ProviderError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(event) = this.queue.pop_front() {
                return Poll::Ready(Some(Ok(event)));
            }
            if let Some(err) = this.pending_error.take() {
                return Poll::Ready(Some(Err(err)));
            }
            if this.decoder.is_done() {
                // Completed went out; a server that keeps the connection open must not
                // keep us waiting.
                this.body = None;
            }
            let Some(body) = this.body.as_mut() else {
                return Poll::Ready(None);
            };
            match body.poll_next_unpin(cx) {
                Poll::Pending => {
                    if this.deadline.as_mut().poll(cx).is_ready() {
                        let err = this.timeouts.expired(!this.started);
                        this.fail(err);
                        continue;
                    }
                    return Poll::Pending;
                }
                Poll::Ready(Some(Ok(bytes))) => {
                    this.started = true;
                    let next = tokio::time::Instant::now() + this.timeouts.idle;
                    this.deadline.as_mut().reset(next);
                    if let Err(err) = this.decoder.feed(&bytes, &mut this.queue) {
                        this.fail(err);
                    }
                }
                Poll::Ready(Some(Err(err))) => {
                    let err = ProviderError::StreamInterrupted(crate::http::describe(&err));
                    this.fail(err);
                }
                Poll::Ready(None) => {
                    this.body = None;
                    if let Err(err) = this.decoder.finish(&mut this.queue) {
                        this.fail(err);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai::OpenAiAssembler;

    /// Feeds `chunks` of `size` bytes made by `piece`; returns the first error.
    fn feed_many(piece: &[u8], chunks: usize) -> Option<ProviderError> {
        let mut decoder = SseDecoder::new(OpenAiAssembler::new());
        let mut out = VecDeque::new();
        for _ in 0..chunks {
            if let Err(err) = decoder.feed(piece, &mut out) {
                return Some(err);
            }
        }
        None
    }

    #[test]
    fn an_endless_line_is_refused_not_buffered() {
        // 32 MiB of one line without a terminator, in 64 KiB reads.
        let piece = vec![b'x'; 64 * 1024];
        let err = feed_many(&piece, 512);
        assert!(matches!(err, Some(ProviderError::Fatal(_))), "{err:?}");
    }

    #[test]
    fn an_endless_event_is_refused_not_buffered() {
        // Complete `data:` lines, but never the blank line that ends the event.
        let line = format!("data: {}\n", "y".repeat(1024));
        let piece = line.repeat(64);
        let err = feed_many(piece.as_bytes(), 512);
        assert!(matches!(err, Some(ProviderError::Fatal(_))), "{err:?}");
    }

    #[test]
    fn an_endless_answer_is_cut_off() {
        // Small, valid events forever: each is fine, the whole is not.
        let event =
            b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"xxxxxxxxxxxxxxxx\"}}]}\n\n";
        let mut decoder = SseDecoder::with_max_response_bytes(OpenAiAssembler::new(), 64 * 1024);
        let mut out = VecDeque::new();
        let mut result = Ok(());
        for _ in 0..10_000 {
            result = decoder.feed(event, &mut out);
            out.clear();
            if result.is_err() {
                break;
            }
        }
        assert!(matches!(result, Err(ProviderError::Fatal(_))), "{result:?}");
    }
}
