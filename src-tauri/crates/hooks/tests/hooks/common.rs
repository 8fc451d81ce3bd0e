//! A user home and a project folder in temporary directories, with helpers to write
//! settings files and read what hook scripts left behind.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use memo_hooks::{
    load_hooks, CancellationToken, HookContext, HookInput, HookOutcome, HookPaths, LoadedHooks,
};
use serde_json::Value;
use tempfile::TempDir;

pub struct Setup {
    pub home: TempDir,
    pub project: TempDir,
    pub memo_home: TempDir,
}

impl Setup {
    pub fn new() -> Setup {
        let setup = Setup {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
            memo_home: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(setup.out()).unwrap();
        setup
    }

    /// Where hook scripts write what they saw (inside the project, reached through
    /// `$CLAUDE_PROJECT_DIR`).
    pub fn out(&self) -> PathBuf {
        self.project.path().join("out")
    }

    pub fn user_settings(&self, json: Value) -> PathBuf {
        write(
            &self.home.path().join(".claude/settings.json"),
            &json.to_string(),
        )
    }

    pub fn project_settings(&self, json: Value) -> PathBuf {
        write(
            &self.project.path().join(".claude/settings.json"),
            &json.to_string(),
        )
    }

    pub fn project_local_settings(&self, json: Value) -> PathBuf {
        write(
            &self.project.path().join(".claude/settings.local.json"),
            &json.to_string(),
        )
    }

    pub fn memo_config(&self, toml: &str) -> PathBuf {
        write(&self.memo_home.path().join("config.toml"), toml)
    }

    pub fn paths(&self) -> HookPaths {
        HookPaths {
            user_home: Some(self.home.path().to_path_buf()),
            project_dir: Some(self.project.path().to_path_buf()),
            memo_config: Some(self.memo_home.path().join("config.toml")),
            plugins: Vec::new(),
        }
    }

    pub fn load(&self, trusted: bool) -> LoadedHooks {
        load_hooks(&self.paths(), trusted)
    }

    pub fn ctx(&self) -> HookContext {
        HookContext::new("session-1", self.project.path())
    }

    pub async fn run(&self, loaded: &LoadedHooks, input: HookInput) -> HookOutcome {
        loaded
            .hooks
            .run(&self.ctx(), &input, &CancellationToken::new())
            .await
    }

    pub fn read_out(&self, name: &str) -> String {
        std::fs::read_to_string(self.out().join(name))
            .unwrap_or_else(|e| panic!("{name} was not written: {e}"))
    }

    pub fn out_json(&self, name: &str) -> Value {
        serde_json::from_str(&self.read_out(name)).unwrap()
    }

    pub fn out_exists(&self, name: &str) -> bool {
        self.out().join(name).exists()
    }
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// `{"hooks": {event: [{"matcher": m, "hooks": [{"type": "command", "command": c}]}]}}`
pub fn settings(groups: &[(&str, &str, &str)]) -> Value {
    let mut hooks = serde_json::Map::new();
    for (event, matcher, command) in groups {
        let list = hooks
            .entry(event.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(serde_json::json!({
                "matcher": matcher,
                "hooks": [{"type": "command", "command": command, "timeout": 20}]
            }));
        }
    }
    serde_json::json!({ "hooks": hooks })
}

/// Whether a process is gone (or a zombie nobody reaped yet: dead either way).
pub fn process_is_dead(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.trim_start().starts_with('Z'))
            .unwrap_or(false),
    }
}

pub fn wait_until_dead(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if process_is_dead(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}
