//! Approval rules the user chose to keep: "always allow `cargo test` in this project",
//! "never run `git push`". They live in `$MEMO_HOME/approval_rules.json` (one file, easy to
//! copy elsewhere), are listed and edited in settings, and are matched by the engine
//! against each call's fingerprint (see `memo_engine::rules`).
//!
//! A damaged file is reported and ignored: no rule applies (so everything asks), and it is
//! never overwritten until it is fixed or deleted, so a hand edit gone wrong loses nothing.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::edit::Revision;
use crate::json_file::JsonFile;
use crate::ConfigError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleDecision {
    Allow,
    Deny,
}

/// What a rule's pattern is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// A command prefix, whole words: `cargo test` covers `cargo test -p x`, never
    /// `cargo testx` or `cargo test; rm -rf x`.
    Command,
    /// A path or glob (`src/**`); relative ones are relative to the session's folder.
    Write,
    /// `server:tool`, or `server:*` for every tool of a server.
    Mcp,
    /// A web origin, `https://docs.rs`.
    Web,
    /// A path or glob whose content no tool may show (`./.env`, `**/*.pem`); only deny
    /// rules mean something, since reads never ask.
    Read,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRule {
    pub id: String,
    pub decision: RuleDecision,
    pub kind: RuleKind,
    pub pattern: String,
    /// Only sessions in this folder (canonical path); `None`: every folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// A command rule that matches this command exactly, never as a prefix (kept from
    /// approving a command that writes: it covers that write and no other).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// Seconds since the Unix epoch.
    pub created_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<u64>,
}

/// A rule as the user or an approval card proposes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRule {
    pub decision: RuleDecision,
    pub kind: RuleKind,
    pub pattern: String,
    pub project: Option<PathBuf>,
    /// See [`ApprovalRule::exact`].
    pub exact: bool,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct RulesFile {
    #[serde(default)]
    rules: Vec<ApprovalRule>,
}

/// `$MEMO_HOME/approval_rules.json`.
#[derive(Debug, Clone)]
pub struct RuleStore {
    path: PathBuf,
}

impl RuleStore {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn list(&self) -> Result<Vec<ApprovalRule>, ConfigError> {
        Ok(self.read()?.1.rules)
    }

    /// Adds a rule (an identical one already there is returned instead).
    pub fn add(&self, rule: &NewRule) -> Result<ApprovalRule, ConfigError> {
        let pattern = self.check(rule)?;
        let project = rule.project.as_deref().map(canonical);
        let mut added = None;
        self.update(|file| {
            if let Some(same) = file.rules.iter().find(|r| {
                r.decision == rule.decision
                    && r.kind == rule.kind
                    && r.pattern == pattern
                    && r.project == project
                    && r.exact == rule.exact
            }) {
                added = Some(same.clone());
                return;
            }
            let created_at = now();
            let new = ApprovalRule {
                id: fresh_id(&file.rules, created_at),
                decision: rule.decision,
                kind: rule.kind,
                pattern: pattern.clone(),
                project: project.clone(),
                exact: rule.exact,
                created_at,
                last_used_at: None,
            };
            file.rules.push(new.clone());
            added = Some(new);
        })?;
        added.ok_or_else(|| self.edit_error("the rule was not added"))
    }

    /// Replaces rule `id`'s decision, kind, pattern and folder.
    pub fn replace(&self, id: &str, rule: &NewRule) -> Result<ApprovalRule, ConfigError> {
        let pattern = self.check(rule)?;
        let project = rule.project.as_deref().map(canonical);
        let mut changed = None;
        self.update(|file| {
            if let Some(r) = file.rules.iter_mut().find(|r| r.id == id) {
                r.decision = rule.decision;
                r.kind = rule.kind;
                r.pattern = pattern.clone();
                r.project = project.clone();
                r.exact = rule.exact;
                changed = Some(r.clone());
            }
        })?;
        changed.ok_or_else(|| self.edit_error(&format!("no rule with id {id}")))
    }

    /// Removes rule `id`; returns whether it was there.
    pub fn remove(&self, id: &str) -> Result<bool, ConfigError> {
        let mut removed = false;
        self.update(|file| {
            let before = file.rules.len();
            file.rules.retain(|r| r.id != id);
            removed = file.rules.len() != before;
        })?;
        Ok(removed)
    }

