//! The tool groups a main session offers on demand (memo-tools' `ToolGroups`): tools a
//! coding task rarely needs, listed only once the model loads them with `load_tools` (or
//! calls one), so that every request does not carry their definitions.

use memo_model::Message;
use memo_tools::groups::{GroupSpec, ToolGroups};

use crate::agents::collab::{CLOSE_AGENT, LIST_AGENTS, SEND_INPUT, SPAWN_AGENT, WAIT};

pub const ON_DEMAND: &[GroupSpec] = &[
    GroupSpec {
        name: "subagents",
        summary: "helper agents for side tasks",
        tools: &[SPAWN_AGENT, SEND_INPUT, WAIT, CLOSE_AGENT, LIST_AGENTS],
    },
    GroupSpec {
        name: "plan",
        summary: "a step plan shown to the user",
        tools: &["update_plan"],
    },
    GroupSpec {
        name: "memory",
        summary: "notes kept across sessions",
        tools: &["save_memory", "get_memory"],
    },
    GroupSpec {
        name: "web",
        summary: "fetch a URL",
        tools: &["webfetch"],
    },
];

/// Loads again the groups a stored conversation used, in the order it used them.
pub(crate) fn load_used(groups: &ToolGroups, history: &[Message]) {
    let calls = history.iter().flat_map(|message| match message {
        Message::Assistant { tool_calls, .. } => tool_calls
            .iter()
            .map(|c| (c.name.as_str(), c.arguments.as_str()))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    });
    groups.load_used(calls);
}
