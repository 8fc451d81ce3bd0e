//! Where file tools may read and write.
//!
//! Every path is resolved component by component the way the kernel would (symlinks
//! followed, `..` applied to the *real* parent), and only the resulting real path is
//! compared with the roots. That closes the classic holes of lexical checks: `..` after
//! a symlink, symlinked parents, dangling symlinks a write would follow, and magic links
//! such as `/proc/self/root`. Inputs that only *look* like paths (unicode look-alikes of
//! `/` and `..`, NUL bytes, `~`) are refused up front so the model gets a clear message
//! instead of a file with a surprising name.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use crate::ToolError;

/// Extra readable roots, `:`-separated absolute paths.
pub const FS_ALLOWED_ROOTS_ENV: &str = "MEMO_FS_ALLOWED_ROOTS";
/// Extra writable (and so readable) roots, `:`-separated absolute paths.
pub const SANDBOX_WRITABLE_ROOTS_ENV: &str = "MEMO_SANDBOX_WRITABLE_ROOTS";

/// The kernel gives up after 40 links (ELOOP); so do we, which also stops link cycles.
const MAX_SYMLINK_HOPS: usize = 40;
/// Linux PATH_MAX; longer inputs cannot name a file anyway.
const MAX_PATH_BYTES: usize = 4096;
/// Linux NAME_MAX.
const MAX_NAME_BYTES: usize = 255;

/// Trees never touched by file tools whatever the roots say: `/proc` exposes other
/// processes' files and environment through magic links; `/dev` and `/sys` are devices
/// and kernel knobs, never source files.
const NEVER_READ: &[&str] = &["/proc"];
const NEVER_WRITE: &[&str] = &["/proc", "/dev", "/sys"];

/// Characters that render like `/` or `\` but are ordinary filename bytes on Linux.
const SLASH_LOOKALIKES: &[char] = &[
    '\u{2044}', // fraction slash
    '\u{2215}', // division slash
    '\u{29F8}', // big solidus
    '\u{FF0F}', // fullwidth solidus
    '\u{FE68}', // small reverse solidus
    '\u{FF3C}', // fullwidth reverse solidus
    '\u{29F5}', // reverse solidus operator
    '\u{2216}', // set minus
];

