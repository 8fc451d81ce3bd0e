//! Nothing a person writes is lost to Memo, as an invariant rather than by examples:
//! random interleavings of the agent's edits (the edit tool, shell commands, an MCP
//! server's writes), a person's edits by hand, reverts from the changes panel (per hunk and
//! per file, forced or not), their undos, and code rewinds to an earlier turn (with and
//! without overwriting the person's files) with their undos. After every step, every line
//! the person ever wrote must be on disk or kept in one of the session's checkpoints, which
//! the rewind dialog offers.
//!
//! The sequences come from a small seeded generator: a failure names its seed and the
//! steps it took, and the same seed replays them.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use memo_checkpoints::{Checkpoints, Content, Limits};
use memo_protocol::{ChangeScope, RestoreAction, RestoreMode, RevertRequest, SessionId};
use memo_test_support::{MockResponse, SeededRng};
use serde_json::json;
use support::{fixture, Fixture};

const FILES: [&str; 3] = ["a.txt", "b.txt", "c.txt"];
const STEPS: usize = 22;

struct World {
    f: Fixture,
    id: SessionId,
    rng: SeededRng,
    seed: u64,
    /// Every line the person wrote, with the step that wrote it.
    written: Vec<(String, usize)>,
    /// Checkpoints that undo the last panel revert (with its file) and the last rewind.
    undo_revert: Option<(u64, String)>,
    undo_restore: Option<u64>,
    log: Vec<String>,
    counter: usize,
}

impl World {
    fn work(&self) -> PathBuf {
        self.f.work.path().to_path_buf()
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.work().join(file)).unwrap_or_default()
    }

    fn lines(&self, file: &str) -> Vec<String> {
        self.read(file).lines().map(str::to_owned).collect()
    }

    fn fresh(&mut self, who: &str) -> String {
        self.counter += 1;
        format!("{who}-{}-{}", self.seed, self.counter)
    }

    fn file(&mut self) -> &'static str {
        FILES[self.rng.index(FILES.len())]
    }

    /// One turn in which the agent's `tool` puts the line `new` into `file`.
    async fn agent_turn(&mut self, tool: &str, args: serde_json::Value, file: &str, new: &str) {
        let what = format!("{tool}: {new} into {file}");
        self.f.mock.extend([
            MockResponse::tool_call(tool, args.to_string()),
            MockResponse::text("Done."),
        ]);
        self.f.turn(&self.id, &what).await;
        // The tool really ran: otherwise the sequence would test less than it says.
        assert!(
            self.read(file).contains(new),
            "seed {}: {what} did not happen; {file} is {:?}.\nsteps:\n{}",
            self.seed,
            self.read(file),
            self.log.join("\n")
        );
        self.log.push(what);
    }

    async fn step(&mut self, step: usize) {
        match self.rng.index(9) {
            // The agent's edit tool replaces a line (maybe one the person wrote).
            0 => {
                let file = self.file();
                let lines = self.lines(file);
                if lines.is_empty() {
                    return;
                }
                let old = lines[self.rng.index(lines.len())].clone();
                let new = self.fresh("agent");
                let args = json!({"file_path": file, "old_string": format!("{old}\n"), "new_string": format!("{new}\n")});
                self.agent_turn("apply_patch", args, file, &new).await;
            }
            // A shell command inserts a line at the top.
            1 => {
                let file = self.file();
                let new = self.fresh("agent");
                let args = json!({"cmd": format!("sed -i '1i {new}' {file}")});
                self.agent_turn("exec_command", args, file, &new).await;
            }
            // An MCP server rewrites the whole file.
            2 => {
                let file = self.file();
                let mut text = self.read(file);
                let new = self.fresh("agent");
                text.push_str(&format!("{new}\n"));
                let args = json!({"path": self.work().join(file), "content": text});
                self.agent_turn("fs__write_file", args, file, &new).await;
            }
            // The person edits by hand: a new line somewhere, sometimes one taken out.
            3 | 4 => {
                let file = self.file();
                let mut lines = self.lines(file);
                let mine = self.fresh("person");
                let at = self.rng.index(lines.len() + 1);
                lines.insert(at, mine.clone());
                if lines.len() > 2 && self.rng.chance(25) {
                    let gone = self.rng.index(lines.len());
                    if lines[gone] != mine {
                        // Their own choice: a line they take out is not Memo's to keep.
                        let line = lines.remove(gone);
                        self.written.retain(|(w, _)| *w != line);
                    }
                }
                let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
                std::fs::write(self.work().join(file), text).unwrap();
                self.written.push((mine.clone(), step));
                self.log.push(format!("person: {mine} into {file} at {at}"));
            }
            // A revert from the changes panel, per hunk or per file, forced when held back
            // half of the time (as a person answering "Revert anyway").
            5 | 6 => {
                let scope = if self.rng.chance(50) {
                    ChangeScope::Session
                } else {
                    ChangeScope::LastTurn
                };
                let report = self.f.service.session_changes(&self.id, scope).unwrap();
                if report.files.is_empty() {
                    return;
                }
                let file = report.files[self.rng.index(report.files.len())].clone();
                let Some(diff) = &file.diff else { return };
                let hunks = (!diff.hunks.is_empty() && self.rng.chance(50))
                    .then(|| vec![self.rng.index(diff.hunks.len()) as u32]);
                let mut request = RevertRequest {
                    scope,
                    path: file.path.clone(),
                    hunks: hunks.clone(),
                    shown_diff: diff.unified.clone(),
                    force: false,
                };
                let mut result = match self.f.service.revert_change(&self.id, &request) {
                    Ok(result) => result,
                    Err(error) => {
                        self.log
                            .push(format!("revert {} refused: {error}", file.path));
                        return;
                    }
                };
                if result.held_back.is_some() && self.rng.chance(50) {
                    request.force = true;
                    result = self.f.service.revert_change(&self.id, &request).unwrap();
                }
                if let Some(undo) = result.undo_checkpoint {
                    self.undo_revert = Some((undo, file.path.clone()));
                }
                self.log.push(format!(
                    "revert {} {hunks:?} force={} held={}",
                    file.path,
                    request.force,
                    result.held_back.is_some()
                ));
            }
            // The panel's Undo, with or without "Undo anyway".
            7 => {
                let Some((checkpoint, path)) = self.undo_revert.take() else {
                    return;
                };
                let overwrite = self.rng.chance(50);
                let report = self
                    .f
                    .service
                    .undo_revert(&self.id, checkpoint, &path, overwrite)
                    .unwrap();
                self.log.push(format!(
                    "undo revert {path} overwrite={overwrite}: {:?}",
                    actions(&report.files)
                ));
            }
            // A code rewind to an earlier turn, or the undo of the last one.
            _ => {
                if let Some(undo) = self.undo_restore.take().filter(|_| self.rng.chance(40)) {
                    let report = self.f.service.undo_restore(&self.id, undo, &[]).unwrap();
                    self.log
                        .push(format!("undo rewind: {:?}", actions(&report.files)));
                    return;
                }
                let starts = self.f.turn_starts(&self.id);
                if starts.is_empty() {
                    return;
                }
                let (seq, _) = starts[self.rng.index(starts.len())];
                let preview = self.f.service.preview_restore(&self.id, seq - 1).unwrap();
                // The dialog names each conflict; the person agrees to overwrite half the time.
                let overwrite: Vec<String> = if self.rng.chance(50) {
                    preview
                        .files
                        .iter()
                        .filter(|f| f.action == RestoreAction::Conflict)
                        .map(|f| f.path.clone())
                        .collect()
                } else {
                    Vec::new()
                };
                let report = self
                    .f
                    .service
                    .restore(&self.id, seq - 1, RestoreMode::Code, &overwrite)
                    .unwrap();
                self.undo_restore = report.undo_checkpoint;
                self.log.push(format!(
                    "rewind to {seq} overwrite={overwrite:?}: {:?}",
                    actions(&report.files)
                ));
            }
        }
    }

    /// Every line the person wrote is on disk or in a checkpoint of the session.
    fn check(&self, step: usize, kept: &Checkpoints) {
        let mut everywhere = String::new();
        for file in FILES {
            everywhere.push_str(&self.read(file));
        }
        let mut stored = String::new();
        for row in kept.list(&self.id.0).unwrap() {
            for change in &row.changes {
                for content in [&change.before, &change.after] {
                    if let Content::Blob(_) = content {
                        if let Some(bytes) = kept.read(content).unwrap() {
                            stored.push_str(&String::from_utf8_lossy(&bytes));
                        }
                    }
                }
            }
        }
        for (line, at) in &self.written {
            assert!(
                everywhere.contains(line.as_str()) || stored.contains(line.as_str()),
                "seed {}: after step {step}, the person's line {line} (written at step {at}) is neither on disk nor in a checkpoint.\nsteps:\n{}",
                self.seed,
                self.log.join("\n")
            );
        }
    }
}

