mod common;

use common::{skill, write, Fixture};
use memo_context::command_files::CommandFileScope;
use memo_context::command_files::{resolve, Resolved};
use memo_context::input::expand;
use memo_context::slash::{self, Builtin};
use memo_context::{AttachLimits, CommandFiles, Lookup};
use memo_protocol::AttachmentKind;

#[test]
fn skills_come_from_four_roots_with_collisions_and_broken_files_reported() {
    let f = Fixture::new();
    let ctx = f.context();
    let names: Vec<(&str, String)> = ctx
        .skills
        .skills()
        .iter()
        .map(|s| (s.name.as_str(), f.redact(&s.display_path())))
        .collect();
    assert_eq!(
        names,
        vec![
            (
                "release-notes",
                "<TMP>/home/.memo/skills/release-notes/SKILL.md".to_owned()
            ),
            (
                "review",
                "<TMP>/home/.memo/skills/review/SKILL.md".to_owned()
            ),
            (
                "review",
                "<TMP>/project/.agents/skills/review/SKILL.md".to_owned()
            ),
            (
                "pdf",
                "<TMP>/project/.claude/skills/pdf/SKILL.md".to_owned()
            ),
            (
                "deploy",
                "<TMP>/project/.codex/skills/group/deploy/SKILL.md".to_owned()
            ),
            ("skill-creator", "builtin:skill-creator/SKILL.md".to_owned()),
        ]
    );
    let problems: Vec<String> = ctx
        .skills
        .problems()
        .iter()
        .map(|p| f.redact(&p.path))
        .collect();
    assert!(problems.contains(&"<TMP>/project/.cursor/skills/broken/SKILL.md".to_owned()));
    assert!(problems.contains(&"<TMP>/project/.cursor/skills/nofm/SKILL.md".to_owned()));

    // By name: ambiguous for read_skill, the project's for `$review`.
    assert!(matches!(ctx.skills.lookup("review"), Lookup::Ambiguous(v) if v.len() == 2));
    let chosen = ctx.skills.for_mention("review").unwrap();
    assert!(chosen.display_path().contains("/project/.agents/"));
    let by_path = ctx
        .skills
        .by_path(
            &f.home()
                .join("skills/review/SKILL.md")
                .display()
                .to_string(),
        )
        .unwrap();
    assert_eq!(by_path.description, "User-level review checklist.");
    assert_eq!(
        by_path.read_body().unwrap(),
        "# review\n\nSteps for review."
    );
}

#[test]
fn active_skills_limit_the_set_and_unknown_names_are_reported() {
    let f = Fixture::new();
    let ctx = f.context_with("active_skills = [\"pdf\", \"Release Notes\", \"ghost\"]");
    let names: Vec<&str> = ctx
        .skills
        .skills()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, vec!["release-notes", "pdf"]);
    assert!(ctx
        .skills
        .problems()
        .iter()
        .any(|p| p.message.contains("\"ghost\"") && p.path.ends_with("config.toml")));
}

#[test]
fn active_skills_written_as_paths_select_those_skills() {
    let f = Fixture::new();
    // Memo Code writes SKILL.md paths; a folder or a `~/` path names the same skill.
    let config = format!(
        "active_skills = [{:?}, {:?}, \"~/nowhere/SKILL.md\"]",
        f.home()
            .join("skills/review/SKILL.md")
            .display()
            .to_string(),
        f.project().join(".claude/skills/pdf").display().to_string(),
    );
    let ctx = f.context_with(&config);
    let paths: Vec<String> = ctx
        .skills
        .skills()
        .iter()
        .map(|s| f.redact(&s.display_path()))
        .collect();
    assert_eq!(
        paths,
        vec![
            "<TMP>/home/.memo/skills/review/SKILL.md",
            "<TMP>/project/.claude/skills/pdf/SKILL.md",
        ]
    );
    let problems: Vec<&str> = ctx
        .skills
        .problems()
        .iter()
        .map(|p| p.message.as_str())
        .collect();
    assert!(
        problems.iter().any(|m| m.contains("~/nowhere/SKILL.md")),
        "{problems:?}"
    );
}

