//! Agent types a subagent can run as: Memo's built-in ones and custom agents written for
//! Claude Code (`.claude/agents/*.md`, `~/.claude/agents`) or for Memo (`~/.memo/agents`),
//! read as they are.
//!
//! A custom agent is a Markdown file with front matter: `name` and `description`
//! (required), `tools` (a comma-separated string or a list, in Claude Code's names or
//! Memo's; absent: every tool of its parent but the collab tools) and `model` (absent or
//! `inherit`: its parent's). The body is the agent's instructions. When two files define
//! the same name the folder's own wins over the user's, and Memo's home over Claude
//! Code's: the one closest to the work is the one meant. Plugins' agents are namespaced
//! (`plugin:agent`), so they never clash.

use std::path::{Path, PathBuf};

use memo_context::text::one_line;
use memo_protocol::{AgentInfo, AgentSource};

/// The general-purpose agent: all of its parent's tools, the subagent prompt alone.
pub const GENERAL: &str = "general";
/// Gemini CLI's codebase investigator: read-only, at most 15 turns and 5 minutes, and a
/// structured report at the end.
pub const INVESTIGATOR: &str = "codebase_investigator";

/// How a definition limits its agent's run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunLimits {
    /// Model calls in one turn (`None`: the session's usual limit).
    pub max_steps: Option<u32>,
    /// Wall-clock time for one turn (`None`: no limit).
    pub max_time: Option<std::time::Duration>,
}

/// One agent type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDefinition {
    pub name: String,
    pub description: String,
    pub source: AgentSource,
    pub path: Option<PathBuf>,
    /// The tools as the file lists them (`None`: all but the collab tools).
    pub tools: Option<Vec<String>>,
    /// `None` or `inherit`: the parent's model.
    pub model: Option<String>,
    /// Added to the subagent prompt: who this agent is and how it works.
    pub instructions: String,
    pub limits: RunLimits,
    /// Ends with a structured report (`complete_task`) instead of a free answer.
    pub reports: bool,
}

impl AgentDefinition {
    pub fn info(&self, shadows: Option<String>) -> AgentInfo {
        AgentInfo {
            name: self.name.clone(),
            description: self.description.clone(),
            source: self.source,
            path: self.path.as_ref().map(|p| p.display().to_string()),
            tools: self.tools.clone(),
            model: self.model.clone(),
            shadows,
        }
    }

    /// The model it asks for, `None` when it takes its parent's.
    pub fn wanted_model(&self) -> Option<&str> {
        self.model
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty() && !m.eq_ignore_ascii_case("inherit"))
    }
}

/// The general-purpose agent: its parent's tools, the subagent prompt alone.
pub fn general() -> AgentDefinition {
    AgentDefinition {
        name: GENERAL.into(),
        description: "A general-purpose agent for a self-contained task: research, a \
                      focused change, running and fixing tests. It has your tools \
                      (but cannot start agents of its own)."
            .into(),
        source: AgentSource::Builtin,
        path: None,
        tools: None,
        model: None,
        instructions: String::new(),
        limits: RunLimits {
            max_steps: None,
            max_time: None,
        },
        reports: false,
    }
}

/// Where custom agents are read from, nearest first.
#[derive(Debug, Clone, Default)]
pub struct AgentRoots {
    /// The session's folder (its `.claude/agents`).
    pub project: Option<PathBuf>,
    /// `$MEMO_HOME` (its `agents`).
    pub memo_home: Option<PathBuf>,
    /// The OS home (its `.claude/agents`).
    pub user_home: Option<PathBuf>,
    /// Enabled plugins' agent folders, with the plugin's name as namespace.
    pub plugins: Vec<(String, PathBuf)>,
}

/// The agent types a session can use, and the files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct AgentCatalog {
    agents: Vec<AgentDefinition>,
    /// Which definition each hidden one lost to: (hidden's path, winner's name).
    shadowed: Vec<(AgentDefinition, String)>,
    pub problems: Vec<String>,
}

impl AgentCatalog {
    /// Reads every root after the `builtin` agents: the folder's, Memo's home's, the
    /// user's Claude Code agents and plugins' (a name already taken is shadowed).
    pub fn load(roots: &AgentRoots, builtin: Vec<AgentDefinition>) -> AgentCatalog {
        let mut catalog = AgentCatalog {
            agents: builtin,
            ..AgentCatalog::default()
        };
        let dirs = [
            (
                roots
                    .project
                    .as_ref()
                    .map(|p| p.join(".claude").join("agents")),
                AgentSource::Project,
            ),
            (
                roots.memo_home.as_ref().map(|h| h.join("agents")),
                AgentSource::User,
            ),
            (
                roots
                    .user_home
                    .as_ref()
                    .map(|h| h.join(".claude").join("agents")),
                AgentSource::User,
            ),
        ];
        for (dir, source) in dirs {
            if let Some(dir) = dir {
                catalog.read_dir(&dir, source, None);
            }
        }
        for (namespace, dir) in &roots.plugins {
            catalog.read_dir(dir, AgentSource::Plugin, Some(namespace));
        }
        catalog
    }

