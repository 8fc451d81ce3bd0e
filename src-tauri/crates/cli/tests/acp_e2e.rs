//! `memo-cli acp` end to end: the official ACP TypeScript SDK's client
//! (`tests/acp/drive.mjs`, `@agentclientprotocol/sdk` from npm) drives the real binary
//! against the real mock LLM server, and raw pipes feed it bad input.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{call, fields, Home, Mock};

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
