//! `save_memory`: adds one fact to the user's long-term memory, `$MEMO_HOME/MEMORY.md`
//! (which every session's prompt loads, and `get_memory` returns after Memo Code's
//! `Agents.md`), as a Markdown list item. Registered with `get_memory`.
//!
//! Memory outlives the session and goes into later ones, so what the model writes there is
//! shown as a diff and approved like any other write: an instruction planted by a file the
//! model read must not persist on its own. The file is the user's: it is only ever added
//! to (never rewritten from the model's words), written atomically, and kept under the
//! size `get_memory` reads.

use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use memo_protocol::{MemoryAction, MemoryView, Phrase, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::diff::FileHunks;
use crate::files::fsutil::write_atomic;
use crate::get_memory::{saved_memory_path, MAX_BYTES};
use crate::{
    parse_args, Tool, ToolContext, ToolError, ToolInvocation, ToolOutput, ToolPreview, ToolResult,
};

/// One fact, one line: longer text belongs in a project file, not in memory.
const MAX_FACT_CHARS: usize = 500;

pub struct SaveMemoryTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    /// What to remember, in one sentence.
    fact: String,
}

/// The fact as its list item, or why it cannot be saved.
fn item(fact: &str) -> Result<String, ToolError> {
    let one_line = fact.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        return Err(ToolError::invalid_input("fact is empty"));
    }
    if one_line.chars().count() > MAX_FACT_CHARS {
        return Err(ToolError::invalid_input(format!(
            "fact is longer than {MAX_FACT_CHARS} characters; save one short fact per call"
        )));
    }
    Ok(format!("- {one_line}"))
}

