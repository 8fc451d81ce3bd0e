//! Crash safety: `memo-cli exec --json` streaming from the real mock server binary is
//! SIGKILLed at random points, over and over, on a few sessions in one database. After
//! every kill the database passes `PRAGMA integrity_check`, and every event the CLI had
//! printed (printing follows the commit, so printed means acknowledged) is in it,
//! unchanged. Every run on an existing session is a resume of whatever the previous kill
//! left, its requests must pair every tool call with a result, and at the end every
//! session in the database is resumed to a completed turn.
//!
//! `MEMO_CRASH_ITERATIONS` (default 50) sets the number of kills; `MEMO_CRASH_SEED`
//! replays a run (the seed is printed on failure).

#![cfg(unix)]

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memo_protocol::{EventEnvelope, SessionId};
use memo_store::Store;
use memo_test_support::SeededRng;
use serde_json::{json, Value};
use support::*;

/// A streamed answer long enough to be cut: ~60 chunks, 2-3 ms apart.
fn streamed_text(rng: &mut SeededRng) -> Value {
    let words: Vec<String> = (0..40)
        .map(|i| format!("word{}", i + rng.below(5)))
        .collect();
    json!({
        "text": words.join(" "),
        "chunk_chars": 5,
        "drip_ms": 2 + rng.below(2),
        "usage": {"input_tokens": 50, "output_tokens": 40}
    })
}

/// One of a few turn shapes: plain text, reasoning, one tool call, parallel tool calls.
fn scenario(rng: &mut SeededRng, iteration: u64) -> Value {
    let call = |name: &str, file: &str, n: u64| {
        json!({"id": format!("call_{iteration}_{n}"), "name": name,
               "arguments": format!("{{\"file_path\":\"{file}\"}}")})
    };
    match rng.below(4) {
        0 => json!([streamed_text(rng)]),
        1 => {
            let mut answer = streamed_text(rng);
            answer["reasoning"] = json!("thinking about it ".repeat(8));
            json!([answer])
        }
        2 => json!([
            {"tool_calls": [call("read_file", "a.txt", 0)], "drip_ms": 3, "chunk_chars": 4},
            streamed_text(rng)
        ]),
        _ => json!([
            {"text": "Reading both.", "drip_ms": 3, "chunk_chars": 3,
             "tool_calls": [call("read_file", "a.txt", 0), call("read_file", "b.txt", 1)]},
            streamed_text(rng)
        ]),
    }
}

struct Run {
    printed: Vec<EventEnvelope>,
}

/// Starts `exec`, collects what it prints, and SIGKILLs it after `kill_after`.
fn run_and_kill(h: &Home, resume: Option<&str>, kill_after: Duration) -> Run {
    let mut extra = vec![];
    if let Some(id) = resume {
        extra.extend(["--resume", id]);
    }
    let mut child = h
        .exec_command("tell me about the files", &extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            sink.lock().unwrap().push(line);
        }
    });
    let start = Instant::now();
    while start.elapsed() < kill_after {
        if child.try_wait().unwrap().is_some() {
            break; // finished before the kill
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = child.kill(); // SIGKILL
    child.wait().unwrap();
    reader.join().unwrap();
    let printed = lines
        .lock()
        .unwrap()
        .iter()
        // A line cut by the kill was never fully printed, so never acknowledged.
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Run { printed }
}

fn check_after_kill(h: &Home, run: &Run, context: &str) {
    let store = Store::open(h.db()).unwrap_or_else(|e| panic!("{context}: reopen: {e}"));
    assert_eq!(
        store.integrity_check().unwrap(),
        Ok(()),
        "{context}: integrity_check"
    );
    for env in &run.printed {
        let stored = store
            .events_range(&env.session_id, env.seq, env.seq)
            .unwrap();
        assert_eq!(
            stored.first(),
            Some(env),
            "{context}: acknowledged event {} of {} lost or changed",
            env.seq,
            env.session_id
        );
    }
    // The log of every session stays dense.
    for record in store.list_sessions(None, usize::MAX, 0).unwrap() {
        let events = store.all_events(&record.id).unwrap();
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.seq, i as u64 + 1, "{context}: gap in {}", record.id);
        }
    }
}

fn check_requests(mock: &Mock, context: &str) {
    for request in mock.requests() {
        if let Some(problem) = pairing_problem(&request["body"]) {
            panic!("{context}: {problem}");
        }
    }
}

#[test]
fn sigkill_during_streaming_never_loses_acknowledged_events() {
    let iterations: u64 = std::env::var("MEMO_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let seed: u64 = std::env::var("MEMO_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
                | 1
        });
    let mut rng = SeededRng::new(seed);
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(&mock, "");
    std::fs::write(h.work.path().join("a.txt"), "alpha\n").unwrap();
    std::fs::write(h.work.path().join("b.txt"), "beta\n").unwrap();

    let mut kills_with_output = 0;
    let mut resumed_runs = 0;
    for i in 0..iterations {
        let context = format!("iteration {i} (MEMO_CRASH_SEED={seed})");
        let known: Vec<SessionId> = {
            let store = Store::open(h.db()).unwrap();
            store
                .list_sessions(None, usize::MAX, 0)
                .unwrap()
                .into_iter()
                .map(|r| r.id)
                .collect()
        };
        // Mostly continue (resume) one of a few sessions; sometimes start a new one.
        let resume = if known.len() < 2 || (known.len() < 5 && rng.below(4) == 0) {
            None
        } else {
            Some(known[rng.below(known.len() as u64) as usize].clone())
        };
        mock.reset();
        mock.push(scenario(&mut rng, i));
        // CLI startup takes tens of ms; the stream runs ~150-300 ms after that.
        let kill_after = Duration::from_millis(20 + rng.below(330));
        let run = run_and_kill(&h, resume.as_ref().map(SessionId::as_str), kill_after);
        if !run.printed.is_empty() {
            kills_with_output += 1;
        }
        if resume.is_some() {
            resumed_runs += 1;
        }
        check_after_kill(&h, &run, &context);
        check_requests(&mock, &context);
    }
    assert!(
        kills_with_output >= iterations / 2,
        "most kills should land mid-stream ({kills_with_output}/{iterations}, seed {seed})"
    );
    assert!(resumed_runs > 0, "seed {seed}");

    // Every session resumes to a completed turn with a valid history.
    let sessions: Vec<SessionId> = Store::open(h.db())
        .unwrap()
        .list_sessions(None, usize::MAX, 0)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert!(!sessions.is_empty());
    for id in sessions {
        mock.reset();
        mock.push(json!([{"text": "all good"}]));
        let out = h
            .exec_command("are we ok?", &["--resume", id.as_str()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "resume of {id} (seed {seed}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        check_requests(&mock, &format!("final resume of {id} (seed {seed})"));
        assert_eq!(mock.requests().len(), 1);
    }
    let store = Store::open(h.db()).unwrap();
    assert_eq!(store.integrity_check().unwrap(), Ok(()));
}
