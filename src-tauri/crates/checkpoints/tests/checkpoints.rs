//! Checkpoints against a real folder changed by real commands (sed, git, a formatter-like
//! rewrite), restored with the rules: only what the agent changed, never a user's file.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use memo_checkpoints::{Action, Checkpoints, Content, Limits, Meta};

fn meta(source: &str, seq: u64) -> Meta {
    Meta {
        session_id: "s1".into(),
        seq,
        turn_id: Some(format!("t{seq}")),
        call_id: Some(format!("c{seq}")),
        source: source.into(),
    }
}

fn sh(dir: &Path, script: &str) {
    let status = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success(), "{script}");
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

struct Fixture {
    _home: tempfile::TempDir,
    work: tempfile::TempDir,
    store: Checkpoints,
}

fn fixture() -> Fixture {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    sh(
        root,
        "git init -q . && git config user.email t@e && git config user.name t",
    );
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn a() {\n    1\n}\n").unwrap();
    std::fs::write(root.join("src/b.rs"), "fn b() {\n    2\n}\n").unwrap();
    std::fs::write(root.join("README.md"), "hello\n").unwrap();
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    std::fs::create_dir_all(root.join("target")).unwrap();
    std::fs::write(root.join("target/out.bin"), "ignored").unwrap();
    sh(root, "git add -A && git commit -qm init");
    let store = Checkpoints::open(&home.path().join("checkpoints"), Limits::default()).unwrap();
    // The baseline: every file's content is stored, nothing is recorded as a change.
    assert!(store.prepare(root, &meta("outside", 0)).unwrap().is_none());
    Fixture {
        _home: home,
        work,
        store,
    }
}

#[test]
fn shell_edits_git_checkout_new_and_deleted_files_are_captured_and_restored() {
    let f = fixture();
    let root = f.work.path();
    let git_before = std::fs::read_dir(root.join(".git")).unwrap().count();

    // Turn 1: sed -i, a formatter rewriting two files, a new file, a deletion.
    sh(root, "sed -i 's/1/one/' src/a.rs");
    let first = f
        .store
        .record(root, &meta("exec_command", 10), false)
        .unwrap()
        .unwrap();
    assert_eq!(first.changes.len(), 1);
    assert_eq!(first.changes[0].path, "src/a.rs");
    sh(
        root,
        "for f in src/a.rs src/b.rs; do sed -i 's/^    /\\t/' $f; done",
    );
    let fmt = f
        .store
        .record(root, &meta("exec_command", 11), false)
        .unwrap()
        .unwrap();
    assert_eq!(
        fmt.changes
            .iter()
            .map(|c| c.path.as_str())
            .collect::<Vec<_>>(),
        ["src/a.rs", "src/b.rs"]
    );
    sh(root, "echo new > notes.txt && rm README.md");
    let created = f
        .store
        .record(root, &meta("mcp__fs__write", 12), false)
        .unwrap()
        .unwrap();
    assert_eq!(created.changes.len(), 2);
    assert!(created
        .changes
        .iter()
        .any(|c| c.path == "notes.txt" && c.before == Content::Absent));
    assert!(created
        .changes
        .iter()
        .any(|c| c.path == "README.md" && c.after == Content::Absent));
    // Ignored files are not tracked.
    std::fs::write(root.join("target/out.bin"), "rebuilt").unwrap();
    // git checkout -- file puts b.rs back to HEAD: also an agent change.
    sh(root, "git checkout -q -- src/b.rs");
    let checkout = f
        .store
        .record(root, &meta("exec_command", 13), false)
        .unwrap()
        .unwrap();
    assert_eq!(checkout.changes.len(), 1);
    assert_eq!(checkout.changes[0].path, "src/b.rs");

    // A user's own untracked file, made outside any tool call.
    std::fs::write(root.join("mine.txt"), "user data\n").unwrap();

    let from = f.store.first_after_seq("s1", 9).unwrap().unwrap();
    let plan = f
        .store
        .plan_restore(root, from, &meta("restore", 20))
        .unwrap();
    let actions: Vec<(&str, Action)> = plan.iter().map(|i| (i.path.as_str(), i.action)).collect();
    assert_eq!(
        actions,
        [
            ("README.md", Action::Write),
            ("notes.txt", Action::Delete),
            ("src/a.rs", Action::Write),
            ("src/b.rs", Action::Unchanged),
        ]
    );
    let restored = f
        .store
        .restore(root, from, &HashSet::new(), &meta("restore", 20))
        .unwrap();
    assert!(restored.checkpoint.is_some());
    assert_eq!(read(root, "src/a.rs"), "fn a() {\n    1\n}\n");
    assert_eq!(read(root, "README.md"), "hello\n");
    assert!(!root.join("notes.txt").exists());
    assert_eq!(
        read(root, "mine.txt"),
        "user data\n",
        "the user's file is untouched"
    );
    assert_eq!(
        read(root, "target/out.bin"),
        "rebuilt",
        "ignored files are never written"
    );
    assert_eq!(
        std::fs::read_dir(root.join(".git")).unwrap().count(),
        git_before
    );

    // The restore is undoable: restoring from its own checkpoint brings the edits back.
    let undo = f
        .store
        .restore(
            root,
            restored.checkpoint.unwrap(),
            &HashSet::new(),
            &meta("restore", 21),
        )
        .unwrap();
    assert!(undo.checkpoint.is_some());
    assert_eq!(read(root, "src/a.rs"), "fn a() {\n\tone\n}\n");
    assert_eq!(read(root, "notes.txt"), "new\n");
    assert!(!root.join("README.md").exists());
}

