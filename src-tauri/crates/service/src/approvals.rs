//! Approval settings: the mode new sessions start in (config.toml's `approval_mode`) and
//! the rules the user kept (`approval_rules.json`), listed, written and deleted here.

use std::path::PathBuf;

use memo_config::{ConfigFile, NewRule, RuleStore};
use memo_protocol::{
    ApprovalMode, ApprovalRuleInfo, ApprovalSettings, RuleDecision, RuleInput, RuleKind,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

impl Service {
    fn rule_store(&self) -> Result<RuleStore> {
        Ok(RuleStore::at(self.home()?.approval_rules()))
    }

    /// The default mode and every kept rule. A damaged rules file is reported in
    /// `rules_error`, not as a failure: the mode can still be changed.
    pub fn approval_settings(&self) -> Result<ApprovalSettings> {
        let store = self.rule_store()?;
        let (rules, rules_error) = match store.list() {
            Ok(rules) => (rules.into_iter().map(info).collect(), None),
            Err(error) => (Vec::new(), Some(error.to_string())),
        };
        Ok(ApprovalSettings {
            default_mode: default_mode(&self.config()?)?,
            rules_path: store.path().display().to_string(),
            rules,
            rules_error,
        })
    }

    /// Writes `approval_mode` to config.toml (the default, auto, removes the key).
    pub fn set_default_approval_mode(&self, mode: ApprovalMode) -> Result<ApprovalSettings> {
        let mut file = ConfigFile::open(&self.home()?.config_toml())?;
        file.set_string(
            "approval_mode",
            match mode {
                ApprovalMode::Auto => None,
                ApprovalMode::Strict => Some("strict"),
                ApprovalMode::Dangerous => Some("dangerous"),
            },
        );
        file.save()?;
        self.approval_settings()
    }

    /// Adds a rule, or replaces rule `id`.
    pub fn save_approval_rule(
        &self,
        id: Option<&str>,
        input: &RuleInput,
    ) -> Result<ApprovalSettings> {
        let store = self.rule_store()?;
        let rule = new_rule(input)?;
        match id {
            Some(id) => store.replace(id, &rule)?,
            None => store.add(&rule)?,
        };
        self.approval_settings()
    }

    pub fn delete_approval_rule(&self, id: &str) -> Result<ApprovalSettings> {
        if !self.rule_store()?.remove(id)? {
            return Err(ServiceError::NotFound(format!(
                "no approval rule with id {id}"
            )));
        }
        self.approval_settings()
    }
}

fn default_mode(config: &memo_config::Config) -> Result<ApprovalMode> {
    match config.extra.get("approval_mode").and_then(|v| v.as_str()) {
        None | Some("auto") => Ok(ApprovalMode::Auto),
        Some("strict") => Ok(ApprovalMode::Strict),
        Some("dangerous") => Ok(ApprovalMode::Dangerous),
        Some(other) => Err(ServiceError::InvalidInput(format!(
            "approval_mode = \"{other}\" in config.toml is not a mode: use auto, strict or dangerous"
        ))),
    }
}

fn new_rule(input: &RuleInput) -> Result<NewRule> {
    let project = match input.project.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(folder) => {
            let path = PathBuf::from(folder);
            if !path.is_dir() {
                return Err(ServiceError::InvalidInput(format!(
                    "{folder} is not a folder"
                )));
            }
            Some(path)
        }
    };
    Ok(NewRule {
        decision: match input.decision {
            RuleDecision::Allow => memo_config::RuleDecision::Allow,
            RuleDecision::Deny => memo_config::RuleDecision::Deny,
        },
        kind: match input.kind {
            RuleKind::Command => memo_config::RuleKind::Command,
            RuleKind::Write => memo_config::RuleKind::Write,
            RuleKind::Mcp => memo_config::RuleKind::Mcp,
            RuleKind::Web => memo_config::RuleKind::Web,
        },
        pattern: input.pattern.clone(),
        project,
    })
}

fn info(rule: memo_config::ApprovalRule) -> ApprovalRuleInfo {
    ApprovalRuleInfo {
        id: rule.id,
        decision: match rule.decision {
            memo_config::RuleDecision::Allow => RuleDecision::Allow,
            memo_config::RuleDecision::Deny => RuleDecision::Deny,
        },
        kind: match rule.kind {
            memo_config::RuleKind::Command => RuleKind::Command,
            memo_config::RuleKind::Write => RuleKind::Write,
            memo_config::RuleKind::Mcp => RuleKind::Mcp,
            memo_config::RuleKind::Web => RuleKind::Web,
        },
        pattern: rule.pattern,
        project: rule.project,
        created_at: rule.created_at,
        last_used_at: rule.last_used_at,
    }
}
