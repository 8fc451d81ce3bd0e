//! `memo-cli sessions ...` end to end: the real binary on a temporary MEMO_HOME, with
//! sessions made by `exec` against the real mock server and imported from Memo Code.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::*;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/tests/fixtures/memo_code/sessions")
}

/// Runs one `exec` turn to completion; returns the session id.
fn exec(h: &Home, prompt: &str, extra: &[&str]) -> String {
    let out = h.exec_command(prompt, extra).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out.stdout)[0]["session_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn list_show_search_rename_fork_usage_export_delete() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(
        &mock,
        "[model_profiles.mock-model]\ninput_price_per_mtok = 1.0\noutput_price_per_mtok = 2.0",
    );
    std::fs::write(h.work.path().join("notes.txt"), "the zebra protocol\n").unwrap();
    mock.push(json!([
        {"tool_calls": [{"id": "call_1", "name": "read_file", "arguments": "{\"file_path\":\"notes.txt\"}"}],
         "usage": {"input_tokens": 1000, "output_tokens": 100}},
        {"text": "The notes describe the zebra protocol.", "usage": {"input_tokens": 2000, "output_tokens": 200}},
        {"text": "Something else entirely."}
    ]));
    let first = exec(&h, "summarise notes.txt", &[]);
    let second = exec(&h, "unrelated question", &[]);

    // list: newest first, with previews for untitled sessions, filtered by workspace.
    let list = h.json(&["sessions", "list", "--json"]);
    assert_eq!(list["total"], 2);
    let ids: Vec<&str> = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()]);
    assert_eq!(list["sessions"][1]["preview"], "summarise notes.txt");
    let first_len = list["sessions"][1]["last_seq"].as_u64().unwrap();
    assert!(first_len > 10, "{list}");
    let work = h.work.path().to_str().unwrap();
    let in_work = h.json(&["sessions", "list", "--cwd", work, "--json", "--limit", "1"]);
    assert_eq!(in_work["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(in_work["total"], 2);
    let text = h.run(&["sessions", "list"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("summarise notes.txt"));

    // show: the whole log as JSONL, or pages of it.
    let out = h.run(&["sessions", "show", &first, "--json"]);
    let events = json_lines(&out.stdout);
    assert_eq!(events.len() as u64, first_len);
    assert_eq!(events[0]["event"]["type"], "session_started");
    let tail = json_lines(
        &h.run(&["sessions", "show", &first, "--json", "--last", "3"])
            .stdout,
    );
    assert_eq!(
        tail.iter()
            .map(|e| e["seq"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [first_len - 2, first_len - 1, first_len]
    );
    let page = json_lines(
        &h.run(&[
            "sessions", "show", &first, "--json", "--after", "2", "--limit", "2",
        ])
        .stdout,
    );
    assert_eq!(page[0]["seq"], 3);
    assert_eq!(page.len(), 2);
    let transcript =
        String::from_utf8_lossy(&h.run(&["sessions", "show", &first]).stdout).into_owned();
    assert!(transcript.contains("> summarise notes.txt"), "{transcript}");
    assert!(
        transcript.contains("✓ read notes.txt:1 · 1 line"),
        "the read as its view says it: {transcript}"
    );
    assert!(transcript.contains("zebra protocol."), "{transcript}");

    // search: hits with snippets and the seq to jump to.
    let hits = h.json(&["sessions", "search", "zebra", "--json"]);
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["session_id"], first.as_str());
    assert_eq!(hits[0]["role"], "assistant");
    assert!(hits[0]["snippet"].as_str().unwrap().contains("[zebra]"));
    let seq = hits[0]["seq"].as_u64().unwrap();
    assert_eq!(
        events[seq as usize - 1]["event"]["type"],
        "assistant_message"
    );
    let tools = h.json(&["sessions", "search", "read_file", "--json"]);
    assert_eq!(tools[0]["role"], "tool");
    assert_eq!(
        h.json(&["sessions", "search", "nothing-like-this", "--json"]),
        json!([])
    );

    // rename, usage with cost.
    h.json(&["sessions", "rename", &first, "Zebra notes", "--json"]);
    let list = h.json(&["sessions", "list", "--json"]);
    assert_eq!(list["sessions"][1]["title"], "Zebra notes");
    let usage = h.json(&["sessions", "usage", &first, "--json"]);
    assert_eq!(usage["calls"], 2);
    assert_eq!(usage["tokens"]["input_tokens"], 3000);
    let cost = usage["cost_usd"].as_f64().unwrap();
    assert!(
        (cost - (3000.0 * 1.0 + 300.0 * 2.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );

    // fork at the user's message, then continue the fork only.
    let fork = h.json(&["sessions", "fork", &first, "--at", "2", "--json"]);
    let fork_id = fork["id"].as_str().unwrap().to_owned();
    assert_eq!(fork["parent_session_id"], first.as_str());
    assert_eq!(fork["last_seq"], 2);
    assert_eq!(fork["title"], "Zebra notes (fork)");
    mock.reset();
    mock.push(json!([{"text": "fork reply"}]));
    exec(&h, "go on", &["--resume", &fork_id]);
    let sent = &mock.requests()[0]["body"]["messages"];
    let roles: Vec<&str> = sent
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "user"],
        "history up to the fork point"
    );
    let parent_events = json_lines(&h.run(&["sessions", "show", &first, "--json"]).stdout);
    assert_eq!(
        parent_events.len() as u64,
        first_len,
        "the parent is untouched"
    );

    // export: Memo Code event types.
    let out = h.run(&["sessions", "export", &first]);
    let types: Vec<String> = json_lines(&out.stdout)
        .iter()
        .map(|l| l["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        types,
        [
            "session_start",
            "session_title",
            "turn_start",
            "assistant",
            "action",
            "observation",
            "assistant",
            "final",
            "turn_end",
            "session_end"
        ]
    );
    let file = dir.path().join("export.jsonl");
    assert!(h
        .run(&["sessions", "export", &first, "-o", file.to_str().unwrap()])
        .status
        .success());
    assert_eq!(std::fs::read(&file).unwrap(), out.stdout);

    // delete: gone from list and search; the fork survives; unknown ids exit 1.
    assert_eq!(
        h.json(&["sessions", "delete", &first, "--json"])["deleted"],
        true
    );
    assert_eq!(
        h.json(&["sessions", "search", "zebra", "--json"]),
        json!([])
    );
    let list = h.json(&["sessions", "list", "--json"]);
    assert_eq!(list["total"], 2);
    assert!(list.to_string().contains(&fork_id));
    assert_eq!(
        h.run(&["sessions", "delete", &first]).status.code(),
        Some(1)
    );
    assert_eq!(h.run(&["sessions", "show", "nope"]).status.code(), Some(1));
    assert_eq!(h.run(&["sessions", "fork", "nope"]).status.code(), Some(1));
}

#[test]
fn import_reports_skipped_lines_and_imported_history_resumes_as_a_fork() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(&mock, "");
    copy_tree(&fixtures(), &h.home.path().join("sessions"));
    // The project must exist here for the session to be continued in it.
    let file = h.home.path().join(
        "sessions/-home-me-proj/2026-02-23T16-22-21-5f0c1d2e-aaaa-4bbb-8ccc-000000000001.jsonl",
    );
    let moved = std::fs::read_to_string(&file)
        .unwrap()
        .replace("/home/me/proj", h.work.path().to_str().unwrap());
    std::fs::write(&file, moved).unwrap();

    let report = h.json(&["sessions", "import", "--json"]);
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    let proj = files
        .iter()
        .find(|f| f["origin_id"] == "5f0c1d2e-aaaa-4bbb-8ccc-000000000001")
        .unwrap();
    assert_eq!(proj["status"], "new");
    assert_eq!(proj["skipped_lines"].as_array().unwrap().len(), 5);
    assert_eq!(proj["skipped_lines"][0]["line"], 8);
    let text = h.run(&["sessions", "import"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("0 new, 0 updated, 2 unchanged, 1 empty"),
        "{text}"
    );

    let id = proj["session_id"].as_str().unwrap();
    let list = h.json(&["sessions", "list", "--json"]);
    let imported: &Value = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap();
    assert_eq!(imported["read_only"], true);
    assert_eq!(imported["origin"], "memo-code");
    assert_eq!(imported["title"], "Quicksort in Rust");

    // exec --resume on read-only history continues in a fork with the whole conversation.
    mock.push(json!([{"text": "continuing"}]));
    let out = h
        .exec_command("continue please", &["--resume", id])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = json_lines(&out.stdout);
    let fork_id = printed[0]["session_id"].as_str().unwrap();
    assert_ne!(fork_id, id);
    let body = &mock.requests()[0]["body"];
    assert_eq!(pairing_problem(body), None);
    let sent = body.to_string();
    assert!(sent.contains("帮我写个快速排序"), "{sent}");
    assert!(sent.contains("call_exec_3"), "{sent}");
    let after = json_lines(&h.run(&["sessions", "show", id, "--json"]).stdout);
    assert_eq!(after.len(), 17, "the import is untouched");
}

#[test]
fn a_corrupt_or_newer_database_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(&mock, "");
    std::fs::write(h.db(), b"this is not a database, it is a shopping list").unwrap();
    let out = h.run(&["sessions", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&h.db().display().to_string()), "{err}");
    assert_eq!(
        std::fs::read(h.db()).unwrap(),
        b"this is not a database, it is a shopping list"
    );

    std::fs::remove_file(h.db()).unwrap();
    make_newer_db(&h.db());
    let before = std::fs::read(h.db()).unwrap();
    let out = h.run(&["sessions", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("schema version"), "{err}");
    assert_eq!(std::fs::read(h.db()).unwrap(), before);
}

/// A database "from a future release": made by today's store, then its version bumped.
fn make_newer_db(path: &Path) {
    let store = memo_store::Store::open(path).unwrap();
    drop(store);
    // Bump user_version (header bytes 60..64, big-endian) without SQLite: a future
    // release's file is just that to us.
    let mut bytes = std::fs::read(path).unwrap();
    let v = u32::from_be_bytes(bytes[60..64].try_into().unwrap()) + 1;
    bytes[60..64].copy_from_slice(&v.to_be_bytes());
    std::fs::write(path, bytes).unwrap();
    let _ = std::fs::remove_file(path.with_extension("sqlite-wal"));
    let _ = std::fs::remove_file(path.with_extension("sqlite-shm"));
}

#[test]
fn exec_waits_for_the_auto_title_when_it_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(&mock, "auto_title = true");
    mock.push(json!([{"text": "Here you go."}, {"text": "Greeting the agent"}]));
    let id = exec(&h, "hello there", &[]);
    let list = h.json(&["sessions", "list", "--json"]);
    assert_eq!(list["sessions"][0]["id"], id.as_str());
    assert_eq!(list["sessions"][0]["title"], "Greeting the agent");
    assert_eq!(mock.requests().len(), 2);
}

#[test]
fn checkpoints_and_restore_of_a_shell_edit() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let h = Home::new(&mock, "");
    let work = h.work.path();
    std::fs::write(work.join("config.ini"), "mode = slow\n").unwrap();
    mock.push(json!([
        {"tool_calls": [{"id": "call_1", "name": "exec_command",
            "arguments": "{\"cmd\":\"sed -i s/slow/fast/ config.ini && echo x > made.txt\"}"}]},
        {"text": "Switched to fast."}
    ]));
    let id = exec(&h, "make it fast", &["--yes"]);
    assert_eq!(
        std::fs::read_to_string(work.join("config.ini")).unwrap(),
        "mode = fast\n"
    );

    let list = h.json(&["sessions", "checkpoints", &id, "--json"]);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["source"], "exec_command");
    assert_eq!(list[0]["files"], json!(["config.ini", "made.txt"]));
    let text = h.run(&["sessions", "checkpoints", &id]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("exec_command"));

    // Before the turn: the first event is session_started (seq 1).
    let dry = h.run(&["sessions", "restore", &id, "--to", "1", "--dry-run"]);
    let shown = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        shown.contains("would write  config.ini") && shown.contains("would delete  made.txt"),
        "{shown}"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("config.ini")).unwrap(),
        "mode = fast\n"
    );

    let out = h.run(&["sessions", "restore", &id, "--to", "1", "--code"]);
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{shown}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        shown.contains("wrote  config.ini") && shown.contains("deleted  made.txt"),
        "{shown}"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("config.ini")).unwrap(),
        "mode = slow\n"
    );
    assert!(!work.join("made.txt").exists());

    // Undo it, as the report says.
    let undo: String = shown
        .lines()
        .find_map(|l| l.strip_prefix("Undo with: memo-cli sessions restore ID --undo "))
        .unwrap()
        .to_owned();
    let out = h.run(&["sessions", "restore", &id, "--undo", &undo]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(work.join("config.ini")).unwrap(),
        "mode = fast\n"
    );
    assert!(work.join("made.txt").exists());
}
