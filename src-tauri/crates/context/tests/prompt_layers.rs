//! The assembled prompt of a fixture workspace, compared with a committed snapshot
//! (`UPDATE_SNAPSHOTS=1 cargo test -p memo-context` rewrites it after a deliberate change).

mod common;

use common::{tools, write, Fixture};
use memo_context::{PromptMode, TokenCounter};
use memo_protocol::{PromptLayerKind, SourceStatus};

fn check_snapshot(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_SNAPSHOTS=1", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the assembled prompt at line {}:\nexpected: {:?}\nactual:   {:?}\n(UPDATE_SNAPSHOTS=1 to accept)",
            path.display(),
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

#[test]
fn the_fixture_workspace_prompt_matches_its_snapshot() {
    let f = Fixture::new();
    let assembled = f.context().assemble(
        "claude-sonnet-4-5",
        &tools(),
        TokenCounter::bytes(),
        PromptMode::Main,
    );
    check_snapshot("fixture_system_prompt.md", &f.redact(&assembled.system));

    let mut table = String::from("| layer | sources | chars | tokens |\n|---|---|---:|---:|\n");
    for layer in &assembled.report.layers {
        let sources: Vec<String> = layer
            .sources
            .iter()
            .map(|s| format!("{} ({:?})", f.redact(&s.path), s.status))
            .collect();
        table.push_str(&format!(
            "| {:?} | {} | {} | {} |\n",
            layer.kind,
            sources.join("<br>"),
            layer.chars,
            layer.tokens
        ));
    }
    let problems: Vec<String> = assembled
        .report
        .problems
        .iter()
        .map(|p| format!("- {}: {}", f.redact(&p.path), f.redact(&p.message)))
        .collect();
    table.push_str(&format!("\nproblems:\n{}\n", problems.join("\n")));
    check_snapshot("fixture_layers.md", &table);
}

#[test]
fn every_layer_is_reported_in_order_with_sources_and_sizes() {
    let f = Fixture::new();
    let assembled = f.context().assemble(
        "gpt-4o",
        &tools(),
        TokenCounter::for_model("gpt-4o"),
        PromptMode::Main,
    );
    let report = &assembled.report;
    let kinds: Vec<PromptLayerKind> = report.layers.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        vec![
            PromptLayerKind::Base,
            PromptLayerKind::Soul,
            PromptLayerKind::ProjectContext,
            PromptLayerKind::Skills,
            PromptLayerKind::ToolDescriptions,
            PromptLayerKind::ToolDefinitions,
        ]
    );
    assert_eq!(report.token_counter, "tiktoken:o200k_base");
    for layer in &report.layers {
        assert!(!layer.content.is_empty(), "{:?} is empty", layer.kind);
        assert_eq!(layer.chars, layer.content.chars().count() as u64);
        assert!(
            layer.tokens > 0 && layer.tokens < layer.chars,
            "{:?}",
            layer.kind
        );
        assert!(!layer.sources.is_empty(), "{:?}", layer.kind);
        // Layers 1-5 are the system text, in order; layer 6 travels as JSON.
        if layer.kind != PromptLayerKind::ToolDefinitions {
            assert!(
                assembled.system.contains(&layer.content),
                "{:?}",
                layer.kind
            );
        } else {
            assert!(!assembled.system.contains("\"input_schema\""));
        }
    }
    let positions: Vec<usize> = report.layers[..5]
        .iter()
        .map(|l| assembled.system.find(&l.content).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    assert_eq!(
        report.system_tokens,
        report.layers[..5].iter().map(|l| l.tokens).sum::<u64>()
    );
    assert_eq!(
        report.total_tokens,
        report.system_tokens + report.layers[5].tokens
    );

    // The project chain: root first, deeper later (deeper wins); the empty USER.md is a
    // source without text.
    let context = &report.layers[2];
    let order = [
        "Always run the formatter.",
        "The user's name is Ada.",
        "Use cargo nextest.",
        "Prefer small commits.",
        "Crates deny unwrap.",
        "no Tauri dependency",
    ];
    let idx: Vec<usize> = order
        .iter()
        .map(|n| {
            context
                .content
                .find(n)
                .unwrap_or_else(|| panic!("{n} missing"))
        })
        .collect();
    assert!(idx.windows(2).all(|w| w[0] < w[1]), "{idx:?}");
    let user_md = context
        .sources
        .iter()
        .find(|s| s.path.ends_with("USER.md"))
        .unwrap();
    assert_eq!((user_md.status, user_md.chars), (SourceStatus::Empty, 0));
    assert!(context.content.contains(&format!(
        "## AGENTS.md (crates) ({})",
        f.project().join("crates/AGENTS.md").display()
    )));
}

#[test]
fn soul_is_a_soft_preference_and_system_md_replaces_the_base() {
    let f = Fixture::new();
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    let soul = &assembled.report.layers[1];
    assert!(soul.content.contains("Be direct. No compliments."));
    assert!(soul.content.contains("soft preference"));
    assert!(soul.content.contains("never override safety rules"));
    assert!(soul.content.contains(&format!(
        "Loaded from: {}",
        f.home().join("SOUL.md").display()
    )));

    write(
        &f.project().join(".memo/SYSTEM.md"),
        "You are a {{ literal }} reviewer.",
    );
    write(&f.home().join("APPEND_SYSTEM.md"), "Home appendix.");
    write(
        &f.project().join(".memo/APPEND_SYSTEM.md"),
        "Project appendix.",
    );
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    let base = &assembled.report.layers[0];
    assert!(base.content.starts_with("You are a {{ literal }} reviewer.\n\nHome appendix.\n\nProject appendix.\n\n# Environment"), "{}", base.content);
    assert!(!base.content.contains("You are Memo"));
    let paths: Vec<&str> = base.sources.iter().map(|s| s.path.as_str()).collect();
    assert!(
        paths[0].ends_with(".memo/SYSTEM.md") && paths[3] == "builtin:environment.md",
        "{paths:?}"
    );

    // A folder nobody trusted cannot replace the base (safety rules included) or add to
    // it: Memo's own base is used, the home's appendix still applies, and the report
    // lists the project's files as not applied.
    let mut untrusted = f;
    untrusted.trusted = false;
    let assembled = untrusted
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    let base = &assembled.report.layers[0];
    assert!(base.content.contains("You are Memo"), "{}", base.content);
    assert!(!assembled.system.contains("reviewer"));
    assert!(!assembled.system.contains("Project appendix."));
    assert!(assembled.system.contains("Home appendix."));
    let skipped: Vec<&str> = base
        .sources
        .iter()
        .filter(|s| s.status == memo_protocol::SourceStatus::Untrusted)
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(skipped.len(), 2, "{:?}", base.sources);
    assert!(
        skipped[0].ends_with(".memo/SYSTEM.md") && skipped[1].ends_with(".memo/APPEND_SYSTEM.md")
    );
}

#[test]
fn a_subagent_gets_only_agents_and_tools_md() {
    let f = Fixture::new();
    write(&f.home().join("TOOLS.md"), "Use just, not make.");
    let assembled = f.context().assemble(
        "m",
        &tools(),
        TokenCounter::bytes(),
        PromptMode::Subagent {
            base_template: "codebase_investigator.md",
        },
    );
    let system = &assembled.system;
    assert!(system.contains("codebase investigator"));
    assert!(system.contains("Always run the formatter.") && system.contains("Use just, not make."));
    assert!(system.contains("Crates deny unwrap."));
    for absent in ["Be direct", "The user's name is Ada.", "# Skills"] {
        assert!(!system.contains(absent), "{absent}");
    }
}

#[test]
fn context_files_add_names_and_report_missing_ones() {
    let f = Fixture::new();
    write(
        &f.project().join("docs/CONVENTIONS.md"),
        "Tabs, not spaces.",
    );
    let ctx = f
        .context_with("context_files = [\"GEMINI.md\", \"docs/CONVENTIONS.md\", \"docs/GONE.md\"]");
    let assembled = ctx.assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    let layer = &assembled.report.layers[2];
    assert!(layer.content.contains("Tabs, not spaces."));
    assert!(layer
        .content
        .contains("[missing: GEMINI.md is configured in context_files but was not found]"));
    assert!(layer.content.contains("[missing: GONE.md is configured"));
    let missing: Vec<_> = layer
        .sources
        .iter()
        .filter(|s| s.status == SourceStatus::Missing)
        .collect();
    assert_eq!(missing.len(), 2);
}

#[test]
fn a_template_override_in_the_home_replaces_the_builtin() {
    let f = Fixture::new();
    write(
        &f.home().join("prompts/base.md"),
        "House rules for {{ env.cwd }}.",
    );
    write(
        &f.home().join("prompts/skills.md"),
        "{% for s in skills %}{{ s.name }} {% endfor %}{{ oops }}",
    );
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    assert!(assembled
        .system
        .starts_with(&format!("House rules for {}.", f.cwd().display())));
    // A broken override falls back to the built-in and says so.
    assert!(assembled.system.contains("Load a skill with `read_skill`"));
    assert!(assembled
        .report
        .problems
        .iter()
        .any(|p| p.path.ends_with("prompts/skills.md")));
}

#[test]
fn gemini_users_renamed_instruction_file_is_read_like_agents_md() {
    let f = Fixture::new();
    write(
        &f.user_home().join(".gemini/settings.json"),
        r#"{"context": {"fileName": ["AGENT_RULES.md", "../escape.md"]}}"#,
    );
    write(
        &f.project().join("AGENT_RULES.md"),
        "Gemini rule: tabs, not spaces.",
    );
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    assert!(
        assembled.system.contains("Gemini rule: tabs, not spaces."),
        "{}",
        assembled.system
    );
    // A name it does not find is Gemini's business: no "missing" marker.
    let f2 = Fixture::new();
    write(
        &f2.user_home().join(".gemini/settings.json"),
        r#"{"context": {"fileName": "NOT_HERE.md"}}"#,
    );
    let assembled = f2
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    assert!(
        !assembled.system.contains("NOT_HERE.md"),
        "{}",
        assembled.system
    );
}

#[test]
fn a_gemini_cli_extensions_context_file_joins_the_project_context_unless_it_is_off_here() {
    let f = Fixture::new();
    let ext = f.user_home().join(".gemini/extensions/style-guide");
    write(
        &ext.join("gemini-extension.json"),
        r#"{"name": "style-guide", "version": "1.0.0", "contextFileName": "STYLE.md"}"#,
    );
    write(&ext.join("STYLE.md"), "Extension rule: no abbreviations.");
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    assert!(
        assembled
            .system
            .contains("Extension rule: no abbreviations."),
        "{}",
        assembled.system
    );
    let layer = &assembled.report.layers[2];
    assert!(
        layer
            .sources
            .iter()
            .any(|s| s.path == ext.join("STYLE.md").display().to_string()),
        "{:?}",
        layer.sources
    );
    write(
        &f.user_home()
            .join(".gemini/extensions/extension-enablement.json"),
        &format!(
            r#"{{"style-guide": {{"overrides": ["!{}/*"]}}}}"#,
            f.project().display()
        ),
    );
    let assembled = f
        .context()
        .assemble("m", &[], TokenCounter::bytes(), PromptMode::Main);
    assert!(
        !assembled.system.contains("Extension rule"),
        "{}",
        assembled.system
    );
}