#[test]
fn a_file_the_user_changed_after_the_agent_is_a_conflict_until_named() {
    let f = fixture();
    let root = f.work.path();
    std::fs::write(root.join("src/a.rs"), "agent\n").unwrap();
    f.store
        .record(root, &meta("apply_patch", 5), false)
        .unwrap()
        .unwrap();
    std::fs::write(root.join("src/a.rs"), "agent, then user\n").unwrap();
    let from = f.store.first_after_seq("s1", 4).unwrap().unwrap();
    let plan = f
        .store
        .plan_restore(root, from, &meta("restore", 9))
        .unwrap();
    assert_eq!(plan.len(), 1);
    assert_eq!(plan[0].action, Action::Conflict);
    let kept = f
        .store
        .restore(root, from, &HashSet::new(), &meta("restore", 9))
        .unwrap();
    assert!(kept.checkpoint.is_none());
    assert_eq!(read(root, "src/a.rs"), "agent, then user\n");
    let forced: HashSet<String> = ["src/a.rs".to_owned()].into();
    f.store
        .restore(root, from, &forced, &meta("restore", 10))
        .unwrap();
    assert_eq!(read(root, "src/a.rs"), "fn a() {\n    1\n}\n");
}

#[test]
fn a_file_the_agent_created_and_the_user_then_edited_is_not_deleted() {
    let f = fixture();
    let root = f.work.path();
    std::fs::write(root.join("gen.txt"), "by agent\n").unwrap();
    f.store
        .record(root, &meta("write_file", 5), false)
        .unwrap()
        .unwrap();
    std::fs::write(root.join("gen.txt"), "the user kept working here\n").unwrap();
    let from = f.store.first_after_seq("s1", 4).unwrap().unwrap();
    let restored = f
        .store
        .restore(root, from, &HashSet::new(), &meta("restore", 9))
        .unwrap();
    assert_eq!(restored.items[0].action, Action::Conflict);
    assert_eq!(read(root, "gen.txt"), "the user kept working here\n");
}

#[test]
fn large_files_are_recorded_as_not_restorable() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    std::fs::write(root.join("big.bin"), vec![7u8; 5000]).unwrap();
    let limits = Limits {
        max_file_bytes: 1000,
        ..Limits::default()
    };
    let store = Checkpoints::open(&home.path().join("c"), limits).unwrap();
    store.prepare(root, &meta("outside", 0)).unwrap();
    std::fs::write(root.join("big.bin"), vec![8u8; 6000]).unwrap();
    let rec = store
        .record(root, &meta("exec_command", 3), false)
        .unwrap()
        .unwrap();
    assert_eq!(rec.changes[0].before, Content::Large { size: 5000 });
    let plan = store
        .plan_restore(root, rec.id, &meta("restore", 4))
        .unwrap();
    assert_eq!(plan[0].action, Action::NotRestorable);
}

#[test]
fn a_rewrite_that_keeps_size_and_mtime_is_caught() {
    let f = fixture();
    let root = f.work.path();
    let path = root.join("src/a.rs");
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    // Wait until the baseline is no longer "racily clean", then rewrite keeping the stat.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    f.store.record(root, &meta("outside", 1), false).unwrap();
    std::fs::write(&path, "fn a() {\n    2\n}\n").unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(before).unwrap();
    drop(file);
    // Give the watcher its moment to report the write.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let rec = f
        .store
        .record(root, &meta("exec_command", 2), false)
        .unwrap();
    assert!(
        rec.is_some_and(|r| r.changes.len() == 1),
        "the watcher's report forces a re-read"
    );
}

#[test]
fn storage_for_many_small_edits_stays_close_to_the_changed_bytes() {
    let f = fixture();
    let root = f.work.path();
    let body: String = (0..2000)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    std::fs::write(root.join("big.rs"), &body).unwrap();
    f.store.record(root, &meta("write_file", 1), false).unwrap();
    let start = f.store.storage_bytes();
    let mut text = body;
    let mut changed = 0usize;
    for turn in 0..100 {
        let line = format!("let value_{} = compute({});\n", turn * 7, turn * 7);
        let new_line = format!(
            "let value_{} = compute_fast({}, {turn});\n",
            turn * 7,
            turn * 7
        );
        text = text.replacen(&line, &new_line, 1);
        changed += new_line.len();
        std::fs::write(root.join("big.rs"), &text).unwrap();
        f.store
            .record(root, &meta("apply_patch", 2 + turn), false)
            .unwrap()
            .unwrap();
    }
    let grown = (f.store.storage_bytes() - start) as usize;
    // Deltas plus their file headers (each stored version is one file of ~60 bytes).
    assert!(
        grown < changed * 2 + 100 * 64,
        "grew {grown} bytes for {changed} changed bytes"
    );
}

