//! The built-in slash commands: the ones the engine answers itself (`/help`, `/skills`,
//! `/models`, `/mcp`, ...) and the prompt `/init` sends. Which command a message is, is
//! decided in `input`.

use std::fmt::Write as _;

use memo_context::slash::Builtin;
use memo_context::{CommandFiles, EnvFacts, Templates};
use memo_protocol::{AgentEvent, HostAction, SessionId};
use serde_json::json;

use super::state::SessionState;

/// Answers a built-in command the engine handles without the model.
pub(crate) fn answer_builtin(
    shared: &SessionState,
    builtin: Builtin,
    args: &str,
    commands: &CommandFiles,
) {
    let (ok, output, action) = local(shared, builtin, args, commands);
    answer(shared, builtin.name(), ok, output, action);
}

pub(crate) fn answer(
    shared: &SessionState,
    command: &str,
    ok: bool,
    output: String,
    action: Option<HostAction>,
) {
    // A failed write is already reported to subscribers by the emitter.
    let _ = shared.emitter.emit(
        None,
        AgentEvent::CommandResult {
            command: format!("/{}", command.trim_start_matches('/')),
            ok,
            output,
            action,
        },
    );
}

pub(crate) fn init_prompt(shared: &SessionState, args: &str) -> String {
    let (templates, env) = match &shared.context.settings.workspace {
        Some(ws) => (ws.templates.clone(), ws.env.clone()),
        None => (
            Templates::builtin_only(),
            EnvFacts::fixed(&shared.tool_ctx.cwd, &shared.tool_ctx.cwd),
        ),
    };
    let vars = json!({ "env": env, "model": shared.binding().model, "file_name": "AGENTS.md" });
    let mut problems = Vec::new();
    let mut prompt = templates.render("init.md", &vars, &mut problems).text;
    if !args.is_empty() {
        let _ = write!(prompt, "\n\nThe user adds: {args}");
    }
    prompt.trim().to_owned()
}

/// `/agents`: the agent types this session's subagents can run as.
fn agents(shared: &SessionState) -> (bool, String, Option<HostAction>) {
    let Some(children) = &shared.context.settings.children else {
        return (
            false,
            "Subagents are turned off (MEMO_ENABLE_COLLAB_TOOLS=0, or enable_collab_tools = \
             false in config.toml)."
                .into(),
            None,
        );
    };
    let (infos, problems) = children.0.agent_types();
    let mut out = String::from("Agent types (/agents <type> <task> delegates a task):\n");
    for info in infos.iter().filter(|i| i.shadows.is_none()) {
        let source = match info.source {
            memo_protocol::AgentSource::Builtin => "built-in".to_owned(),
            _ => info.path.clone().unwrap_or_default(),
        };
        let _ = writeln!(out, "  {} — {} ({source})", info.name, info.description);
    }
    for info in infos.iter().filter(|i| i.shadows.is_some()) {
        let why = info.shadows.as_deref().unwrap_or_default();
        let path = info.path.as_deref().unwrap_or_default();
        let _ = writeln!(out, "  not used: {} in {path} ({why})", info.name);
    }
    for problem in &problems {
        let _ = writeln!(out, "  could not read {problem}");
    }
    (true, out.trim_end().to_owned(), None)
}

/// `/agents <type> <task>`: the message that has the model hand `task` to that agent.
pub(crate) fn delegate_prompt(shared: &SessionState, args: &str) -> Result<String, String> {
    let Some(children) = &shared.context.settings.children else {
        return Err("Subagents are turned off in this session.".into());
    };
    let (name, task) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let (infos, _) = children.0.agent_types();
    if !infos.iter().any(|i| i.name == name && i.shadows.is_none()) {
        let names: Vec<&str> = infos
            .iter()
            .filter(|i| i.shadows.is_none())
            .map(|i| i.name.as_str())
            .collect();
        return Err(format!(
            "There is no agent type {name}. The agent types are: {}.",
            names.join(", ")
        ));
    }
    if task.trim().is_empty() {
        return Err(format!("Say what {name} should do: /agents {name} <task>."));
    }
    Ok(format!(
        "Hand this task to a subagent of type `{name}`: call spawn_agent with agent_type \
         \"{name}\" and the task below as its message (add any context it needs from our \
         conversation: it sees none of it), wait for it, then tell me what it found or did.\n\n\
         Task: {}",
        task.trim()
    ))
}

