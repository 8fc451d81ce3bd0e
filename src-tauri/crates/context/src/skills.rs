//! Skills: `SKILL.md` files whose front matter names and describes them. They are found in
//! the Memo home, other agents' user folders (`~/.claude/skills`, `~/.codex/skills`,
//! `~/.agents/skills`), the project's `.agents/skills`, and every other
//! `<project>/.<agent>/skills` (`.claude`, `.codex`, `.cursor`...), so skills written for
//! other agents work unchanged.
//! An installed plugin's skills (`skills/<name>/SKILL.md`) are named `plugin:name`; the
//! plugin's enable switch decides whether they are there, so `active_skills` leaves them
//! alone.
//! Only names and descriptions go into the prompt; a body is read when the model asks for
//! it (`read_skill`) or the user writes `$name`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use memo_protocol::ContextProblem;
use yaml_rust2::{Yaml, YamlLoader};

use crate::error::ContextError;
use crate::plugins::NamespacedPath;
use crate::text::split_front_matter;

/// A description longer than this is cut in the listing: it is paid on every request.
const MAX_DESCRIPTION_CHARS: usize = 1024;
/// How deep below a skills root a SKILL.md is looked for (`root/group/name/SKILL.md`).
const MAX_DEPTH: usize = 3;

/// Skills that ship with Memo, overridable by a user or project skill of the same name.
const BUILTIN_SKILLS: &[(&str, &str)] = &[(
    "skill-creator",
    include_str!("../../../../prompts/skills/skill-creator/SKILL.md"),
)];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkillScope {
    /// Wins name clashes for `$name`: the project knows best what it means.
    Project,
    User,
    /// Another agent's user folder (`~/.claude/skills`...): read as is, never written.
    OtherAgent,
    /// An installed plugin's; named `plugin:skill`, never written.
    Plugin,
    Builtin,
}

/// Other agents' user-level skill folders, relative to the OS home folder.
pub const OTHER_AGENT_SKILL_DIRS: [&str; 3] = [".claude/skills", ".codex/skills", ".agents/skills"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillSource {
    File(PathBuf),
    Builtin(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    /// One line, as listed in the prompt.
    pub description: String,
    pub scope: SkillScope,
    pub source: SkillSource,
}

impl Skill {
    /// The path shown to the model and accepted by `read_skill`.
    pub fn display_path(&self) -> String {
        match &self.source {
            SkillSource::File(path) => path.display().to_string(),
            SkillSource::Builtin(name) => format!("builtin:{name}/SKILL.md"),
        }
    }

    /// `$name` matches the name itself or its lowercase, hyphenated form ("Code Review"
    /// is `$code-review`).
    pub fn key(&self) -> String {
        mention_key(&self.name)
    }

    /// The instructions without front matter.
    pub fn read_body(&self) -> Result<String, ContextError> {
        let text = match &self.source {
            SkillSource::File(path) => {
                std::fs::read_to_string(path).map_err(|e| ContextError::unreadable_at(path, &e))?
            }
            SkillSource::Builtin(name) => BUILTIN_SKILLS
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| (*t).to_owned())
                .ok_or_else(|| ContextError::UnknownBuiltinSkill((*name).to_owned()))?,
        };
        let parts = split_front_matter(&text).map_err(|e| e.in_file(self.display_path()))?;
        Ok(parts.body.trim().to_owned())
    }

    /// The directory relative paths in the skill refer to.
    pub fn base_dir(&self) -> Option<&Path> {
        match &self.source {
            SkillSource::File(path) => path.parent(),
            SkillSource::Builtin(_) => None,
        }
    }
}

fn mention_key(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

/// `active_skills` from config: only these skills are listed and loadable. Each entry is
/// a skill's name, or (as Memo Code writes them) the path of its SKILL.md or its folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActiveSkills {
    pub names: Vec<String>,
    /// The config file, for problems.
    pub config_path: String,
}

/// An entry of `active_skills` that names a file or folder rather than a skill.
fn is_path_entry(entry: &str) -> bool {
    entry.contains('/') || entry.contains('\\') || entry.to_lowercase().ends_with(".md")
}

/// A path as compared: canonical when it exists, with `~/` expanded, and the SKILL.md's
/// folder standing for the file.
fn comparable_path(path: &Path, user_home: Option<&Path>) -> PathBuf {
    let expanded = match (path.strip_prefix("~"), user_home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    };
    let canonical = std::fs::canonicalize(&expanded).unwrap_or(expanded);
    match canonical.file_name() {
        Some(name) if name.eq_ignore_ascii_case("SKILL.md") => canonical
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or(canonical),
        _ => canonical,
    }
}

impl ActiveSkills {
    /// Whether `skill` is one of the entries, by name or by path.
    pub fn allows(&self, skill: &Skill, user_home: Option<&Path>) -> bool {
        self.names
            .iter()
            .any(|entry| Self::entry_names(entry, skill, user_home))
    }

    /// Whether one `active_skills` entry (a name or a path) names `skill`.
    pub fn entry_names(entry: &str, skill: &Skill, user_home: Option<&Path>) -> bool {
        if !is_path_entry(entry) {
            return mention_key(entry) == skill.key();
        }
        match &skill.source {
            SkillSource::File(path) => {
                comparable_path(Path::new(entry.trim()), user_home)
                    == comparable_path(path, user_home)
            }
            SkillSource::Builtin(_) => false,
        }
    }
}

/// The outcome of looking a skill up by name.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup<'a> {
    Found(&'a Skill),
    /// Several skills share the name; `read_skill` then needs a path.
    Ambiguous(Vec<&'a Skill>),
    Missing,
}

/// The skills of a session, in listing order.
#[derive(Debug, Clone, Default)]
pub struct SkillSet {
    skills: Vec<Skill>,
    problems: Vec<ContextProblem>,
}

/// Where skills are searched.
#[derive(Debug, Clone, Default)]
pub struct SkillRoots {
    pub memo_home: Option<PathBuf>,
    /// The OS home folder, for other agents' user-level skills.
    pub user_home: Option<PathBuf>,
    pub project_root: Option<PathBuf>,
    /// Enabled plugins' skill folders; their skills are named `namespace:name`.
    pub plugins: Vec<NamespacedPath>,
}

impl SkillRoots {
    /// The roots in listing order: user, other agents' user folders, `.agents`, then
    /// every other `.<name>/skills` of the project.
    pub fn dirs(&self) -> Vec<(PathBuf, SkillScope)> {
        let mut dirs = Vec::new();
        if let Some(home) = &self.memo_home {
            dirs.push((home.join("skills"), SkillScope::User));
        }
        if let Some(home) = &self.user_home {
            for dir in OTHER_AGENT_SKILL_DIRS {
                dirs.push((home.join(dir), SkillScope::OtherAgent));
            }
        }
        if let Some(root) = &self.project_root {
            dirs.push((root.join(".agents").join("skills"), SkillScope::Project));
            let mut hidden: Vec<PathBuf> = std::fs::read_dir(root)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with('.') && name != ".agents" && name != ".git"
                })
                .map(|e| e.path().join("skills"))
                .filter(|p| p.is_dir())
                .collect();
            hidden.sort();
            dirs.extend(hidden.into_iter().map(|p| (p, SkillScope::Project)));
        }
        dirs
    }
}

