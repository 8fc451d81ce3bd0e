//! Folders the app was asked to open from outside: `memo-desktop /path/to/folder` (or `.`),
//! a file manager's "Open with Memo", and a second launch that hands its folder to the
//! running window (single instance). They queue here until the UI takes them.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder named on a command line (`argv[0]` is the program): the first argument that
/// is not an option, resolved against `cwd`; a file stands for its folder. `None` when no
/// argument names an existing path.
pub fn folder_from_args(args: &[String], cwd: &Path) -> Option<PathBuf> {
    let arg = args.iter().skip(1).find(|a| !a.starts_with('-'))?;
    // A file manager may pass a file:// URI.
    let arg = arg.strip_prefix("file://").unwrap_or(arg);
    let path = cwd.join(arg);
    let path = std::fs::canonicalize(path).ok()?;
    if path.is_dir() {
        Some(path)
    } else {
        path.parent().map(Path::to_path_buf)
    }
}

#[derive(Default)]
pub struct OpenRequests {
    folders: Mutex<Vec<String>>,
}

impl OpenRequests {
    pub fn push(&self, folder: &Path) {
        self.lock().push(folder.display().to_string());
    }

    /// The folders asked for since the last call, oldest first.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.folders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_folder_dot_a_file_or_a_uri_names_the_folder_to_open() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("app")).unwrap();
        std::fs::write(real.join("app/main.rs"), "").unwrap();
        assert_eq!(
            folder_from_args(&args(&["memo", "."]), &real),
            Some(real.clone())
        );
        assert_eq!(
            folder_from_args(&args(&["memo", "--verbose", "app"]), &real),
            Some(real.join("app"))
        );
        assert_eq!(
            folder_from_args(&args(&["memo", "app/main.rs"]), &real),
            Some(real.join("app"))
        );
        let uri = format!("file://{}", real.join("app").display());
        assert_eq!(
            folder_from_args(&args(&["memo", &uri]), Path::new("/")),
            Some(real.join("app"))
        );
        assert_eq!(folder_from_args(&args(&["memo"]), &real), None);
        assert_eq!(folder_from_args(&args(&["memo", "missing"]), &real), None);
    }

    #[test]
    fn requests_are_taken_once_in_order() {
        let queue = OpenRequests::default();
        queue.push(Path::new("/a"));
        queue.push(Path::new("/b"));
        assert_eq!(queue.take(), ["/a", "/b"]);
        assert!(queue.take().is_empty());
    }
}
