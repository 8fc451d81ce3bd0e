//! Commands in another program's terminal: an editor that runs Memo's agent over ACP and
//! offers `terminal/*` shows each command in its own terminal, so `exec_command` asks it to
//! run them there instead of on Memo's pseudo-terminal. Everything before the command runs
//! (the guard, the path policy, approvals) is Memo's as ever, and the command still runs
//! under Memo's Landlock sandbox: the editor is asked to start Memo's own sandbox wrapper
//! ([`SANDBOX_EXEC`]), which restricts itself and then becomes the shell.
//!
//! The editor holds the output; a poller copies what is new into the same session state a
//! PTY's reader fills, so the result, `write_stdin` polling, live output and timeouts work
//! unchanged. Such a terminal takes no typed input (ACP has none): Ctrl-C kills it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use futures::future::BoxFuture;

use crate::exec::sandbox::{self, SandboxPolicy, SandboxStatus};
use crate::exec::shells::{ExitInfo, SHELLS};

/// The wrapper's subcommand: `<program> sandbox-exec --policy P [--writable DIR]… -- ARGV`.
pub const SANDBOX_EXEC: &str = "sandbox-exec";

/// How often a running command's output is fetched from the editor.
const POLL_EVERY: Duration = Duration::from_millis(100);
/// The most output the editor is asked to keep for one command (it drops the oldest).
pub const OUTPUT_LIMIT: u64 = 1024 * 1024;

/// A command for the host to start.
#[derive(Debug, Clone)]
pub struct HostedCommand {
    pub program: String,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub output_limit: u64,
    /// The tool call it belongs to, so the host can show the terminal on that call.
    pub call_id: Option<String>,
}

/// What the host's terminal holds now.
#[derive(Debug, Clone, Default)]
pub struct HostedOutput {
    pub output: String,
    /// The host dropped the start of the output to keep within the limit.
    pub truncated: bool,
    pub exit: Option<ExitInfo>,
}

/// Another program's terminals. Every method answers the host's reply or why it failed.
pub trait TerminalHost: Send + Sync + std::fmt::Debug {
    /// Starts the command; answers the host's terminal id.
    fn create(&self, command: HostedCommand) -> BoxFuture<'static, Result<String, String>>;
    fn output(&self, terminal: &str) -> BoxFuture<'static, Result<HostedOutput, String>>;
    fn wait_for_exit(&self, terminal: &str) -> BoxFuture<'static, Result<ExitInfo, String>>;
    fn kill(&self, terminal: &str) -> BoxFuture<'static, Result<(), String>>;
    /// Frees the terminal (the host keeps showing its output where it showed it).
    fn release(&self, terminal: &str) -> BoxFuture<'static, Result<(), String>>;
    /// The program (and its leading arguments) that understands [`SANDBOX_EXEC`], for the
    /// host to start; `None`: commands that need the sandbox stay on Memo's own terminal.
    fn sandbox_wrapper(&self) -> Option<(String, Vec<String>)>;
}

/// The command line the host is asked to run for `argv` under `policy`, and the sandbox
/// status the session reports; `None` when the sandbox is wanted but the host has no
/// wrapper for it.
pub fn command_line(
    host: &dyn TerminalHost,
    policy: SandboxPolicy,
    writable_roots: &[PathBuf],
    argv: Vec<String>,
) -> Option<(String, Vec<String>, SandboxStatus)> {
    if policy == SandboxPolicy::Off {
        let mut argv = argv.into_iter();
        let program = argv.next()?;
        return Some((program, argv.collect(), SandboxStatus::Off));
    }
    let (program, mut args) = host.sandbox_wrapper()?;
    args.push(SANDBOX_EXEC.into());
    args.extend(["--policy".to_owned(), policy.label().to_owned()]);
    for root in writable_roots {
        args.extend(["--writable".to_owned(), root.display().to_string()]);
    }
    args.push("--".into());
    args.extend(argv);
    Some((program, args, landlock_status()))
}

/// What the wrapper will manage on this kernel (the host runs it on this machine).
fn landlock_status() -> SandboxStatus {
    static STATUS: OnceLock<SandboxStatus> = OnceLock::new();
    *STATUS.get_or_init(|| {
        if sandbox::landlock_available() {
            SandboxStatus::Enforced
        } else {
            SandboxStatus::Unavailable
        }
    })
}

