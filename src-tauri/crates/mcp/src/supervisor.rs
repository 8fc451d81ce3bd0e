//! One task per server: start it (within its startup timeout), list what it offers,
//! watch it, refresh its lists when it says they changed, and when it dies report why
//! (with its stderr tail) and start it again after a growing pause.

use std::sync::Arc;
use std::time::{Duration, Instant};

use memo_protocol::Phrase;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::config::{ServerConfig, TransportConfig};
use crate::connect::{connect, ConnectContext, ConnectFailure, Service};
use crate::content::qualified_name;
use crate::error::McpError;
use crate::handler::{Handler, Signal};
use crate::process::{describe_exit, ServerProcess};
use crate::servers::{
    lock, write, Inner, McpToolInfo, PromptArgument, PromptInfo, ServerStatus, Slot,
};

/// A server up this long has recovered: its restart count starts over.
const STABLE_AFTER: Duration = Duration::from_secs(60);

enum Ended {
    Shutdown,
    /// Stopped because a restart was asked for.
    Restart,
    /// Stopped on its own; `was_ready` tells a crash from a failed start.
    Crashed {
        reason: Phrase,
        stderr: Option<String>,
        was_ready: bool,
    },
}

pub(crate) async fn run_server(inner: Arc<Inner>, slot: Arc<Slot>) {
    let mut failures: u32 = 0;
    // Shown while restarting, so the reason stays visible until the next outcome.
    let mut last_failure: Option<(Phrase, Option<String>)> = None;
    loop {
        let (said, stderr) = match last_failure.take() {
            Some((reason, stderr)) => (
                Some(Phrase::McpRestartingAfter {
                    reason: Box::new(reason),
                }),
                stderr,
            ),
            None => (None, None),
        };
        set_status(&inner, &slot, ServerStatus::Starting, said, stderr);
        let path = inner.path.get().cloned().unwrap_or_default();
        let mut process: Option<ServerProcess> = None;
        let (signals_tx, signals) = mpsc::unbounded_channel();
        let handler = Handler {
            server: slot.config.name.clone(),
            signals: signals_tx,
            progress: slot.progress.clone(),
            elicitor: inner.options.elicitor.clone(),
        };
        let cx = ConnectContext {
            cwd: &inner.options.cwd,
            path: &path,
            env: &inner.options.env,
            credentials: inner.options.credentials.as_ref(),
            login: inner.options.login.as_ref(),
        };
        let startup = slot.config.startup_timeout;
        let attempt = tokio::select! {
            _ = inner.shutdown.cancelled() => None,
            attempt = tokio::time::timeout(startup, start(&slot, handler, &cx, &mut process)) => Some(attempt),
        };
        let outcome = match attempt {
            None => {
                stop_process(&mut process).await;
                break;
            }
            Some(Ok(Ok(service))) => {
                let started = Instant::now();
                lock(&slot.state).pid = process.as_ref().and_then(ServerProcess::pid);
                set_status(&inner, &slot, ServerStatus::Ready, None, None);
                inner.bump();
                slot.first_done.send_replace(true);
                let ended = supervise(&inner, &slot, service, &mut process, signals).await;
                *write(&slot.peer) = None;
                lock(&slot.state).pid = None;
                if started.elapsed() > STABLE_AFTER {
                    failures = 0;
                }
                ended
            }
            Some(Ok(Err(failure))) => {
                let stderr = failure.stderr.or_else(|| stderr_of(&process));
                stop_process(&mut process).await;
                if let McpError::AuthRequired { .. } = failure.error {
                    set_status(
                        &inner,
                        &slot,
                        ServerStatus::NeedsAuth,
                        Some(failure.error.phrase()),
                        None,
                    );
                    slot.first_done.send_replace(true);
                    // Retrying cannot help until the user logs in (then asks for a restart).
                    tokio::select! {
                        _ = inner.shutdown.cancelled() => break,
                        _ = slot.restart.notified() => {
                            failures = 0;
                            continue;
                        }
                    }
                }
                Ended::Crashed {
                    reason: failure.error.phrase(),
                    stderr,
                    was_ready: false,
                }
            }
            Some(Err(_elapsed)) => {
                let stderr = stderr_of(&process);
                stop_process(&mut process).await;
                Ended::Crashed {
                    reason: McpError::StartupTimeout(startup).phrase(),
                    stderr,
                    was_ready: false,
                }
            }
        };
        let (reason, stderr, was_ready) = match outcome {
            Ended::Shutdown => break,
            Ended::Restart => {
                failures = 0;
                continue;
            }
            Ended::Crashed {
                reason,
                stderr,
                was_ready,
            } => (reason, stderr, was_ready),
        };
        failures += 1;
        let policy = &inner.options.restart;
        if failures > policy.max_attempts {
            let said = match failures {
                1 => reason,
                n => Phrase::McpGaveUp {
                    reason: Box::new(reason),
                    count: u64::from(n),
                },
            };
            set_status(&inner, &slot, ServerStatus::Failed, Some(said), stderr);
            slot.first_done.send_replace(true);
            tokio::select! {
                _ = inner.shutdown.cancelled() => break,
                _ = slot.restart.notified() => {
                    failures = 0;
                    continue;
                }
            }
        }
        let backoff = policy
            .initial
            .saturating_mul(2u32.saturating_pow(failures - 1))
            .min(policy.max);
        let status = if was_ready {
            ServerStatus::Crashed
        } else {
            ServerStatus::Failed
        };
        set_status(
            &inner,
            &slot,
            status,
            Some(Phrase::McpRestartingIn {
                reason: Box::new(reason.clone()),
                seconds: format!("{}", backoff.as_secs_f64()),
            }),
            stderr.clone(),
        );
        last_failure = Some((reason, stderr));
        lock(&slot.state).restarts += 1;
        slot.first_done.send_replace(true);
        tokio::select! {
            _ = inner.shutdown.cancelled() => break,
            _ = tokio::time::sleep(backoff) => {}
            _ = slot.restart.notified() => failures = 0,
        }
    }
    *write(&slot.peer) = None;
    set_status(&inner, &slot, ServerStatus::Stopped, None, None);
    slot.first_done.send_replace(true);
}

