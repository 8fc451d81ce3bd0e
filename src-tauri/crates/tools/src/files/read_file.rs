//! `read_file`: a slice of a text file with line numbers, or (indentation mode) the code
//! block around a line. Slices stream from the nearest remembered line offset, so a page
//! of a huge file never reads the whole file.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use futures::future::BoxFuture;
use memo_protocol::{ReadView, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::fsutil::{self, display_path, real_cwd};
use crate::files::indentation::{self, Options};
use crate::files::line_index::{self, Cursor, FileKey, BUF_BYTES, STRIDE};
use crate::files::line_seek;
use crate::truncate::max_chars_from_env;
use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

const NAME: &str = "read_file";
/// Lines longer than this are cut so one minified line cannot flood the context.
const MAX_LINE_CHARS: usize = 2000;
const DEFAULT_LIMIT: usize = 2000;
/// Bytes sniffed for NULs to tell binary from text (what git and grep do).
const SNIFF_BYTES: usize = 8192;
/// Indentation mode holds the file in memory to walk blocks both ways.
const MAX_INDENTATION_BYTES: u64 = 16 * 1024 * 1024;
/// Room left under the engine's output cap for the continuation note, so a long page
/// is cut by us (with a usable offset) rather than by the generic truncation.
const CAP_MARGIN: usize = 300;

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
    #[serde(default)]
    mode: Mode,
    #[serde(default)]
    indentation: Option<IndentationInput>,
}

#[derive(Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Mode {
    #[default]
    Slice,
    Indentation,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct IndentationInput {
    anchor_line: Option<usize>,
    max_levels: Option<usize>,
    #[serde(default)]
    include_siblings: bool,
}

impl Tool for ReadFileTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Reads a text file as `N\\tline` lines (never copy the `N\\t` prefix into edits): \
         up to 2000 lines from `offset`; page with offset/limit. To see the code block \
         around a line, send `mode: \"indentation\"` (a top-level argument) with \
         `indentation: {anchor_line, max_levels, include_siblings}`."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "offset": {"type": "integer", "minimum": 1, "description": "1-based first line."},
                "limit": {"type": "integer", "minimum": 1},
                "mode": {"type": "string", "enum": ["slice", "indentation"]},
                "indentation": {
                    "type": "object",
                    "description": "Options of mode \"indentation\".",
                    "properties": {
                        "anchor_line": {"type": "integer", "minimum": 1, "description": "Line whose block to show."},
                        "max_levels": {"type": "integer", "minimum": 0, "description": "Enclosing blocks to show; 0 = all (default 1)."},
                        "include_siblings": {"type": "boolean", "description": "Also the blocks beside it."}
                    },
                    "additionalProperties": false
                }
            },
            "required": ["file_path"],
            "additionalProperties": false
        })
    }

    fn compact_hidden_params(&self) -> &'static [&'static str] {
        &["mode", "indentation"]
    }

    fn brief(&self) -> Option<&str> {
        Some("Reads a text file as numbered `N\\tline` lines (never copy the `N\\t` prefix into edits); page with offset/limit.")
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let path = args
            .get("file_path")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        let shown = display_path(&real_cwd(&ctx.cwd), &ctx.resolve(path));
        ToolView::Read(read_view(&shown, None, None, false))
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args(NAME, args)?;
            let path = ctx.readable(&input.file_path)?;
            let shown = display_path(&real_cwd(&ctx.cwd), &path);
            let limit = input.limit.unwrap_or(DEFAULT_LIMIT).max(1);
            let budget = max_chars_from_env().saturating_sub(CAP_MARGIN).max(1000);
            if input.mode == Mode::Slice && input.indentation.is_some() {
                return Err(ToolError::invalid_input(
                    "`indentation` options need `mode: \"indentation\"` as a top-level argument; \
                     to read lines, leave `indentation` out",
                ));
            }
            fsutil::blocking_in(ctx.files.clone(), NAME, move || {
                // With a file host the text is the host's (an unsaved buffer), read
                // from a private copy so the line indexes never mix it with the disk's.
                let hosted = hosted_copy(&path, &shown)?;
                let path = hosted
                    .as_ref()
                    .map_or(path, |copy| copy.path().to_path_buf());
                let file = open_text(&path, &shown)?;
                let out = match input.mode {
                    Mode::Slice => {
                        let offset = input.offset.unwrap_or(1).max(1) as u64;
                        read_slice(file, &path, &shown, offset, limit, budget)?
                    }
                    Mode::Indentation => {
                        let opts = input.indentation.unwrap_or_default();
                        let anchor = opts.anchor_line.or(input.offset).unwrap_or(1).max(1);
                        let options = Options {
                            anchor: anchor - 1,
                            max_levels: opts.max_levels.unwrap_or(1),
                            include_siblings: opts.include_siblings,
                        };
                        read_blocks(file, &shown, anchor, options, limit, budget)?
                    }
                };
                Ok(ToolOutput::text(out.text).with_view(ToolView::Read(out.view)))
            })
            .await
        })
    }
}

