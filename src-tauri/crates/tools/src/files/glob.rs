//! `glob`: files whose path matches a glob pattern, newest first (or by name).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use futures::future::BoxFuture;
use globset::{GlobBuilder, GlobMatcher};
use ignore::WalkState;
use memo_protocol::{Location, RiskLevel, SearchView, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::fsutil::{self, display_path, real_cwd};
use crate::files::walk;
use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

const NAME: &str = "glob";
/// How many files a search's view names.
const FIRST_FILES: usize = 5;
const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;
/// Matches gathered before giving up on completeness (a `**/*` over a monorepo).
const MAX_COLLECTED: usize = 100_000;

pub struct GlobTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    sort: Sort,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Sort {
    /// Most recently modified first: what the model is working on tends to be recent.
    #[default]
    Mtime,
    Name,
}

impl Tool for GlobTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Finds files by glob (`*.rs` at any depth, `src/**/*.test.ts` under `path`; \
         `{a,b}` alternates). Skips .gitignored files; newest first (`sort: \"name\"` for \
         alphabetical); at most `limit` (default 100)."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                "sort": {"type": "string", "enum": ["mtime", "name"]}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let text = |key: &str| args.get(key).and_then(|v| v.as_str());
        let root = ctx.resolve(text("path").unwrap_or("."));
        ToolView::Search(SearchView {
            pattern: text("pattern").unwrap_or_default().to_owned(),
            scope: Some(display_path(&real_cwd(&ctx.cwd), &root)),
            matches: None,
            first: Vec::new(),
            truncated: false,
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args(NAME, args)?;
            let root = ctx.readable(input.path.as_deref().unwrap_or("."))?;
            let limit = input.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let matcher = compile(&input.pattern)?;
            let cwd = real_cwd(&ctx.cwd);
            let cancel = ctx.cancel.clone();
            fsutil::blocking(NAME, move || {
                if !root.is_dir() {
                    return Err(ToolError::invalid_input(format!(
                        "{} is not a directory",
                        root.display()
                    )));
                }
                let (mut found, complete) = collect(&root, &matcher, &cancel);
                let total = found.len();
                match input.sort {
                    Sort::Mtime => found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0))),
                    Sort::Name => found.sort_by(|a, b| a.0.cmp(&b.0)),
                }
                let shown_root = display_path(&cwd, &root);
                let view = |first: Vec<Location>, truncated: bool| {
                    ToolView::Search(SearchView {
                        pattern: input.pattern.clone(),
                        scope: Some(shown_root.clone()),
                        matches: Some(u32::try_from(total).unwrap_or(u32::MAX)),
                        first,
                        truncated,
                    })
                };
                if total == 0 {
                    let text = format!("No files match `{}` under {shown_root}", input.pattern);
                    return Ok(ToolOutput::text(text).with_view(view(Vec::new(), !complete)));
                }
                let first = found
                    .iter()
                    .take(FIRST_FILES.min(limit))
                    .map(|(p, _)| Location {
                        path: display_path(&cwd, p),
                        line: None,
                    })
                    .collect();
                let mut out: String = found
                    .iter()
                    .take(limit)
                    .map(|(p, _)| display_path(&cwd, p) + "\n")
                    .collect();
                if total > limit || !complete {
                    out.push_str(&format!(
                        "… {} more files match; narrow the pattern or path, or raise limit\n",
                        if complete {
                            (total - limit).to_string()
                        } else {
                            format!("at least {}", total.saturating_sub(limit))
                        }
                    ));
                }
                Ok(ToolOutput::text(out).with_view(view(first, total > limit || !complete)))
            })
            .await
        })
    }
}

/// How a glob applies: to the file name alone, or to the path below the root.
struct Matcher {
    glob: GlobMatcher,
    name_only: bool,
}

