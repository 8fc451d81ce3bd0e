use std::process::ExitCode;
use std::sync::Arc;

use memo_config::{Config, CredentialStore, KeyringStore, MemoHome, MemoryCredentialStore};
use memo_engine::{Engine, EngineOptions, SessionOptions};
use memo_protocol::{AgentEvent, Op, ReviewDecision, SessionId, TurnEndReason, UserInput};
use memo_store::Store;

use crate::render::{JsonRenderer, Renderer, TextRenderer};
use crate::ExecArgs;

/// Exit codes: 0 answered, 1 the turn failed, 2 bad setup (config, keys, cwd),
/// 3 step limit reached, 130 interrupted (Ctrl-C).
pub async fn run(args: ExecArgs) -> ExitCode {
    match run_inner(args).await {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

async fn run_inner(args: ExecArgs) -> Result<ExitCode, String> {
    let home = MemoHome::resolve().map_err(|e| e.to_string())?;
    // First start: the home's bootstrap files, created only where missing.
    for problem in memo_engine::context::init_home(home.root()).problems {
        tracing::warn!(path = %problem.path, "{}", problem.message);
    }
    let config = Config::load(&home).map_err(|e| e.to_string())?;
    let store = Store::open(home.sessions_db()).map_err(|e| e.to_string())?;
    let cwd = match &args.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    let engine = Engine::new(EngineOptions {
        memo_home: Some(home.root().to_path_buf()),
        config,
        store: Arc::new(store),
        credentials: keychain(),
        env: Arc::new(|name: &str| std::env::var(name).ok()),
    });
    let session = match &args.resume {
        Some(id) => engine
            .resume_session(&SessionId::new(id.clone()), args.max_steps)
            .map_err(|e| e.to_string())?,
        None => engine
            .start_session(SessionOptions {
                cwd,
                provider: args.provider.clone(),
                model: args.model.clone(),
                max_steps: args.max_steps,
            })
            .map_err(|e| e.to_string())?,
    };
    let after = session.last_seq();
    let mut events = session.subscribe(after).map_err(|e| e.to_string())?;
    session
        .submit(Op::UserTurn {
            input: UserInput::text(args.prompt.clone()),
        })
        .map_err(|e| e.to_string())?;

    let mut renderer: Box<dyn Renderer> = if args.json {
        Box::new(JsonRenderer::new())
    } else {
        Box::new(TextRenderer::new())
    };
    let mut last_error: Option<String> = None;
    let mut interrupted_by_signal = false;
    let code = loop {
        let envelope = tokio::select! {
            env = events.recv() => env,
            _ = tokio::signal::ctrl_c(), if !interrupted_by_signal => {
                interrupted_by_signal = true;
                let _ = session.submit(Op::Interrupt);
                continue;
            }
        };
        let Some(envelope) = envelope else {
            break ExitCode::from(1);
        };
        renderer.render(&envelope);
        match &envelope.event {
            AgentEvent::ApprovalRequested { request } => {
                let decision = if args.yes {
                    ReviewDecision::ApproveOnce {
                        accepted_hunks: None,
                    }
                } else {
                    ReviewDecision::Deny {
                        reason: Some(
                            "memo-cli exec cannot ask interactively; rerun with --yes to allow"
                                .into(),
                        ),
                    }
                };
                let _ = session.submit(Op::ResolveApproval {
                    request_id: request.request_id.clone(),
                    decision,
                });
            }
            AgentEvent::Error { message, .. } => last_error = Some(message.clone()),
            // A slash command the engine answered without a turn (`/help`, `/compact`...).
            AgentEvent::CommandResult { ok, .. } if envelope.turn_id.is_none() => {
                break if *ok {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                };
            }
            AgentEvent::TurnEnded { reason, .. } => {
                break match reason {
                    TurnEndReason::Completed => ExitCode::SUCCESS,
                    TurnEndReason::Interrupted => {
                        eprintln!("error: interrupted");
                        ExitCode::from(130)
                    }
                    TurnEndReason::StepLimit => {
                        eprintln!(
                            "error: {}",
                            last_error.as_deref().unwrap_or("step limit reached")
                        );
                        ExitCode::from(3)
                    }
                    TurnEndReason::Failed => {
                        eprintln!(
                            "error: {}",
                            last_error.as_deref().unwrap_or("the turn failed")
                        );
                        ExitCode::from(1)
                    }
                };
            }
            _ => {}
        }
    };
    renderer.finish();
    let _ = session.submit(Op::Shutdown);
    session.closed().await;
    // An auto title (config `auto_title`) is asked for after the first exchange; let it
    // land before the process exits.
    engine
        .wait_for_background(std::time::Duration::from_secs(20))
        .await;
    Ok(code)
}

/// The OS keychain, or (on a platform without one) no stored keys: env vars still work.
fn keychain() -> Arc<dyn CredentialStore> {
    match KeyringStore::new() {
        Ok(store) => Arc::new(store),
        Err(err) => {
            tracing::warn!(error = %err, "OS keychain unavailable; using environment variables only");
            Arc::new(MemoryCredentialStore::new())
        }
    }
}
