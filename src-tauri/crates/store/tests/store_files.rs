//! The store on real files in temporary directories.

use std::path::Path;
use std::sync::Arc;

use memo_protocol::{
    AgentEvent, EventEnvelope, SessionId, TokenUsage, ToolCallId, ToolCallSummary, ToolStatus,
    TurnEndReason, TurnId, UserInput,
};
use memo_store::{NewSession, Store, StoreError, SCHEMA_VERSION};

fn new_session(id: &str, cwd: &str) -> NewSession {
    NewSession {
        id: SessionId::new(id),
        cwd: cwd.to_owned(),
        provider: "deepseek".to_owned(),
        model: "deepseek-chat".to_owned(),
        title: None,
    }
}

fn env(session: &str, seq: u64, turn: Option<&str>, event: AgentEvent) -> EventEnvelope {
    EventEnvelope {
        session_id: SessionId::new(session),
        turn_id: turn.map(TurnId::new),
        seq,
        timestamp_ms: 1_700_000_000_000u64.wrapping_add(seq) % (1 << 50),
        event,
    }
}

/// A turn with a variety of event shapes (nested objects, options, unicode).
fn sample_turn(session: &str) -> Vec<EventEnvelope> {
    let call = ToolCallId::new("call_1");
    vec![
        env(
            session,
            1,
            None,
            AgentEvent::SessionStarted {
                cwd: "/repo".into(),
                provider: "deepseek".into(),
                model: "deepseek-chat".into(),
            },
        ),
        env(
            session,
            2,
            Some("t1"),
            AgentEvent::TurnStarted {
                input: UserInput::text("帮我写个快速排序"),
            },
        ),
        env(
            session,
            3,
            Some("t1"),
            AgentEvent::TextDelta {
                delta: "好的 \"quoted\"\n".into(),
            },
        ),
        env(
            session,
            4,
            Some("t1"),
            AgentEvent::AssistantMessage {
                text: "ok".into(),
                reasoning: Some("think".into()),
                tool_calls: vec![ToolCallSummary {
                    call_id: call.clone(),
                    name: "read_file".into(),
                    arguments: "{not json".into(),
                }],
                provider_data: Some(serde_json::json!({"sig": [1, 2, 3]})),
            },
        ),
        env(
            session,
            5,
            Some("t1"),
            AgentEvent::ToolCallEnd {
                view: None,
                call_id: call,
                name: "read_file".into(),
                status: ToolStatus::Ok,
                error_kind: None,
                output: "x".repeat(100_000),
                full_length: None,
            },
        ),
        env(
            session,
            6,
            Some("t1"),
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Completed,
                usage: TokenUsage {
                    input_tokens: 10,
                    output_tokens: 20,
                    cached_input_tokens: 3,
                    reasoning_tokens: 4,
                },
            },
        ),
    ]
}

fn text(session: &str, seq: u64) -> EventEnvelope {
    env(
        session,
        seq,
        Some("t"),
        AgentEvent::TextDelta {
            delta: format!("d{seq}"),
        },
    )
}

#[test]
fn envelopes_round_trip_and_payload_is_the_event_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dir/memo-desktop.sqlite");
    let store = Store::open(&path).unwrap();
    assert!(path.is_file(), "open creates parent dirs and the file");

    store.create_session(&new_session("s1", "/repo")).unwrap();
    let events = sample_turn("s1");
    for e in &events {
        store.append(e).unwrap();
    }
    assert_eq!(store.all_events(&SessionId::new("s1")).unwrap(), events);
    assert_eq!(store.last_seq(&SessionId::new("s1")).unwrap(), 6);
    assert_eq!(
        store.events(&SessionId::new("s1"), 2, 2).unwrap(),
        events[2..4]
    );
    assert_eq!(
        store.events(&SessionId::new("s1"), 6, 10).unwrap(),
        Vec::new()
    );
    drop(store);

    // The payload column holds exactly the AgentEvent's JSON, and kind its tag.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (kind, payload): (String, String) = conn
        .query_row(
            "SELECT kind, payload FROM events WHERE session_id = 's1' AND seq = 4",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(kind, "assistant_message");
    let stored: serde_json::Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(stored, serde_json::to_value(&events[3].event).unwrap());
}