/// The host's text of `path` in a temp file, when the call has a file host.
fn hosted_copy(path: &Path, shown: &str) -> Result<Option<tempfile::NamedTempFile>, ToolError> {
    let Some(host) = crate::files::host::current() else {
        return Ok(None);
    };
    if path.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "{shown} is a directory; use list_dir"
        )));
    }
    let text = host
        .read_text(path)
        .map_err(|e| ToolError::failed(format!("the editor could not read {shown}: {e}")))?;
    let mut copy = tempfile::NamedTempFile::new()
        .map_err(|e| ToolError::failed(format!("cannot read {shown}: {e}")))?;
    copy.write_all(text.as_bytes())
        .map_err(|e| ToolError::failed(format!("cannot read {shown}: {e}")))?;
    Ok(Some(copy))
}

/// Opens `path` and refuses directories and binary files.
fn open_text(path: &Path, shown: &str) -> Result<File, ToolError> {
    let mut file =
        File::open(path).map_err(|e| ToolError::failed(format!("cannot open {shown}: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| ToolError::failed(format!("cannot stat {shown}: {e}")))?;
    if meta.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "{shown} is a directory; use list_dir"
        )));
    }
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| ToolError::failed(format!("cannot read {shown}: {e}")))?;
    if head.contains(&0) {
        return Err(ToolError::invalid_input(format!(
            "{shown} looks like a binary file ({} bytes, NUL bytes near the start); read_file only reads text",
            meta.len()
        )));
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|e| ToolError::failed(format!("cannot read {shown}: {e}")))?;
    Ok(file)
}

/// The first and last line numbers a result this tool wrote shows. For sessions stored
/// before calls carried views (`memo_engine::views`), the one reader of this text besides
/// the model.
pub fn lines_in_result(output: &str) -> Option<(u32, u32)> {
    let mut numbers = output
        .lines()
        .filter_map(|line| line.split_once('\t')?.0.parse::<u32>().ok());
    let first = numbers.next()?;
    Some((first, numbers.next_back().unwrap_or(first)))
}

fn format_line(out: &mut String, number: u64, raw: &[u8]) {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let text = String::from_utf8_lossy(raw);
    out.push_str(&number.to_string());
    out.push('\t');
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => {
            out.push_str(&text[..cut]);
            out.push_str("… [line truncated]");
        }
        None => out.push_str(&text),
    }
    out.push('\n');
}

fn read_slice(
    file: File,
    path: &Path,
    shown: &str,
    offset: u64,
    limit: usize,
    budget: usize,
) -> Result<Slice, ToolError> {
    let io = |e: std::io::Error| ToolError::failed(format!("cannot read {shown}: {e}"));
    let meta = file.metadata().map_err(io)?;
    let key = FileKey::of(&meta);
    let (line, start) = line_index::nearest(path, key, offset);
    let at = Cursor {
        line,
        pos: start,
        line_start: start,
    };
    // Far targets are found by counting on every core; near ones by the scan below.
    let at = line_seek::jump(&file, path, key, at, offset).map_err(io)?;
    let mut reader = BufReader::with_capacity(BUF_BYTES, file);
    reader.seek(SeekFrom::Start(at.pos)).map_err(io)?;
    let Cursor {
        mut line,
        mut pos,
        line_start,
    } = line_index::skip_to(&mut reader, path, key, at, offset).map_err(io)?;
    let mut out = String::new();
    let mut raw = Vec::new();
    let mut shown_lines = 0usize;
    let mut cut_by_budget = false;
    while shown_lines < limit {
        raw.clear();
        let n = reader.read_until(b'\n', &mut raw).map_err(io)?;
        if n == 0 {
            break;
        }
        let before = out.len();
        format_line(&mut out, line, &raw);
        if out.len() > budget && shown_lines > 0 {
            out.truncate(before);
            cut_by_budget = true;
            break;
        }
        shown_lines += 1;
        line += 1;
        pos += n as u64;
        if (line - 1).is_multiple_of(STRIDE) {
            line_index::record(path, key, line, pos);
        }
    }
    if shown_lines == 0 {
        let total = if pos > line_start { line } else { line - 1 };
        if total == 0 {
            return Ok(Slice {
                text: format!("({shown} is empty)"),
                view: read_view(shown, None, Some(0), false),
            });
        }
        return Err(ToolError::invalid_input(format!(
            "offset {offset} is past the end of {shown}, which has {total} lines"
        )));
    }
    let more = cut_by_budget || !reader.fill_buf().map_err(io)?.is_empty();
    if more {
        line_index::index_rest_in_background(path, key);
    }
    if more {
        let why = if cut_by_budget {
            " (output size limit reached)"
        } else {
            ""
        };
        out.push_str(&format!(
            "… more lines follow{why}; continue with offset {line}\n"
        ));
    }
    let lines = Some((offset as u32, (line - 1) as u32));
    let total = (!more).then_some((line - 1) as u32);
    Ok(Slice {
        text: out,
        view: read_view(shown, lines, total, more),
    })
}

