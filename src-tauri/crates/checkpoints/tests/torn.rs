//! A file someone is rewriting in place while Memo copies it (an editor that truncates
//! and writes, a shell's `>`) must not be kept as its half-written state: restoring that
//! copy would empty the person's file.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memo_checkpoints::{Checkpoints, Limits, Meta};

const LINES: usize = 4000;
const ROUNDS: usize = 100;

fn version(n: usize) -> String {
    (0..LINES)
        .map(|i| format!("version {n} line {i}\n"))
        .collect()
}

/// A whole version of the writer's, or a whole settled line of an earlier round.
fn whole(text: &str) -> bool {
    if text.starts_with("settled ") && text.ends_with('\n') && text.lines().count() == 1 {
        return true;
    }
    let lines: Vec<&str> = text.lines().collect();
    lines.len() == LINES
        && lines
            .iter()
            .all(|l| l.split(" line ").next() == lines[0].split(" line ").next())
}

fn meta(seq: u64) -> Meta {
    Meta {
        session_id: "s1".into(),
        seq,
        turn_id: None,
        call_id: None,
        source: "outside".into(),
    }
}

#[test]
fn a_file_rewritten_in_place_during_a_scan_is_kept_whole() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("notes.txt");
    std::fs::write(&file, version(0)).unwrap();
    // The writer rewrites the file while `writing` is set and says when it has stopped.
    let writing = Arc::new(AtomicBool::new(false));
    let stopped = Arc::new(AtomicBool::new(true));
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let (file, writing, stopped, done) =
            (file.clone(), writing.clone(), stopped.clone(), done.clone());
        std::thread::spawn(move || {
            let mut n = 1;
            while !done.load(Ordering::Relaxed) {
                if !writing.load(Ordering::Relaxed) {
                    stopped.store(true, Ordering::Release);
                    std::thread::yield_now();
                    continue;
                }
                stopped.store(false, Ordering::Release);
                // Truncate, then write in two parts a moment apart (as a formatter
                // streaming its output): the file is briefly empty, then half written.
                let mut out = std::fs::File::create(&file).unwrap();
                let text = version(n);
                let (a, b) = text.as_bytes().split_at(text.len() / 2);
                out.write_all(a).unwrap();
                std::thread::sleep(Duration::from_millis(3));
                out.write_all(b).unwrap();
                drop(out);
                n += 1;
                std::thread::sleep(Duration::from_millis(25));
            }
        })
    };
    let pause = || {
        writing.store(false, Ordering::Relaxed);
        while !stopped.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
    };
    let mut torn = Vec::new();
    for round in 0..ROUNDS {
        let home = tempfile::tempdir().unwrap();
        let store = Checkpoints::open(&home.path().join("checkpoints"), Limits::default()).unwrap();
        // The baseline copy is taken while the file is being rewritten.
        writing.store(true, Ordering::Relaxed);
        store.prepare(work.path(), &meta(0)).unwrap();
        pause();
        // A last write the next scan records, with the baseline as its `before`.
        std::fs::write(&file, format!("settled {round}\n")).unwrap();
        let recorded = store
            .record(work.path(), &meta(1), false)
            .unwrap()
            .expect("the settled write is a change");
        let before = &recorded.changes[0].before;
        let bytes = store.read(before).unwrap().unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if !whole(&text) {
            torn.push((round, text.len()));
        }
    }
    done.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(
        torn.is_empty(),
        "{} of {ROUNDS} baseline copies were half written (round, bytes): {torn:?}",
        torn.len()
    );
}
