//! MCP elicitation through the session: a server asking the user for input mid-call
//! becomes an `elicitation_requested` event, the client's `Op::ResolveElicitation` the
//! answer. The MCP connection waits on the answer; a session that ends first cancels it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use memo_mcp::{ElicitationAnswer, ElicitationRequest, Elicitor};
use memo_protocol::{AgentEvent, ElicitationAction};
use tokio::sync::{mpsc, oneshot, watch};

use super::emitter::Emitter;

/// One request waiting for the user.
pub struct PendingElicitation {
    request: ElicitationRequest,
    answer: oneshot::Sender<ElicitationAnswer>,
}

/// What the MCP servers of one session are given to ask with.
pub struct SessionElicitor {
    requests: mpsc::UnboundedSender<PendingElicitation>,
}

/// Where the session picks the requests up (once, when it starts).
#[derive(Clone, Default)]
pub struct ElicitationInbox(Arc<Mutex<Option<mpsc::UnboundedReceiver<PendingElicitation>>>>);

impl std::fmt::Debug for ElicitationInbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ElicitationInbox")
    }
}

/// A connected elicitor and inbox.
pub fn channel() -> (Arc<SessionElicitor>, ElicitationInbox) {
    let (tx, rx) = mpsc::unbounded_channel();
    (
        Arc::new(SessionElicitor { requests: tx }),
        ElicitationInbox(Arc::new(Mutex::new(Some(rx)))),
    )
}

impl Elicitor for SessionElicitor {
    fn elicit(&self, request: ElicitationRequest) -> BoxFuture<'static, ElicitationAnswer> {
        let (tx, rx) = oneshot::channel();
        let sent = self.requests.send(PendingElicitation {
            request,
            answer: tx,
        });
        Box::pin(async move {
            if sent.is_err() {
                return ElicitationAnswer::Cancel;
            }
            // The session ended without an answer: the server's operation should stop.
            rx.await.unwrap_or(ElicitationAnswer::Cancel)
        })
    }
}

/// Answers waiting for the user, by request id.
#[derive(Default)]
pub(crate) struct Waiting(Mutex<HashMap<String, oneshot::Sender<ElicitationAnswer>>>);

impl Waiting {
    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, oneshot::Sender<ElicitationAnswer>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Turns the inbox's requests into events until the session finishes.
pub(crate) fn forward(
    emitter: Arc<Emitter>,
    waiting: Arc<Waiting>,
    inbox: &ElicitationInbox,
    mut finished: watch::Receiver<bool>,
) {
    let Some(mut requests) = inbox.0.lock().unwrap_or_else(|p| p.into_inner()).take() else {
        return;
    };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                next = requests.recv() => {
                    let Some(pending) = next else { break };
                    let id = uuid::Uuid::now_v7().to_string();
                    waiting.lock().insert(id.clone(), pending.answer);
                    let request = pending.request;
                    let event = AgentEvent::ElicitationRequested {
                        request_id: id.clone(),
                        server: request.server,
                        message: request.message,
                        schema: request.requested_schema,
                    };
                    if emitter.emit(None, event).is_err() {
                        // Not shown, so it cannot be answered: decline it now.
                        if let Some(tx) = waiting.lock().remove(&id) {
                            let _ = tx.send(ElicitationAnswer::Decline);
                        }
                    }
                }
                changed = finished.changed() => {
                    if changed.is_err() || *finished.borrow() {
                        break;
                    }
                }
            }
        }
        // Whatever still waits is cancelled when its sender is dropped here.
        waiting.lock().clear();
    });
}

/// `Op::ResolveElicitation`: hands the answer to the waiting server and records how it was
/// answered (not what was entered: the form may hold secrets). Returns false for an
/// unknown or already answered id.
pub(crate) fn resolve(
    emitter: &Emitter,
    waiting: &Waiting,
    request_id: &str,
    action: ElicitationAction,
    content: Option<serde_json::Map<String, serde_json::Value>>,
) -> bool {
    let Some(tx) = waiting.lock().remove(request_id) else {
        return false;
    };
    let answer = match action {
        ElicitationAction::Accept => ElicitationAnswer::Accept(content.unwrap_or_default()),
        ElicitationAction::Decline => ElicitationAnswer::Decline,
        ElicitationAction::Cancel => ElicitationAnswer::Cancel,
    };
    let _ = tx.send(answer);
    let _ = emitter.emit(
        None,
        AgentEvent::ElicitationResolved {
            request_id: request_id.to_owned(),
            action,
        },
    );
    true
}