    /// Reads the agent files of a folder, or one agent file (a plugin may name files).
    fn read_dir(&mut self, dir: &Path, source: AgentSource, namespace: Option<&str>) {
        let mut files: Vec<PathBuf> = if dir.is_file() {
            vec![dir.to_path_buf()]
        } else {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
                .collect()
        };
        files.sort();
        for path in files {
            match read_agent_file(&path, source) {
                Ok(mut agent) => {
                    if let Some(namespace) = namespace {
                        agent.name = format!("{namespace}:{}", agent.name);
                    }
                    self.add(agent);
                }
                Err(why) => self.problems.push(format!("{}: {why}", path.display())),
            }
        }
    }

    fn add(&mut self, agent: AgentDefinition) {
        match self.agents.iter().find(|a| a.name == agent.name) {
            Some(winner) => {
                let winner = match &winner.path {
                    Some(path) => path.display().to_string(),
                    None => format!("Memo's built-in {}", winner.name),
                };
                self.shadowed.push((agent, winner));
            }
            None => self.agents.push(agent),
        }
    }

    /// Overrides an agent type's time limit (the investigator's, from the environment).
    pub fn set_time_limit(&mut self, name: &str, limit: std::time::Duration) {
        if let Some(agent) = self.agents.iter_mut().find(|a| a.name == name) {
            agent.limits.max_time = Some(limit);
        }
    }

    pub fn get(&self, name: &str) -> Option<&AgentDefinition> {
        self.agents.iter().find(|a| a.name == name)
    }

    pub fn agents(&self) -> &[AgentDefinition] {
        &self.agents
    }

    /// The catalog as `/agents` and the settings list it: each agent in effect, then
    /// each hidden one saying what hides it.
    pub fn infos(&self) -> Vec<AgentInfo> {
        let mut out: Vec<AgentInfo> = self.agents.iter().map(|a| a.info(None)).collect();
        for (agent, winner) in &self.shadowed {
            let mut info = agent.info(None);
            info.shadows = Some(format!("hidden by {winner}"));
            out.push(info);
        }
        out
    }

    /// One line per agent type, for the model (in `spawn_agent`'s description).
    pub fn summary_for_model(&self) -> String {
        self.agents
            .iter()
            .map(|a| format!("- {}: {}", a.name, one_line(&a.description, 200)))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Reads one custom agent file.
pub fn read_agent_file(path: &Path, source: AgentSource) -> Result<AgentDefinition, String> {
    let file = memo_context::agents::read_agent_file(path)?;
    Ok(AgentDefinition {
        name: file.name,
        description: file.description,
        source,
        path: Some(path.to_path_buf()),
        tools: file.tools,
        model: file.model,
        instructions: file.instructions,
        limits: RunLimits {
            max_steps: None,
            max_time: None,
        },
        reports: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inherit_means_the_parents_model() {
        let mut agent = general();
        assert_eq!(agent.wanted_model(), None);
        agent.model = Some("inherit".into());
        assert_eq!(agent.wanted_model(), None);
        agent.model = Some(" small-model ".into());
        assert_eq!(agent.wanted_model(), Some("small-model"));
    }

    #[test]
    fn the_folder_wins_over_the_user_and_plugins_are_namespaced() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("proj");
        let home = dir.path().join("home");
        let memo = dir.path().join("memo");
        let plugin = dir.path().join("plugin-agents");
        for d in [
            project.join(".claude/agents"),
            home.join(".claude/agents"),
            memo.join("agents"),
            plugin.clone(),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        let write = |p: PathBuf, name: &str, desc: &str| {
            std::fs::write(p, format!("---\nname: {name}\ndescription: {desc}\n---\nx")).unwrap()
        };
        write(project.join(".claude/agents/r.md"), "reviewer", "project's");
        write(home.join(".claude/agents/r.md"), "reviewer", "user's");
        write(memo.join("agents/w.md"), "writer", "memo's");
        write(plugin.join("r.md"), "reviewer", "plugin's");
        std::fs::write(memo.join("agents/broken.md"), "no front matter").unwrap();
        let catalog = AgentCatalog::load(
            &AgentRoots {
                project: Some(project),
                memo_home: Some(memo),
                user_home: Some(home),
                plugins: vec![("kit".into(), plugin)],
            },
            vec![general()],
        );
        assert_eq!(catalog.get("reviewer").unwrap().description, "project's");
        assert_eq!(catalog.get("writer").unwrap().description, "memo's");
        assert_eq!(
            catalog.get("kit:reviewer").unwrap().source,
            AgentSource::Plugin
        );
        assert!(catalog.get(GENERAL).is_some());
        let infos = catalog.infos();
        let hidden = infos.iter().find(|i| i.description == "user's").unwrap();
        assert!(hidden.shadows.as_deref().unwrap().contains("proj"));
        assert_eq!(catalog.problems.len(), 1);
        assert!(catalog.problems[0].contains("broken.md"));
    }
}
