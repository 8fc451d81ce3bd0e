use std::path::Path;

use futures::future::BoxFuture;
use memo_protocol::RiskLevel;
use serde::Deserialize;
use serde_json::json;

use super::{parse_args, Tool, ToolContext, ToolError, ToolResult};

/// Directories that are almost never what the model wants to see and can be enormous.
const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target", ".venv", "__pycache__"];
const MAX_ENTRIES: usize = 500;

pub struct ListDirTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    #[serde(default)]
    dir_path: Option<String>,
    #[serde(default)]
    depth: Option<usize>,
}

impl Tool for ListDirTool {
    fn name(&self) -> &str {
        "list_dir"
    }

    fn description(&self) -> &str {
        "List the entries of a directory as an indented tree (directories end with `/`). \
         `depth` (default 1, max 5) controls how deep to recurse. VCS and dependency folders \
         (.git, node_modules, target) are listed but not expanded."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "dir_path": {"type": "string", "description": "Directory to list; defaults to the working directory."},
                "depth": {"type": "integer", "minimum": 1, "maximum": 5}
            },
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args("list_dir", args)?;
            let dir = ctx.readable(input.dir_path.as_deref().unwrap_or("."))?;
            let depth = input.depth.unwrap_or(1).clamp(1, 5);
            tokio::task::spawn_blocking(move || list(&dir, depth))
                .await
                .map_err(|e| ToolError::failed(format!("list_dir task failed: {e}")))?
        })
    }
}

fn list(dir: &Path, depth: usize) -> ToolResult {
    if !dir.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    let mut out = format!("{}/\n", dir.display());
    let mut count = 0usize;
    walk(dir, 1, depth, &mut out, &mut count)?;
    if count >= MAX_ENTRIES {
        out.push_str(&format!(
            "… listing stopped at {MAX_ENTRIES} entries; list a subdirectory or lower depth\n"
        ));
    }
    Ok(out.into())
}

fn walk(
    dir: &Path,
    level: usize,
    max: usize,
    out: &mut String,
    count: &mut usize,
) -> Result<(), ToolError> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| ToolError::failed(format!("cannot list {}: {e}", dir.display())))?;
    let mut entries: Vec<(String, bool, std::path::PathBuf)> = read
        .filter_map(|e| e.ok())
        .map(|e| {
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            (
                e.file_name().to_string_lossy().into_owned(),
                is_dir,
                e.path(),
            )
        })
        .collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (name, is_dir, path) in entries {
        if *count >= MAX_ENTRIES {
            return Ok(());
        }
        *count += 1;
        let indent = "  ".repeat(level);
        if is_dir {
            out.push_str(&format!("{indent}{name}/\n"));
            if level < max && !SKIPPED_DIRS.contains(&name.as_str()) {
                walk(&path, level + 1, max, out, count)?;
            }
        } else {
            out.push_str(&format!("{indent}{name}\n"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lists_directories_first_to_depth() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/inner")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(dir.path().join("README.md"), "").unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let out = ListDirTool
            .run(ctx.clone(), json!({"depth": 2}))
            .await
            .unwrap();
        let body: Vec<&str> = out.content.lines().skip(1).collect();
        assert_eq!(
            body,
            vec!["  src/", "    inner/", "    lib.rs", "  README.md"]
        );
        let err = ListDirTool
            .run(ctx, json!({"dir_path": "README.md"}))
            .await
            .unwrap_err();
        assert!(err.message.contains("not a directory"));
    }
}
