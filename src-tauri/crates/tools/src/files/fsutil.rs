//! File helpers shared by the writing tools: reading a file as editable text (line
//! endings normalized, mode remembered), writing it back atomically, and showing paths.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::ToolError;

/// Files above this are not edited in memory; no source file is this large, and a
/// generated one is better changed by regenerating it.
pub(crate) const MAX_EDIT_BYTES: u64 = 64 * 1024 * 1024;

/// Mode of files the tools create. A temp file starts as 0600, which would surprise
/// anyone expecting an ordinary file; 0644 matches the usual umask.
const NEW_FILE_MODE: u32 = 0o644;

/// A text file as the edit tools see it.
#[derive(Debug, Clone)]
pub(crate) struct TextFile {
    /// Contents with `\r\n` turned into `\n` when the file used CRLF throughout, so the
    /// model's `\n`-separated strings match; restored on write.
    pub text: String,
    pub crlf: bool,
    /// Permission bits, kept on rewrite (an executable script stays executable).
    pub mode: u32,
}

/// `text` (LF) as bytes with the file's line endings; no copy for LF files.
pub(crate) fn encode(text: &str, crlf: bool) -> std::borrow::Cow<'_, [u8]> {
    if crlf {
        std::borrow::Cow::Owned(text.replace('\n', "\r\n").into_bytes())
    } else {
        std::borrow::Cow::Borrowed(text.as_bytes())
    }
}

/// Reads `path` for editing. `Ok(None)` when it does not exist. With a file host (an
/// editor over ACP) the text is the host's, unsaved changes included; what the disk
/// does not have is new either way.
pub(crate) fn read_text(path: &Path) -> Result<Option<TextFile>, ToolError> {
    let Some(meta) = editable(path)? else {
        return Ok(None);
    };
    let raw = match crate::files::host::current() {
        Some(host) => host.read_text(path).map_err(|e| {
            ToolError::failed(format!("the editor could not read {}: {e}", path.display()))
        })?,
        None => read_utf8(path)?,
    };
    let crlf = uses_crlf(&raw);
    let text = if crlf { raw.replace("\r\n", "\n") } else { raw };
    Ok(Some(TextFile {
        text,
        crlf,
        mode: meta.permissions().mode() & 0o7777,
    }))
}

