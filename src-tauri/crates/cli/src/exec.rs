use std::process::ExitCode;

use memo_protocol::{AgentEvent, Op, SessionId, TurnEndReason, UserInput};
use memo_service::{Service, ServiceError, StartRequest};

use crate::approve;
use crate::render::{JsonRenderer, Renderer, TextRenderer};
use crate::ExecArgs;

/// Exit codes: 0 answered, 1 the turn failed, 2 bad setup (config, keys, cwd),
/// 3 step limit reached, 130 interrupted (Ctrl-C).
pub async fn run(args: ExecArgs) -> ExitCode {
    let service = crate::service();
    let outcome = run_inner(&service, args).await;
    service.shutdown().await;
    // An auto title (config `auto_title`) is asked for after the first exchange; let it
    // land before the process exits.
    service
        .wait_for_background(std::time::Duration::from_secs(20))
        .await;
    // The closing line comes last on stderr: background work (checkpoints, their file
    // watcher) may still log while it stops.
    drop(service);
    match outcome {
        Ok((code, closing)) => {
            if let Some(line) = closing {
                eprintln!("error: {line}");
            }
            code
        }
        // Setup failures (config, keys, folder) are 2 whatever their category.
        Err(error) => {
            crate::report(&error);
            ExitCode::from(2)
        }
    }
}

/// How the turn ended, and the line to close stderr with when it did not succeed.
type Outcome = (ExitCode, Option<String>);

async fn run_inner(service: &Service, args: ExecArgs) -> Result<Outcome, ServiceError> {
    // First start: the home's bootstrap files, created only where missing.
    for problem in service.init_home()? {
        tracing::warn!(path = %problem.path, "{}", problem.message);
    }
    let cwd = match &args.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| ServiceError::io("current directory", e))?,
    };
    let trust_project = args.trust.then_some(true);
    let session = match &args.resume {
        Some(id) => service.resume_session_with(
            &SessionId::new(id.clone()),
            memo_service::SessionOverrides {
                max_steps: args.max_steps,
                trust_project,
                approval_mode: None,
                ..memo_service::SessionOverrides::default()
            },
        )?,
        None if args.external_agent.is_some() => {
            service.start_external_session(memo_service::ExternalSessionRequest {
                cwd,
                agent: args.external_agent.clone().unwrap_or_default(),
                approval_mode: None,
            })?
        }
        None => {
            if !args.trust {
                crate::trust::warn_if_untrusted(service, &cwd);
            }
            service.start_session(StartRequest {
                cwd,
                provider: args.provider.clone(),
                model: args.model.clone(),
                max_steps: args.max_steps,
                trust_project,
                approval_mode: None,
                ..StartRequest::default()
            })?
        }
    };
    let id = session.id.clone();
    let workspace = std::path::PathBuf::from(&session.cwd);
    let flags = approve::Flags {
        yes: args.yes,
        allow_critical: args.allow_critical,
        allow_escalation: args.allow_escalation,
    };
    let mut events = service.subscribe(&id, session.last_seq)?;
    // Taken by the agent when it starts, before the task reaches it.
    for (setting, value) in &args.agent_settings {
        service.submit(
            &id,
            Op::SetAgentSetting {
                setting: setting.clone(),
                value: value.clone(),
            },
        )?;
    }
    service.submit(
        &id,
        Op::UserTurn {
            input: UserInput::text(args.prompt.clone()),
        },
    )?;

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
                let _ = service.submit(&id, Op::Interrupt);
                continue;
            }
        };
        let Some(envelope) = envelope else {
            break (ExitCode::from(1), None);
        };
        renderer.render(&envelope);
        match &envelope.event {
            AgentEvent::ApprovalRequested { request } => {
                let answer = approve::answer(request, flags, &workspace);
                if let approve::Answer::Refuse { to_user, .. } = &answer {
                    eprintln!("memo-cli: {to_user}");
                }
                let _ = service.submit(
                    &id,
                    Op::ResolveApproval {
                        request_id: request.request_id.clone(),
                        decision: answer.decision(),
                    },
                );
            }
            // exec cannot ask: the server is told no at once and goes on without it.
            AgentEvent::ElicitationRequested {
                request_id,
                server,
                message,
                ..
            } => {
                eprintln!(
                    "memo-cli: the MCP server {server} asked for input (\"{message}\"); declined, since exec cannot ask. Answer it in Memo Desktop."
                );
                let _ = service.submit(
                    &id,
                    Op::ResolveElicitation {
                        request_id: request_id.clone(),
                        action: memo_protocol::ElicitationAction::Decline,
                        content: None,
                    },
                );
            }
            AgentEvent::Error { message, .. } => last_error = Some(message.clone()),
            // A slash command the engine answered without a turn (`/help`, `/compact`...).
            AgentEvent::CommandResult { ok, .. } if envelope.turn_id.is_none() => {
                break if *ok {
                    (ExitCode::SUCCESS, None)
                } else {
                    (ExitCode::from(1), None)
                };
            }
            AgentEvent::TurnEnded { reason, .. } => {
                break match reason {
                    TurnEndReason::Completed => (ExitCode::SUCCESS, None),
                    TurnEndReason::Interrupted => (ExitCode::from(130), Some("interrupted".into())),
                    TurnEndReason::StepLimit => (
                        ExitCode::from(3),
                        Some(
                            last_error
                                .take()
                                .unwrap_or_else(|| "step limit reached".into()),
                        ),
                    ),
                    TurnEndReason::Failed => (
                        ExitCode::from(1),
                        Some(
                            last_error
                                .take()
                                .unwrap_or_else(|| "the turn failed".into()),
                        ),
                    ),
                };
            }
            _ => {}
        }
    };
    renderer.finish();
    service.close_session(&id).await;
    Ok(code)
}
