//! `memo-cli acp` end to end: the official ACP TypeScript SDK's client
//! (`tests/acp/drive.mjs`, `@agentclientprotocol/sdk` from npm) drives the real binary
//! against the real mock LLM server, and raw pipes feed it bad input.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{Home, Mock};

/// Longer than any step here takes; a hang fails the test instead of the suite.
const DRIVER_LIMIT: Duration = Duration::from_secs(120);

fn driver() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/acp");
    assert!(
        dir.join("node_modules/@agentclientprotocol/sdk").is_dir(),
        "the ACP SDK is not installed: run `npm ci` in {} (the README's test command does)",
        dir.display()
    );
    dir.join("drive.mjs")
}

fn fake_home(home: &Home) -> PathBuf {
    let dir = home.home.path().join("user-home");
    std::fs::create_dir_all(dir.join(".ssh")).unwrap();
    std::fs::write(dir.join(".ssh/id_test"), "not a key").unwrap();
    dir
}

/// Runs the SDK client through `steps` against `memo-cli acp` in `home`; returns each
/// step's result.
fn drive(home: &Home, steps: Value) -> Vec<Value> {
    drive_as(home, steps, Value::Null)
}

/// [`drive`], the client an editor with `editor`'s buffers (see drive.mjs) when not null.
fn drive_as(home: &Home, steps: Value, editor: Value) -> Vec<Value> {
    let plan = home.home.path().join("plan.json");
    let mut plan_text = json!({
        "command": [env!("CARGO_BIN_EXE_memo-cli"), "acp"],
        // HOME too: a critical command the test expects refused names ~/.ssh, which must
        // be a throwaway one even if the refusal broke.
        "env": {"MEMO_HOME": home.home.path(), "HOME": fake_home(home), "RUST_LOG": "warn"},
        "cwd": home.work.path(),
        "steps": steps,
    });
    if !editor.is_null() {
        plan_text["editor"] = editor;
    }
    std::fs::write(&plan, plan_text.to_string()).unwrap();
    let mut child = Command::new("node")
        .arg(driver())
        .arg(&plan)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run node");
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > DRIVER_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the ACP driver did not finish in {DRIVER_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "driver failed: {:?}", out.status);
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

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

fn updates_of<'a>(step: &'a Value, kind: &str) -> Vec<&'a Value> {
    step["updates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["sessionUpdate"] == kind)
        .collect()
}

fn said(step: &Value, kind: &str) -> String {
    updates_of(step, kind)
        .iter()
        .map(|u| u["content"]["text"].as_str().unwrap_or_default())
        .collect()
}

/// The `field` of each object in the array `list`.
fn fields<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap())
        .collect()
}

fn call(tool: &str, args: Value) -> Value {
    json!({"tool_calls": [{"name": tool, "arguments": args.to_string()}]})
}

