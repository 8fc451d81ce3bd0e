//! The editor's files, for Memo's file tools: when the client offers `fs/read_text_file`
//! and `fs/write_text_file`, a session's reads see the editor's unsaved buffers and its
//! edits land in them (the editor saves them). The path policy, read-deny rules, diffs,
//! approvals and the checkpoint scan around each call are Memo's as ever.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use memo_acp_wire::rpc::Peer;
use memo_service::ServiceError;
use serde_json::{json, Value};

use crate::schema as acp;

/// How long the editor gets to answer one file request.
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// One session's files as the editor has them.
pub struct EditorFiles {
    peer: Peer,
    /// Known once the session exists; no tool runs before.
    session: Arc<OnceLock<acp::SessionId>>,
    runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for EditorFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorFiles")
            .field("session", &self.session.get())
            .finish()
    }
}

impl EditorFiles {
    /// The host for a session whose id is set in `session` once it is opened. Must be
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

    /// Asks the editor, waiting on this (blocking) thread for its answer.
    fn ask(&self, method: &str, mut params: Value) -> Result<Value, String> {
        let session = self
            .session
            .get()
            .ok_or("the session is not open yet")?
            .clone();
        params["sessionId"] = json!(session);
        let peer = self.peer.clone();
        let method = method.to_owned();
        let answer = self.runtime.block_on(async move {
            tokio::time::timeout(ANSWER_WAIT, peer.request(&method, params)).await
        });
        match answer {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(error.said()),
            Err(_) => Err(format!("no answer in {} s", ANSWER_WAIT.as_secs())),
        }
    }
}

impl memo_service::FileHost for EditorFiles {
    fn read_text(&self, path: &Path) -> Result<String, String> {
        let answer = self.ask("fs/read_text_file", json!({ "path": path }))?;
        answer
            .get("content")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| "the editor answered without the file's content".to_owned())
    }

    fn write_text(&self, path: &Path, text: &str) -> Result<(), String> {
        self.ask(
            "fs/write_text_file",
            json!({ "path": path, "content": text }),
        )
        .map(|_| ())
    }
}
