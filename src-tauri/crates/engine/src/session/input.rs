//! What happens to a user message before its turn, in one place, in two stages:
//! - in the actor, at once ([`dispatch`]): images are checked (a refused message starts
//!   nothing), and a `/command` is answered here, becomes a compaction, or becomes the
//!   prompt of a turn;
//! - in the turn's task, before `turn_started` is recorded ([`prepare`]): a
//!   `/server:prompt` is fetched from its MCP server, and `$skill` and `@path` references
//!   are expanded. Both can take a while (a server round trip, file reads), which must not
//!   hold up the actor, and the log then holds exactly what the model received.

use memo_context::command_files::{resolve, Resolved};
use memo_context::slash::{self, Builtin};
use memo_context::CommandFiles;
use memo_mcp::{McpManager, PromptCommand};
use memo_protocol::{CompactionTrigger, InputExpansion, UserInput};
use tokio_util::sync::CancellationToken;

use super::slash_answers;
use super::state::SessionState;

/// What the actor does with a user message.
pub(crate) enum Dispatch {
    /// Run a turn with this input.
    Turn(TurnInput),
    /// Run `/compact` or `/clear` as the session's task.
    Compact {
        trigger: CompactionTrigger,
        instructions: Option<String>,
    },
    /// Already answered (a local command, a refused message): nothing runs.
    Done,
}

/// A message accepted for a turn, not yet prepared.
pub(crate) struct TurnInput {
    /// As typed; a command may have set its expansion.
    input: UserInput,
    /// Set for `/server:prompt`: the server to fetch the prompt from.
    mcp_prompt: Option<McpManager>,
}

/// What preparing a turn's input came to.
pub(crate) enum Prepared {
    /// The input the turn starts with.
    Ready(UserInput),
    /// The MCP prompt could not be had: answered like any failed command, no turn.
    Failed { command: String, message: String },
    /// The user interrupted before the turn started.
    Interrupted,
}

pub(crate) fn dispatch(shared: &SessionState, input: UserInput) -> Dispatch {
    // Images are checked before anything else happens: a refused message starts no turn,
    // runs no command and sends nothing.
    let binding = shared.binding();
    if let Err(refusal) =
        super::images::check(&input.images, &binding.model, binding.supports_vision)
    {
        shared.report_error(refusal.kind, &refusal.message);
        return Dispatch::Done;
    }
    // A subagent's input is its task, written by a model: `/tmp is full` is no command.
    if shared.context.settings.subagent.is_some() {
        return turn(input);
    }
    let Some(call) = slash::parse(&input.text) else {
        return turn(input);
    };
    let commands = match &shared.context.settings.workspace {
        Some(ws) => CommandFiles::discover(&ws.command_file_roots()),
        None => CommandFiles::default(),
    };
    let args = call.args.to_owned();
    let name = call.name.to_owned();
    match resolve(&call, &commands) {
        Resolved::Builtin(Builtin::Compact) => Dispatch::Compact {
            trigger: CompactionTrigger::Manual,
            instructions: Some(args).filter(|a| !a.is_empty()),
        },
        Resolved::Builtin(Builtin::Clear) => Dispatch::Compact {
            trigger: CompactionTrigger::Clear,
            instructions: None,
        },
        Resolved::Builtin(Builtin::Init) => {
            let prompt = slash_answers::init_prompt(shared, &args);
            turn(with_prompt(input, prompt, "/init".to_owned()))
        }
        Resolved::Builtin(Builtin::Agents) if !args.is_empty() => {
            match slash_answers::delegate_prompt(shared, &args) {
                Ok(prompt) => turn(with_prompt(input, prompt, "/agents".to_owned())),
                Err(why) => {
                    slash_answers::answer(shared, "agents", false, why, None);
                    Dispatch::Done
                }
            }
        }
        Resolved::Builtin(builtin) => {
            slash_answers::answer_builtin(shared, builtin, &args, &commands);
            Dispatch::Done
        }
        Resolved::Custom(command) => {
            let prompt = command.expand(&args);
            turn(with_prompt(input, prompt, format!("/{name}")))
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
                Some(mcp) => Dispatch::Turn(TurnInput {
                    input,
                    mcp_prompt: Some(mcp),
                }),
                None => Dispatch::Done,
            }
        }
        Resolved::Unknown => {
            let output = format!("Unknown command /{name}. /help lists the commands.");
            slash_answers::answer(shared, &name, false, output, None);
            Dispatch::Done
        }
    }
}

fn turn(input: UserInput) -> Dispatch {
    Dispatch::Turn(TurnInput {
        input,
        mcp_prompt: None,
    })
}

fn with_prompt(mut input: UserInput, prompt: String, command: String) -> UserInput {
    input.expansion = Some(InputExpansion {
        prompt,
        command: Some(command),
        attachments: Vec::new(),
        notices: Vec::new(),
    });
    input
}

/// Fetches the MCP prompt, if any, then expands `$skill` and `@path` references.
pub(crate) async fn prepare(
    shared: &SessionState,
    input: TurnInput,
    cancel: &CancellationToken,
) -> Prepared {
    let TurnInput {
        mut input,
        mcp_prompt,
    } = input;
    if let Some(mcp) = mcp_prompt {
        let fetched = tokio::select! {
            fetched = mcp.expand_prompt_command(&input.text) => fetched,
            _ = cancel.cancelled() => return Prepared::Interrupted,
        };
        match fetched {
            Some(PromptCommand::Failed { command, message }) => {
                return Prepared::Failed { command, message }
            }
            Some(PromptCommand::Expanded { command, text }) => {
                input = with_prompt(input, text, command);
            }
            None => {}
        }
    }
    Prepared::Ready(expand(shared, input).await)
}

/// `$skill` and `@path` expansion, off the async threads (it reads files). Without a
/// workspace the input is used as typed (or as its command made it).
async fn expand(shared: &SessionState, mut input: UserInput) -> UserInput {
    let Some(ws) = shared.context.settings.workspace.clone() else {
        return input;
    };
    let limits = shared.context.settings.attach_limits;
    let denials = shared.refresh_read_denials();
    let typed = input.text.clone();
    let (text, command) = match &input.expansion {
        Some(e) => (e.prompt.clone(), e.command.clone()),
        None => (typed.clone(), None),
    };
    let expanded = tokio::task::spawn_blocking(move || {
        let denied = |path: &std::path::Path| {
            denials.denying(path).map(|rule| {
                format!(
                    "a rule denies reading it ({} `{}`)",
                    rule.source, rule.pattern
                )
            })
        };
        // Skills as they are now: created, edited or turned off since the session began.
        let skills = ws.skills_now();
        let mut ctx = ws.input_context(limits);
        ctx.skills = &skills;
        ctx.denied = Some(memo_context::DenyCheck(&denied));
        memo_context::input::expand(&typed, &text, command, ctx)
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