#[test]
fn an_sdk_client_runs_a_session_with_a_read_an_edit_both_answers_a_cancel_and_a_load() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    std::fs::write(home.work.path().join("a.txt"), "alpha\nbeta\n").unwrap();
    let long: String = (1..=200).map(|n| format!("word{n} ")).collect();
    mock.push(json!([
        call("read_file", json!({"file_path": "a.txt"})),
        call("apply_patch", json!({"file_path": "a.txt", "old_string": "alpha", "new_string": "ALPHA"})),
        {"text": "Edited."},
        call("apply_patch", json!({"file_path": "a.txt", "old_string": "beta", "new_string": "BETA"})),
        {"text": "Left it."},
        {"text": long, "chunk_chars": 4, "drip_ms": 20},
        call("apply_patch", json!({"file_path": "a.txt", "old_string": "beta", "new_string": "gamma"})),
    ]));
    let steps = drive(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new", "settle_ms": 300},
            {"do": "prompt", "text": "read and fix a.txt", "answers": ["once"]},
            {"do": "prompt", "text": "now change beta", "answers": ["deny"]},
            {"do": "prompt", "text": "count slowly", "cancel_on_chunk": true},
            {"do": "prompt", "text": "try gamma", "answers": ["cancel"]},
            {"do": "load"},
        ]),
    );
    let [init, new, fixed, refused, cancelled, dismissed, loaded] = steps.as_slice() else {
        panic!("{steps:?}");
    };

    // What Memo says it is and can do.
    let init = &init["response"];
    assert_eq!(init["protocolVersion"], 1, "{init}");
    assert_eq!(init["agentInfo"]["name"], "memo");
    assert_eq!(init["agentCapabilities"]["loadSession"], true);
    assert_eq!(
        init["agentCapabilities"]["promptCapabilities"]["image"],
        true
    );
    assert_eq!(
        init["agentCapabilities"]["promptCapabilities"]["embeddedContext"],
        true
    );
    // A server on this machine needs no key: nothing to authenticate.
    assert!(
        init["authMethods"].as_array().is_none_or(|m| m.is_empty()),
        "{init}"
    );

    // A Memo session, with Memo's approval modes and its commands.
    let session = new["response"]["sessionId"].as_str().unwrap().to_owned();
    assert_eq!(new["response"]["modes"]["currentModeId"], "auto", "{new}");
    let modes: Vec<&str> = fields(&new["response"]["modes"]["availableModes"], "id");
    assert_eq!(modes, ["auto", "strict", "dangerous"]);
    let commands = updates_of(new, "available_commands_update");
    let names: Vec<&str> = fields(&commands[0]["availableCommands"], "name");
    assert!(
        names.contains(&"compact") && names.contains(&"skill-creator"),
        "{names:?}"
    );

    // The read and the edit, typed; the edit asked with Memo's options and its diff.
    assert_eq!(fixed["response"]["stopReason"], "end_turn", "{fixed}");
    let calls = updates_of(fixed, "tool_call_update");
    let read = calls
        .iter()
        .find(|u| u["kind"] == "read")
        .expect("a read update");
    let a_txt = home.work.path().join("a.txt").display().to_string();
    assert_eq!(read["locations"][0]["path"], a_txt.as_str());
    assert_eq!(read["title"], "read a.txt");
    let asked = &fixed["permissions"][0];
    let offered: Vec<&str> = fields(&asked["options"], "optionId");
    assert_eq!(offered.first(), Some(&"once"), "{asked}");
    assert_eq!(offered.last(), Some(&"deny"), "{asked}");
    assert!(offered.contains(&"session"), "{asked}");
    let diff = &asked["toolCall"]["content"][0];
    assert_eq!(diff["type"], "diff", "{asked}");
    assert_eq!(diff["path"], a_txt.as_str());
    assert!(
        diff["oldText"].as_str().unwrap().contains("alpha"),
        "{diff}"
    );
    assert!(
        diff["newText"].as_str().unwrap().contains("ALPHA"),
        "{diff}"
    );
    let edit_end = calls
        .iter()
        .rfind(|u| u["kind"] == "edit")
        .expect("the edit's updates");
    assert_eq!(edit_end["status"], "completed", "{edit_end}");
    assert_eq!(said(fixed, "agent_message_chunk"), "Edited.");

    // A deny is a deny: nothing written, the model told, the turn goes on.
    assert_eq!(refused["permissions"].as_array().unwrap().len(), 1);
    assert_eq!(refused["response"]["stopReason"], "end_turn", "{refused}");
    let ended = updates_of(refused, "tool_call_update");
    assert_eq!(ended.last().unwrap()["status"], "failed", "{refused}");
    assert_eq!(
        std::fs::read_to_string(home.work.path().join("a.txt")).unwrap(),
        "ALPHA\nbeta\n"
    );

    // Cancelled mid-stream: the turn ends as cancelled, with only part of the answer.
    assert_eq!(
        cancelled["response"]["stopReason"], "cancelled",
        "{cancelled}"
    );
    let partial = said(cancelled, "agent_message_chunk");
    assert!(
        !partial.is_empty() && partial.len() < long.len(),
        "{partial:?}"
    );

    // Cancelled while it asked: the edit never ran, and the turn ended as cancelled.
    assert_eq!(
        dismissed["response"]["stopReason"], "cancelled",
        "{dismissed}"
    );
    assert_eq!(
        std::fs::read_to_string(home.work.path().join("a.txt")).unwrap(),
        "ALPHA\nbeta\n"
    );

    // The stored session replays as updates: what the person said, and the answers.
    assert!(loaded.get("error").is_none(), "{loaded}");
    let user = said(loaded, "user_message_chunk");
    assert!(
        user.contains("read and fix a.txt") && user.contains("now change beta"),
        "{user}"
    );
    assert!(said(loaded, "agent_message_chunk").contains("Edited."));

    // The same session is in Memo's history, where the window lists it, and closing the
    // connection left nothing behind in it (no refused interrupt).
    let listed = home.json(&["sessions", "list", "--json"]);
    assert!(listed.to_string().contains(&session), "{listed}");
    let log = home.run(&["sessions", "show", &session, "--json"]);
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(
        log.contains("Edited.") && !log.contains("no turn is running"),
        "{log}"
    );
}

