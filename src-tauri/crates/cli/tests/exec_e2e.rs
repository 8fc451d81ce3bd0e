//! `memo-cli exec` end to end: the real CLI binary against the real mock LLM server binary,
//! configured only through a temporary MEMO_HOME.

mod support;

use std::process::{Command, Output, Stdio};

use serde_json::Value;
use support::Mock;

const SECRET: &str = "sk-mock-secret-value-0123456789";

struct Setup {
    home: tempfile::TempDir,
    work: tempfile::TempDir,
    mock: Mock,
}

fn setup(api: &str, responses: Value) -> Setup {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let mock = Mock::start(home.path());
    mock.push(responses);
    let base = if api == "openai" {
        format!("{}/v1", mock.url)
    } else {
        mock.url.clone()
    };
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "current_provider = \"mock\"\n\n[[providers.mock]]\nname = \"mock\"\nenv_api_key = \"MOCK_API_KEY\"\nmodel = \"mock-model\"\nbase_url = \"{base}\"\napi = \"{api}\"\n"
        ),
    )
    .unwrap();
    Setup { home, work, mock }
}

/// Runs with every log line on, so tests can check the key never reaches the logs.
fn run_cli(s: &Setup, args: &[&str]) -> Output {
    run_cli_logging(s, args, "trace")
}

fn run_cli_logging(s: &Setup, args: &[&str], log: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(args)
        .arg("--cwd")
        .arg(s.work.path())
        .env("MEMO_HOME", s.home.path())
        .env("MOCK_API_KEY", SECRET)
        .env("RUST_LOG", log)
        .env_remove("OPENAI_API_KEY")
        .env_remove("DEEPSEEK_API_KEY")
        .output()
        .expect("run memo-cli")
}

#[test]
fn json_mode_prints_the_event_stream_for_every_protocol() {
    for api in ["openai", "anthropic", "gemini"] {
        let s = setup(
            api,
            serde_json::json!([
                {"tool_calls": [{"name": "read_file", "arguments": "{\"file_path\":\"hello.txt\"}"}]},
                {"text": "The file says hi.", "usage": {"input_tokens": 10, "output_tokens": 4}}
            ]),
        );
        std::fs::write(s.work.path().join("hello.txt"), "hi\n").unwrap();
        let out = run_cli(&s, &["exec", "read hello.txt", "--json"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{api}: exit {:?}\nstdout:{stdout}\nstderr:{stderr}",
            out.status
        );
        let events: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| e["event"]["type"].as_str().unwrap())
            .collect();
        assert_eq!(kinds.first(), Some(&"turn_started"), "{api}: {kinds:?}");
        assert_eq!(kinds.last(), Some(&"turn_ended"));
        assert!(kinds.contains(&"tool_call_end"));
        let text: String = events
            .iter()
            .filter(|e| e["event"]["type"] == "text_delta")
            .map(|e| e["event"]["delta"].as_str().unwrap())
            .collect();
        assert_eq!(text, "The file says hi.");
        let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "dense seq: {seqs:?}"
        );
        // What the agent sent: the key in the right header, the tool result paired.
        let requests = s.mock.requests();
        assert_eq!(requests.len(), 2);
        let headers = requests[0]["headers"].to_string();
        assert!(
            headers.contains(SECRET),
            "{api}: the key is sent to the provider"
        );
        // The key never reaches logs or the session database.
        assert!(!stderr.contains(SECRET), "{api}: key leaked to logs");
        let db = std::fs::read(s.home.path().join("memo-desktop.sqlite")).unwrap_or_default();
        let wal = std::fs::read(s.home.path().join("memo-desktop.sqlite-wal")).unwrap_or_default();
        for bytes in [db, wal] {
            assert!(
                !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
                "{api}: key in database"
            );
        }
    }
}

#[test]
fn text_mode_prints_the_answer_on_stdout() {
    let s = setup(
        "openai",
        serde_json::json!([{"text": "Plain answer.", "reasoning": "thinking hard"}]),
    );
    // Quiet logs: a log line could land between two streamed reasoning chunks.
    let out = run_cli_logging(&s, &["exec", "hello"], "off");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Plain answer.\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("thinking hard"), "stderr: {stderr}");
}

