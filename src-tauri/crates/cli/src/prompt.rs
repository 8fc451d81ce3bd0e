//! `memo-cli prompt`: what the model would see in a folder, without starting a session.
//! Plain: the system prompt text. `--layers`: each layer with its sources, sizes and
//! token estimates. `--json`: the full report.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use memo_protocol::{PromptReport, SourceStatus};
use memo_service::ServiceError;

#[derive(clap::Args)]
pub struct PromptArgs {
    /// Folder to assemble the prompt for (default: the current directory).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// Provider name from config.toml (default: current_provider).
    #[arg(long)]
    pub provider: Option<String>,
    /// Model to assemble for (token counts and the environment section depend on it).
    #[arg(long)]
    pub model: Option<String>,
    /// Show the layers with their sources, sizes and token estimates.
    #[arg(long)]
    pub layers: bool,
    /// Print the full report as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: PromptArgs) -> ExitCode {
    match report(&args) {
        Ok(report) => {
            if args.json {
                match serde_json::to_string_pretty(&report) {
                    Ok(json) => println!("{json}"),
                    Err(err) => {
                        eprintln!("error: {err}");
                        return ExitCode::from(1);
                    }
                }
            } else if args.layers {
                print!("{}", render_layers(&report));
            } else {
                let system: Vec<&str> = report.layers[..report.layers.len().saturating_sub(1)]
                    .iter()
                    .map(|l| l.content.as_str())
                    .filter(|c| !c.is_empty())
                    .collect();
                println!("{}", system.join("\n\n"));
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            crate::report(&error);
            ExitCode::from(2)
        }
    }
}

fn report(args: &PromptArgs) -> Result<PromptReport, ServiceError> {
    let service = crate::service();
    for problem in service.init_home()? {
        eprintln!("warning: {}: {}", problem.path, problem.message);
    }
    let cwd = match &args.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| ServiceError::io("current directory", e))?,
    };
    service.prompt_layers(None, Some(cwd), args.provider.clone(), args.model.clone())
}

/// The layer table as text.
pub fn render_layers(report: &PromptReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Prompt for {} in {}", report.model, report.cwd);
    if report.workspace_root != report.cwd {
        let _ = writeln!(out, "Workspace root: {}", report.workspace_root);
    }
    let _ = writeln!(out, "Tokens counted with {}\n", report.token_counter);
    for (i, layer) in report.layers.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. {:<44} {:>8} chars {:>7} tokens",
            i + 1,
            layer.title,
            layer.chars,
            layer.tokens
        );
        for source in &layer.sources {
            let status = match source.status {
                SourceStatus::Loaded => String::new(),
                SourceStatus::Trimmed => format!(
                    " (trimmed from {} chars)",
                    source.original_chars.unwrap_or_default()
                ),
                SourceStatus::Missing => " (missing)".into(),
                SourceStatus::Empty => " (empty)".into(),
                SourceStatus::Untrusted => " (not applied: the folder is not trusted)".into(),
            };
            let _ = writeln!(
                out,
                "   - {}{status}: {} chars, {} tokens",
                source.path, source.chars, source.tokens
            );
        }
    }
    let _ = writeln!(
        out,
        "\nSystem prompt: {} chars, ~{} tokens; with tool definitions ~{} tokens per request.",
        report.system_chars, report.system_tokens, report.total_tokens
    );
    if !report.problems.is_empty() {
        out.push_str("\nProblems:\n");
        for p in &report.problems {
            let _ = writeln!(out, "   ! {}: {}", p.path, p.message);
        }
    }
    out
}
