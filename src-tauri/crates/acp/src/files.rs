//! The editor's files, for Memo's file tools: when the client offers `fs/read_text_file`
//! and `fs/write_text_file`, a session's reads see the editor's unsaved buffers and its
//! edits land in them (the editor saves them). The path policy, read-deny rules, diffs,
//! approvals and the checkpoint scan around each call are Memo's as ever.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::editor::Editor;

/// One session's files as the editor has them.
#[derive(Debug)]
pub struct EditorFiles {
    editor: Arc<Editor>,
}

impl EditorFiles {
    pub fn new(editor: Arc<Editor>) -> Arc<Self> {
        Arc::new(Self { editor })
    }

    /// Asks the editor, waiting on this (blocking) thread for its answer.
    fn ask(&self, method: &str, params: Value) -> Result<Value, String> {
        let editor = self.editor.clone();
        let method = method.to_owned();
        self.editor
            .runtime
            .block_on(async move { editor.request(&method, params).await })
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