    /// Records that rules `ids` just decided a call (shown as "last used" in settings).
    pub fn touch(&self, ids: &[String]) -> Result<(), ConfigError> {
        // Other agents' rules are not in this file: nothing to write for them.
        if ids.is_empty() || !self.list()?.iter().any(|r| ids.contains(&r.id)) {
            return Ok(());
        }
        let at = now();
        self.update(|file| {
            for rule in file.rules.iter_mut().filter(|r| ids.contains(&r.id)) {
                rule.last_used_at = Some(at);
            }
        })
    }

    /// The pattern as stored, or why it cannot be a rule.
    fn check(&self, rule: &NewRule) -> Result<String, ConfigError> {
        let pattern = rule.pattern.trim();
        let problem = if pattern.is_empty() {
            Some("a rule needs a pattern")
        } else if pattern.contains(['\n', '\r']) {
            Some("a rule's pattern is one line")
        } else if rule.kind == RuleKind::Mcp && !pattern.contains(':') {
            Some("an MCP rule is `server:tool` or `server:*`")
        } else if rule.kind == RuleKind::Read && rule.decision == RuleDecision::Allow {
            Some("reads never ask, so a read rule can only deny: choose Deny")
        } else {
            None
        };
        match problem {
            Some(message) => Err(self.edit_error(message)),
            None => Ok(pattern.split_whitespace().collect::<Vec<_>>().join(" ")),
        }
    }

    fn edit_error(&self, message: &str) -> ConfigError {
        ConfigError::Edit {
            path: self.path.clone(),
            message: message.to_owned(),
        }
    }

    fn file(&self) -> JsonFile<'_> {
        JsonFile {
            path: &self.path,
            meanwhile: "until then no rule applies",
        }
    }

    fn update(&self, change: impl FnMut(&mut RulesFile)) -> Result<(), ConfigError> {
        self.file().update(change)
    }

    fn read(&self) -> Result<(Revision, RulesFile), ConfigError> {
        self.file().read()
    }
}

fn canonical(folder: &Path) -> String {
    std::fs::canonicalize(folder)
        .unwrap_or_else(|_| folder.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// `r` + creation time in hex, made unique within the file.
fn fresh_id(rules: &[ApprovalRule], created_at: u64) -> String {
    let mut n = 0u32;
    loop {
        let id = format!("r{created_at:x}{n}");
        if !rules.iter().any(|r| r.id == id) {
            return id;
        }
        n += 1;
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(pattern: &str) -> NewRule {
        NewRule {
            decision: RuleDecision::Allow,
            kind: RuleKind::Command,
            pattern: pattern.into(),
            project: None,
            exact: false,
        }
    }

    #[test]
    fn rules_are_added_once_edited_touched_and_removed() {
        let home = tempfile::tempdir().unwrap();
        let store = RuleStore::at(home.path().join("approval_rules.json"));
        let a = store.add(&command("  cargo   test ")).unwrap();
        assert_eq!(a.pattern, "cargo test");
        assert_eq!(
            store.add(&command("cargo test")).unwrap().id,
            a.id,
            "no duplicate"
        );
        let mut project = command("npm test");
        project.project = Some(home.path().join("."));
        let b = store.add(&project).unwrap();
        assert_ne!(a.id, b.id);
        assert_eq!(
            b.project.as_deref(),
            Some(
                std::fs::canonicalize(home.path())
                    .unwrap()
                    .to_str()
                    .unwrap()
            )
        );
        store.touch(std::slice::from_ref(&a.id)).unwrap();
        assert!(store.list().unwrap()[0].last_used_at.is_some());
        let mut deny = command("git push");
        deny.decision = RuleDecision::Deny;
        let replaced = store.replace(&a.id, &deny).unwrap();
        assert_eq!(
            (replaced.decision, replaced.pattern.as_str()),
            (RuleDecision::Deny, "git push")
        );
        assert!(store.remove(&b.id).unwrap());
        assert!(!store.remove(&b.id).unwrap());
        assert_eq!(store.list().unwrap().len(), 1);
        assert!(store.add(&command(" ")).is_err());
        let mut mcp = command("everything");
        mcp.kind = RuleKind::Mcp;
        assert!(store
            .add(&mcp)
            .unwrap_err()
            .to_string()
            .contains("server:tool"));
    }

    #[test]
    fn a_damaged_file_is_reported_and_never_overwritten() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("approval_rules.json");
        std::fs::write(&path, "{\"rules\": [}").unwrap();
        let store = RuleStore::at(&path);
        let error = store.list().unwrap_err().to_string();
        assert!(error.contains("approval_rules.json:1:"), "{error}");
        assert!(error.contains("no rule applies"), "{error}");
        assert!(store.add(&command("ls")).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"rules\": [}");
    }
}
