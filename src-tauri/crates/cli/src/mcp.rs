//! `memo-cli mcp list|get|add|remove|login|logout`, in the spirit of Memo Code's `memo mcp`:
//! servers from config.toml and the project's `.mcp.json`, `.gemini/settings.json` and
//! `.cursor/mcp.json` (each with its source), `--status` to start them and report their
//! state and tools, OAuth login with tokens in the OS keychain. `--json` everywhere.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use memo_config::{Config, MemoHome};
use memo_mcp::{McpConfigSet, ServerConfig, ServerSnapshot, SourceKind};
use memo_protocol::{McpSecretInput, McpServerInput, McpTransportKind, TrustState};
use serde_json::{json, Value};

#[derive(Subcommand)]
pub enum McpAction {
    /// List the MCP servers a session in the folder would start, with their source.
    List {
        #[command(flatten)]
        common: Common,
        /// Start the servers and report their state and tools.
        #[arg(long)]
        status: bool,
    },
    /// Show one server's configuration (env and header values masked).
    Get {
        name: String,
        #[command(flatten)]
        common: Common,
        /// Start the server and report its state, tools and prompts.
        #[arg(long)]
        status: bool,
    },
    /// Add a server to config.toml: `add NAME -- CMD ARGS...` (stdio) or
    /// `add NAME --url URL` (streamable HTTP; `--transport sse` for the legacy one).
    /// `--env` and `--header` values go to the OS keychain, as in the app.
    Add(AddArgs),
    /// Remove a server from config.toml, with its keychain values.
    Remove {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Sign in to an HTTP server with OAuth; the tokens go to the OS keychain.
    Login {
        name: String,
        #[command(flatten)]
        common: Common,
        /// Print the sign-in URL without opening a browser.
        #[arg(long)]
        no_browser: bool,
    },
    /// Forget a server's OAuth tokens.
    Logout {
        name: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
pub struct Common {
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Folder whose project MCP files are read (default: the current directory).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// With --status: start the project's own servers even though the folder is not
    /// trusted. They run programs from the project: only for code you trust.
    #[arg(long)]
    trust: bool,
}

#[derive(Args)]
pub struct AddArgs {
    name: String,
    /// URL of an HTTP server.
    #[arg(long)]
    url: Option<String>,
    /// streamable_http (default for --url) or sse.
    #[arg(long, value_parser = ["streamable_http", "http", "sse"])]
    transport: Option<String>,
    #[arg(long, value_name = "VAR")]
    bearer_token_env_var: Option<String>,
    /// An HTTP header, repeatable.
    #[arg(long = "header", value_name = "KEY=VALUE")]
    headers: Vec<String>,
    /// An environment variable for a stdio server, repeatable.
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    #[arg(long)]
    json: bool,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true)]
    command: Vec<String>,
}

/// A failure and its exit code (1: the operation failed, 2: setup or usage).
struct Failure(u8, String);

fn setup(message: impl std::fmt::Display) -> Failure {
    Failure(2, message.to_string())
}

pub fn run(action: McpAction, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let json = match &action {
        McpAction::List { common, .. }
        | McpAction::Get { common, .. }
        | McpAction::Login { common, .. } => common.json,
        McpAction::Add(args) => args.json,
        McpAction::Remove { json, .. } | McpAction::Logout { json, .. } => *json,
    };
    match run_inner(action, runtime) {
        Ok((value, text)) => {
            if json {
                print_out(&serde_json::to_string_pretty(&value).unwrap_or_default());
            } else {
                print_out(&text);
            }
            ExitCode::SUCCESS
        }
        Err(Failure(code, message)) => {
            if json {
                print_out(&json!({ "error": message }).to_string());
            }
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}

/// Like `println!`, without panicking when the reader went away (`| head`).
fn print_out(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

fn load(cwd: Option<PathBuf>) -> Result<(Config, McpConfigSet, PathBuf), Failure> {
    let home = MemoHome::resolve().map_err(setup)?;
    let config = Config::load(&home).map_err(setup)?;
    let cwd = match cwd {
        Some(dir) => dir,
        None => std::env::current_dir().map_err(setup)?,
    };
    let set = memo_mcp::load_config(&config, Some(&cwd), &|name: &str| std::env::var(name).ok());
    Ok((config, set, cwd))
}

/// The servers `--status` may start: all of Memo's own, and the project's only in a
/// trusted folder (or with `--trust`). Also returns the names left out.
fn startable(
    servers: Vec<ServerConfig>,
    cwd: &Path,
    trust: bool,
) -> (Vec<ServerConfig>, Vec<String>) {
    let trusted = trust
        || crate::service()
            .workspace_trust(cwd)
            .is_ok_and(|r| r.state == TrustState::Trusted);
    let (start, skip): (Vec<_>, Vec<_>) = servers
        .into_iter()
        .partition(|s| trusted || s.source.kind == SourceKind::Memo);
    (start, skip.into_iter().map(|s| s.name).collect())
}

fn run_inner(action: McpAction, rt: &tokio::runtime::Runtime) -> Result<(Value, String), Failure> {
    match action {
        McpAction::List { common, status } => {
            let (_, set, cwd) = load(common.cwd)?;
            let (snapshots, untrusted) = if status {
                let (startable, untrusted) = startable(set.servers.clone(), &cwd, common.trust);
                (probe(rt, startable, &cwd), untrusted)
            } else {
                (Vec::new(), Vec::new())
            };
            Ok(crate::mcp_text::list(&set, &snapshots, &untrusted))
        }
        McpAction::Get {
            name,
            common,
            status,
        } => {
            let (_, set, cwd) = load(common.cwd)?;
            let server = set
                .get(&name)
                .cloned()
                .ok_or_else(|| Failure(1, format!("no MCP server named \"{name}\"")))?;
            let snapshot = if status {
                let (startable, untrusted) = startable(vec![server.clone()], &cwd, common.trust);
                if !untrusted.is_empty() {
                    return Err(Failure(
                        1,
                        format!(
                            "\"{name}\" comes from {} and this folder is not trusted, so it was not started; pass --trust to start it (it runs a program from the project)",
                            server.source
                        ),
                    ));
                }
                probe(rt, startable, &cwd).pop()
            } else {
                None
            };
            Ok(crate::mcp_text::get(&server, snapshot.as_ref(), &set))
        }
        McpAction::Add(args) => add(args),
        McpAction::Remove { name, .. } => {
            let cwd = std::env::current_dir().map_err(setup)?;
            let path = config_path()?;
            crate::service()
                .remove_mcp_server(&name, Some(&cwd))
                .map_err(|e| Failure(1, e.to_string()))?;
            Ok((
                json!({ "removed": name, "path": path }),
                format!("removed MCP server \"{name}\" from {}", path.display()),
            ))
        }
        McpAction::Login {
            name,
            common,
            no_browser,
        } => {
            let cwd = match common.cwd {
                Some(dir) => dir,
                None => std::env::current_dir().map_err(setup)?,
            };
            let browser = std::env::var("BROWSER").ok();
            let opener = |url: &str| -> Result<(), String> {
                eprintln!("Open this URL to sign in to \"{name}\":\n  {url}");
                if !no_browser {
                    if let Err(e) = memo_mcp::oauth_flow::open_in_browser(browser.as_deref(), url) {
                        eprintln!("({e}; open the URL yourself)");
                    }
                }
                Ok(())
            };
            let tokens = rt
                .block_on(crate::service().mcp_login(Some(&cwd), &name, Some(&opener)))
                .map_err(|e| Failure(1, e.to_string()))?;
            Ok((
                json!({ "logged_in": name, "scope": tokens.scope, "expires_at": tokens.expires_at }),
                format!("signed in to \"{name}\"; the tokens are in the OS keychain"),
            ))
        }
        McpAction::Logout { name, .. } => {
            let removed = crate::service()
                .mcp_logout(&name)
                .map_err(|e| Failure(1, e.to_string()))?;
            Ok((
                json!({ "logged_out": name, "had_tokens": removed }),
                if removed {
                    format!("signed out of \"{name}\"")
                } else {
                    format!("no OAuth tokens stored for \"{name}\"")
                },
            ))
        }
    }
}

/// `KEY=VALUE` items as the form's values: each goes to the OS keychain.
fn values(items: &[String], what: &str) -> Result<Vec<McpSecretInput>, Failure> {
    items
        .iter()
        .map(|item| {
            item.split_once('=')
                .filter(|(k, _)| !k.is_empty())
                .map(|(k, v)| McpSecretInput {
                    name: k.to_owned(),
                    value: Some(v.to_owned()),
                })
                .ok_or_else(|| setup(format!("{what} \"{item}\" is not KEY=VALUE")))
        })
        .collect()
}

fn config_path() -> Result<PathBuf, Failure> {
    Ok(MemoHome::resolve().map_err(setup)?.config_toml())
}

/// The server as the app's form would give it, saved by the same service call.
fn add(args: AddArgs) -> Result<(Value, String), Failure> {
    let mut input = McpServerInput {
        name: args.name.clone(),
        transport: McpTransportKind::Stdio,
        command: String::new(),
        args: Vec::new(),
        env: Vec::new(),
        url: String::new(),
        headers: Vec::new(),
        bearer_token_env_var: None,
    };
    match (&args.url, args.command.split_first()) {
        (Some(_), Some(_)) => {
            return Err(setup("give either --url or a command after --, not both"))
        }
        (None, None) => return Err(setup("give a command after -- (stdio) or --url (HTTP)")),
        (Some(url), None) => {
            if !args.env.is_empty() {
                return Err(setup("--env is for stdio servers; use --header for HTTP"));
            }
            input.transport = if args.transport.as_deref() == Some("sse") {
                McpTransportKind::Sse
            } else {
                McpTransportKind::StreamableHttp
            };
            input.url = url.clone();
            input.headers = values(&args.headers, "header")?;
            input.bearer_token_env_var = args.bearer_token_env_var.clone();
        }
        (None, Some((command, rest))) => {
            if args.transport.as_deref().is_some_and(|t| t != "stdio")
                || !args.headers.is_empty()
                || args.bearer_token_env_var.is_some()
            {
                return Err(setup(
                    "--transport, --header and --bearer-token-env-var are for HTTP servers (--url)",
                ));
            }
            input.command = command.clone();
            input.args = rest.to_vec();
            input.env = values(&args.env, "env")?;
        }
    }
    let cwd = std::env::current_dir().map_err(setup)?;
    let path = config_path()?;
    crate::service()
        .save_mcp_server(&input, false, Some(&cwd))
        .map_err(|e| Failure(1, e.to_string()))?;
    Ok((
        json!({ "added": args.name, "path": path }),
        format!("added MCP server \"{}\" to {}", args.name, path.display()),
    ))
}

/// Starts the servers, waits for their first start to finish, and stops them again: the
/// service's check, which the app's Settings → MCP uses too.
fn probe(
    rt: &tokio::runtime::Runtime,
    servers: Vec<ServerConfig>,
    cwd: &std::path::Path,
) -> Vec<ServerSnapshot> {
    rt.block_on(crate::service().probe_mcp_servers(cwd, servers))
}