#[test]
fn other_agents_user_skills_are_found_once() {
    let f = Fixture::new();
    write(
        &f.user_home().join(".claude/skills/commit/SKILL.md"),
        &skill("commit", "Write a commit message."),
    );
    write(
        &f.user_home().join(".codex/skills/triage/SKILL.md"),
        &skill("triage", "Triage a bug report."),
    );
    let ctx = f.context();
    let found: Vec<(&str, memo_context::SkillScope)> = ctx
        .skills
        .skills()
        .iter()
        .filter(|s| s.name == "commit" || s.name == "triage")
        .map(|s| (s.name.as_str(), s.scope))
        .collect();
    assert_eq!(
        found,
        vec![
            ("commit", memo_context::SkillScope::OtherAgent),
            ("triage", memo_context::SkillScope::OtherAgent),
        ]
    );
}

#[test]
fn a_user_skill_overrides_the_builtin_one() {
    let f = Fixture::new();
    write(
        &f.home().join("skills/mine/SKILL.md"),
        &skill("skill-creator", "My own creator."),
    );
    let ctx = f.context();
    let Lookup::Found(found) = ctx.skills.lookup("skill-creator") else {
        panic!()
    };
    assert_eq!(found.description, "My own creator.");
}

#[test]
fn dollar_mentions_load_the_skill_body_into_the_message() {
    let f = Fixture::new();
    let ctx = f.context();
    let text = "please $pdf the form and $unknown it";
    let exp = expand(text, text, None, ctx.input_context(AttachLimits::default())).unwrap();
    assert!(exp
        .prompt
        .starts_with("please $pdf the form and $unknown it\n\n<skill name=\"pdf\""));
    assert!(exp.prompt.contains("Steps for pdf."));
    assert!(exp.prompt.contains(&format!(
        "Base directory for relative paths: {}",
        f.project().join(".claude/skills/pdf").display()
    )));
    assert_eq!(exp.attachments.len(), 1);
    assert_eq!(exp.attachments[0].kind, AttachmentKind::Skill);
    assert_eq!(exp.attachments[0].reference, "$pdf");
}

fn commands_fixture(f: &Fixture) -> CommandFiles {
    let p = f.project();
    let h = f.home();
    let u = f.user_home();
    write(&p.join(".claude/commands/openspec/proposal.md"), "---\ndescription: Draft a change proposal\nargument-hint: <what>\n---\nWrite a proposal for: $ARGUMENTS\nFirst word: $1\n");
    write(&p.join(".gemini/commands/git/commit.toml"), "description = \"Commit staged work\"\nprompt = \"Write a commit message. Context: {{args}}\"\n");
    write(
        &p.join(".memo/commands/review.md"),
        "Review the project's diff.",
    );
    write(&h.join("commands/review.md"), "Review (user version).");
    write(
        &h.join("commands/standup.md"),
        "Summarise yesterday's commits.",
    );
    write(&u.join(".claude/commands/explain.md"), "Explain $1 simply.");
    write(
        &u.join(".gemini/commands/plan.toml"),
        "prompt = \"Plan it.\"",
    );
    write(
        &u.join(".gemini/commands/bad.toml"),
        "description = \"no prompt\"",
    );
    write(&u.join(".gemini/commands/worse.toml"), "prompt = ");
    write(&p.join(".claude/commands/help.md"), "Shadowing a built-in.");
    write(
        &p.join(".claude/commands/broken.md"),
        "---\ndescription: [oops\n---\nbody",
    );
    CommandFiles::discover(&f.context().command_file_roots())
}

