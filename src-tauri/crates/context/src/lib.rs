//! What the model sees, and why.
//!
//! - [`assemble`]: the system prompt as six layers with sources and token estimates.
//! - [`templates`]: Markdown prompt templates (minijinja), overridable from
//!   `$MEMO_HOME/prompts/`.
//! - [`files`]: bootstrap files of the Memo home and the project's AGENTS.md chain.
//! - [`skills`], [`commands`], [`slash`]: skills, custom and built-in slash commands.
//! - [`input`], [`attach`]: `$skill` and `@path` expansion of a user message.
//! - [`tokens`], [`compaction`]: token estimates and history compaction.
//! - [`home`]: first-start initialisation of `$MEMO_HOME`.
//! - [`error`]: [`ContextError`], why a skill, command, front matter or attachment
//!   could not be used.
//!
//! Nothing here fails a session: unreadable or malformed files become
//! [`memo_protocol::ContextProblem`]s that the UI can show.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod agents;
pub mod assemble;
pub mod attach;
pub mod cjk;
pub mod command_files;
pub mod compaction;
pub mod config;
pub mod environment;
pub mod error;
pub mod files;
pub mod gemini_extensions;
pub mod home;
pub mod input;
pub mod plugins;
pub mod skills;
pub mod slash;
pub mod templates;
pub mod text;
pub mod tokens;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memo_model::ToolSpec;
use memo_protocol::ContextProblem;

pub use assemble::{assemble, AssembledPrompt, PromptInputs, PromptMode};
pub use attach::{AttachLimits, DenyCheck};
pub use command_files::{CommandFile, CommandFileRoots, CommandFiles};
pub use config::ContextConfig;
pub use environment::{workspace_root, EnvFacts};
pub use error::ContextError;
pub use home::{init_home, HomeInit};
pub use input::InputContext;
pub use plugins::{NamespacedPath, PluginDirs};
pub use skills::{
    ActiveSkills, Lookup, Skill, SkillRoots, SkillScope, SkillSet, SkillSource,
    OTHER_AGENT_SKILL_DIRS,
};
pub use templates::Templates;
pub use tokens::TokenCounter;

/// Everything about a workspace that prompts and input expansion need, loaded once per
/// session.
#[derive(Debug, Clone)]
pub struct WorkspaceContext {
    pub cwd: PathBuf,
    pub workspace_root: PathBuf,
    pub memo_home: Option<PathBuf>,
    /// The OS home folder (`~/.claude/commands`, `@~/notes.md`).
    pub user_home: Option<PathBuf>,
    pub env: EnvFacts,
    pub templates: Templates,
    pub config: ContextConfig,
    pub skills: Arc<SkillSet>,
    /// Problems found while reading config keys.
    pub config_problems: Vec<ContextProblem>,
    /// Enabled plugins' command and skill folders.
    pub plugins: PluginDirs,
    /// Whether the folder is trusted: only then may its `.memo/SYSTEM.md` and
    /// `.memo/APPEND_SYSTEM.md` change the base instructions.
    pub project_trusted: bool,
}

/// Inputs of [`WorkspaceContext::load`].
pub struct LoadOptions<'a> {
    pub cwd: &'a Path,
    pub memo_home: Option<&'a Path>,
    pub user_home: Option<&'a Path>,
    /// config.toml keys memo-config does not interpret (`context_files`, `active_skills`).
    pub config_extra: &'a toml::Table,
    pub config_path: &'a Path,
    /// Gather date, shell and `git status` (false: fixed facts, for tests and benches).
    pub detect_env: bool,
    /// Enabled plugins' command and skill folders (see memo-plugins).
    pub plugins: PluginDirs,
    /// See [`WorkspaceContext::project_trusted`].
    pub project_trusted: bool,
}

