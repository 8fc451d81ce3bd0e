//! A desktop app started from a launcher inherits a bare PATH (no nvm, no ~/.local/bin),
//! so `npx`, `uvx` and `node` would not be found. Stdio servers get the PATH the user's
//! login shell sets up instead, asked for once per process, plus whatever the app had.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const MARK: &str = "__MEMO_PATH__";
const SHELL_TIMEOUT: Duration = Duration::from_secs(3);

/// The PATH for stdio servers: the login shell's, then this process's entries it lacks.
/// Blocks the first time (at most a few seconds); call it off the async threads.
pub fn server_path() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let current = std::env::var("PATH").ok();
        let shell = std::env::var("SHELL")
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "/bin/sh".into());
        let login = login_shell_path(Path::new(&shell), SHELL_TIMEOUT);
        if login.is_none() {
            tracing::warn!(%shell, "could not read the login shell's PATH; using the app's");
        }
        merge_paths(login.as_deref(), current.as_deref())
    })
}

/// Runs `shell -ilc` (interactive too: nvm and friends live in ~/.bashrc), falling back
/// to `-lc`, and reads PATH between markers so greetings and prompts do not matter.
pub fn login_shell_path(shell: &Path, timeout: Duration) -> Option<String> {
    ["-ilc", "-lc"]
        .iter()
        .find_map(|flags| run_shell(shell, flags, timeout))
}

fn run_shell(shell: &Path, flags: &str, timeout: Duration) -> Option<String> {
    let script = format!("printf '{MARK}%s{MARK}' \"$PATH\"");
    let mut child = Command::new(shell)
        .arg(flags)
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                // A shell waiting on a prompt or a slow rc file: give up on it.
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    let start = out.find(MARK)? + MARK.len();
    let end = start + out[start..].find(MARK)?;
    Some(out[start..end].to_owned()).filter(|p| !p.is_empty())
}

/// `first`'s entries, then `second`'s not already present; empty entries dropped.
pub fn merge_paths(first: Option<&str>, second: Option<&str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for entry in first
        .into_iter()
        .chain(second)
        .flat_map(|p| p.split(':'))
        .filter(|e| !e.is_empty())
    {
        if !seen.contains(&entry) {
            seen.push(entry);
        }
    }
    seen.join(":")
}

/// Where `command` would run from with this PATH: a name with a slash resolves against
/// `cwd`, a bare name is searched in `path`.
pub fn resolve_command(command: &str, path: &str, cwd: &Path) -> Option<PathBuf> {
    if command.contains('/') {
        let p = cwd.join(command);
        return is_executable(&p).then_some(p);
    }
    path.split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(command))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn reads_path_from_a_chatty_login_shell() {
        let dir = tempfile::tempdir().unwrap();
        // A "shell" that greets, then runs the script with a PATH of its own.
        let shell = script(
            dir.path(),
            "fakesh",
            "echo 'Welcome!'\nPATH=/opt/node/bin:/usr/bin\nexport PATH\nshift\nexec /bin/sh -c \"$1\"",
        );
        let path = login_shell_path(&shell, Duration::from_secs(5)).unwrap();
        assert_eq!(path, "/opt/node/bin:/usr/bin");
    }

    #[test]
    fn a_hanging_shell_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let shell = script(dir.path(), "slowsh", "sleep 30");
        let started = Instant::now();
        assert_eq!(login_shell_path(&shell, Duration::from_millis(200)), None);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn merged_path_keeps_order_without_duplicates() {
        assert_eq!(merge_paths(Some("/a:/b::/c"), Some("/b:/d")), "/a:/b:/c:/d");
        assert_eq!(merge_paths(None, Some("/x")), "/x");
    }

    #[test]
    fn commands_resolve_through_the_given_path() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let npx = script(&bin, "npx", "true");
        std::fs::write(bin.join("notexec"), "").unwrap();
        let path = format!("/nonexistent:{}", bin.display());
        assert_eq!(resolve_command("npx", &path, dir.path()), Some(npx.clone()));
        assert_eq!(resolve_command("notexec", &path, dir.path()), None);
        assert_eq!(resolve_command("npx", "/nonexistent", dir.path()), None);
        assert_eq!(resolve_command("bin/npx", "", dir.path()), Some(npx));
    }
}
