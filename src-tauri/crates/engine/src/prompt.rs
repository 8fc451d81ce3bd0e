//! A session's system prompt and context, built from config and the workspace by
//! memo-context: the six-layer prompt, skills (and the `read_skill` tool), command
//! folders, token counter and compaction settings. (`preview` answers "what would the
//! model see here?" without starting a session.)

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memo_config::{Config, ProviderConfig};
use memo_context::{LoadOptions, TokenCounter, WorkspaceContext};
use memo_protocol::ProviderSummary;

use crate::options::EnvLookup;
use crate::read_skill::ReadSkillTool;
use crate::session::{session_prompt_mode, with_role, SessionContext, SubagentRole};
use crate::tools::{ToolProfile, ToolRegistry};

/// Where a prompt's files and settings come from: Memo's home, config.toml and the
/// environment.
pub(crate) struct PromptSetup<'a> {
    pub memo_home: Option<&'a Path>,
    pub config: &'a Config,
    pub env: &'a EnvLookup,
    /// Whether the folder is trusted (its `.memo/SYSTEM.md` may replace the base).
    pub project_trusted: bool,
}

/// The system prompt and context of a session in `cwd` with `model`. Registers
/// `read_skill` in `tools` when there are skills to read.
pub(crate) fn session_context(
    setup: PromptSetup<'_>,
    cwd: &Path,
    provider: &ProviderConfig,
    model: &str,
    tools: &mut ToolRegistry,
    subagent: Option<&SubagentRole>,
) -> (String, SessionContext) {
    let PromptSetup {
        memo_home,
        config,
        env,
        project_trusted,
    } = setup;
    let user_home = user_home(env);
    let workspace = WorkspaceContext::load(LoadOptions {
        cwd,
        memo_home,
        user_home: user_home.as_deref(),
        config_extra: &config.extra,
        config_path: &config.path,
        detect_env: true,
        // Enabled plugins' commands (`/plugin:command`) and skills (`plugin:skill`).
        plugins: memo_plugins::session_dirs(memo_plugins::Homes {
            memo: memo_home,
            user: user_home.as_deref(),
            folder: Some(cwd),
        }),
        project_trusted,
    });
    let workspace = Arc::new(workspace);
    if !workspace.skills.is_empty() {
        tools.register(Arc::new(ReadSkillTool::live(workspace.clone())));
    }
    let counter = TokenCounter::for_model(model);
    let profile = config.model_profile(&provider.name, model);
    let tool_profile = ToolProfile::for_context_window(profile.context_window);
    let specs = tools.specs_for(tool_profile);
    let mode = session_prompt_mode(tool_profile, subagent);
    let assembled = workspace.assemble(model, &specs, counter, mode);
    for problem in &assembled.report.problems {
        tracing::info!(path = %problem.path, "{}", problem.message);
    }
    let context = SessionContext {
        fixed_prompt_tokens: assembled.report.total_tokens
            + crate::session::role_tokens(subagent, counter),
        report: Some(assembled.report),
        workspace: Some(workspace),
        counter,
        context_window: profile.context_window,
        auto_compact_threshold_percent: config.auto_compact_threshold_percent,
        providers: providers(config),
        mcp_servers: config
            .extra
            .get("mcp_servers")
            .and_then(|v| v.as_table())
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default(),
        ..SessionContext::default()
    };
    (with_role(assembled.system, subagent), context)
}

/// The OS home, for `~/.claude/commands`, `~/.gemini/commands` and `@~/...`; read through
/// the engine's env lookup so tests stay hermetic.
pub(crate) fn user_home(env: &EnvLookup) -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    env(var).filter(|h| !h.is_empty()).map(PathBuf::from)
}

fn providers(config: &Config) -> Vec<ProviderSummary> {
    let current = config.provider(None).ok().map(|p| p.name);
    config
        .providers
        .iter()
        .map(|p| ProviderSummary {
            name: p.name.clone(),
            model: p.model.clone(),
            api: serde_json::to_value(p.api)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            base_url: p.base_url_or_default().to_owned(),
            is_current: current.as_deref() == Some(p.name.as_str()),
        })
        .collect()
}
