//! `$MEMO_HOME/plugins/installed.json`: which plugins are installed, from where, and
//! whether they are on. The folders beside it are copies; this file is what says a copy
//! is installed, so it is written whole (temporary file, then rename) and a damaged one is
//! reported and never overwritten: writing over it would forget what was installed.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{PluginError, Result};

const FORMAT_VERSION: u32 = 1;

/// Where an installed plugin came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Source {
    Folder { path: PathBuf },
    Git { url: String },
}

impl Source {
    /// The folder or URL, as shown to the user.
    pub fn location(&self) -> String {
        match self {
            Source::Folder { path } => path.display().to_string(),
            Source::Git { url } => url.clone(),
        }
    }
}

/// One installed plugin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub name: String,
    pub source: Source,
    pub version: Option<String>,
    pub enabled: bool,
    /// Milliseconds since the Unix epoch.
    pub installed_at_ms: u64,
}

#[derive(Serialize, Deserialize)]
struct RegistryFile {
    version: u32,
    plugins: Vec<Record>,
}

/// The records in `path`; none when the file does not exist yet.
pub(crate) fn read(path: &Path) -> Result<Vec<Record>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(PluginError::io(path, e)),
    };
    let file: RegistryFile = serde_json::from_str(&text).map_err(|e| PluginError::Registry {
        path: path.to_path_buf(),
        message: format!("unreadable ({e})"),
    })?;
    if file.version != FORMAT_VERSION {
        return Err(PluginError::Registry {
            path: path.to_path_buf(),
            message: format!(
                "written by another version of Memo (format {})",
                file.version
            ),
        });
    }
    Ok(file.plugins)
}

/// Replaces the file with `records`: a crash leaves the old file or the new one, never
/// half of one.
pub(crate) fn write(path: &Path, records: &[Record]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| PluginError::io(dir, e))?;
    let text = serde_json::to_string_pretty(&RegistryFile {
        version: FORMAT_VERSION,
        plugins: records.to_vec(),
    })
    .map_err(|e| PluginError::Registry {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let temp = dir.join(format!(
        ".installed-{}.json.tmp",
        uuid::Uuid::new_v4().simple()
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(PluginError::io(path, e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_a_missing_file_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plugins/installed.json");
        assert!(read(&path).unwrap().is_empty());
        let records = vec![Record {
            name: "a".into(),
            source: Source::Git {
                url: "https://example.com/a.git".into(),
            },
            version: Some("1.0.0".into()),
            enabled: true,
            installed_at_ms: 5,
        }];
        write(&path, &records).unwrap();
        assert_eq!(read(&path).unwrap(), records);
        // Nothing temporary is left beside it.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("installed.json")]);
    }

    #[test]
    fn a_damaged_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("installed.json");
        std::fs::write(&path, "{ not json").unwrap();
        let err = read(&path).unwrap_err();
        assert!(matches!(err, PluginError::Registry { .. }));
        assert!(err.to_string().contains("installed.json"), "{err}");
    }
}
