//! What a shell session prints, on its way to the model: bounded buffering while the
//! process runs, terminal noise removed (escape sequences, carriage-return progress
//! bars), the head and tail kept under a token budget, and the response in Memo Code's
//! chunk format.

use std::collections::VecDeque;

/// Bytes kept from the start and from the end of output not yet delivered; what lies
/// between is counted and dropped, so a command printing gigabytes cannot exhaust memory.
const HEAD_BYTES: usize = 256 * 1024;
const TAIL_BYTES: usize = 256 * 1024;

/// Memo Code's default budget for one delivery.
pub const DEFAULT_MAX_OUTPUT_TOKENS: usize = 2_000;
/// Memo Code estimates a token as four characters.
const CHARS_PER_TOKEN: usize = 4;

#[derive(Debug, Default)]
pub struct OutputBuffer {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    /// Bytes dropped between head and tail since the last delivery.
    omitted: u64,
    /// Bytes of an unfinished UTF-8 character held back from the last delivery.
    carry: Vec<u8>,
}

impl OutputBuffer {
    pub fn push(&mut self, bytes: &[u8]) {
        let room = HEAD_BYTES.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        // Only the last TAIL_BYTES can survive: drop the rest in one go, not byte by byte.
        let rest_dropped = rest.len().saturating_sub(TAIL_BYTES);
        self.tail.extend(&rest[rest_dropped..]);
        let excess = self.tail.len().saturating_sub(TAIL_BYTES);
        self.tail.drain(..excess);
        self.omitted += (rest_dropped + excess) as u64;
    }

    /// Takes everything buffered. While the process runs, an incomplete UTF-8 character
    /// at the end is kept for the next delivery instead of being garbled.
    pub fn take(&mut self, finished: bool) -> Taken {
        let mut head = std::mem::take(&mut self.carry);
        head.append(&mut self.head);
        let mut tail: Vec<u8> = self.tail.drain(..).collect();
        let omitted = std::mem::take(&mut self.omitted);
        let last = if tail.is_empty() {
            &mut head
        } else {
            &mut tail
        };
        if !finished {
            if let Err(e) = std::str::from_utf8(last) {
                if e.error_len().is_none() {
                    self.carry = last.split_off(e.valid_up_to());
                }
            }
        }
        Taken {
            head: String::from_utf8_lossy(&head).into_owned(),
            omitted_bytes: omitted,
            tail: String::from_utf8_lossy(&tail).into_owned(),
        }
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.head.is_empty() && self.tail.is_empty()
    }
}

pub struct Taken {
    pub head: String,
    pub omitted_bytes: u64,
    pub tail: String,
}

/// Removes what only a terminal can use: escape sequences (colours, cursor moves, titles),
/// `\r\n` line ends, lines overwritten with `\r` (progress bars: the last state wins),
/// backspaces and other control characters.
pub fn clean_terminal_text(raw: &str) -> String {
    let stripped = strip_escapes(raw);
    let mut out = String::with_capacity(stripped.len());
    for (i, line) in stripped.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let visible = line
            .rsplit('\r')
            .find(|part| !part.is_empty())
            .unwrap_or("");
        out.extend(visible.chars().filter(|c| *c == '\t' || !c.is_control()));
    }
    out
}

fn strip_escapes(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters and intermediates up to a final byte in @..~.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // OSC (window titles, hyperlinks): up to BEL or ESC \.
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' {
                        chars.next();
                        break;
                    }
                }
            }
            // Character-set selection and similar two-character sequences.
            Some('(' | ')' | '*' | '+' | '#' | '%') => {
                chars.next();
            }
            _ => {}
        }
    }
    out
}

pub fn estimate_tokens(chars: usize) -> usize {
    chars.div_ceil(CHARS_PER_TOKEN)
}

/// Output ready for the model: cleaned, and cut in the middle if over the budget (the end
/// of a build log is usually where the error is, the start says what ran).
pub struct Delivered {
    pub text: String,
    /// The estimated size before any cut, counting what the buffer had to drop.
    pub original_tokens: usize,
}

pub fn deliver(taken: Taken, max_output_tokens: usize) -> Delivered {
    let head = clean_terminal_text(&taken.head);
    let tail = clean_terminal_text(&taken.tail);
    let omitted_chars = usize::try_from(taken.omitted_bytes).unwrap_or(usize::MAX);
    let total_chars = head
        .chars()
        .count()
        .saturating_add(tail.chars().count())
        .saturating_add(omitted_chars);
    let original_tokens = estimate_tokens(total_chars);
    let budget = max_output_tokens.max(1).saturating_mul(CHARS_PER_TOKEN);
    let joined = if taken.omitted_bytes > 0 {
        format!("{head}\n…[output cut]…\n{tail}")
    } else {
        format!("{head}{tail}")
    };
    let count = joined.chars().count();
    if count <= budget && taken.omitted_bytes == 0 {
        return Delivered {
            text: joined,
            original_tokens,
        };
    }
    let keep_head = budget / 2;
    let keep_tail = budget - keep_head;
    let mut text: String = joined.chars().take(keep_head.min(count)).collect();
    let dropped_chars = total_chars.saturating_sub(budget.min(count));
    text.push_str(&format!(
        "\n…[{} tokens truncated]…\n",
        estimate_tokens(dropped_chars)
    ));
    let tail_start = count.saturating_sub(keep_tail).max(keep_head.min(count));
    text.extend(joined.chars().skip(tail_start));
    Delivered {
        text,
        original_tokens,
    }
}

