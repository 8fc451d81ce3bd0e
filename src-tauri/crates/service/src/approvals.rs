//! Approval settings: the mode new sessions start in (config.toml's `approval_mode`) and
//! the rules the user kept (`approval_rules.json`), listed, written and deleted here.

use std::path::{Path, PathBuf};

use memo_config::{ConfigFile, NewRule, RuleStore};
use memo_protocol::{
    ApprovalMode, ApprovalRuleInfo, ApprovalSettings, ImportedPermission, Phrase, RuleDecision,
    RuleInput, RuleKind, ToolSwitch,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

impl Service {
    fn rule_store(&self) -> Result<RuleStore> {
        Ok(RuleStore::at(self.home()?.approval_rules()))
    }

    /// The default mode, every kept rule, the built-in tools and other agents'
    /// permissions for a session in `cwd`. A damaged rules file is reported in
    /// `rules_error`, not as a failure: the mode can still be changed.
    pub fn approval_settings(&self, cwd: Option<&Path>) -> Result<ApprovalSettings> {
        let store = self.rule_store()?;
        let config = self.config()?;
        let engine = self.engine()?;
        let trusted = match cwd {
            Some(dir) => engine
                .workspace_trust(dir)
                .is_ok_and(|t| t.status == memo_config::TrustStatus::Trusted),
            None => false,
        };
        let imported = engine
            .imported_permissions(cwd)
            .iter()
            .map(|e| imported_info(e, trusted))
            .collect();
        let disabled = memo_engine::disabled_tools(&config);
        let tools = memo_engine::tools::ToolRegistry::builtin()
            .names()
            .into_iter()
            .map(|name| ToolSwitch {
                disabled: disabled.contains(&name),
                name,
            })
            .collect();
        let (rules, rules_error) = match store.list() {
            Ok(rules) => (rules.into_iter().map(info).collect(), None),
            Err(error) => (Vec::new(), Some(error.to_string())),
        };
        Ok(ApprovalSettings {
            default_mode: memo_engine::approval_mode(&config)?,
            rules_path: store.path().display().to_string(),
            rules,
            rules_error,
            imported,
            tools,
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
        self.approval_settings(None)
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
        self.approval_settings(None)
    }

    /// Turns a built-in tool off (or on again) for new sessions: config.toml's
    /// `disabled_tools`.
    pub fn set_tool_disabled(&self, name: &str, disabled: bool) -> Result<ApprovalSettings> {
        let path = self.home()?.config_toml();
        let mut file = ConfigFile::open(&path)?;
        let config = memo_config::Config::parse(&file.text(), &path)?;
        let mut list = memo_engine::disabled_tools(&config);
        list.retain(|n| n != name);
        if disabled {
            if memo_engine::tools::ToolRegistry::builtin()
                .get(name)
                .is_none()
            {
                return Err(ServiceError::invalid(Phrase::NoBuiltinTool {
                    name: name.to_owned(),
                }));
            }
            list.push(name.to_owned());
        }
        file.set_string_list(
            "disabled_tools",
            (!list.is_empty()).then_some(list.as_slice()),
        );
        file.save()?;
        self.approval_settings(None)
    }

    /// Writes the kept rules (as stored, in Memo's own format) to `path`, replacing what
    /// is there (the save dialog asked); returns how many were written.
    pub fn export_approval_rules(&self, path: &Path) -> Result<u32> {
        let rules = self.rule_store()?.list()?;
        let text =
            serde_json::to_string_pretty(&serde_json::json!({ "rules": rules })).map_err(|e| {
                ServiceError::invalid(Phrase::RulesNotExported {
                    error: e.to_string(),
                })
            })?;
        let tmp = path.with_extension("json.memo-export.tmp");
        let write = || -> std::io::Result<()> {
            std::fs::write(&tmp, format!("{text}\n"))?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            ServiceError::io(path.display(), e)
        })?;
        Ok(rules.len() as u32)
    }

    pub fn delete_approval_rule(&self, id: &str) -> Result<ApprovalSettings> {
        if !self.rule_store()?.remove(id)? {
            return Err(ServiceError::not_found(Phrase::NoApprovalRule {
                id: id.to_string(),
            }));
        }
        self.approval_settings(None)
    }
}

fn new_rule(input: &RuleInput) -> Result<NewRule> {
    let project = match input.project.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(folder) => {
            let path = PathBuf::from(folder);
            if !path.is_dir() {
                return Err(ServiceError::invalid(Phrase::NotAFolder {
                    path: folder.to_string(),
                }));
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
            RuleKind::Read => memo_config::RuleKind::Read,
        },
        pattern: input.pattern.clone(),
        project,
        exact: input.exact && input.kind == RuleKind::Command,
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
            memo_config::RuleKind::Read => RuleKind::Read,
        },
        pattern: rule.pattern,
        project: rule.project,
        exact: rule.exact,
        created_at: rule.created_at,
        last_used_at: rule.last_used_at,
    }
}

fn imported_info(
    entry: &memo_engine::imported_rules::ImportedEntry,
    trusted: bool,
) -> ImportedPermission {
    use memo_engine::imported_rules::Effect;
    let allow = entry.decision == memo_config::RuleDecision::Allow;
    let (effect, applied) = match &entry.effect {
        Effect::Rule { kind, pattern } => {
            let what = match kind {
                memo_config::RuleKind::Command => "command",
                memo_config::RuleKind::Write => "files",
                memo_config::RuleKind::Mcp => "MCP tool",
                memo_config::RuleKind::Web => "web",
                memo_config::RuleKind::Read => "reading",
            };
            let verb = if allow { "allows" } else { "refuses" };
            if allow && entry.project && !trusted {
                (
                    format!("{verb} {what} `{pattern}` once the folder is trusted"),
                    false,
                )
            } else {
                (format!("{verb} {what} `{pattern}`"), true)
            }
        }
        Effect::Exclude(name) => (format!("turns off {name}"), true),
        Effect::Only(names) => (format!("offers only {}", names.join(", ")), true),
        Effect::OnlyCommands(prefixes) => (
            format!(
                "runs only shell commands starting with {}",
                prefixes
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            true,
        ),
        Effect::Unsupported(why) => (why.clone(), false),
    };
    ImportedPermission {
        file: entry.file.display().to_string(),
        text: entry.text.clone(),
        decision: if allow {
            RuleDecision::Allow
        } else {
            RuleDecision::Deny
        },
        effect,
        applied,
    }
}
