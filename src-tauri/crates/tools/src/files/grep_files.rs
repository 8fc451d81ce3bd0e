//! `grep_files`: regex search over the workspace with ripgrep's own engine (`grep-regex`,
//! `grep-searcher`) on the parallel, gitignore-aware walker of the `ignore` crate.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use futures::future::BoxFuture;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::overrides::OverrideBuilder;
use ignore::WalkState;
use memo_protocol::{Location, RiskLevel, SearchView, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::fsutil::{self, display_path, real_cwd};
use crate::files::walk;
use crate::truncate::max_chars_from_env;
use crate::{parse_args, ReadDenials, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

const NAME: &str = "grep_files";
const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 2000;
const MAX_CONTEXT: usize = 10;
/// Matched lines are cut here: a minified bundle's one line is not worth 12k characters.
const MAX_LINE_CHARS: usize = 400;
/// Matches gathered before the search stops early; beyond this the answer is "too many"
/// whatever they are, so there is no point reading the rest of the tree.
const MIN_HARD_CAP: usize = 2000;
/// Room under the engine's output cap for the summary and hint.
const CAP_MARGIN: usize = 600;

pub struct GrepFilesTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    include: Option<String>,
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    context: Option<usize>,
    #[serde(default)]
    case_insensitive: bool,
}

impl Tool for GrepFilesTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Searches file contents with a Rust regex (escape `(`, `{`, `.` for literal text). \
         Prints `N:line` per match, by file. Narrow with `include` (`*.rs`, `!*_test.go`) \
         or `path`. Skips .gitignored and binary files."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string"},
                "include": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                "context": {"type": "integer", "minimum": 0, "maximum": MAX_CONTEXT},
                "case_insensitive": {"type": "boolean"}
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
        let cwd = real_cwd(&ctx.cwd);
        let root = display_path(&cwd, &ctx.resolve(text("path").unwrap_or(".")));
        ToolView::Search(SearchView {
            pattern: text("pattern").unwrap_or_default().to_owned(),
            scope: Some(scope_of(&root, text("include"))),
            matches: None,
            first: Vec::new(),
            truncated: false,
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args(NAME, args)?;
            let root = ctx.readable(input.path.as_deref().unwrap_or("."))?;
            let cwd = real_cwd(&ctx.cwd);
            let cancel = ctx.cancel.clone();
            let budget = max_chars_from_env().saturating_sub(CAP_MARGIN).max(1000);
            let denials = ctx.read_denials.clone();
            fsutil::blocking(NAME, move || {
                let search = Search::new(&input, &root)?;
                let found = search.run(&root, &cancel, &denials);
                let mut text = render(&found, &search, &input.pattern, &cwd, &root, budget);
                let view = search_view(&input, &found, search.limit, &cwd, &root);
                if found.denied > 0 {
                    text.push_str(&format!(
                        "\n\n{} file(s) not searched: a rule denies reading them.",
                        found.denied
                    ));
                }
                Ok(ToolOutput::text(text).with_view(view))
            })
            .await
        })
    }
}

/// How many matches a search's view names.
const FIRST_MATCHES: usize = 5;

fn search_view(input: &Input, found: &Found, limit: usize, cwd: &Path, root: &Path) -> ToolView {
    let first = found
        .files
        .iter()
        .flat_map(|f| {
            let path = display_path(cwd, &f.path);
            f.match_lines.iter().map(move |line| Location {
                path: path.clone(),
                line: u32::try_from(*line).ok(),
            })
        })
        .take(FIRST_MATCHES)
        .collect();
    ToolView::Search(SearchView {
        pattern: input.pattern.clone(),
        scope: Some(scope_of(&display_path(cwd, root), input.include.as_deref())),
        matches: Some(u32::try_from(found.total).unwrap_or(u32::MAX)),
        first,
        truncated: !found.complete || found.total > limit,
    })
}

