//! Search, paging, forks, usage, approvals and migrations of stored history.

use memo_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ChangeKind, EventEnvelope, FileChange, ReviewDecision,
    RiskLevel, SessionId, TokenUsage, ToolCallId, ToolCallSummary, TurnEndReason, TurnId,
    UserInput,
};
use memo_store::{
    ForkSpec, ModelPrice, NewSession, SearchQuery, SearchRole, Store, StoreError, SCHEMA_VERSION,
};

fn new_session(id: &str, cwd: &str) -> NewSession {
    NewSession {
        id: SessionId::new(id),
        cwd: cwd.to_owned(),
        provider: "deepseek".to_owned(),
        model: "deepseek-chat".to_owned(),
        title: Some(format!("title of {id}")),
    }
}

/// Appends events to a session, numbering them after what it has.
fn push(store: &Store, session: &str, turn: &str, events: Vec<AgentEvent>) -> Vec<u64> {
    let id = SessionId::new(session);
    let mut seq = store.last_seq(&id).unwrap();
    let envs: Vec<EventEnvelope> = events
        .into_iter()
        .map(|event| {
            seq += 1;
            EventEnvelope {
                session_id: id.clone(),
                turn_id: Some(TurnId::new(turn)),
                seq,
                timestamp_ms: 1_700_000_000_000 + seq,
                event,
            }
        })
        .collect();
    store.append_batch(&envs).unwrap();
    envs.iter().map(|e| e.seq).collect()
}

fn user(text: &str) -> AgentEvent {
    AgentEvent::TurnStarted {
        input: UserInput::text(text),
    }
}

fn answer(text: &str) -> AgentEvent {
    AgentEvent::AssistantMessage {
        text: text.into(),
        reasoning: None,
        tool_calls: Vec::new(),
        provider_data: None,
    }
}

fn calls(names: &[&str]) -> AgentEvent {
    AgentEvent::AssistantMessage {
        text: String::new(),
        reasoning: None,
        tool_calls: names
            .iter()
            .enumerate()
            .map(|(i, n)| ToolCallSummary {
                call_id: ToolCallId::new(format!("c{i}")),
                name: (*n).into(),
                arguments: "{}".into(),
            })
            .collect(),
        provider_data: None,
    }
}

fn started(store: &Store, id: &str, cwd: &str) {
    store.create_session(&new_session(id, cwd)).unwrap();
    push(
        store,
        id,
        "t0",
        vec![AgentEvent::SessionStarted {
            cwd: cwd.into(),
            provider: "deepseek".into(),
            model: "deepseek-chat".into(),
        }],
    );
}

fn query(text: &str) -> SearchQuery {
    SearchQuery::new(text)
}