/// Characters that render like `.`; a name made only of these reads as `.` or `..`.
const DOT_LOOKALIKES: &[char] = &[
    '\u{2024}', // one dot leader
    '\u{2025}', // two dot leader
    '\u{2026}', // horizontal ellipsis
    '\u{FE52}', // small full stop
    '\u{FF0E}', // fullwidth full stop
    '\u{3002}', // ideographic full stop
    '\u{FF61}', // halfwidth ideographic full stop
    '\u{00B7}', // middle dot
    '\u{2027}', // hyphenation point
    '\u{0701}', // syriac supralinear full stop
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPolicy {
    /// Canonical directories under which files may be read.
    readable: Vec<PathBuf>,
    /// Canonical directories under which files may be written (a subset in practice).
    writable: Vec<PathBuf>,
}

impl PathPolicy {
    /// Read and write inside `workspace` only.
    pub fn workspace(workspace: &Path) -> Self {
        Self::new([workspace.to_path_buf()], [workspace.to_path_buf()])
    }

    /// Explicit roots (they are canonicalized; missing ones are kept as given). Relative
    /// roots are dropped: they would silently depend on the process's directory.
    pub fn new(
        readable: impl IntoIterator<Item = PathBuf>,
        writable: impl IntoIterator<Item = PathBuf>,
    ) -> Self {
        let mut out = Self {
            readable: Vec::new(),
            writable: Vec::new(),
        };
        for w in writable.into_iter().filter(|p| p.is_absolute()) {
            let w = canonical_or_self(&w);
            push_unique(&mut out.writable, w.clone());
            // Whatever may be written may be read back.
            push_unique(&mut out.readable, w);
        }
        for r in readable.into_iter().filter(|p| p.is_absolute()) {
            push_unique(&mut out.readable, canonical_or_self(&r));
        }
        out
    }

    /// The workspace plus the roots named by `MEMO_FS_ALLOWED_ROOTS` (readable) and
    /// `MEMO_SANDBOX_WRITABLE_ROOTS` (writable), looked up with `env` so hosts and tests
    /// choose where variables come from.
    pub fn from_env(workspace: &Path, env: impl Fn(&str) -> Option<String>) -> Self {
        let list = |name: &str| -> Vec<PathBuf> {
            let Some(value) = env(name) else {
                return Vec::new();
            };
            value
                .split(':')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .filter_map(|s| {
                    let p = PathBuf::from(s);
                    if p.is_absolute() {
                        Some(p)
                    } else {
                        tracing::warn!(root = s, var = name, "ignoring a relative root");
                        None
                    }
                })
                .collect()
        };
        let mut readable = vec![workspace.to_path_buf()];
        readable.extend(list(FS_ALLOWED_ROOTS_ENV));
        let mut writable = vec![workspace.to_path_buf()];
        writable.extend(list(SANDBOX_WRITABLE_ROOTS_ENV));
        Self::new(readable, writable)
    }

    pub fn readable_roots(&self) -> &[PathBuf] {
        &self.readable
    }

    pub fn writable_roots(&self) -> &[PathBuf] {
        &self.writable
    }

    /// The real path of `path` (absolute) if it lies under a readable root.
    pub fn check_read(&self, path: &Path) -> Result<PathBuf, ToolError> {
        let real = resolve(path)?;
        if let Some(bad) = NEVER_READ.iter().find(|p| real.starts_with(p)) {
            return Err(ToolError::policy_denied(format!(
                "{} resolves into {bad}, which file tools never read",
                path.display()
            )));
        }
        if self.readable.iter().any(|root| real.starts_with(root)) {
            Ok(real)
        } else {
            Err(ToolError::policy_denied(format!(
                "{} is outside the folders this session may read ({})",
                shown(path, &real),
                list(&self.readable)
            )))
        }
    }

    /// The real path of `path` (absolute) if it lies under a writable root and not inside
    /// a `.git` directory (git's internals are changed with git, never by file tools).
    pub fn check_write(&self, path: &Path) -> Result<PathBuf, ToolError> {
        let real = resolve(path)?;
        if let Some(bad) = NEVER_WRITE.iter().find(|p| real.starts_with(p)) {
            return Err(ToolError::policy_denied(format!(
                "{} resolves into {bad}, which file tools never write",
                path.display()
            )));
        }
        if !self.writable.iter().any(|root| real.starts_with(root)) {
            return Err(ToolError::policy_denied(format!(
                "{} is outside the folders this session may write ({})",
                shown(path, &real),
                list(&self.writable)
            )));
        }
        if self.writable.iter().any(|root| &real == root) {
            return Err(ToolError::policy_denied(format!(
                "{} is a workspace root itself, not a file in it",
                path.display()
            )));
        }
        if real.components().any(|c| c.as_os_str() == ".git") {
            return Err(ToolError::policy_denied(format!(
                "{} is inside a .git directory; change the repository with git commands instead",
                path.display()
            )));
        }
        Ok(real)
    }
}

/// Turns a path as the model wrote it into an absolute path, refusing inputs that cannot
/// mean what they seem to: empty, NUL bytes, over-long, `~` (no shell expands it here),
/// and unicode look-alikes of `/` or `..`.
pub fn join_input(cwd: &Path, raw: &str) -> Result<PathBuf, ToolError> {
    if raw.trim().is_empty() {
        return Err(ToolError::invalid_input("the path is empty"));
    }
    if raw.contains('\0') {
        return Err(ToolError::invalid_input(
            "the path contains a NUL byte, which no file name can contain",
        ));
    }
    if raw.len() > MAX_PATH_BYTES {
        return Err(ToolError::invalid_input(format!(
            "the path is {} bytes long; paths are limited to {MAX_PATH_BYTES}",
            raw.len()
        )));
    }
    if raw.starts_with('~') {
        return Err(ToolError::invalid_input(format!(
            "'{raw}': `~` is not expanded here; use an absolute path or one relative to the working directory ({})",
            cwd.display()
        )));
    }
    for part in raw.split('/') {
        if part.len() > MAX_NAME_BYTES {
            return Err(ToolError::invalid_input(format!(
                "a path component is {} bytes long; names are limited to {MAX_NAME_BYTES}",
                part.len()
            )));
        }
        if part.contains(SLASH_LOOKALIKES) {
            return Err(ToolError::invalid_input(format!(
                "'{raw}' contains a character that looks like a slash but is not one; use '/'"
            )));
        }
        let dotlike = |c: char| c == '.' || DOT_LOOKALIKES.contains(&c);
        if !part.is_empty() && part.chars().all(dotlike) && !part.is_ascii() {
            return Err(ToolError::invalid_input(format!(
                "'{raw}' contains a name made of dot look-alikes ('{part}'); use ASCII '.' and '..'"
            )));
        }
    }
    let p = Path::new(raw);
    Ok(if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    })
}

