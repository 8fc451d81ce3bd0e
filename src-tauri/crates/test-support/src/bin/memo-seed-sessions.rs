//! Writes long, realistic sessions into a Memo home's store, for the app benchmark
//! (`scripts/bench-app.sh`): what an agent session stores, event by event — the message,
//! the streamed answer in deltas, tool calls with their (large) output, usage and the
//! turn's end — so the app opens them exactly as it opens real history.
//!
//! ```sh
//! memo-seed-sessions --home DIR --cwd /repo --sessions 2 --messages 1000 \
//!     [--tool-output-bytes 4096] [--title-prefix Bench] [--marker-turn N --marker WORD]
//! ```
//!
//! `--marker` puts WORD in the message of turn N of every session (something a search
//! finds in exactly one place).
//!
//! Prints one line per session: `<id>\t<title>\t<messages>\t<events>`.

use std::path::PathBuf;
use std::process::ExitCode;

use memo_protocol::{
    AgentEvent, EventEnvelope, SessionId, TokenUsage, ToolCallId, ToolCallSummary, ToolStatus,
    TurnEndReason, TurnId, UserInput,
};
use memo_store::{NewSession, Store};

struct Args {
    home: PathBuf,
    cwd: String,
    sessions: usize,
    messages: usize,
    tool_output_bytes: usize,
    title_prefix: String,
    marker: Option<(usize, String)>,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        home: PathBuf::new(),
        cwd: String::new(),
        sessions: 1,
        messages: 1000,
        tool_output_bytes: 4096,
        title_prefix: "Bench".into(),
        marker: None,
    };
    let mut marker_turn = None;
    let mut marker_word = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--home" => args.home = PathBuf::from(&value),
            "--cwd" => args.cwd = value.clone(),
            "--sessions" => args.sessions = number()?,
            "--messages" => args.messages = number()?,
            "--tool-output-bytes" => args.tool_output_bytes = number()?,
            "--title-prefix" => args.title_prefix = value.clone(),
            "--marker-turn" => marker_turn = Some(number()?),
            "--marker" => marker_word = Some(value.clone()),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if args.home.as_os_str().is_empty() || args.cwd.is_empty() {
        return Err("--home and --cwd are required".into());
    }
    args.marker = match (marker_turn, marker_word) {
        (Some(turn), Some(word)) => Some((turn, word)),
        (None, None) => None,
        _ => return Err("--marker-turn and --marker go together".into()),
    };
    Ok(args)
}

/// Deterministic text: the same seed gives the same sessions.
struct Words(u64);