#[test]
fn a_critical_command_still_asks_in_dangerous_mode_and_offers_no_lasting_grant() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    mock.push(json!([
        call("exec_command", json!({"cmd": "echo ok > done.txt"})),
        call("exec_command", json!({"cmd": "rm -rf ~/.ssh"})),
        {"text": "Stopped."},
    ]));
    let steps = drive(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new"},
            {"do": "set_mode", "mode": "dangerous"},
            {"do": "prompt", "text": "go", "answers": ["session"]},
        ]),
    );
    let prompt = &steps[3];
    assert_eq!(prompt["response"]["stopReason"], "end_turn", "{prompt}");
    // The ordinary command ran without asking; only the critical one asked.
    assert!(home.work.path().join("done.txt").exists());
    let asked = prompt["permissions"].as_array().unwrap();
    assert_eq!(asked.len(), 1, "{prompt}");
    let offered: Vec<&str> = fields(&asked[0]["options"], "optionId");
    assert_eq!(offered, ["once", "deny"]);
    // "session" was not offered: answering it is a deny.
    let ran = updates_of(prompt, "tool_call_update");
    let critical = ran
        .iter()
        .rfind(|u| u["title"].as_str().is_some_and(|t| t.contains("rm -rf")))
        .unwrap();
    assert_eq!(critical["status"], "failed", "{critical}");
    assert!(home.home.path().join("user-home/.ssh/id_test").exists());
    assert_eq!(steps[2]["response"], json!({}), "{:?}", steps[2]);
    let mode_updates = updates_of(prompt, "current_mode_update");
    assert!(mode_updates.is_empty() || mode_updates[0]["currentModeId"] == "dangerous");
}

