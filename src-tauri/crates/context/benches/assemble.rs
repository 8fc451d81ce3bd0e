//! Prompt assembly cost with a large workspace: 200 skills over four roots, 20 bootstrap
//! and context files, 500 tool definitions (100 of them MCP tools on 5 servers).
//!
//! Run: `cargo bench -p memo-context --bench assemble`. Prints Markdown tables: timings
//! (target < 5 ms median for a full assembly) and the token cost of each layer.
//! `PROFILE_PARTS=1` times the pieces (skill discovery, YAML, file reads, token counts).

use std::path::Path;
use std::time::{Duration, Instant};

use memo_context::{LoadOptions, PromptMode, TokenCounter, WorkspaceContext};
use memo_model::ToolSpec;
use serde_json::json;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn paragraph(topic: &str, lines: usize) -> String {
    (0..lines)
        .map(|i| {
            format!("- Rule {i} about {topic}: keep changes small, test them, and explain why.\n")
        })
        .collect()
}

/// The workspace: returns (home, cwd).
fn fixture(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let home = root.join("home");
    let project = root.join("project");
    let cwd = project.join("crates/engine/src");
    std::fs::create_dir_all(project.join(".git")).expect("git");
    // 8 home bootstrap files.
    for name in [
        "SOUL.md",
        "AGENTS.md",
        "TOOLS.md",
        "IDENTITY.md",
        "USER.md",
        "HEARTBEAT.md",
        "BOOTSTRAP.md",
        "MEMORY.md",
    ] {
        write(&home.join(name), &paragraph(name, 15));
    }
    // 12 project files along the chain: AGENTS.md, CLAUDE.md, GEMINI.md in 4 directories.
    for dir in ["", "crates", "crates/engine", "crates/engine/src"] {
        for name in ["AGENTS.md", "CLAUDE.md", "GEMINI.md"] {
            write(
                &project.join(dir).join(name),
                &paragraph(&format!("{dir}/{name}"), 20),
            );
        }
    }
    // 200 skills: 50 in each of four roots.
    let roots = [
        home.join("skills"),
        project.join(".agents/skills"),
        project.join(".claude/skills"),
        project.join(".codex/skills"),
    ];
    for (r, dir) in roots.iter().enumerate() {
        for i in 0..50 {
            let name = format!("skill-{r}-{i}");
            write(
                &dir.join(&name).join("SKILL.md"),
                &format!("---\nname: {name}\ndescription: Does task {i} of root {r} when the user asks for it, following the team's steps.\n---\n\n# {name}\n\n{}", paragraph(&name, 30)),
            );
        }
    }
    (home, cwd)
}

fn tools() -> Vec<ToolSpec> {
    (0..500)
        .map(|i| {
            let name = if i < 400 { format!("tool_{i}") } else { format!("mcp__server{}__tool_{i}", i % 5) };
            ToolSpec {
                name,
                description: format!("Does operation {i}. Use it when the task needs operation {i}; it returns the result as text."),
                input_schema: json!({
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "Where to operate."},
                        "limit": {"type": "integer", "description": "How many results."},
                        "recursive": {"type": "boolean"}
                    },
                    "required": ["path"]
                }),
            }
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn measure(label: &str, runs: usize, mut f: impl FnMut()) -> String {
    f(); // warm up: file cache, tokenizer tables
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    format!(
        "| {label} | {runs} | {:.3} ms | {:.3} ms | < 5 ms median |",
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.95).as_secs_f64() * 1e3
    )
}

