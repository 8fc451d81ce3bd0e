//! Session history benchmarks; prints a table.
//!
//! ```sh
//! cargo bench -p memo-store --bench history
//! MEMO_BENCH_MESSAGES=200000 cargo bench -p memo-store --bench history   # smaller FTS corpus
//! ```
//!
//! 1. append: sustained events/s with `synchronous=FULL` (every commit fsynced), one event
//!    per commit and batched as the engine does (the deltas of one network read per commit);
//! 2. a 100,000-event session: open the store and fetch its last page (target < 200 ms),
//!    and load what resuming needs;
//! 3. full-text search over 1,000,000 messages (target p95 < 50 ms).

use std::path::Path;
use std::time::{Duration, Instant};

use memo_protocol::{
    AgentEvent, EventEnvelope, SessionId, ToolCallId, ToolCallSummary, ToolStatus, TurnId,
    UserInput,
};
use memo_store::{Durability, NewSession, SearchQuery, Store, StoreOptions};

/// xorshift64*: deterministic, dependency-free randomness for data generation.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A vocabulary of pronounceable fake words, sampled with a Zipf distribution like real
/// text (a few very common words, a long tail of rare ones).
struct Vocab {
    words: Vec<String>,
    cumulative: Vec<f64>,
}

impl Vocab {
    fn new(size: usize) -> Vocab {
        const SYL: [&str; 24] = [
            "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "da", "fe", "gi",
            "ho", "ju", "be", "ci", "mo", "ny", "ra", "si", "tu", "wa",
        ];
        let words = (0..size)
            .map(|i| {
                let mut n = i + 1;
                let mut w = String::new();
                while n > 0 {
                    w.push_str(SYL[n % SYL.len()]);
                    n /= SYL.len();
                }
                w
            })
            .collect();
        let mut total = 0.0;
        let cumulative = (1..=size)
            .map(|rank| {
                total += 1.0 / (rank as f64).powf(1.07);
                total
            })
            .collect();
        Vocab { words, cumulative }
    }

    fn sample(&self, rng: &mut Rng) -> &str {
        let Some(&total) = self.cumulative.last() else {
            return "";
        };
        let x = rng.unit() * total;
        let i = self.cumulative.partition_point(|&c| c < x);
        &self.words[i.min(self.words.len() - 1)]
    }

    fn sentence(&self, rng: &mut Rng, words: usize) -> String {
        let mut s = String::new();
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(self.sample(rng));
        }
        s
    }
}

fn session(store: &Store, id: &str) -> SessionId {
    let id = SessionId::new(id);
    store
        .create_session(&NewSession {
            id: id.clone(),
            cwd: "/bench/repo".into(),
            provider: "bench".into(),
            model: "bench-model".into(),
            title: None,
        })
        .expect("create session");
    id
}

fn envelope(session: &SessionId, seq: u64, event: AgentEvent) -> EventEnvelope {
    EventEnvelope {
        session_id: session.clone(),
        turn_id: Some(TurnId::new(format!("t{}", seq / 64))),
        seq,
        timestamp_ms: 1_700_000_000_000 + seq,
        event,
    }
}

fn delta(seq: u64) -> AgentEvent {
    AgentEvent::TextDelta {
        delta: format!("token {seq} of a streamed answer "),
    }
}

/// Events per second appending `total` deltas in commits of `batch`.
fn append_rate(dir: &Path, batch: usize, total: u64) -> f64 {
    let path = dir.join(format!("append-{batch}.sqlite"));
    let store = Store::open(&path).expect("open");
    let id = session(&store, "append");
    let start = Instant::now();
    let mut seq = 0;
    while seq < total {
        let envs: Vec<EventEnvelope> = (0..batch as u64)
            .map(|i| envelope(&id, seq + i + 1, delta(seq + i + 1)))
            .collect();
        store.append_batch(&envs).expect("append");
        seq += batch as u64;
    }
    seq as f64 / start.elapsed().as_secs_f64()
}

