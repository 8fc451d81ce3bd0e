//! The editor a session's tools ask for its files and terminals (`fs/*`, `terminal/*`):
//! the connection, the session's id once it exists, and a bounded wait for each answer.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use memo_acp_wire::rpc::Peer;
use memo_service::ServiceError;
use serde_json::{json, Value};

use crate::schema as acp;

/// How long the editor gets to answer one request (a command's exit is waited for apart
/// from this).
const ANSWER_WAIT: Duration = Duration::from_secs(30);

pub struct Editor {
    peer: Peer,
    /// Known once the session exists; no tool runs before.
    session: Arc<OnceLock<acp::SessionId>>,
    /// The runtime the connection runs on, for callers on blocking threads.
    pub(crate) runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("session", &self.session.get())
            .finish()
    }
}

impl Editor {
    /// The editor for a session whose id is set in `session` once it is opened. Must be
    /// made inside the Tokio runtime the connection runs on.
    pub fn new(
        peer: Peer,
        session: Arc<OnceLock<acp::SessionId>>,
    ) -> Result<Arc<Self>, ServiceError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|e| {
            ServiceError::InvalidInput(format!("the editor's files need the runtime: {e}"))
        })?;
        Ok(Arc::new(Self {
            peer,
            session,
            runtime,
        }))
    }

    pub(crate) fn session(&self) -> Result<acp::SessionId, String> {
        self.session
            .get()
            .cloned()
            .ok_or_else(|| "the session is not open yet".to_owned())
    }

    /// Asks the editor `method` for this session, within the usual wait.
    pub(crate) async fn request(&self, method: &str, params: Value) -> Result<Value, String> {
        match tokio::time::timeout(ANSWER_WAIT, self.request_unbounded(method, params)).await {
            Ok(answer) => answer,
            Err(_) => Err(format!("no answer in {} s", ANSWER_WAIT.as_secs())),
        }
    }

    /// Asks without a time limit (waiting for a command to exit).
    pub(crate) async fn request_unbounded(
        &self,
        method: &str,
        mut params: Value,
    ) -> Result<Value, String> {
        params["sessionId"] = json!(self.session()?);
        self.peer
            .request(method, params)
            .await
            .map_err(|error| error.said())
    }

    /// Tells the editor about the session (an update it shows).
    pub(crate) fn notify(&self, update: acp::SessionUpdate) {
        if let Ok(session_id) = self.session() {
            self.peer.notify(
                "session/update",
                acp::SessionNotification { session_id, update },
            );
        }
    }
}