/// What a read returns: the text for the model and what it covered.
struct Slice {
    text: String,
    view: ReadView,
}

fn read_view(
    shown: &str,
    lines: Option<(u32, u32)>,
    total: Option<u32>,
    truncated: bool,
) -> ReadView {
    ReadView {
        path: shown.to_owned(),
        start_line: lines.map(|(first, _)| first),
        end_line: lines.map(|(_, last)| last),
        total_lines: total,
        truncated,
    }
}

fn read_blocks(
    file: File,
    shown: &str,
    anchor: usize,
    options: Options,
    limit: usize,
    budget: usize,
) -> Result<Slice, ToolError> {
    let io = |e: std::io::Error| ToolError::failed(format!("cannot read {shown}: {e}"));
    let len = file.metadata().map_err(io)?.len();
    if len > MAX_INDENTATION_BYTES {
        return Err(ToolError::invalid_input(format!(
            "{shown} is {} MiB; indentation mode reads files up to {} MiB. Use offset/limit around line {anchor}.",
            len / (1024 * 1024),
            MAX_INDENTATION_BYTES / (1024 * 1024)
        )));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    BufReader::new(file).read_to_end(&mut bytes).map_err(io)?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    if anchor > lines.len() {
        return Err(ToolError::invalid_input(format!(
            "anchor_line {anchor} is past the end of {shown}, which has {} lines",
            lines.len()
        )));
    }
    let ranges = indentation::blocks(&lines, options);
    let total = Some(lines.len() as u32);
    if ranges.is_empty() {
        return Ok(Slice {
            text: format!("({shown} has no code around line {anchor})"),
            view: read_view(shown, None, total, false),
        });
    }
    let mut span: Option<(u32, u32)> = None;
    let mut out = String::new();
    let mut count = 0usize;
    let mut prev_end: Option<usize> = None;
    for r in &ranges {
        if prev_end.is_some_and(|e| r.start > e) {
            out.push_str("…\n");
        }
        for i in r.clone() {
            if count >= limit || out.len() > budget {
                out.push_str(&format!(
                    "… block continues; read more with offset {} (slice mode)\n",
                    i + 1
                ));
                return Ok(Slice {
                    text: out,
                    view: read_view(shown, span, total, true),
                });
            }
            format_line(&mut out, i as u64 + 1, lines[i].as_bytes());
            let number = i as u32 + 1;
            span = Some(span.map_or((number, number), |(first, _)| (first, number)));
            count += 1;
        }
        prev_end = Some(r.end);
    }
    Ok(Slice {
        text: out,
        view: read_view(shown, span, total, false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ToolErrorKind;

    fn ctx(dir: &Path) -> ToolContext {
        ToolContext::for_workspace(dir)
    }

    async fn read(dir: &Path, args: serde_json::Value) -> Result<String, ToolError> {
        ReadFileTool.run(ctx(dir), args).await.map(|o| o.content)
    }

    #[tokio::test]
    async fn numbers_lines_and_pages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\r\nthree\nfour\n").unwrap();
        let out = read(
            dir.path(),
            json!({"file_path": "a.txt", "offset": 2, "limit": 2}),
        )
        .await
        .unwrap();
        assert_eq!(
            out,
            "2\ttwo\n3\tthree\n… more lines follow; continue with offset 4\n"
        );
        assert_eq!(lines_in_result(&out), Some((2, 3)));
        let out = read(dir.path(), json!({"file_path": "a.txt", "offset": 4}))
            .await
            .unwrap();
        assert_eq!(out, "4\tfour\n");
        assert_eq!(lines_in_result(&out), Some((4, 4)));
        let err = read(dir.path(), json!({"file_path": "a.txt", "offset": 9}))
            .await
            .unwrap_err();
        assert!(err.message.contains("which has 4 lines"), "{}", err.message);
        std::fs::write(dir.path().join("c.txt"), "a\nb").unwrap();
        let err = read(dir.path(), json!({"file_path": "c.txt", "offset": 5}))
            .await
            .unwrap_err();
        assert!(err.message.contains("which has 2 lines"), "{}", err.message);
        std::fs::write(dir.path().join("e.txt"), "").unwrap();
        let out = read(dir.path(), json!({"file_path": "e.txt"}))
            .await
            .unwrap();
        assert_eq!(out, "(e.txt is empty)");
    }

    #[tokio::test]
    async fn pages_of_a_large_file_use_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let text: String = (1..=150_000).map(|i| format!("row {i}\n")).collect();
        std::fs::write(dir.path().join("big.txt"), &text).unwrap();
        for offset in [70_000u64, 140_001, 65_537, 131_073, 149_999, 3] {
            let out = read(
                dir.path(),
                json!({"file_path": "big.txt", "offset": offset, "limit": 2}),
            )
            .await
            .unwrap();
            let first = out.lines().next().unwrap();
            assert_eq!(first, format!("{offset}\trow {offset}"));
        }
    }

    #[tokio::test]
    async fn far_reads_into_a_file_of_many_megabytes_land_on_the_right_line() {
        // ~13 MB: large enough that a cold jump counts on several threads.
        let dir = tempfile::tempdir().unwrap();
        let total = 1_000_000u64;
        let text: String = (1..=total).map(|i| format!("line {i:>7}\n")).collect();
        std::fs::write(dir.path().join("big.log"), &text).unwrap();
        for offset in [987_654u64, 500_001, 3, 999_999, 12_345] {
            let out = read(
                dir.path(),
                json!({"file_path": "big.log", "offset": offset, "limit": 2}),
            )
            .await
            .unwrap();
            let mut lines = out.lines();
            assert_eq!(lines.next().unwrap(), format!("{offset}\tline {offset:>7}"));
            let next = offset + 1;
            assert_eq!(lines.next().unwrap(), format!("{next}\tline {next:>7}"));
        }
        let err = read(
            dir.path(),
            json!({"file_path": "big.log", "offset": total + 5}),
        )
        .await
        .unwrap_err();
        assert!(
            err.message.contains(&format!("which has {total} lines")),
            "{}",
            err.message
        );
    }

    #[tokio::test]
    async fn long_lines_and_output_budget() {
        let dir = tempfile::tempdir().unwrap();
        let line = "é".repeat(3000);
        let text: String = (0..40).map(|_| format!("{line}\n")).collect();
        std::fs::write(dir.path().join("wide.txt"), text).unwrap();
        let out = read(dir.path(), json!({"file_path": "wide.txt"}))
            .await
            .unwrap();
        assert!(out.contains("… [line truncated]"));
        assert!(
            out.contains("(output size limit reached); continue with offset"),
            "{}",
            &out[out.len() - 200..]
        );
    }

    #[tokio::test]
    async fn indentation_mode_returns_the_enclosing_block() {
        let dir = tempfile::tempdir().unwrap();
        let src = "fn a() {\n    x();\n}\n\nfn b() {\n    if y {\n        z();\n    }\n}\n";
        std::fs::write(dir.path().join("m.rs"), src).unwrap();
        let args =
            json!({"file_path": "m.rs", "mode": "indentation", "indentation": {"anchor_line": 7}});
        assert_eq!(
            read(dir.path(), args).await.unwrap(),
            "6\t    if y {\n7\t        z();\n8\t    }\n"
        );
        let args = json!({"file_path": "m.rs", "mode": "indentation", "indentation": {"anchor_line": 7, "max_levels": 2}});
        assert_eq!(
            read(dir.path(), args).await.unwrap(),
            "5\tfn b() {\n6\t    if y {\n7\t        z();\n8\t    }\n9\t}\n"
        );
        let args =
            json!({"file_path": "m.rs", "mode": "indentation", "indentation": {"anchor_line": 50}});
        assert!(read(dir.path(), args)
            .await
            .unwrap_err()
            .message
            .contains("past the end"));
        let args = json!({"file_path": "m.rs", "indentation": {"anchor_line": 2}});
        assert_eq!(
            read(dir.path(), args).await.unwrap_err().kind,
            ToolErrorKind::InvalidInput
        );
        let args = json!({"file_path": "m.rs", "mode": "outline"});
        assert_eq!(
            read(dir.path(), args).await.unwrap_err().kind,
            ToolErrorKind::InvalidInput
        );
    }

    #[tokio::test]
    async fn refuses_binary_directories_and_bad_arguments() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.bin"), [0u8, 1, 2, 3]).unwrap();
        let err = read(dir.path(), json!({"file_path": "b.bin"}))
            .await
            .unwrap_err();
        assert!(err.message.contains("binary"), "{}", err.message);
        let err = read(dir.path(), json!({"path": "b.bin"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::InvalidInput);
        assert!(err.message.contains("file_path"), "{}", err.message);
        let err = read(dir.path(), json!({"file_path": "."}))
            .await
            .unwrap_err();
        assert!(err.message.contains("directory"), "{}", err.message);
        let err = read(dir.path(), json!({"file_path": "nope.txt"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::ExecutionFailed);
        let err = read(dir.path(), json!({"file_path": "/etc/passwd"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
    }
}
