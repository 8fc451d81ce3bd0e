//! `get_memory`: reads the user's persistent memory, `$MEMO_HOME/Agents.md`, as Memo Code
//! does. Registered unless `MEMO_ENABLE_MEMORY_TOOL=0`.

use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use memo_protocol::{MemoryAction, MemoryView, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

pub const ENABLE_MEMORY_TOOL_ENV: &str = "MEMO_ENABLE_MEMORY_TOOL";
/// Memory is meant to be short; a huge file would crowd out the conversation.
pub(crate) const MAX_BYTES: u64 = 64 * 1024;

pub struct GetMemoryTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    /// Memo Code's argument; there is one memory file, so any id reads it.
    #[serde(default)]
    memory_id: Option<String>,
}

/// Memo's rule: on unless the variable is exactly `0`.
pub fn memory_tool_enabled(env: impl Fn(&str) -> Option<String>) -> bool {
    env(ENABLE_MEMORY_TOOL_ENV).is_none_or(|v| v.trim() != "0")
}

fn memo_home(ctx: &ToolContext) -> Option<PathBuf> {
    ctx.memo_home.clone().or_else(|| {
        std::env::var_os("MEMO_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".memo")))
    })
}

/// Memo Code's memory file, `Agents.md` in Memo's home.
fn memory_path(ctx: &ToolContext) -> Option<PathBuf> {
    memo_home(ctx).map(|home| home.join("Agents.md"))
}

/// The long-term memory `save_memory` adds to: `MEMORY.md` in Memo's home (or the
/// `memory.md` the user already has), which every session's prompt loads.
pub(crate) fn saved_memory_path(ctx: &ToolContext) -> Option<PathBuf> {
    let home = memo_home(ctx)?;
    let lower = home.join("memory.md");
    let upper = home.join("MEMORY.md");
    Some(if !upper.exists() && lower.exists() {
        lower
    } else {
        upper
    })
}

impl Tool for GetMemoryTool {
    fn name(&self) -> &str {
        "get_memory"
    }

    fn description(&self) -> &str {
        "Loads the user's saved memory (preferences and facts kept across sessions)."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "memory_id": {"type": "string"}
            },
            "additionalProperties": false
        })
    }

    fn essential(&self) -> bool {
        false
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn view(&self, _: &ToolContext, _: &serde_json::Value) -> ToolView {
        ToolView::Memory(MemoryView {
            action: MemoryAction::Get,
            fact: None,
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let parsed = parse_args::<Input>("get_memory", args);
        let path = memory_path(&ctx);
        let ctx_home = ctx.clone();
        Box::pin(async move {
            let input = parsed?;
            let memory_id = input.memory_id.unwrap_or_else(|| "default".into());
            let Some(path) = path else {
                return Err(ToolError::failed("no Memo home directory is known"));
            };
            let read = tokio::task::spawn_blocking({
                let path = path.clone();
                move || read_capped(&path)
            })
            .await
            .map_err(|e| ToolError::failed(format!("get_memory task failed: {e}")))?;
            // What save_memory kept, after Memo Code's own file.
            let saved = saved_memory_path(&ctx_home)
                .map(|p| read_capped(&p).ok().flatten())
                .unwrap_or_default();
            let summary = match (read, saved) {
                (Ok(Some(text)), Some(saved)) => format!("{text}\n\n{saved}"),
                (Ok(Some(text)), None) => text,
                (Ok(None), Some(saved)) => saved,
                (Ok(None), None) => {
                    return Ok(ToolOutput::text(format!(
                        "No memory saved yet ({} does not exist).",
                        path.display()
                    )))
                }
                (Err(e), _) => {
                    return Err(ToolError::failed(format!(
                        "cannot read {}: {e}",
                        path.display()
                    )))
                }
            };
            let body = json!({"memory_id": memory_id, "memory_summary": summary});
            let text = serde_json::to_string_pretty(&body)
                .map_err(|e| ToolError::failed(format!("cannot encode the memory: {e}")))?;
            Ok(ToolOutput::text(text))
        })
    }
}

fn read_capped(path: &Path) -> std::io::Result<Option<String>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    let cut = bytes.len() as u64 > MAX_BYTES;
    bytes.truncate(MAX_BYTES as usize);
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if cut {
        text.push_str("\n… [memory truncated at 64 KiB]");
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ToolErrorKind;

    fn ctx(home: &Path) -> ToolContext {
        ToolContext {
            memo_home: Some(home.to_path_buf()),
            ..ToolContext::for_workspace(home)
        }
    }

    #[tokio::test]
    async fn reads_agents_md_and_reports_a_missing_one() {
        let home = tempfile::tempdir().unwrap();
        let out = GetMemoryTool
            .run(ctx(home.path()), json!({}))
            .await
            .unwrap();
        assert!(
            out.content.starts_with("No memory saved yet"),
            "{}",
            out.content
        );
        std::fs::write(home.path().join("Agents.md"), "- prefers tabs\n").unwrap();
        let out = GetMemoryTool
            .run(ctx(home.path()), json!({"memory_id": "user"}))
            .await
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&out.content).unwrap();
        assert_eq!(value["memory_id"], "user");
        assert_eq!(value["memory_summary"], "- prefers tabs\n");
    }

    #[tokio::test]
    async fn bad_input_and_the_env_switch() {
        let home = tempfile::tempdir().unwrap();
        let err = GetMemoryTool
            .run(ctx(home.path()), json!({"id": 3}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::InvalidInput);
        assert!(memory_tool_enabled(|_| None));
        assert!(memory_tool_enabled(|_| Some("1".into())));
        assert!(!memory_tool_enabled(|_| Some("0".into())));
    }
}