/// Connects and reads the server's catalog; the whole of it counts against the startup
/// timeout (a server that connects but never lists its tools is not started).
async fn start(
    slot: &Slot,
    handler: Handler,
    cx: &ConnectContext<'_>,
    process: &mut Option<ServerProcess>,
) -> Result<Service, ConnectFailure> {
    let service = connect(&slot.config, handler, cx, process).await?;
    let peer = service.peer().clone();
    let info = peer
        .peer_info()
        .and_then(|i| serde_json::to_value(&*i).ok())
        .unwrap_or(Value::Null);
    let caps = &info["capabilities"];
    {
        let mut catalog = write(&slot.catalog);
        catalog.has_resources = caps.get("resources").is_some();
        catalog.has_prompts = caps.get("prompts").is_some();
    }
    if caps.get("tools").is_some() {
        refresh_tools(slot, &peer).await.map_err(|e| {
            // Some servers let `initialize` through and want authorization from the
            // first real request on: that is "needs login" too, not a failed start.
            // A static bearer token is the user's to fix, not a login.
            let oauth = match &slot.config.transport {
                TransportConfig::StreamableHttp(h) | TransportConfig::Sse(h) => {
                    h.bearer_token_env_var.is_none()
                }
                TransportConfig::Stdio(_) => false,
            };
            if oauth && crate::connect::asks_for_login(&e.to_string()) {
                ConnectFailure::from(McpError::AuthRequired {
                    server: slot.config.name.clone(),
                })
            } else {
                ConnectFailure::from(e)
            }
        })?;
    }
    if caps.get("prompts").is_some() {
        // A server whose prompts cannot be listed still has usable tools.
        if let Err(e) = refresh_prompts(slot, &peer).await {
            tracing::warn!(server = %slot.config.name, error = %e, "listing prompts failed");
        }
    }
    *write(&slot.peer) = Some(peer);
    Ok(service)
}