#[test]
fn seq_gaps_and_unknown_sessions_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db.sqlite")).unwrap();
    store.create_session(&new_session("s1", "/repo")).unwrap();
    let s1 = SessionId::new("s1");

    // The first event must be seq 1.
    let err = store.append(&text("s1", 2)).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::SeqGap {
                expected: 1,
                got: 2,
                ..
            }
        ),
        "{err:?}"
    );
    store.append(&text("s1", 1)).unwrap();
    // Neither a repeat nor a jump.
    for bad in [0, 1, 3, u64::MAX] {
        let err = store.append(&text("s1", bad)).unwrap_err();
        assert!(
            matches!(err, StoreError::SeqGap { expected: 2, got, .. } if got == bad),
            "{err:?}"
        );
    }
    assert_eq!(
        err_text(store.append(&text("s1", 5))),
        "event out of order in session s1: expected seq 2, got 5"
    );
    assert_eq!(store.last_seq(&s1).unwrap(), 1);

    let err = store.append(&text("nope", 1)).unwrap_err();
    assert!(matches!(err, StoreError::UnknownSession(ref id) if id.as_str() == "nope"));
}

fn err_text<T: std::fmt::Debug>(r: Result<T, StoreError>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn batches_are_atomic_and_may_span_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db.sqlite")).unwrap();
    store.create_session(&new_session("a", "/repo")).unwrap();
    store.create_session(&new_session("b", "/repo")).unwrap();

    store
        .append_batch(&[text("a", 1), text("b", 1), text("a", 2), text("b", 2)])
        .unwrap();
    assert_eq!(store.last_seq(&SessionId::new("a")).unwrap(), 2);
    assert_eq!(store.last_seq(&SessionId::new("b")).unwrap(), 2);

    // A gap in the middle rolls back the whole batch.
    let err = store
        .append_batch(&[text("a", 3), text("a", 4), text("a", 6)])
        .unwrap_err();
    assert!(matches!(
        err,
        StoreError::SeqGap {
            expected: 5,
            got: 6,
            ..
        }
    ));
    assert_eq!(store.last_seq(&SessionId::new("a")).unwrap(), 2);

    store.append_batch(&[]).unwrap();
}

#[test]
fn reopen_after_drop_sees_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let events = sample_turn("s1");
    {
        let store = Arc::new(Store::open(&path).unwrap());
        let mut new = new_session("s1", "/repo");
        new.title = Some("Quicksort".into());
        store.create_session(&new).unwrap();
        // Appends from another thread through a shared Arc.
        let shared = Arc::clone(&store);
        let evs = events.clone();
        std::thread::spawn(move || shared.append_batch(&evs).unwrap())
            .join()
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.all_events(&SessionId::new("s1")).unwrap(), events);
    let record = store.session(&SessionId::new("s1")).unwrap().unwrap();
    assert_eq!(record.title.as_deref(), Some("Quicksort"));
    assert_eq!(record.cwd, "/repo");
    assert_eq!(record.provider, "deepseek");
    assert_eq!(record.model, "deepseek-chat");
    assert_eq!(record.updated_ms, record.created_ms.max(1_700_000_000_006));
    assert_eq!(record.parent_session_id, None);
    assert_eq!(record.fork_seq, None);
}

#[test]
fn too_new_database_is_refused_and_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    drop(Store::open(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        // Leave the file fully checkpointed so "unchanged" is about the main file alone.
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let before = std::fs::read(&path).unwrap();

    let err = Store::open(&path).unwrap_err();
    match &err {
        StoreError::TooNew {
            path: p,
            found,
            supported,
        } => {
            assert_eq!(p, &path);
            assert_eq!(*found, SCHEMA_VERSION + 1);
            assert_eq!(*supported, SCHEMA_VERSION);
        }
        other => panic!("expected TooNew, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(
        msg.contains(&format!("schema version {}", SCHEMA_VERSION + 1)),
        "{msg}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "file was modified");
    assert_no_sidecars_written(&path);
}

/// A refused file must not have gained a journal either.
fn assert_no_sidecars_written(path: &Path) {
    for suffix in ["-journal", "-wal"] {
        let side = path.with_file_name(format!(
            "{}{suffix}",
            path.file_name().unwrap().to_string_lossy()
        ));
        let len = std::fs::metadata(&side).map(|m| m.len()).unwrap_or(0);
        assert_eq!(len, 0, "{} was written", side.display());
    }
}

#[test]
fn garbage_files_are_refused_and_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "text.sqlite",
            b"this is my shopping list, not a database\n".to_vec(),
        ),
        ("short.sqlite", b"SQLite".to_vec()),
        ("zeros.sqlite", vec![0u8; 8192]),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let err = Store::open(&path).unwrap_err();
        assert!(
            matches!(err, StoreError::NotADatabase { ref path } if path.ends_with(name)),
            "{name}: {err:?}"
        );
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name} was modified");
        assert_no_sidecars_written(&path);
    }

    // A directory where the file should be.
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
}

