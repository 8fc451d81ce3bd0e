//! The settings pane's skills: every skill found (Memo's, the project's, other agents'),
//! enabling them through `active_skills` in config.toml (the path form Memo Code writes),
//! and creating, editing, renaming and deleting the ones Memo owns. Other agents' and
//! built-in skills are listed, never written. A deleted skill's folder is moved to
//! `$MEMO_HOME/trash/skills`, not erased.

use std::path::{Path, PathBuf};

use memo_config::{Config, ConfigFile};
use memo_engine::context::skills::parse_skill_text;
use memo_engine::context::{
    workspace_root, ActiveSkills, Skill, SkillRoots, SkillScope, SkillSet, SkillSource,
};
use memo_protocol::{EditableFileKind, Phrase, SkillChange, SkillInfo, SkillScopeKind, SkillsPage};

use crate::error::{Result, ServiceError};
use crate::service::Service;

const ACTIVE_SKILLS: &str = "active_skills";
/// A description is one line in every request's prompt: keep it readable.
const MAX_DESCRIPTION_CHARS: usize = 1024;

fn scope_kind(scope: SkillScope) -> SkillScopeKind {
    match scope {
        SkillScope::Project => SkillScopeKind::Project,
        SkillScope::User => SkillScopeKind::User,
        SkillScope::OtherAgent => SkillScopeKind::OtherAgent,
        SkillScope::Plugin => SkillScopeKind::Plugin,
        SkillScope::Builtin => SkillScopeKind::Builtin,
    }
}

/// A skill change refused as bad input.
fn refused(phrase: Phrase) -> ServiceError {
    ServiceError::invalid(phrase)
}

fn no_skill_at(path: impl std::fmt::Display) -> ServiceError {
    ServiceError::not_found(Phrase::SkillNotFound {
        path: path.to_string(),
    })
}

/// The folder name for a skill called `name`: lowercase words joined by hyphens.
fn folder_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(refused(Phrase::SkillNeedsName));
    }
    if name.chars().count() > 64
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' ' | '.'))
        || name.starts_with('.')
    {
        return Err(refused(Phrase::SkillNameUnusable {
            name: name.to_owned(),
        }));
    }
    Ok(name
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-"))
}

/// A YAML scalar that reads back as exactly `text` (double-quoted when plain would not).
fn yaml_string(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c) || c.is_whitespace())
        && !text.ends_with(char::is_whitespace)
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.contains('\n');
    if plain {
        return text.to_owned();
    }
    let escaped = text
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

fn skill_text(name: &str, description: &str, body: &str) -> String {
    format!(
        "---\nname: {}\ndescription: {}\n---\n\n{}\n",
        yaml_string(name),
        yaml_string(description),
        body.trim_end()
    )
}

impl Service {
    fn skill_roots(&self, cwd: Option<&Path>) -> Result<SkillRoots> {
        let project_root = match cwd {
            Some(dir) => {
                let dir =
                    std::fs::canonicalize(dir).map_err(|e| ServiceError::io(dir.display(), e))?;
                Some(workspace_root(&dir))
            }
            None => None,
        };
        let home = self.home()?.root().to_path_buf();
        Ok(SkillRoots {
            plugins: memo_plugins::session_dirs(memo_plugins::Homes {
                memo: Some(&home),
                user: self.user_home().as_deref(),
                folder: project_root.as_deref(),
            })
            .skills,
            memo_home: Some(home),
            user_home: self.user_home(),
            project_root,
        })
    }

    fn active_skills(config: &Config) -> Option<ActiveSkills> {
        let list = config.extra.get(ACTIVE_SKILLS)?.as_array()?;
        Some(ActiveSkills {
            names: list
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            config_path: config.path.display().to_string(),
        })
    }

