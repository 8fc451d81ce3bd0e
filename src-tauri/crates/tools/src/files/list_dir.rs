//! `list_dir`: a directory as an indented tree, shallow levels first so a cap on entries
//! never hides a top-level folder behind the contents of the first one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use memo_protocol::{ListView, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::files::fsutil;
use crate::files::walk;
use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

const NAME: &str = "list_dir";
const MAX_ENTRIES: usize = 500;
const MAX_DEPTH: usize = 5;
/// Entries gathered before choosing what to show; bounds the walk of a huge tree.
const MAX_WALKED: usize = 50_000;

pub struct ListDirTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    #[serde(default)]
    dir_path: Option<String>,
    #[serde(default)]
    depth: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Dir,
    File,
    Link,
}

struct Node {
    name: String,
    kind: Kind,
    depth: usize,
}

impl Tool for ListDirTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Lists a directory as a tree (`/` marks folders), `depth` levels deep (default 1, \
         max 5), without .gitignored entries; at most 500 entries."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "dir_path": {"type": "string"},
                "depth": {"type": "integer", "minimum": 1, "maximum": MAX_DEPTH}
            },
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let dir = args.get("dir_path").and_then(|v| v.as_str()).unwrap_or(".");
        ToolView::List(ListView {
            path: fsutil::display_path(&fsutil::real_cwd(&ctx.cwd), &ctx.resolve(dir)),
            entries: None,
            truncated: false,
        })
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move {
            let input: Input = parse_args(NAME, args)?;
            let dir = ctx.readable(input.dir_path.as_deref().unwrap_or("."))?;
            let depth = input.depth.unwrap_or(1).clamp(1, MAX_DEPTH);
            let shown = fsutil::display_path(&fsutil::real_cwd(&ctx.cwd), &dir);
            fsutil::blocking(NAME, move || {
                let (text, entries, truncated) = list(&dir, depth)?;
                let view = ToolView::List(ListView {
                    path: shown,
                    entries: Some(u32::try_from(entries).unwrap_or(u32::MAX)),
                    truncated,
                });
                Ok(ToolOutput::text(text).with_view(view))
            })
            .await
        })
    }
}