async fn supervise(
    inner: &Inner,
    slot: &Slot,
    service: Service,
    process: &mut Option<ServerProcess>,
    mut signals: mpsc::UnboundedReceiver<Signal>,
) -> Ended {
    let cancel = service.cancellation_token();
    let peer = service.peer().clone();
    let mut waiting = Box::pin(service.waiting());
    let mut exited = Box::pin(async {
        match process.as_mut() {
            Some(p) => Some(p.exited().await),
            None => std::future::pending().await,
        }
    });
    let mut restart = false;
    let reason = loop {
        tokio::select! {
            _ = inner.shutdown.cancelled() => {
                cancel.cancel();
                let _ = tokio::time::timeout(Duration::from_secs(2), &mut waiting).await;
                break None;
            }
            _ = slot.restart.notified() => {
                cancel.cancel();
                let _ = tokio::time::timeout(Duration::from_secs(2), &mut waiting).await;
                restart = true;
                break None;
            }
            status = &mut exited => {
                cancel.cancel();
                break Some(Phrase::McpProcessEnded { exit: Box::new(describe_exit(status.flatten())) });
            }
            _ = &mut waiting => {
                break Some(Phrase::McpConnectionClosed);
            }
            Some(signal) = signals.recv() => {
                let changed = match signal {
                    Signal::Tools => refresh_tools(slot, &peer).await,
                    Signal::Prompts => refresh_prompts(slot, &peer).await,
                    Signal::Resources => Ok(false),
                };
                match changed {
                    Ok(true) => {
                        inner.bump();
                        inner.publish(slot);
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!(server = %slot.config.name, error = %e, "refreshing after a list change failed"),
                }
            }
        }
    };
    drop(exited);
    match reason {
        None => {
            stop_process(process).await;
            if restart {
                Ended::Restart
            } else {
                Ended::Shutdown
            }
        }
        Some(reason) => crashed(slot, process, reason).await,
    }
}

async fn crashed(slot: &Slot, process: &mut Option<ServerProcess>, reason: Phrase) -> Ended {
    // The exit and the closed pipe race; give stderr a moment to drain either way.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let stderr = stderr_of(process);
    stop_process(process).await;
    tracing::warn!(server = %slot.config.name, %reason, "MCP server stopped unexpectedly");
    Ended::Crashed {
        reason,
        stderr,
        was_ready: true,
    }
}

fn stderr_of(process: &Option<ServerProcess>) -> Option<String> {
    process.as_ref().and_then(|p| p.stderr.text())
}

async fn stop_process(process: &mut Option<ServerProcess>) {
    if let Some(mut p) = process.take() {
        p.terminate().await;
    }
}

fn set_status(
    inner: &Inner,
    slot: &Slot,
    status: ServerStatus,
    said: Option<Phrase>,
    stderr: Option<String>,
) {
    {
        let mut state = lock(&slot.state);
        state.status = status;
        state.said = said;
        state.stderr_tail = stderr;
    }
    inner.publish(slot);
}

/// Re-lists the server's tools; returns whether they changed.
pub(crate) async fn refresh_tools(
    slot: &Slot,
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
) -> Result<bool, McpError> {
    let listed = peer.list_all_tools().await?;
    let tools: Vec<McpToolInfo> = listed
        .iter()
        .filter_map(|t| serde_json::to_value(t).ok())
        .filter_map(|t| tool_info(&slot.config, &t))
        .collect();
    let mut catalog = write(&slot.catalog);
    let changed = catalog.tools != tools;
    catalog.tools = tools;
    Ok(changed)
}

fn tool_info(config: &ServerConfig, tool: &Value) -> Option<McpToolInfo> {
    let name = tool.get("name")?.as_str()?.to_owned();
    if !config.allows_tool(&name) {
        return None;
    }
    let mut schema = tool
        .get("inputSchema")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or_else(|| serde_json::json!({}));
    // Providers insist on an object schema even for tools without parameters.
    if let Some(map) = schema.as_object_mut() {
        map.entry("type").or_insert_with(|| "object".into());
        map.entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
    }
    let description = tool
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| tool.get("title").and_then(Value::as_str))
        .unwrap_or("")
        .trim()
        .to_owned();
    let read_only_hint = tool
        .get("annotations")
        .and_then(|a| a.get("readOnlyHint"))
        .and_then(Value::as_bool);
    Some(McpToolInfo {
        qualified: qualified_name(&config.name, &name),
        server: config.name.clone(),
        name,
        description,
        input_schema: schema,
        read_only_hint,
    })
}

pub(crate) async fn refresh_prompts(
    slot: &Slot,
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
) -> Result<bool, McpError> {
    let listed = peer.list_all_prompts().await?;
    let prompts: Vec<PromptInfo> = listed
        .iter()
        .filter_map(|p| serde_json::to_value(p).ok())
        .filter_map(|p| {
            Some(PromptInfo {
                server: slot.config.name.clone(),
                name: p.get("name")?.as_str()?.to_owned(),
                description: p
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                arguments: p
                    .get("arguments")
                    .and_then(Value::as_array)
                    .map(|args| {
                        args.iter()
                            .filter_map(|a| {
                                Some(PromptArgument {
                                    name: a.get("name")?.as_str()?.to_owned(),
                                    description: a
                                        .get("description")
                                        .and_then(Value::as_str)
                                        .map(str::to_owned),
                                    required: a
                                        .get("required")
                                        .and_then(Value::as_bool)
                                        .unwrap_or(false),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect();
    let mut catalog = write(&slot.catalog);
    let changed = catalog.prompts != prompts;
    catalog.prompts = prompts;
    Ok(changed)
}
