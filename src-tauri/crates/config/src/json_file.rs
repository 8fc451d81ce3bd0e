//! Memo's own small JSON files in its home (trusted folders, approval rules): read whole,
//! changed, and written back atomically only if nobody else wrote the file in between
//! (the app and memo-cli share them), retrying a few times when someone did. A file that
//! does not parse is an error naming its line and column, and is never written over.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::edit::{write_if_unchanged, Revision};
use crate::ConfigError;

/// Retries when another Memo process wrote the file in between.
const WRITE_ATTEMPTS: usize = 3;

pub(crate) struct JsonFile<'a> {
    pub path: &'a Path,
    /// What the user should know when the file is damaged: what Memo does until it is
    /// fixed ("until then no folder is trusted").
    pub meanwhile: &'a str,
}

impl JsonFile<'_> {
    /// The contents (the default when the file does not exist) and their revision.
    pub fn read<T: DeserializeOwned + Default>(&self) -> Result<(Revision, T), ConfigError> {
        let bytes = match std::fs::read(self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Revision::of(None), T::default()))
            }
            Err(source) => {
                return Err(ConfigError::Read {
                    path: self.path.to_path_buf(),
                    source,
                })
            }
        };
        let value = serde_json::from_slice(&bytes).map_err(|e| ConfigError::Invalid {
            path: self.path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            key: None,
            message: format!("{e}; fix or delete the file ({})", self.meanwhile),
        })?;
        Ok((Revision::of(Some(&bytes)), value))
    }

    /// Applies `change` to the current contents and writes them back.
    pub fn update<T: Serialize + DeserializeOwned + Default>(
        &self,
        mut change: impl FnMut(&mut T),
    ) -> Result<(), ConfigError> {
        let mut attempt = 0;
        loop {
            let (revision, mut value) = self.read::<T>()?;
            change(&mut value);
            let text = serde_json::to_string_pretty(&value).map_err(|e| ConfigError::Edit {
                path: PathBuf::from(self.path),
                message: e.to_string(),
            })?;
            match write_if_unchanged(self.path, format!("{text}\n").as_bytes(), &revision) {
                Err(ConfigError::Conflict { .. }) if attempt + 1 < WRITE_ATTEMPTS => attempt += 1,
                other => return other.map(|_| ()),
            }
        }
    }
}
