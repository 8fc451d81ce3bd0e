//! The config.toml keys this crate reads. memo-config keeps them untouched in
//! `Config::extra`; a wrong type is reported as a problem and ignored, because a typo in
//! an optional list must not stop a session from starting.

use std::path::Path;

use memo_protocol::ContextProblem;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextConfig {
    /// Extra context files: a bare name (`CONTEXT.md`) is looked for in every directory
    /// from the workspace root to the cwd; a path is relative to the workspace root.
    pub context_files: Vec<String>,
    /// When set, only these skills are active.
    pub active_skills: Option<Vec<String>>,
    /// Instruction file names Gemini CLI users chose (`context.fileName` in
    /// `~/.gemini/settings.json` or the project's), looked for like AGENTS.md; never
    /// reported missing, since they are another agent's setting.
    pub other_agent_names: Vec<String>,
    /// Context files of the Gemini CLI extensions that count here (extension name, file),
    /// read after the Memo home's and before the project's, as Gemini CLI orders them.
    pub extension_files: Vec<(String, std::path::PathBuf)>,
    /// The config file, for messages.
    pub source: String,
}

impl ContextConfig {
    pub fn from_extra(
        extra: &toml::Table,
        config_path: &Path,
    ) -> (ContextConfig, Vec<ContextProblem>) {
        let source = config_path.display().to_string();
        let mut problems = Vec::new();
        let context_files =
            string_list(extra, "context_files", &source, &mut problems).unwrap_or_default();
        let active_skills = string_list(extra, "active_skills", &source, &mut problems);
        (
            ContextConfig {
                context_files,
                active_skills,
                source,
                other_agent_names: Vec::new(),
                extension_files: Vec::new(),
            },
            problems,
        )
    }
}

fn string_list(
    table: &toml::Table,
    key: &str,
    source: &str,
    problems: &mut Vec<ContextProblem>,
) -> Option<Vec<String>> {
    let value = table.get(key)?;
    let problem = |problems: &mut Vec<ContextProblem>, what: String| {
        problems.push(ContextProblem {
            path: source.to_owned(),
            message: format!("{key}: {what}; the setting is ignored"),
        })
    };
    let Some(items) = value.as_array() else {
        problem(
            problems,
            format!("expected a list of strings, got {}", value.type_str()),
        );
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item.as_str() {
            Some(s) if !s.trim().is_empty() => out.push(s.trim().to_owned()),
            _ => {
                problem(
                    problems,
                    format!("every entry must be a non-empty string, got {item}"),
                );
                return None;
            }
        }
    }
    Some(out)
}

/// Gemini CLI's `context.fileName` (a name or a list; the older top-level
/// `contextFileName` too) in the settings files given, bare names only, without repeats.
pub fn gemini_context_names(files: &[std::path::PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let value = json
            .get("context")
            .and_then(|c| c.get("fileName"))
            .or_else(|| json.get("contextFileName"));
        let names: Vec<&str> = match value {
            Some(serde_json::Value::String(name)) => vec![name.as_str()],
            Some(serde_json::Value::Array(items)) => {
                items.iter().filter_map(serde_json::Value::as_str).collect()
            }
            _ => Vec::new(),
        };
        for name in names.into_iter().map(str::trim) {
            let bare =
                !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != "..";
            if bare && !out.iter().any(|n| n == name) {
                out.push(name.to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_read_and_bad_types_reported() {
        let extra: toml::Table =
            toml::from_str("context_files = [\"CONTEXT.md\"]\nactive_skills = [\"pdf\"]").unwrap();
        let (cfg, problems) = ContextConfig::from_extra(&extra, Path::new("/h/config.toml"));
        assert!(problems.is_empty());
        assert_eq!(cfg.context_files, vec!["CONTEXT.md"]);
        assert_eq!(cfg.active_skills, Some(vec!["pdf".to_owned()]));

        let extra: toml::Table =
            toml::from_str("context_files = \"x\"\nactive_skills = [1]").unwrap();
        let (cfg, problems) = ContextConfig::from_extra(&extra, Path::new("/h/config.toml"));
        assert!(cfg.context_files.is_empty());
        assert_eq!(cfg.active_skills, None);
        assert_eq!(problems.len(), 2);
        assert!(problems[0]
            .message
            .starts_with("context_files: expected a list"));
    }
}