/// One raw exchange: writes `line`, reads until the answer with `id` (or, for `None`,
/// the next line).
struct Raw {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Raw {
    fn start(home: &Home) -> Raw {
        let mut child = home
            .command(&["acp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Raw {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) -> Value {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        self.output.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {answer:?}"))
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn bad_input_gets_json_rpc_errors_and_the_agent_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let mut raw = Raw::start(&home);
    let code = |answer: &Value| answer["error"]["code"].as_i64();

    let answer = raw.send("this is not json");
    assert_eq!(
        (answer["id"].clone(), code(&answer)),
        (Value::Null, Some(-32700)),
        "{answer}"
    );
    let cwd = home.work.path().display().to_string();
    let early = json!({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": cwd, "mcpServers": []}});
    let answer = raw.send(&early.to_string());
    assert_eq!(code(&answer), Some(-32600), "before initialize: {answer}");

    let init = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": 1}});
    assert_eq!(raw.send(&init.to_string())["result"]["protocolVersion"], 1);

    let unknown = json!({"jsonrpc": "2.0", "id": 3, "method": "session/teleport", "params": {}});
    assert_eq!(code(&raw.send(&unknown.to_string())), Some(-32601));
    let prompt = json!({"jsonrpc": "2.0", "id": 4, "method": "session/prompt",
        "params": {"sessionId": "no-such", "prompt": [{"type": "text", "text": "hi"}]}});
    let answer = raw.send(&prompt.to_string());
    assert_eq!(
        code(&answer),
        Some(-32002),
        "a prompt before session/new: {answer}"
    );
    let relative = json!({"jsonrpc": "2.0", "id": 5, "method": "session/new", "params": {"cwd": "work", "mcpServers": []}});
    let answer = raw.send(&relative.to_string());
    assert_eq!(code(&answer), Some(-32602), "{answer}");
    assert!(
        answer["error"]["data"]
            .as_str()
            .unwrap()
            .contains("absolute"),
        "{answer}"
    );
    let malformed =
        json!({"jsonrpc": "2.0", "id": 6, "method": "session/new", "params": {"cwd": 42}});
    assert_eq!(code(&raw.send(&malformed.to_string())), Some(-32602));

    // Over the size limit: skipped to its end, answered, and the next line is read.
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{{\"x\":\"{}\"}}}}",
        "x".repeat(65 * 1024 * 1024)
    );
    let answer = raw.send(&huge);
    assert_eq!(
        (answer["id"].clone(), code(&answer)),
        (Value::Null, Some(-32600)),
        "{answer}"
    );
    assert!(answer["error"]["data"].as_str().unwrap().contains("limit"));

    let again = json!({"jsonrpc": "2.0", "id": 8, "method": "session/new", "params": {"cwd": cwd, "mcpServers": []}});
    let answer = raw.send(&again.to_string());
    assert!(
        answer["result"]["sessionId"].is_string(),
        "still serving: {answer}"
    );
}

#[test]
fn a_session_an_editor_runs_is_not_run_twice_and_continues_elsewhere_once_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    mock.push(json!([{"text": "First."}, {"text": "Second, from the command line."}]));
    let cli = env!("CARGO_BIN_EXE_memo-cli");
    let cwd = home.work.path().display().to_string();
    let steps = drive(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new"},
            {"do": "prompt", "text": "hello"},
            // While the editor's agent runs the session, nothing else may.
            {"do": "run", "argv": [cli, "exec", "--resume", "$SESSION", "--cwd", cwd, "more"]},
        ]),
    );
    let session = steps[1]["response"]["sessionId"].as_str().unwrap();
    let refused = &steps[3]["response"];
    assert_ne!(refused["status"], 0, "{refused}");
    let stderr = refused["stderr"].as_str().unwrap();
    assert!(
        stderr.contains("running in another Memo program (memo-cli acp"),
        "{stderr}"
    );

    // The editor closed it: the command line continues the same session.
    let out = home
        .command(&["exec", "--resume", session, "--cwd", &cwd, "more"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = home.run(&["sessions", "show", session]);
    let transcript = String::from_utf8_lossy(&shown.stdout);
    assert!(
        transcript.contains("First.") && transcript.contains("Second, from the command line."),
        "{transcript}"
    );
}

#[test]
fn the_editors_mcp_server_runs_for_the_session_under_memos_approvals() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp/fixture-server.mjs");
    let log = dir.path().join("fixture.log");
    mock.push(json!([
        call("fx__write_note", json!({"text": "from the editor"})),
        {"text": "Noted."},
    ]));
    let server = json!({
        "name": "fx",
        "command": "node",
        "args": [fixture],
        // A value only the editor knows: it reaches the server, not config.toml.
        "env": [{"name": "FIXTURE_LOG", "value": log}],
    });
    let steps = drive(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new", "mcp_servers": [server]},
            {"do": "prompt", "text": "note it", "answers": ["once"]},
        ]),
    );
    assert_eq!(
        steps[0]["response"]["agentCapabilities"]["mcpCapabilities"],
        json!({"http": true, "sse": true})
    );
    let prompt = &steps[2];
    assert_eq!(prompt["response"]["stopReason"], "end_turn", "{prompt}");
    // Asked like any MCP call that writes, then run by the editor's server.
    assert_eq!(
        prompt["permissions"].as_array().unwrap().len(),
        1,
        "{prompt}"
    );
    let written = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(written.contains("note from the editor"), "{written:?}");
    let config = std::fs::read_to_string(home.home.path().join("config.toml")).unwrap();
    assert!(
        !config.contains("fx") && !config.contains("fixture.log"),
        "{config}"
    );
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

/// A second real agent: Gemini CLI's ACP mode (npm, tests/acp) pointed at the mock's
/// Gemini API. Its edit goes through Memo's approval (`--yes`) and Memo's `fs/write`; the
/// command it runs with its own shell is caught by Memo's checkpoint scan.
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

/// Model selection over ACP: the session's `model` setting lists config.toml's providers
/// (the SDK client checks the shape against the schema); choosing one switches the session,
/// whose next request goes to that provider's model.
#[test]
fn an_editor_picks_the_sessions_model_from_memos_providers() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let second = format!(
        "[[providers.other]]\nname = \"other\"\nmodel = \"other-model\"\nbase_url = \"{}/v1\"\n",
        mock.url
    );
    let home = Home::new(&mock, "");
    home.add_config(&second);
    mock.push(json!([{"text": "From the other model."}]));
    let steps = drive(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new"},
            {"do": "raw", "method": "session/set_config_option",
             "params": {"sessionId": "$SESSION", "configId": "model", "value": "other"}},
            {"do": "raw", "method": "session/set_config_option",
             "params": {"sessionId": "$SESSION", "configId": "model", "value": "nowhere"}},
            {"do": "prompt", "text": "hello"},
        ]),
    );
    let offered = &steps[1]["response"]["configOptions"][0];
    assert_eq!(offered["id"], "model", "{}", steps[1]);
    assert_eq!(offered["category"], "model");
    assert_eq!(offered["currentValue"], "mock");
    assert_eq!(fields(&offered["options"], "value"), ["mock", "other"]);
    let chosen = &steps[2]["response"]["configOptions"][0];
    assert_eq!(chosen["currentValue"], "other", "{}", steps[2]);
    // A provider config.toml does not have is refused, and changes nothing.
    assert_eq!(steps[3]["error"]["code"], -32602, "{}", steps[3]);
    assert_eq!(
        steps[4]["response"]["stopReason"], "end_turn",
        "{}",
        steps[4]
    );
    let requests = mock.requests();
    let last = requests.last().unwrap();
    assert_eq!(last["body"]["model"], "other-model", "{last}");
}