    /// Every skill, enabled or not, for the folder `cwd` (or only the user's without one).
    pub fn list_skills(&self, cwd: Option<&Path>) -> Result<SkillsPage> {
        let path = self.home()?.config_toml();
        let file = ConfigFile::open(&path)?;
        let config = Config::parse(&file.text(), &path)?;
        let active = Self::active_skills(&config);
        let set = SkillSet::discover(&self.skill_roots(cwd)?, None);
        let user_home = self.user_home();
        Ok(SkillsPage {
            skills: set
                .skills()
                .iter()
                .map(|skill| SkillInfo {
                    name: skill.name.clone(),
                    description: skill.description.clone(),
                    scope: scope_kind(skill.scope),
                    path: skill.display_path(),
                    // A plugin's skills follow the plugin's switch, not `active_skills`.
                    enabled: skill.scope == SkillScope::Plugin
                        || active
                            .as_ref()
                            .is_none_or(|a| a.allows(skill, user_home.as_deref())),
                    editable: matches!(skill.scope, SkillScope::User | SkillScope::Project),
                })
                .collect(),
            problems: set.problems().to_vec(),
            filtered: active.is_some(),
            config_revision: file.revision().to_string(),
        })
    }

    /// The discovered skill at `path`, which Memo may change: a user or project skill.
    fn owned_skill(&self, path: &Path, cwd: Option<&Path>) -> Result<Skill> {
        let set = SkillSet::discover(&self.skill_roots(cwd)?, None);
        let wanted =
            std::fs::canonicalize(path).map_err(|e| ServiceError::io(path.display(), e))?;
        let skill = set
            .skills()
            .iter()
            .find(|s| match &s.source {
                SkillSource::File(file) => {
                    std::fs::canonicalize(file).ok().as_ref() == Some(&wanted)
                }
                SkillSource::Builtin(_) => false,
            })
            .cloned()
            .ok_or_else(|| no_skill_at(path.display()))?;
        if !matches!(skill.scope, SkillScope::User | SkillScope::Project) {
            return Err(refused(Phrase::SkillNotOurs {
                path: path.display().to_string(),
            }));
        }
        Ok(skill)
    }

    /// A SKILL.md that the editor may write.
    pub(crate) fn editable_skill_path(&self, path: &Path, cwd: Option<&Path>) -> Result<PathBuf> {
        match self.owned_skill(path, cwd)?.source {
            SkillSource::File(file) => Ok(file),
            SkillSource::Builtin(name) => Err(refused(Phrase::BuiltinSkillNotEditable {
                name: name.to_string(),
            })),
        }
    }

    /// Applies one change to the skills; returns the list as it is afterwards.
    pub fn change_skill(&self, change: &SkillChange, cwd: Option<&Path>) -> Result<SkillsPage> {
        match change {
            SkillChange::Create {
                scope,
                name,
                description,
                body,
            } => self.create_skill(*scope, name, description, body, cwd)?,
            SkillChange::Save {
                path,
                content,
                revision,
            } => {
                self.write_file(
                    EditableFileKind::Skill,
                    cwd,
                    Some(Path::new(path)),
                    content,
                    revision,
                )?;
            }
            SkillChange::Rename { path, new_name } => {
                self.rename_skill(Path::new(path), new_name, cwd)?
            }
            SkillChange::Delete { path } => self.delete_skill(Path::new(path), cwd)?,
            SkillChange::SetEnabled {
                path,
                enabled,
                config_revision,
            } => self.set_skill_enabled(path, *enabled, config_revision, cwd)?,
        }
        self.list_skills(cwd)
    }

    fn create_skill(
        &self,
        scope: SkillScopeKind,
        name: &str,
        description: &str,
        body: &str,
        cwd: Option<&Path>,
    ) -> Result<()> {
        let folder = folder_name(name)?;
        let description = description.split_whitespace().collect::<Vec<_>>().join(" ");
        if description.is_empty() {
            return Err(refused(Phrase::SkillNeedsDescription));
        }
        if description.chars().count() > MAX_DESCRIPTION_CHARS {
            return Err(refused(Phrase::DescriptionTooLong {
                max: MAX_DESCRIPTION_CHARS as u64,
            }));
        }
        let root = match scope {
            SkillScopeKind::User => self.home()?.root().join("skills"),
            SkillScopeKind::Project => {
                let roots = self.skill_roots(cwd)?;
                let project = roots
                    .project_root
                    .ok_or_else(|| refused(Phrase::ProjectSkillNeedsFolder))?;
                project.join(".agents").join("skills")
            }
            SkillScopeKind::OtherAgent | SkillScopeKind::Plugin | SkillScopeKind::Builtin => {
                return Err(refused(Phrase::NewSkillPlace))
            }
        };
        let dir = root.join(&folder);
        if dir.exists() {
            return Err(refused(Phrase::AlreadyExistsPickName {
                path: dir.display().to_string(),
            }));
        }
        let text = skill_text(name.trim(), &description, body);
        parse_skill_text(&text).map_err(|e| {
            refused(Phrase::SkillNotCreated {
                error: e.to_string(),
            })
        })?;
        std::fs::create_dir_all(&dir).map_err(|e| ServiceError::io(dir.display(), e))?;
        let file = dir.join("SKILL.md");
        memo_config::edit::write_if_unchanged(
            &file,
            text.as_bytes(),
            &memo_config::Revision::of(None),
        )?;
        // With `active_skills` set, a new skill would start disabled: add it.
        self.edit_active_list(|list, _| {
            if let Some(list) = list {
                list.push(file.display().to_string());
            }
        })
    }