#[test]
fn text_mode_says_what_each_call_did_from_its_view() {
    let s = setup(
        "openai",
        serde_json::json!([
            {"tool_calls": [
                {"name": "exec_command", "arguments": serde_json::json!({"cmd": "echo hi; exit 3"}).to_string()},
                {"name": "read_file", "arguments": "{\"file_path\":\"notes.txt\"}"}
            ]},
            {"text": "done"}
        ]),
    );
    std::fs::write(s.work.path().join("notes.txt"), "one\ntwo\n").unwrap();
    let out = run_cli_logging(&s, &["exec", "go", "--yes"], "off");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    // Announced as what they are, ended with what came of them: the exit code and time
    // of the command, the lines of the read; never the model-facing bookkeeping.
    assert!(lines.contains(&"→ $ echo hi; exit 3"), "{stderr}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("✗ $ echo hi; exit 3 · exit 3 · ")),
        "{stderr}"
    );
    assert!(
        lines.contains(&"✓ read notes.txt:1-2 · 2 lines"),
        "{stderr}"
    );
    assert!(!stderr.contains("Wall time"), "{stderr}");
}

#[test]
fn failures_exit_non_zero_with_a_one_line_reason() {
    let s = setup(
        "anthropic",
        serde_json::json!([{"error": {"status": 401, "message": "invalid x-api-key"}}]),
    );
    let out = run_cli(&s, &["exec", "hello"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The last line a reader gets; this run asked for trace logs too, which threads still
    // stopping (a file watcher, the runtime) may write after it.
    let is_log = |l: &&str| l.len() > 20 && l.as_bytes()[4] == b'-' && l.contains("Z ");
    let last = stderr
        .lines()
        .rev()
        .find(|l| !is_log(l))
        .unwrap_or_default();
    assert!(
        last.starts_with("error: ") && last.contains("invalid x-api-key"),
        "{stderr}"
    );

    // A provider that is not configured is a setup error.
    let out = run_cli(&s, &["exec", "hello", "--provider", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = stderr.lines().filter(|l| !is_log(l)).collect();
    assert!(
        said.len() == 1 && said[0].starts_with("error: ") && said[0].contains("nope"),
        "{stderr}"
    );
}

#[test]
fn invalid_config_names_file_line_and_key() {
    let s = setup("openai", serde_json::json!([]));
    std::fs::write(
        s.home.path().join("config.toml"),
        "current_provider = \"mock\"\n\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m\"\napi = \"carrier-pigeon\"\n",
    )
    .unwrap();
    let out = run_cli(&s, &["exec", "hello"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("config.toml:6"), "{stderr}");
    assert!(stderr.contains("api"), "{stderr}");
}

/// Needs a Secret Service (run by scripts/lib/desktop-session.sh with MEMO_TEST_KEYRING=1):
/// a key stored with `memo-cli key set` is used before the env var, and never leaks.
#[test]
fn keyring_key_is_preferred_over_the_environment() {
    if std::env::var("MEMO_TEST_KEYRING").as_deref() != Ok("1") {
        eprintln!("skipped: needs MEMO_TEST_KEYRING=1 and an unlocked Secret Service");
        return;
    }
    let s = setup("openai", serde_json::json!([{"text": "ok"}]));
    // A provider name no real user has, so the test never touches a real key.
    let provider = format!("memo-test-{}", std::process::id());
    let config = std::fs::read_to_string(s.home.path().join("config.toml")).unwrap();
    std::fs::write(
        s.home.path().join("config.toml"),
        config
            .replace("\"mock\"", &format!("\"{provider}\""))
            .replace("providers.mock", &format!("providers.{provider}")),
    )
    .unwrap();
    let keychain_secret = "sk-from-the-keychain-abcdef0123456789";
    let mut set = Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(["key", "set", &provider])
        .env("MEMO_HOME", s.home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    set.stdin
        .take()
        .unwrap()
        .write_all(keychain_secret.as_bytes())
        .unwrap();
    assert!(set.wait().unwrap().success());
    let status = Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(["key", "status", &provider])
        .env("MEMO_HOME", s.home.path())
        .output()
        .unwrap();
    let status_text = String::from_utf8_lossy(&status.stdout);
    assert!(status_text.contains("keychain"), "{status_text}");
    assert!(!status_text.contains(keychain_secret));

    let out = run_cli(&s, &["exec", "hi"]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let deleted = Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(["key", "delete", &provider])
        .env("MEMO_HOME", s.home.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(deleted.status.success());
    let headers = s.mock.requests()[0]["headers"].to_string();
    assert!(
        headers.contains(keychain_secret),
        "the keychain key is sent, not the env one"
    );
    assert!(!headers.contains(SECRET));
    assert!(!stderr.contains(keychain_secret), "key leaked to logs");
}

/// Runs `exec --json` with HOME pointed at `home`, so `~` in a scripted command names a
/// temporary directory, and the sandbox on as by default.
fn run_with_home(s: &Setup, home: &std::path::Path, flags: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memo-cli"))
        .args(["exec", "go", "--json"])
        .args(flags)
        .arg("--cwd")
        .arg(s.work.path())
        .env("MEMO_HOME", s.home.path())
        .env("HOME", home)
        .env("MOCK_API_KEY", SECRET)
        .env("MEMO_SANDBOX", "workspace-write")
        .env("RUST_LOG", "off")
        .env_remove("OPENAI_API_KEY")
        .env_remove("DEEPSEEK_API_KEY")
        .output()
        .expect("run memo-cli")
}

/// What the model was sent after its tool call: the tool result it reads.
fn second_request(s: &Setup) -> String {
    let requests = s.mock.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    requests[1].to_string()
}

#[test]
fn yes_refuses_a_critical_command_unless_allow_critical_is_given() {
    let script = serde_json::json!([
        {"tool_calls": [{"name": "exec_command", "arguments": serde_json::json!({"cmd": "rm -rf ~/.ssh"}).to_string()}]},
        {"text": "done"}
    ]);
    let fake_home = tempfile::tempdir().unwrap();
    let ssh = fake_home.path().join(".ssh");
    std::fs::create_dir(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "not a real key").unwrap();

    let s = setup("openai", script.clone());
    let out = run_with_home(&s, fake_home.path(), &["--yes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        ssh.join("id_ed25519").exists(),
        "--yes alone ran a critical command"
    );
    assert!(
        stderr.contains("refused critical exec_command `rm -rf ~/.ssh`")
            && stderr.contains("--allow-critical"),
        "the user is told: {stderr}"
    );
    let seen = second_request(&s);
    assert!(
        seen.contains("critical") && seen.contains("--allow-critical"),
        "the model is told: {seen}"
    );

    // Asked for explicitly, it runs (on the temporary home only).
    let s = setup("openai", script);
    let out = run_with_home(&s, fake_home.path(), &["--yes", "--allow-critical"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!ssh.exists(), "--allow-critical let it run");
    assert!(second_request(&s).contains("exited with code 0"));
}

#[test]
fn yes_refuses_leaving_the_sandbox_unless_allow_escalation_is_given() {
    // The output (escaped-42) differs from the command text, so it shows the command ran.
    let call = serde_json::json!({
        "cmd": "echo escaped-$((40+2))",
        "sandbox_permissions": "require_escalated",
        "justification": "testing"
    });
    let script = serde_json::json!([
        {"tool_calls": [{"name": "exec_command", "arguments": call.to_string()}]},
        {"text": "done"}
    ]);
    let fake_home = tempfile::tempdir().unwrap();

    let s = setup("openai", script.clone());
    // --allow-critical does not stand in for --allow-escalation.
    let out = run_with_home(&s, fake_home.path(), &["--yes", "--allow-critical"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("outside the sandbox") && stderr.contains("--allow-escalation"),
        "{stderr}"
    );
    let seen = second_request(&s);
    assert!(seen.contains("--allow-escalation"), "{seen}");
    assert!(!seen.contains("escaped-42"), "it ran: {seen}");

    let s = setup("openai", script);
    let out = run_with_home(&s, fake_home.path(), &["--yes", "--allow-escalation"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(second_request(&s).contains("escaped-42"));
}

#[test]
fn the_dangerous_flags_are_documented_and_need_yes() {
    let s = setup("openai", serde_json::json!([]));
    let help = run_cli_logging(&s, &["exec", "--help"], "off");
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in ["--allow-critical", "--allow-escalation"] {
        assert!(help.contains(flag), "{help}");
    }
    assert_eq!(help.matches("DANGEROUS").count(), 2, "{help}");
    let out = run_cli_logging(&s, &["exec", "hi", "--allow-critical"], "off");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--yes"));
}