impl SkillSet {
    /// Finds every skill; `active` (config `active_skills`) keeps only the named ones.
    /// Broken files are reported and skipped.
    pub fn discover(roots: &SkillRoots, active: Option<&ActiveSkills>) -> SkillSet {
        let mut set = SkillSet::default();
        let mut seen_roots = HashSet::new();
        let mut seen_files = HashSet::new();
        for (dir, scope) in roots.dirs() {
            let Ok(real) = std::fs::canonicalize(&dir) else {
                continue;
            };
            // The Memo home can also be a project's `.memo` folder; read it once.
            if !seen_roots.insert(real) {
                continue;
            }
            let mut files = Vec::new();
            find_skill_files(&dir, MAX_DEPTH, &mut files);
            for file in files {
                if !seen_files.insert(crate::text::file_id(&file)) {
                    continue;
                }
                match parse_skill_file(&file) {
                    Ok((name, description)) => set.skills.push(Skill {
                        name,
                        description,
                        scope,
                        source: SkillSource::File(file),
                    }),
                    Err(reason) => set.problems.push(ContextProblem {
                        path: file.display().to_string(),
                        message: format!("skill skipped: {reason}"),
                    }),
                }
            }
        }
        for plugin in &roots.plugins {
            let mut files = Vec::new();
            find_skill_files(&plugin.path, MAX_DEPTH, &mut files);
            for file in files {
                if !seen_files.insert(crate::text::file_id(&file)) {
                    continue;
                }
                match parse_skill_file(&file) {
                    Ok((name, description)) => set.skills.push(Skill {
                        name: format!("{}:{name}", plugin.namespace),
                        description,
                        scope: SkillScope::Plugin,
                        source: SkillSource::File(file),
                    }),
                    Err(reason) => set.problems.push(ContextProblem {
                        path: file.display().to_string(),
                        message: format!("skill skipped: {reason}"),
                    }),
                }
            }
        }
        for (name, text) in BUILTIN_SKILLS {
            let overridden = set.skills.iter().any(|s| s.key() == mention_key(name));
            if overridden {
                continue;
            }
            if let Ok((skill_name, description)) = parse_skill_text(text) {
                set.skills.push(Skill {
                    name: skill_name,
                    description,
                    scope: SkillScope::Builtin,
                    source: SkillSource::Builtin(name),
                });
            }
        }
        if let Some(active) = active {
            set.keep_active(active, roots.user_home.as_deref());
        }
        set.report_collisions();
        set
    }