#[test]
fn corrupt_database_is_refused_and_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let store = Store::open(&path).unwrap();
        store.create_session(&new_session("s1", "/repo")).unwrap();
    }
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    // Keep the valid header, scramble everything after it (schema page included).
    let mut bytes = std::fs::read(&path).unwrap();
    for b in bytes.iter_mut().skip(100) {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();

    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Corrupt { .. } | StoreError::NotADatabase { .. }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains(&path.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn empty_file_is_initialised() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    std::fs::write(&path, b"").unwrap();
    let store = Store::open(&path).unwrap();
    store.create_session(&new_session("s1", "/repo")).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: u32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn list_orders_newest_first_and_pages() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db.sqlite")).unwrap();
    for (i, cwd) in ["/a", "/b", "/a", "/b", "/a"].iter().enumerate() {
        store
            .create_session(&new_session(&format!("s{i}"), cwd))
            .unwrap();
    }
    // Activity decides the order: give every session one event at a distinct, later time.
    for (i, id) in ["s3", "s0", "s4", "s1", "s2"].iter().enumerate() {
        let mut e = text(id, 1);
        e.timestamp_ms = 4_000_000_000_000 + i as u64;
        store.append(&e).unwrap();
    }
    let ids = |v: Vec<memo_store::SessionRecord>| -> Vec<String> {
        v.into_iter().map(|r| r.id.0).collect()
    };
    assert_eq!(
        ids(store.list_sessions(None, 100, 0).unwrap()),
        ["s2", "s1", "s4", "s0", "s3"]
    );
    assert_eq!(ids(store.list_sessions(None, 2, 0).unwrap()), ["s2", "s1"]);
    assert_eq!(ids(store.list_sessions(None, 2, 2).unwrap()), ["s4", "s0"]);
    assert_eq!(ids(store.list_sessions(None, 2, 4).unwrap()), ["s3"]);
    assert!(store.list_sessions(None, 2, 6).unwrap().is_empty());
    assert_eq!(
        ids(store.list_sessions(Some("/a"), 10, 0).unwrap()),
        ["s2", "s4", "s0"]
    );
    assert_eq!(ids(store.list_sessions(Some("/a"), 1, 1).unwrap()), ["s4"]);
    assert!(store
        .list_sessions(Some("/nowhere"), 10, 0)
        .unwrap()
        .is_empty());

    // Sessions in the same cwd share one workspace.
    let all = store.list_sessions(None, usize::MAX, 0).unwrap();
    let ws = |id: &str| all.iter().find(|r| r.id.0 == id).unwrap().workspace_id;
    assert_eq!(ws("s0"), ws("s2"));
    assert_ne!(ws("s0"), ws("s1"));
}

#[test]
fn titles_and_duplicates() {
    let store = Store::open_in_memory().unwrap();
    let id = SessionId::new("s1");
    store.create_session(&new_session("s1", "/repo")).unwrap();
    let err = store
        .create_session(&new_session("s1", "/other"))
        .unwrap_err();
    assert!(matches!(err, StoreError::SessionExists(_)), "{err:?}");

    let before = store.session(&id).unwrap().unwrap();
    store.set_title(&id, "Renamed").unwrap();
    let after = store.session(&id).unwrap().unwrap();
    assert_eq!(after.title.as_deref(), Some("Renamed"));
    assert_eq!(
        after.updated_ms, before.updated_ms,
        "rename is not activity"
    );

    let err = store.set_title(&SessionId::new("nope"), "x").unwrap_err();
    assert!(matches!(err, StoreError::UnknownSession(_)));
    assert!(store.session(&SessionId::new("nope")).unwrap().is_none());
}

#[test]
fn delete_cascades_to_events() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let store = Store::open(&path).unwrap();
    store.create_session(&new_session("gone", "/repo")).unwrap();
    store.create_session(&new_session("kept", "/repo")).unwrap();
    store.append_batch(&sample_turn("gone")).unwrap();
    store.append_batch(&sample_turn("kept")).unwrap();

    assert!(store.delete_session(&SessionId::new("gone")).unwrap());
    assert!(!store.delete_session(&SessionId::new("gone")).unwrap());
    assert!(store.session(&SessionId::new("gone")).unwrap().is_none());
    assert!(store
        .all_events(&SessionId::new("gone"))
        .unwrap()
        .is_empty());
    assert_eq!(store.last_seq(&SessionId::new("gone")).unwrap(), 0);
    assert_eq!(store.all_events(&SessionId::new("kept")).unwrap().len(), 6);
    drop(store);

    let conn = rusqlite::Connection::open(&path).unwrap();
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM events WHERE session_id = 'gone'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);

    // A re-created session with the same id starts a fresh log at seq 1.
    let store = Store::open(&path).unwrap();
    store.create_session(&new_session("gone", "/repo")).unwrap();
    store.append(&text("gone", 1)).unwrap();
}

