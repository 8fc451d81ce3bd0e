//! `memo-cli exec --external-agent` end to end: real agents from npm (tests/acp) — Claude
//! Code's ACP agent, Gemini CLI, OpenCode, and Memo's own `memo-cli acp` in another home —
//! run tasks against the mock LLM under Memo's approvals, checkpoints and MCP servers.

mod support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::{call, fields, Home, Mock};

/// An agent from npm (tests/acp): the script `node` runs, or a failure saying how to
/// install it.
fn npm_agent(script: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/acp/node_modules")
        .join(script);
    assert!(
        path.is_file(),
        "{script} is not installed: run `npm ci` in tests/acp"
    );
    path
}

/// `memo-cli exec --json --yes` of `prompt` on external agent `agent` in the workspace:
/// its events, once it succeeded.
fn exec_on(home: &Home, agent: &str, prompt: &str) -> Vec<Value> {
    exec_with(home, agent, prompt, &[])
}

/// [`exec_on`] with more of exec's arguments.
fn exec_with(home: &Home, agent: &str, prompt: &str, more: &[&str]) -> Vec<Value> {
    let work = home.work.path().canonicalize().unwrap();
    let out = home
        .command(&["exec", prompt, "--json", "--yes", "--external-agent", agent])
        .args(more)
        .arg("--cwd")
        .arg(&work)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{stderr}", out.status);
    support::json_lines(&out.stdout)
}

/// The events of `kind` among exec's JSON lines.
fn events_of<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events
        .iter()
        .map(|e| &e["event"])
        .filter(|e| e["type"] == kind)
        .collect()
}

/// Every file the session's `files_changed` events name, with how it changed.
fn changed_files(events: &[Value]) -> Vec<(&str, &str)> {
    events_of(events, "files_changed")
        .into_iter()
        .flat_map(|e| e["changes"].as_array().unwrap())
        .map(|c| (c["path"].as_str().unwrap(), c["kind"].as_str().unwrap()))
        .collect()
}

/// `memo-cli exec --external-agent`: Claude Code's ACP agent from npm (tests/acp) runs the
/// task against the mock; `--yes` answers Memo's approval of its edit, which Memo writes.
#[test]
fn exec_runs_a_task_on_an_external_agent_under_memos_approvals() {
    let script = npm_agent("@zed-industries/claude-code-acp/dist/index.js");
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let user_home = dir.path().join("user-home");
    std::fs::create_dir_all(user_home.join(".claude")).unwrap();
    let agent = format!(
        "[external_agents.claude]\ncommand = \"node\"\nargs = [{script:?}]\nenv = {{ ANTHROPIC_BASE_URL = {base:?}, ANTHROPIC_API_KEY = \"test-key\", HOME = {home:?}, CLAUDE_CONFIG_DIR = {config:?}, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = \"1\", DISABLE_TELEMETRY = \"1\", DISABLE_AUTOUPDATER = \"1\", IS_SANDBOX = \"1\" }}\n",
        script = script.display().to_string(),
        base = mock.url,
        home = user_home.display().to_string(),
        config = user_home.join(".claude").display().to_string(),
    );
    let home = Home::new(&mock, "");
    home.add_config(&agent);
    let work = home.work.path().canonicalize().unwrap();
    let file = work.join("notes.txt");
    std::fs::write(&file, "hello world\n").unwrap();
    let args = json!({"file_path": file, "old_string": "hello world", "new_string": "hello memo"});
    mock.push(json!([
        {"when": "\"count\"", "text": "x"},
        {"when": "Please edit", "text": "Editing.", "tool_calls": [{"id": "toolu_x1", "name": "mcp__acp__Edit", "arguments": args.to_string()}]},
        {"when": "Please edit", "text": "Done."},
    ]));
    let events = exec_on(&home, "claude", "Please edit notes.txt");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello memo\n");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap())
        .filter(|k| !k.ends_with("_delta") && *k != "tool_call_view")
        .collect();
    for expected in [
        "external_agent_started",
        "approval_requested",
        "approval_resolved",
        "files_changed",
        "tool_call_end",
        "turn_ended",
    ] {
        assert!(kinds.contains(&expected), "{expected} missing: {kinds:?}");
    }
    // `--provider` belongs to Memo's own agent.
    let wrong = home.run(&[
        "exec",
        "x",
        "--external-agent",
        "claude",
        "--provider",
        "mock",
    ]);
    assert!(!wrong.status.success());
}