/// The listing, how many entries it shows, and whether some were left out.
fn list(dir: &Path, depth: usize) -> Result<(String, usize, bool), ToolError> {
    if !dir.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    let mut nodes: BTreeMap<PathBuf, Node> = BTreeMap::new();
    let mut walked_all = true;
    for entry in walk::builder(dir).max_depth(Some(depth)).build() {
        let Ok(entry) = entry else { continue };
        if entry.depth() == 0 {
            continue;
        }
        if nodes.len() >= MAX_WALKED {
            walked_all = false;
            break;
        }
        let kind = match entry.file_type() {
            Some(t) if t.is_symlink() => Kind::Link,
            Some(t) if t.is_dir() => Kind::Dir,
            _ => Kind::File,
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        nodes.insert(
            entry.path().to_path_buf(),
            Node {
                name,
                kind,
                depth: entry.depth(),
            },
        );
    }
    // Keep whole levels, shallowest first, while they fit.
    let mut shown = 0usize;
    let mut cut_depth = depth + 1;
    for level in 1..=depth {
        let n = nodes.values().filter(|n| n.depth == level).count();
        if shown + n > MAX_ENTRIES {
            cut_depth = level;
            break;
        }
        shown += n;
    }
    // Even the first level does not fit: show its first entries (by name) rather than
    // nothing at all.
    let first_level_only = cut_depth == 1;
    let mut children: BTreeMap<PathBuf, Vec<(&PathBuf, &Node)>> = BTreeMap::new();
    for (path, node) in &nodes {
        let keep = if first_level_only {
            node.depth == 1 && shown < MAX_ENTRIES
        } else {
            node.depth < cut_depth
        };
        if keep {
            if first_level_only {
                shown += 1;
            }
            let parent = path.parent().unwrap_or(dir).to_path_buf();
            children.entry(parent).or_default().push((path, node));
        }
    }
    let mut out = format!("{}/\n", dir.display());
    render(dir, &children, &mut out);
    let hidden = nodes.len() - shown;
    if hidden > 0 || !walked_all {
        out.push_str(&format!(
            "… {}{hidden} more entries at depth {cut_depth} and below not shown; list a subdirectory or lower depth\n",
            if walked_all { "" } else { "at least " }
        ));
    }
    Ok((out, shown, hidden > 0 || !walked_all))
}

fn render(dir: &Path, children: &BTreeMap<PathBuf, Vec<(&PathBuf, &Node)>>, out: &mut String) {
    let Some(kids) = children.get(dir) else {
        return;
    };
    let mut kids = kids.clone();
    // Directories first, then by name, like most file browsers.
    kids.sort_by(|a, b| {
        (a.1.kind != Kind::Dir, &a.1.name).cmp(&(b.1.kind != Kind::Dir, &b.1.name))
    });
    for (path, node) in kids {
        let indent = "  ".repeat(node.depth);
        let mark = match node.kind {
            Kind::Dir => "/",
            Kind::Link => "@",
            Kind::File => "",
        };
        out.push_str(&format!("{indent}{}{mark}\n", node.name));
        if node.kind == Kind::Dir {
            render(path, children, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lists_directories_first_to_depth_respecting_gitignore() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/inner")).unwrap();
        std::fs::create_dir_all(dir.path().join("target/debug")).unwrap();
        std::fs::create_dir_all(dir.path().join(".git/objects")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(dir.path().join("README.md"), "").unwrap();
        std::fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
        std::os::unix::fs::symlink("/", dir.path().join("root")).unwrap();
        let ctx = ToolContext::for_workspace(dir.path());
        let out = ListDirTool
            .run(ctx.clone(), json!({"depth": 2}))
            .await
            .unwrap();
        let body: Vec<&str> = out.content.lines().skip(1).collect();
        assert_eq!(
            body,
            vec![
                "  src/",
                "    inner/",
                "    lib.rs",
                "  .gitignore",
                "  README.md",
                "  root@"
            ]
        );
        let err = ListDirTool
            .run(ctx.clone(), json!({"dir_path": "README.md"}))
            .await
            .unwrap_err();
        assert!(err.message.contains("not a directory"));
        let err = ListDirTool
            .run(ctx, json!({"dir_path": "/"}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, memo_protocol::ToolErrorKind::PolicyDenied);
    }

    #[tokio::test]
    async fn caps_entries_keeping_shallow_levels() {
        let dir = tempfile::tempdir().unwrap();
        for d in 0..3 {
            let sub = dir.path().join(format!("d{d}"));
            std::fs::create_dir(&sub).unwrap();
            for f in 0..300 {
                std::fs::write(sub.join(format!("f{f}")), "").unwrap();
            }
        }
        let ctx = ToolContext::for_workspace(dir.path());
        let out = ListDirTool.run(ctx, json!({"depth": 3})).await.unwrap();
        let body: Vec<&str> = out.content.lines().skip(1).collect();
        assert_eq!(&body[..3], &["  d0/", "  d1/", "  d2/"]);
        assert!(
            body[3].contains("900 more entries at depth 2"),
            "{}",
            body[3]
        );
    }

    #[tokio::test]
    async fn a_flat_directory_larger_than_the_cap_shows_its_first_entries() {
        let dir = tempfile::tempdir().unwrap();
        for f in 0..600 {
            std::fs::write(dir.path().join(format!("f{f:03}")), "").unwrap();
        }
        let ctx = ToolContext::for_workspace(dir.path());
        let out = ListDirTool.run(ctx, json!({})).await.unwrap();
        let body: Vec<&str> = out.content.lines().skip(1).collect();
        assert_eq!(body.len(), MAX_ENTRIES + 1, "{}", out.content);
        assert_eq!(body[0], "  f000");
        assert_eq!(body[MAX_ENTRIES - 1], "  f499");
        assert!(
            body[MAX_ENTRIES].contains("100 more entries"),
            "{}",
            body[MAX_ENTRIES]
        );
    }
}
