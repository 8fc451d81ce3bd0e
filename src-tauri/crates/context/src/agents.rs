//! Agent files as Claude Code writes them (`.claude/agents/*.md`): Markdown with front
//! matter `name` and `description` (required), `tools` (a comma-separated string or a
//! list) and `model`, whose body is the agent's instructions. One reader for every place
//! that lists or runs agents, so what settings list is what a session can start.

use std::path::Path;

use yaml_rust2::Yaml;

use crate::skills::parse_yaml_map;
use crate::text::{one_line, split_front_matter};

/// What an agent file may not exceed: a larger one is not instructions but a mistake.
pub const MAX_AGENT_FILE_BYTES: u64 = 256 * 1024;

/// One agent file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentFile {
    pub name: String,
    /// On one line.
    pub description: String,
    /// As the file lists them (`None`: not limited).
    pub tools: Option<Vec<String>>,
    pub model: Option<String>,
    /// The body, trimmed.
    pub instructions: String,
}

/// Reads one agent file; the error says what is wrong with it.
pub fn read_agent_file(path: &Path) -> Result<AgentFile, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read it: {e}"))?
        .len();
    if size > MAX_AGENT_FILE_BYTES {
        return Err(format!(
            "it is {size} bytes; an agent file may have at most {MAX_AGENT_FILE_BYTES}"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy());
    parse_agent_file(&text, stem.as_deref())
}

/// Parses an agent file's text; `file_stem` names an agent whose front matter does not.
pub fn parse_agent_file(text: &str, file_stem: Option<&str>) -> Result<AgentFile, String> {
    let parts = split_front_matter(text).map_err(|e| e.to_string())?;
    let yaml = parts
        .yaml
        .ok_or("it has no front matter (a `---` block with name and description)")?;
    let map = parse_yaml_map(yaml).map_err(|e| e.to_string())?;
    let field = |key: &str| map.get(&Yaml::String(key.into()));
    let name = match (field("name"), file_stem) {
        (Some(Yaml::String(s)), _) => s.trim().to_owned(),
        (None | Some(Yaml::Null), Some(stem)) => stem.to_owned(),
        _ => return Err("its front matter has no `name`".into()),
    };
    if !valid_name(&name) {
        return Err(format!(
            "its name {name:?} may hold only letters, digits, `-`, `_` and `.`"
        ));
    }
    let description = match field("description") {
        Some(Yaml::String(s)) if !s.trim().is_empty() => one_line(s, 1000),
        _ => return Err("its front matter has no `description`".into()),
    };
    let tools = match field("tools") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::String(s)) => Some(
            s.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect(),
        ),
        Some(Yaml::Array(items)) => Some(
            items
                .iter()
                .filter_map(|i| i.as_str())
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect(),
        ),
        Some(_) => return Err("its `tools` is neither a list nor a comma-separated string".into()),
    };
    let model = match field("model") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::String(s)) => Some(s.trim().to_owned()),
        Some(_) => return Err("its `model` is not a string".into()),
    };
    Ok(AgentFile {
        name,
        description,
        tools,
        model,
        instructions: parts.body.trim().to_owned(),
    })
}

/// Names the model types and a namespace joins with `:`; nothing that reads as a path.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews a diff\n  for bugs.\ntools: Read, Grep, Bash\nmodel: inherit\n---\nYou review code.\n";

    #[test]
    fn parses_a_claude_code_agent() {
        let agent = parse_agent_file(REVIEWER, None).unwrap();
        assert_eq!(agent.name, "reviewer");
        assert_eq!(agent.description, "Reviews a diff for bugs.");
        assert_eq!(
            agent.tools,
            Some(vec!["Read".into(), "Grep".into(), "Bash".into()])
        );
        assert_eq!(agent.model.as_deref(), Some("inherit"));
        assert_eq!(agent.instructions, "You review code.");
    }

    #[test]
    fn tools_as_a_list() {
        let text = "---\nname: t\ndescription: d\ntools: [read_file, glob]\n---\nbody";
        let agent = parse_agent_file(text, None).unwrap();
        assert_eq!(agent.tools, Some(vec!["read_file".into(), "glob".into()]));
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let no_front = parse_agent_file("just text", None).unwrap_err();
        assert!(no_front.contains("no front matter"), "{no_front}");
        let no_name = parse_agent_file("---\ndescription: d\n---\n", None);
        assert!(no_name.unwrap_err().contains("no `name`"));
        let path_name = parse_agent_file("---\nname: ../x\ndescription: d\n---\n", None);
        assert!(path_name.unwrap_err().contains("may hold only"));
        let spaced = parse_agent_file("---\nname: code reviewer\ndescription: d\n---\n", None);
        assert!(spaced.unwrap_err().contains("may hold only"));
        let named_by_file = parse_agent_file("---\ndescription: d\n---\n", Some("qa")).unwrap();
        assert_eq!(named_by_file.name, "qa");
        let no_desc = parse_agent_file("---\nname: x\n---\n", None);
        assert!(no_desc.unwrap_err().contains("no `description`"));
    }

    #[test]
    fn a_huge_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.md");
        std::fs::write(&path, "x".repeat(MAX_AGENT_FILE_BYTES as usize + 1)).unwrap();
        assert!(read_agent_file(&path).unwrap_err().contains("at most"));
    }
}