/// A workspace whose config.toml has Gemini CLI's ACP agent (npm, tests/acp) as `gemini`,
/// on the mock's Gemini API.
fn gemini_home(dir: &Path, mock: &Mock) -> Home {
    let script = npm_agent("@google/gemini-cli/bundle/gemini.js");
    let user_home = dir.join("user-home");
    std::fs::create_dir_all(user_home.join(".gemini")).unwrap();
    // Nothing leaves the machine: no usage statistics, no update check.
    let settings = json!({
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    });
    std::fs::write(
        user_home.join(".gemini/settings.json"),
        settings.to_string(),
    )
    .unwrap();
    // An explicit model: Gemini CLI's automatic routing would first ask a classifier model.
    let agent = format!(
        "[external_agents.gemini]\ncommand = \"node\"\nargs = [{script:?}, \"--acp\", \"-m\", \"gemini-2.5-flash\"]\nenv = {{ GOOGLE_GEMINI_BASE_URL = {base:?}, GEMINI_API_KEY = \"test-key\", HOME = {home:?} }}\n",
        script = script.display().to_string(),
        base = mock.url,
        home = user_home.display().to_string(),
    );
    let home = Home::new(mock, "");
    home.add_config(&agent);
    home
}

/// A second real agent: Gemini CLI's ACP mode (npm, tests/acp) pointed at the mock's
/// Gemini API. Its edit goes through Memo's approval (`--yes`) and Memo's `fs/write`; the
/// command it runs with its own shell is caught by Memo's checkpoint scan.
#[test]
fn gemini_cli_runs_a_task_under_memos_approvals_and_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = gemini_home(dir.path(), &mock);
    let work = home.work.path().canonicalize().unwrap();
    let file = work.join("notes.txt");
    std::fs::write(&file, "hello world\n").unwrap();
    let edit = json!({"file_path": file, "old_string": "hello world", "new_string": "hello memo", "instruction": "greet memo"});
    let command = json!({"command": "echo made > made.txt", "description": "make a file"});
    mock.push(json!([
        {"when": "Please edit", "text": "Editing.", "tool_calls": [{"id": "g1", "name": "replace", "arguments": edit.to_string()}]},
        {"when": "Please edit", "text": "Running.", "tool_calls": [{"id": "g2", "name": "run_shell_command", "arguments": command.to_string()}]},
        {"when": "Please edit", "text": "Done."},
    ]));
    let events = exec_on(&home, "gemini", "Please edit notes.txt");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello memo\n");
    assert_eq!(
        std::fs::read_to_string(work.join("made.txt")).unwrap(),
        "made\n"
    );
    let of = |kind: &str| events_of(&events, kind);
    let started = of("external_agent_started");
    assert_eq!(started[0]["label"], "Gemini CLI", "{started:?}");
    // One question per call, each answered by `--yes`: the edit as a write, the command
    // as a command.
    let asked = of("approval_requested");
    let risks: Vec<&str> = asked
        .iter()
        .map(|a| a["request"]["risk"].as_str().unwrap())
        .collect();
    assert_eq!(risks, ["write", "execute"], "{asked:?}");
    assert_eq!(of("approval_resolved").len(), 2);
    // What changed, by whose hand: the edit Memo wrote, the file the agent's shell made.
    let changed = changed_files(&events);
    assert!(changed.contains(&("notes.txt", "modified")), "{changed:?}");
    assert!(changed.contains(&("made.txt", "created")), "{changed:?}");
    let ended = of("turn_ended");
    assert_eq!(ended.last().unwrap()["reason"], "completed");
    let paths: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        paths
            .iter()
            .all(|p| p.contains("gemini-2.5-flash:streamGenerateContent")),
        "{paths:?}"
    );
}

/// Gemini CLI's own settings (its modes, its models) reach Memo's session, and a pick made
/// before it starts (`--agent-setting`) is taken by it: its model requests go to the
/// picked model. A pick it does not offer is said, and the task still runs.
#[test]
fn an_external_agents_own_settings_are_shown_and_a_pick_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = gemini_home(dir.path(), &mock);
    mock.push(json!([{"when": "Say hi", "text": "Hi."}]));
    let events = exec_with(
        &home,
        "gemini",
        "Say hi",
        &[
            "--agent-setting",
            "model=gemini-2.5-pro",
            "--agent-setting",
            "mode=no-such-mode",
        ],
    );
    let of = |kind: &str| events_of(&events, kind);
    // What it offers, as it words it: its modes and its models, the picked one current.
    let said = of("external_agent_settings");
    let last = &said.last().expect("its settings were not shown")["settings"];
    let setting = |id: &str| {
        last.as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {last}"))
            .clone()
    };
    let mode = setting("mode");
    assert_eq!(mode["current"], "default", "{mode}");
    assert!(
        fields(&mode["choices"], "value").contains(&"plan"),
        "{mode}"
    );
    assert_eq!(setting("model")["current"], "gemini-2.5-pro", "{last}");
    // The pick it does not offer is said, in the person's words, and nothing else fails.
    let errors = of("error");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0]["phrase"]["code"], "external_agent_setting_refused",
        "{errors:?}"
    );
    let message = errors[0]["message"].as_str().unwrap();
    assert!(message.contains("no-such-mode"), "{message}");
    assert!(
        message.contains("mode = default, autoEdit, yolo, plan"),
        "{message}"
    );
    assert_eq!(of("turn_ended").last().unwrap()["reason"], "completed");
    // Every model request went to the picked model, not the one its command line named.
    let paths: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(!paths.is_empty());
    assert!(
        paths.iter().all(|p| p.contains("gemini-2.5-pro:")),
        "{paths:?}"
    );
}

