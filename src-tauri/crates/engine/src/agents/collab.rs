//! Memo Code's collab tools: `spawn_agent`, `send_input`, `wait`, `close_agent` and
//! `list_agents`, over a session's [`Subagents`].
//!
//! Spawning changes nothing by itself, and everything a subagent does is approved under
//! its parent's policy call by call (its questions show in the parent), so these tools
//! are read-risk: asking the user to approve the spawn as well would ask twice.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use memo_protocol::{
    AgentEvent, AgentLine, RiskLevel, SubagentAction, SubagentState, SubagentView, ToolCallId,
    ToolView,
};
use serde::Deserialize;
use serde_json::json;

use super::runtime::{ChildStatus, Subagents};
use crate::tools::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

/// The collab tools' names: a subagent's session never has them (no agents of agents).
pub const COLLAB_TOOLS: &[&str] = &[
    "spawn_agent",
    "send_input",
    "wait",
    "close_agent",
    "list_agents",
];

/// What every collab tool says about itself: left out of small models' definitions (a
/// coding task can do without), read risk (see the module comment), changes nothing.
macro_rules! read_only_collab_tool {
    () => {
        fn essential(&self) -> bool {
            false
        }

        fn risk(&self) -> RiskLevel {
            RiskLevel::Read
        }

        fn is_mutating(&self) -> bool {
            false
        }
    };
}

/// `wait`'s default and longest wait.
const DEFAULT_WAIT: Duration = Duration::from_secs(60);
const MAX_WAIT: Duration = Duration::from_secs(30 * 60);

/// The five tools, sharing one runtime.
pub fn tools(agents: &Arc<Subagents>) -> Vec<Arc<dyn Tool>> {
    let description = format!(
        "Starts a subagent: another agent with its own conversation that works on `message` \
         (a complete, self-contained task: it sees nothing of this conversation) while you \
         go on. Several can run in parallel (at most {} at once). Returns its id at once; \
         use `wait` for its answer. Agent types (`agent_type`, default `general`):\n{}",
        agents.max_running(),
        agents.catalog().summary_for_model()
    );
    vec![
        Arc::new(SpawnAgent {
            agents: agents.clone(),
            description,
        }),
        Arc::new(SendInput(agents.clone())),
        Arc::new(Wait(agents.clone())),
        Arc::new(CloseAgent(agents.clone())),
        Arc::new(ListAgents(agents.clone())),
    ]
}

fn failed(message: String) -> ToolError {
    ToolError::failed(message)
}

fn text(value: serde_json::Value) -> ToolOutput {
    ToolOutput::text(serde_json::to_string_pretty(&value).unwrap_or_default())
}

/// The collab tools' names, as the model calls them.
pub const SPAWN_AGENT: &str = "spawn_agent";
pub const SEND_INPUT: &str = "send_input";
pub const WAIT: &str = "wait";
pub const CLOSE_AGENT: &str = "close_agent";
pub const LIST_AGENTS: &str = "list_agents";
pub const TOOL_NAMES: [&str; 5] = [SPAWN_AGENT, SEND_INPUT, WAIT, CLOSE_AGENT, LIST_AGENTS];

/// A collab call as people read it, from its arguments: the agents it names by id.
fn asked(action: SubagentAction, args: &serde_json::Value) -> SubagentView {
    let field = |key: &str| args.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let mut ids: Vec<String> = field("id").into_iter().collect();
    if let Some(many) = args.get("ids").and_then(|v| v.as_array()) {
        ids.extend(many.iter().filter_map(|v| v.as_str()).map(str::to_owned));
    }
    // A spawn without a type runs the general agent.
    let agent_type = field("agent_type")
        .or_else(|| (action == SubagentAction::Spawn).then(|| "general".to_owned()));
    SubagentView {
        action,
        task: field("message"),
        agent_type,
        agents: ids
            .into_iter()
            .map(|agent_id| AgentLine {
                agent_id,
                agent_type: None,
                state: None,
                answer: None,
                message: None,
            })
            .collect(),
        timed_out: false,
    }
}

/// The view of a collab tool's call from its name and arguments; `None` for any other
/// tool (for stored calls, read without the session's tools).
pub(crate) fn asked_view(name: &str, args: &serde_json::Value) -> Option<ToolView> {
    let action = match name {
        SPAWN_AGENT => SubagentAction::Spawn,
        SEND_INPUT => SubagentAction::Send,
        WAIT => SubagentAction::WaitFor,
        CLOSE_AGENT => SubagentAction::Close,
        LIST_AGENTS => SubagentAction::List,
        _ => return None,
    };
    Some(ToolView::Subagent(asked(action, args)))
}

fn line(status: &ChildStatus) -> AgentLine {
    AgentLine {
        agent_id: status.agent_id.clone(),
        agent_type: Some(status.agent_type.clone()),
        state: Some(status.state),
        answer: status.answer.clone(),
        message: status.message.clone(),
    }
}

/// The call's view once it ran: the agents as they stood.
fn answered(mut view: SubagentView, statuses: &[ChildStatus], timed_out: bool) -> ToolView {
    view.agents = statuses.iter().map(line).collect();
    view.timed_out = timed_out;
    ToolView::Subagent(view)
}

