//! The Memo home directory, shared with Memo Code: `$MEMO_HOME` or `~/.memo`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::ConfigError;

/// The environment variable that overrides the home directory (same as Memo Code).
pub const MEMO_HOME_ENV: &str = "MEMO_HOME";

/// Where Memo keeps its files. Only computes paths; nothing is created here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoHome {
    root: PathBuf,
}

impl MemoHome {
    /// `$MEMO_HOME` (a leading `~` is expanded, as Memo Code does) or `~/.memo`.
    pub fn resolve() -> Result<MemoHome, ConfigError> {
        Self::resolve_from(std::env::var_os(MEMO_HOME_ENV), std::env::home_dir())
    }

    /// [`MemoHome::resolve`] with the inputs given explicitly (for tests and for callers
    /// that sandbox the environment).
    pub fn resolve_from(
        memo_home: Option<OsString>,
        home_dir: Option<PathBuf>,
    ) -> Result<MemoHome, ConfigError> {
        // An empty MEMO_HOME is what `MEMO_HOME= memo` produces; treat it as unset rather
        // than as the current directory.
        if let Some(value) = memo_home.filter(|v| !v.is_empty()) {
            let path = PathBuf::from(value);
            let root = match path.strip_prefix("~") {
                Ok(rest) => home_dir.ok_or(ConfigError::NoHome)?.join(rest),
                Err(_) => path,
            };
            return Ok(MemoHome { root });
        }
        let home = home_dir
            .filter(|h| !h.as_os_str().is_empty())
            .ok_or(ConfigError::NoHome)?;
        Ok(MemoHome {
            root: home.join(".memo"),
        })
    }

    /// A home at an explicit directory.
    pub fn at(root: impl Into<PathBuf>) -> MemoHome {
        MemoHome { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `config.toml`, written by Memo Code and read by both.
    pub fn config_toml(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    /// The user's personality preferences added to the system prompt.
    pub fn soul_md(&self) -> PathBuf {
        self.root.join("SOUL.md")
    }

    /// The user's own skills (`<name>/SKILL.md`).
    pub fn skills_dir(&self) -> PathBuf {
        self.root.join("skills")
    }

    /// Memo Code's JSONL session logs (read-only for us).
    pub fn memo_code_sessions_dir(&self) -> PathBuf {
        self.root.join("sessions")
    }

    /// Approval rules kept by the user (see [`crate::RuleStore`]).
    pub fn approval_rules(&self) -> PathBuf {
        self.root.join("approval_rules.json")
    }

    /// Which folders may run what their project files ask for (see [`crate::TrustStore`]).
    pub fn trusted_folders(&self) -> PathBuf {
        self.root.join("trusted_folders.json")
    }

    /// Memo Desktop's own database; a separate file so Memo Code never sees it.
    pub fn sessions_db(&self) -> PathBuf {
        self.root.join("memo-desktop.sqlite")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memo_home_wins_and_tilde_expands() {
        let home = Some(PathBuf::from("/home/u"));
        let h = MemoHome::resolve_from(Some("/data/memo".into()), home.clone()).unwrap();
        assert_eq!(h.root(), Path::new("/data/memo"));
        let h = MemoHome::resolve_from(Some("~/alt".into()), home.clone()).unwrap();
        assert_eq!(h.root(), Path::new("/home/u/alt"));
        let h = MemoHome::resolve_from(Some("~".into()), home.clone()).unwrap();
        assert_eq!(h.root(), Path::new("/home/u"));
        // Only a whole "~" component is the home directory.
        let h = MemoHome::resolve_from(Some("~x/y".into()), home).unwrap();
        assert_eq!(h.root(), Path::new("~x/y"));
    }

    #[test]
    fn default_is_dot_memo_and_empty_override_is_ignored() {
        let home = Some(PathBuf::from("/home/u"));
        let h = MemoHome::resolve_from(None, home.clone()).unwrap();
        assert_eq!(h.root(), Path::new("/home/u/.memo"));
        let h = MemoHome::resolve_from(Some(OsString::new()), home).unwrap();
        assert_eq!(h.root(), Path::new("/home/u/.memo"));
        assert!(matches!(
            MemoHome::resolve_from(None, None),
            Err(ConfigError::NoHome)
        ));
    }

    #[test]
    fn file_layout() {
        let h = MemoHome::at("/m");
        assert_eq!(h.config_toml(), Path::new("/m/config.toml"));
        assert_eq!(h.soul_md(), Path::new("/m/SOUL.md"));
        assert_eq!(h.skills_dir(), Path::new("/m/skills"));
        assert_eq!(h.memo_code_sessions_dir(), Path::new("/m/sessions"));
        assert_eq!(h.sessions_db(), Path::new("/m/memo-desktop.sqlite"));
    }
}