#[test]
fn search_ranks_snippets_and_jumps() {
    let store = Store::open_in_memory().unwrap();
    started(&store, "a", "/repo");
    started(&store, "b", "/repo");
    started(&store, "c", "/other");
    push(
        &store,
        "a",
        "t1",
        vec![user("please optimise the quicksort partition step")],
    );
    push(
        &store,
        "a",
        "t1",
        vec![answer(
            "The quicksort now picks a median pivot. Quicksort quicksort: all tests pass.",
        )],
    );
    push(
        &store,
        "b",
        "t1",
        vec![user("write a haiku about autumn leaves")],
    );
    let long = format!(
        "{} then one mention of quicksort near the end.",
        "Many unrelated words about other things entirely.".repeat(8)
    );
    let hit_seq = push(&store, "b", "t1", vec![answer(&long)])[0];
    push(
        &store,
        "c",
        "t1",
        vec![
            user("帮我写个快速排序"),
            calls(&["read_file", "apply_patch"]),
        ],
    );

    // More occurrences in a shorter text rank first.
    let hits = store.search(&query("quicksort")).unwrap();
    let order: Vec<(&str, SearchRole)> = hits
        .iter()
        .map(|h| (h.session_id.as_str(), h.role))
        .collect();
    assert_eq!(
        order,
        [
            ("a", SearchRole::Assistant),
            ("a", SearchRole::User),
            ("b", SearchRole::Assistant)
        ]
    );
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(hits[0].snippet.contains("[quicksort]") || hits[0].snippet.contains("[Quicksort]"));
    assert_eq!(hits[0].session_title.as_deref(), Some("title of a"));
    assert_eq!(hits[0].cwd, "/repo");
    // A long message gives a snippet around the match, not its start.
    let far = &hits[2];
    assert!(far.snippet.starts_with('…'), "{}", far.snippet);
    assert!(far.snippet.contains("[quicksort]"), "{}", far.snippet);

    // Jump to the hit: the page around it holds the event, and knows what is beyond.
    assert_eq!(far.seq, hit_seq);
    let page = store.page_around(&far.session_id, far.seq, 1, 1).unwrap();
    let seqs: Vec<u64> = page.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [hit_seq - 1, hit_seq]);
    assert!(page.has_before);
    assert!(!page.has_after);

    // Every word must match, in any order; filters narrow by workspace and session.
    assert_eq!(store.search(&query("pivot median")).unwrap().len(), 1);
    assert!(store.search(&query("pivot haiku")).unwrap().is_empty());
    let mut in_repo = query("quicksort");
    in_repo.cwd = Some("/other".into());
    assert!(store.search(&in_repo).unwrap().is_empty());
    let mut in_b = query("quicksort");
    in_b.session = Some(SessionId::new("b"));
    assert_eq!(store.search(&in_b).unwrap().len(), 1);
    let mut paged = query("quicksort");
    paged.limit = 1;
    paged.offset = 1;
    assert_eq!(store.search(&paged).unwrap()[0].role, SearchRole::User);

    // Phrases, prefixes, CJK words and tool names.
    assert_eq!(store.search(&query("\"median pivot\"")).unwrap().len(), 1);
    assert!(store.search(&query("\"pivot median\"")).unwrap().is_empty());
    assert_eq!(store.search(&query("quicks*")).unwrap().len(), 3);
    let cjk = store.search(&query("快速")).unwrap();
    assert_eq!(cjk.len(), 1);
    assert_eq!(cjk[0].snippet, "帮我写个[快速]排序");
    let tools = store.search(&query("apply_patch")).unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].role, SearchRole::Tool);
    assert_eq!(tools[0].snippet, "read_file [apply_patch]");

    // Input that is FTS syntax is just text; nothing to search for is no hits.
    assert!(store.search(&query("AND OR NOT ( *")).unwrap().is_empty());
    assert!(store.search(&query("  ")).unwrap().is_empty());
    assert!(store
        .search(&query("col:umn \"unclosed"))
        .unwrap()
        .is_empty());

    // Deleting a session removes it from the index.
    assert!(store.delete_session(&SessionId::new("a")).unwrap());
    assert_eq!(store.search(&query("quicksort")).unwrap().len(), 1);
}

#[test]
fn paging_reads_ranges_without_loading_everything() {
    let store = Store::open_in_memory().unwrap();
    started(&store, "s", "/repo");
    let id = SessionId::new("s");
    for i in 0..50 {
        push(
            &store,
            "s",
            "t",
            vec![
                user(&format!("q{i}")),
                AgentEvent::TextDelta { delta: "x".into() },
                answer("a"),
            ],
        );
    }
    assert_eq!(store.last_seq(&id).unwrap(), 151);
    let last = store.last_page(&id, 10).unwrap();
    assert_eq!(last.events.first().unwrap().seq, 142);
    assert_eq!(last.events.last().unwrap().seq, 151);
    assert!(last.has_before && !last.has_after);
    let older = store.events_before(&id, 142, 10).unwrap();
    assert_eq!(older.first().unwrap().seq, 132);
    assert_eq!(older.last().unwrap().seq, 141);
    assert_eq!(store.events_before(&id, 3, 10).unwrap().len(), 2);
    let range = store.events_range(&id, 10, 12).unwrap();
    assert_eq!(
        range.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [10, 11, 12]
    );
    let first = store.page_around(&id, 1, 5, 2).unwrap();
    assert_eq!(first.events.len(), 3);
    assert!(!first.has_before && first.has_after);
    assert!(matches!(
        store.page_around(&id, 152, 1, 1),
        Err(StoreError::NoSuchEvent { last: 151, .. })
    ));
    // Resuming reads only what shapes the conversation: no deltas.
    let conv = store.conversation_events(&id).unwrap();
    assert_eq!(conv.len(), 101);
    assert!(conv
        .iter()
        .all(|e| !matches!(e.event, AgentEvent::TextDelta { .. })));
}

