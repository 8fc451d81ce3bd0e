//! SSE parse + assembly throughput per wire format, in memory (no network).
//!
//! Each format gets a large, realistic stream: thousands of small text deltas with the
//! per-chunk metadata real servers send, then tool calls whose arguments (a file being
//! written, full of escaped quotes and newlines) arrive in small fragments. The body is fed
//! in 4 KiB pieces, the size network reads typically deliver.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use memo_model::ResponseEvent;
use memo_providers::anthropic::AnthropicAssembler;
use memo_providers::gemini::GeminiAssembler;
use memo_providers::openai::OpenAiAssembler;
use memo_providers::{SseDecoder, StreamAssembler};

const TEXT_DELTAS: usize = 20_000;
const ARG_FRAGMENTS: usize = 20_000;
const READ_SIZE: usize = 4096;
const RUNS: usize = 9;

/// Token-sized pieces of prose and code, including characters JSON must escape.
fn token(i: usize) -> &'static str {
    const TOKENS: &[&str] = &[
        "The",
        " function",
        " reads",
        " the",
        " file",
        ",",
        " then",
        " parses",
        " it",
        ".\n",
        "    let",
        " x",
        " =",
        " \"héllo\"",
        ";\n",
        " ✓",
        " {",
        "}",
        " //",
        " über",
        "\t",
    ];
    TOKENS[i % TOKENS.len()]
}

fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// The argument fragments of one `write_file` call: a JSON object text cut into pieces.
fn argument_fragments(count: usize) -> Vec<String> {
    let mut content = String::new();
    for i in 0..count * 2 {
        content.push_str(token(i));
    }
    let args = serde_json::json!({"path": "src/generated.rs", "content": content}).to_string();
    let chars: Vec<char> = args.chars().collect();
    let per = chars.len().div_ceil(count).max(1);
    chars.chunks(per).map(|c| c.iter().collect()).collect()
}

fn openai_stream() -> Vec<u8> {
    let mut out = String::new();
    let head = r#"{"id":"chatcmpl-AbC123","object":"chat.completion.chunk","created":1730000000,"model":"gpt-4.1-2025-04-14","system_fingerprint":"fp_abc123","choices":[{"index":0,"delta":"#;
    for i in 0..TEXT_DELTAS {
        let text = json_str(token(i));
        out.push_str(&format!(
            "data: {head}{{\"content\":{text}}},\"logprobs\":null,\"finish_reason\":null}}]}}\n\n"
        ));
    }
    for (call, name) in ["write_file", "write_file"].iter().enumerate() {
        out.push_str(&format!(
            "data: {head}{{\"tool_calls\":[{{\"index\":{call},\"id\":\"call_{call}\",\"type\":\"function\",\"function\":{{\"name\":\"{name}\",\"arguments\":\"\"}}}}]}},\"logprobs\":null,\"finish_reason\":null}}]}}\n\n"
        ));
        for fragment in argument_fragments(ARG_FRAGMENTS / 2) {
            let fragment = json_str(&fragment);
            out.push_str(&format!(
                "data: {head}{{\"tool_calls\":[{{\"index\":{call},\"function\":{{\"arguments\":{fragment}}}}}]}},\"logprobs\":null,\"finish_reason\":null}}]}}\n\n"
            ));
        }
    }
    out.push_str(&format!(
        "data: {head}{{}},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}}]}}\n\n"
    ));
    out.push_str("data: {\"id\":\"chatcmpl-AbC123\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":40000,\"prompt_tokens_details\":{\"cached_tokens\":1024},\"completion_tokens_details\":{\"reasoning_tokens\":0}}}\n\ndata: [DONE]\n\n");
    out.into_bytes()
}

