//! Checkpoint costs on a generated 10,000-file repository, printed as a table:
//! `cargo bench -p memo-checkpoints --bench checkpoints`.
//!
//! Budgets (issue 11): a checkpoint adds < 100 ms p95 to a step; a restore < 1 s;
//! storage for 100 turns of small edits < 2x the changed bytes.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use memo_checkpoints::{Checkpoints, Limits, Meta};

const FILES: usize = 10_000;
const TURNS: usize = 100;

fn meta(source: &str, seq: u64) -> Meta {
    Meta {
        session_id: "bench".into(),
        seq,
        turn_id: Some(format!("t{seq}")),
        call_id: None,
        source: source.into(),
    }
}

fn generate(root: &Path) -> u64 {
    let mut bytes = 0u64;
    for i in 0..FILES {
        let dir = root.join(format!("src/m{:02}/s{:02}", i % 50, (i / 50) % 20));
        std::fs::create_dir_all(&dir).unwrap();
        let lines = 20 + (i * 7919) % 180;
        let text: String = (0..lines)
            .map(|l| format!("pub fn item_{i}_{l}(x: u32) -> u32 {{ x.wrapping_mul({l}) }}\n"))
            .collect();
        bytes += text.len() as u64;
        std::fs::write(dir.join(format!("f{i}.rs")), text).unwrap();
    }
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    bytes
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[at]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    let repo_bytes = generate(root);
    // Files written in the last two seconds are "racily clean" and read on every scan; a
    // real repository's files are older than that.
    std::thread::sleep(Duration::from_millis(2100));
    let store = Checkpoints::open(&home.path().join("checkpoints"), Limits::default()).unwrap();

    let started = Instant::now();
    store.prepare(root, &meta("outside", 0)).unwrap();
    let baseline = started.elapsed();
    let baseline_storage = store.storage_bytes();

    // A step that changed nothing, and one that edited a file (as a tool call would).
    let mut quiet = Vec::new();
    let mut quiet_watched = Vec::new();
    let mut edited = Vec::new();
    let mut changed_bytes = 0usize;
    let mut seq = 1;
    let storage_before_turns = store.storage_bytes();
    for turn in 0..TURNS {
        let started = Instant::now();
        store.record(root, &meta("outside", seq), false).unwrap();
        quiet.push(started.elapsed());
        let started = Instant::now();
        store.record(root, &meta("outside", seq), true).unwrap();
        quiet_watched.push(started.elapsed());
        let i = (turn * 97) % FILES;
        let path = root.join(format!("src/m{:02}/s{:02}/f{i}.rs", i % 50, (i / 50) % 20));
        let text = std::fs::read_to_string(&path).unwrap();
        let line = format!("pub fn item_{i}_3(x: u32) -> u32 {{ x.wrapping_mul(3) }}\n");
        let new_line =
            format!("pub fn item_{i}_3(x: u32) -> u32 {{ x.saturating_mul(3 + {turn}) }}\n");
        std::fs::write(&path, text.replacen(&line, &new_line, 1)).unwrap();
        changed_bytes += new_line.len();
        seq += 1;
        let started = Instant::now();
        let rec = store
            .record(root, &meta("apply_patch", seq), false)
            .unwrap();
        edited.push(started.elapsed());
        assert!(rec.is_some());
        seq += 1;
    }
    let turns_storage = store.storage_bytes() - storage_before_turns;

    // Restore the last 10 turns, then the whole session (100 files), then undo that.
    let rows = store.list("bench").unwrap();
    let agent: Vec<_> = rows.iter().filter(|r| r.source == "apply_patch").collect();
    let from_10 = agent[agent.len() - 10].id;
    let started = Instant::now();
    let r10 = store
        .restore(root, from_10, &HashSet::new(), &meta("restore", seq))
        .unwrap();
    let restore_10 = started.elapsed();
    let started = Instant::now();
    let r100 = store
        .restore(
            root,
            agent[0].id,
            &HashSet::new(),
            &meta("restore", seq + 1),
        )
        .unwrap();
    let restore_100 = started.elapsed();
    let started = Instant::now();
    store
        .restore(
            root,
            r100.checkpoint.unwrap(),
            &HashSet::new(),
            &meta("restore", seq + 2),
        )
        .unwrap();
    let undo_100 = started.elapsed();
    assert!(r10.checkpoint.is_some());

    println!(
        "checkpoints on a generated repository: {FILES} files, {:.1} MB",
        repo_bytes as f64 / 1e6
    );
    println!();
    println!("| measure | value | budget |");
    println!("|---|---|---|");
    println!(
        "| first scan of the workspace (baseline copy, in the background) | {} | - |",
        ms(baseline)
    );
    println!(
        "| baseline copy on disk | {:.1} MB ({:.0}% of the files) | - |",
        baseline_storage as f64 / 1e6,
        baseline_storage as f64 * 100.0 / repo_bytes as f64
    );
    println!(
        "| checkpoint, nothing changed: p50 / p95 | {} / {} | < 100 ms p95 |",
        ms(percentile(&mut quiet, 0.5)),
        ms(percentile(&mut quiet, 0.95))
    );
    println!(
        "| check before a tool call, watcher quiet: p50 / p95 | {} / {} | - |",
        ms(percentile(&mut quiet_watched, 0.5)),
        ms(percentile(&mut quiet_watched, 0.95))
    );
    println!(
        "| checkpoint after a one-file edit: p50 / p95 | {} / {} | < 100 ms p95 |",
        ms(percentile(&mut edited, 0.5)),
        ms(percentile(&mut edited, 0.95))
    );
    println!(
        "| restore 10 files (last 10 turns) | {} | < 1 s |",
        ms(restore_10)
    );
    println!(
        "| restore 100 files (whole session) | {} | < 1 s |",
        ms(restore_100)
    );
    println!("| undo that restore | {} | < 1 s |", ms(undo_100));
    println!(
        "| storage for {TURNS} turns of one-line edits | {} B for {} changed B ({:.2}x) | < 2x |",
        turns_storage,
        changed_bytes,
        turns_storage as f64 / changed_bytes as f64
    );
}