impl WorkspaceContext {
    pub fn load(opts: LoadOptions<'_>) -> WorkspaceContext {
        let root = workspace_root(opts.cwd);
        let (mut config, config_problems) =
            ContextConfig::from_extra(opts.config_extra, opts.config_path);
        let mut gemini = vec![root.join(".gemini/settings.json")];
        if let Some(home) = opts.user_home {
            gemini.insert(0, home.join(".gemini/settings.json"));
        }
        config.other_agent_names = crate::config::gemini_context_names(&gemini);
        if let Some(home) = opts.user_home {
            config.extension_files = gemini_extensions::enabled(home, &root)
                .into_iter()
                .flat_map(|ext| {
                    let name = ext.name;
                    ext.context_files
                        .into_iter()
                        .map(move |path| (name.clone(), path))
                })
                .collect();
        }
        let active = config.active_skills.clone().map(|names| ActiveSkills {
            names,
            config_path: config.source.clone(),
        });
        let skills = SkillSet::discover(
            &SkillRoots {
                memo_home: opts.memo_home.map(Path::to_path_buf),
                user_home: opts.user_home.map(Path::to_path_buf),
                project_root: Some(root.clone()),
                plugins: opts.plugins.skills.clone(),
            },
            active.as_ref(),
        );
        let env = if opts.detect_env {
            EnvFacts::detect(opts.cwd, &root)
        } else {
            EnvFacts::fixed(opts.cwd, &root)
        };
        WorkspaceContext {
            cwd: opts.cwd.to_path_buf(),
            workspace_root: root,
            memo_home: opts.memo_home.map(Path::to_path_buf),
            user_home: opts.user_home.map(Path::to_path_buf),
            env,
            templates: Templates::new(opts.memo_home),
            config,
            skills: Arc::new(skills),
            config_problems,
            plugins: opts.plugins,
            project_trusted: opts.project_trusted,
        }
    }

    /// Where skills are looked for.
    pub fn skill_roots(&self) -> SkillRoots {
        SkillRoots {
            memo_home: self.memo_home.clone(),
            user_home: self.user_home.clone(),
            project_root: Some(self.workspace_root.clone()),
            plugins: self.plugins.skills.clone(),
        }
    }

    /// The skills as they are now: found again, with `active_skills` read again from
    /// config.toml, so a skill created, edited or turned off in settings counts from the
    /// next message of a session that is already open (a few folders and small files).
    pub fn skills_now(&self) -> Arc<SkillSet> {
        let path = Path::new(&self.config.source);
        let names = match std::fs::read_to_string(path) {
            Ok(text) => match toml::from_str::<toml::Table>(&text) {
                Ok(table) => ContextConfig::from_extra(&table, path).0.active_skills,
                // A broken file is reported where it is edited; keep what was read.
                Err(_) => self.config.active_skills.clone(),
            },
            Err(_) => None,
        };
        let active = names.map(|names| ActiveSkills {
            names,
            config_path: self.config.source.clone(),
        });
        Arc::new(SkillSet::discover(&self.skill_roots(), active.as_ref()))
    }

    /// The system prompt and its layer report for `model` with `tools`.
    pub fn assemble(
        &self,
        model: &str,
        tools: &[ToolSpec],
        counter: TokenCounter,
        mode: PromptMode,
    ) -> AssembledPrompt {
        let skills = self.skills_now();
        let mut assembled = assemble(&PromptInputs {
            cwd: &self.cwd,
            workspace_root: &self.workspace_root,
            memo_home: self.memo_home.as_deref(),
            model,
            env: &self.env,
            templates: &self.templates,
            config: &self.config,
            skills: &skills,
            tools,
            counter,
            mode,
            project_trusted: self.project_trusted,
        });
        let mut problems = self.config_problems.clone();
        problems.append(&mut assembled.report.problems);
        assembled.report.problems = problems;
        assembled
    }

    /// What changes from day to day and session to session — the date, the repository's
    /// state at the start — for the session's first message, not the system prompt, so
    /// the system prompt (and a server's cache of it) stays the same across sessions.
    pub fn session_context(&self) -> String {
        let mut problems = Vec::new();
        let rendered = self.templates.render(
            "session_context.md",
            &serde_json::json!({ "env": self.env }),
            &mut problems,
        );
        for problem in problems {
            tracing::warn!(path = %problem.path, message = %problem.message, "session context template");
        }
        rendered.text.trim().to_owned()
    }

    pub fn command_file_roots(&self) -> CommandFileRoots {
        CommandFileRoots {
            memo_home: self.memo_home.clone(),
            user_home: self.user_home.clone(),
            project_root: Some(self.workspace_root.clone()),
            plugins: self.plugins.commands.clone(),
        }
    }

    pub fn input_context(&self, limits: AttachLimits) -> InputContext<'_> {
        InputContext {
            cwd: &self.cwd,
            workspace_root: &self.workspace_root,
            home: self.user_home.as_deref(),
            skills: &self.skills,
            limits,
            denied: None,
        }
    }
}
