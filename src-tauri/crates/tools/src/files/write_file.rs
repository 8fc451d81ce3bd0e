//! `write_file`: creates a file or replaces its whole content, atomically, with a diff
//! against the current content for the approval (hunks may be accepted one by one).

use futures::future::BoxFuture;
use memo_protocol::{EditKind, EditedFile, FileEditView, Phrase, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::diff::{call_key, FileHunks, PreviewMemory};
use crate::files::fsutil::{self, display_path, read_text, real_cwd};
use crate::{
    parse_args, Tool, ToolContext, ToolError, ToolInvocation, ToolOutput, ToolPreview, ToolResult,
};

const NAME: &str = "write_file";

#[derive(Default)]
pub struct WriteFileTool {
    previews: PreviewMemory,
}

impl WriteFileTool {
    pub fn new() -> Self {
        Self::default()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    file_path: String,
    content: String,
}

/// The file before and after, LF-normalized when the file uses CRLF.
struct Plan {
    path: std::path::PathBuf,
    display: String,
    exists: bool,
    old: String,
    new: String,
    crlf: bool,
    mode: Option<u32>,
}

fn plan(ctx: &ToolContext, input: Input) -> Result<Plan, ToolError> {
    let path = ctx.writable(&input.file_path)?;
    let display = display_path(&real_cwd(&ctx.cwd), &path);
    let existing = read_text(&path).map_err(|e| {
        ToolError::new(
            e.kind,
            format!("{}; write_file only replaces text files", e.message),
        )
    })?;
    Ok(match existing {
        Some(file) => {
            // A CRLF file stays CRLF: the model writes `\n`, the file gets `\r\n`.
            let new = if file.crlf {
                input.content.replace("\r\n", "\n")
            } else {
                input.content
            };
            Plan {
                path,
                display,
                exists: true,
                old: file.text,
                new,
                crlf: file.crlf,
                mode: Some(file.mode),
            }
        }
        None => Plan {
            path,
            display,
            exists: false,
            old: String::new(),
            new: input.content,
            crlf: false,
            mode: None,
        },
    })
}

fn signature(fh: &FileHunks<'_>) -> Vec<String> {
    fh.hunks
        .iter()
        .map(|h| format!("{}\n{}", h.header, h.text))
        .collect()
}

impl Tool for WriteFileTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Creates a file, or replaces a file's whole content, with `content` (parent folders \
         are created). To change part of a file use apply_patch."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "content": {"type": "string"}
            },
            "required": ["file_path", "content"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Write
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let key = call_key(ctx, args);
        let input = parse_args::<Input>(NAME, args.clone());
        let ctx = ctx.clone();
        let previews = self.previews.clone();
        Box::pin(async move {
            let input = input?;
            let (preview, sig) = fsutil::blocking_in(ctx.files.clone(), NAME, move || {
                let plan = plan(&ctx, input)?;
                let fh = FileHunks::new(&plan.old, &plan.new);
                let from = if plan.exists {
                    plan.display.as_str()
                } else {
                    "/dev/null"
                };
                let (add, del) = fh
                    .hunks
                    .iter()
                    .fold((0, 0), |(a, d), h| (a + h.added, d + h.removed));
                let (added, removed, path) = (add as u64, del as u64, plan.display.clone());
                let why = vec![if plan.exists {
                    Phrase::OverwriteFile {
                        path,
                        added,
                        removed,
                    }
                } else {
                    Phrase::CreateFile { path, added }
                }];
                let diff = fh.file_diff(&plan.display, from, &plan.display);
                let preview = ToolPreview {
                    risk: RiskLevel::Write,
                    fingerprint: format!("write:{}", plan.path.display()),
                    why,
                    command: None,
                    cwd: Some(ctx.cwd.display().to_string()),
                    diff: Some(diff),
                };
                Ok((preview, signature(&fh)))
            })
            .await?;
            previews.remember(key, sig);
            Ok(preview)
        })
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let path = args
            .get("file_path")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        let real = ctx.resolve(path);
        ToolView::FileEdit(FileEditView {
            files: vec![EditedFile {
                path: display_path(&real_cwd(&ctx.cwd), &real),
                change: if real.exists() {
                    EditKind::Modify
                } else {
                    EditKind::Add
                },
                diff: None,
                applied_hunks: None,
                applied_edits: None,
            }],
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        self.invoke(ctx, ToolInvocation::whole(args))
    }

    fn invoke(&self, ctx: ToolContext, call: ToolInvocation) -> BoxFuture<'static, ToolResult> {
        let expected = self.previews.recall(&call_key(&ctx, &call.args));
        if call.approved.edits().is_some() {
            return Box::pin(async {
                Err(ToolError::invalid_input(
                    "write_file has no edits to pick from; nothing was written",
                ))
            });
        }
        let accepted = call.approved.hunks().map(<[u32]>::to_vec);
        Box::pin(async move {
            let input: Input = parse_args(NAME, call.args)?;
            fsutil::blocking_in(ctx.files.clone(), NAME, move || {
                let plan = plan(&ctx, input)?;
                let fh = FileHunks::new(&plan.old, &plan.new);
                let content = match &accepted {
                    None => plan.new.clone(),
                    Some(accepted) => {
                        PreviewMemory::check(expected, &signature(&fh), NAME)?;
                        fh.apply(|i| accepted.contains(&(i as u32)))
                    }
                };
                let from = if plan.exists {
                    plan.display.as_str()
                } else {
                    "/dev/null"
                };
                let view = ToolView::FileEdit(FileEditView {
                    files: vec![EditedFile {
                        path: plan.display.clone(),
                        change: if plan.exists {
                            EditKind::Modify
                        } else {
                            EditKind::Add
                        },
                        diff: Some(fh.file_diff(&plan.display, from, &plan.display)),
                        applied_hunks: accepted.clone(),
                        applied_edits: None,
                    }],
                });
                let taken = accepted.as_ref().map_or(fh.hunks.len(), |a| {
                    (0..fh.hunks.len())
                        .filter(|i| a.contains(&(*i as u32)))
                        .count()
                });
                if plan.exists && content == plan.old {
                    return Ok(ToolOutput::text(format!(
                        "{} left unchanged (no hunk accepted or content identical)",
                        plan.display
                    ))
                    .with_view(view));
                }
                if !plan.exists && taken == 0 && !fh.hunks.is_empty() {
                    return Ok(ToolOutput::text(format!(
                        "{} was not created (its hunk was not accepted)",
                        plan.display
                    ))
                    .with_view(view));
                }
                fsutil::write_atomic(&plan.path, &fsutil::encode(&content, plan.crlf), plan.mode)?;
                let lines = content.lines().count();
                let partial = if taken < fh.hunks.len() {
                    format!(", {taken} of {} hunks", fh.hunks.len())
                } else {
                    String::new()
                };
                let verb = if plan.exists { "Overwrote" } else { "Created" };
                Ok(
                    ToolOutput::text(format!("{verb} {} ({lines} lines{partial})", plan.display))
                        .with_view(view),
                )
            })
            .await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Approved;
    use memo_protocol::ToolErrorKind;

    #[tokio::test]
    async fn creates_overwrites_and_keeps_crlf() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let tool = WriteFileTool::new();
        let args = json!({"file_path": "a/b.txt", "content": "one\ntwo\n"});
        let p = tool.preview(&ctx, &args).await.unwrap();
        let diff = p.diff.unwrap();
        assert_eq!(diff.hunks[0].header, "@@ -0,0 +1,2 @@");
        assert!(diff.unified.starts_with("--- /dev/null\n+++ a/b.txt\n"));
        assert!(!dir.path().join("a").exists());
        let out = tool.run(ctx.clone(), args).await.unwrap();
        assert_eq!(out.content, "Created a/b.txt (2 lines)");
        std::fs::write(dir.path().join("w.txt"), "x\r\ny\r\n").unwrap();
        let out = tool
            .run(
                ctx.clone(),
                json!({"file_path": "w.txt", "content": "x\nz\n"}),
            )
            .await
            .unwrap();
        assert_eq!(out.content, "Overwrote w.txt (2 lines)");
        assert_eq!(
            std::fs::read(dir.path().join("w.txt")).unwrap(),
            b"x\r\nz\r\n"
        );
    }

    #[tokio::test]
    async fn partial_acceptance_and_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        std::fs::write(dir.path().join("n.txt"), &old).unwrap();
        let new: String = (1..=20)
            .map(|i| match i {
                2 => "two\n".to_owned(),
                19 => "nineteen\n".to_owned(),
                i => format!("{i}\n"),
            })
            .collect();
        let args = json!({"file_path": "n.txt", "content": new});
        let tool = WriteFileTool::new();
        assert_eq!(
            tool.preview(&ctx, &args)
                .await
                .unwrap()
                .diff
                .unwrap()
                .hunks
                .len(),
            2
        );
        let call = ToolInvocation {
            args,
            approved: Approved::Hunks(vec![1]),
        };
        let out = tool.invoke(ctx.clone(), call).await.unwrap();
        assert_eq!(out.content, "Overwrote n.txt (20 lines, 1 of 2 hunks)");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("n.txt")).unwrap(),
            old.replace("\n19\n", "\nnineteen\n")
        );
        let err = tool
            .run(ctx.clone(), json!({"file_path": "n.txt"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::InvalidInput);
        let err = tool
            .run(ctx.clone(), json!({"file_path": ".", "content": ""}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
        std::fs::create_dir(dir.path().join("d")).unwrap();
        let err = tool
            .run(ctx.clone(), json!({"file_path": "d", "content": ""}))
            .await
            .unwrap_err();
        assert!(err.message.contains("directory"), "{}", err.message);
        std::fs::write(dir.path().join("b.bin"), [1u8, 0, 2]).unwrap();
        let err = tool
            .run(ctx, json!({"file_path": "b.bin", "content": "x"}))
            .await
            .unwrap_err();
        assert!(
            err.message.contains("only replaces text files"),
            "{}",
            err.message
        );
    }
}