/// Built-ins the engine answers without the model.
fn local(
    shared: &SessionState,
    builtin: Builtin,
    args: &str,
    commands: &CommandFiles,
) -> (bool, String, Option<HostAction>) {
    let settings = &shared.context.settings;
    match builtin {
        Builtin::Help => {
            let mut out = help(commands);
            if let Some(mcp) = &settings.mcp {
                let prompts = mcp.prompts();
                if !prompts.is_empty() {
                    out.push_str("\n\nMCP prompts:\n");
                    for p in &prompts {
                        let desc = p.description.as_deref().unwrap_or("(no description)");
                        let _ = writeln!(out, "  {} — {desc}", memo_mcp::prompts::usage(p));
                    }
                    out.truncate(out.trim_end().len());
                }
            }
            (true, out, None)
        }
        Builtin::Skills => (true, skills(shared), None),
        Builtin::Agents => agents(shared),
        Builtin::New => (
            true,
            "Starting a new session.".into(),
            Some(HostAction::NewSession),
        ),
        Builtin::Resume => (
            true,
            "Choose a session to resume.".into(),
            Some(HostAction::ResumeSession {
                session_id: Some(args.trim())
                    .filter(|a| !a.is_empty())
                    .map(|a| SessionId::new(a.to_owned())),
            }),
        ),
        Builtin::Models if !args.trim().is_empty() => {
            let (provider, model) = super::model::parse_target(args, &settings.providers);
            match shared.switch_model(provider, model) {
                Ok(binding) => (
                    true,
                    format!(
                        "Switched to {} · {} (context window {} tokens) for the next turns.",
                        binding.provider, binding.model, binding.context_window
                    ),
                    None,
                ),
                Err(reason) => (false, format!("Could not switch: {reason}"), None),
            }
        }
        Builtin::Models => {
            let binding = shared.binding();
            let mut out = format!(
                "Current model: {} · {} (context window {} tokens, compaction at {}%).",
                binding.provider,
                binding.model,
                binding.context_window,
                settings.auto_compact_threshold_percent
            );
            if !settings.providers.is_empty() {
                out.push_str("\nConfigured providers:");
                for p in &settings.providers {
                    let mark = if p.is_current { " (current)" } else { "" };
                    let _ = write!(out, "\n- {}: {} via {}{mark}", p.name, p.model, p.api);
                }
                out.push_str("\n/models NAME switches: a provider, provider:model, or a model.");
            }
            (true, out, Some(HostAction::PickModel))
        }
        Builtin::Mcp => (true, mcp(shared), None),
        // Handled by `input::dispatch`; listed so the match stays exhaustive.
        Builtin::Compact | Builtin::Clear | Builtin::Init => (false, String::new(), None),
    }
}

fn help(commands: &CommandFiles) -> String {
    let mut out = String::from("Built-in commands:\n");
    for b in Builtin::ALL {
        let _ = writeln!(out, "  {}", b.usage());
    }
    let custom: Vec<_> = commands.iter().collect();
    if !custom.is_empty() {
        out.push_str("\nCustom commands:\n");
        for c in custom {
            let hint = c
                .argument_hint
                .as_deref()
                .map(|h| format!(" {h}"))
                .unwrap_or_default();
            let desc = c.description.as_deref().unwrap_or("(no description)");
            let _ = writeln!(out, "  /{}{hint} — {desc} ({})", c.name, c.path.display());
        }
    }
    for p in commands.problems() {
        let _ = writeln!(out, "  ! {}: {}", p.path, p.message);
    }
    out.push_str(
        "\nIn any message: `@path` attaches a file or folder, `$skill` loads a skill's instructions.",
    );
    out
}

fn skills(shared: &SessionState) -> String {
    let Some(ws) = &shared.context.settings.workspace else {
        return "No skills: this session has no workspace context.".into();
    };
    let mut out = String::new();
    if ws.skills.is_empty() {
        out.push_str("No skills found.\n");
    } else {
        out.push_str("Skills (load one with $name, or let the agent pick):\n");
        for s in ws.skills.skills() {
            let _ = writeln!(
                out,
                "  ${} — {} ({})",
                s.key(),
                s.description,
                s.display_path()
            );
        }
    }
    for p in ws.skills.problems() {
        let _ = writeln!(out, "  ! {}: {}", p.path, p.message);
    }
    out.trim_end().to_owned()
}

fn mcp(shared: &SessionState) -> String {
    if let Some(mcp) = &shared.context.settings.mcp {
        return mcp.describe();
    }
    let servers = &shared.context.settings.mcp_servers;
    if servers.is_empty() {
        return "No MCP servers are configured. Add one in Settings → MCP.".into();
    }
    let mut out = String::from("MCP servers:\n");
    for server in servers {
        let prefix = format!("{server}__");
        let specs = shared.tool_specs();
        let tools: Vec<&str> = specs
            .iter()
            .filter_map(|t| t.name.strip_prefix(&prefix))
            .collect();
        if tools.is_empty() {
            let _ = writeln!(out, "  {server}: configured, no tools loaded");
        } else {
            let _ = writeln!(out, "  {server}: {}", tools.join(", "));
        }
    }
    out.trim_end().to_owned()
}