    fn rename_skill(&self, path: &Path, new_name: &str, cwd: Option<&Path>) -> Result<()> {
        let skill = self.owned_skill(path, cwd)?;
        let SkillSource::File(file) = &skill.source else {
            return Err(refused(Phrase::BuiltinSkillsNotRenamed));
        };
        let folder = folder_name(new_name)?;
        let old_dir = file.parent().ok_or_else(|| {
            refused(Phrase::HasNoFolder {
                path: file.display().to_string(),
            })
        })?;
        let parent = old_dir.parent().ok_or_else(|| {
            refused(Phrase::HasNoParentFolder {
                path: old_dir.display().to_string(),
            })
        })?;
        let new_dir = parent.join(&folder);
        if new_dir != old_dir && new_dir.exists() {
            return Err(refused(Phrase::AlreadyExistsPickName {
                path: new_dir.display().to_string(),
            }));
        }
        let text =
            std::fs::read_to_string(file).map_err(|e| ServiceError::io(file.display(), e))?;
        let revision = memo_config::Revision::of(Some(text.as_bytes()));
        let renamed = with_front_matter_name(&text, new_name.trim())?;
        parse_skill_text(&renamed).map_err(|e| {
            refused(Phrase::SkillNotRenamed {
                error: e.to_string(),
            })
        })?;
        memo_config::edit::write_if_unchanged(file, renamed.as_bytes(), &revision)?;
        if new_dir != old_dir {
            std::fs::rename(old_dir, &new_dir)
                .map_err(|e| ServiceError::io(old_dir.display(), e))?;
        }
        let old_file = file.display().to_string();
        let new_file = new_dir.join("SKILL.md").display().to_string();
        let user_home = self.user_home();
        self.edit_active_list(|list, _| {
            if let Some(list) = list {
                for entry in list.iter_mut() {
                    if ActiveSkills::entry_names(entry, &skill, user_home.as_deref())
                        || *entry == old_file
                    {
                        *entry = new_file.clone();
                    }
                }
            }
        })
    }