/// The wrapper's side: parses `--policy P [--writable DIR]… -- ARGV`, restricts this
/// process with Landlock and becomes `ARGV`. Returns only on failure, with why.
pub fn sandbox_exec_main(args: &[String]) -> String {
    let mut policy = SandboxPolicy::WorkspaceWrite;
    let mut roots = Vec::new();
    let mut rest = args.iter();
    loop {
        match rest.next().map(String::as_str) {
            Some("--policy") => match rest.next().and_then(|p| SandboxPolicy::parse(p)) {
                Some(p) => policy = p,
                None => {
                    return "sandbox-exec: --policy needs workspace-write, read-only or off".into()
                }
            },
            Some("--writable") => match rest.next() {
                Some(root) => roots.push(PathBuf::from(root)),
                None => return "sandbox-exec: --writable needs a folder".into(),
            },
            Some("--") => break,
            Some(other) => return format!("sandbox-exec: unknown argument {other}"),
            None => return "sandbox-exec: nothing to run (expected -- COMMAND…)".into(),
        }
    }
    let argv: Vec<&String> = rest.collect();
    let Some((program, argv)) = argv.split_first() else {
        return "sandbox-exec: nothing to run after --".into();
    };
    if policy != SandboxPolicy::Off {
        if let Err(error) =
            sandbox::restrict_current_thread(&sandbox::writable_paths(policy, &roots))
        {
            return format!("sandbox-exec: {}", error.message);
        }
    }
    use std::os::unix::process::CommandExt;
    let error = std::process::Command::new(program).args(argv).exec();
    format!("sandbox-exec: cannot run {program}: {error}")
}

/// The command Memo's wrapper will run, read from its arguments (those after the program):
/// `sandbox-exec --policy P [--writable DIR]… -- SHELL -c|-lc COMMAND`, with a shell Memo
/// knows. `None` for anything else. Lets a Memo that serves another Memo's terminals judge
/// the command itself, as the other Memo's approval did, rather than the wrapper around it.
pub fn wrapped_command(args: &[String]) -> Option<&str> {
    let mut rest = args.iter().map(String::as_str);
    if rest.next()? != SANDBOX_EXEC {
        return None;
    }
    loop {
        match rest.next()? {
            "--policy" => {
                SandboxPolicy::parse(rest.next()?)?;
            }
            "--writable" => {
                rest.next()?;
            }
            "--" => break,
            _ => return None,
        }
    }
    let (shell, flag, command) = (rest.next()?, rest.next()?, rest.next()?);
    let known = SHELLS.contains(&crate::command_guard::base_name(shell).as_str());
    (known && matches!(flag, "-c" | "-lc") && rest.next().is_none()).then_some(command)
}

/// The part of `now` not yet in `seen`: its new tail, also when the host dropped the start
/// of the output in between (the last bytes seen are then found again).
pub(crate) fn new_output<'a>(seen: &str, now: &'a str, truncated: bool) -> &'a str {
    if let Some(rest) = now.strip_prefix(seen) {
        return rest;
    }
    if !truncated {
        // The host rewrote what it had shown: all of it is new.
        return now;
    }
    // What is left of `seen` starts `now`: its last bytes are found again, or for a short
    // overlap, the longest end of `seen` that begins `now`.
    const ANCHOR: usize = 256;
    let mut anchor = seen.len().saturating_sub(ANCHOR);
    while !seen.is_char_boundary(anchor) {
        anchor += 1;
    }
    if seen.len() - anchor == ANCHOR {
        if let Some(at) = now.find(&seen[anchor..]) {
            return &now[at + ANCHOR..];
        }
    }
    for start in anchor..seen.len() {
        if seen.is_char_boundary(start) && now.starts_with(&seen[start..]) {
            return &now[seen.len() - start..];
        }
    }
    now
}

/// What the poller reports to its session.
pub(crate) trait HostedSink: Send + Sync {
    fn printed(&self, bytes: &[u8]);
    fn exited(&self, exit: ExitInfo);
}

