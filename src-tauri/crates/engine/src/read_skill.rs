//! `read_skill`: loads a listed skill's instructions on demand. The prompt carries only
//! names and descriptions; this is how the model gets the body when a task needs it.
//! Only skills of the session's list can be read here (by name, or by path when two share
//! a name); other files go through read_file and its path policy.

use std::sync::Arc;

use futures::future::BoxFuture;
use memo_context::input::skill_block;
use memo_context::{Lookup, SkillSet};
use memo_protocol::RiskLevel;
use serde::Deserialize;
use serde_json::json;

use crate::tools::{parse_args, Tool, ToolContext, ToolError, ToolResult};

pub const NAME: &str = "read_skill";

pub struct ReadSkillTool {
    /// The skills as they are at the call (a session's: found again each time).
    skills: Box<dyn Fn() -> Arc<SkillSet> + Send + Sync>,
}

impl ReadSkillTool {
    pub fn new(skills: Arc<SkillSet>) -> Self {
        Self {
            skills: Box::new(move || skills.clone()),
        }
    }

    /// Reads the workspace's skills as they are at each call, so one created or edited in
    /// settings is readable in a session that is already open.
    pub fn live(workspace: Arc<memo_context::WorkspaceContext>) -> Self {
        Self {
            skills: Box::new(move || workspace.skills_now()),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    path: Option<String>,
}

impl Tool for ReadSkillTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Loads a listed skill's instructions: its `name`, or its `path` when names repeat."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "path": {"type": "string"}
            },
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let result = parse_args::<Input>(NAME, args).and_then(|input| self.read(input));
        Box::pin(async move { result.map(Into::into) })
    }
}

impl ReadSkillTool {
    fn read(&self, input: Input) -> Result<String, ToolError> {
        let skills = (self.skills)();
        let skill = match (input.path.as_deref(), input.name.as_deref()) {
            (Some(path), _) if !path.trim().is_empty() => {
                skills.by_path(path.trim()).ok_or_else(|| {
                    ToolError::invalid_input(format!(
                        "no listed skill has the path {path}; use a path from the Skills list"
                    ))
                })?
            }
            (_, Some(name)) if !name.trim().is_empty() => match skills.lookup(name) {
                Lookup::Found(skill) => skill,
                Lookup::Ambiguous(skills) => {
                    let paths: Vec<String> = skills.iter().map(|s| s.display_path()).collect();
                    return Err(ToolError::invalid_input(format!(
                        "{} skills are named \"{name}\"; call read_skill with one of these paths: {}",
                        skills.len(),
                        paths.join(", ")
                    )));
                }
                Lookup::Missing => {
                    let names: Vec<&str> =
                        skills.skills().iter().map(|s| s.name.as_str()).collect();
                    return Err(ToolError::invalid_input(format!(
                        "no skill named \"{name}\"; available: {}",
                        if names.is_empty() {
                            "none".to_owned()
                        } else {
                            names.join(", ")
                        }
                    )));
                }
            },
            _ => return Err(ToolError::invalid_input("give the skill's name or path")),
        };
        let body = skill
            .read_body()
            .map_err(|e| ToolError::failed(e.to_string()))?;
        Ok(skill_block(skill, &body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_context::{Skill, SkillScope, SkillSource};

    fn set(dir: &std::path::Path) -> Arc<SkillSet> {
        let mut skills = Vec::new();
        for (sub, name, scope) in [
            ("a", "review", SkillScope::User),
            ("b", "review", SkillScope::Project),
            ("c", "pdf", SkillScope::User),
        ] {
            let path = dir.join(sub).join("SKILL.md");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(
                &path,
                format!("---\nname: {name}\ndescription: d\n---\nbody of {sub}\n"),
            )
            .unwrap();
            skills.push(Skill {
                name: name.into(),
                description: "d".into(),
                scope,
                source: SkillSource::File(path),
            });
        }
        Arc::new(SkillSet::from_skills(skills))
    }

    async fn run(tool: &ReadSkillTool, args: serde_json::Value) -> ToolResult {
        tool.run(ToolContext::for_workspace("/"), args).await
    }

    #[tokio::test]
    async fn by_name_by_path_and_helpful_errors() {
        let dir = tempfile::tempdir().unwrap();
        let tool = ReadSkillTool::new(set(dir.path()));
        let out = run(&tool, json!({"name": "pdf"})).await.unwrap();
        assert!(
            out.content.starts_with("<skill name=\"pdf\""),
            "{}",
            out.content
        );
        assert!(out.content.contains("body of c"));

        let err = run(&tool, json!({"name": "review"})).await.unwrap_err();
        assert!(
            err.message.contains("2 skills are named \"review\""),
            "{}",
            err.message
        );
        let path = dir.path().join("b/SKILL.md").display().to_string();
        let out = run(&tool, json!({"path": path})).await.unwrap();
        assert!(out.content.contains("body of b"));

        let err = run(&tool, json!({"name": "nope"})).await.unwrap_err();
        assert!(
            err.message.contains("available: review, review, pdf"),
            "{}",
            err.message
        );
        let err = run(&tool, json!({"path": "/etc/passwd"}))
            .await
            .unwrap_err();
        assert!(err.message.contains("no listed skill"), "{}", err.message);
        assert!(run(&tool, json!({})).await.is_err());
    }
}
