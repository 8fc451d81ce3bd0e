use std::io::{BufRead, BufReader, Read};

use futures::future::BoxFuture;
use memo_protocol::RiskLevel;
use serde::Deserialize;
use serde_json::json;

use super::{parse_args, Tool, ToolContext, ToolError, ToolResult};

/// Lines longer than this are cut so one minified line cannot flood the context.
const MAX_LINE_CHARS: usize = 2000;
const DEFAULT_LIMIT: usize = 2000;

pub struct ReadFileTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    file_path: String,
    /// 1-based first line.
    #[serde(default)]
    offset: Option<usize>,
    #[serde(default)]
    limit: Option<usize>,
}

impl Tool for ReadFileTool {
    fn name(&self) -> &str {
        "read_file"
    }

    fn description(&self) -> &str {
        "Read a text file from the local filesystem. Output lines are numbered (`N\\tline`). \
         Use `offset` (1-based line) and `limit` to read a slice of a large file. \
         Relative paths resolve against the session's working directory."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {"type": "string", "description": "Path of the file to read."},
                "offset": {"type": "integer", "minimum": 1, "description": "1-based line to start at."},
                "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines."}
            },
            "required": ["file_path"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args("read_file", args)?;
            let path = ctx.readable(&input.file_path)?;
            let offset = input.offset.unwrap_or(1).max(1);
            let limit = input.limit.unwrap_or(DEFAULT_LIMIT).max(1);
            // File IO is blocking; keep it off the async workers.
            tokio::task::spawn_blocking(move || read_slice(&path, offset, limit))
                .await
                .map_err(|e| ToolError::failed(format!("read_file task failed: {e}")))?
        })
    }
}

fn read_slice(path: &std::path::Path, offset: usize, limit: usize) -> ToolResult {
    let file = std::fs::File::open(path)
        .map_err(|e| ToolError::failed(format!("cannot open {}: {e}", path.display())))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(ToolError::invalid_input(format!(
            "{} is a directory; use list_dir",
            path.display()
        )));
    }
    let mut reader = BufReader::new(file);
    let mut head = Vec::with_capacity(8192);
    (&mut reader)
        .take(8192)
        .read_to_end(&mut head)
        .map_err(|e| ToolError::failed(format!("cannot read {}: {e}", path.display())))?;
    if head.contains(&0) {
        return Err(ToolError::invalid_input(format!(
            "{} looks like a binary file; read_file only reads text",
            path.display()
        )));
    }
    // Stream the file line by line so a slice of a huge file never loads all of it.
    let reader = BufReader::new(std::io::Cursor::new(head).chain(reader));
    let mut out = String::new();
    let mut shown = 0usize;
    let mut total = 0usize;
    for (i, line) in reader.split(b'\n').enumerate() {
        let line =
            line.map_err(|e| ToolError::failed(format!("cannot read {}: {e}", path.display())))?;
        total = i + 1;
        let number = i + 1;
        if number < offset {
            continue;
        }
        if shown >= limit {
            // Knowing there is more is enough; stop reading.
            total = usize::MAX;
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        let text: String = if text.chars().count() > MAX_LINE_CHARS {
            let cut: String = text.chars().take(MAX_LINE_CHARS).collect();
            format!("{cut}… [line truncated]")
        } else {
            text.to_owned()
        };
        out.push_str(&format!("{number}\t{text}\n"));
        shown += 1;
    }
    if shown == 0 {
        if total == 0 {
            return Ok(format!("({} is empty)", path.display()).into());
        }
        return Err(ToolError::invalid_input(format!(
            "offset {offset} is past the end of {} ({total} lines)",
            path.display()
        )));
    }
    if total == usize::MAX {
        out.push_str(&format!(
            "… more lines follow; continue with offset {}\n",
            offset + shown
        ));
    }
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(dir: &std::path::Path) -> ToolContext {
        ToolContext::for_workspace(dir)
    }

    #[tokio::test]
    async fn numbers_lines_and_pages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\r\nthree\nfour\n").unwrap();
        let out = ReadFileTool
            .run(
                ctx(dir.path()),
                json!({"file_path": "a.txt", "offset": 2, "limit": 2}),
            )
            .await
            .unwrap();
        assert_eq!(
            out.content,
            "2\ttwo\n3\tthree\n… more lines follow; continue with offset 4\n"
        );
    }

    #[tokio::test]
    async fn refuses_binary_and_bad_arguments() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.bin"), [0u8, 1, 2, 3]).unwrap();
        let err = ReadFileTool
            .run(ctx(dir.path()), json!({"file_path": "b.bin"}))
            .await
            .unwrap_err();
        assert!(err.message.contains("binary"), "{}", err.message);
        let err = ReadFileTool
            .run(ctx(dir.path()), json!({"path": "b.bin"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, memo_protocol::ToolErrorKind::InvalidInput);
        assert!(err.message.contains("file_path"), "{}", err.message);
    }
}
