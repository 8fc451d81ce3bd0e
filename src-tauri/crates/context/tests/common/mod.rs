//! A fixture workspace: a Memo home and a git project with nested AGENTS.md files,
//! skills in four roots and commands in every supported folder.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use memo_context::{LoadOptions, WorkspaceContext};
use memo_model::ToolSpec;
use serde_json::json;

pub struct Fixture {
    pub dir: tempfile::TempDir,
    /// Whether the project folder is trusted (its `.memo/SYSTEM.md` applies).
    pub trusted: bool,
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps for {name}.\n")
}

impl Fixture {
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let f = Fixture { dir, trusted: true };
        let home = f.home();
        let project = f.project();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(f.cwd()).unwrap();
        std::fs::create_dir_all(f.user_home()).unwrap();

        write(&home.join("SOUL.md"), "Be direct. No compliments.");
        write(&home.join("AGENTS.md"), "Always run the formatter.");
        write(&home.join("USER.md"), "<!-- nothing yet -->");
        write(&home.join("MEMORY.md"), "The user's name is Ada.");
        write(
            &project.join("AGENTS.md"),
            "# Project rules\nUse cargo nextest.",
        );
        write(&project.join("CLAUDE.md"), "Prefer small commits.");
        write(&project.join("crates/AGENTS.md"), "Crates deny unwrap.");
        write(
            &f.cwd().join("AGENTS.md"),
            "The engine has no Tauri dependency.",
        );

        write(
            &home.join("skills/release-notes/SKILL.md"),
            &skill("release-notes", "Draft release notes from commits."),
        );
        write(
            &home.join("skills/review/SKILL.md"),
            &skill("review", "User-level review checklist."),
        );
        write(
            &project.join(".agents/skills/review/SKILL.md"),
            &skill("review", "Project review checklist."),
        );
        write(
            &project.join(".claude/skills/pdf/SKILL.md"),
            &skill("pdf", "Fill in PDF forms."),
        );
        write(
            &project.join(".codex/skills/group/deploy/SKILL.md"),
            &skill("deploy", "Deploy to staging."),
        );
        write(
            &project.join(".cursor/skills/broken/SKILL.md"),
            "---\nname: broken\n",
        );
        write(
            &project.join(".cursor/skills/nofm/SKILL.md"),
            "# No front matter\n",
        );
        f
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home/.memo")
    }
    pub fn user_home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    pub fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }
    pub fn cwd(&self) -> PathBuf {
        self.project().join("crates/engine")
    }

    pub fn context_with(&self, config: &str) -> WorkspaceContext {
        let extra: toml::Table = toml::from_str(config).unwrap();
        let home = self.home();
        let user_home = self.user_home();
        WorkspaceContext::load(LoadOptions {
            cwd: &self.cwd(),
            memo_home: Some(&home),
            user_home: Some(&user_home),
            config_extra: &extra,
            config_path: &home.join("config.toml"),
            detect_env: false,
            plugins: Default::default(),
            project_trusted: self.trusted,
        })
    }

    pub fn context(&self) -> WorkspaceContext {
        self.context_with("")
    }

    /// Replaces the temporary directory with a fixed marker.
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.dir.path().display().to_string(), "<TMP>")
    }
}

pub fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "read_file".into(),
            description: "Reads a text file.".into(),
            input_schema: json!({"type":"object","properties":{"file_path":{"type":"string"},"limit":{"type":"integer"}},"required":["file_path"]}),
        },
        ToolSpec {
            name: "mcp__github__create_issue".into(),
            description: "Creates a GitHub issue.".into(),
            input_schema: json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}),
        },
        ToolSpec {
            name: "read_skill".into(),
            description: "Loads a skill's instructions.".into(),
            input_schema: json!({"type":"object","properties":{"name":{"type":"string"},"path":{"type":"string"}}}),
        },
    ]
}
