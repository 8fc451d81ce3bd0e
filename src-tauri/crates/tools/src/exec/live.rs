//! A running command's output, shown to the person watching while it runs: polled a few
//! times a second, cleaned like the result the model gets, and sent line by line to the
//! call's [`OutputSink`]. The result of the call is unchanged by any of this.
//!
//! Only complete lines are sent while the command runs, so a progress bar redrawn with
//! `\r` shows its final state instead of every frame; whatever is left when the wait
//! ends (a prompt, the last unterminated line) is sent then.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::exec::output::clean_terminal_text;
use crate::exec::session::ExecSession;
use crate::OutputSink;

/// How often new output is forwarded: often enough to feel live, rarely enough that a
/// chatty command does not become thousands of events.
const POLL: Duration = Duration::from_millis(200);
/// Live text sent for one call at most; past it the view says so and the result still
/// has the head and tail.
const MAX_LIVE_CHARS: usize = 256 * 1024;

/// [`ExecSession::wait`], forwarding output to `sink` while waiting.
pub(crate) async fn wait_streaming(
    session: &Arc<ExecSession>,
    yield_for: Duration,
    cancel: &CancellationToken,
    sink: Option<&OutputSink>,
) -> bool {
    let Some(sink) = sink else {
        return session.wait(yield_for, cancel).await;
    };
    session.start_live();
    let mut text = LiveText::default();
    let waiting = session.wait(yield_for, cancel);
    tokio::pin!(waiting);
    let mut poll = tokio::time::interval(POLL);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let finished = loop {
        tokio::select! {
            finished = &mut waiting => break finished,
            _ = poll.tick() => {
                if let Some(chunk) = text.lines(&session.take_live()) {
                    sink.send(chunk);
                }
            }
        }
    };
    if let Some(chunk) = text.finish(&session.stop_live()) {
        sink.send(chunk);
    }
    finished
}

/// Turns raw terminal bytes into cleaned text, a complete line at a time.
#[derive(Default)]
struct LiveText {
    /// Bytes after the last newline seen.
    partial: Vec<u8>,
    sent_chars: usize,
    capped: bool,
}

impl LiveText {
    /// Cleaned complete lines among what has arrived, if any.
    fn lines(&mut self, bytes: &[u8]) -> Option<String> {
        self.partial.extend_from_slice(bytes);
        let end = memchr::memrchr(b'\n', &self.partial)? + 1;
        let complete: Vec<u8> = self.partial.drain(..end).collect();
        self.limit(clean(&complete))
    }

    /// Everything left, the unfinished line included.
    fn finish(&mut self, bytes: &[u8]) -> Option<String> {
        self.partial.extend_from_slice(bytes);
        let rest = std::mem::take(&mut self.partial);
        if rest.is_empty() {
            return None;
        }
        self.limit(clean(&rest))
    }

    fn limit(&mut self, text: String) -> Option<String> {
        if self.capped || text.is_empty() {
            return None;
        }
        let room = MAX_LIVE_CHARS.saturating_sub(self.sent_chars);
        let chars = text.chars().count();
        if chars <= room {
            self.sent_chars += chars;
            return Some(text);
        }
        self.capped = true;
        let kept: String = text.chars().take(room).collect();
        Some(format!(
            "{kept}\n… live output stops here ({MAX_LIVE_CHARS} characters shown); the result keeps the end\n"
        ))
    }
}

fn clean(bytes: &[u8]) -> String {
    clean_terminal_text(&String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_complete_lines_cleaned_and_holds_the_rest() {
        let mut t = LiveText::default();
        assert_eq!(
            t.lines(b"compiling 1\ncompil"),
            Some("compiling 1\n".into())
        );
        assert_eq!(t.lines(b"ing 2"), None);
        // Colours and a redrawn progress bar: the last state of the line wins.
        assert_eq!(
            t.lines(b"\n\x1b[32m10%\r50%\r100%\x1b[0m\r\n"),
            Some("compiling 2\n100%\n".into())
        );
        assert_eq!(t.finish(b">>> "), Some(">>> ".into()));
        assert_eq!(t.finish(b""), None);
    }

    #[test]
    fn a_character_split_across_reads_arrives_whole() {
        let mut t = LiveText::default();
        let word = "héllo\n".as_bytes();
        assert_eq!(t.lines(&word[..2]), None);
        assert_eq!(t.lines(&word[2..]), Some("héllo\n".into()));
    }

    #[test]
    fn stops_after_the_cap_and_says_so() {
        let mut t = LiveText::default();
        let line = format!("{}\n", "x".repeat(1023));
        let mut sent = 0;
        let mut last = String::new();
        for _ in 0..300 {
            if let Some(chunk) = t.lines(line.as_bytes()) {
                sent += 1;
                last = chunk;
            }
        }
        assert_eq!(sent, MAX_LIVE_CHARS / 1024 + 1);
        assert!(last.contains("live output stops here"), "{last}");
        assert_eq!(t.lines(line.as_bytes()), None);
        assert_eq!(t.finish(b"tail"), None);
    }
}
