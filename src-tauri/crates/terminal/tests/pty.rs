//! Real shells on real PTYs: output, input, resizing, exit codes, killing on close and
//! flow control. Every wait polls a condition with a generous deadline, so a loaded
//! machine makes a test slower, not red; every terminal a test opens is closed by it (or
//! by dropping its manager).
#![cfg(target_os = "linux")]

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use memo_terminal::{
    Limits, OpenRequest, TerminalId, TerminalManager, TerminalMessage, TerminalSink,
};

const TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Screen {
    bytes: Vec<u8>,
    exit: Option<Option<i32>>,
    /// Messages that arrived after the exit (there must be none).
    after_exit: usize,
    largest_message: usize,
}

impl Screen {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

#[derive(Clone, Default)]
struct Recorder(Arc<(Mutex<Screen>, Condvar)>);

impl TerminalSink for Recorder {
    fn send(&self, message: TerminalMessage) -> bool {
        let (screen, changed) = &*self.0;
        let mut screen = screen.lock().unwrap();
        if screen.exit.is_some() {
            screen.after_exit += 1;
        }
        match message {
            TerminalMessage::Output { data } => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .unwrap();
                screen.largest_message = screen.largest_message.max(bytes.len());
                screen.bytes.extend_from_slice(&bytes);
            }
            TerminalMessage::Exit { code } => screen.exit = Some(code),
        }
        changed.notify_all();
        true
    }
}

impl Recorder {
    /// Waits until `done` holds for what arrived so far; panics with the output if not.
    fn wait_for(&self, what: &str, done: impl Fn(&Screen) -> bool) {
        let (screen, changed) = &*self.0;
        let deadline = Instant::now() + TIMEOUT;
        let mut guard = screen.lock().unwrap();
        while !done(&guard) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "timed out waiting for {what}; got:\n{}",
                guard.text()
            );
            guard = changed.wait_timeout(guard, left).unwrap().0;
        }
    }

    fn wait_for_text(&self, needle: &str) {
        self.wait_for(needle, |s| s.text().contains(needle));
    }

    fn with<T>(&self, f: impl FnOnce(&Screen) -> T) -> T {
        f(&self.0 .0.lock().unwrap())
    }
}

fn open_sh(manager: &TerminalManager, cwd: &Path, group: &str) -> (TerminalId, Recorder) {
    let recorder = Recorder::default();
    let request = OpenRequest {
        cwd: cwd.to_path_buf(),
        cols: 80,
        rows: 24,
        shell: Some("/bin/sh".into()),
        group: group.to_owned(),
    };
    let id = manager.open(request, recorder.clone()).unwrap();
    (id, recorder)
}

/// `(state, session, cpu ticks)` of a process, `None` once it is gone.
fn stat(pid: u32) -> Option<(char, i32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = text[text.rfind(')')? + 1..].split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let session = fields.get(3)?.parse().ok()?;
    // utime and stime are fields 14 and 15 of the whole line.
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((state, session, ticks))
}

/// Running, sleeping or stopped: anything but gone or a zombie (dead, not yet reaped by
/// whatever adopted it).
fn alive(pid: u32) -> bool {
    matches!(stat(pid), Some((state, _, _)) if state != 'Z' && state != 'X')
}

fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The number printed after `marker=` (the echoed command line shows `marker=$!`).
fn printed_pid(recorder: &Recorder, marker: &str) -> u32 {
    let prefix = format!("{marker}=");
    recorder.wait_for(&prefix, |s| {
        s.text()
            .split(&prefix)
            .skip(1)
            .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    });
    let text = recorder.with(Screen::text);
    text.split(&prefix)
        .skip(1)
        .find_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .unwrap()
}

fn shell_pid(manager: &TerminalManager, id: TerminalId) -> u32 {
    manager.pid(id).unwrap().unwrap()
}

#[test]
fn runs_a_command_and_shows_its_output_in_the_right_environment() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    // The arithmetic shows the shell ran the line: the echoed input has `$((40+2))`.
    manager
        .write(id, "echo hello-$((40+2)) $TERM $COLORTERM; pwd\n")
        .unwrap();
    screen.wait_for_text("hello-42 xterm-256color truecolor");
    let cwd = dir.path().canonicalize().unwrap();
    screen.wait_for_text(&cwd.display().to_string());
    manager.close(id).unwrap();
}

#[test]
fn resizing_reaches_the_programs_in_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    manager.write(id, "stty size\n").unwrap();
    screen.wait_for_text("24 80");
    manager.resize(id, 132, 43).unwrap();
    manager.write(id, "stty size\n").unwrap();
    screen.wait_for_text("43 132");
    manager.close(id).unwrap();
}

#[test]
fn reports_the_exit_code_after_all_output() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    manager.write(id, "echo bye-$((1+1)); exit 3\n").unwrap();
    screen.wait_for("the exit", |s| s.exit.is_some());
    screen.with(|s| {
        assert_eq!(s.exit, Some(Some(3)));
        assert!(
            s.text().contains("bye-2"),
            "output before the exit: {}",
            s.text()
        );
    });
    // Nothing may follow the exit.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(screen.with(|s| s.after_exit), 0);
    manager.close(id).unwrap();
}

#[test]
fn a_shell_killed_by_a_signal_exits_without_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    manager.write(id, "kill -9 $$\n").unwrap();
    screen.wait_for("the exit", |s| s.exit.is_some());
    assert_eq!(screen.with(|s| s.exit), Some(None));
    manager.close(id).unwrap();
}

