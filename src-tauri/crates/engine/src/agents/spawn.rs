//! How the engine starts a subagent's session: what it shares with its parent and what is
//! its own.
//!
//! Shared: the folder, the model (unless its agent type asks for another), the MCP servers
//! (the parent's running ones; the child never stops them), the hooks, the kept approval
//! rules and other agents' imported permissions, and the approval mode the parent is in
//! when the child starts. Its own: a new session in the store linked to its parent, the
//! subagent prompt (AGENTS.md and TOOLS.md only, plus its agent type's instructions), fresh
//! built-in tools (its commands are its own processes) narrowed to what its agent type
//! lists, and never the collab tools.

use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;
use memo_config::ProviderConfig;

use super::collab::COLLAB_TOOLS;
use super::investigator::{CompleteTaskTool, ReportSlot, COMPLETE_TASK};
use super::runtime::{ChildFactory, ChildSpec, StartedChild};
use crate::options::EngineOptions;
use crate::session::{
    spawn_session, ModelResolver, SessionParams, SessionStart, SubagentRole, TurnLimits,
};
use crate::tools::{Tool, ToolRegistry, ToolSource};

/// What a parent session lends its children.
pub(crate) struct ParentParts {
    pub options: Arc<EngineOptions>,
    pub cwd: PathBuf,
    pub provider: ProviderConfig,
    pub model: String,
    pub client: Arc<dyn memo_providers::ModelClient>,
    pub resolver: ModelResolver,
    pub limits: TurnLimits,
    pub mcp: Option<memo_mcp::McpManager>,
    pub hooks: memo_hooks::Hooks,
    pub approval_rules: Option<memo_config::RuleStore>,
    pub imported_rules: Vec<memo_config::ApprovalRule>,
    pub command_limits: Vec<Vec<String>>,
    /// Tools turned off for the parent (config, other agents' settings).
    pub disabled: Vec<String>,
}

impl ChildFactory for ParentParts {
    fn start(&self, spec: ChildSpec) -> Result<StartedChild, String> {
        let definition = &spec.definition;
        let (client, model, context_window) = match definition.wanted_model() {
            Some(wanted) => {
                let binding =
                    (self.resolver)(Some(&self.provider.name), Some(wanted)).map_err(|why| {
                        format!(
                            "agent type {} asks for model {wanted}, which cannot be used: {why}",
                            definition.name
                        )
                    })?;
                (binding.client, binding.model, Some(binding.context_window))
            }
            None => (self.client.clone(), self.model.clone(), None),
        };
        let mut tools = ToolRegistry::builtin();
        tools.exclude(self.disabled.iter().cloned());
        tools.exclude(COLLAB_TOOLS.iter().map(|t| (*t).to_owned()));
        if let Some(mcp) = &self.mcp {
            tools.add_source(Arc::new(Borrowed(memo_mcp::McpToolSource::new(
                mcp.clone(),
            ))));
        }
        let report = definition.reports.then(|| Arc::new(ReportSlot::default()));
        if let Some(slot) = &report {
            tools.register(Arc::new(CompleteTaskTool::new(slot.clone())));
        }
        if let Some(listed) = &definition.tools {
            let mut allowed = memo_names(listed, |n| tools.get(n).is_some());
            if report.is_some() {
                allowed.push(COMPLETE_TASK.to_owned());
            }
            tools.allow_only(allowed);
        }
        let role = SubagentRole {
            agent: spec.agent.clone(),
            parent: spec.parent.clone(),
            instructions: definition.instructions.clone(),
        };
        let options = &self.options;
        let (system_prompt, mut context) = crate::prompt::session_context(
            crate::prompt::PromptSetup {
                memo_home: options.memo_home.as_deref(),
                config: &options.config,
                env: &options.env,
                // A subagent's prompt never takes the project's SYSTEM.md.
                project_trusted: false,
            },
            &self.cwd,
            &self.provider,
            &model,
            &mut tools,
            Some(&role),
        );
        if let Some(window) = context_window {
            context.context_window = window;
        }
        context.hooks = self.hooks.clone();
        context.approval_rules = self.approval_rules.clone();
        context.imported_rules = self.imported_rules.clone();
        context.command_limits = self.command_limits.clone();
        context.subagent = Some(role);
        context.grants = Some(spec.grants.clone());
        let mut limits = self.limits.clone();
        limits.approval_mode = spec.approval_mode;
        if let Some(max) = definition.limits.max_steps {
            limits.max_steps = max;
        }
        let params = SessionParams {
            id: spec.agent.session_id.clone(),
            system_prompt,
            cwd: self.cwd.clone(),
            provider: self.provider.name.clone(),
            model,
            client,
            // A subagent keeps the model it started with.
            resolver: None,
            tools,
            store: options.store.clone(),
            limits,
            memo_home: options.memo_home.clone(),
            context,
            checkpoints: options.checkpoints.clone(),
        };
        let handle = spawn_session(params, SessionStart::New)
            .map_err(|e| format!("the subagent's session could not start: {e}"))?;
        Ok(StartedChild { handle, report })
    }
}

/// An agent file's tool list in Memo's names: Memo's own (`is_memo_tool`) and MCP tools'
/// (`server__tool`, `mcp__server__tool`) are kept, Claude Code's (`Read`, `Bash`, also
/// written `grep`) translated.
fn memo_names(listed: &[String], is_memo_tool: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    for name in listed {
        if is_memo_tool(name) {
            out.push(name.clone());
            continue;
        }
        let mut memo = memo_hooks::memo_tools_for(name);
        if memo.is_empty() {
            // A hand-written list may not match Claude Code's capitals.
            let mut chars = name.chars();
            if let Some(first) = chars.next() {
                let capital = format!("{}{}", first.to_uppercase(), chars.as_str());
                memo = memo_hooks::memo_tools_for(&capital);
            }
        }
        if memo.is_empty() {
            out.push(name.strip_prefix("mcp__").unwrap_or(name).to_owned());
        } else {
            out.extend(memo.iter().map(|m| (*m).to_owned()));
        }
    }
    // Running a command comes with answering its prompts.
    if out.iter().any(|n| n == "exec_command") {
        out.push("write_stdin".into());
    }
    out
}

/// The parent's MCP tools, lent: the parent started the servers and stops them, so a
/// child's shutdown leaves them running.
struct Borrowed(memo_mcp::McpToolSource);

impl ToolSource for Borrowed {
    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        self.0.tools()
    }

    fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.0.get(name)
    }

    fn generation(&self) -> u64 {
        self.0.generation()
    }

    fn ready(&self) -> BoxFuture<'static, ()> {
        self.0.ready()
    }

    fn shutdown(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_tool_lists_become_memo_tools() {
        let memo = |n: &str| ["glob", "read_file", "grep_files"].contains(&n);
        let names = memo_names(
            &[
                "Read".into(),
                "Bash".into(),
                "mcp__gh__search".into(),
                "glob".into(),
                "grep".into(),
            ],
            memo,
        );
        assert_eq!(
            names,
            vec![
                "read_file",
                "exec_command",
                "shell",
                "shell_command",
                "gh__search",
                "glob",
                "grep_files",
                "write_stdin"
            ]
        );
    }
}
