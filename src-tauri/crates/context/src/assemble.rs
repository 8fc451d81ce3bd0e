//! The system prompt as a pipeline of six layers, each with its sources, size and token
//! estimate, so a user can see exactly what the model sees and where it came from:
//!
//! 1. base: `prompts/base.md` (or SYSTEM.md), APPEND_SYSTEM.md, the environment
//! 2. SOUL.md, wrapped as a soft preference
//! 3. project context: the home's bootstrap files, then AGENTS.md (and CLAUDE.md,
//!    GEMINI.md, `context_files`) from the workspace root down to the cwd
//! 4. the skills list (`skills.md` rendered with each skill's name, description and path;
//!    empty for a subagent)
//! 5. tool descriptions: only a line per MCP server naming its tools (the definitions do
//!    not say which server a tool belongs to); Memo's own tools are described by their
//!    definitions alone
//! 6. tool definitions, sent as the API's JSON `tools` field rather than as text

use std::path::{Path, PathBuf};

use memo_model::ToolSpec;
use memo_protocol::{
    ContextProblem, PromptLayer, PromptLayerKind, PromptReport, PromptSource, SourceStatus,
};
use serde_json::json;

use crate::config::ContextConfig;
use crate::environment::EnvFacts;
use crate::files::{self, ContextFile, Seen, HOME_FILES, SUBAGENT_HOME_FILES};
use crate::skills::SkillSet;
use crate::templates::Templates;
use crate::tokens::TokenCounter;

/// Which agent the prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptMode {
    /// The agent the user talks to: every layer.
    Main,
    /// The same agent on a model with a small context window (a local model): the shorter
    /// base prompt (`base_compact.md`); every other layer as for `Main`. Goes with the
    /// compact tool profile, which trims the definitions (the engine's `prompt_mode`).
    Compact,
    /// A subagent: its own base template, and of the bootstrap files only AGENTS.md and
    /// TOOLS.md (no persona, no skills list).
    Subagent { base_template: &'static str },
}

pub struct PromptInputs<'a> {
    pub cwd: &'a Path,
    pub workspace_root: &'a Path,
    pub memo_home: Option<&'a Path>,
    pub model: &'a str,
    pub env: &'a EnvFacts,
    pub templates: &'a Templates,
    pub config: &'a ContextConfig,
    pub skills: &'a SkillSet,
    pub tools: &'a [ToolSpec],
    pub counter: TokenCounter,
    pub mode: PromptMode,
    /// Whether the project's `.memo/SYSTEM.md` and `.memo/APPEND_SYSTEM.md` apply: they
    /// can replace the safety rules, so a folder nobody trusted gets Memo's own.
    pub project_trusted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssembledPrompt {
    /// Layers 1-5 joined: the request's system prompt.
    pub system: String,
    pub report: PromptReport,
}

struct Builder<'a> {
    inputs: &'a PromptInputs<'a>,
    problems: Vec<ContextProblem>,
}

pub fn assemble(inputs: &PromptInputs<'_>) -> AssembledPrompt {
    let mut b = Builder {
        inputs,
        problems: Vec::new(),
    };
    let mut seen = Seen::default();
    let main = matches!(inputs.mode, PromptMode::Main | PromptMode::Compact);
    let layers = vec![
        b.base(),
        if main {
            b.soul(&mut seen)
        } else {
            b.layer(PromptLayerKind::Soul, "SOUL.md", Vec::new(), String::new())
        },
        b.project_context(&mut seen),
        if main {
            b.skills()
        } else {
            b.layer(PromptLayerKind::Skills, "Skills", Vec::new(), String::new())
        },
        b.tool_descriptions(),
        b.tool_definitions(),
    ];
    let system = layers[..5]
        .iter()
        .map(|l| l.content.trim())
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let system_tokens: u64 = layers[..5].iter().map(|l| l.tokens).sum();
    let mut problems = b.problems;
    problems.extend(inputs.skills.problems().iter().cloned());
    let report = PromptReport {
        cwd: inputs.cwd.display().to_string(),
        workspace_root: inputs.workspace_root.display().to_string(),
        model: inputs.model.to_owned(),
        token_counter: inputs.counter.name().to_owned(),
        system_chars: system.chars().count() as u64,
        system_tokens,
        total_tokens: system_tokens + layers[5].tokens,
        layers,
        problems,
        turn_override: None,
    };
    AssembledPrompt { system, report }
}