#[test]
fn deleting_a_parent_detaches_its_forks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let store = Store::open(&path).unwrap();
    store
        .create_session(&new_session("parent", "/repo"))
        .unwrap();
    store
        .create_session(&new_session("child", "/repo"))
        .unwrap();
    {
        // Forking is a later feature; set the columns directly to test the cleanup.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute(
            "UPDATE sessions SET parent_session_id = 'parent', fork_seq = 3 WHERE id = 'child'",
            [],
        )
        .unwrap();
    }
    let child = store.session(&SessionId::new("child")).unwrap().unwrap();
    assert_eq!(child.parent_session_id, Some(SessionId::new("parent")));
    assert_eq!(child.fork_seq, Some(3));

    assert!(store.delete_session(&SessionId::new("parent")).unwrap());
    let child = store.session(&SessionId::new("child")).unwrap().unwrap();
    assert_eq!(child.parent_session_id, None);
    assert_eq!(child.fork_seq, None);
}

#[test]
fn subagent_sessions_are_listed_through_their_parent_and_deleted_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db.sqlite")).unwrap();
    for id in ["parent", "kid", "grandkid", "fork"] {
        store.create_session(&new_session(id, "/repo")).unwrap();
    }
    let id = SessionId::new;
    store
        .set_subagent(&id("kid"), &id("parent"), "general")
        .unwrap();
    store
        .set_subagent(&id("grandkid"), &id("kid"), "codebase_investigator")
        .unwrap();
    store
        .append_batch(&[text("kid", 1), text("grandkid", 1)])
        .unwrap();
    let unknown = store.set_subagent(&id("nobody"), &id("parent"), "general");
    assert!(matches!(unknown, Err(StoreError::UnknownSession(_))));

    let listed: Vec<String> = store
        .list_sessions(None, 10, 0)
        .unwrap()
        .into_iter()
        .map(|r| r.id.0)
        .collect();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(!listed.contains(&"kid".to_owned()));
    assert_eq!(store.count_sessions(Some("/repo")).unwrap(), 2);
    let born = store
        .create_subagent_session(&new_session("kid2", "/repo"), &id("parent"), "reviewer")
        .unwrap();
    assert_eq!(born.parent_session_id, Some(id("parent")));
    assert_eq!(store.session(&id("kid2")).unwrap().unwrap(), born);
    let kids = store.subagents_of(&id("parent")).unwrap();
    assert_eq!(kids.len(), 2);
    assert_eq!(kids[0].agent_type.as_deref(), Some("general"));
    assert_eq!(kids[1].agent_type.as_deref(), Some("reviewer"));
    assert!(store.forks_of(&id("parent")).unwrap().is_empty());

    assert!(store.delete_session(&id("parent")).unwrap());
    assert!(store.session(&id("kid")).unwrap().is_none());
    assert!(store.session(&id("grandkid")).unwrap().is_none());
    assert!(store.session(&id("kid2")).unwrap().is_none());
    assert!(store.events(&id("grandkid"), 0, 10).unwrap().is_empty());
    assert!(store.session(&id("fork")).unwrap().is_some());
}

