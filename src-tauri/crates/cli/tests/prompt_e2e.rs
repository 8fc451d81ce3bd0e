//! `memo-cli prompt` and slash commands through `memo-cli exec`, with a temporary
//! MEMO_HOME and HOME. No model is called.

use std::path::Path;
use std::process::{Command, Output};

use memo_protocol::{PromptLayerKind, PromptReport};

fn cli(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(args)
        .env("MEMO_HOME", home.join("memo"))
        .env("HOME", home)
        .env_remove("OPENAI_API_KEY")
        .env_remove("DEEPSEEK_API_KEY")
        .output()
        .expect("run memo-cli")
}

fn project(dir: &Path) -> std::path::PathBuf {
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(
        project.join("AGENTS.md"),
        "Run make check before committing.",
    )
    .unwrap();
    project
}

#[test]
fn prompt_layers_shows_every_layer_and_initialises_the_home() {
    let dir = tempfile::tempdir().unwrap();
    let project = project(dir.path());
    let cwd = project.display().to_string();

    let out = cli(dir.path(), &["prompt", "--layers", "--cwd", &cwd]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "1. Base instructions",
        "2. SOUL.md",
        "3. Project context",
        "4. Skills",
        "5. Tool descriptions",
        "6. Tool definitions",
        "builtin:base.md",
        &format!("{}: 33 chars", project.join("AGENTS.md").display()),
        "(empty)",
        "builtin:skill-creator/SKILL.md",
        "tokens per request",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    // First start created the home's files, BOOTSTRAP.md included.
    for name in [
        "SOUL.md",
        "AGENTS.md",
        "BOOTSTRAP.md",
        "skills",
        "commands",
        "prompts",
    ] {
        assert!(dir.path().join("memo").join(name).exists(), "{name}");
    }

    let out = cli(dir.path(), &["prompt", "--json", "--cwd", &cwd]);
    assert!(out.status.success());
    let report: PromptReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report.layers.len(), 6);
    assert_eq!(report.layers[5].kind, PromptLayerKind::ToolDefinitions);
    assert!(report.layers[2]
        .content
        .contains("Run make check before committing."));

    let out = cli(dir.path(), &["prompt", "--cwd", &cwd]);
    let system = String::from_utf8_lossy(&out.stdout);
    assert!(system.starts_with("You are Memo") && system.contains("Run make check"));
    assert!(
        !system.contains("\"input_schema\""),
        "tool definitions are not system text"
    );
}

#[test]
fn exec_answers_builtin_commands_without_a_model() {
    let dir = tempfile::tempdir().unwrap();
    let project = project(dir.path());
    let home = dir.path().join("memo");
    std::fs::create_dir_all(home.join("commands")).unwrap();
    std::fs::write(
        home.join("commands/standup.md"),
        "---\ndescription: Daily summary\n---\nSummarise.",
    )
    .unwrap();
    // Nothing listens here: a command answered locally never connects.
    std::fs::write(
        home.join("config.toml"),
        "[[providers.local]]\nname = \"local\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n",
    )
    .unwrap();
    let cwd = project.display().to_string();

    let out = cli(dir.path(), &["exec", "/help", "--cwd", &cwd]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("/compact [focus]") && help.contains("/standup — Daily summary"),
        "{help}"
    );

    let out = cli(dir.path(), &["exec", "/nonsense", "--cwd", &cwd]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Unknown command /nonsense"));

    let out = cli(dir.path(), &["exec", "/compact", "--cwd", &cwd, "--json"]);
    assert!(out.status.success());
    let last: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(last["event"]["type"], "command_result");
    assert!(last["event"]["output"]
        .as_str()
        .unwrap()
        .starts_with("Nothing to compact"));
}