    fn delete_skill(&self, path: &Path, cwd: Option<&Path>) -> Result<()> {
        let skill = self.owned_skill(path, cwd)?;
        let SkillSource::File(file) = &skill.source else {
            return Err(refused(Phrase::BuiltinSkillsNotDeleted));
        };
        let dir = file.parent().ok_or_else(|| {
            refused(Phrase::HasNoFolder {
                path: file.display().to_string(),
            })
        })?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default();
        let trash = self.home()?.root().join("trash").join("skills");
        std::fs::create_dir_all(&trash).map_err(|e| ServiceError::io(trash.display(), e))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "skill".into());
        let target = trash.join(format!("{stamp}-{name}"));
        // A rename keeps everything the skill folder holds (scripts, references); across
        // file systems it fails and nothing is lost.
        std::fs::rename(dir, &target).map_err(|e| ServiceError::io(dir.display(), e))?;
        let user_home = self.user_home();
        self.edit_active_list(|list, _| {
            if let Some(list) = list {
                list.retain(|entry| {
                    !ActiveSkills::entry_names(entry, &skill, user_home.as_deref())
                });
            }
        })
    }

    fn set_skill_enabled(
        &self,
        path: &str,
        enabled: bool,
        config_revision: &str,
        cwd: Option<&Path>,
    ) -> Result<()> {
        let set = SkillSet::discover(&self.skill_roots(cwd)?, None);
        let skill = set
            .skills()
            .iter()
            .find(|s| s.display_path() == path)
            .cloned()
            .ok_or_else(|| no_skill_at(path))?;
        let all: Vec<Skill> = set.skills().to_vec();
        let user_home = self.user_home();
        let entry_for = |s: &Skill| match &s.source {
            SkillSource::File(file) => file.display().to_string(),
            SkillSource::Builtin(_) => s.name.clone(),
        };
        let path = self.home()?.config_toml();
        let mut file = ConfigFile::open(&path)?;
        if file.revision().as_str() != config_revision {
            return Err(memo_config::ConfigError::Conflict { path }.into());
        }
        let config = Config::parse(&file.text(), &path)?;
        let mut list: Vec<String> = match Self::active_skills(&config) {
            Some(active) => active.names,
            // Everything is enabled today: the list starts as every skill.
            None => all.iter().map(entry_for).collect(),
        };
        let matches =
            |entry: &String| ActiveSkills::entry_names(entry, &skill, user_home.as_deref());
        list.retain(|e| !matches(e));
        if enabled {
            list.push(entry_for(&skill));
        }
        file.set_string_list(ACTIVE_SKILLS, Some(&list));
        file.save()?;
        Ok(())
    }

    /// Edits `active_skills` (None when unset) and saves config.toml if it changed.
    fn edit_active_list(&self, edit: impl FnOnce(&mut Option<Vec<String>>, &Config)) -> Result<()> {
        let path = self.home()?.config_toml();
        let mut file = ConfigFile::open(&path)?;
        let config = Config::parse(&file.text(), &path)?;
        let before = Self::active_skills(&config).map(|a| a.names);
        let mut list = before.clone();
        edit(&mut list, &config);
        if list != before {
            file.set_string_list(ACTIVE_SKILLS, list.as_deref());
            file.save()?;
        }
        Ok(())
    }
}

/// `text` with its front matter's `name:` line replaced (or added).
fn with_front_matter_name(text: &str, name: &str) -> Result<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(refused(Phrase::SkillNoFrontMatter));
    }
    let end = lines
        .iter()
        .skip(1)
        .position(|l| l.trim_end() == "---")
        .map(|i| i + 1)
        .ok_or_else(|| refused(Phrase::SkillFrontMatterUnclosed))?;
    let line = format!("name: {}", yaml_string(name));
    match lines[1..end].iter().position(|l| l.starts_with("name:")) {
        Some(i) => lines[i + 1] = line,
        None => lines.insert(1, line),
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ErrorCode;

    #[test]
    fn names_and_descriptions_survive_yaml() {
        for text in [
            "plain",
            "with: colon",
            "#hash",
            "quote \"x\"",
            " lead",
            "a # b",
        ] {
            let rendered = skill_text("n", text, "body");
            let (_, description) = parse_skill_text(&rendered).unwrap();
            assert_eq!(
                description,
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
        assert_eq!(folder_name("Code Review").unwrap(), "code-review");
        assert!(folder_name("../up").is_err());
        assert!(folder_name("").is_err());
    }

    #[test]
    fn renaming_rewrites_only_the_name_line() {
        let text = "---\nname: old\ndescription: d\n---\n\nbody\n";
        assert_eq!(
            with_front_matter_name(text, "new one").unwrap(),
            "---\nname: new one\ndescription: d\n---\n\nbody\n"
        );
        assert!(with_front_matter_name("no front matter", "x").is_err());
    }

    #[test]
    fn refusals_are_phrases_with_the_english_they_had() {
        let unusable = folder_name("../up").unwrap_err();
        assert_eq!(unusable.code(), ErrorCode::InvalidInput);
        assert_eq!(
            unusable.phrase(),
            Some(&Phrase::SkillNameUnusable {
                name: "../up".into()
            })
        );
        assert_eq!(
            unusable.to_string(),
            "\"../up\" is not a usable skill name: use letters, digits, spaces, '-', '_' or '.' (at most 64)"
        );
        let open = with_front_matter_name("---\nname: a\n", "b").unwrap_err();
        assert_eq!(open.phrase(), Some(&Phrase::SkillFrontMatterUnclosed));
        assert_eq!(
            open.to_string(),
            "the SKILL.md's front matter is not closed"
        );
    }
}
