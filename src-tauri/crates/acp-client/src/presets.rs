//! Agents people already use that speak ACP, as one-step presets for Settings → External
//! agents. Each names the command its package installs and how to install it; Memo shows
//! that command and never runs it (nor `npx`, which would install without asking).

use memo_protocol::ExternalAgentPreset;

fn preset(
    id: &str,
    label: &str,
    command: &str,
    args: &[&str],
    secrets: &[&str],
    install: &str,
) -> ExternalAgentPreset {
    ExternalAgentPreset {
        id: id.to_owned(),
        label: label.to_owned(),
        command: command.to_owned(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        secrets: secrets.iter().map(|s| (*s).to_owned()).collect(),
        install: install.to_owned(),
    }
}

/// The presets, in the order the page offers them.
pub fn all() -> Vec<ExternalAgentPreset> {
    vec![
        preset(
            "claude-code",
            "Claude Code",
            "claude-code-acp",
            &[],
            &["ANTHROPIC_API_KEY"],
            "npm install -g @zed-industries/claude-code-acp",
        ),
        preset(
            "codex",
            "Codex",
            "codex-acp",
            &[],
            &["OPENAI_API_KEY"],
            "npm install -g @zed-industries/codex-acp",
        ),
        preset(
            "gemini",
            "Gemini CLI",
            "gemini",
            &["--acp"],
            &["GEMINI_API_KEY"],
            "npm install -g @google/gemini-cli",
        ),
        preset(
            "opencode",
            "OpenCode",
            "opencode",
            &["acp"],
            &[],
            "npm install -g opencode-ai",
        ),
        preset(
            "goose",
            "Goose",
            "goose",
            &["acp"],
            &[],
            "curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash",
        ),
    ]
}
