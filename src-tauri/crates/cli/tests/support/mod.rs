//! Shared by the sessions and crash tests: the real `memo-mock-llm` binary, controlled
//! over its HTTP API, and a temporary MEMO_HOME configured to use it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

pub fn mock_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // Cargo builds only this package's binaries for its tests; build the mock's.
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args([
                    "build",
                    "-q",
                    "-p",
                    "memo-test-support",
                    "--bin",
                    "memo-mock-llm",
                ])
                .status()
                .expect("run cargo build");
            assert!(status.success(), "building memo-mock-llm failed");
            let cli = PathBuf::from(env!("CARGO_BIN_EXE_memo-cli"));
            cli.parent().unwrap().join("memo-mock-llm")
        })
        .clone()
}

pub struct Mock {
    child: Child,
    pub url: String,
    rt: tokio::runtime::Runtime,
}

impl Mock {
    /// A mock with an empty script; add responses with [`Mock::push`].
    pub fn start(dir: &Path) -> Mock {
        let scenario = dir.join("empty-scenario.json");
        std::fs::write(&scenario, r#"{"responses":[]}"#).unwrap();
        let mut child = Command::new(mock_binary())
            .arg("--scenario")
            .arg(&scenario)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn mock server");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .expect("listening line")
            .to_owned();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        Mock { child, url, rt }
    }

    fn post(&self, path: &str, body: String) {
        let url = format!("{}{path}", self.url);
        self.rt.block_on(async {
            let resp = memo_http::client()
                .unwrap()
                .post(url)
                .body(body)
                .send()
                .await
                .unwrap();
            assert!(resp.status().is_success(), "{path}: {}", resp.status());
        });
    }

    /// Forgets the queue and the recorded requests.
    pub fn reset(&self) {
        self.post("/__mock/reset", String::new());
    }

    /// Queues scripted responses (scenario JSON objects).
    pub fn push(&self, responses: Value) {
        self.post(
            "/__mock/responses",
            serde_json::json!({ "responses": responses }).to_string(),
        );
    }

    pub fn requests(&self) -> Vec<Value> {
        let url = format!("{}/__mock/requests", self.url);
        self.rt.block_on(async {
            memo_http::client()
                .unwrap()
                .get(url)
                .send()
                .await
                .unwrap()
                .json::<Vec<Value>>()
                .await
                .unwrap()
        })
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A MEMO_HOME whose config points at the mock (OpenAI wire format), and a workspace.
pub struct Home {
    pub home: tempfile::TempDir,
    pub work: tempfile::TempDir,
}

impl Home {
    pub fn new(mock: &Mock, extra_config: &str) -> Home {
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            format!(
                "current_provider = \"mock\"\n{extra_config}\n\n[[providers.mock]]\nname = \"mock\"\nmodel = \"mock-model\"\nbase_url = \"{}/v1\"\n",
                mock.url
            ),
        )
        .unwrap();
        Home { home, work }
    }

    /// Adds `text` at the end of config.toml.
    pub fn add_config(&self, text: &str) {
        let config = self.home.path().join("config.toml");
        let before = std::fs::read_to_string(&config).unwrap();
        std::fs::write(&config, format!("{before}\n{text}")).unwrap();
    }

    pub fn db(&self) -> PathBuf {
        self.home.path().join("memo-desktop.sqlite")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_memo-cli"));
        cmd.args(args)
            .env("MEMO_HOME", self.home.path())
            .env("RUST_LOG", "warn")
            .env_remove("OPENAI_API_KEY")
            .env_remove("DEEPSEEK_API_KEY");
        cmd
    }

    /// `exec` in the workspace.
    pub fn exec_command(&self, prompt: &str, extra: &[&str]) -> Command {
        let mut cmd = self.command(&["exec", prompt, "--json"]);
        cmd.args(extra).arg("--cwd").arg(self.work.path());
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run memo-cli")
    }

    /// Runs and parses stdout as one JSON document; panics with stderr on failure.
    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", String::from_utf8_lossy(&out.stdout)))
    }
}

/// JSONL stdout as values (complete lines only).
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Whether an OpenAI chat request pairs every tool call with a result right after its
/// assistant message, as the API requires. Returns the first problem.
pub fn pairing_problem(body: &Value) -> Option<String> {
    let messages = body["messages"].as_array()?;
    for (i, m) in messages.iter().enumerate() {
        let Some(calls) = m["tool_calls"].as_array() else {
            continue;
        };
        let results: Vec<&str> = messages[i + 1..]
            .iter()
            .take_while(|r| r["role"] == "tool")
            .filter_map(|r| r["tool_call_id"].as_str())
            .collect();
        for call in calls {
            let id = call["id"].as_str().unwrap_or_default();
            if !results.contains(&id) {
                return Some(format!("call {id} at message {i} has no result: {body}"));
            }
        }
    }
    None
}

/// The `field` of each object in the array `list`.
pub fn fields<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap())
        .collect()
}

/// A scripted model answer that calls `tool` with `args`.
pub fn call(tool: &str, args: Value) -> Value {
    serde_json::json!({"tool_calls": [{"name": tool, "arguments": args.to_string()}]})
}
