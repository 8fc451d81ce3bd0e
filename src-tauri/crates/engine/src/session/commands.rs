//! What happens to a user message before a turn: a `/command` is answered here, becomes
//! a compaction, or becomes the prompt of a turn; `$skill` and `@path` references are
//! expanded (in the turn, before `turn_started` is recorded, so the log holds exactly
//! what the model received).

use std::fmt::Write as _;

use memo_context::slash::{self, Builtin, Resolved};
use memo_context::{CommandSet, EnvFacts, Templates};
use memo_protocol::{
    AgentEvent, CompactionTrigger, HostAction, InputExpansion, SessionId, UserInput,
};
use serde_json::json;

use super::actor::Shared;

/// What the actor does with a user message.
pub(crate) enum Dispatch {
    /// Run a turn with this input (a command may have set its expansion).
    Turn(UserInput),
    /// Run `/compact` or `/clear` as the session's task.
    Compact {
        trigger: CompactionTrigger,
        instructions: Option<String>,
    },
    /// `/server:prompt`: fetch the MCP prompt, then run it as a turn.
    McpPrompt(UserInput, memo_mcp::McpManager),
    /// Answered with a `command_result` event.
    Done,
}

pub(crate) fn dispatch(shared: &Shared, input: UserInput) -> Dispatch {
    let Some(call) = slash::parse(&input.text) else {
        return Dispatch::Turn(input);
    };
    let commands = match &shared.context.settings.workspace {
        Some(ws) => CommandSet::discover(&ws.command_roots()),
        None => CommandSet::default(),
    };
    let args = call.args.to_owned();
    let name = call.name.to_owned();
    match slash::resolve(&call, &commands) {
        Resolved::Builtin(Builtin::Compact) => Dispatch::Compact {
            trigger: CompactionTrigger::Manual,
            instructions: Some(args).filter(|a| !a.is_empty()),
        },
        Resolved::Builtin(Builtin::Clear) => Dispatch::Compact {
            trigger: CompactionTrigger::Clear,
            instructions: None,
        },
        Resolved::Builtin(Builtin::Init) => {
            let prompt = init_prompt(shared, &args);
            Dispatch::Turn(with_prompt(input, prompt, "/init"))
        }
        Resolved::Builtin(builtin) => {
            let (ok, output, action) = local(shared, builtin, &args, &commands);
            answer(shared, builtin.name(), ok, output, action);
            Dispatch::Done
        }
        Resolved::Custom(command) => {
            let prompt = command.expand(&args);
            Dispatch::Turn(with_prompt(input, prompt, &format!("/{name}")))
        }
        // Custom commands keep their `/dir:name` names; only the rest may be MCP prompts.
        Resolved::Unknown
            if shared
                .context
                .settings
                .mcp
                .as_ref()
                .is_some_and(|m| m.is_prompt_command(&input.text)) =>
        {
            match shared.context.settings.mcp.clone() {
                Some(mcp) => Dispatch::McpPrompt(input, mcp),
                None => Dispatch::Done,
            }
        }
        Resolved::Unknown => {
            let output = format!("Unknown command /{name}. /help lists the commands.");
            answer(shared, &name, false, output, None);
            Dispatch::Done
        }
    }
}

fn with_prompt(mut input: UserInput, prompt: String, command: &str) -> UserInput {
    input.expansion = Some(InputExpansion {
        prompt,
        command: Some(command.to_owned()),
        attachments: Vec::new(),
        notices: Vec::new(),
    });
    input
}

fn answer(shared: &Shared, command: &str, ok: bool, output: String, action: Option<HostAction>) {
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

fn init_prompt(shared: &Shared, args: &str) -> String {
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

/// Built-ins the engine answers without the model.
fn local(
    shared: &Shared,
    builtin: Builtin,
    args: &str,
    commands: &CommandSet,
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
        // Handled by `dispatch`; listed so the match stays exhaustive.
        Builtin::Compact | Builtin::Clear | Builtin::Init => (false, String::new(), None),
    }
}

fn help(commands: &CommandSet) -> String {
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

fn skills(shared: &Shared) -> String {
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

fn mcp(shared: &Shared) -> String {
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

/// `$skill` and `@path` expansion of a turn's input, off the async threads (it reads
/// files). Without a workspace the input is used as typed (or as its command made it).
pub(crate) async fn expand_input(shared: &Shared, mut input: UserInput) -> UserInput {
    let Some(ws) = shared.context.settings.workspace.clone() else {
        return input;
    };
    let limits = shared.context.settings.attach_limits;
    let typed = input.text.clone();
    let (text, command) = match &input.expansion {
        Some(e) => (e.prompt.clone(), e.command.clone()),
        None => (typed.clone(), None),
    };
    let expanded = tokio::task::spawn_blocking(move || {
        memo_context::input::expand(&typed, &text, command, ws.input_context(limits))
    })
    .await;
    match expanded {
        Ok(expansion) => input.expansion = expansion,
        Err(err) => {
            tracing::warn!(error = %err, "input expansion failed; sending the message as typed")
        }
    }
    input
}
