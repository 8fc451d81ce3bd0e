//! Incremental server-sent-events parser following the WHATWG `text/event-stream` rules.
//!
//! Input may be split at any byte boundary (inside a UTF-8 sequence, between `\r` and `\n`),
//! so the parser keeps only the unfinished line between calls. Events borrow the parser's
//! reusable buffers instead of allocating: at several hundred events per second of
//! streaming, per-event allocations would dominate the cost of parsing.

use std::borrow::Cow;

/// One dispatched event. Borrowed from the parser; copy what you need to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The `event:` field, `"message"` when the server sent none.
    pub event: &'a str,
    /// The `data:` lines joined with `\n`. Invalid UTF-8 is replaced with U+FFFD.
    pub data: Cow<'a, str>,
    /// The last event id seen on the stream (it persists across events, per the spec).
    pub id: &'a str,
}

/// The incremental parser. Feed it bytes as they arrive; it calls back once per event.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of a line whose terminator has not arrived yet.
    partial: Vec<u8>,
    /// The previous chunk ended with `\r`: a `\n` at the start of the next one belongs to
    /// the same line terminator and must not produce an extra (dispatching) blank line.
    after_cr: bool,
    /// The UTF-8 BOM is skipped once at the very start of the stream.
    bom_checked: bool,
    data: Vec<u8>,
    event_type: Vec<u8>,
    last_id: String,
    retry_ms: Option<u64>,
    /// Most bytes one event (its unfinished line included) may hold; 0 = the default.
    max_event_bytes: usize,
    /// An event outgrew `max_event_bytes`: everything after it is ignored.
    overflowed: bool,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Default bound of one event. Text deltas are tiny; the largest real events (a Gemini
/// chunk with an inline image) are a few MiB. Without a bound, a server that never ends a
/// line or an event would make the parser buffer until memory runs out.
pub const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser that gives up on events larger than `max_event_bytes`.
    pub fn with_max_event_bytes(max_event_bytes: usize) -> Self {
        Self {
            max_event_bytes,
            ..Self::default()
        }
    }

    /// Whether an event exceeded the size bound. Once true, the parser ignores all input
    /// and the stream cannot be trusted any more.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    fn limit(&self) -> usize {
        if self.max_event_bytes == 0 {
            MAX_EVENT_BYTES
        } else {
            self.max_event_bytes
        }
    }

    /// Drops the buffers of an oversized event and stops parsing.
    fn check_size(&mut self) -> bool {
        if self.partial.len() + self.data.len() > self.limit() {
            self.overflowed = true;
            self.partial = Vec::new();
            self.data = Vec::new();
            self.event_type.clear();
        }
        self.overflowed
    }

    /// The reconnection delay the server asked for with a `retry:` field, if any.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// Parses `chunk`, calling `on_event` for every event completed by it. Stops early and
    /// returns the error when the callback fails (the rest of the chunk is dropped).
    pub fn feed<E>(
        &mut self,
        mut chunk: &[u8],
        on_event: &mut dyn FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.overflowed {
            return Ok(());
        }
        if !self.bom_checked {
            // The BOM may itself be split across chunks: hold bytes until it is decided.
            let mut head = std::mem::take(&mut self.partial);
            head.extend_from_slice(chunk);
            if head.len() < BOM.len() && BOM.starts_with(&head) {
                self.partial = head;
                return Ok(());
            }
            self.bom_checked = true;
            let start = if head.starts_with(BOM) { BOM.len() } else { 0 };
            // Re-enter once with the reassembled first chunk.
            return self.feed(&head[start..], on_event);
        }
        if chunk.is_empty() {
            // Must not clear `after_cr`: the `\n` may still come in the next chunk.
            return Ok(());
        }
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while let Some(pos) = memchr::memchr2(b'\n', b'\r', chunk) {
            let line_end = pos;
            let mut next = pos + 1;
            if chunk[pos] == b'\r' {
                match chunk.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            if self.partial.is_empty() {
                self.process_line(&chunk[..line_end], on_event)?;
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.extend_from_slice(&chunk[..line_end]);
                let result = self.process_line(&line, on_event);
                // Keep the allocation for the next partial line.
                line.clear();
                self.partial = line;
                result?;
            }
            if self.check_size() {
                return Ok(());
            }
            chunk = &chunk[next..];
        }
        self.partial.extend_from_slice(chunk);
        self.check_size();
        Ok(())
    }

    /// Signals the end of the input. Per the spec an event without its closing blank line is
    /// discarded; we deviate in one case: when every line of it was complete, the server
    /// closed right after the last `data:` line, and those lines are whole, so the event is
    /// dispatched. A trailing line without its terminator is dropped (it may be cut short).
    pub fn finish<E>(
        &mut self,
        on_event: &mut dyn FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.partial.clear();
        self.after_cr = false;
        if self.overflowed {
            return Ok(());
        }
        self.dispatch(on_event)
    }

    fn process_line<E>(
        &mut self,
        line: &[u8],
        on_event: &mut dyn FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if line.is_empty() {
            return self.dispatch(on_event);
        }
        if line[0] == b':' {
            return Ok(());
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"event" => {
                self.event_type.clear();
                self.event_type.extend_from_slice(value);
            }
            // Reuse the buffer: some servers send an id with every event.
            b"id" if !value.contains(&0) => {
                self.last_id.clear();
                self.last_id.push_str(&String::from_utf8_lossy(value));
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                self.retry_ms = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch<E>(
        &mut self,
        on_event: &mut dyn FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.data.is_empty() {
            self.event_type.clear();
            return Ok(());
        }
        // Every data line appended a `\n`; the last one is not part of the data.
        let data_bytes = &self.data[..self.data.len() - 1];
        let data = match std::str::from_utf8(data_bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => Cow::Owned(String::from_utf8_lossy(data_bytes).into_owned()),
        };
        let event_type = match std::str::from_utf8(&self.event_type) {
            Ok("") | Err(_) => "message",
            Ok(name) => name,
        };
        let result = on_event(SseEvent {
            event: event_type,
            data,
            id: &self.last_id,
        });
        self.data.clear();
        self.event_type.clear();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    #[derive(Debug, PartialEq)]
    struct Owned {
        event: String,
        data: String,
        id: String,
    }

    fn parse_chunks(chunks: &[&[u8]]) -> Vec<Owned> {
        let mut parser = SseParser::new();
        let mut out = Vec::new();
        let mut collect = |ev: SseEvent<'_>| -> Result<(), Infallible> {
            out.push(Owned {
                event: ev.event.to_owned(),
                data: ev.data.into_owned(),
                id: ev.id.to_owned(),
            });
            Ok(())
        };
        for chunk in chunks {
            let Ok(()) = parser.feed(chunk, &mut collect);
        }
        let Ok(()) = parser.finish(&mut collect);
        out
    }

    fn ev(event: &str, data: &str, id: &str) -> Owned {
        Owned {
            event: event.into(),
            data: data.into(),
            id: id.into(),
        }
    }

    #[test]
    fn basic_fields_comments_and_multiline_data() {
        let input = b": comment\nevent: ping\ndata: a\ndata:b\ndata\nid: 7\n\ndata: x\n\n";
        assert_eq!(
            parse_chunks(&[input]),
            vec![ev("ping", "a\nb\n", "7"), ev("message", "x", "7")]
        );
    }

    #[test]
    fn only_one_leading_space_is_stripped() {
        assert_eq!(
            parse_chunks(&[b"data:  two\n\n"]),
            vec![ev("message", " two", "")]
        );
    }

    #[test]
    fn all_line_endings() {
        let expected = vec![ev("message", "1", ""), ev("e", "2", "")];
        assert_eq!(
            parse_chunks(&[b"data: 1\n\nevent: e\ndata: 2\n\n"]),
            expected
        );
        assert_eq!(
            parse_chunks(&[b"data: 1\r\n\r\nevent: e\r\ndata: 2\r\n\r\n"]),
            expected
        );
        assert_eq!(
            parse_chunks(&[b"data: 1\r\revent: e\rdata: 2\r\r"]),
            expected
        );
    }

    #[test]
    fn empty_data_buffer_does_not_dispatch_but_empty_data_line_does() {
        assert_eq!(
            parse_chunks(&[b"event: x\n\ndata:\n\n"]),
            vec![ev("message", "", "")]
        );
    }

    #[test]
    fn id_with_nul_is_ignored_and_unknown_fields_skipped() {
        assert_eq!(
            parse_chunks(&[b"id: a\0b\nfoo: bar\nretry: 100\ndata: d\n\n"]),
            vec![ev("message", "d", "")]
        );
    }

    #[test]
    fn retry_field_is_recorded() {
        let mut parser = SseParser::new();
        let Ok(()) = parser.feed::<Infallible>(b"retry: 1500\n\n", &mut |_| Ok(()));
        assert_eq!(parser.retry_ms(), Some(1500));
    }

    #[test]
    fn bom_is_skipped_even_when_split() {
        let input = b"\xEF\xBB\xBFdata: hi\n\n";
        for split in 0..input.len() {
            let (a, b) = input.split_at(split);
            assert_eq!(parse_chunks(&[a, b]), vec![ev("message", "hi", "")]);
        }
        // Byte by byte too.
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(parse_chunks(&bytes), vec![ev("message", "hi", "")]);
    }

    #[test]
    fn split_at_every_boundary_including_utf8_and_crlf() {
        let input =
            "event: d\r\ndata: héllo 🌍\r\ndata: ∑\r\n\r\ndata: x\r\rdata: y\n\n".as_bytes();
        let whole = parse_chunks(&[input]);
        assert_eq!(
            whole,
            vec![
                ev("d", "héllo 🌍\n∑", ""),
                ev("message", "x", ""),
                ev("message", "y", "")
            ]
        );
        for i in 0..=input.len() {
            for j in i..=input.len() {
                let parts = [&input[..i], &input[i..j], &input[j..]];
                assert_eq!(parse_chunks(&parts), whole, "split at {i},{j}");
            }
        }
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            parse_chunks(&[b"data: a\xFFb\n\n"]),
            vec![ev("message", "a\u{FFFD}b", "")]
        );
    }

    #[test]
    fn eof_dispatches_complete_lines_but_drops_a_cut_line() {
        assert_eq!(
            parse_chunks(&[b"data: done\n"]),
            vec![ev("message", "done", "")]
        );
        assert_eq!(parse_chunks(&[b"data: {\"cut"]), vec![]);
    }

    #[test]
    fn oversized_lines_and_events_stop_the_parser() {
        let mut collect = |_: SseEvent<'_>| -> Result<(), Infallible> { Ok(()) };
        // One unterminated line, fed in pieces.
        let mut parser = SseParser::with_max_event_bytes(100);
        for _ in 0..10 {
            let Ok(()) = parser.feed(b"data: 0123456789", &mut collect);
        }
        assert!(parser.overflowed());
        // Complete lines that never end the event.
        let mut parser = SseParser::with_max_event_bytes(100);
        let Ok(()) = parser.feed(&b"data: 0123456789\n".repeat(10), &mut collect);
        assert!(parser.overflowed());
        // Nothing is dispatched afterwards, not even at the end of the input.
        let mut seen = 0;
        let Ok(()) = parser.feed(b"\n\ndata: x\n\n", &mut |_| -> Result<(), Infallible> {
            seen += 1;
            Ok(())
        });
        let Ok(()) = parser.finish(&mut |_| -> Result<(), Infallible> {
            seen += 1;
            Ok(())
        });
        assert_eq!(seen, 0);
        // Events under the bound are unaffected, however many there are.
        let mut parser = SseParser::with_max_event_bytes(100);
        let mut count = 0;
        let Ok(()) = parser.feed(&b"data: 0123456789\n\n".repeat(50), &mut |_| {
            count += 1;
            Ok::<(), Infallible>(())
        });
        assert_eq!(count, 50);
        assert!(!parser.overflowed());
    }

    #[test]
    fn callback_error_stops_parsing() {
        let mut parser = SseParser::new();
        let mut seen = 0;
        let result = parser.feed(b"data: 1\n\ndata: 2\n\n", &mut |_| {
            seen += 1;
            Err("stop")
        });
        assert_eq!(result, Err("stop"));
        assert_eq!(seen, 1);
    }
}
