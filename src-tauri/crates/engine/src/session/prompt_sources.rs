//! Which files the system prompt was built from, and whether any changed since: an edit
//! to SOUL.md or AGENTS.md (in the settings pane or an editor) reaches the session's next
//! request instead of waiting for a new session. Checking costs a few `stat` calls.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use memo_context::WorkspaceContext;
use memo_protocol::PromptReport;

/// Instruction files that change the prompt when they appear, not only when they change.
const CANDIDATES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"];

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct PromptSources {
    files: Vec<(PathBuf, Option<(u64, SystemTime)>)>,
}

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

impl PromptSources {
    /// The report's file sources plus the files whose appearance would add a layer.
    pub fn of(report: Option<&PromptReport>, workspace: Option<&WorkspaceContext>) -> Self {
        let mut paths: Vec<PathBuf> = report
            .into_iter()
            .flat_map(|r| r.layers.iter())
            .flat_map(|l| l.sources.iter())
            .map(|s| PathBuf::from(&s.path))
            .filter(|p| p.is_absolute())
            .collect();
        if let Some(w) = workspace {
            if let Some(home) = &w.memo_home {
                paths.push(home.join("SOUL.md"));
            }
            // The prompt lists the skills (their files are the skills layer's sources, taken
            // above): one added or removed changes a skill folder, one turned on or off
            // config.toml's `active_skills`.
            paths.push(PathBuf::from(&w.config.source));
            paths.extend(w.skill_roots().dirs().into_iter().map(|(dir, _)| dir));
            for dir in [&w.workspace_root, &w.cwd] {
                paths.extend(CANDIDATES.iter().map(|name| dir.join(name)));
            }
        }
        paths.sort();
        paths.dedup();
        Self {
            files: paths
                .into_iter()
                .map(|p| {
                    let s = stamp(&p);
                    (p, s)
                })
                .collect(),
        }
    }

    /// Whether any file changed, appeared or disappeared since this was taken.
    pub fn changed(&self) -> bool {
        self.files.iter().any(|(path, was)| stamp(path) != *was)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_or_new_instruction_file_counts_as_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let soul = dir.path().join("SOUL.md");
        std::fs::write(&soul, "one").unwrap();
        let report = PromptReport {
            cwd: "/".into(),
            workspace_root: "/".into(),
            model: "m".into(),
            token_counter: "estimate:bytes".into(),
            layers: vec![memo_protocol::PromptLayer {
                kind: memo_protocol::PromptLayerKind::Soul,
                title: "SOUL.md".into(),
                sources: vec![memo_protocol::PromptSource {
                    path: soul.display().to_string(),
                    status: memo_protocol::SourceStatus::Loaded,
                    chars: 3,
                    tokens: 1,
                    original_chars: None,
                }],
                content: "one".into(),
                chars: 3,
                tokens: 1,
                tool_count: None,
            }],
            system_chars: 3,
            system_tokens: 1,
            total_tokens: 1,
            problems: Vec::new(),
            turn_override: None,
        };
        let sources = PromptSources::of(Some(&report), None);
        assert!(!sources.changed());
        std::fs::write(&soul, "two, longer").unwrap();
        assert!(sources.changed());
        let sources = PromptSources::of(Some(&report), None);
        std::fs::remove_file(&soul).unwrap();
        assert!(sources.changed());
    }
}