/// An editor that offers its files: Memo's tools read its unsaved buffer and write through
/// it (the editor saves), under Memo's approval, with the change still checkpointed.
#[test]
fn memos_tools_read_and_write_the_editors_buffers_when_it_offers_them() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let work = home.work.path().canonicalize().unwrap();
    let file = work.join("a.txt");
    std::fs::write(&file, "alpha\nbeta\n").unwrap();
    mock.push(json!([
        call("read_file", json!({"file_path": "a.txt"})),
        call("apply_patch", json!({"file_path": "a.txt", "old_string": "unsaved line", "new_string": "saved by memo"})),
        {"text": "Edited the open file."},
    ]));
    let editor = json!({"buffers": {file.display().to_string(): "alpha\nbeta\nunsaved line\n"}});
    let steps = drive_as(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new"},
            {"do": "prompt", "text": "edit the open file", "answers": ["once"]},
        ]),
        editor,
    );
    let prompt = &steps[2];
    assert_eq!(prompt["response"]["stopReason"], "end_turn", "{prompt}");
    let fs = prompt["fs"].as_array().unwrap();
    let methods: Vec<&str> = fs.iter().map(|r| r["method"].as_str().unwrap()).collect();
    assert!(
        methods.contains(&"read") && methods.contains(&"write"),
        "{fs:?}"
    );
    let write = fs.iter().find(|r| r["method"] == "write").unwrap();
    assert_eq!(write["path"], file.display().to_string());
    assert_eq!(write["content"], "alpha\nbeta\nsaved by memo\n");
    // The editor saved it; Memo never wrote the disk's older text over the buffer.
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "alpha\nbeta\nsaved by memo\n"
    );
    // What the model read was the buffer.
    let requests = mock.requests();
    assert!(requests
        .iter()
        .any(|r| r["body"].to_string().contains("unsaved line")));
    // Asked first, as any edit.
    assert_eq!(
        prompt["permissions"].as_array().unwrap().len(),
        1,
        "{prompt}"
    );
    let edited = updates_of(prompt, "tool_call_update");
    assert!(
        edited.iter().any(|u| u["status"] == "completed"
            && u["content"]
                .as_array()
                .is_some_and(|c| c.iter().any(|b| b["type"] == "diff"))),
        "{edited:?}"
    );
}

