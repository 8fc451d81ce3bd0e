//! The `memo-mock-llm` binary, spawned as a real process.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::common::*;

const BIN: &str = env!("CARGO_BIN_EXE_memo-mock-llm");

/// Spawn the binary and return it with its base URL from the listening line.
async fn spawn(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    tokio::time::timeout(
        Duration::from_secs(20),
        BufReader::new(stdout).read_line(&mut line),
    )
    .await
    .expect("listening line in time")
    .unwrap();
    let url = line
        .strip_suffix('\n')
        .and_then(|l| l.strip_prefix("listening on "))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (child, url)
}

async fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("process exits in time")
        .unwrap()
}

#[tokio::test]
async fn serves_a_scenario_file() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenario.json");
    std::fs::write(
        &scenario,
        r#"{"responses":[
            {"text":"Hi","usage":{"input_tokens":10,"output_tokens":2}},
            {"tool_calls":[{"name":"read_file","arguments":"{\"file_path\":\"a\"}"}]}
        ]}"#,
    )
    .unwrap();
    let (mut child, url) = spawn(&["--scenario", scenario.to_str().unwrap()]).await;

    let body = read_ok(post(&openai_url(&url), &openai_request(true)).await).await;
    assert!(body.ends_with("data: [DONE]\n\n"));
    assert!(body.contains("\"prompt_tokens\":10"));
    let body = read_ok(post(&anthropic_url(&url), &anthropic_request()).await).await;
    assert!(body.contains("\"name\":\"read_file\""));
    let response = post(&openai_url(&url), &openai_request(false)).await;
    assert_eq!(response.status(), 500, "script exhausted");

    let recorded: serde_json::Value = client()
        .get(format!("{url}/__mock/requests"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(recorded.as_array().unwrap().len(), 3);

    child.kill().await.unwrap();
}

#[tokio::test]
async fn bad_scenario_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("bad.json");
    std::fs::write(&scenario, r#"{"responses":[{"txt":"typo"}]}"#).unwrap();
    let output = Command::new(BIN)
        .args(["--scenario", scenario.to_str().unwrap()])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(
        stderr.contains("bad.json") && stderr.contains("txt"),
        "{stderr}"
    );

    let output = Command::new(BIN)
        .args([
            "--scenario",
            dir.path().join("missing.json").to_str().unwrap(),
        ])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(2));

    let output = Command::new(BIN).arg("--bogus").output().await.unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[tokio::test]
async fn exits_when_stdin_closes() {
    let (mut child, url) = spawn(&["--exit-on-stdin-eof"]).await;
    let response = client()
        .post(format!("{url}/__mock/reset"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    drop(child.stdin.take());
    let status = wait_exit(&mut child).await;
    assert!(status.success(), "{status:?}");
}

#[cfg(unix)]
#[tokio::test]
async fn exits_cleanly_on_sigterm() {
    let (mut child, _url) = spawn(&[]).await;
    let pid = child.id().unwrap().to_string();
    let kill = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .await
        .unwrap();
    assert!(kill.success());
    let status = wait_exit(&mut child).await;
    assert!(status.success(), "{status:?}");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .await
        .unwrap();
    assert!(stderr.is_empty(), "no noise on stderr: {stderr}");
}
