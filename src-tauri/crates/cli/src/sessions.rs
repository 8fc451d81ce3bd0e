//! `memo-cli sessions list|show|search|export|import|fork|rename|delete|usage|checkpoints|
//! restore`: the stored history and the files' checkpoints, without running a model. `--json` prints machine-readable output (events as
//! JSONL, like `exec --json`; everything else as one JSON document).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use memo_protocol::{RestoreAction, RestoreMode, SessionId, SEARCH_MARK_END, SEARCH_MARK_START};
use memo_service::{SearchRequest, Service, ServiceError};
use serde::Serialize;
use serde_json::{json, Value};

use crate::sessions_text as text;

/// `sessions export --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportAs {
    /// Memo Code JSONL, for moving the session (Import reads it back).
    Jsonl,
    /// Markdown, for reading.
    Markdown,
}

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
    /// Write a session as Memo Code JSONL, or as Markdown for reading (to stdout, or
    /// --output FILE).
    Export {
        id: String,
        #[arg(long, short)]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = ExportAs::Jsonl)]
        format: ExportAs,
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
    /// A session's checkpoints: when files changed, which, and by what (a tool, a shell
    /// command, `outside` for changes made outside Memo, `restore`, `review`).
    Checkpoints {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Put the files the session's agent changed after event --to back as they were
    /// (--code, the default), restore the conversation as a new session
    /// (--conversation), or both. Files someone changed after the agent are conflicts,
    /// left alone unless named with --overwrite. --undo CHECKPOINT undoes a restore.
    #[command(group(clap::ArgGroup::new("point").required(true).args(["to", "undo"])))]
    Restore {
        id: String,
        /// The session event (seq) to restore to, as listed by `sessions checkpoints`.
        #[arg(long)]
        to: Option<u64>,
        /// Undo the restore recorded as this checkpoint.
        #[arg(long, conflicts_with_all = ["conversation", "both"])]
        undo: Option<u64>,
        #[arg(long, conflicts_with_all = ["conversation", "both"])]
        code: bool,
        #[arg(long, conflicts_with = "both")]
        conversation: bool,
        #[arg(long)]
        both: bool,
        /// Also overwrite this conflicting file (repeatable).
        #[arg(long, value_name = "PATH")]
        overwrite: Vec<String>,
        /// Only show what would happen.
        #[arg(long, conflicts_with_all = ["undo", "conversation", "both"])]
        dry_run: bool,
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
pub fn run(action: SessionsAction, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let service = crate::service();
    // Restoring a conversation opens a session, which needs the runtime.
    let _inside = runtime.enter();
    match run_inner(&service, action) {
        Ok(code) => code,
        Err(error) => crate::report(&error),
    }
}

fn print_json(value: &impl Serialize) -> Result<(), ServiceError> {
    let text = serde_json::to_string(value)
        .map_err(|e| ServiceError::InvalidInput(format!("cannot print as JSON: {e}")))?;
    println!("{text}");
    Ok(())
}

/// Matched terms: `[term]` in JSON, bold on a terminal.
fn marked(snippet: &str, json: bool) -> String {
    let (start, end) = if json {
        ("[", "]")
    } else {
        ("\u{1b}[1m", "\u{1b}[0m")
    };
    snippet
        .replace(SEARCH_MARK_START, start)
        .replace(SEARCH_MARK_END, end)
}

fn stdout_error(e: std::io::Error) -> ServiceError {
    ServiceError::io("stdout", e)
}

fn run_inner(service: &Service, action: SessionsAction) -> Result<ExitCode, ServiceError> {
    match action {
        SessionsAction::Checkpoints { id, json } => {
            let list = service.session_checkpoints(&SessionId::new(id))?;
            if json {
                print_json(&list)?;
            } else {
                text::print_checkpoints(&list);
            }
        }
        SessionsAction::Restore {
            id,
            to,
            undo,
            code: _,
            conversation,
            both,
            overwrite,
            dry_run,
            json,
        } => {
            let sid = SessionId::new(id);
            let report = match (undo, to) {
                (Some(checkpoint), _) => service.undo_restore(&sid, checkpoint, &overwrite)?,
                (None, Some(to)) if dry_run => service.preview_restore(&sid, to)?,
                (None, Some(to)) => {
                    let mode = if both {
                        RestoreMode::Both
                    } else if conversation {
                        RestoreMode::Conversation
                    } else {
                        RestoreMode::Code
                    };
                    service.restore(&sid, to, mode, &overwrite)?
                }
                (None, None) => {
                    return Err(ServiceError::InvalidInput(
                        "give --to SEQ or --undo CHECKPOINT".into(),
                    ))
                }
            };
            if json {
                print_json(&report)?;
            } else {
                text::print_restore(&report, dry_run);
            }
            let unresolved = report.files.iter().any(|f| {
                matches!(
                    f.action,
                    RestoreAction::Conflict | RestoreAction::NotRestorable
                )
            });
            if unresolved {
                return Ok(ExitCode::from(1));
            }
        }
        SessionsAction::List {
            cwd,
            limit,
            offset,
            json,
        } => {
            if let Some(dir) = &cwd {
                std::fs::canonicalize(dir).map_err(|e| ServiceError::io(dir.display(), e))?;
            }
            let page = service.list_sessions(cwd.as_deref(), limit, offset)?;
            if json {
                print_json(&page)?;
            } else {
                text::print_list(&page, offset);
            }
        }
        SessionsAction::Show {
            id,
            after,
            last,
            limit,
            json,
        } => {
            let sid = SessionId::new(id);
            let summary = service.session(&sid)?;
            let limit = limit.unwrap_or(usize::MAX);
            let events = match last {
                Some(n) => service.last_events(&sid, n.min(limit))?,
                None => service.events(&sid, after.unwrap_or(0), limit)?,
            };
            let mut out = std::io::stdout().lock();
            if json {
                for env in &events {
                    let line = serde_json::to_string(env).map_err(|e| {
                        ServiceError::InvalidInput(format!("cannot print as JSON: {e}"))
                    })?;
                    writeln!(out, "{line}").map_err(stdout_error)?;
                }
            } else {
                text::print_transcript(&mut out, &summary, &events).map_err(stdout_error)?;
            }
        }
        SessionsAction::Search {
            query,
            cwd,
            session,
            limit,
            offset,
            json,
        } => {
            let mut request = SearchRequest::new(query.join(" "));
            request.cwd = cwd;
            request.session = session.map(SessionId::new);
            request.limit = limit;
            request.offset = offset;
            let hits = service.search_sessions(&request)?;
            if json {
                let hits: Vec<Value> = hits
                    .iter()
                    .map(|h| {
                        json!({
                            "session_id": h.session.id,
                            "session_title": h.session.title,
                            "cwd": h.session.cwd,
                            "seq": h.seq,
                            "role": h.role,
                            "snippet": marked(&h.snippet, true),
                            "timestamp_ms": h.timestamp_ms,
                        })
                    })
                    .collect();
                print_json(&hits)?;
            } else {
                let hits: Vec<_> = hits
                    .into_iter()
                    .map(|mut h| {
                        h.snippet = marked(&h.snippet, false);
                        h
                    })
                    .collect();
                text::print_hits(&hits);
            }
        }
        SessionsAction::Export { id, output, format } => {
            let sid = SessionId::new(id);
            service.session(&sid)?;
            let format = match format {
                ExportAs::Jsonl => memo_protocol::ExportFormat::MemoCodeJsonl,
                ExportAs::Markdown => memo_protocol::ExportFormat::Markdown,
            };
            match &output {
                // The same atomic write as the window's export.
                Some(path) => {
                    let bytes = service.export_session(&sid, path, format)?;
                    eprintln!("wrote {bytes} bytes to {}", path.display());
                }
                None => {
                    let mut out = std::io::stdout().lock();
                    match format {
                        memo_protocol::ExportFormat::MemoCodeJsonl => {
                            service.export_memo_code(&sid, &mut out)?;
                        }
                        memo_protocol::ExportFormat::Markdown => {
                            service.export_markdown(&sid, &mut out)?;
                        }
                    }
                }
            }
        }
        SessionsAction::Import { paths, json } => {
            let report = service.import_memo_code(&paths)?;
            if json {
                print_json(&report)?;
            } else {
                text::print_import(&report);
            }
            if !report.failed.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
        SessionsAction::Fork { id, at, json } => {
            let fork = service.fork_session(&SessionId::new(id.clone()), at)?;
            if json {
                print_json(&fork)?;
            } else {
                println!(
                    "forked {id} at event {} into {}",
                    fork.fork_seq.unwrap_or(0),
                    fork.id
                );
            }
        }
        SessionsAction::Rename { id, title, json } => {
            let renamed = service.rename_session(&SessionId::new(id.clone()), &title)?;
            if json {
                print_json(&renamed)?;
            } else {
                println!("renamed {id}");
            }
        }
        SessionsAction::Delete { id, json } => {
            // Nothing is live in this process, so deleting needs no runtime of its own
            // beyond a current-thread one to await the (instant) close.
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .map_err(|e| ServiceError::io("tokio runtime", e))?;
            runtime.block_on(service.delete_session(&SessionId::new(id.clone())))?;
            if json {
                print_json(&json!({ "id": id, "deleted": true }))?;
            } else {
                println!("deleted {id}");
            }
        }
        SessionsAction::Usage { id, json } => {
            let report = service.usage(id.map(SessionId::new).as_ref())?;
            if json {
                print_json(&report)?;
            } else {
                text::print_usage(&report);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