/// `path`'s metadata when it is a regular file small enough to edit; `None` when absent.
fn editable(path: &Path) -> Result<Option<std::fs::Metadata>, ToolError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ToolError::failed(format!(
                "cannot access {}: {e}",
                path.display()
            )))
        }
    };
    if meta.is_dir() {
        return Err(ToolError::invalid_input(format!(
            "{} is a directory, not a file",
            path.display()
        )));
    }
    if !meta.is_file() {
        return Err(ToolError::invalid_input(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    if meta.len() > MAX_EDIT_BYTES {
        return Err(ToolError::invalid_input(format!(
            "{} is {} MiB; files above {} MiB are not edited",
            path.display(),
            meta.len() / (1024 * 1024),
            MAX_EDIT_BYTES / (1024 * 1024)
        )));
    }
    Ok(Some(meta))
}

/// The file's bytes as UTF-8 text, refusing binary files.
fn read_utf8(path: &Path) -> Result<String, ToolError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ToolError::failed(format!("cannot read {}: {e}", path.display())))?;
    if bytes.contains(&0) {
        return Err(ToolError::invalid_input(format!(
            "{} looks like a binary file; only text files can be edited",
            path.display()
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        ToolError::invalid_input(format!(
            "{} is not valid UTF-8; only UTF-8 text files can be edited",
            path.display()
        ))
    })
}

/// True when every line break is `\r\n`. Mixed files are left byte for byte as they are:
/// normalizing them would rewrite lines the edit never touched.
pub(crate) fn uses_crlf(text: &str) -> bool {
    let lf = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    lf > 0 && memchr::memmem::find_iter(text.as_bytes(), b"\r\n").count() == lf
}

/// A file written to a temp file beside its target, waiting to be renamed over it; or,
/// with a file host, its text waiting to be handed to the host.
pub(crate) enum Staged {
    Disk {
        tmp: tempfile::NamedTempFile,
        path: PathBuf,
    },
    Hosted {
        host: std::sync::Arc<dyn crate::files::host::FileHost>,
        path: PathBuf,
        text: String,
    },
}

/// Prepares replacing `path` with `bytes`: a temp file in the same directory (so the
/// rename stays on one filesystem), flushed and given `mode`. Missing parent directories
/// are created. Nothing is visible at `path` until [`Staged::commit`].
pub(crate) fn stage(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<Staged, ToolError> {
    if let Some(host) = crate::files::host::current() {
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
            ToolError::invalid_input(format!("{} would not be UTF-8 text", path.display()))
        })?;
        return Ok(Staged::Hosted {
            host,
            path: path.to_path_buf(),
            text,
        });
    }
    let dir = path.parent().ok_or_else(|| {
        ToolError::invalid_input(format!("{} has no parent directory", path.display()))
    })?;
    let fail = |what: &str, e: std::io::Error| {
        ToolError::failed(format!("cannot {what} {}: {e}", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| fail("create the directory of", e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".memo-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| fail("create a temp file for", e))?;
    tmp.write_all(bytes).map_err(|e| fail("write", e))?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(
            mode.unwrap_or(NEW_FILE_MODE),
        ))
        .map_err(|e| fail("set permissions of", e))?;
    tmp.as_file().sync_data().map_err(|e| fail("flush", e))?;
    Ok(Staged::Disk {
        tmp,
        path: path.to_path_buf(),
    })
}

impl Staged {
    /// Renames the temp file over the target: readers see the old or the new file, never
    /// half of one; a crash leaves at most a stray temp file.
    pub fn commit(self) -> Result<(), ToolError> {
        let (tmp, path) = match self {
            Staged::Disk { tmp, path } => (tmp, path),
            Staged::Hosted { host, path, text } => {
                return host.write_text(&path, &text).map_err(|e| {
                    ToolError::failed(format!(
                        "the editor could not write {}: {e}",
                        path.display()
                    ))
                })
            }
        };
        let dir = path.parent().unwrap_or(Path::new("/"));
        // The policy approved `dir` as a real path; if a component was swapped for a
        // symlink since (another process racing us), the rename would land elsewhere.
        match std::fs::canonicalize(dir) {
            Ok(real) if real == dir => {}
            _ => {
                return Err(ToolError::policy_denied(format!(
                    "the directory of {} changed while writing (a symlink appeared); it was not written",
                    path.display()
                )))
            }
        }
        tmp.persist(&path).map_err(|e| {
            ToolError::failed(format!("cannot replace {}: {}", path.display(), e.error))
        })?;
        Ok(())
    }
}

/// [`stage`] then [`Staged::commit`].
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<(), ToolError> {
    stage(path, bytes, mode)?.commit()
}

/// Removes a file the policy approved.
pub(crate) fn remove_file(path: &Path) -> Result<(), ToolError> {
    std::fs::remove_file(path)
        .map_err(|e| ToolError::failed(format!("cannot delete {}: {e}", path.display())))
}

/// How a path is shown to the model: relative to the working directory when inside it
/// (shorter, and what the model usually typed), absolute otherwise.
pub(crate) fn display_path(cwd_real: &Path, path: &Path) -> String {
    match path.strip_prefix(cwd_real) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        Ok(_) => ".".to_owned(),
        Err(_) => path.display().to_string(),
    }
}

/// The working directory as a real path, to compare with the real paths the policy
/// returns.
pub(crate) fn real_cwd(cwd: &Path) -> PathBuf {
    std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf())
}

/// [`blocking`], with the session's file host (`ToolContext::files`, if it has one) as
/// the host of the file helpers for the work.
pub(crate) async fn blocking_in<T, F>(
    host: Option<std::sync::Arc<dyn crate::files::host::FileHost>>,
    tool: &str,
    f: F,
) -> Result<T, ToolError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    blocking(tool, move || crate::files::host::with_host(host, f)).await
}

/// Runs blocking file work off the async workers.
pub(crate) async fn blocking<T, F>(tool: &str, f: F) -> Result<T, ToolError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ToolError::failed(format!("{tool} task failed: {e}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_is_detected_only_when_consistent() {
        assert!(uses_crlf("a\r\nb\r\n"));
        assert!(!uses_crlf("a\nb\r\n"));
        assert!(!uses_crlf("no newline"));
    }

    #[test]
    fn atomic_write_keeps_mode_and_creates_parents() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        let f = real.join("s.sh");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
        let file = read_text(&f).unwrap().unwrap();
        write_atomic(&f, b"new", Some(file.mode)).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o755);
        write_atomic(&real.join("x/y/new.txt"), b"n", None).unwrap();
        let mode = std::fs::metadata(real.join("x/y/new.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
        // No temp files are left behind.
        let names: Vec<_> = std::fs::read_dir(&real).unwrap().collect();
        assert_eq!(names.len(), 2);
    }
}