/// Builds a session shaped like a real one: per turn a user message, ~60 deltas, tool
/// calls and results, and a final answer.
fn long_session(store: &Store, id: &SessionId, events: u64, vocab: &Vocab, rng: &mut Rng) {
    let mut seq = 0;
    let mut batch = Vec::new();
    while seq < events {
        let pos = seq % 64;
        let event = match pos {
            0 => AgentEvent::TurnStarted {
                input: UserInput::text(vocab.sentence(rng, 12)),
            },
            30 => AgentEvent::AssistantMessage {
                text: vocab.sentence(rng, 20),
                reasoning: None,
                tool_calls: vec![ToolCallSummary {
                    call_id: ToolCallId::new(format!("c{seq}")),
                    name: "read_file".into(),
                    arguments: "{\"file_path\":\"src/lib.rs\"}".into(),
                }],
                provider_data: None,
            },
            31 => AgentEvent::ToolCallEnd {
                view: None,
                call_id: ToolCallId::new(format!("c{}", seq - 1)),
                name: "read_file".into(),
                status: ToolStatus::Ok,
                error_kind: None,
                output: vocab.sentence(rng, 200),
                full_length: None,
            },
            63 => AgentEvent::AssistantMessage {
                text: vocab.sentence(rng, 40),
                reasoning: None,
                tool_calls: Vec::new(),
                provider_data: None,
            },
            _ => delta(seq),
        };
        seq += 1;
        batch.push(envelope(id, seq, event));
        if batch.len() == 1000 {
            store.append_batch(&batch).expect("append");
            batch.clear();
        }
    }
    store.append_batch(&batch).expect("append");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

struct Row {
    what: String,
    result: String,
    target: &'static str,
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let relaxed = StoreOptions {
        durability: Durability::Normal,
    };
    let messages: u64 = std::env::var("MEMO_BENCH_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let mut rows = Vec::new();
    let vocab = Vocab::new(30_000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    // 1. Appends, durability on.
    for (batch, total) in [(1usize, 2_000u64), (16, 20_000), (256, 200_000)] {
        let rate = append_rate(dir.path(), batch, total);
        rows.push(Row {
            what: format!("append, synchronous=FULL, {batch} event(s)/commit"),
            result: format!("{rate:.0} events/s"),
            target: "",
        });
    }

    // 2. A 100,000-event session.
    let long_path = dir.path().join("long.sqlite");
    {
        let store = Store::open_with(&long_path, relaxed).expect("open");
        let id = session(&store, "long");
        long_session(&store, &id, 100_000, &vocab, &mut rng);
    }
    let id = SessionId::new("long");
    let mut open_page = Vec::new();
    let mut resume_load = Vec::new();
    for _ in 0..15 {
        let start = Instant::now();
        let store = Store::open(&long_path).expect("open");
        let record = store.session(&id).expect("session");
        let page = store.last_page(&id, 100).expect("page");
        open_page.push(start.elapsed());
        assert!(record.is_some() && page.events.len() == 100);
        let start = Instant::now();
        let events = store.conversation_events(&id).expect("events");
        resume_load.push(start.elapsed());
        assert!(!events.is_empty());
    }
    open_page.sort();
    resume_load.sort();
    rows.push(Row {
        what: "open store + 100,000-event session + last page (100), p50 / max".into(),
        result: format!(
            "{} / {}",
            ms(percentile(&open_page, 0.5)),
            ms(percentile(&open_page, 1.0))
        ),
        target: "< 200 ms",
    });
    rows.push(Row {
        what: "  load what a resume needs (no deltas), p50".into(),
        result: ms(percentile(&resume_load, 0.5)),
        target: "",
    });

    // 3. Full-text search over `messages` messages.
    let fts_path = dir.path().join("fts.sqlite");
    let build_start = Instant::now();
    {
        let store = Store::open_with(&fts_path, relaxed).expect("open");
        let sessions = (messages / 1000).max(1);
        for s in 0..sessions {
            let id = session(&store, &format!("fts-{s}"));
            let per = messages / sessions;
            let envs: Vec<EventEnvelope> = (1..=per)
                .map(|seq| {
                    let words = 8 + rng.below(32);
                    let text = vocab.sentence(&mut rng, words);
                    let event = if seq % 2 == 1 {
                        AgentEvent::TurnStarted {
                            input: UserInput::text(text),
                        }
                    } else {
                        AgentEvent::AssistantMessage {
                            text,
                            reasoning: None,
                            tool_calls: Vec::new(),
                            provider_data: None,
                        }
                    };
                    envelope(&id, seq, event)
                })
                .collect();
            store.append_batch(&envs).expect("append");
        }
    }
    let build = build_start.elapsed();
    let store = Store::open(&fts_path).expect("open");
    let run = |label: String, queries: Vec<String>, rows: &mut Vec<Row>, target| {
        let mut times = Vec::new();
        let mut hits = 0;
        let mut slow = Vec::new();
        for q in &queries {
            let start = Instant::now();
            let found = store.search(&SearchQuery::new(q.clone())).expect("search");
            times.push(start.elapsed());
            slow.push((start.elapsed(), q.clone(), found.len()));
            hits += found.len();
        }
        if std::env::var("MEMO_BENCH_DEBUG").is_ok() {
            slow.sort();
            for s in slow.iter().rev().take(12) {
                eprintln!("{:?} {:?} {}", s.0, s.1, s.2);
            }
        }
        times.sort();
        rows.push(Row {
            what: label,
            result: format!(
                "p50 {} / p95 {} / max {} ({} hits)",
                ms(percentile(&times, 0.5)),
                ms(percentile(&times, 0.95)),
                ms(percentile(&times, 1.0)),
                hits
            ),
            target,
        });
    };
    // Typical queries: words drawn from the text itself (so frequent words are asked for
    // about as often as they occur), one or two of them.
    let typical: Vec<String> = (0..300)
        .map(|i| {
            let a = vocab.sample(&mut rng).to_owned();
            if i % 3 == 0 {
                format!("{a} {}", vocab.sample(&mut rng))
            } else {
                a
            }
        })
        .collect();
    run(
        format!("FTS over {messages} messages, 20 hits + snippets, typical queries"),
        typical,
        &mut rows,
        "p95 < 50 ms",
    );
    let common: Vec<String> = (0..5).map(|i| vocab.words[i].clone()).collect();
    run(
        "  worst case: the 5 most common words alone".into(),
        common,
        &mut rows,
        "",
    );
    rows.push(Row {
        what: format!("  (building the {messages}-message corpus took)"),
        result: format!("{:.1} s", build.as_secs_f64()),
        target: "",
    });

    let width = rows.iter().map(|r| r.what.len()).max().unwrap_or(0);
    let rwidth = rows.iter().map(|r| r.result.len()).max().unwrap_or(0);
    println!(
        "\n| {:width$} | {:rwidth$} | target |",
        "benchmark", "result"
    );
    println!(
        "|{}|{}|--------|",
        "-".repeat(width + 2),
        "-".repeat(rwidth + 2)
    );
    for r in rows {
        println!(
            "| {:width$} | {:rwidth$} | {} |",
            r.what, r.result, r.target
        );
    }
}