/// What a result this tool wrote says it found: the number of matching lines and the
/// first few with their file and line. For sessions stored before calls carried views
/// (`memo_engine::views`), the one reader of this text besides the model.
pub fn matches_in_result(output: &str) -> (Option<u32>, Vec<Location>) {
    let mut first = Vec::new();
    let mut file: Option<&str> = None;
    for line in output.lines() {
        if line.is_empty() || line == "--" {
            if line.is_empty() {
                file = None;
            }
            continue;
        }
        let number = line
            .split_once(':')
            .and_then(|(n, _)| n.parse::<u32>().ok());
        let context = line
            .split_once('-')
            .and_then(|(n, _)| n.parse::<u32>().ok());
        match (file, number, context) {
            (Some(path), Some(number), _) if first.len() < FIRST_MATCHES => {
                first.push(Location {
                    path: path.to_owned(),
                    line: Some(number),
                });
            }
            (Some(_), Some(_), _) => {}
            (Some(_), None, Some(_)) => {}
            (None, ..) if !line.starts_with('(') && !line.starts_with('<') => file = Some(line),
            _ => {}
        }
    }
    // "(3 matching lines in 2 files)" or "(showing 5 of 12 matching lines, …)".
    let total = output.lines().rev().find_map(|line| {
        let inner = line.strip_prefix('(')?;
        let inner = match inner.strip_prefix("showing ") {
            Some(rest) => rest.split_once(" of ")?.1,
            None => inner,
        };
        let inner = inner.strip_prefix("at least ").unwrap_or(inner);
        inner.split_whitespace().next()?.parse::<u32>().ok()
    });
    (total, first)
}

/// `src` or `src (*.rs)`: where a search looks.
fn scope_of(path: &str, include: Option<&str>) -> String {
    match include.map(str::trim).filter(|g| !g.is_empty()) {
        Some(glob) => format!("{path} ({glob})"),
        None => path.to_owned(),
    }
}

struct Search {
    matcher: RegexMatcher,
    overrides: Option<ignore::overrides::Override>,
    limit: usize,
    context: usize,
    hard_cap: usize,
}

/// One file's matches, already formatted.
struct FileHits {
    path: PathBuf,
    match_lines: Vec<u64>,
    /// (is a match, formatted line)
    lines: Vec<(bool, String)>,
}

struct Found {
    files: Vec<FileHits>,
    /// Matches counted (a lower bound when `complete` is false).
    total: usize,
    complete: bool,
    /// Files left out because a read-deny rule covers them.
    denied: usize,
}

impl Search {
    fn new(input: &Input, root: &Path) -> Result<Self, ToolError> {
        if input.pattern.is_empty() {
            return Err(ToolError::invalid_input("pattern is empty"));
        }
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(input.case_insensitive)
            .line_terminator(Some(b'\n'))
            .build(&input.pattern)
            .map_err(|e| {
                ToolError::invalid_input(format!(
                    "invalid regex `{}`: {e}. Escape special characters for a literal search.",
                    input.pattern
                ))
            })?;
        let overrides = match input.include.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(glob) => {
                let base = if root.is_dir() {
                    root
                } else {
                    root.parent().unwrap_or(root)
                };
                let mut b = OverrideBuilder::new(base);
                b.add(glob).map_err(|e| {
                    ToolError::invalid_input(format!("invalid include glob `{glob}`: {e}"))
                })?;
                Some(b.build().map_err(|e| {
                    ToolError::invalid_input(format!("invalid include glob `{glob}`: {e}"))
                })?)
            }
        };
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
        Ok(Self {
            matcher,
            overrides,
            limit,
            context: input.context.unwrap_or(0).min(MAX_CONTEXT),
            hard_cap: (limit * 10).max(MIN_HARD_CAP),
        })
    }

    fn run(
        &self,
        root: &Path,
        cancel: &tokio_util::sync::CancellationToken,
        denials: &ReadDenials,
    ) -> Found {
        let files: Mutex<Vec<FileHits>> = Mutex::new(Vec::new());
        let total = AtomicUsize::new(0);
        let denied = AtomicUsize::new(0);
        let rules = denials.current();
        let complete = AtomicBool::new(true);
        let mut builder = walk::builder(root);
        if let Some(o) = &self.overrides {
            builder.overrides(o.clone());
        }
        builder.build_parallel().run(|| {
            let mut searcher = SearcherBuilder::new()
                .line_number(true)
                .before_context(self.context)
                .after_context(self.context)
                .binary_detection(BinaryDetection::quit(0))
                .build();
            let (files, total, complete, denied) = (&files, &total, &complete, &denied);
            let rules = &rules;
            Box::new(move |entry| {
                if cancel.is_cancelled() {
                    complete.store(false, Ordering::Relaxed);
                    return WalkState::Quit;
                }
                let Ok(entry) = entry else {
                    return WalkState::Continue;
                };
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    return WalkState::Continue;
                }
                // The root is a real path, so only a symlink needs resolving.
                if !rules.is_empty()
                    && (rules.iter().any(|r| r.matches(entry.path()))
                        || (entry.path_is_symlink() && denials.denying(entry.path()).is_some()))
                {
                    denied.fetch_add(1, Ordering::Relaxed);
                    return WalkState::Continue;
                }
                let mut sink = Collect {
                    lines: Vec::new(),
                    match_lines: Vec::new(),
                    matches: 0,
                    max: self.limit,
                };
                // Unreadable files are skipped, as ripgrep does without --debug.
                let _ = searcher.search_path(&self.matcher, entry.path(), &mut sink);
                if sink.matches == 0 {
                    return WalkState::Continue;
                }
                if sink.matches >= self.limit {
                    // The file's own count stopped at the limit: the total is a floor.
                    complete.store(false, Ordering::Relaxed);
                }
                let seen = total.fetch_add(sink.matches, Ordering::Relaxed) + sink.matches;
                if let Ok(mut f) = files.lock() {
                    f.push(FileHits {
                        path: entry.into_path(),
                        lines: sink.lines,
                        match_lines: sink.match_lines,
                    });
                }
                if seen >= self.hard_cap {
                    complete.store(false, Ordering::Relaxed);
                    return WalkState::Quit;
                }
                WalkState::Continue
            })
        });
        let mut files = files.into_inner().unwrap_or_default();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Found {
            files,
            total: total.into_inner(),
            complete: complete.into_inner(),
            denied: denied.into_inner(),
        }
    }
}