#[test]
fn closing_ends_background_jobs_even_those_ignoring_sighup() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    let shell = shell_pid(&manager, id);
    manager
        .write(
            id,
            "sleep 1000 & echo bg=$!; (trap '' HUP; exec sleep 1001) & echo deaf=$!\n",
        )
        .unwrap();
    let bg = printed_pid(&screen, "bg");
    let deaf = printed_pid(&screen, "deaf");
    for pid in [bg, deaf] {
        let (_, session, _) = stat(pid).unwrap();
        assert_eq!(
            session,
            i32::try_from(shell).unwrap(),
            "{pid} is in the shell's session"
        );
    }
    manager.close(id).unwrap();
    for pid in [shell, bg, deaf] {
        wait_until(&format!("{pid} is gone"), || !alive(pid));
    }
    assert!(
        manager.write(id, "x").is_err(),
        "a closed terminal takes no input"
    );
}

#[test]
fn closing_a_group_closes_only_its_terminals() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let (a1, _) = open_sh(&manager, dir.path(), "/work/a");
    let (a2, _) = open_sh(&manager, dir.path(), "/work/a");
    let (b, b_screen) = open_sh(&manager, dir.path(), "/work/b");
    let pids = [shell_pid(&manager, a1), shell_pid(&manager, a2)];
    assert_eq!(manager.close_group("/work/a"), 2);
    for pid in pids {
        wait_until(&format!("{pid} is gone"), || !alive(pid));
    }
    assert_eq!(manager.ids(), [b]);
    manager.write(b, "echo still-$((2*3))\n").unwrap();
    b_screen.wait_for_text("still-6");
    assert_eq!(manager.close_group("/work/a"), 0);
    assert_eq!(manager.close_all(), 1);
}

#[test]
fn dropping_the_manager_ends_everything_before_it_returns() {
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::default();
    let mut pids = Vec::new();
    for group in ["a", "b"] {
        let (id, screen) = open_sh(&manager, dir.path(), group);
        pids.push(shell_pid(&manager, id));
        manager.write(id, "sleep 1000 & echo bg=$!\n").unwrap();
        pids.push(printed_pid(&screen, "bg"));
    }
    assert!(pids.iter().all(|&pid| alive(pid)));
    drop(manager);
    let survivors: Vec<u32> = pids.into_iter().filter(|&pid| alive(pid)).collect();
    assert!(survivors.is_empty(), "still running: {survivors:?}");
}

/// The processes of `session` running `comm`.
fn session_processes(session: u32, comm: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            name.trim() == comm
                && matches!(stat(pid), Some((_, s, _)) if i64::from(s) == i64::from(session))
        })
        .collect()
}

#[test]
fn a_flood_stops_at_the_window_until_acked_and_the_writer_blocks() {
    const WINDOW: usize = 64 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let manager = TerminalManager::new(Limits {
        window: WINDOW,
        max_message: 16 * 1024,
        ..Limits::default()
    });
    let (id, screen) = open_sh(&manager, dir.path(), "w");
    let shell = shell_pid(&manager, id);
    manager.write(id, "yes\n").unwrap();

    // Unacked, exactly one window arrives and the reader waits for credit.
    screen.wait_for("a full window", |s| {
        assert!(
            s.bytes.len() <= WINDOW,
            "{} bytes delivered unacked",
            s.bytes.len()
        );
        s.bytes.len() == WINDOW
    });
    wait_until("the reader waits for acks", || {
        manager.flow(id).unwrap().reader_waiting
    });
    assert_eq!(manager.flow(id).unwrap().unacked, WINDOW);

    // `yes` is blocked writing to the full PTY: it uses no CPU and nothing more arrives.
    let yes = {
        wait_until("yes runs", || !session_processes(shell, "yes").is_empty());
        session_processes(shell, "yes")[0]
    };
    wait_until("yes sleeps in write", || {
        let before = stat(yes).unwrap().2;
        std::thread::sleep(Duration::from_millis(300));
        stat(yes).unwrap().2 == before
    });
    assert_eq!(screen.with(|s| s.bytes.len()), WINDOW);

    // Acking opens the window: the flood goes on, still never more than a window ahead.
    manager.ack(id, WINDOW).unwrap();
    screen.wait_for("the second window", |s| {
        assert!(
            s.bytes.len() <= 2 * WINDOW,
            "{} bytes delivered",
            s.bytes.len()
        );
        s.bytes.len() == 2 * WINDOW
    });
    assert!(screen.with(|s| s.largest_message) <= 16 * 1024);
    assert!(screen.with(Screen::text).contains("y\r\ny\r\ny\r\n"));
    manager.close(id).unwrap();
    wait_until("yes is gone", || !alive(yes));
}

#[test]
fn unknown_terminals_and_missing_folders_are_errors() {
    let manager = TerminalManager::default();
    let missing = TerminalId(999_999);
    assert!(manager.write(missing, "x").is_err());
    assert!(manager.resize(missing, 80, 24).is_err());
    assert!(manager.ack(missing, 1).is_err());
    assert!(manager.close(missing).is_err());
    let request = OpenRequest {
        cwd: "/definitely/not/here".into(),
        cols: 80,
        rows: 24,
        shell: Some("/bin/sh".into()),
        group: "w".into(),
    };
    let error = manager.open(request, Recorder::default()).unwrap_err();
    assert_eq!(error.code(), memo_protocol::ErrorCode::InvalidInput);
}