/// The memory file's text now ("" when it does not exist yet).
fn current(path: &Path) -> Result<String, ToolError> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
            ToolError::failed(format!(
                "{} is not UTF-8 text; it is left as it is",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(ToolError::failed(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

/// What saving `line` would make of `text`: `None` when it is already there.
fn with_item(text: &str, line: &str) -> Result<Option<String>, ToolError> {
    if text.lines().any(|existing| existing.trim() == line) {
        return Ok(None);
    }
    let mut next = text.to_owned();
    if !next.is_empty() && !next.ends_with('\n') {
        next.push('\n');
    }
    next.push_str(line);
    next.push('\n');
    if next.len() as u64 > MAX_BYTES {
        return Err(ToolError::failed(format!(
            "memory is full ({} KiB at most); ask the user to tidy it before saving more",
            MAX_BYTES / 1024
        )));
    }
    Ok(Some(next))
}

fn path_of(ctx: &ToolContext) -> Result<PathBuf, ToolError> {
    saved_memory_path(ctx).ok_or_else(|| ToolError::failed("no Memo home directory is known"))
}

impl Tool for SaveMemoryTool {
    fn name(&self) -> &str {
        "save_memory"
    }

    fn description(&self) -> &str {
        "Saves one short fact to the user's memory (kept across sessions; get_memory reads it). \
         Use it when the user asks you to remember something, or states a lasting preference."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "fact": {"type": "string", "description": "What to remember, in one sentence."}
            },
            "required": ["fact"],
            "additionalProperties": false
        })
    }

    fn essential(&self) -> bool {
        false
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Write
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let parsed = parse_args::<Input>("save_memory", args.clone());
        let path = path_of(ctx);
        let cwd = ctx.cwd.display().to_string();
        Box::pin(async move {
            let line = item(&parsed?.fact)?;
            let path = path?;
            let before = current(&path)?;
            let after = with_item(&before, &line)?.unwrap_or_else(|| before.clone());
            let shown = path.display().to_string();
            let from = if before.is_empty() {
                "/dev/null".to_owned()
            } else {
                shown.clone()
            };
            let diff = FileHunks::new(&before, &after).file_diff(&shown, &from, &shown);
            Ok(ToolPreview {
                risk: RiskLevel::Write,
                fingerprint: format!("save_memory:{line}"),
                why: vec![Phrase::SaveMemory {
                    path: shown.clone(),
                    fact: line.clone(),
                }],
                command: None,
                cwd: Some(cwd),
                diff: Some(diff),
            })
        })
    }

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Memory(MemoryView {
            action: MemoryAction::Save,
            fact: args.get("fact").and_then(|v| v.as_str()).map(str::to_owned),
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        self.invoke(ctx, ToolInvocation::whole(args))
    }

    fn invoke(&self, ctx: ToolContext, call: ToolInvocation) -> BoxFuture<'static, ToolResult> {
        let parsed = parse_args::<Input>("save_memory", call.args);
        let path = path_of(&ctx);
        // Approved hunk by hunk with the one hunk (the added line) left out: nothing to do.
        let left_out = call
            .approved
            .hunks()
            .is_some_and(|hunks| !hunks.contains(&0));
        Box::pin(async move {
            let line = item(&parsed?.fact)?;
            if left_out {
                return Ok(ToolOutput::text(format!(
                    "Not saved: the user left the line out: {line}"
                )));
            }
            let path = path?;
            tokio::task::spawn_blocking(move || {
                let before = current(&path)?;
                let Some(after) = with_item(&before, &line)? else {
                    return Ok(ToolOutput::text(format!("Already in memory: {line}")));
                };
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        ToolError::failed(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                write_atomic(&path, after.as_bytes(), None)?;
                Ok(ToolOutput::text(format!(
                    "Saved to memory ({}): {line}",
                    path.display()
                )))
            })
            .await
            .map_err(|e| ToolError::failed(format!("save_memory task failed: {e}")))?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::get_memory::GetMemoryTool;
    use crate::Approved;
    use memo_protocol::ToolErrorKind;

    fn ctx(home: &Path) -> ToolContext {
        ToolContext {
            memo_home: Some(home.to_path_buf()),
            ..ToolContext::for_workspace(home)
        }
    }

    async fn save(home: &Path, fact: &str) -> ToolResult {
        SaveMemoryTool.run(ctx(home), json!({ "fact": fact })).await
    }

    #[tokio::test]
    async fn a_fact_is_added_as_a_line_that_get_memory_then_reads() {
        let home = tempfile::tempdir().unwrap();
        let out = save(home.path(), "The user prefers  tabs\nover spaces.")
            .await
            .unwrap();
        assert!(out.content.contains("Saved to memory"), "{}", out.content);
        save(home.path(), "Run tests with `just test`.")
            .await
            .unwrap();
        let file = std::fs::read_to_string(home.path().join("MEMORY.md")).unwrap();
        assert_eq!(
            file,
            "- The user prefers tabs over spaces.\n- Run tests with `just test`.\n"
        );
        let read = GetMemoryTool
            .run(ctx(home.path()), json!({}))
            .await
            .unwrap();
        assert!(read.content.contains("Run tests with `just test`."));
    }

    #[tokio::test]
    async fn a_users_lowercase_memory_md_is_the_one_added_to() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("memory.md"), "- kept\n").unwrap();
        save(home.path(), "Added.").await.unwrap();
        assert_eq!(
            std::fs::read_to_string(home.path().join("memory.md")).unwrap(),
            "- kept\n- Added.\n"
        );
        assert!(!home.path().join("MEMORY.md").exists());
    }

    #[tokio::test]
    async fn what_the_user_wrote_stays_and_a_repeat_is_not_added_twice() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("MEMORY.md");
        std::fs::write(&path, "# My notes\n\nNever push to main").unwrap();
        save(home.path(), "Deploys go through CI.").await.unwrap();
        let again = save(home.path(), "Deploys go through CI.").await.unwrap();
        assert!(again.content.starts_with("Already in memory"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# My notes\n\nNever push to main\n- Deploys go through CI.\n"
        );
    }

    #[tokio::test]
    async fn a_line_left_out_at_approval_is_not_saved() {
        let home = tempfile::tempdir().unwrap();
        let declined = ToolInvocation {
            args: json!({"fact": "Unwanted."}),
            approved: Approved::Hunks(Vec::new()),
        };
        let out = SaveMemoryTool
            .invoke(ctx(home.path()), declined)
            .await
            .unwrap();
        assert!(out.content.starts_with("Not saved"), "{}", out.content);
        assert!(!home.path().join("MEMORY.md").exists());
    }

    #[tokio::test]
    async fn the_preview_shows_the_added_line_and_changes_nothing() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("MEMORY.md");
        std::fs::write(&path, "- Old fact.\n").unwrap();
        let preview = SaveMemoryTool
            .preview(&ctx(home.path()), &json!({"fact": "New fact."}))
            .await
            .unwrap();
        assert_eq!(preview.risk, RiskLevel::Write);
        let diff = preview.diff.unwrap();
        assert!(diff.unified.contains("+- New fact."), "{}", diff.unified);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "- Old fact.\n");
    }

    #[tokio::test]
    async fn bad_facts_and_a_full_memory_are_refused_with_the_file_untouched() {
        let home = tempfile::tempdir().unwrap();
        let empty = save(home.path(), "  \n ").await.unwrap_err();
        assert_eq!(empty.kind, ToolErrorKind::InvalidInput);
        let long = save(home.path(), &"word ".repeat(200)).await.unwrap_err();
        assert_eq!(long.kind, ToolErrorKind::InvalidInput);
        assert!(!home.path().join("MEMORY.md").exists());

        let path = home.path().join("MEMORY.md");
        let full = "x".repeat(MAX_BYTES as usize - 4);
        std::fs::write(&path, &full).unwrap();
        let err = save(home.path(), "One more.").await.unwrap_err();
        assert!(err.message.contains("memory is full"), "{}", err.message);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), full);

        std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        let err = save(home.path(), "One more.").await.unwrap_err();
        assert!(err.message.contains("not UTF-8"), "{}", err.message);
        assert_eq!(std::fs::read(&path).unwrap(), [0xff, 0xfe, 0x00]);
    }
}
