//! The Markdown files that become layers 2 and 3: the Memo home's bootstrap files
//! (SOUL.md, AGENTS.md, TOOLS.md, IDENTITY.md, USER.md, HEARTBEAT.md, BOOTSTRAP.md,
//! MEMORY.md) and the project's AGENTS.md chain from the workspace root down to the cwd,
//! with CLAUDE.md / GEMINI.md and configured `context_files`. Every file is loaded once
//! (by real path), stripped of front matter and held to the per-file budget.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use memo_protocol::SourceStatus;

use crate::environment::chain;
use crate::text::{
    apply_budget, file_id, is_effectively_empty, split_front_matter, FileId, FILE_BUDGET_CHARS,
};

/// The home's bootstrap files after SOUL.md, in prompt order.
pub const HOME_FILES: &[&str] = &[
    "AGENTS.md",
    "TOOLS.md",
    "IDENTITY.md",
    "USER.md",
    "HEARTBEAT.md",
    "BOOTSTRAP.md",
    "MEMORY.md",
];
/// What a subagent receives: project rules and tool notes, not the user's persona.
pub const SUBAGENT_HOME_FILES: &[&str] = &["AGENTS.md", "TOOLS.md"];
/// Looked for in every directory from the workspace root to the cwd.
pub const PROJECT_FILES: &[&str] = &["AGENTS.md", "CLAUDE.md", "GEMINI.md"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextFile {
    pub name: String,
    /// `Memo home`, or the directory relative to the workspace root (`crates/engine`).
    pub scope: Option<String>,
    pub path: PathBuf,
    pub status: SourceStatus,
    /// Empty for missing and empty files.
    pub content: String,
    pub original_chars: Option<usize>,
}

/// Remembers real paths so a file reachable twice (CLAUDE.md symlinked to AGENTS.md, a
/// project opened at the Memo home) is loaded once.
#[derive(Default)]
pub struct Seen(HashSet<FileId>);

impl Seen {
    fn first_time(&mut self, path: &Path) -> bool {
        self.0.insert(file_id(path))
    }
}

/// Reads one file; `None` when it does not exist (or was already loaded).
pub fn load(
    path: &Path,
    name: &str,
    scope: Option<String>,
    seen: &mut Seen,
) -> Option<ContextFile> {
    if !path.is_file() || !seen.first_time(path) {
        return None;
    }
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => return None,
    };
    let body = match split_front_matter(&text) {
        Ok(parts) => parts.body.to_owned(),
        Err(_) => text,
    };
    let body = body.trim();
    if is_effectively_empty(body) {
        return Some(ContextFile {
            name: name.to_owned(),
            scope,
            path: path.to_path_buf(),
            status: SourceStatus::Empty,
            content: String::new(),
            original_chars: None,
        });
    }
    let budgeted = apply_budget(body, FILE_BUDGET_CHARS, &path.display().to_string());
    Some(ContextFile {
        name: name.to_owned(),
        scope,
        path: path.to_path_buf(),
        status: if budgeted.trimmed_from.is_some() {
            SourceStatus::Trimmed
        } else {
            SourceStatus::Loaded
        },
        content: budgeted.text,
        original_chars: budgeted.trimmed_from,
    })
}

fn missing(path: PathBuf, name: &str, scope: Option<String>) -> ContextFile {
    ContextFile {
        name: name.to_owned(),
        scope,
        path,
        status: SourceStatus::Missing,
        content: String::new(),
        original_chars: None,
    }
}

/// SOUL.md of the Memo home (layer 2).
pub fn soul(memo_home: &Path, seen: &mut Seen) -> Option<ContextFile> {
    load(
        &memo_home.join("SOUL.md"),
        "SOUL.md",
        Some("Memo home".into()),
        seen,
    )
}

/// The home's bootstrap files (start of layer 3). MEMORY.md and memory.md are both
/// accepted; on a case-insensitive filesystem they are one file.
pub fn home_files(memo_home: &Path, names: &[&str], seen: &mut Seen) -> Vec<ContextFile> {
    let scope = || Some("Memo home".to_owned());
    let mut out = Vec::new();
    for name in names {
        if let Some(file) = load(&memo_home.join(name), name, scope(), seen) {
            out.push(file);
        }
        if *name == "MEMORY.md" {
            if let Some(file) = load(&memo_home.join("memory.md"), "memory.md", scope(), seen) {
                out.push(file);
            }
        }
    }
    out
}

