//! The Linux sandbox for shell commands: Landlock limits where a command (and everything
//! it starts) may write. Reading and executing stay unrestricted; the approvals decide
//! whether a command runs at all, the sandbox bounds what a running command can damage.
//!
//! Landlock restricts the calling *thread* and the processes it forks afterwards, and can
//! never be lifted. So each command is spawned from a fresh, short-lived thread that
//! restricts itself first; the rest of the process (the app, the engine, tokio's workers)
//! is never restricted.

use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, ABI,
};
use memo_protocol::ToolErrorKind;

use crate::ToolError;

/// Environment variable choosing the policy: `workspace-write` (default), `read-only`, `off`.
pub const SANDBOX_ENV: &str = "MEMO_SANDBOX";

/// Where sandboxed commands may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SandboxPolicy {
    /// The session's writable roots (workspace, `MEMO_SANDBOX_WRITABLE_ROOTS`), temp
    /// directories and the terminal/null devices.
    #[default]
    WorkspaceWrite,
    /// Only the terminal/null devices and shared memory.
    ReadOnly,
    /// No sandbox: approvals are the only guard.
    Off,
}

impl SandboxPolicy {
    /// Accepts the documented names plus the spellings Codex users type.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "" | "workspace-write" | "workspace" | "default" => Some(Self::WorkspaceWrite),
            "read-only" | "readonly" => Some(Self::ReadOnly),
            "off" | "none" | "disabled" | "danger-full-access" | "0" => Some(Self::Off),
            _ => None,
        }
    }

    /// The policy named by `MEMO_SANDBOX`; an unknown value keeps the safe default.
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Self {
        match env(SANDBOX_ENV) {
            None => Self::default(),
            Some(value) => Self::parse(&value).unwrap_or_else(|| {
                tracing::warn!(value, "unknown {SANDBOX_ENV}; using workspace-write");
                Self::default()
            }),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::WorkspaceWrite => "workspace-write",
            Self::ReadOnly => "read-only",
            Self::Off => "off",
        }
    }
}

/// What happened when a command's thread tried to restrict itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxStatus {
    Enforced,
    /// The kernel supports only part of the requested rights (older Landlock ABI).
    Partial,
    /// The kernel has no Landlock (not built in or not enabled at boot).
    Unavailable,
    Off,
}

impl SandboxStatus {
    pub fn active(self) -> bool {
        matches!(self, Self::Enforced | Self::Partial)
    }
}

/// Devices every command needs to write to (output to the terminal, `> /dev/null`), plus
/// POSIX shared memory, which Python's multiprocessing and others use for locks.
const DEVICES: [&str; 9] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/random",
    "/dev/urandom",
    "/dev/shm",
];

/// The directories a policy lets commands write under.
pub fn writable_paths(policy: SandboxPolicy, writable_roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = DEVICES.iter().map(PathBuf::from).collect();
    if policy == SandboxPolicy::WorkspaceWrite {
        paths.extend(writable_roots.iter().cloned());
        for temp in ["/tmp", "/var/tmp"] {
            paths.push(PathBuf::from(temp));
        }
        paths.push(std::env::temp_dir());
    }
    paths.sort();
    paths.dedup();
    paths
}

/// The write rights the sandbox handles: creating, writing, removing, renaming and
/// truncating files. ABI 3 covers them all; newer ABIs add device ioctls and Unix sockets,
/// which are left alone so terminals and local servers keep working.
fn write_access() -> landlock::BitFlags<AccessFs> {
    AccessFs::from_write(ABI::V3)
}

/// Restricts the calling thread (and the processes it starts from now on) to writing
/// under `paths`. Irreversible: call it only on a thread that exists to spawn a command.
pub fn restrict_current_thread(paths: &[PathBuf]) -> Result<SandboxStatus, ToolError> {
    let access = write_access();
    let status = Ruleset::default()
        .handle_access(access)
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(paths, access)))
        .and_then(|r| r.restrict_self())
        .map_err(|e| {
            ToolError::new(
                ToolErrorKind::SandboxDenied,
                format!(
                    "could not set up the Landlock sandbox ({e}); set {SANDBOX_ENV}=off to run commands without it"
                ),
            )
        })?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => SandboxStatus::Enforced,
        RulesetStatus::PartiallyEnforced => SandboxStatus::Partial,
        RulesetStatus::NotEnforced => SandboxStatus::Unavailable,
    })
}

