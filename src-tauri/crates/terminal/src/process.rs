//! Ending every process of a terminal's session.
//!
//! portable-pty starts the shell with `setsid`, so the shell's pid is its session id and
//! everything started from that terminal — the foreground job, background jobs
//! (`sleep 1000 &`), their children — shares it unless it deliberately left with its own
//! `setsid`. Killing only the shell, or only its process group, would leave background jobs
//! behind (each job has its own process group under job control). So on Linux the session
//! is found by reading the session field of every `/proc/<pid>/stat`; they get SIGHUP (what
//! a closed terminal means, letting editors save and shells clean up), then SIGKILL for
//! whatever is still there after a short grace.

use std::time::{Duration, Instant};

/// How often a kill waits before looking at the session again.
const POLL: Duration = Duration::from_millis(20);
/// After SIGKILL: how long to wait for the kernel to take the processes down.
const KILL_WAIT: Duration = Duration::from_secs(2);

/// The live (non-zombie) processes whose session is `sid`.
///
/// Zombies are left out: they are already dead, only not yet reaped by their parent, and
/// no signal changes that.
#[cfg(target_os = "linux")]
pub(crate) fn session_members(sid: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            // A process that exits while we scan just has no stat any more.
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let (state, session) = parse_stat(&stat)?;
            (session == sid && state != 'Z' && state != 'X').then_some(pid)
        })
        .collect()
}

/// Without /proc, the shell's own process group stands in for its session: it holds the
/// shell and its foreground job, though not background jobs with their own group.
#[cfg(all(unix, not(target_os = "linux")))]
pub(crate) fn session_members(sid: i32) -> Vec<i32> {
    use nix::sys::signal::killpg;
    use nix::unistd::Pid;
    // Signal 0 only checks that the group still exists.
    match killpg(Pid::from_raw(sid), None) {
        Ok(()) => vec![-sid],
        Err(_) => Vec::new(),
    }
}

#[cfg(not(unix))]
pub(crate) fn session_members(_sid: i32) -> Vec<i32> {
    Vec::new()
}

/// `(state, session)` from the text of `/proc/<pid>/stat`. The command name (field 2) is
/// in parentheses and may itself contain spaces and parentheses, so fields are counted
/// from the last `)`.
pub(crate) fn parse_stat(stat: &str) -> Option<(char, i32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    // After the state: ppid, pgrp, session.
    let session = fields.nth(2)?.parse().ok()?;
    Some((state, session))
}

#[cfg(unix)]
fn signal_all(pids: &[i32], signal: nix::sys::signal::Signal) {
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    for &pid in pids {
        // A process that exited in between is what we wanted anyway.
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// Sends SIGHUP to every process of the sessions, and SIGCONT so that stopped jobs
/// (Ctrl+Z) can act on it — what the kernel does when a terminal hangs up. Returns at once.
#[cfg(unix)]
pub(crate) fn hang_up(sids: &[i32]) {
    use nix::sys::signal::Signal;
    for &sid in sids {
        let members = session_members(sid);
        signal_all(&members, Signal::SIGHUP);
        signal_all(&members, Signal::SIGCONT);
    }
}

#[cfg(not(unix))]
pub(crate) fn hang_up(_sids: &[i32]) {}

/// Hangs the sessions up, waits up to `grace` for them to end, then SIGKILLs whatever is
/// left (also what was started during the grace) and waits for it to go. Blocks; returns
/// whether every session is empty.
pub(crate) fn end_sessions(sids: &[i32], grace: Duration) -> bool {
    if sids.is_empty() {
        return true;
    }
    hang_up(sids);
    let remaining = || -> Vec<i32> { sids.iter().flat_map(|&s| session_members(s)).collect() };
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if remaining().is_empty() {
            return true;
        }
        std::thread::sleep(POLL);
    }
    let deadline = Instant::now() + KILL_WAIT;
    loop {
        let left = remaining();
        if left.is_empty() {
            return true;
        }
        if Instant::now() >= deadline {
            tracing::warn!(?left, "terminal processes survived SIGKILL");
            return false;
        }
        // Again on every round: a process may have forked between the scan and the kill.
        #[cfg(unix)]
        signal_all(&left, nix::sys::signal::Signal::SIGKILL);
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        let stat = "4242 (my (odd) name) S 1 4242 4240 34816 4242 4194304 0 0";
        assert_eq!(parse_stat(stat), Some(('S', 4240)));
        assert_eq!(parse_stat("1 (init) Z 0 1 1"), Some(('Z', 1)));
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat("1 (x) R 0"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn finds_this_process_in_its_own_session() {
        let own = std::fs::read_to_string("/proc/self/stat").unwrap();
        let (_, sid) = parse_stat(&own).unwrap();
        let pid = i32::try_from(std::process::id()).unwrap();
        assert!(session_members(sid).contains(&pid));
    }

    #[test]
    fn nothing_to_end_is_done_at_once() {
        assert!(end_sessions(&[], Duration::from_secs(60)));
    }
}