/// Collects one file's matches and context lines as `N:text` / `N-text` / `--`.
struct Collect {
    lines: Vec<(bool, String)>,
    /// The line numbers of the matches, in order.
    match_lines: Vec<u64>,
    matches: usize,
    /// Stop reading a file once it alone fills the whole answer.
    max: usize,
}

fn line_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

impl Sink for Collect {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        let n = mat.line_number().unwrap_or(0);
        self.lines
            .push((true, format!("{n}:{}", line_text(mat.bytes()))));
        self.match_lines.push(n);
        self.matches += 1;
        Ok(self.matches < self.max)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, Self::Error> {
        let n = ctx.line_number().unwrap_or(0);
        self.lines
            .push((false, format!("{n}-{}", line_text(ctx.bytes()))));
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, Self::Error> {
        self.lines.push((false, "--".to_owned()));
        Ok(true)
    }
}

fn render(
    found: &Found,
    search: &Search,
    pattern: &str,
    cwd: &Path,
    root: &Path,
    budget: usize,
) -> String {
    if found.files.is_empty() {
        return format!(
            "No matches for `{pattern}` under {}",
            display_path(cwd, root)
        );
    }
    let mut out = String::new();
    let mut shown = 0usize;
    let mut files_shown = 0usize;
    let mut cut = false;
    'files: for f in &found.files {
        if shown >= search.limit {
            cut = true;
            break;
        }
        let header = format!("{}\n", display_path(cwd, &f.path));
        if out.len() + header.len() > budget {
            cut = true;
            break;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&header);
        files_shown += 1;
        for (is_match, line) in &f.lines {
            let is_match = *is_match;
            if is_match && shown >= search.limit {
                cut = true;
                break 'files;
            }
            if out.len() + line.len() + 1 > budget {
                cut = true;
                break 'files;
            }
            out.push_str(line);
            out.push('\n');
            if is_match {
                shown += 1;
            }
        }
        // Trailing context of a group cut at the limit is noise; a lone `--` too.
        while out.ends_with("--\n") {
            out.truncate(out.len() - 3);
        }
    }
    let files = found.files.len();
    let total = if found.complete {
        found.total.to_string()
    } else {
        format!("at least {}", found.total)
    };
    if cut || !found.complete || shown < found.total {
        out.push_str(&format!(
            "\n(showing {shown} of {total} matching lines, in {files_shown} of {}{files} files)\n",
            if found.complete { "" } else { "at least " }
        ));
        out.push_str(&format!(
            "<system_hint type=\"too_many_results\" tool=\"grep_files\" shown=\"{shown}\" total=\"{total}\">\
Too many results. Narrow the search: a smaller directory (path), a file filter (include), or a more specific pattern or keyword.\
</system_hint>\n"
        ));
    } else {
        out.push_str(&format!("\n({total} matching lines in {files} files)\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ToolErrorKind;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::create_dir_all(d.join("target")).unwrap();
        std::fs::write(d.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(
            d.join("src/a.rs"),
            "fn alpha() {}\nlet x = 1;\nfn beta() {}\n",
        )
        .unwrap();
        std::fs::write(d.join("src/b.ts"), "function alpha() {}\n").unwrap();
        std::fs::write(d.join("target/gen.rs"), "fn alpha() {}\n").unwrap();
        std::fs::write(d.join("bin.dat"), b"fn alpha\0\x01\x02").unwrap();
        dir
    }

    async fn grep(dir: &Path, args: serde_json::Value) -> Result<String, ToolError> {
        GrepFilesTool
            .run(ToolContext::for_workspace(dir), args)
            .await
            .map(|o| o.content)
    }

    #[tokio::test]
    async fn finds_matches_grouped_by_file_skipping_ignored_and_binary() {
        let dir = tree();
        let out = grep(dir.path(), json!({"pattern": "alpha"})).await.unwrap();
        assert_eq!(
            out,
            "src/a.rs\n1:fn alpha() {}\n\nsrc/b.ts\n1:function alpha() {}\n\n(2 matching lines in 2 files)\n"
        );
        let at = |path: &str, line| Location {
            path: path.into(),
            line: Some(line),
        };
        assert_eq!(
            matches_in_result(&out),
            (Some(2), vec![at("src/a.rs", 1), at("src/b.ts", 1)])
        );
        let out = grep(
            dir.path(),
            json!({"pattern": "ALPHA", "include": "*.rs", "case_insensitive": true, "context": 1}),
        )
        .await
        .unwrap();
        assert_eq!(
            out,
            "src/a.rs\n1:fn alpha() {}\n2-let x = 1;\n\n(1 matching lines in 1 files)\n"
        );
        assert_eq!(matches_in_result(&out), (Some(1), vec![at("src/a.rs", 1)]));
        let out = grep(
            dir.path(),
            json!({"pattern": "fn \\w+", "path": "src/a.rs"}),
        )
        .await
        .unwrap();
        assert!(
            out.starts_with("src/a.rs\n1:fn alpha() {}\n3:fn beta() {}\n"),
            "{out}"
        );
        let out = grep(dir.path(), json!({"pattern": "zzz"})).await.unwrap();
        assert_eq!(out, "No matches for `zzz` under .");
    }

    #[tokio::test]
    async fn too_many_results_ask_to_narrow() {
        let dir = tempfile::tempdir().unwrap();
        let text: String = (0..50).map(|i| format!("match {i}\n")).collect();
        for f in 0..5 {
            std::fs::write(dir.path().join(format!("f{f}.txt")), &text).unwrap();
        }
        let out = grep(dir.path(), json!({"pattern": "match", "limit": 60}))
            .await
            .unwrap();
        assert!(out.contains("f0.txt\n1:match 0\n"), "{out}");
        assert!(out.contains("f1.txt\n1:match 0\n"));
        assert!(!out.contains("f2.txt"));
        assert!(
            out.contains("(showing 60 of 250 matching lines, in 2 of 5 files)"),
            "{out}"
        );
        assert!(out.contains("<system_hint type=\"too_many_results\" tool=\"grep_files\" shown=\"60\" total=\"250\">"));
    }

    #[tokio::test]
    async fn bad_input() {
        let dir = tree();
        for (args, kind) in [
            (json!({"pattern": "fn ("}), ToolErrorKind::InvalidInput),
            (json!({"pattern": ""}), ToolErrorKind::InvalidInput),
            (
                json!({"pattern": "a", "include": "{"}),
                ToolErrorKind::InvalidInput,
            ),
            (
                json!({"pattern": "a", "limit": "x"}),
                ToolErrorKind::InvalidInput,
            ),
            (
                json!({"pattern": "a", "path": "/etc"}),
                ToolErrorKind::PolicyDenied,
            ),
            (json!({"regex": "a"}), ToolErrorKind::InvalidInput),
        ] {
            let err = grep(dir.path(), args.clone()).await.unwrap_err();
            assert_eq!(err.kind, kind, "{args}: {}", err.message);
        }
    }
}