impl Words {
    const VOCAB: [&'static str; 32] = [
        "the", "parser", "returns", "an", "error", "when", "config", "file", "is", "missing", "so",
        "we", "check", "path", "before", "reading", "tests", "pass", "after", "change", "function",
        "module", "cache", "value", "request", "stream", "token", "session", "store", "index",
        "builds", "fast",
    ];

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn sentence(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| Self::VOCAB[(self.next() % Self::VOCAB.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One session's events: `messages` messages, half the user's and half the agent's, every
/// fourth answer after a tool call with `tool_output_bytes` of output.
fn events(
    id: &SessionId,
    cwd: &str,
    messages: usize,
    tool_bytes: usize,
    marker: Option<&(usize, String)>,
    words: &mut Words,
) -> Vec<EventEnvelope> {
    let mut out = Vec::new();
    let mut seq = 0u64;
    let start_ms = 1_760_000_000_000u64;
    let mut push = |turn: Option<&TurnId>, event: AgentEvent, out: &mut Vec<EventEnvelope>| {
        seq += 1;
        out.push(EventEnvelope {
            session_id: id.clone(),
            turn_id: turn.cloned(),
            seq,
            timestamp_ms: start_ms + seq * 50,
            event,
        });
    };
    push(
        None,
        AgentEvent::SessionStarted {
            cwd: cwd.to_owned(),
            provider: "bench".into(),
            model: "bench-model".into(),
        },
        &mut out,
    );
    for turn_index in 0..messages.div_ceil(2) {
        let turn = TurnId::new(format!("turn-{turn_index}"));
        let mut message = format!("Question {turn_index}: {}?", words.sentence(14));
        if let Some((_, word)) = marker.filter(|(turn, _)| *turn == turn_index) {
            message.push_str(&format!(" Remember {word}."));
        }
        push(
            Some(&turn),
            AgentEvent::TurnStarted {
                input: UserInput::text(message),
            },
            &mut out,
        );
        if turn_index % 4 == 3 {
            let call_id = ToolCallId::new(format!("call-{turn_index}"));
            let arguments = format!("{{\"cmd\":\"cargo test -p crate{turn_index}\"}}");
            push(
                Some(&turn),
                AgentEvent::ToolCallBegin {
                    call_id: call_id.clone(),
                    name: "exec_command".into(),
                },
                &mut out,
            );
            push(
                Some(&turn),
                AgentEvent::AssistantMessage {
                    text: String::new(),
                    reasoning: None,
                    tool_calls: vec![ToolCallSummary {
                        call_id: call_id.clone(),
                        name: "exec_command".into(),
                        arguments,
                    }],
                    provider_data: None,
                },
                &mut out,
            );
            // The exec tool's own format; the last line says whose output it is, so a
            // window that shows it whole can be told from one showing its start.
            let mut output =
                String::from("Wall time: 1.2 seconds\nProcess exited with code 0\nOutput:\n");
            let last = format!("test result: ok. crate{turn_index} passed\n");
            while output.len() + last.len() < tool_bytes {
                output.push_str(&format!(
                    "test {} ... ok\n",
                    words.sentence(3).replace(' ', "::")
                ));
            }
            output.push_str(&last);
            push(
                Some(&turn),
                AgentEvent::ToolCallEnd {
                    view: None,
                    call_id,
                    name: "exec_command".into(),
                    status: ToolStatus::Ok,
                    error_kind: None,
                    output,
                    full_length: None,
                },
                &mut out,
            );
        }
        let answer = format!(
            "Answer {turn_index}. {}\n\n```rust\nfn f{turn_index}() -> u32 {{ {turn_index} }}\n```\n\n- {}\n- {}",
            words.sentence(40),
            words.sentence(8),
            words.sentence(8)
        );
        for chunk in answer.as_bytes().chunks(48) {
            push(
                Some(&turn),
                AgentEvent::TextDelta {
                    delta: String::from_utf8_lossy(chunk).into_owned(),
                },
                &mut out,
            );
        }
        push(
            Some(&turn),
            AgentEvent::AssistantMessage {
                text: answer,
                reasoning: None,
                tool_calls: Vec::new(),
                provider_data: None,
            },
            &mut out,
        );
        let usage = TokenUsage {
            input_tokens: 2000 + turn_index as u64 * 40,
            output_tokens: 120,
            cached_input_tokens: 0,
            reasoning_tokens: 0,
        };
        push(
            Some(&turn),
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Completed,
                usage,
            },
            &mut out,
        );
    }
    out
}

fn run(args: Args) -> Result<(), String> {
    std::fs::create_dir_all(&args.home).map_err(|e| format!("{}: {e}", args.home.display()))?;
    let store = Store::open(args.home.join("memo-desktop.sqlite")).map_err(|e| e.to_string())?;
    let mut words = Words(0x9E37_79B9_7F4A_7C15);
    for n in 0..args.sessions {
        let id = SessionId::new(format!("bench-{n:03}-{}", args.messages));
        let title = format!(
            "{} {} ({} messages)",
            args.title_prefix,
            n + 1,
            args.messages
        );
        store
            .create_session(&NewSession {
                id: id.clone(),
                cwd: args.cwd.clone(),
                provider: "bench".into(),
                model: "bench-model".into(),
                title: Some(title.clone()),
            })
            .map_err(|e| e.to_string())?;
        let all = events(
            &id,
            &args.cwd,
            args.messages,
            args.tool_output_bytes,
            args.marker.as_ref(),
            &mut words,
        );
        for batch in all.chunks(2000) {
            store.append_batch(batch).map_err(|e| e.to_string())?;
        }
        println!("{id}\t{title}\t{}\t{}", args.messages, all.len());
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("memo-seed-sessions: {message}");
            ExitCode::from(2)
        }
    }
}