impl Builder<'_> {
    fn count(&self, text: &str) -> (u64, u64) {
        (text.chars().count() as u64, self.inputs.counter.count(text))
    }

    fn source(
        &self,
        path: String,
        text: &str,
        status: SourceStatus,
        original: Option<usize>,
    ) -> PromptSource {
        let (chars, tokens) = self.count(text);
        PromptSource {
            path,
            status,
            chars,
            tokens,
            original_chars: original.map(|n| n as u64),
        }
    }

    fn layer(
        &self,
        kind: PromptLayerKind,
        title: &str,
        sources: Vec<PromptSource>,
        content: String,
    ) -> PromptLayer {
        let content = content.trim().to_owned();
        let (chars, tokens) = self.count(&content);
        PromptLayer {
            kind,
            title: title.to_owned(),
            sources,
            content,
            chars,
            tokens,
            tool_count: None,
        }
    }

    fn vars(&self) -> serde_json::Value {
        json!({ "env": self.inputs.env, "model": self.inputs.model })
    }

    fn base(&mut self) -> PromptLayer {
        let i = self.inputs;
        let mut parts = Vec::new();
        let mut sources = Vec::new();
        let main = matches!(i.mode, PromptMode::Main | PromptMode::Compact);
        let project_system = i.workspace_root.join(".memo").join("SYSTEM.md");
        let project_append = i.workspace_root.join(".memo").join("APPEND_SYSTEM.md");
        if main && !i.project_trusted {
            for path in [&project_system, &project_append] {
                if let Some(text) = read_nonempty(path) {
                    sources.push(self.source(
                        path.display().to_string(),
                        &text,
                        SourceStatus::Untrusted,
                        None,
                    ));
                }
            }
        }
        let project = |path: PathBuf| i.project_trusted.then_some(path);
        let system_md = match i.mode {
            PromptMode::Main | PromptMode::Compact => [
                project(project_system.clone()),
                i.memo_home.map(|h| h.join("SYSTEM.md")),
            ]
            .into_iter()
            .flatten()
            .find_map(|p| read_nonempty(&p).map(|t| (p, t))),
            PromptMode::Subagent { .. } => None,
        };
        match system_md {
            // SYSTEM.md is the user's text, taken literally: it may well contain `{{`.
            Some((path, text)) => {
                sources.push(self.source(
                    path.display().to_string(),
                    &text,
                    SourceStatus::Loaded,
                    None,
                ));
                parts.push(text);
            }
            None => {
                let name = match i.mode {
                    PromptMode::Main => "base.md",
                    PromptMode::Compact => "base_compact.md",
                    PromptMode::Subagent { base_template } => base_template,
                };
                let rendered = i.templates.render(name, &self.vars(), &mut self.problems);
                sources.push(self.source(
                    rendered.source,
                    &rendered.text,
                    SourceStatus::Loaded,
                    None,
                ));
                parts.push(rendered.text);
            }
        }
        if matches!(i.mode, PromptMode::Main | PromptMode::Compact) {
            let appends = [
                i.memo_home.map(|h| h.join("APPEND_SYSTEM.md")),
                project(project_append),
            ];
            for path in appends.into_iter().flatten() {
                if let Some(text) = read_nonempty(&path) {
                    sources.push(self.source(
                        path.display().to_string(),
                        &text,
                        SourceStatus::Loaded,
                        None,
                    ));
                    parts.push(text);
                }
            }
        }
        let env = i
            .templates
            .render("environment.md", &self.vars(), &mut self.problems);
        sources.push(self.source(env.source, &env.text, SourceStatus::Loaded, None));
        parts.push(env.text);
        let content = join_parts(&parts);
        self.layer(PromptLayerKind::Base, "Base instructions", sources, content)
    }

    fn soul(&mut self, seen: &mut Seen) -> PromptLayer {
        let Some(home) = self.inputs.memo_home else {
            return self.layer(PromptLayerKind::Soul, "SOUL.md", Vec::new(), String::new());
        };
        let Some(file) = files::soul(home, seen) else {
            return self.layer(PromptLayerKind::Soul, "SOUL.md", Vec::new(), String::new());
        };
        let source = self.file_source(&file);
        if file.status == SourceStatus::Empty {
            return self.layer(
                PromptLayerKind::Soul,
                "SOUL.md",
                vec![source],
                String::new(),
            );
        }
        let vars = json!({
            "env": self.inputs.env,
            "model": self.inputs.model,
            "path": file.path.display().to_string(),
            "content": file.content,
        });
        let rendered = self
            .inputs
            .templates
            .render("soul.md", &vars, &mut self.problems);
        self.layer(
            PromptLayerKind::Soul,
            "SOUL.md",
            vec![source],
            rendered.text,
        )
    }

    fn file_source(&self, file: &ContextFile) -> PromptSource {
        self.source(
            file.path.display().to_string(),
            &file.content,
            file.status,
            file.original_chars,
        )
    }

    fn project_context(&mut self, seen: &mut Seen) -> PromptLayer {
        let i = self.inputs;
        // A subagent gets the project's instructions, not the user's own extras.
        let main = matches!(i.mode, PromptMode::Main | PromptMode::Compact);
        let home_names = match i.mode {
            PromptMode::Main | PromptMode::Compact => HOME_FILES,
            PromptMode::Subagent { .. } => SUBAGENT_HOME_FILES,
        };
        let mut all = Vec::new();
        if let Some(home) = i.memo_home {
            all.extend(files::home_files(home, home_names, seen));
        }
        if main {
            for (extension, path) in &i.config.extension_files {
                let name = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                let scope = Some(format!("Gemini CLI extension {extension}"));
                all.extend(files::load(path, &name, scope, seen));
            }
        }
        all.extend(files::project_files(
            i.workspace_root,
            i.cwd,
            &i.config.context_files,
            &i.config.other_agent_names,
            seen,
        ));
        let sources = all.iter().map(|f| self.file_source(f)).collect();
        let shown: Vec<serde_json::Value> = all
            .iter()
            .filter(|f| f.status != SourceStatus::Empty)
            .map(|f| {
                json!({
                    "name": f.name,
                    "scope": f.scope,
                    "path": f.path.display().to_string(),
                    "content": f.content,
                    "missing": f.status == SourceStatus::Missing,
                })
            })
            .collect();
        let content = if shown.is_empty() {
            String::new()
        } else {
            let vars = json!({ "env": i.env, "model": i.model, "files": shown });
            i.templates
                .render("project_context.md", &vars, &mut self.problems)
                .text
        };
        self.layer(
            PromptLayerKind::ProjectContext,
            "Project context",
            sources,
            content,
        )
    }

    fn skills(&mut self) -> PromptLayer {
        let i = self.inputs;
        let skills = i.skills.skills();
        if skills.is_empty() {
            return self.layer(PromptLayerKind::Skills, "Skills", Vec::new(), String::new());
        }
        let mut sources = Vec::with_capacity(skills.len());
        let mut listed = Vec::with_capacity(skills.len());
        for skill in skills {
            let path = skill.display_path();
            let line = format!("- {}: {}", skill.name, skill.description);
            sources.push(self.source(path.clone(), &line, SourceStatus::Loaded, None));
            listed.push(
                json!({ "name": skill.name, "description": skill.description, "path": path }),
            );
        }
        let vars = json!({
            "env": i.env,
            "model": i.model,
            "skills": listed,
            "has_collisions": i.skills.has_collisions(),
        });
        let rendered = i.templates.render("skills.md", &vars, &mut self.problems);
        self.layer(PromptLayerKind::Skills, "Skills", sources, rendered.text)
    }

    fn tool_descriptions(&mut self) -> PromptLayer {
        let tools = self.inputs.tools;
        if tools.is_empty() {
            return self.layer(
                PromptLayerKind::ToolDescriptions,
                "Tool descriptions",
                Vec::new(),
                String::new(),
            );
        }
        let (_, mcp) = split_mcp(tools);
        // The definitions sent with the request describe every tool in full; repeating
        // them here cost a small model's server ~650 tokens a request. Only MCP tools get
        // a line per server: the definitions do not say which server a tool belongs to.
        let mut out = String::new();
        let mut sources = Vec::new();
        if !mcp.is_empty() {
            out.push_str("# MCP servers\nTheir tools are named `server__tool`:\n");
            for (server, tools) in mcp {
                let names: Vec<&str> = tools.iter().map(|(short, _)| *short).collect();
                let section = format!("- {server}: {}\n", names.join(", "));
                sources.push(self.source(
                    format!("mcp:{server}"),
                    &section,
                    SourceStatus::Loaded,
                    None,
                ));
                out.push_str(&section);
            }
        }
        self.layer(
            PromptLayerKind::ToolDescriptions,
            "Tool descriptions",
            sources,
            out,
        )
    }

    fn tool_definitions(&mut self) -> PromptLayer {
        let tools = self.inputs.tools;
        let json = serde_json::to_string_pretty(tools).unwrap_or_default();
        let chars = json.chars().count() as u64;
        let tokens = self.inputs.counter.tools(tools);
        let sources = if tools.is_empty() {
            Vec::new()
        } else {
            vec![PromptSource {
                path: "api:tools".into(),
                status: SourceStatus::Loaded,
                chars,
                tokens,
                original_chars: None,
            }]
        };
        PromptLayer {
            kind: PromptLayerKind::ToolDefinitions,
            title: format!("Tool definitions ({} tools, sent as JSON)", tools.len()),
            sources,
            content: if tools.is_empty() {
                String::new()
            } else {
                json
            },
            chars,
            tokens,
            tool_count: Some(tools.len() as u64),
        }
    }
}

