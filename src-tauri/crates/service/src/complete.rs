//! Suggestions for the composer: `/commands` (built-in, the folder's and the user's custom
//! ones, a live session's MCP prompts), `@paths` of the workspace (gitignore-aware) and
//! `$skills` that are enabled.

use std::path::Path;

use memo_engine::context::command_files::CommandFiles;
use memo_engine::context::slash::Builtin;
use memo_engine::context::{workspace_root, CommandFileRoots};
use memo_protocol::{Completion, CompletionKind, SessionId, SkillScopeKind};

use crate::error::{Result, ServiceError};
use crate::service::Service;

/// Entries looked at for `@` before giving up: a huge tree must not stall typing.
const MAX_WALK: usize = 20_000;

/// How well `candidate` matches what was typed: a prefix beats a word start beats a
/// substring; `None` when it does not match at all.
fn rank(candidate: &str, typed: &str) -> Option<u8> {
    if typed.is_empty() {
        return Some(2);
    }
    let candidate = candidate.to_lowercase();
    let typed = typed.to_lowercase();
    if candidate.starts_with(&typed) {
        Some(0)
    } else if candidate
        .split(['/', '-', '_', '.', ':', ' '])
        .any(|part| part.starts_with(&typed))
    {
        Some(1)
    } else if candidate.contains(&typed) {
        Some(2)
    } else {
        None
    }
}

fn best(mut found: Vec<(u8, Completion)>, limit: usize) -> Vec<Completion> {
    found.sort_by(|(a, x), (b, y)| {
        a.cmp(b)
            .then(x.value.len().cmp(&y.value.len()))
            .then(x.value.cmp(&y.value))
    });
    found.into_iter().take(limit).map(|(_, c)| c).collect()
}

impl Service {
    /// Suggestions of `kind` for `typed` (the word after the sigil), best first.
    pub fn complete(
        &self,
        cwd: &Path,
        session: Option<&SessionId>,
        kind: CompletionKind,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<Completion>> {
        let cwd = std::fs::canonicalize(cwd).map_err(|e| ServiceError::io(cwd.display(), e))?;
        let limit = limit.clamp(1, 100);
        Ok(match kind {
            CompletionKind::Command => self.complete_commands(&cwd, session, typed, limit)?,
            CompletionKind::Path => complete_paths(&cwd, typed, limit),
            CompletionKind::Skill => self.complete_skills(&cwd, typed, limit)?,
        })
    }

    fn complete_commands(
        &self,
        cwd: &Path,
        session: Option<&SessionId>,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<Completion>> {
        let mut found = Vec::new();
        let mut add = |name: String, detail: Option<String>| {
            if let Some(r) = rank(&name, typed) {
                found.push((
                    r,
                    Completion {
                        kind: CompletionKind::Command,
                        value: format!("/{name}"),
                        detail,
                    },
                ));
            }
        };
        for builtin in Builtin::ALL {
            let usage = builtin.usage();
            let detail = usage.split_once(" — ").map(|(_, d)| d.to_owned());
            add(builtin.name().to_owned(), detail);
        }
        let home = self.home()?.root().to_path_buf();
        let user_home = self.user_home();
        let roots = CommandFileRoots {
            plugins: memo_plugins::session_dirs(memo_plugins::Homes {
                memo: Some(&home),
                user: user_home.as_deref(),
                folder: Some(cwd),
            })
            .commands,
            memo_home: Some(home),
            user_home,
            project_root: Some(workspace_root(cwd)),
        };
        for command in CommandFiles::discover(&roots).iter() {
            add(command.name.clone(), command.description.clone());
        }
        for (name, detail) in session
            .map(|id| self.live_mcp_prompts(id))
            .unwrap_or_default()
        {
            add(name, detail);
        }
        Ok(best(found, limit))
    }

    fn complete_skills(&self, cwd: &Path, typed: &str, limit: usize) -> Result<Vec<Completion>> {
        let page = self.list_skills(Some(cwd))?;
        let found = page
            .skills
            .into_iter()
            .filter(|s| s.enabled)
            .filter_map(|s| {
                let key = s
                    .name
                    .trim()
                    .to_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join("-");
                let r = rank(&key, typed)?;
                let scope = match s.scope {
                    SkillScopeKind::User => "",
                    SkillScopeKind::Project => " (project)",
                    SkillScopeKind::OtherAgent => " (other agent)",
                    SkillScopeKind::Plugin => " (plugin)",
                    SkillScopeKind::Builtin => " (built in)",
                };
                Some((
                    r,
                    Completion {
                        kind: CompletionKind::Skill,
                        value: format!("${key}"),
                        detail: Some(format!("{}{scope}", s.description)),
                    },
                ))
            })
            .collect();
        Ok(best(found, limit))
    }
}

/// Files and folders under the workspace whose relative path matches; folders end in `/`.
fn complete_paths(cwd: &Path, typed: &str, limit: usize) -> Vec<Completion> {
    let mut found = Vec::new();
    let walk = memo_engine::tools::files::walk::builder(cwd).build();
    for entry in walk.flatten().take(MAX_WALK) {
        let Ok(relative) = entry.path().strip_prefix(cwd) else {
            continue;
        };
        if relative.as_os_str().is_empty() {
            continue;
        }
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        let mut shown = relative.to_string_lossy().replace('\\', "/");
        if is_dir {
            shown.push('/');
        }
        if let Some(r) = rank(&shown, typed) {
            // Shallow paths first among equals: `src/` before `src/a/b/c.rs`.
            let depth = shown.trim_end_matches('/').matches('/').count().min(9) as u8;
            found.push((
                r * 10 + depth,
                Completion {
                    kind: CompletionKind::Path,
                    value: format!("@{shown}"),
                    detail: is_dir.then(|| "folder".to_owned()),
                },
            ));
        }
    }
    best(found, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_beat_word_starts_beat_substrings() {
        assert_eq!(rank("review", "rev"), Some(0));
        assert_eq!(rank("openspec:proposal", "prop"), Some(1));
        assert_eq!(rank("preview", "view"), Some(2));
        assert_eq!(rank("help", "xyz"), None);
    }

    #[test]
    fn paths_honour_gitignore_and_list_folders_first_by_depth() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/deep/er")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        std::fs::write(dir.path().join("src/deep/er/main_helper.rs"), "").unwrap();
        std::fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
        std::fs::create_dir_all(dir.path().join("target")).unwrap();
        std::fs::write(dir.path().join("target/main.o"), "").unwrap();
        let values: Vec<String> = complete_paths(dir.path(), "main", 10)
            .into_iter()
            .map(|c| c.value)
            .collect();
        assert_eq!(values, ["@src/main.rs", "@src/deep/er/main_helper.rs"]);
        let src: Vec<String> = complete_paths(dir.path(), "src", 2)
            .into_iter()
            .map(|c| c.value)
            .collect();
        assert_eq!(src, ["@src/", "@src/deep/"]);
    }
}