fn anthropic_stream() -> Vec<u8> {
    let mut out = String::from(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":1200,\"cache_read_input_tokens\":1000,\"output_tokens\":1}}}\n\n\
event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    );
    for i in 0..TEXT_DELTAS {
        let text = json_str(token(i));
        out.push_str(&format!(
            "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":{text}}}}}\n\n"
        ));
        if i % 1000 == 0 {
            out.push_str("event: ping\ndata: {\"type\": \"ping\"}\n\n");
        }
    }
    out.push_str(
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    );
    for block in 1..=2 {
        out.push_str(&format!(
            "event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":{block},\"content_block\":{{\"type\":\"tool_use\",\"id\":\"toolu_0{block}\",\"name\":\"write_file\",\"input\":{{}}}}}}\n\n"
        ));
        for fragment in argument_fragments(ARG_FRAGMENTS / 2) {
            let fragment = json_str(&fragment);
            out.push_str(&format!(
                "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":{block},\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":{fragment}}}}}\n\n"
            ));
        }
        out.push_str(&format!(
            "event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":{block}}}\n\n"
        ));
    }
    out.push_str("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":40000}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    out.into_bytes()
}

fn gemini_stream() -> Vec<u8> {
    // Gemini sends a few tokens per chunk and whole function calls (no argument fragments),
    // so the "fragments" become many complete calls of moderate size.
    let mut out = String::new();
    let usage = "\"usageMetadata\":{\"promptTokenCount\":1200,\"candidatesTokenCount\":100,\"totalTokenCount\":1300},\"modelVersion\":\"gemini-2.5-pro\",\"responseId\":\"abcDEF123\"";
    for i in (0..TEXT_DELTAS).step_by(4) {
        let text: String = (i..i + 4).map(token).collect();
        let text = json_str(&text);
        out.push_str(&format!(
            "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"text\": {text}}}],\"role\": \"model\"}},\"index\": 0}}],{usage}}}\r\n\r\n"
        ));
    }
    let fragments = argument_fragments(ARG_FRAGMENTS / 2);
    for (n, group) in fragments.chunks(50).enumerate() {
        let content = json_str(&group.concat());
        out.push_str(&format!(
            "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"functionCall\": {{\"name\": \"append_file\",\"args\": {{\"path\": \"src/part{n}.rs\", \"content\": {content}}}}}}}],\"role\": \"model\"}},\"index\": 0}}],{usage}}}\r\n\r\n"
        ));
    }
    out.push_str(&format!(
        "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"text\": \"\"}}],\"role\": \"model\"}},\"finishReason\": \"STOP\",\"index\": 0}}],{usage}}}\r\n\r\n"
    ));
    out.into_bytes()
}

/// Decodes `body` once, returning the number of events (so the work is not optimised out).
fn run<A: StreamAssembler>(assembler: A, body: &[u8]) -> usize {
    let mut decoder = SseDecoder::new(assembler);
    let mut out = VecDeque::new();
    let mut events = 0;
    let mut completed = false;
    let mut consume = |out: &mut VecDeque<ResponseEvent>| {
        // The HTTP stream hands events on as they come; do the same so the queue stays small.
        for event in out.drain(..) {
            events += 1;
            if let ResponseEvent::Completed(response) = event {
                completed = !response.tool_calls.is_empty();
            }
        }
    };
    for piece in body.chunks(READ_SIZE) {
        if let Err(err) = decoder.feed(piece, &mut out) {
            panic!("decode failed: {err}");
        }
        consume(&mut out);
    }
    if let Err(err) = decoder.finish(&mut out) {
        panic!("finish failed: {err}");
    }
    consume(&mut out);
    assert!(completed, "the stream must assemble tool calls");
    events
}

fn measure<A: StreamAssembler>(name: &str, make: impl Fn() -> A, body: &[u8]) {
    let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
    let mut events = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        events = std::hint::black_box(run(make(), std::hint::black_box(body)));
        times.push(start.elapsed());
    }
    times.sort();
    let best = times[0];
    let median = times[RUNS / 2];
    let mb = body.len() as f64 / 1e6;
    println!(
        "| {name} | {} | {} | {:.2} / {:.2} ms | {:.0} / {:.0} |",
        body.len(),
        events,
        best.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        mb / best.as_secs_f64(),
        mb / median.as_secs_f64(),
    );
}

fn main() {
    println!("| format | bytes | events | best / median time | MB/s (best / median) |");
    println!("|---|---:|---:|---:|---:|");
    measure("openai", OpenAiAssembler::new, &openai_stream());
    measure("anthropic", AnthropicAssembler::new, &anthropic_stream());
    measure("gemini", GeminiAssembler::new, &gemini_stream());
}