/// The state line of a response.
#[derive(Debug, Clone, PartialEq)]
pub enum ProcessState {
    Exited { code: i32, signal: Option<String> },
    Running { session_id: u32 },
}

impl ProcessState {
    /// The state as a command's view says it.
    pub fn command_state(&self) -> memo_protocol::CommandState {
        use memo_protocol::CommandState;
        match self {
            ProcessState::Exited {
                code,
                signal: Some(signal),
            } => CommandState::Killed {
                signal: signal.clone(),
                code: Some(*code),
            },
            ProcessState::Exited { code, signal: None } => CommandState::Exited { code: *code },
            ProcessState::Running { session_id } => CommandState::Running {
                session_id: *session_id,
            },
        }
    }
}

/// Memo Code's exec response format, so prompts written for it keep working.
pub fn format_response(
    chunk_id: &str,
    wall_secs: f64,
    state: &ProcessState,
    delivered: &Delivered,
) -> String {
    let state = match state {
        ProcessState::Exited {
            code,
            signal: Some(signal),
        } => format!("Process exited with code {code} (signal: {signal})"),
        ProcessState::Exited { code, signal: None } => format!("Process exited with code {code}"),
        ProcessState::Running { session_id } => {
            format!("Process running with session ID {session_id}")
        }
    };
    format!(
        "Chunk ID: {chunk_id}\nWall time: {wall_secs:.4} seconds\n{state}\nOriginal token count: {}\nOutput:\n{}",
        delivered.original_tokens, delivered.text
    )
}

/// What a response in [`format_response`]'s format says, read back (for calls stored
/// before tool views recorded it): the state, the wall time, and where the printed
/// output starts. `None` for any other text.
pub fn parse_response(text: &str) -> Option<(ProcessState, f64, usize)> {
    let rest = match text.strip_prefix("Chunk ID: ") {
        Some(after) => after.split_once('\n')?.1,
        None => text,
    };
    let (wall, rest) = rest.strip_prefix("Wall time: ")?.split_once(" seconds\n")?;
    let wall: f64 = wall.parse().ok()?;
    let (state_line, mut rest) = rest.split_once('\n')?;
    let state = if let Some(id) = state_line.strip_prefix("Process running with session ID ") {
        ProcessState::Running {
            session_id: id.parse().ok()?,
        }
    } else {
        let code = state_line.strip_prefix("Process exited with code ")?;
        match code.split_once(" (signal: ") {
            Some((code, signal)) => ProcessState::Exited {
                code: code.parse().ok()?,
                signal: Some(signal.strip_suffix(')')?.to_owned()),
            },
            None => ProcessState::Exited {
                code: code.parse().ok()?,
                signal: None,
            },
        }
    };
    if let Some(after) = rest.strip_prefix("Original token count: ") {
        rest = after.split_once('\n')?.1;
    }
    let printed = rest
        .strip_prefix("Output:\n")
        .or_else(|| rest.strip_prefix("Output:"))?;
    Some((state, wall, text.len() - printed.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_reads_back_as_what_it_said() {
        let delivered = Delivered {
            text: "hé\n".into(),
            original_tokens: 1,
        };
        for state in [
            ProcessState::Exited {
                code: 3,
                signal: None,
            },
            ProcessState::Exited {
                code: -1,
                signal: Some("SIGKILL".into()),
            },
            ProcessState::Running { session_id: 7 },
        ] {
            let text = format_response("ab12", 1.25, &state, &delivered);
            let (read, wall, at) = parse_response(&text).unwrap();
            assert_eq!(&text[at..], "hé\n");
            assert_eq!(wall, 1.25);
            assert_eq!(format!("{read:?}"), format!("{state:?}"));
        }
        assert!(parse_response("Error: nope").is_none());
    }

    #[test]
    fn terminal_noise_is_removed() {
        let raw = "\u{1b}[1;32mok\u{1b}[0m\r\n\u{1b}]0;title\u{7}10%\r50%\r100%\r\nx\u{8}y\ttab";
        assert_eq!(clean_terminal_text(raw), "ok\n100%\nxy\ttab");
    }

    #[test]
    fn long_output_keeps_head_and_tail() {
        let mut buf = OutputBuffer::default();
        let text: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        buf.push(text.as_bytes());
        let out = deliver(buf.take(true), 50);
        assert!(out.text.starts_with("line 0\n"), "{}", out.text);
        assert!(out.text.ends_with("line 999\n"), "{}", out.text);
        assert!(out.text.contains("tokens truncated"));
        assert!(out.text.chars().count() < 50 * 4 + 40);
        assert_eq!(out.original_tokens, estimate_tokens(text.len()));
    }

    #[test]
    fn huge_output_is_bounded_and_split_characters_wait() {
        let mut buf = OutputBuffer::default();
        for _ in 0..2000 {
            buf.push(&[b'a'; 1024]);
        }
        let taken = buf.take(true);
        assert_eq!(taken.head.len() + taken.tail.len(), HEAD_BYTES + TAIL_BYTES);
        assert!(taken.omitted_bytes > 0);
        assert!(buf.is_empty());
        let euro = "€".as_bytes();
        buf.push(&euro[..2]);
        assert_eq!(buf.take(false).head, "");
        buf.push(&euro[2..]);
        assert_eq!(buf.take(false).head, "€");
    }
}
