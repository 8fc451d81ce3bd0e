//! Where file tools may read and write. Every path is canonicalized (symlinks resolved)
//! before it is compared with the roots, so `..`, symlinks and absolute paths cannot
//! reach outside them. For a path that does not exist yet (a new file), the nearest
//! existing ancestor is canonicalized and the rest re-attached.

use std::path::{Component, Path, PathBuf};

use crate::ToolError;

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
        let root = canonical_or_self(workspace);
        Self {
            readable: vec![root.clone()],
            writable: vec![root],
        }
    }

    /// Explicit roots (they are canonicalized; missing ones are kept as given).
    pub fn new(
        readable: impl IntoIterator<Item = PathBuf>,
        writable: impl IntoIterator<Item = PathBuf>,
    ) -> Self {
        let writable: Vec<PathBuf> = writable
            .into_iter()
            .map(|p| canonical_or_self(&p))
            .collect();
        let mut readable: Vec<PathBuf> = readable
            .into_iter()
            .map(|p| canonical_or_self(&p))
            .collect();
        // Whatever may be written may be read back.
        for w in &writable {
            if !readable.contains(w) {
                readable.push(w.clone());
            }
        }
        Self { readable, writable }
    }

    pub fn readable_roots(&self) -> &[PathBuf] {
        &self.readable
    }

    pub fn writable_roots(&self) -> &[PathBuf] {
        &self.writable
    }

    /// The canonical form of `path` if it lies under a readable root.
    pub fn check_read(&self, path: &Path) -> Result<PathBuf, ToolError> {
        let real = resolve(path)?;
        if self.readable.iter().any(|root| real.starts_with(root)) {
            Ok(real)
        } else {
            Err(ToolError::policy_denied(format!(
                "{} is outside the folders this session may read ({})",
                path.display(),
                list(&self.readable)
            )))
        }
    }

    /// The canonical form of `path` if it lies under a writable root and not inside a
    /// `.git` directory (git's internals are never edited by file tools).
    pub fn check_write(&self, path: &Path) -> Result<PathBuf, ToolError> {
        let real = resolve(path)?;
        if !self.writable.iter().any(|root| real.starts_with(root)) {
            return Err(ToolError::policy_denied(format!(
                "{} is outside the folders this session may write ({})",
                path.display(),
                list(&self.writable)
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

fn list(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|r| r.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn canonical_or_self(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Canonicalizes `path`, which must be absolute; for a missing tail, canonicalizes the
/// nearest existing ancestor and appends the remaining plain components.
fn resolve(path: &Path) -> Result<PathBuf, ToolError> {
    if !path.is_absolute() {
        return Err(ToolError::invalid_input(format!(
            "{} is not an absolute path",
            path.display()
        )));
    }
    if let Ok(real) = std::fs::canonicalize(path) {
        return Ok(real);
    }
    let mut missing = Vec::new();
    let mut cursor = path;
    loop {
        let Some(parent) = cursor.parent() else {
            return Err(ToolError::invalid_input(format!(
                "cannot resolve {}",
                path.display()
            )));
        };
        match cursor.file_name() {
            Some(name) => missing.push(name.to_owned()),
            None => {
                return Err(ToolError::invalid_input(format!(
                    "cannot resolve {}",
                    path.display()
                )))
            }
        }
        if let Ok(real) = std::fs::canonicalize(parent) {
            let mut out = real;
            for name in missing.iter().rev() {
                out.push(name);
            }
            // A missing tail may still contain `..`; refuse instead of guessing.
            if out.components().any(|c| matches!(c, Component::ParentDir)) {
                return Err(ToolError::policy_denied(format!(
                    "{} contains '..' after a missing directory",
                    path.display()
                )));
            }
            return Ok(out);
        }
        cursor = parent;
    }
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
}