/// An editor that offers terminals: Memo's commands run in them (the editor shows them on
/// the call), still under Memo's approvals and Landlock (the editor runs Memo's sandbox
/// wrapper), with their output and exit code for the model; Ctrl-C kills one, and every
/// terminal is released.
#[test]
fn memos_commands_run_in_the_editors_terminal_under_memos_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let mock = Mock::start(dir.path());
    let home = Home::new(&mock, "");
    let work = home.work.path().canonicalize().unwrap();
    // Outside the workspace and the temp folders the sandbox lets commands write.
    let outside =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("acp-outside-{}", std::process::id()));
    let _ = std::fs::remove_file(&outside);
    mock.push(json!([
        call("exec_command", json!({"cmd": "echo from-the-editors-terminal && echo made > inside.txt"})),
        call("exec_command", json!({"cmd": format!("echo escaped > {}", outside.display())})),
        call("exec_command", json!({"cmd": "echo started; sleep 30", "yield_time_ms": 500})),
        call("write_stdin", json!({"session_id": 3, "chars": "\u{3}", "yield_time_ms": 2000})),
        {"text": "Ran them."},
    ]));
    let steps = drive_as(
        &home,
        json!([
            {"do": "initialize"},
            {"do": "new"},
            {"do": "prompt", "text": "run the commands", "answers": ["once", "once", "once", "once"]},
        ]),
        json!({"terminals": true}),
    );
    let prompt = &steps[2];
    assert_eq!(prompt["response"]["stopReason"], "end_turn", "{prompt}");
    let asked = &prompt["terminals"];
    let created: Vec<&Value> = asked
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == "create")
        .collect();
    assert_eq!(created.len(), 3, "{asked}");
    // Memo's own binary, as the sandbox wrapper, around the shell and the command.
    let first = created[0];
    assert_eq!(first["command"], env!("CARGO_BIN_EXE_memo-cli"), "{first}");
    let args: Vec<&str> = first["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        args[..3],
        ["sandbox-exec", "--policy", "workspace-write"],
        "{args:?}"
    );
    assert!(args.contains(&"--writable"), "{args:?}");
    assert_eq!(
        args[args.len() - 2..],
        [
            "-c",
            "echo from-the-editors-terminal && echo made > inside.txt"
        ]
    );
    assert_eq!(first["cwd"], work.display().to_string());
    // It ran: the file is there, and the model read its output and exit code.
    assert_eq!(
        std::fs::read_to_string(work.join("inside.txt")).unwrap(),
        "made\n"
    );
    let bodies: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| r["body"].to_string())
        .collect();
    assert!(
        bodies
            .iter()
            .any(|b| b.contains("from-the-editors-terminal")),
        "the model never saw the output"
    );
    // The sandbox held in the editor's terminal.
    if memo_tools::exec::sandbox::landlock_available() {
        assert!(
            !outside.exists(),
            "a command in the editor's terminal wrote outside the workspace"
        );
        assert!(
            bodies.iter().any(|b| b.contains("sandbox_denied")),
            "the model was not told the sandbox refused the write"
        );
    } else {
        eprintln!("no Landlock on this kernel: the refusal outside the workspace is not checked");
        let _ = std::fs::remove_file(&outside);
    }
    // The editor shows each command's terminal on its call.
    let shown: Vec<&str> = updates_of(prompt, "tool_call_update")
        .iter()
        .filter_map(|u| u["content"].as_array())
        .flatten()
        .filter(|block| block["type"] == "terminal")
        .map(|block| block["terminalId"].as_str().unwrap())
        .collect();
    for id in ["term-1", "term-2", "term-3"] {
        assert!(shown.contains(&id), "{id} never shown: {shown:?}");
    }
    // Ctrl-C killed the sleep, long before its 30 s; every terminal was released.
    let methods: Vec<(String, String)> = asked
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["method"].as_str().unwrap().to_owned(),
                r["terminalId"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert!(
        methods.contains(&("kill".into(), "term-3".into())),
        "{methods:?}"
    );
    for id in ["term-1", "term-2", "term-3"] {
        assert!(
            methods.contains(&("release".into(), id.into())),
            "{id} not released: {methods:?}"
        );
    }
    assert!(
        bodies.iter().any(|b| b.contains("started")),
        "the running command's first output never reached the model"
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