fn actions(files: &[memo_protocol::RestoreFile]) -> Vec<(String, RestoreAction)> {
    files.iter().map(|f| (f.path.clone(), f.action)).collect()
}

fn filesystem_server() -> Option<PathBuf> {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../tests/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    );
    js.exists().then_some(js)
}

async fn run(seed: u64) {
    let js = filesystem_server().unwrap_or_else(|| {
        panic!("the MCP test servers are not installed: run `npm install` in tests/mcp (scripts/test-all.sh does)")
    });
    let f = fixture(Vec::new()).await;
    for file in FILES {
        let base: String = (1..=6).map(|i| format!("base-{file}-{i}\n")).collect();
        std::fs::write(f.work.path().join(file), base).unwrap();
    }
    let work = f.work.path().canonicalize().unwrap();
    f.configure(
        "approval_mode = \"dangerous\"",
        &format!(
            "[mcp_servers.fs]\ncommand = \"node\"\nargs = [{:?}, {:?}]\n",
            js.display().to_string(),
            work.display().to_string()
        ),
    );
    let id = f.start().id;
    let kept = Checkpoints::open(&f.home.path().join("checkpoints"), Limits::default()).unwrap();
    let mut world = World {
        f,
        id,
        rng: SeededRng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        seed,
        written: Vec::new(),
        undo_revert: None,
        undo_restore: None,
        log: Vec::new(),
        counter: 0,
    };
    for step in 0..STEPS {
        world.step(step).await;
        world.check(step, &kept);
    }
    let kinds: BTreeMap<&str, usize> = world.log.iter().fold(BTreeMap::new(), |mut m, l| {
        *m.entry(l.split([' ', ':']).next().unwrap_or(""))
            .or_default() += 1;
        m
    });
    eprintln!("seed {seed}: {kinds:?}");
    assert!(
        !world.written.is_empty(),
        "seed {seed} wrote nothing for the person"
    );
    world.f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_the_person_writes_is_lost_whatever_memo_and_the_agent_do() {
    // `NO_LOSS_SEED=7` replays one sequence alone.
    let only = std::env::var("NO_LOSS_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    for seed in (1..=8).filter(|s| only.is_none_or(|o| o == *s)) {
        run(seed).await;
    }
}