struct SpawnAgent {
    agents: Arc<Subagents>,
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpawnInput {
    message: String,
    #[serde(default)]
    agent_type: Option<String>,
}

impl Tool for SpawnAgent {
    fn name(&self) -> &str {
        SPAWN_AGENT
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn brief(&self) -> Option<&str> {
        Some("Starts a subagent on a self-contained task; `wait` for its answer.")
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "message": {"type": "string", "minLength": 1, "description": "The whole task, with everything the subagent needs to know."},
                "agent_type": {"type": "string", "description": "Which kind of agent (default general)."}
            },
            "required": ["message"],
            "additionalProperties": false
        })
    }

    read_only_collab_tool!();

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Subagent(asked(SubagentAction::Spawn, args))
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let view = asked(SubagentAction::Spawn, &args);
        let result = parse_args::<SpawnInput>("spawn_agent", args).and_then(|input| {
            let agent = self
                .agents
                .spawn(&input.message, input.agent_type.as_deref())
                .map_err(failed)?;
            let status = ChildStatus {
                agent_id: agent.agent_id.clone(),
                agent_type: agent.agent_type.clone(),
                state: SubagentState::Running,
                answer: None,
                message: None,
            };
            let view = SubagentView {
                agent_type: Some(agent.agent_type.clone()),
                ..view
            };
            let mut output = text(json!({
                "agent_id": agent.agent_id,
                "agent_type": agent.agent_type,
                "session_id": agent.session_id,
                "state": SubagentState::Running,
            }))
            .with_view(answered(view, &[status], false));
            // Recorded with the call, so the parent's transcript shows the child under it.
            output.event = ctx.call_id.map(|call_id| AgentEvent::SubagentStarted {
                call_id: ToolCallId::new(call_id),
                agent,
                task: input.message,
            });
            Ok(output)
        });
        Box::pin(async move { result })
    }
}

struct SendInput(Arc<Subagents>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SendArgs {
    id: String,
    message: String,
}

impl Tool for SendInput {
    fn name(&self) -> &str {
        SEND_INPUT
    }

    fn description(&self) -> &str {
        "Gives a subagent that has finished (or stopped) more to do: a follow-up question or \
         task in its own conversation. Use `wait` for its answer."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "minLength": 1},
                "message": {"type": "string", "minLength": 1}
            },
            "required": ["id", "message"],
            "additionalProperties": false
        })
    }

    read_only_collab_tool!();

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Subagent(asked(SubagentAction::Send, args))
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let view = asked(SubagentAction::Send, &args);
        let result = parse_args::<SendArgs>("send_input", args).and_then(|input| {
            let status = self
                .0
                .send_input(&input.id, &input.message)
                .map_err(failed)?;
            Ok(text(json!(status)).with_view(answered(view, &[status], false)))
        });
        Box::pin(async move { result })
    }
}

struct Wait(Arc<Subagents>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitArgs {
    #[serde(default)]
    ids: Vec<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
}

impl Tool for Wait {
    fn name(&self) -> &str {
        WAIT
    }

    fn description(&self) -> &str {
        "Waits until the given subagents (default: all of them) are done, at most \
         `timeout_ms` (default 60000), and returns each one's state and answer. \
         `timed_out` says some are still working: wait again or go on."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "ids": {"type": "array", "items": {"type": "string"}},
                "timeout_ms": {"type": "integer", "minimum": 1, "maximum": MAX_WAIT.as_millis() as u64}
            },
            "additionalProperties": false
        })
    }

    read_only_collab_tool!();

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Subagent(asked(SubagentAction::WaitFor, args))
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let agents = self.0.clone();
        let view = asked(SubagentAction::WaitFor, &args);
        Box::pin(async move {
            let input = parse_args::<WaitArgs>("wait", args)?;
            let timeout = input
                .timeout_ms
                .map_or(DEFAULT_WAIT, Duration::from_millis)
                .min(MAX_WAIT);
            let (statuses, timed_out) = agents
                .wait(&input.ids, timeout, &ctx.cancel)
                .await
                .map_err(failed)?;
            let view = answered(view, &statuses, timed_out);
            Ok(text(json!({ "agents": statuses, "timed_out": timed_out })).with_view(view))
        })
    }
}

struct CloseAgent(Arc<Subagents>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseArgs {
    id: String,
}

impl Tool for CloseAgent {
    fn name(&self) -> &str {
        CLOSE_AGENT
    }

    fn description(&self) -> &str {
        "Stops a subagent for good (also one still working) and frees its place; returns \
         its last state and answer."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {"id": {"type": "string", "minLength": 1}},
            "required": ["id"],
            "additionalProperties": false
        })
    }

    read_only_collab_tool!();

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Subagent(asked(SubagentAction::Close, args))
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let view = asked(SubagentAction::Close, &args);
        let result = parse_args::<CloseArgs>("close_agent", args).and_then(|input| {
            let status = self.0.close(&input.id).map_err(failed)?;
            Ok(text(json!(status)).with_view(answered(view, &[status], false)))
        });
        Box::pin(async move { result })
    }
}

struct ListAgents(Arc<Subagents>);

impl Tool for ListAgents {
    fn name(&self) -> &str {
        LIST_AGENTS
    }

    fn description(&self) -> &str {
        "Lists the subagents started in this session with their states and answers."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    }

    read_only_collab_tool!();

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        ToolView::Subagent(asked(SubagentAction::List, args))
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let list = self.0.list();
        let view = answered(asked(SubagentAction::List, &args), &list, false);
        Box::pin(async move { Ok(text(json!({ "agents": list })).with_view(view)) })
    }
}