fn compile(pattern: &str) -> Result<Matcher, ToolError> {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return Err(ToolError::invalid_input("pattern is empty"));
    }
    let (pattern, name_only) = match pattern.strip_prefix("./") {
        Some(rest) => (rest, false),
        None => (pattern, !pattern.contains('/')),
    };
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| ToolError::invalid_input(format!("invalid glob `{pattern}`: {e}")))?
        .compile_matcher();
    Ok(Matcher { glob, name_only })
}

type Found = Vec<(PathBuf, SystemTime)>;

fn collect(
    root: &Path,
    matcher: &Matcher,
    cancel: &tokio_util::sync::CancellationToken,
) -> (Found, bool) {
    let found: Mutex<Found> = Mutex::new(Vec::new());
    let complete = std::sync::atomic::AtomicBool::new(true);
    walk::builder(root).build_parallel().run(|| {
        Box::new(|entry| {
            if cancel.is_cancelled() {
                complete.store(false, std::sync::atomic::Ordering::Relaxed);
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            let path = entry.path();
            let hit = if matcher.name_only {
                matcher.glob.is_match(entry.file_name())
            } else {
                path.strip_prefix(root)
                    .is_ok_and(|rel| matcher.glob.is_match(rel))
            };
            if !hit {
                return WalkState::Continue;
            }
            let mtime = entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            let Ok(mut found) = found.lock() else {
                return WalkState::Quit;
            };
            found.push((path.to_path_buf(), mtime));
            if found.len() >= MAX_COLLECTED {
                complete.store(false, std::sync::atomic::Ordering::Relaxed);
                return WalkState::Quit;
            }
            WalkState::Continue
        })
    });
    let found = found.into_inner().unwrap_or_default();
    (found, complete.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn touch(path: &Path, secs_ago: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
        let t = SystemTime::now() - Duration::from_secs(secs_ago);
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[tokio::test]
    async fn matches_names_and_paths_sorted_by_mtime_or_name() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(&d.join("src/a.rs"), 300);
        touch(&d.join("src/deep/b.rs"), 10);
        touch(&d.join("c.rs"), 100);
        touch(&d.join("notes.md"), 1);
        touch(&d.join("target/gen.rs"), 1);
        std::fs::write(d.join(".gitignore"), "target/\n").unwrap();
        let ctx = ToolContext::for_workspace(d);
        let out = GlobTool
            .run(ctx.clone(), json!({"pattern": "*.rs"}))
            .await
            .unwrap();
        assert_eq!(out.content, "src/deep/b.rs\nc.rs\nsrc/a.rs\n");
        let out = GlobTool
            .run(ctx.clone(), json!({"pattern": "src/*.rs", "sort": "name"}))
            .await
            .unwrap();
        assert_eq!(out.content, "src/a.rs\n");
        let out = GlobTool
            .run(
                ctx.clone(),
                json!({"pattern": "**/*.rs", "sort": "name", "limit": 2}),
            )
            .await
            .unwrap();
        assert_eq!(
            out.content,
            "c.rs\nsrc/a.rs\n… 1 more files match; narrow the pattern or path, or raise limit\n"
        );
        let out = GlobTool
            .run(ctx.clone(), json!({"pattern": "*.py"}))
            .await
            .unwrap();
        assert_eq!(out.content, "No files match `*.py` under .");
    }

    #[tokio::test]
    async fn bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        for (args, kind) in [
            (
                json!({"pattern": "a[b"}),
                memo_protocol::ToolErrorKind::InvalidInput,
            ),
            (
                json!({"pattern": " "}),
                memo_protocol::ToolErrorKind::InvalidInput,
            ),
            (json!({}), memo_protocol::ToolErrorKind::InvalidInput),
            (
                json!({"pattern": "*", "sort": "size"}),
                memo_protocol::ToolErrorKind::InvalidInput,
            ),
            (
                json!({"pattern": "*", "path": "/etc"}),
                memo_protocol::ToolErrorKind::PolicyDenied,
            ),
        ] {
            let err = GlobTool.run(ctx.clone(), args.clone()).await.unwrap_err();
            assert_eq!(err.kind, kind, "{args}: {}", err.message);
        }
    }
}
