//! What MCP servers change in a session. Their tools come and go (a server starts after
//! the session, crashes, changes its list, the model loads deferred definitions), so the
//! tool definitions, their validators and the system prompt's tool layer are rebuilt
//! whenever the registry's generation moves. Server state changes become
//! `mcp_server_status` events and tool progress `tool_progress` events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use memo_mcp::{McpEvent, McpManager, ServerSnapshot, ServerStatus};
use memo_protocol::{AgentEvent, McpServerState, PromptReport};
use memo_providers::ToolSpec;
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

use super::actor::Shared;
use super::context::SessionContext;
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

impl Shared {
    /// The current definitions and prompt; rebuilt only when the tools changed. Cheap:
    /// tool calls look their validators up here.
    pub fn tool_view(&self) -> Arc<ToolView> {
        self.view(false)
    }

    /// [`Shared::tool_view`], also rebuilt when a file the prompt was read from changed
    /// (a few `stat` calls): for what is sent or shown, once per request.
    pub fn prompt_view(&self) -> Arc<ToolView> {
        self.view(true)
    }

    fn view(&self, check_files: bool) -> Arc<ToolView> {
        let generation = self.tools.generation();
        let mut view = self.tool_view.lock().unwrap_or_else(|p| p.into_inner());
        if view.generation != generation || (check_files && view.sources.changed()) {
            *view = Arc::new(self.rebuild_view(generation, &view));
        }
        view.clone()
    }

    fn rebuild_view(&self, generation: u64, old: &ToolView) -> ToolView {
        let profile = ToolProfile::for_context_window(self.binding().context_window);
        let specs = self.tools.specs_for(profile);
        let settings = &self.context.settings;
        let (system_prompt, report, fixed) = match &settings.workspace {
            // Layer 5 lists the tools, so the prompt follows them.
            Some(workspace) => {
                let assembled = workspace.assemble(
                    &self.binding().model,
                    &specs,
                    settings.counter,
                    crate::prompt::prompt_mode(profile),
                );
                let fixed = assembled.report.total_tokens;
                (Arc::new(assembled.system), Some(assembled.report), fixed)
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
            validators: Arc::new(validators(&self.tools)),
            specs: Arc::new(specs),
            system_prompt,
            report,
            fixed_prompt_tokens: fixed,
            sources,
        }
    }

    /// Makes the next [`Shared::tool_view`] rebuild the prompt (after a model switch).
    pub fn invalidate_tool_view(&self) {
        let mut view = self.tool_view.lock().unwrap_or_else(|p| p.into_inner());
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

    pub fn tool_specs(&self) -> Vec<ToolSpec> {
        self.tool_view().specs.as_ref().clone()
    }
}

/// Waits, at the start of a turn, until the MCP servers have had their startup time.
/// Returns false when the user interrupted the wait.
pub(crate) async fn wait_for_tools(shared: &Shared, cancel: &CancellationToken) -> bool {
    tokio::select! {
        _ = shared.tools.ready() => true,
        _ = cancel.cancelled() => false,
    }
}

fn status_event(s: ServerSnapshot) -> AgentEvent {
    AgentEvent::McpServerStatus {
        status: match s.status {
            ServerStatus::Starting => McpServerState::Starting,
            ServerStatus::Ready => McpServerState::Ready,
            ServerStatus::Failed => McpServerState::Failed,
            ServerStatus::Crashed => McpServerState::Crashed,
            ServerStatus::NeedsAuth => McpServerState::NeedsAuth,
            ServerStatus::Stopped => McpServerState::Stopped,
            ServerStatus::Disabled => McpServerState::Disabled,
        },
        transport: s.transport,
        source: s.source.to_string(),
        tools: u32::try_from(s.tools.len()).unwrap_or(u32::MAX),
        message: s.message,
        stderr_tail: s.stderr_tail,
        restarts: s.restarts,
        server: s.name,
    }
}

/// Turns the servers' state changes into session events until the session ends.
pub(crate) fn forward_status(
    shared: Arc<Shared>,
    mcp: McpManager,
    mut finished: watch::Receiver<bool>,
) {
    let mut events = mcp.subscribe();
    tokio::spawn(async move {
        let emit = |snapshot: ServerSnapshot| {
            let _ = shared.emitter.emit(None, status_event(snapshot));
        };
        for snapshot in mcp.servers() {
            emit(snapshot);
        }
        loop {
            tokio::select! {
                event = events.recv() => match event {
                    Ok(McpEvent::Status(snapshot)) => emit(snapshot),
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                changed = finished.changed() => {
                    if changed.is_err() || *finished.borrow() {
                        break;
                    }
                }
            }
        }
    });
}

/// Keeps the tool view's lock type in one place.
pub(crate) fn view_cell(view: ToolView) -> Mutex<Arc<ToolView>> {
    Mutex::new(Arc::new(view))
}