    /// A set from explicit skills (tests, hosts with their own discovery).
    pub fn from_skills(skills: Vec<Skill>) -> SkillSet {
        SkillSet {
            skills,
            problems: Vec::new(),
        }
    }

    fn keep_active(&mut self, active: &ActiveSkills, user_home: Option<&Path>) {
        for name in &active.names {
            if !self
                .skills
                .iter()
                .any(|s| ActiveSkills::entry_names(name, s, user_home))
            {
                self.problems.push(ContextProblem {
                    path: active.config_path.clone(),
                    message: format!("active_skills names \"{name}\", but no such skill was found"),
                });
            }
        }
        self.skills
            .retain(|s| s.scope == SkillScope::Plugin || active.allows(s, user_home));
    }

    fn report_collisions(&mut self) {
        // Grouped by key in one pass: comparing every pair costs seconds' worth of
        // allocations once a user has hundreds of skills.
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (i, skill) in self.skills.iter().enumerate() {
            let key = skill.key();
            match index.get(&key) {
                Some(&g) => groups[g].1.push(i),
                None => {
                    index.insert(key.clone(), groups.len());
                    groups.push((key, vec![i]));
                }
            }
        }
        for (key, members) in groups.into_iter().filter(|(_, m)| m.len() > 1) {
            let paths: Vec<String> = members
                .iter()
                .map(|&i| self.skills[i].display_path())
                .collect();
            self.problems.push(ContextProblem {
                path: paths[0].clone(),
                message: format!(
                    "{} skills are named \"{}\" ({}); `${key}` loads the project's, read_skill needs a path",
                    members.len(),
                    self.skills[members[0]].name,
                    paths.join(", "),
                ),
            });
        }
    }

    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    pub fn problems(&self) -> &[ContextProblem] {
        &self.problems
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    pub fn has_collisions(&self) -> bool {
        let mut keys = HashSet::new();
        self.skills.iter().any(|s| !keys.insert(s.key()))
    }

    /// Finds skills by name (exact, or the `$name` form).
    pub fn lookup(&self, name: &str) -> Lookup<'_> {
        let key = mention_key(name.trim_start_matches('$'));
        let matches: Vec<&Skill> = self.skills.iter().filter(|s| s.key() == key).collect();
        match matches.len() {
            0 => Lookup::Missing,
            1 => Lookup::Found(matches[0]),
            _ => Lookup::Ambiguous(matches),
        }
    }

    /// The skill a `$name` in the user's message means: on a clash, the project's.
    pub fn for_mention(&self, name: &str) -> Option<&Skill> {
        match self.lookup(name) {
            Lookup::Found(skill) => Some(skill),
            Lookup::Ambiguous(skills) => skills.into_iter().min_by_key(|s| s.scope),
            Lookup::Missing => None,
        }
    }

    /// A listed skill by its path (as displayed, or any path naming the same file).
    pub fn by_path(&self, path: &str) -> Option<&Skill> {
        let wanted = Path::new(path)
            .exists()
            .then(|| crate::text::file_id(Path::new(path)));
        self.skills.iter().find(|s| {
            s.display_path() == path
                || match (&s.source, &wanted) {
                    (SkillSource::File(p), Some(w)) => &crate::text::file_id(p) == w,
                    _ => false,
                }
        })
    }
}

fn find_skill_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let candidate = dir.join("SKILL.md");
    if candidate.is_file() {
        out.push(candidate);
        return;
    }
    if depth == 0 {
        return;
    }
    // The entry's own type costs no extra stat; only symlinks are followed to check.
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| match e.file_type() {
            Ok(t) if t.is_symlink() => e.path().is_dir(),
            Ok(t) => t.is_dir(),
            Err(_) => false,
        })
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        find_skill_files(&sub, depth - 1, out);
    }
}

fn parse_skill_file(path: &Path) -> Result<(String, String), ContextError> {
    let text = std::fs::read_to_string(path).map_err(|e| ContextError::unreadable(&e))?;
    parse_skill_text(&text)
}

