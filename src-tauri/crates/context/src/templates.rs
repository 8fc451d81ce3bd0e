//! Prompt templates: Markdown files under the repository's `prompts/`, embedded at build
//! time, each replaceable by a file of the same name in `$MEMO_HOME/prompts/`. They are
//! rendered with minijinja (`{{ cwd }}`, `{% if git %}`...), so a user override can use
//! the same variables. An override that does not render is reported and the built-in
//! template is used instead: a typo in a user's file must not leave the agent without
//! instructions.

use std::path::{Path, PathBuf};

use memo_protocol::ContextProblem;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

/// Every template Memo ships, by the file name an override uses.
pub const BUILTIN: &[(&str, &str)] = &[
    ("base.md", include_str!("../../../../prompts/base.md")),
    (
        "base_compact.md",
        include_str!("../../../../prompts/base_compact.md"),
    ),
    (
        "environment.md",
        include_str!("../../../../prompts/environment.md"),
    ),
    (
        "session_context.md",
        include_str!("../../../../prompts/session_context.md"),
    ),
    ("soul.md", include_str!("../../../../prompts/soul.md")),
    (
        "project_context.md",
        include_str!("../../../../prompts/project_context.md"),
    ),
    ("skills.md", include_str!("../../../../prompts/skills.md")),
    (
        "compaction.md",
        include_str!("../../../../prompts/compaction.md"),
    ),
    (
        "compaction_request.md",
        include_str!("../../../../prompts/compaction_request.md"),
    ),
    (
        "subagent.md",
        include_str!("../../../../prompts/subagent.md"),
    ),
    (
        "codebase_investigator.md",
        include_str!("../../../../prompts/codebase_investigator.md"),
    ),
    ("init.md", include_str!("../../../../prompts/init.md")),
];

/// A template's text and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// `builtin:<name>` or the override's path.
    pub source: String,
}

/// Looks templates up (override first) and renders them.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    override_dir: Option<PathBuf>,
}

impl Templates {
    /// Overrides come from `<memo_home>/prompts/`.
    pub fn new(memo_home: Option<&Path>) -> Self {
        Self {
            override_dir: memo_home.map(|home| home.join("prompts")),
        }
    }

    /// Only the embedded templates (tests, benchmarks).
    pub fn builtin_only() -> Self {
        Self::default()
    }

    /// Renders `name` with `vars`. Problems (unreadable or broken override) are pushed
    /// to `problems`; the result always has text.
    pub fn render(
        &self,
        name: &str,
        vars: &impl Serialize,
        problems: &mut Vec<ContextProblem>,
    ) -> Rendered {
        if let Some(path) = self.override_dir.as_ref().map(|d| d.join(name)) {
            match std::fs::read_to_string(&path) {
                Ok(text) => match render_str(&text, vars) {
                    Ok(rendered) => {
                        return Rendered {
                            text: rendered,
                            source: path.display().to_string(),
                        }
                    }
                    Err(err) => problems.push(ContextProblem {
                        path: path.display().to_string(),
                        message: format!(
                            "prompt template does not render ({err}); using the built-in {name}"
                        ),
                    }),
                },
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => problems.push(ContextProblem {
                    path: path.display().to_string(),
                    message: format!("cannot read prompt override ({err}); using the built-in"),
                }),
            }
        }
        let source = format!("builtin:{name}");
        let Some(text) = builtin(name) else {
            problems.push(ContextProblem {
                path: source.clone(),
                message: "no such built-in template".into(),
            });
            return Rendered {
                text: String::new(),
                source,
            };
        };
        match render_str(text, vars) {
            Ok(rendered) => Rendered {
                text: rendered,
                source,
            },
            Err(err) => {
                // A bug in a shipped template; the raw text still carries the instructions.
                problems.push(ContextProblem {
                    path: source.clone(),
                    message: format!("built-in template does not render: {err}"),
                });
                Rendered {
                    text: text.to_owned(),
                    source,
                }
            }
        }
    }
}

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

fn render_str(template: &str, vars: &impl Serialize) -> Result<String, minijinja::Error> {
    let mut env = Environment::new();
    // A misspelt variable is an error to report, not a silent blank in the prompt.
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.render_str(template, vars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::environment::EnvFacts;

    #[test]
    fn every_builtin_template_renders_with_the_standard_variables() {
        let facts = EnvFacts::fixed(Path::new("/w"), Path::new("/w"));
        let vars = serde_json::json!({
            "env": facts,
            "model": "m",
            "path": "/p",
            "content": "c",
            "files": [],
            "skills": [],
            "instructions": null,
            "file_name": "AGENTS.md",
            "has_collisions": false,
        });
        let templates = Templates::builtin_only();
        for (name, _) in BUILTIN {
            let mut problems = Vec::new();
            let out = templates.render(name, &vars, &mut problems);
            assert!(problems.is_empty(), "{name}: {problems:?}");
            assert!(!out.text.trim().is_empty(), "{name}");
            assert_eq!(out.source, format!("builtin:{name}"));
        }
    }

    #[test]
    fn an_override_wins_and_a_broken_one_falls_back_with_a_problem() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join("prompts")).unwrap();
        let vars = serde_json::json!({"env": EnvFacts::fixed(Path::new("/w"), Path::new("/w")), "model": "m"});
        let templates = Templates::new(Some(home.path()));
        std::fs::write(
            home.path().join("prompts/base.md"),
            "Custom for {{ env.cwd }}\n",
        )
        .unwrap();
        let mut problems = Vec::new();
        let out = templates.render("base.md", &vars, &mut problems);
        assert_eq!(out.text, "Custom for /w\n");
        assert!(out.source.ends_with("prompts/base.md"));
        assert!(problems.is_empty());

        std::fs::write(home.path().join("prompts/base.md"), "{{ nope }}").unwrap();
        let out = templates.render("base.md", &vars, &mut problems);
        assert_eq!(out.source, "builtin:base.md");
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.contains("does not render"),
            "{problems:?}"
        );
    }
}