/// Copies the terminal's output into the session until the command exits, then releases
/// the terminal. Stops (killing and releasing the command) when the session is dropped.
pub(crate) fn poll<S: HostedSink + 'static>(
    host: Arc<dyn TerminalHost>,
    terminal: String,
    session: Weak<S>,
) {
    tokio::spawn(async move {
        let mut seen = String::new();
        let mut exit_wait = host.wait_for_exit(&terminal);
        let exit = loop {
            let exited = tokio::select! {
                exit = &mut exit_wait => Some(exit),
                _ = tokio::time::sleep(POLL_EVERY) => None,
            };
            let Some(sink) = session.upgrade() else {
                let _ = host.kill(&terminal).await;
                break None;
            };
            let fetched = host.output(&terminal).await;
            match fetched {
                Ok(now) => {
                    let fresh = new_output(&seen, &now.output, now.truncated);
                    if !fresh.is_empty() {
                        sink.printed(fresh.as_bytes());
                    }
                    seen = now.output;
                    if let Some(exit) = now.exit.or(exited.clone().and_then(Result::ok)) {
                        break Some(exit);
                    }
                }
                Err(error) => break Some(lost(&error)),
            }
            if let Some(Err(error)) = exited {
                break Some(lost(&error));
            }
        };
        if let (Some(exit), Some(sink)) = (exit, session.upgrade()) {
            sink.exited(exit);
        }
        let _ = host.release(&terminal).await;
    });
}

fn lost(error: &str) -> ExitInfo {
    ExitInfo {
        code: -1,
        signal: Some(format!("the editor's terminal failed: {error}")),
    }
}

/// Whether `chars` only asks to interrupt (Ctrl-C, Ctrl-\): the one input such a terminal
/// can take, as a kill.
pub(crate) fn is_interrupt(chars: &str) -> bool {
    !chars.is_empty() && chars.chars().all(|c| c == '\u{3}' || c == '\u{1c}')
}

/// The cwd as the host should get it: absolute, as ACP requires.
pub(crate) fn absolute(cwd: &Path) -> PathBuf {
    std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_output_finds_the_new_tail() {
        assert_eq!(new_output("", "abc", false), "abc");
        assert_eq!(new_output("ab", "abcd", false), "cd");
        assert_eq!(new_output("abcd", "abcd", false), "");
        // The host dropped the start: the last bytes seen mark where the new ones begin.
        assert_eq!(new_output("hello world", "o worldXYZ", true), "XYZ");
        // Nothing in common: all of it is new.
        assert_eq!(new_output("aaaa", "zzzz", true), "zzzz");
        assert_eq!(new_output("aaaa", "zzzz", false), "zzzz");
    }

    #[test]
    fn the_wrapped_command_is_read_back_exactly() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let made = s(&[
            SANDBOX_EXEC,
            "--policy",
            "workspace-write",
            "--writable",
            "/w",
            "--",
            "/bin/bash",
            "-c",
            "echo hi",
        ]);
        assert_eq!(wrapped_command(&made), Some("echo hi"));
        // Anything else is not the wrapper's shape: judged as the whole line.
        for other in [
            s(&["run", "--", "/bin/bash", "-c", "echo hi"]),
            s(&[
                SANDBOX_EXEC,
                "--policy",
                "bogus",
                "--",
                "/bin/bash",
                "-c",
                "x",
            ]),
            s(&[SANDBOX_EXEC, "--", "/usr/bin/python3", "-c", "x"]),
            s(&[SANDBOX_EXEC, "--", "/bin/sh", "-c", "x", "extra"]),
            s(&[SANDBOX_EXEC, "--", "/bin/sh", "-e", "x"]),
            s(&[SANDBOX_EXEC, "--extra", "--", "/bin/sh", "-c", "x"]),
        ] {
            assert_eq!(wrapped_command(&other), None, "{other:?}");
        }
    }

    #[test]
    fn only_control_characters_interrupt() {
        assert!(is_interrupt("\u{3}"));
        assert!(is_interrupt("\u{3}\u{3}"));
        assert!(!is_interrupt(""));
        assert!(!is_interrupt("q\u{3}"));
    }

    #[test]
    fn the_wrapper_refuses_what_it_cannot_run() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(sandbox_exec_main(&s(&["--policy", "bogus", "--", "true"])).contains("--policy"));
        assert!(sandbox_exec_main(&s(&["--policy", "off"])).contains("nothing to run"));
        assert!(sandbox_exec_main(&s(&["--policy", "off", "--"])).contains("nothing to run"));
        assert!(sandbox_exec_main(&s(&["--weird"])).contains("unknown argument"));
        assert!(
            sandbox_exec_main(&s(&["--policy", "off", "--", "/nonexistent/program"]))
                .contains("cannot run")
        );
    }
}
