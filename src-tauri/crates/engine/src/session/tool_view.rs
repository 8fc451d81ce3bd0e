//! The tool definitions a request sends, their compiled input schemas (checked before
//! preview and approval) and the system prompt that lists them. Tools come and go (an MCP
//! server starts after the session, crashes, changes its list, the model loads deferred
//! definitions), so the view is rebuilt whenever the registry's generation moves, and for
//! what is sent, when a file the prompt was read from changed; not once per step.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use memo_context::PromptMode;
use memo_model::ToolSpec;
use memo_protocol::PromptReport;

use super::context::SessionContext;
use super::model::ModelBinding;
use super::prompt_sources::PromptSources;
use crate::tools::schema::ArgsValidator;
use crate::tools::{ToolProfile, ToolRegistry};

/// The tool definitions and the prompt built from them, for one registry generation.
pub(crate) struct ToolView {
    generation: u64,
    pub specs: Arc<Vec<ToolSpec>>,
    pub validators: Arc<HashMap<String, ArgsValidator>>,
    pub system_prompt: Arc<String>,
    pub report: Option<PromptReport>,
    /// Tokens every request costs before any message (system prompt + definitions).
    pub fixed_prompt_tokens: u64,
    /// The files the prompt was read from, to notice an edit (SOUL.md, AGENTS.md).
    sources: PromptSources,
}

/// Compiled from every tool's full schema: arguments left out of the definitions the
/// model is sent (advanced ones) are still accepted.
fn validators(tools: &ToolRegistry) -> HashMap<String, ArgsValidator> {
    tools
        .schemas()
        .into_iter()
        .map(|(name, schema)| {
            let validator = ArgsValidator::new(&name, &schema);
            (name, validator)
        })
        .collect()
}

impl ToolView {
    pub fn initial(tools: &ToolRegistry, system_prompt: String, context: &SessionContext) -> Self {
        let specs = tools.specs_for(ToolProfile::for_context_window(context.context_window));
        Self {
            generation: tools.generation(),
            validators: Arc::new(validators(tools)),
            specs: Arc::new(specs),
            system_prompt: Arc::new(system_prompt),
            report: context.report.clone(),
            fixed_prompt_tokens: context.fixed_prompt_tokens,
            sources: PromptSources::of(context.report.as_ref(), context.workspace.as_deref()),
        }
    }
}

/// The main agent's prompt for a tool profile: a small context window gets the short base.
pub(crate) fn prompt_mode(profile: ToolProfile) -> PromptMode {
    match profile {
        ToolProfile::Standard => PromptMode::Main,
        ToolProfile::Compact => PromptMode::Compact,
    }
}

/// The subagent prompt's base template.
const SUBAGENT_TEMPLATE: &str = "subagent.md";

/// The prompt mode of a session: a subagent's own, or the main agent's for its profile.
pub(crate) fn session_prompt_mode(
    profile: ToolProfile,
    subagent: Option<&super::children::SubagentRole>,
) -> PromptMode {
    match subagent {
        Some(_) => PromptMode::Subagent {
            base_template: SUBAGENT_TEMPLATE,
        },
        None => prompt_mode(profile),
    }
}

/// A subagent's prompt ends with what its agent type is for (a custom agent's file body,
/// the investigator's method): the most specific instructions come last.
pub(crate) fn with_role(
    system: String,
    subagent: Option<&super::children::SubagentRole>,
) -> String {
    match subagent {
        Some(role) if !role.instructions.trim().is_empty() => format!(
            "{system}\n\n# Your role: {}\n\n{}",
            role.agent.agent_type,
            role.instructions.trim()
        ),
        _ => system,
    }
}

/// Tokens [`with_role`] adds to a subagent's prompt.
pub(crate) fn role_tokens(
    subagent: Option<&super::children::SubagentRole>,
    counter: memo_context::TokenCounter,
) -> u64 {
    subagent.map_or(0, |role| counter.count(role.instructions.trim()))
}

/// What a view is built from.
pub(crate) struct ViewInputs<'a> {
    pub tools: &'a ToolRegistry,
    pub binding: &'a ModelBinding,
    pub settings: &'a SessionContext,
}

/// The session's current view.
pub(crate) struct ToolViews(Mutex<Arc<ToolView>>);

impl ToolViews {
    pub fn new(view: ToolView) -> Self {
        Self(Mutex::new(Arc::new(view)))
    }

    fn lock(&self) -> MutexGuard<'_, Arc<ToolView>> {
        // The critical sections only replace or clone the Arc: a poisoned lock still
        // holds a whole view.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The view for the registry as it is now; with `check_files`, also rebuilt when a
    /// file the prompt was read from changed (a few `stat` calls).
    pub fn current(&self, inputs: ViewInputs<'_>, check_files: bool) -> Arc<ToolView> {
        let generation = inputs.tools.generation();
        let mut view = self.lock();
        if view.generation != generation || (check_files && view.sources.changed()) {
            *view = Arc::new(rebuild(inputs, generation, &view));
        }
        view.clone()
    }

    /// Makes the next look rebuild the prompt (after a model switch).
    pub fn invalidate(&self) {
        let mut view = self.lock();
        // A registry at generation u64::MAX cannot exist, so the next look rebuilds.
        let stale = ToolView {
            generation: u64::MAX,
            specs: view.specs.clone(),
            validators: view.validators.clone(),
            system_prompt: view.system_prompt.clone(),
            report: view.report.clone(),
            fixed_prompt_tokens: view.fixed_prompt_tokens,
            sources: PromptSources::default(),
        };
        *view = Arc::new(stale);
    }
}

fn rebuild(inputs: ViewInputs<'_>, generation: u64, old: &ToolView) -> ToolView {
    let ViewInputs {
        tools,
        binding,
        settings,
    } = inputs;
    let profile = ToolProfile::for_context_window(binding.context_window);
    let specs = tools.specs_for(profile);
    let (system_prompt, report, fixed) = match &settings.workspace {
        // Layer 5 lists the tools, so the prompt follows them.
        Some(workspace) => {
            let role = settings.subagent.as_ref();
            let assembled = workspace.assemble(
                &binding.model,
                &specs,
                settings.counter,
                session_prompt_mode(profile, role),
            );
            let system = with_role(assembled.system, role);
            // The role's instructions come after the report's layers: count them too.
            let fixed = assembled.report.total_tokens + role_tokens(role, settings.counter);
            (Arc::new(system), Some(assembled.report), fixed)
        }
        None => (
            old.system_prompt.clone(),
            old.report.clone(),
            old.fixed_prompt_tokens,
        ),
    };
    let sources = PromptSources::of(report.as_ref(), settings.workspace.as_deref());
    ToolView {
        generation,
        validators: Arc::new(validators(tools)),
        specs: Arc::new(specs),
        system_prompt,
        report,
        fixed_prompt_tokens: fixed,
        sources,
    }
}