/// Runs `spawn` on a fresh thread that first applies `policy`, and returns what it
/// returned together with the sandbox status. The thread ends right after, taking its
/// restriction with it; only the processes it spawned keep the sandbox.
pub async fn run_sandboxed<T, F>(
    policy: SandboxPolicy,
    writable_roots: &[PathBuf],
    spawn: F,
) -> Result<(T, SandboxStatus), ToolError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let paths = writable_paths(policy, writable_roots);
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("memo-exec-spawn".into())
        .spawn(move || {
            let status = match policy {
                SandboxPolicy::Off => Ok(SandboxStatus::Off),
                _ => restrict_current_thread(&paths),
            };
            let _ = tx.send(status.map(|s| (spawn(), s)));
        })
        .map_err(|e| {
            ToolError::failed(format!("cannot start a thread to spawn the command: {e}"))
        })?;
    rx.await
        .map_err(|_| ToolError::failed("the thread spawning the command died"))?
}

/// A hint for the model when a sandboxed command failed in a way that looks like the
/// sandbox refused a write.
pub fn denial_suspected(output: &str) -> bool {
    [
        "Permission denied",
        "Read-only file system",
        "Operation not permitted",
    ]
    .iter()
    .any(|needle| output.contains(needle))
}

pub fn describe(policy: SandboxPolicy, writable_roots: &[PathBuf]) -> String {
    match policy {
        SandboxPolicy::WorkspaceWrite => format!(
            "writes are allowed only under {} and the temp directories",
            list(writable_roots)
        ),
        SandboxPolicy::ReadOnly => "the sandbox is read-only".into(),
        SandboxPolicy::Off => "no sandbox".into(),
    }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether this kernel enforces Landlock at all (used by tests to report a skip).
pub fn landlock_available() -> bool {
    let probe = std::thread::spawn(|| {
        // An empty allow-list on an unused path: restricting a throwaway thread is the
        // only reliable probe the crate offers.
        restrict_current_thread(&[Path::new("/").to_path_buf()])
    });
    matches!(
        probe.join(),
        Ok(Ok(SandboxStatus::Enforced | SandboxStatus::Partial))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names() {
        assert_eq!(
            SandboxPolicy::parse("read_only"),
            Some(SandboxPolicy::ReadOnly)
        );
        assert_eq!(SandboxPolicy::parse("OFF"), Some(SandboxPolicy::Off));
        assert_eq!(
            SandboxPolicy::parse(""),
            Some(SandboxPolicy::WorkspaceWrite)
        );
        assert_eq!(SandboxPolicy::parse("bogus"), None);
        let env = |v: &'static str| move |_: &str| Some(v.to_owned());
        assert_eq!(
            SandboxPolicy::from_env(env("bogus")),
            SandboxPolicy::WorkspaceWrite
        );
        assert_eq!(
            SandboxPolicy::from_env(|_| None),
            SandboxPolicy::WorkspaceWrite
        );
        assert_eq!(
            SandboxPolicy::from_env(env("read-only")),
            SandboxPolicy::ReadOnly
        );
    }

    #[test]
    fn read_only_allows_only_devices() {
        let roots = [PathBuf::from("/work/proj")];
        let ro = writable_paths(SandboxPolicy::ReadOnly, &roots);
        assert!(ro.iter().all(|p| p.starts_with("/dev")));
        let ww = writable_paths(SandboxPolicy::WorkspaceWrite, &roots);
        assert!(ww.contains(&PathBuf::from("/work/proj")));
        assert!(ww.contains(&PathBuf::from("/tmp")));
    }
}