#[test]
fn forks_share_history_and_then_diverge() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db.sqlite")).unwrap();
    started(&store, "p", "/repo");
    push(
        &store,
        "p",
        "t1",
        vec![user("first question"), answer("first answer")],
    );
    push(
        &store,
        "p",
        "t2",
        vec![user("second question"), answer("second answer")],
    );
    let parent = SessionId::new("p");
    let spec = |id: &str, at| ForkSpec {
        source: parent.clone(),
        at_seq: at,
        new_id: SessionId::new(id),
        title: Some("forked".into()),
        provider: None,
        model: None,
    };

    let fork = store.fork_session(&spec("f", 3)).unwrap();
    assert_eq!(fork.parent_session_id, Some(parent.clone()));
    assert_eq!(fork.fork_seq, Some(3));
    assert_eq!(fork.cwd, "/repo");
    assert!(!fork.read_only);
    let f = SessionId::new("f");
    let shared = store.all_events(&f).unwrap();
    assert_eq!(shared, {
        let mut p = store.events_range(&parent, 1, 3).unwrap();
        for e in &mut p {
            e.session_id = f.clone();
        }
        p
    });

    // Each continues on its own.
    push(&store, "f", "tf", vec![user("fork only")]);
    push(&store, "p", "t3", vec![user("parent only")]);
    assert_eq!(store.last_seq(&f).unwrap(), 4);
    assert_eq!(store.last_seq(&parent).unwrap(), 6);
    let texts = |id: &SessionId| -> Vec<String> {
        store
            .all_events(id)
            .unwrap()
            .into_iter()
            .filter_map(|e| match e.event {
                AgentEvent::TurnStarted { input } => Some(input.text),
                _ => None,
            })
            .collect()
    };
    assert_eq!(texts(&f), ["first question", "fork only"]);
    assert_eq!(
        texts(&parent),
        ["first question", "second question", "parent only"]
    );

    // Search sees the shared history in both, and each one's own turns only in it.
    let sessions_of = |q: &str| -> Vec<String> {
        let mut v: Vec<String> = store
            .search(&query(q))
            .unwrap()
            .into_iter()
            .map(|h| h.session_id.0)
            .collect();
        v.sort();
        v
    };
    assert_eq!(sessions_of("first question"), ["f", "p"]);
    assert_eq!(sessions_of("second"), ["p", "p"]);
    assert_eq!(sessions_of("fork only"), ["f"]);

    // Bad fork points are refused; deleting the parent keeps the fork whole.
    assert!(matches!(
        store.fork_session(&spec("g", 0)),
        Err(StoreError::NoSuchEvent { .. })
    ));
    assert!(matches!(
        store.fork_session(&spec("g", 7)),
        Err(StoreError::NoSuchEvent { last: 6, .. })
    ));
    assert!(matches!(
        store.fork_session(&spec("f", 2)),
        Err(StoreError::SessionExists(_))
    ));
    assert!(store.delete_session(&parent).unwrap());
    assert_eq!(store.last_seq(&f).unwrap(), 4);
    assert_eq!(sessions_of("first question"), ["f"]);
    let orphan = store.session(&f).unwrap().unwrap();
    assert_eq!(orphan.parent_session_id, None);
    assert_eq!(store.integrity_check().unwrap(), Ok(()));
}

fn usage_event(input: u64, output: u64, cached: u64) -> AgentEvent {
    let step = TokenUsage {
        input_tokens: input,
        output_tokens: output,
        cached_input_tokens: cached,
        reasoning_tokens: 0,
    };
    AgentEvent::Usage {
        step,
        turn_total: step,
    }
}

