//! What memo-cli says about a folder it will not start project servers in.

use std::path::Path;

use memo_protocol::TrustState;
use memo_service::Service;

/// Warns on stderr when the folder's project files declare MCP servers that will not start
/// because the folder is not trusted (a damaged trust file is reported the same way).
pub fn warn_if_untrusted(service: &Service, cwd: &Path) {
    match service.workspace_trust(cwd) {
        Ok(report)
            if (report.servers.is_empty()
                && report.permissions.is_empty()
                && report.hooks.is_empty()
                && report.prompt_files.is_empty())
                || report.state == TrustState::Trusted => {}
        Ok(report) => {
            let why = match report.state {
                TrustState::Changed => "the folder's project files changed since it was trusted",
                TrustState::Untrusted => "the folder is marked not trusted",
                _ => "the folder is not trusted",
            };
            eprintln!(
                "note: not using {} MCP server(s), {} allow rule(s), {} hook(s) and {} instruction file(s) from this folder's project files: {why}:",
                report.servers.len(),
                report.permissions.len(),
                report.hooks.len(),
                report.prompt_files.len()
            );
            for server in &report.servers {
                eprintln!("  {} ({}): {}", server.name, server.file, server.runs);
            }
            for rule in &report.permissions {
                eprintln!("  allow rule ({}): {}", rule.file, rule.text);
            }
            for hook in &report.hooks {
                eprintln!("  {hook}");
            }
            for file in &report.prompt_files {
                eprintln!("  {} {} (Memo's own are used)", file.path, file.effect);
            }
            eprintln!(
                "      They run programs from the project. Pass --trust to start them for this run, or trust the folder in Memo Desktop."
            );
        }
        Err(error) => eprintln!("note: project MCP servers not started: {error}"),
    }
}