/// Name and one-line description from a SKILL.md's front matter.
pub fn parse_skill_text(text: &str) -> Result<(String, String), ContextError> {
    let parts = split_front_matter(text)?;
    let yaml = parts.yaml.ok_or(ContextError::NoFrontMatter)?;
    let map = parse_yaml_map(yaml)?;
    let name = string_field(&map, "name")?;
    let description = string_field(&map, "description")?;
    let description = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let description = if description.chars().count() > MAX_DESCRIPTION_CHARS {
        let cut: String = description.chars().take(MAX_DESCRIPTION_CHARS).collect();
        format!("{cut}…")
    } else {
        description
    };
    Ok((name, description))
}

/// The front matter as a YAML mapping; anything else is a reported error.
pub fn parse_yaml_map(yaml: &str) -> Result<yaml_rust2::yaml::Hash, ContextError> {
    let docs =
        YamlLoader::load_from_str(yaml).map_err(|e| ContextError::InvalidYaml(e.to_string()))?;
    match docs.into_iter().next() {
        Some(Yaml::Hash(map)) => Ok(map),
        Some(Yaml::Null) | None => Err(ContextError::EmptyFrontMatter),
        Some(_) => Err(ContextError::NotAMapping),
    }
}

fn string_field(map: &yaml_rust2::yaml::Hash, key: &str) -> Result<String, ContextError> {
    match map.get(&Yaml::String(key.to_owned())) {
        Some(Yaml::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
        Some(Yaml::String(_)) | Some(Yaml::Null) | None => {
            Err(ContextError::MissingField(key.to_owned()))
        }
        Some(_) => Err(ContextError::FieldNotText(key.to_owned())),
    }
}

/// An optional text field of front matter (`description` of a command...).
pub fn optional_string(map: &yaml_rust2::yaml::Hash, key: &str) -> Option<String> {
    match map.get(&Yaml::String(key.to_owned())) {
        Some(Yaml::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_gives_name_and_a_one_line_description() {
        let (name, desc) = parse_skill_text(
            "---\nname: Code Review\ndescription: >\n  Reviews\n  diffs.\n---\nbody",
        )
        .unwrap();
        assert_eq!(name, "Code Review");
        assert_eq!(desc, "Reviews diffs.");
    }

    #[test]
    fn broken_front_matter_has_a_reason() {
        for (text, reason) in [
            ("# no front matter", "no front matter"),
            ("---\nname: a\n", "never closed"),
            ("---\nname: [a\n---\n", "invalid YAML"),
            ("---\n- a\n---\n", "not a mapping"),
            ("---\nname: a\n---\n", "no description"),
            ("---\nname: 3\ndescription: d\n---\n", "name is not text"),
        ] {
            let err = parse_skill_text(text).unwrap_err().to_string();
            assert!(err.contains(reason), "{text:?}: {err}");
        }
    }

    #[test]
    fn mention_keys_are_lowercase_and_hyphenated() {
        assert_eq!(mention_key(" Code  Review "), "code-review");
        assert_eq!(mention_key("pdf"), "pdf");
    }

    /// The settings page shows a built-in skill's description from the UI's
    /// catalogs (the SKILL.md's English is for the model): every built-in skill
    /// needs its row there in every language, and the English row must say what
    /// the SKILL.md says so the two never drift apart.
    #[test]
    fn every_builtin_skill_is_described_in_every_ui_catalog() {
        let locales =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui/src/i18n/locales");
        let mut languages = 0;
        for entry in std::fs::read_dir(&locales).unwrap() {
            let folder = entry.unwrap().path();
            let text = std::fs::read_to_string(folder.join("settings.json")).unwrap();
            let catalog: serde_json::Value = serde_json::from_str(&text).unwrap();
            for (name, skill_text) in BUILTIN_SKILLS {
                let shown = catalog["skills"]["builtinDescription"][name].as_str();
                let shown = shown.unwrap_or_else(|| {
                    panic!("{} has no description for {name}", folder.display())
                });
                assert!(!shown.trim().is_empty(), "{}: {name}", folder.display());
                if folder.ends_with("en") {
                    assert_eq!(
                        shown,
                        parse_skill_text(skill_text).unwrap().1,
                        "en must match {name}'s SKILL.md"
                    );
                }
            }
            languages += 1;
        }
        assert!(
            languages >= 2,
            "found {languages} catalogs under {}",
            locales.display()
        );
    }

    #[test]
    fn the_builtin_skill_creator_is_always_there() {
        let set = SkillSet::discover(&SkillRoots::default(), None);
        let Lookup::Found(skill) = set.lookup("skill-creator") else {
            panic!("{:?}", set.skills());
        };
        assert_eq!(skill.display_path(), "builtin:skill-creator/SKILL.md");
        assert!(skill.read_body().unwrap().starts_with("# Creating a skill"));
    }
}