#[test]
fn usage_is_recorded_per_call_with_cost_when_priced() {
    let store = Store::open_in_memory().unwrap();
    started(&store, "s", "/repo");
    started(&store, "other", "/repo");
    let id = SessionId::new("s");
    push(&store, "s", "t1", vec![usage_event(1000, 100, 0)]);
    store.set_price(
        "deepseek",
        "deepseek-chat",
        Some(ModelPrice {
            input_per_mtok: 0.27,
            output_per_mtok: 1.10,
            cached_input_per_mtok: Some(0.07),
        }),
    );
    push(
        &store,
        "s",
        "t2",
        vec![usage_event(2_000_000, 1_000_000, 1_000_000)],
    );
    push(&store, "other", "t1", vec![usage_event(10, 10, 0)]);

    let summary = store.usage_summary(Some(&id)).unwrap();
    assert_eq!(summary.calls(), 2);
    let model = &summary.by_model[0];
    assert_eq!(model.provider, "deepseek");
    assert_eq!(
        model.unpriced_calls, 1,
        "the call before the price is not re-priced"
    );
    assert_eq!(model.tokens.input_tokens, 2_001_000);
    assert_eq!(model.tokens.cached_input_tokens, 1_000_000);
    let cost = summary.cost_usd().unwrap();
    assert!((cost - (0.27 + 0.07 + 1.10)).abs() < 1e-9, "{cost}");
    assert_eq!(store.usage_summary(None).unwrap().calls(), 3);
    store.set_price("deepseek", "deepseek-chat", None);
    push(&store, "s", "t3", vec![usage_event(1, 1, 0)]);
    assert_eq!(
        store.usage_summary(Some(&id)).unwrap().by_model[0].unpriced_calls,
        2
    );
}

#[test]
fn approvals_are_recorded_with_their_decisions() {
    let store = Store::open_in_memory().unwrap();
    started(&store, "s", "/repo");
    let request = |id: &str| ApprovalRequest {
        request_id: ApprovalId::new(id),
        call_id: ToolCallId::new(format!("call-{id}")),
        tool_name: "exec_command".into(),
        risk: RiskLevel::Execute,
        reason: "runs a command".into(),
        why: Vec::new(),
        fingerprint: "exec:cargo test".into(),
        command: Some("cargo test".into()),
        cwd: Some("/repo".into()),
        diff: None,
        arguments: serde_json::json!({"cmd": "cargo test"}),
        rule_patterns: Vec::new(),
        rule_summary: None,
        rule_words: None,
        agent: None,
    };
    push(
        &store,
        "s",
        "t1",
        vec![
            AgentEvent::ApprovalRequested {
                request: request("a1"),
            },
            AgentEvent::ApprovalRequested {
                request: request("a2"),
            },
            AgentEvent::ApprovalResolved {
                request_id: ApprovalId::new("a1"),
                decision: ReviewDecision::ApproveForSession,
            },
        ],
    );
    let approvals = store.approvals(&SessionId::new("s")).unwrap();
    assert_eq!(approvals.len(), 2);
    assert_eq!(approvals[0].request, request("a1"));
    assert_eq!(
        approvals[0].decision,
        Some(ReviewDecision::ApproveForSession)
    );
    assert_eq!(approvals[0].resolved_seq, Some(4));
    assert_eq!(approvals[1].decision, None, "still pending");
}

#[test]
fn appends_to_a_read_only_session_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join("-home-me-proj/2026-02-23T16-22-21-ro-1.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "{\"ts\":\"2026-02-23T16:22:21.000Z\",\"sessionId\":\"ro-1\",\"turn\":1,\"type\":\"turn_start\",\"content\":\"hi\"}\n",
    )
    .unwrap();
    let store = Store::open_in_memory().unwrap();
    let imported = store.import_memo_code_file(&file).unwrap().unwrap();
    let id = imported.session_id.unwrap();
    assert!(store.session(&id).unwrap().unwrap().read_only);
    let next = store.last_seq(&id).unwrap() + 1;
    let err = store
        .append(&EventEnvelope {
            session_id: id.clone(),
            turn_id: None,
            seq: next,
            timestamp_ms: 1,
            event: answer("x"),
        })
        .unwrap_err();
    assert!(matches!(err, StoreError::ReadOnly(_)), "{err:?}");
    // Renaming is not history: allowed.
    store.set_title(&id, "mine").unwrap();
}