#[test]
fn claude_and_gemini_commands_are_namespaced_and_take_arguments() {
    let f = Fixture::new();
    let set = commands_fixture(&f);
    let names: Vec<&str> = set.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "explain",
            "git:commit",
            "openspec:proposal",
            "plan",
            "review",
            "standup"
        ]
    );

    let proposal = set.get("openspec:proposal").unwrap();
    assert_eq!(
        proposal.description.as_deref(),
        Some("Draft a change proposal")
    );
    assert_eq!(proposal.argument_hint.as_deref(), Some("<what>"));
    assert_eq!(
        proposal.expand("\"dark mode\" for settings"),
        "Write a proposal for: \"dark mode\" for settings\nFirst word: dark mode"
    );
    let commit = set.get("git:commit").unwrap();
    assert_eq!(commit.description.as_deref(), Some("Commit staged work"));
    assert_eq!(
        commit.expand("fixes #12"),
        "Write a commit message. Context: fixes #12"
    );
    assert_eq!(
        set.get("plan").unwrap().expand("quickly"),
        "Plan it.\n\nArguments: quickly"
    );
    assert_eq!(
        set.get("explain").unwrap().expand("lifetimes please"),
        "Explain lifetimes simply."
    );
}

#[test]
fn project_beats_user_and_every_skip_is_reported() {
    let f = Fixture::new();
    let set = commands_fixture(&f);
    let review = set.get("review").unwrap();
    assert_eq!(review.scope, CommandFileScope::Project);
    assert_eq!(review.expand(""), "Review the project's diff.");
    let report: Vec<String> = set
        .problems()
        .iter()
        .map(|p| format!("{}: {}", f.redact(&p.path), f.redact(&p.message)))
        .collect();
    let has = |needle: &str| report.iter().any(|r| r.contains(needle));
    assert!(has("home/.memo/commands/review.md: /review is also defined in <TMP>/project/.memo/commands/review.md; the project's command wins"), "{report:#?}");
    assert!(has("help.md: /help is a built-in command"), "{report:#?}");
    assert!(
        has("bad.toml: command /bad skipped: no prompt key"),
        "{report:#?}"
    );
    assert!(
        has("worse.toml: command /worse skipped: invalid TOML"),
        "{report:#?}"
    );
    assert!(
        has("broken.md: command /broken skipped: invalid YAML"),
        "{report:#?}"
    );
}

#[test]
fn slash_resolution_prefers_builtins_then_custom() {
    let f = Fixture::new();
    let set = commands_fixture(&f);
    let call = slash::parse("/openspec:proposal add login").unwrap();
    assert!(matches!(resolve(&call, &set), Resolved::Custom(c) if c.name == "openspec:proposal"));
    assert_eq!(call.args, "add login");
    let call = slash::parse("/help").unwrap();
    assert_eq!(resolve(&call, &set), Resolved::Builtin(Builtin::Help));
    let call = slash::parse("/missing x").unwrap();
    assert_eq!(resolve(&call, &set), Resolved::Unknown);
}

#[test]
fn a_gemini_cli_extensions_commands_are_offered_renamed_where_a_name_is_taken() {
    let f = Fixture::new();
    let ext = f.user_home().join(".gemini/extensions/deploy-kit");
    write(
        &ext.join("gemini-extension.json"),
        r#"{"name": "deploy-kit", "version": "0.2.0"}"#,
    );
    write(
        &ext.join("commands/ship/prod.toml"),
        "prompt = \"Ship {{args}} to production.\"",
    );
    write(
        &ext.join("commands/plan.toml"),
        "prompt = \"The extension's plan.\"",
    );
    write(
        &f.user_home().join(".gemini/commands/plan.toml"),
        "prompt = \"My plan.\"",
    );
    let set = CommandFiles::discover(&f.context().command_file_roots());
    assert_eq!(
        set.get("ship:prod").unwrap().expand("v2"),
        "Ship v2 to production."
    );
    assert_eq!(set.get("plan").unwrap().expand(""), "My plan.");
    assert_eq!(
        set.get("deploy-kit.plan").unwrap().expand(""),
        "The extension's plan."
    );
}
