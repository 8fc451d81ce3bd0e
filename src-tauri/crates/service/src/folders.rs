//! Checking a folder a person typed before anything opens it: the window adds a folder to
//! its list (and brings it to the front) only once it is known to be one Memo can work
//! in, so a typo closes nothing and is remembered nowhere.

use std::path::Path;

use memo_protocol::Phrase;

use crate::{Result, Service, ServiceError};

impl Service {
    /// The folder's real path when `path` (absolute) is a folder this user can list;
    /// otherwise why not, in a sentence: no such folder, a file, not readable.
    pub fn check_folder(&self, path: &str) -> Result<String> {
        check_folder(Path::new(path))
    }
}

fn check_folder(path: &Path) -> Result<String> {
    let shown = path.display().to_string();
    if !path.is_absolute() {
        return Err(ServiceError::invalid(Phrase::FolderNotFullPath {
            path: shown,
        }));
    }
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(ServiceError::invalid(Phrase::FolderMissing { path: shown }));
        }
        Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err(ServiceError::invalid(Phrase::FolderNotPermitted {
                path: shown,
            }));
        }
        Err(error) => {
            return Err(ServiceError::invalid(Phrase::FolderUnreadable {
                path: shown,
                error: error.to_string(),
            }));
        }
    };
    if !meta.is_dir() {
        return Err(ServiceError::invalid(Phrase::FolderIsFile { path: shown }));
    }
    if let Err(error) = std::fs::read_dir(path) {
        return Err(ServiceError::invalid(
            if error.kind() == std::io::ErrorKind::PermissionDenied {
                Phrase::FolderNotListable { path: shown }
            } else {
                Phrase::FolderUnlistable {
                    path: shown,
                    error: error.to_string(),
                }
            },
        ));
    }
    let real = std::fs::canonicalize(path).map_err(|error| {
        ServiceError::invalid(Phrase::FolderUnreadable {
            path: shown,
            error: error.to_string(),
        })
    })?;
    Ok(real.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ErrorCode;

    fn why(path: &Path) -> String {
        match check_folder(path) {
            Err(error @ ServiceError::Said { .. }) => {
                assert_eq!(error.code(), ErrorCode::InvalidInput);
                error.to_string()
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_typo_a_file_and_an_unreadable_folder_are_each_said_plainly() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        assert_eq!(
            check_folder(dir.path()).unwrap(),
            real.display().to_string()
        );
        let typo = dir.path().join("nope");
        assert_eq!(why(&typo), format!("No such folder: {}", typo.display()));
        assert_eq!(
            check_folder(&typo).unwrap_err().phrase(),
            Some(&Phrase::FolderMissing {
                path: typo.display().to_string()
            })
        );
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        assert!(why(&file).ends_with("is a file, not a folder; open the folder it is in"));
        assert!(why(Path::new("relative/x")).contains("not a full path"));
        // Root reads every folder, so the unreadable case is checked only as another user.
        if !nix_is_root() {
            let locked = dir.path().join("locked");
            std::fs::create_dir(&locked).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
            assert!(
                why(&locked).contains("permission denied"),
                "{}",
                why(&locked)
            );
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    fn nix_is_root() -> bool {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("Uid:"))
                    .map(|l| l.split_whitespace().nth(1) == Some("0"))
            })
            .unwrap_or(false)
    }
}