/// A third real agent: OpenCode's ACP mode (npm, tests/acp) with the mock as an
/// OpenAI-compatible provider and its own permissions set to ask. Its edit and its command
/// are each asked once on Memo's card; the file its shell made is caught by the checkpoint
/// scan.
#[test]
fn opencode_runs_a_task_under_memos_approvals_and_checkpoints() {
    let binary = npm_agent("opencode-linux-x64/bin/opencode");
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let user_home = dir.path().join("user-home");
    let settings = user_home.join(".config/opencode");
    std::fs::create_dir_all(&settings).unwrap();
    let opencode = json!({
        "provider": {"mock": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Mock",
            "options": {"baseURL": format!("{}/v1", mock.url), "apiKey": "test-key"},
            "models": {"mock-model": {"name": "Mock model"}},
        }},
        "model": "mock/mock-model",
        "autoupdate": false,
        "share": "disabled",
        "permission": {"edit": "ask", "bash": "ask"},
    });
    std::fs::write(settings.join("opencode.json"), opencode.to_string()).unwrap();
    let home = Home::new(&mock, "");
    // Nothing from the network: no model list from models.dev, no plugin or language
    // server installed at start.
    home.add_config(&format!(
        "[external_agents.opencode]\ncommand = {binary:?}\nargs = [\"acp\"]\nenv = {{ HOME = {user:?}, XDG_CONFIG_HOME = {config:?}, XDG_DATA_HOME = {data:?}, XDG_CACHE_HOME = {cache:?}, OPENCODE_DISABLE_AUTOUPDATE = \"1\", OPENCODE_DISABLE_MODELS_FETCH = \"1\", OPENCODE_DISABLE_DEFAULT_PLUGINS = \"1\", OPENCODE_DISABLE_LSP_DOWNLOAD = \"1\", npm_config_offline = \"true\" }}\n",
        binary = binary.display().to_string(),
        user = user_home.display().to_string(),
        config = user_home.join(".config").display().to_string(),
        data = user_home.join(".local/share").display().to_string(),
        cache = user_home.join(".cache").display().to_string(),
    ));
    let work = home.work.path().canonicalize().unwrap();
    let file = work.join("notes.txt");
    std::fs::write(&file, "hello world\n").unwrap();
    let edit = json!({"filePath": file, "oldString": "hello world", "newString": "hello memo"});
    let command = json!({"command": "echo made > made.txt", "description": "make a file"});
    mock.push(json!([
        // OpenCode names each session with a small request of its own first.
        {"when": "You are a title generator", "text": "Editing notes"},
        {"when": "Please edit", "text": "Editing.", "tool_calls": [{"id": "o1", "name": "edit", "arguments": edit.to_string()}]},
        {"when": "Please edit", "text": "Running.", "tool_calls": [{"id": "o2", "name": "bash", "arguments": command.to_string()}]},
        {"when": "Please edit", "text": "Done."},
    ]));
    let events = exec_on(&home, "opencode", "Please edit notes.txt");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello memo\n");
    assert_eq!(
        std::fs::read_to_string(work.join("made.txt")).unwrap(),
        "made\n"
    );
    let of = |kind: &str| events_of(&events, kind);
    assert_eq!(of("external_agent_started")[0]["label"], "OpenCode");
    let asked: Vec<(&str, &str)> = of("approval_requested")
        .iter()
        .map(|a| {
            let request = &a["request"];
            (
                request["risk"].as_str().unwrap(),
                request["fingerprint"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!(asked[0].0, "write", "{asked:?}");
    assert_eq!(
        asked[1],
        ("execute", "exec:echo made > made.txt"),
        "{asked:?}"
    );
    let changed = changed_files(&events);
    assert!(changed.contains(&("notes.txt", "modified")), "{changed:?}");
    assert!(changed.contains(&("made.txt", "created")), "{changed:?}");
    assert_eq!(of("turn_ended").last().unwrap()["reason"], "completed");
    // The command's card shows what OpenCode showed, not its raw copy of it again.
    let outputs: Vec<&str> = of("tool_call_end")
        .iter()
        .map(|e| e["output"].as_str().unwrap_or_default())
        .collect();
    assert!(
        outputs.iter().all(|o| !o.contains("metadata")),
        "{outputs:?}"
    );
    assert!(
        !settings.join("node_modules").exists(),
        "OpenCode installed something"
    );
}

/// Memo's own agent as an external agent of Memo (`memo-cli acp` in another home): the
/// outer Memo serves its terminal, approves its command under its own rules, and shows the
/// context it reports (`usage_update`); the command ran in the outer Memo's terminal under
/// the inner Memo's sandbox wrapper.
#[test]
fn memos_agent_runs_inside_memo_as_an_external_agent_with_its_usage() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let inner = Home::new(&mock, "");
    let home = Home::new(&mock, "");
    let agent = format!(
        "[external_agents.memo]\ncommand = {exe:?}\nargs = [\"acp\"]\nenv = {{ MEMO_HOME = {inner:?}, RUST_LOG = \"warn\" }}\n",
        exe = env!("CARGO_BIN_EXE_memo-cli"),
        inner = inner.home.path().display().to_string(),
    );
    home.add_config(&agent);
    let work = home.work.path().canonicalize().unwrap();
    mock.push(json!([
        call("exec_command", json!({"cmd": "echo inner > made.txt && echo ran-inside"})),
        {"text": "Made it."},
    ]));
    let events = exec_on(&home, "memo", "make the file");
    assert_eq!(
        std::fs::read_to_string(work.join("made.txt")).unwrap(),
        "inner\n"
    );
    let started = events
        .iter()
        .find(|e| e["event"]["type"] == "external_agent_started")
        .unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!(started["event"]["label"], "Memo", "{started}");
    // What the inner Memo said of its context after its model calls.
    let usage: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"]["type"] == "external_agent_usage")
        .collect();
    assert!(!usage.is_empty(), "no usage reported: {events:?}");
    let last = &usage[usage.len() - 1]["event"];
    assert!(last["context_window"].as_u64().unwrap() > 0, "{last}");
    assert!(last["used_tokens"].as_u64().unwrap() > 0, "{last}");
    // The command ran in the outer Memo's terminal: its output is on the call's card.
    let ended = events
        .iter()
        .filter(|e| e["event"]["type"] == "tool_call_end")
        .map(|e| e["event"].to_string())
        .collect::<Vec<_>>();
    assert!(
        ended.iter().any(|e| e.contains("ran-inside")),
        "the command's output is not on its card: {ended:?}"
    );
    // The outer Memo asked (and --yes approved) under its own rules, once: the terminal
    // that followed is the command it asked about, not the wrapper around it.
    let asked: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"]["type"] == "approval_requested")
        .collect();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(
        asked[0]["event"]["request"]["command"],
        "echo inner > made.txt && echo ran-inside"
    );
}

/// Memo's MCP servers go with the sessions its external agents open: the inner Memo
/// (`memo-cli acp` as the agent) gets the outer one's `fx` server and calls it, under the
/// outer Memo's approval; an agent set to `offer_mcp_servers = false` is given none.
#[test]
fn an_external_agent_is_given_memos_mcp_servers_unless_withheld() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp/fixture-server.mjs");
    let log = dir.path().join("fixture.log");
    let inner = Home::new(&mock, "");
    let home = Home::new(&mock, "");
    let agent = |name: &str, extra: &str| {
        format!(
            "[external_agents.{name}]\ncommand = {exe:?}\nargs = [\"acp\"]\nenv = {{ MEMO_HOME = {inner:?}, RUST_LOG = \"warn\" }}\n{extra}",
            exe = env!("CARGO_BIN_EXE_memo-cli"),
            inner = inner.home.path().display().to_string(),
        )
    };
    let server = format!(
        "[mcp_servers.fx]\ncommand = \"node\"\nargs = [{fixture:?}]\nenv = {{ FIXTURE_LOG = {log:?} }}\n",
        fixture = fixture.display().to_string(),
        log = log.display().to_string(),
    );
    home.add_config(&format!(
        "{server}\n{}\n{}",
        agent("memo", ""),
        agent("closed", "offer_mcp_servers = false\n")
    ));

    mock.push(json!([
        call("fx__write_note", json!({"text": "from the outer memo"})),
        {"text": "Noted."},
    ]));
    let events = exec_on(&home, "memo", "note it");
    let written = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(written.contains("note from the outer memo"), "{written:?}");
    // The inner Memo asked before its MCP call that writes; the outer one put the
    // question on its card.
    let asked: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"]["type"] == "approval_requested")
        .collect();
    assert_eq!(asked.len(), 1, "{asked:?}");

    std::fs::remove_file(&log).unwrap();
    mock.push(json!([
        call("fx__write_note", json!({"text": "not given"})),
        {"text": "No such tool."},
    ]));
    let events = exec_on(&home, "closed", "note it");
    assert!(!log.exists(), "the withheld server ran");
    let asked = events
        .iter()
        .filter(|e| e["event"]["type"] == "approval_requested")
        .count();
    assert_eq!(asked, 0, "{events:?}");
}