fn push_unique(roots: &mut Vec<PathBuf>, root: PathBuf) {
    if !roots.contains(&root) {
        roots.push(root);
    }
}

fn list(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|r| r.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The path as given, plus where it really leads when that differs (a symlink).
fn shown(path: &Path, real: &Path) -> String {
    if path == real {
        path.display().to_string()
    } else {
        format!("{} (really {})", path.display(), real.display())
    }
}

fn canonical_or_self(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

enum Step {
    Parent,
    Name(OsString),
}

/// Resolves an absolute path to the real path the kernel would open, also for paths
/// whose tail does not exist yet (a file about to be created). Unlike
/// `std::fs::canonicalize` it follows a *dangling* symlink to where a write would land,
/// so a link to a missing file outside the roots cannot smuggle a write out.
pub fn resolve(path: &Path) -> Result<PathBuf, ToolError> {
    if !path.is_absolute() {
        return Err(ToolError::invalid_input(format!(
            "{} is not an absolute path",
            path.display()
        )));
    }
    let mut pending: VecDeque<Step> = steps(path).collect();
    let mut real = PathBuf::from("/");
    let mut hops = 0usize;
    // Once a component is missing, nothing below it exists: no more links to follow.
    let mut missing = false;
    while let Some(step) = pending.pop_front() {
        let name = match step {
            Step::Parent if missing => {
                return Err(ToolError::policy_denied(format!(
                    "{} uses '..' after a directory that does not exist",
                    path.display()
                )));
            }
            Step::Parent => {
                // `real` has no symlinks, so its lexical parent is its real parent.
                real.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        let candidate = real.join(&name);
        if missing {
            real = candidate;
            continue;
        }
        // `/proc/<pid>/{root,cwd,fd/N}` are magic links into other processes' views of
        // the filesystem; even a hop through them that lands back inside a root is
        // refused rather than reasoned about.
        if candidate.starts_with("/proc") {
            return Err(ToolError::policy_denied(format!(
                "{} goes through /proc, which file tools never use",
                path.display()
            )));
        }
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(ToolError::policy_denied(format!(
                        "{} goes through more than {MAX_SYMLINK_HOPS} symbolic links",
                        path.display()
                    )));
                }
                let target = std::fs::read_link(&candidate).map_err(|e| {
                    ToolError::failed(format!("cannot read link {}: {e}", candidate.display()))
                })?;
                if target.is_absolute() {
                    real = PathBuf::from("/");
                }
                // The link's own components come before the rest of the original path.
                for step in steps(&target).collect::<Vec<_>>().into_iter().rev() {
                    pending.push_front(step);
                }
            }
            Ok(meta) => {
                if !meta.is_dir() && !pending.is_empty() {
                    return Err(ToolError::invalid_input(format!(
                        "{} is not a directory (in {})",
                        candidate.display(),
                        path.display()
                    )));
                }
                real = candidate;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing = true;
                real = candidate;
            }
            Err(e) => {
                return Err(ToolError::failed(format!(
                    "cannot access {}: {e}",
                    candidate.display()
                )));
            }
        }
    }
    Ok(real)
}

fn steps(path: &Path) -> impl Iterator<Item = Step> + '_ {
    path.components().filter_map(|c| match c {
        Component::Normal(name) => Some(Step::Name(name.to_owned())),
        Component::ParentDir => Some(Step::Parent),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_ok_outside_and_symlink_escapes_refused() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "x").unwrap();
        std::fs::write(root.path().join("a.txt"), "a").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("link")).unwrap();
        let policy = PathPolicy::workspace(root.path());
        assert!(policy.check_read(&root.path().join("a.txt")).is_ok());
        assert!(policy
            .check_write(&root.path().join("new/dir/file.txt"))
            .is_ok());
        for bad in [
            root.path().join("../x"),
            root.path().join("link/secret"),
            outside.path().join("secret"),
            PathBuf::from("/etc/passwd"),
            root.path().join("missing/../../x"),
        ] {
            assert!(policy.check_read(&bad).is_err(), "{}", bad.display());
        }
        assert!(policy
            .check_write(&root.path().join(".git/config"))
            .is_err());
    }

    #[test]
    fn resolve_follows_links_like_the_kernel() {
        let root = tempfile::tempdir().unwrap();
        let real_root = std::fs::canonicalize(root.path()).unwrap();
        std::fs::create_dir_all(real_root.join("a/b")).unwrap();
        std::os::unix::fs::symlink("a/b", real_root.join("lb")).unwrap();
        // `lb/..` is `a`, not the root: `..` applies to the link's target.
        assert_eq!(
            resolve(&real_root.join("lb/../x")).unwrap(),
            real_root.join("a/x")
        );
        std::os::unix::fs::symlink("nowhere/file", real_root.join("dangling")).unwrap();
        assert_eq!(
            resolve(&real_root.join("dangling")).unwrap(),
            real_root.join("nowhere/file")
        );
        std::os::unix::fs::symlink("loop2", real_root.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", real_root.join("loop2")).unwrap();
        assert!(resolve(&real_root.join("loop1/x")).is_err());
    }

    #[test]
    fn from_env_adds_roots_and_drops_relative_ones() {
        let ws = tempfile::tempdir().unwrap();
        let extra = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        let extra_s = extra.path().display().to_string();
        let cache_s = cache.path().display().to_string();
        let policy = PathPolicy::from_env(ws.path(), |name| match name {
            FS_ALLOWED_ROOTS_ENV => Some(format!("{extra_s}::relative/dir")),
            SANDBOX_WRITABLE_ROOTS_ENV => Some(cache_s.clone()),
            _ => None,
        });
        std::fs::write(extra.path().join("f"), "").unwrap();
        assert!(policy.check_read(&extra.path().join("f")).is_ok());
        assert!(policy.check_write(&extra.path().join("f")).is_err());
        assert!(policy.check_write(&cache.path().join("g")).is_ok());
        assert!(policy.check_read(&cache.path().join("g")).is_ok());
        assert_eq!(policy.readable_roots().len(), 3);
        assert_eq!(policy.writable_roots().len(), 2);
    }

    #[test]
    fn join_input_refuses_misleading_inputs() {
        let cwd = Path::new("/w");
        assert_eq!(join_input(cwd, "a/b").unwrap(), PathBuf::from("/w/a/b"));
        assert_eq!(join_input(cwd, "/x").unwrap(), PathBuf::from("/x"));
        assert_eq!(
            join_input(cwd, "notes\u{2026}.txt").unwrap(),
            PathBuf::from("/w/notes\u{2026}.txt")
        );
        for bad in [
            "",
            "  ",
            "a\0b",
            "~",
            "~/x",
            "~root/x",
            "\u{FF0E}\u{FF0E}/etc",
            "\u{2025}/x",
            "..\u{FF0F}..\u{FF0F}etc",
            "a\u{2215}b",
        ] {
            assert!(join_input(cwd, bad).is_err(), "{bad:?}");
        }
        assert!(join_input(cwd, &"a/".repeat(3000)).is_err());
        assert!(join_input(cwd, &"n".repeat(300)).is_err());
    }
}