/// The schema exactly as release 1 created it: a frozen copy, so the migration is tested
/// against what users really have on disk.
const V1_SCHEMA: &str = "
CREATE TABLE workspaces (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, created_ms INTEGER NOT NULL);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY NOT NULL, workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
    title TEXT, cwd TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
    created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
    parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL, fork_seq INTEGER);
CREATE INDEX sessions_by_updated ON sessions(updated_ms DESC, id DESC);
CREATE INDEX sessions_by_workspace ON sessions(workspace_id, updated_ms DESC, id DESC);
CREATE INDEX sessions_by_parent ON sessions(parent_session_id);
CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, turn_id TEXT, kind TEXT NOT NULL, payload TEXT NOT NULL,
    ts_ms INTEGER NOT NULL, PRIMARY KEY (session_id, seq));
PRAGMA user_version = 1;
";

#[test]
fn a_version_1_database_is_migrated_and_backfilled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(V1_SCHEMA).unwrap();
        conn.execute(
            "INSERT INTO workspaces (id, path, created_ms) VALUES (1, '/repo', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO sessions VALUES ('old', 1, NULL, '/repo', 'deepseek', 'deepseek-chat', 1, 1, NULL, NULL)",
            [],
        )
        .unwrap();
        let events = [
            user("legacy quicksort question"),
            usage_event(5, 6, 0),
            answer("legacy answer"),
            AgentEvent::TurnEnded {
                reason: TurnEndReason::Completed,
                usage: TokenUsage::default(),
            },
        ];
        for (i, event) in events.iter().enumerate() {
            conn.execute(
                "INSERT INTO events VALUES ('old', ?1, 't1', ?2, ?3, 1)",
                rusqlite::params![
                    i as i64 + 1,
                    event.kind(),
                    serde_json::to_string(event).unwrap()
                ],
            )
            .unwrap();
        }
        // An event a buggy build once wrote must not stop the migration.
        conn.execute(
            "INSERT INTO events VALUES ('old', 5, 't1', 'turn_started', '{\"broken\":', 1)",
            [],
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let id = SessionId::new("old");
    let record = store.session(&id).unwrap().unwrap();
    assert!(!record.read_only);
    assert_eq!(record.origin, None);
    assert_eq!(store.search(&query("quicksort")).unwrap().len(), 1);
    assert_eq!(store.search(&query("legacy")).unwrap().len(), 2);
    let usage = store.usage_summary(Some(&id)).unwrap();
    assert_eq!(usage.tokens().output_tokens, 6);
    assert_eq!(usage.cost_usd(), None);
    assert_eq!(store.integrity_check().unwrap(), Ok(()));
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: u32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}

#[test]
fn images_are_stored_with_their_turn_but_only_the_text_is_searchable() {
    let store = Store::open_in_memory().unwrap();
    started(&store, "img", "/repo");
    // Base64 that happens to contain a word someone might search for.
    let data = "cXVpY2tzb3J0cXVpY2tzb3J0quicksortAAA=";
    let input = UserInput {
        images: vec![memo_protocol::ImageInput {
            media_type: "image/png".into(),
            data: data.into(),
            name: Some("screenshot.png".into()),
        }],
        ..UserInput::text("what does this diagram show")
    };
    push(
        &store,
        "img",
        "t1",
        vec![AgentEvent::TurnStarted {
            input: input.clone(),
        }],
    );
    assert_eq!(store.search(&query("diagram")).unwrap().len(), 1);
    for q in [
        "quicksort",
        "cXVpY2tzb3J0cXVpY2tzb3J0quicksortAAA",
        "screenshot",
    ] {
        assert!(store.search(&query(q)).unwrap().is_empty(), "{q}");
    }
    let events = store.all_events(&SessionId::new("img")).unwrap();
    assert!(events.iter().any(|e| e.event
        == AgentEvent::TurnStarted {
            input: input.clone()
        }));
    // The Memo Code export has the text only (its format has no images).
    let mut out = Vec::new();
    store
        .export_memo_code(&SessionId::new("img"), &mut out)
        .unwrap();
    let jsonl = String::from_utf8(out).unwrap();
    assert!(jsonl.contains("what does this diagram show"));
    assert!(!jsonl.contains(data));
}