/// The project's files (rest of layer 3), root first so deeper files come later and win.
pub fn project_files(
    root: &Path,
    cwd: &Path,
    configured: &[String],
    also: &[String],
    seen: &mut Seen,
) -> Vec<ContextFile> {
    let (paths, names): (Vec<&String>, Vec<&String>) = configured
        .iter()
        .partition(|f| f.contains('/') || f.contains('\\'));
    let mut out = Vec::new();
    let mut found_names = HashSet::new();
    for dir in chain(root, cwd) {
        let scope = match dir.strip_prefix(root) {
            Ok(rel) if rel.as_os_str().is_empty() => None,
            Ok(rel) => Some(rel.display().to_string()),
            Err(_) => None,
        };
        // `also`: other agents' names for their instruction file, looked for the same way.
        let all_names = PROJECT_FILES
            .iter()
            .copied()
            .chain(also.iter().map(|s| s.as_str()))
            .chain(names.iter().map(|s| s.as_str()));
        for name in all_names {
            let path = dir.join(name);
            if path.is_file() {
                found_names.insert(name.to_owned());
            }
            if let Some(file) = load(&path, name, scope.clone(), seen) {
                out.push(file);
            }
        }
    }
    for name in names {
        if !found_names.contains(name.as_str()) {
            out.push(missing(root.join(name), name, None));
        }
    }
    for rel in paths {
        let path = if Path::new(rel).is_absolute() {
            PathBuf::from(rel)
        } else {
            root.join(rel)
        };
        let name = Path::new(rel)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| rel.clone());
        match load(&path, &name, Some(rel.clone()), seen) {
            Some(file) => out.push(file),
            None if !path.is_file() => out.push(missing(path, &name, Some(rel.clone()))),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_files_come_root_first_and_missing_configured_files_are_marked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("AGENTS.md"), "root rules").unwrap();
        std::fs::write(root.join("a/b/AGENTS.md"), "---\ntitle: x\n---\ndeep rules").unwrap();
        std::fs::write(root.join("a/CONTEXT.md"), "ctx").unwrap();
        let configured = vec![
            "CONTEXT.md".to_owned(),
            "NOPE.md".to_owned(),
            "docs/spec.md".to_owned(),
        ];
        let files = project_files(
            root,
            &root.join("a/b"),
            &configured,
            &[],
            &mut Seen::default(),
        );
        let summary: Vec<(String, Option<String>, SourceStatus, String)> = files
            .iter()
            .map(|f| (f.name.clone(), f.scope.clone(), f.status, f.content.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "AGENTS.md".into(),
                    None,
                    SourceStatus::Loaded,
                    "root rules".into()
                ),
                (
                    "CONTEXT.md".into(),
                    Some("a".into()),
                    SourceStatus::Loaded,
                    "ctx".into()
                ),
                (
                    "AGENTS.md".into(),
                    Some("a/b".into()),
                    SourceStatus::Loaded,
                    "deep rules".into()
                ),
                ("NOPE.md".into(), None, SourceStatus::Missing, String::new()),
                (
                    "spec.md".into(),
                    Some("docs/spec.md".into()),
                    SourceStatus::Missing,
                    String::new()
                ),
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_claude_md_is_loaded_once_and_memory_variants_are_deduplicated() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("AGENTS.md"), "rules").unwrap();
        std::os::unix::fs::symlink(root.join("AGENTS.md"), root.join("CLAUDE.md")).unwrap();
        let files = project_files(root, root, &[], &[], &mut Seen::default());
        assert_eq!(files.len(), 1);

        std::fs::write(root.join("MEMORY.md"), "m").unwrap();
        std::os::unix::fs::symlink(root.join("MEMORY.md"), root.join("memory.md")).unwrap();
        let home = home_files(root, &["MEMORY.md"], &mut Seen::default());
        assert_eq!(home.len(), 1);
    }

    #[test]
    fn comment_only_files_are_empty_and_large_ones_trimmed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("USER.md"), "<!-- fill me -->\n").unwrap();
        std::fs::write(
            dir.path().join("TOOLS.md"),
            "x".repeat(FILE_BUDGET_CHARS + 10),
        )
        .unwrap();
        let files = home_files(dir.path(), HOME_FILES, &mut Seen::default());
        assert_eq!(files[0].name, "TOOLS.md");
        assert_eq!(files[0].status, SourceStatus::Trimmed);
        assert_eq!(files[0].original_chars, Some(FILE_BUDGET_CHARS + 10));
        assert_eq!(files[1].name, "USER.md");
        assert_eq!(files[1].status, SourceStatus::Empty);
    }
}
