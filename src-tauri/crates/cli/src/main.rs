//! `memo-cli`: the engine without a window. `exec` runs one turn and prints the same event
//! stream the desktop app renders, as text or as JSONL.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod acp;
mod approve;
mod exec;
mod git;
mod key;
mod mcp;
mod mcp_text;
mod prompt;
mod render;
mod sessions;
mod sessions_text;
mod trust;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "memo-cli", version, about = "Memo coding agent, headless")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one task to completion and print the agent's events.
    Exec(ExecArgs),
    /// Manage provider API keys in the OS keychain (never written to config.toml).
    Key {
        #[command(subcommand)]
        action: key::KeyAction,
    },
    /// Show what the model would see in a folder: the system prompt, or with --layers
    /// each layer's sources, sizes and token estimates.
    Prompt(prompt::PromptArgs),
    /// Stored sessions: list, show, search, export, import, fork, rename, delete, usage.
    Sessions {
        #[command(subcommand)]
        action: sessions::SessionsAction,
    },
    /// MCP servers: list, get, add, remove, login, logout.
    Mcp {
        #[command(subcommand)]
        action: mcp::McpAction,
    },
    /// From review to commit: status, diff, stage hunks, commit (with a drafted message),
    /// push and open a pull request, through the person's own git.
    Git {
        #[command(flatten)]
        place: git::Place,
        #[command(subcommand)]
        action: git::GitAction,
    },
    /// Serve the Agent Client Protocol on stdin/stdout, for Zed, JetBrains, Neovim and
    /// other ACP clients (see docs/acp.md). Logs go to stderr.
    Acp,
}

#[derive(clap::Args)]
pub struct ExecArgs {
    /// The task for the agent.
    pub prompt: String,
    /// Working directory of the session (default: the current directory).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// Provider name from config.toml (default: current_provider).
    #[arg(long)]
    pub provider: Option<String>,
    /// Model to use instead of the provider's configured one.
    #[arg(long)]
    pub model: Option<String>,
    /// Print every event as one JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Continue an existing session instead of starting a new one.
    #[arg(long, value_name = "SESSION_ID")]
    pub resume: Option<String>,
    /// Run the task on an external agent from config.toml's `[external_agents]` (Claude
    /// Code, Codex, Gemini CLI… over ACP) instead of Memo's own, under Memo's approvals.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["provider", "model", "resume"])]
    pub external_agent: Option<String>,
    /// With --external-agent: set one of the agent's own settings before the task, as
    /// `ID=VALUE` (repeatable): its mode (`mode=plan`), its model (`model=opus`), or any
    /// option it offers; what it offers is printed when it starts.
    #[arg(long = "agent-setting", value_name = "ID=VALUE", requires = "external_agent", value_parser = agent_setting)]
    pub agent_settings: Vec<(String, String)>,
    /// Approve tool calls that ask for approval up to execute risk: file changes and
    /// ordinary commands (exec cannot ask interactively). Critical calls and commands that
    /// ask to leave the sandbox are still refused unless allowed by the flags below.
    #[arg(long)]
    pub yes: bool,
    /// DANGEROUS: with --yes, also approve critical calls: commands the guard flags
    /// (writes or deletions under /etc, /usr, ~/.ssh and other system or credential paths,
    /// a force-push to main, commands it cannot read). A model steered by text it read can
    /// then destroy data or credentials.
    #[arg(long, requires = "yes")]
    pub allow_critical: bool,
    /// DANGEROUS: with --yes, also approve a command's request to run outside the sandbox
    /// (`sandbox_permissions: "require_escalated"`): Landlock is lifted for it and it may
    /// write anywhere you can.
    #[arg(long, requires = "yes")]
    pub allow_escalation: bool,
    /// Maximum model steps in the turn.
    #[arg(long)]
    pub max_steps: Option<u32>,
    /// Start the MCP servers this folder's own files declare (.mcp.json,
    /// .gemini/settings.json, .cursor/mcp.json) for this run even though the folder is not
    /// trusted. They run programs from the project: only for code you trust.
    #[arg(long)]
    pub trust: bool,
}

/// `$MEMO_HOME`, or `~/.memo`; a failure is reported by the first command that needs it.
pub fn memo_home() -> Result<memo_config::MemoHome, String> {
    memo_config::MemoHome::resolve().map_err(|e| e.to_string())
}

/// The engine service over the OS keychain (or environment variables only, where there is
/// none) and the process environment.
pub fn service() -> memo_service::Service {
    memo_service::Service::for_process(memo_home())
}

/// Prints a typed error as `error: message`; its code picks the exit code: not found is
/// 1, every other failure 2.
pub fn report(error: &memo_service::ServiceError) -> ExitCode {
    eprintln!("error: {error}");
    match error.code() {
        memo_protocol::ErrorCode::NotFound => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}

fn main() -> ExitCode {
    // Memo's sandbox wrapper, which an editor's terminal runs for Memo's commands over
    // ACP: before anything else (no logging, no runtime, no threads), as it becomes the
    // command. Not a subcommand people use, so not in the help.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(memo_service::SANDBOX_EXEC) {
        eprintln!("{}", memo_service::sandbox_exec_main(&args[1..]));
        return ExitCode::from(126);
    }
    let cli = Cli::parse();
    if let Err(err) = memo_config::init_tracing("warn") {
        eprintln!("warning: logging disabled: {err}");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return ExitCode::from(1);
        }
    };
    match cli.command {
        Command::Exec(args) => runtime.block_on(exec::run(args)),
        Command::Key { action } => key::run(action),
        Command::Prompt(args) => prompt::run(args),
        Command::Sessions { action } => sessions::run(action, &runtime),
        Command::Mcp { action } => mcp::run(action, &runtime),
        Command::Git { place, action } => git::run(place, action, &runtime),
        Command::Acp => runtime.block_on(acp::run()),
    }
}

/// `ID=VALUE` of `--agent-setting`.
fn agent_setting(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((id, value)) if !id.trim().is_empty() && !value.trim().is_empty() => {
            Ok((id.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!(
            "expected ID=VALUE (for instance mode=plan), got `{text}`"
        )),
    }
}