type McpGroups<'a> = Vec<(String, Vec<(&'a str, &'a ToolSpec)>)>;

/// MCP tools are named `<server>__<tool>` (memo-mcp; `mcp__<server>__<tool>` is read
/// too): server names cannot contain `__` and built-in names never do. Everything else is
/// built in.
fn split_mcp(tools: &[ToolSpec]) -> (Vec<&ToolSpec>, McpGroups<'_>) {
    let mut builtin = Vec::new();
    let mut groups: McpGroups<'_> = Vec::new();
    for tool in tools {
        let parts = tool
            .name
            .strip_prefix("mcp__")
            .unwrap_or(&tool.name)
            .split_once("__");
        match parts {
            Some((server, short)) => match groups.iter_mut().find(|(s, _)| s == server) {
                Some((_, list)) => list.push((short, tool)),
                None => groups.push((server.to_owned(), vec![(short, tool)])),
            },
            None => builtin.push(tool),
        }
    }
    (builtin, groups)
}

fn read_nonempty(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn join_parts(parts: &[String]) -> String {
    parts
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod mcp_grouping_tests {
    use super::*;

    fn spec(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            input_schema: json!({"type": "object"}),
        }
    }

    #[test]
    fn server_qualified_names_group_by_server() {
        let tools = [
            spec("read_file"),
            spec("everything__echo"),
            spec("mcp__github__create_issue"),
            spec("everything__get-sum"),
            spec("list_mcp_resources"),
        ];
        let (builtin, groups) = split_mcp(&tools);
        let builtin: Vec<&str> = builtin.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(builtin, ["read_file", "list_mcp_resources"]);
        let groups: Vec<(String, Vec<&str>)> = groups
            .into_iter()
            .map(|(server, tools)| (server, tools.into_iter().map(|(short, _)| short).collect()))
            .collect();
        assert_eq!(
            groups,
            [
                ("everything".to_owned(), vec!["echo", "get-sum"]),
                ("github".to_owned(), vec!["create_issue"]),
            ]
        );
    }
}