#[test]
fn pruning_drops_checkpoints_past_the_size_limit_and_their_unneeded_copies() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    let dir = home.path().join("c");
    std::fs::write(root.join("data.txt"), "start\n").unwrap();
    let store = Checkpoints::open(&dir, Limits::default()).unwrap();
    store.prepare(root, &meta("outside", 0)).unwrap();
    // Ten whole rewrites of a file that does not compress: each version is its own copy.
    let mut seed = 7u64;
    for i in 0..10 {
        let text: String = (0..4000)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8)
            })
            .collect();
        std::fs::write(root.join("data.txt"), text).unwrap();
        store
            .record(root, &meta("exec_command", i + 1), false)
            .unwrap()
            .unwrap();
    }
    drop(store);
    let before = Checkpoints::open(&dir, Limits::default())
        .unwrap()
        .storage_bytes();
    // Age the copies past the grace period that protects a checkpoint being recorded.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for shard in std::fs::read_dir(dir.join("blobs")).unwrap() {
        for blob in std::fs::read_dir(shard.unwrap().path()).unwrap() {
            let file = std::fs::File::options()
                .write(true)
                .open(blob.unwrap().path())
                .unwrap();
            file.set_modified(old).unwrap();
        }
    }
    let limits = Limits {
        max_total_bytes: before / 2,
        ..Limits::default()
    };
    let store = Checkpoints::open(&dir, limits).unwrap();
    let report = store.prune().unwrap();
    assert!(report.checkpoints_removed >= 5, "{report:?}");
    assert!(
        store.storage_bytes() <= before / 2,
        "{} > {}",
        store.storage_bytes(),
        before / 2
    );
    // What is left still restores: the newest checkpoints and the file's current copy.
    let rows = store.list("s1").unwrap();
    let last = rows.last().unwrap();
    let plan = store
        .plan_restore(root, last.id, &meta("restore", 99))
        .unwrap();
    assert_eq!(plan[0].action, Action::Write);
}

#[test]
fn a_folder_with_too_many_files_is_not_copied() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    for i in 0..30 {
        std::fs::write(work.path().join(format!("f{i}")), "x").unwrap();
    }
    let limits = Limits {
        max_files: 20,
        ..Limits::default()
    };
    let store = Checkpoints::open(&home.path().join("c"), limits).unwrap();
    let err = store.prepare(work.path(), &meta("outside", 0)).unwrap_err();
    assert!(
        err.to_string().contains("has 30 files, more than the 20"),
        "{err}"
    );
    assert_eq!(store.storage_bytes(), 0, "nothing was copied");
    // Remembered: the next scan stops at once with the same reason, and it can be asked.
    let again = store
        .record(work.path(), &meta("exec_command", 1), false)
        .unwrap_err();
    assert_eq!(again.to_string(), err.to_string());
    assert_eq!(store.untracked_reason(work.path()), Some(err.to_string()));
}

#[test]
fn a_reviewed_write_is_undone_alone_whatever_the_agent_changed_since() {
    let f = fixture();
    let root = f.work.path();
    let known =
        |path: &str| Content::Blob(memo_checkpoints::BlobId::of(read(root, path).as_bytes()));
    sh(root, "sed -i 's/1/one/' src/a.rs");
    f.store
        .record(root, &meta("exec_command", 10), false)
        .unwrap()
        .unwrap();
    // The person reverts a.rs from the panel: a checkpoint that can undo it.
    let written = f
        .store
        .write_reviewed(
            root,
            "src/a.rs",
            &known("src/a.rs"),
            Some(b"fn a() {\n    1\n}\n"),
            &meta("review", 11),
        )
        .unwrap();
    let memo_checkpoints::Reviewed::Written {
        checkpoint: Some(review),
    } = written
    else {
        panic!("{written:?}");
    };
    // A stale expectation writes nothing.
    assert_eq!(
        f.store
            .write_reviewed(
                root,
                "src/a.rs",
                &Content::Absent,
                None,
                &meta("review", 12)
            )
            .unwrap(),
        memo_checkpoints::Reviewed::Stale
    );
    assert_eq!(read(root, "src/a.rs"), "fn a() {\n    1\n}\n");
    // Then the agent changes b.rs; undoing the revert leaves that alone.
    sh(root, "sed -i 's/2/two/' src/b.rs");
    f.store
        .record(root, &meta("exec_command", 13), false)
        .unwrap()
        .unwrap();
    let only: HashSet<String> = ["src/a.rs".to_owned()].into();
    let undone = f
        .store
        .restore_only(root, review, &only, &HashSet::new(), &meta("restore", 14))
        .unwrap();
    assert_eq!(undone.items.len(), 1, "{:?}", undone.items);
    assert_eq!(read(root, "src/a.rs"), "fn a() {\n    one\n}\n");
    assert_eq!(read(root, "src/b.rs"), "fn b() {\n    two\n}\n");
}