fn files_changed(call: Option<&str>, paths: &[&str]) -> AgentEvent {
    AgentEvent::FilesChanged {
        call_id: call.map(ToolCallId::new),
        checkpoint: 1,
        changes: paths
            .iter()
            .map(|path| FileChange {
                path: (*path).into(),
                kind: ChangeKind::Modified,
                sources: vec!["apply_patch".into()],
                restorable: true,
                binary: false,
                added: 1,
                removed: 1,
                diff: None,
                kept: Vec::new(),
                committed: Vec::new(),
                reviewed: false,
            })
            .collect(),
    }
}

#[test]
fn changed_files_are_counted_over_the_whole_log_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("memo.db")).unwrap();
    started(&store, "s1", "/repo");
    started(&store, "s2", "/repo");
    let id = SessionId::new("s1");
    assert_eq!(store.changed_file_count(&id).unwrap(), 0);
    push(
        &store,
        "s1",
        "t1",
        vec![files_changed(Some("c1"), &["src/a.rs", "src/b.rs"])],
    );
    for turn in 0..50 {
        push(
            &store,
            "s1",
            &format!("t{turn}"),
            vec![user("go"), answer("done")],
        );
    }
    push(
        &store,
        "s1",
        "t9",
        vec![files_changed(Some("c2"), &["src/a.rs", "README.md"])],
    );
    // Changed outside Memo (no call): not the session's tool calls. Another session's: not
    // this one's.
    push(
        &store,
        "s1",
        "t9",
        vec![files_changed(None, &["notes.txt"])],
    );
    push(
        &store,
        "s2",
        "t1",
        vec![files_changed(Some("c1"), &["other.rs"])],
    );
    assert_eq!(store.changed_file_count(&id).unwrap(), 3);

    // A damaged row is passed over, not a failure of the whole count.
    let conn = rusqlite::Connection::open(dir.path().join("memo.db")).unwrap();
    conn.execute(
        "UPDATE events SET payload = '{not json' WHERE session_id = 's1' AND seq = \
         (SELECT MIN(seq) FROM events WHERE session_id = 's1' AND kind = 'files_changed')",
        [],
    )
    .unwrap();
    drop(conn);
    assert_eq!(store.changed_file_count(&id).unwrap(), 2);
}

#[test]
fn review_marks_are_kept_per_session_and_path_and_go_with_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.db");
    let store = Store::open(&path).unwrap();
    store.create_session(&new_session("s1", "/w")).unwrap();
    store.create_session(&new_session("s2", "/w")).unwrap();
    let (s1, s2) = (SessionId::new("s1"), SessionId::new("s2"));
    store.set_review_mark(&s1, "a.rs", "hunk:1", true).unwrap();
    store.set_review_mark(&s1, "a.rs", "hunk:1", true).unwrap();
    store.set_review_mark(&s1, "a.rs", "file:9", true).unwrap();
    store.set_review_mark(&s2, "a.rs", "hunk:2", true).unwrap();
    drop(store);

    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.review_marks(&s1, "a.rs").unwrap(),
        ["file:9", "hunk:1"]
    );
    assert!(store.review_marks(&s1, "b.rs").unwrap().is_empty());
    store.set_review_mark(&s1, "a.rs", "hunk:1", false).unwrap();
    assert_eq!(store.review_marks(&s1, "a.rs").unwrap(), ["file:9"]);
    store.delete_session(&s2).unwrap();
    assert!(store.review_marks(&s2, "a.rs").unwrap().is_empty());
}
