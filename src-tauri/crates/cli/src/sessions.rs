//! `memo-cli sessions list|show|search|export|import|fork|rename|delete|usage`: the stored
//! history, without running a model. `--json` prints machine-readable output (events as
//! JSONL, like `exec --json`; everything else as one JSON document).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Subcommand;
use memo_config::{Config, MemoHome, MemoryCredentialStore};
use memo_engine::{Engine, EngineOptions};
use memo_protocol::{AgentEvent, SessionId};
use memo_store::memo_code::{ImportReport, ImportStatus};
use memo_store::{SearchQuery, SessionRecord, Store};
use serde_json::{json, Value};

use crate::sessions_text as text;

#[derive(Subcommand)]
pub enum SessionsAction {
    /// Sessions, most recently active first.
    List {
        /// Only the sessions of this workspace (working directory).
        #[arg(long)]
        cwd: Option<PathBuf>,
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        #[arg(long)]
        json: bool,
    },
    /// A session's events: the transcript, or (with --json) the envelopes as JSONL.
    Show {
        id: String,
        /// Only events after this seq.
        #[arg(long, conflicts_with = "last")]
        after: Option<u64>,
        /// Only the last N events.
        #[arg(long)]
        last: Option<usize>,
        /// At most this many events.
        #[arg(long)]
        limit: Option<usize>,
        #[arg(long)]
        json: bool,
    },
    /// Full-text search over every session's messages and tool names.
    Search {
        /// Words that must all match; "quoted phrase"; word* for a prefix.
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
        /// Only sessions of this workspace.
        #[arg(long)]
        cwd: Option<PathBuf>,
        /// Only this session.
        #[arg(long)]
        session: Option<String>,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        #[arg(long)]
        json: bool,
    },
    /// Write a session as Memo Code JSONL (to stdout, or --output FILE).
    Export {
        id: String,
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Import Memo Code sessions (default: every file under $MEMO_HOME/sessions) as
    /// read-only history; `exec --resume` on one continues it in a fork.
    Import {
        /// Files or folders to import instead.
        paths: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// A new session sharing this one's history up to --at (default: all of it).
    Fork {
        id: String,
        #[arg(long)]
        at: Option<u64>,
        #[arg(long)]
        json: bool,
    },
    Rename {
        id: String,
        title: String,
        #[arg(long)]
        json: bool,
    },
    /// Delete a session and all its events (forks of it are kept).
    Delete {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Token usage and cost, per model, of a session (or of all of them).
    Usage {
        id: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

/// Exit codes: 0 done, 1 not found or nothing done, 2 setup error (home, database).
pub fn run(action: SessionsAction) -> ExitCode {
    match run_inner(action) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

struct Ctx {
    home: MemoHome,
    store: Arc<Store>,
}

fn open() -> Result<Ctx, String> {
    let home = MemoHome::resolve().map_err(|e| e.to_string())?;
    let store = Store::open(home.sessions_db()).map_err(|e| e.to_string())?;
    Ok(Ctx {
        home,
        store: Arc::new(store),
    })
}

fn not_found(id: &str) -> ExitCode {
    eprintln!("error: no session {id}");
    ExitCode::from(1)
}

fn print_json(value: &Value) {
    println!("{value}");
}

/// Workspaces are stored by canonical path, as the engine records them.
fn workspace(cwd: Option<PathBuf>) -> Result<Option<String>, String> {
    cwd.map(|dir| {
        std::fs::canonicalize(&dir)
            .map(|p| p.display().to_string())
            .map_err(|e| format!("{}: {e}", dir.display()))
    })
    .transpose()
}

pub fn record_json(store: &Store, r: &SessionRecord) -> Value {
    json!({
        "id": r.id,
        "title": r.title,
        "preview": text::first_prompt(store, &r.id),
        "cwd": r.cwd,
        "provider": r.provider,
        "model": r.model,
        "created_ms": r.created_ms,
        "updated_ms": r.updated_ms,
        "last_seq": store.last_seq(&r.id).unwrap_or(0),
        "parent_session_id": r.parent_session_id,
        "fork_seq": r.fork_seq,
        "read_only": r.read_only,
        "origin": r.origin,
        "origin_id": r.origin_id,
    })
}

fn run_inner(action: SessionsAction) -> Result<ExitCode, String> {
    let ctx = open()?;
    let store = &ctx.store;
    match action {
        SessionsAction::List {
            cwd,
            limit,
            offset,
            json,
        } => {
            let cwd = workspace(cwd)?;
            let records = store
                .list_sessions(cwd.as_deref(), limit, offset)
                .map_err(|e| e.to_string())?;
            let total = store
                .count_sessions(cwd.as_deref())
                .map_err(|e| e.to_string())?;
            if json {
                let sessions: Vec<Value> = records.iter().map(|r| record_json(store, r)).collect();
                print_json(&json!({ "total": total, "sessions": sessions }));
            } else {
                text::print_list(store, &records, total, offset);
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionsAction::Show {
            id,
            after,
            last,
            limit,
            json,
        } => {
            let sid = SessionId::new(id.clone());
            let Some(record) = store.session(&sid).map_err(|e| e.to_string())? else {
                return Ok(not_found(&id));
            };
            let limit = limit.unwrap_or(usize::MAX);
            let events = match last {
                Some(n) => store.events_before(&sid, u64::MAX, n.min(limit)),
                None => store.events(&sid, after.unwrap_or(0), limit),
            }
            .map_err(|e| e.to_string())?;
            let mut out = std::io::stdout().lock();
            if json {
                for env in &events {
                    let line = serde_json::to_string(env).map_err(|e| e.to_string())?;
                    writeln!(out, "{line}").map_err(|e| e.to_string())?;
                }
            } else {
                text::print_transcript(&mut out, store, &record, &events)
                    .map_err(|e| e.to_string())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionsAction::Search {
            query,
            cwd,
            session,
            limit,
            offset,
            json,
        } => {
            let mut q = SearchQuery::new(query.join(" "));
            q.cwd = workspace(cwd)?;
            q.session = session.map(SessionId::new);
            q.limit = limit;
            q.offset = offset;
            if !json {
                // Bold on a terminal is what the brackets stand for.
                q.highlight = ("\u{1b}[1m".into(), "\u{1b}[0m".into());
            }
            let hits = store.search(&q).map_err(|e| e.to_string())?;
            if json {
                let hits: Vec<Value> = hits
                    .iter()
                    .map(|h| {
                        json!({
                            "session_id": h.session_id,
                            "session_title": h.session_title,
                            "cwd": h.cwd,
                            "seq": h.seq,
                            "role": h.role.as_str(),
                            "snippet": h.snippet,
                            "score": h.score,
                            "timestamp_ms": h.timestamp_ms,
                        })
                    })
                    .collect();
                print_json(&Value::Array(hits));
            } else {
                text::print_hits(&hits);
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionsAction::Export { id, output } => {
            let sid = SessionId::new(id.clone());
            if store.session(&sid).map_err(|e| e.to_string())?.is_none() {
                return Ok(not_found(&id));
            }
            let lines = match &output {
                Some(path) => {
                    let file = std::fs::File::create(path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    let mut w = std::io::BufWriter::new(file);
                    store.export_memo_code(&sid, &mut w)
                }
                None => store.export_memo_code(&sid, &mut std::io::stdout().lock()),
            }
            .map_err(|e| e.to_string())?;
            if let Some(path) = output {
                eprintln!("wrote {lines} lines to {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionsAction::Import { paths, json } => {
            let paths = if paths.is_empty() {
                vec![ctx.home.memo_code_sessions_dir()]
            } else {
                paths
            };
            let mut report = ImportReport::default();
            for path in paths {
                if path.is_dir() {
                    let part = store.import_memo_code_dir(&path);
                    report.files.extend(part.files);
                    report.failed.extend(part.failed);
                } else {
                    match store.import_memo_code_file(&path) {
                        Ok(Ok(file)) => report.files.push(file),
                        Ok(Err(e)) => report.failed.push((path, e.to_string())),
                        Err(e) => report.failed.push((path, e.to_string())),
                    }
                }
            }
            if json {
                print_json(&import_json(&report));
            } else {
                text::print_import(&report);
            }
            Ok(if report.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        SessionsAction::Fork { id, at, json } => {
            let sid = SessionId::new(id.clone());
            if store.session(&sid).map_err(|e| e.to_string())?.is_none() {
                return Ok(not_found(&id));
            }
            // The engine decides the fork's provider (an import names none); a missing
            // config is fine for that.
            let config = Config::load(&ctx.home).map_err(|e| e.to_string())?;
            let engine = Engine::new(EngineOptions {
                memo_home: Some(ctx.home.root().to_path_buf()),
                config,
                store: store.clone(),
                credentials: Arc::new(MemoryCredentialStore::new()),
                env: Arc::new(|_: &str| None),
            });
            match engine.fork_session(&sid, at) {
                Ok(record) => {
                    if json {
                        print_json(&record_json(store, &record));
                    } else {
                        println!(
                            "forked {id} at event {} into {}",
                            record.fork_seq.unwrap_or(0),
                            record.id
                        );
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    Ok(ExitCode::from(1))
                }
            }
        }
        SessionsAction::Rename { id, title, json } => {
            let sid = SessionId::new(id.clone());
            match store.set_title(&sid, title.trim()) {
                Ok(()) => {
                    if json {
                        print_json(&json!({ "id": id, "title": title.trim() }));
                    } else {
                        println!("renamed {id}");
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(memo_store::StoreError::UnknownSession(_)) => Ok(not_found(&id)),
                Err(e) => Err(e.to_string()),
            }
        }
        SessionsAction::Delete { id, json } => {
            let deleted = store
                .delete_session(&SessionId::new(id.clone()))
                .map_err(|e| e.to_string())?;
            if json {
                print_json(&json!({ "id": id, "deleted": deleted }));
            } else if deleted {
                println!("deleted {id}");
            }
            Ok(if deleted {
                ExitCode::SUCCESS
            } else {
                not_found(&id)
            })
        }
        SessionsAction::Usage { id, json } => {
            let sid = id.map(SessionId::new);
            if let Some(s) = &sid {
                if store.session(s).map_err(|e| e.to_string())?.is_none() {
                    return Ok(not_found(s.as_str()));
                }
            }
            let summary = store
                .usage_summary(sid.as_ref())
                .map_err(|e| e.to_string())?;
            if json {
                let models: Vec<Value> = summary
                    .by_model
                    .iter()
                    .map(|m| {
                        json!({
                            "provider": m.provider,
                            "model": m.model,
                            "calls": m.calls,
                            "tokens": m.tokens,
                            "cost_usd": m.cost_usd,
                            "unpriced_calls": m.unpriced_calls,
                        })
                    })
                    .collect();
                print_json(&json!({
                    "session_id": sid,
                    "calls": summary.calls(),
                    "tokens": summary.tokens(),
                    "cost_usd": summary.cost_usd(),
                    "by_model": models,
                }));
            } else {
                text::print_usage(&summary);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn import_json(report: &ImportReport) -> Value {
    let files: Vec<Value> = report
        .files
        .iter()
        .map(|f| {
            json!({
                "path": f.path,
                "status": status_name(&f.status),
                "session_id": f.session_id,
                "origin_id": f.origin_id,
                "events": f.events,
                "skipped_lines": f.skipped_lines.iter().map(|l| json!({
                    "line": l.line, "reason": l.reason
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let failed: Vec<Value> = report
        .failed
        .iter()
        .map(|(path, error)| json!({ "path": path, "error": error }))
        .collect();
    json!({ "files": files, "failed": failed })
}

pub fn status_name(status: &ImportStatus) -> &'static str {
    match status {
        ImportStatus::New => "new",
        ImportStatus::Updated => "updated",
        ImportStatus::Unchanged => "unchanged",
        ImportStatus::Empty => "empty",
    }
}

/// Whether an event is worth a line in a transcript (deltas are repeated whole by the
/// step's `assistant_message`).
pub fn in_transcript(event: &AgentEvent) -> bool {
    !matches!(
        event,
        AgentEvent::TextDelta { .. }
            | AgentEvent::ReasoningDelta { .. }
            | AgentEvent::ToolCallBegin { .. }
            | AgentEvent::ToolCallArgsDelta { .. }
    )
}