fn main() {
    if std::env::var_os("PROFILE_PARTS").is_some() {
        profile_parts();
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (home, cwd) = fixture(dir.path());
    let tools = tools();
    let extra = toml::Table::new();
    let config_path = home.join("config.toml");
    let load = || {
        WorkspaceContext::load(LoadOptions {
            cwd: &cwd,
            memo_home: Some(&home),
            user_home: None,
            config_extra: &extra,
            config_path: &config_path,
            detect_env: false,
            plugins: Default::default(),
            project_trusted: true,
        })
    };
    // The first tiktoken assembly of a process loads the BPE tables and counts everything;
    // later ones hit the content cache.
    let cold = Instant::now();
    let first = load().assemble(
        "gpt-4o",
        &tools,
        TokenCounter::for_model("gpt-4o"),
        PromptMode::Main,
    );
    let cold = cold.elapsed();
    std::hint::black_box(first);

    let ctx = load();
    assert_eq!(
        ctx.skills.skills().len(),
        201,
        "200 skills + the built-in one"
    );

    let mut rows = vec![format!(
        "| first tiktoken assembly in a process (tables load, nothing cached) | 1 | {:.3} ms | | once per process |",
        cold.as_secs_f64() * 1e3
    )];
    rows.push(measure("discover + assemble, byte estimate", 200, || {
        let ctx = load();
        std::hint::black_box(ctx.assemble(
            "deepseek-chat",
            &tools,
            TokenCounter::bytes(),
            PromptMode::Main,
        ));
    }));
    rows.push(measure("assemble only, byte estimate", 200, || {
        std::hint::black_box(ctx.assemble(
            "deepseek-chat",
            &tools,
            TokenCounter::bytes(),
            PromptMode::Main,
        ));
    }));
    let tiktoken = TokenCounter::for_model("gpt-4o");
    rows.push(measure("discover + assemble, tiktoken o200k", 50, || {
        let ctx = load();
        std::hint::black_box(ctx.assemble("gpt-4o", &tools, tiktoken, PromptMode::Main));
    }));

    println!("\n## Prompt assembly: 200 skills, 20 bootstrap files, 500 tool definitions\n");
    println!("| scenario | runs | median | p95 | target |");
    println!("|---|---:|---:|---:|---|");
    for row in rows {
        println!("{row}");
    }

    let report = ctx
        .assemble("gpt-4o", &tools, tiktoken, PromptMode::Main)
        .report;
    println!("\n## Token cost per layer (same workspace, tiktoken o200k)\n");
    println!("| layer | sources | chars | tokens |");
    println!("|---|---:|---:|---:|");
    for layer in &report.layers {
        println!(
            "| {} | {} | {} | {} |",
            layer.title,
            layer.sources.len(),
            layer.chars,
            layer.tokens
        );
    }
    println!(
        "| **system prompt (1-5) / per request (1-6)** | | {} | {} / {} |",
        report.system_chars, report.system_tokens, report.total_tokens
    );
}

/// Times each piece of the pipeline, to see where a regression comes from.
fn profile_parts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (home, cwd) = fixture(dir.path());
    let tools = tools();
    let root = memo_context::workspace_root(&cwd);
    let t = |label: &str, f: &mut dyn FnMut()| {
        f();
        let n = 50;
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        println!(
            "{label}: {:.3} ms",
            start.elapsed().as_secs_f64() * 1e3 / n as f64
        );
    };
    t("skills discover", &mut || {
        std::hint::black_box(memo_context::SkillSet::discover(
            &memo_context::SkillRoots {
                memo_home: Some(home.clone()),
                user_home: None,
                project_root: Some(root.clone()),
                plugins: Vec::new(),
            },
            None,
        ));
    });
    let texts: Vec<String> = (0..200)
        .map(|i| format!("---\nname: skill-{i}\ndescription: Does task {i} when the user asks for it, following the team's steps.\n---\n\n# body\n{}", paragraph("x", 30)))
        .collect();
    t("yaml parse x200", &mut || {
        for text in &texts {
            std::hint::black_box(memo_context::skills::parse_skill_text(text).expect("parse"));
        }
    });
    let files: Vec<std::path::PathBuf> = (0..50)
        .map(|i| home.join(format!("skills/skill-0-{i}/SKILL.md")))
        .collect();
    t("read+canonicalize x200", &mut || {
        for _ in 0..4 {
            for f in &files {
                std::hint::black_box(std::fs::read_to_string(f).expect("read"));
                std::hint::black_box(std::fs::canonicalize(f).expect("canon"));
            }
        }
    });
    t("project files", &mut || {
        std::hint::black_box(memo_context::files::project_files(
            &root,
            &cwd,
            &[],
            &[],
            &mut Default::default(),
        ));
    });
    t("home files", &mut || {
        std::hint::black_box(memo_context::files::home_files(
            &home,
            memo_context::files::HOME_FILES,
            &mut Default::default(),
        ));
    });
    let bytes = TokenCounter::bytes();
    let tik = TokenCounter::for_model("gpt-4o");
    t("tools json pretty", &mut || {
        std::hint::black_box(serde_json::to_string_pretty(&tools).expect("json"));
    });
    t("count tools bytes", &mut || {
        std::hint::black_box(bytes.tools(&tools));
    });
    t("count tools tiktoken", &mut || {
        std::hint::black_box(tik.tools(&tools));
    });
    let json = serde_json::to_string(&tools).expect("json");
    t("count tools json tiktoken", &mut || {
        std::hint::black_box(tik.count(&json));
    });
}