#[test]
fn schema_on_disk_matches_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    drop(Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let columns = |table: &str| -> Vec<String> {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
            ))
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(columns("workspaces"), ["id", "path", "created_ms"]);
    assert_eq!(
        columns("sessions"),
        [
            "id",
            "workspace_id",
            "title",
            "cwd",
            "provider",
            "model",
            "created_ms",
            "updated_ms",
            "parent_session_id",
            "fork_seq",
            "read_only",
            "origin",
            "origin_id",
            "agent_type"
        ]
    );
    assert_eq!(
        columns("events"),
        ["session_id", "seq", "turn_id", "kind", "payload", "ts_ms"]
    );
    assert_eq!(
        columns("usage"),
        [
            "session_id",
            "seq",
            "turn_id",
            "provider",
            "model",
            "input_tokens",
            "output_tokens",
            "cached_input_tokens",
            "reasoning_tokens",
            "cost_usd",
            "ts_ms"
        ]
    );
    assert_eq!(
        columns("approvals"),
        [
            "session_id",
            "request_id",
            "turn_id",
            "requested_seq",
            "tool_name",
            "risk",
            "fingerprint",
            "request",
            "requested_ms",
            "decision",
            "resolved_seq",
            "resolved_ms"
        ]
    );
    assert_eq!(columns("search_docs"), ["id", "session_id", "seq", "role"]);
}

/// Set in the child process of `committed_events_survive_sigkill`.
const CHILD_DB_ENV: &str = "MEMO_STORE_TEST_SIGKILL_DB";

/// Child half: appends forever, announcing each committed seq, until killed.
#[test]
fn sigkill_child() {
    let Ok(path) = std::env::var(CHILD_DB_ENV) else {
        return; // Only meaningful when spawned by the parent test.
    };
    let store = Store::open(&path).unwrap();
    store.create_session(&new_session("s1", "/repo")).unwrap();
    for seq in 1.. {
        store.append(&text("s1", seq)).unwrap();
        println!("acked {seq}");
    }
}

/// The durability promise of WAL: whatever `append` returned for is still there after the
/// process is SIGKILLed mid-stream, and the log is still dense.
#[cfg(unix)]
#[test]
fn committed_events_survive_sigkill() {
    use std::io::BufRead;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sigkill_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DB_ENV, &path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut acked = 0u64;
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("acked ") {
            acked = n.parse().unwrap();
            if acked >= 300 {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    assert!(acked >= 300, "child stopped early");

    let store = Store::open(&path).unwrap();
    let events = store.all_events(&SessionId::new("s1")).unwrap();
    assert!(events.len() as u64 >= acked, "{} < {acked}", events.len());
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.seq, i as u64 + 1);
    }
    // The log continues where the dead process stopped.
    let next = store.last_seq(&SessionId::new("s1")).unwrap() + 1;
    store.append(&text("s1", next)).unwrap();
}

/// Two processes (say the app and `memo-cli`) may open the same file; IMMEDIATE
/// transactions plus the busy timeout let their appends interleave without errors.
#[test]
fn two_handles_on_one_file_append_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let a = Store::open(&path).unwrap();
    let b = Store::open(&path).unwrap();
    a.create_session(&new_session("a", "/repo")).unwrap();
    b.create_session(&new_session("b", "/repo")).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            for seq in 1..=200 {
                a.append(&text("a", seq)).unwrap();
            }
        });
        s.spawn(|| {
            for seq in 1..=200 {
                b.append(&text("b", seq)).unwrap();
            }
        });
    });
    assert_eq!(a.last_seq(&SessionId::new("b")).unwrap(), 200);
    assert_eq!(b.all_events(&SessionId::new("a")).unwrap().len(), 200);
}
