//! The window renders what the engine says a call is (its typed view) and never works it
//! out again: no source file of the page names one of Memo's own tools, nor quotes the
//! text the tools write for the model. Change that text, rename a tool, add a shell tool,
//! and the cards keep telling the truth.

use std::path::{Path, PathBuf};

use memo_engine::agents::collab::TOOL_NAMES as COLLAB_TOOLS;
use memo_engine::agents::investigator::COMPLETE_TASK;
use memo_engine::tools::every_builtin;
use memo_engine::READ_SKILL;
use memo_mcp::{RESOURCE_TOOL_NAMES, SEARCH_TOOL};

/// Lines of the tools' model-facing results a front end could be tempted to parse.
const MODEL_TEXT: &[&str] = &[
    "Chunk ID",
    "Wall time",
    "Process exited with code",
    "Process running with session ID",
    "Original token count",
    "matching lines in",
    "*** Begin Patch",
    "old_string",
    "new_string",
];

fn page_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            // Generated types, and the tests and their fixtures, which play the engine.
            if name != "gen" && name != "test" {
                page_sources(&path, out);
            }
        } else if (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.contains(".test.") {
            out.push(path);
        }
    }
}

/// Every one of Memo's own tools: the file and shell tools, the subagent tools, the
/// skill reader, the MCP helpers, the investigator's report.
fn builtin_tool_names() -> Vec<String> {
    let mut names = every_builtin().names();
    let more = COLLAB_TOOLS.iter().chain(&RESOURCE_TOOL_NAMES).chain(&[
        SEARCH_TOOL,
        READ_SKILL,
        COMPLETE_TASK,
    ]);
    names.extend(more.map(|name| (*name).to_owned()));
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_page_names_no_builtin_tool_and_quotes_no_model_facing_text() {
    let names = builtin_tool_names();
    assert!(
        [
            "exec_command",
            "apply_patch",
            "spawn_agent",
            "wait",
            "read_file"
        ]
        .iter()
        .all(|n| names.iter().any(|m| m == n)),
        "the list is the real one: {names:?}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui/src");
    let mut files = Vec::new();
    page_sources(&root, &mut files);
    assert!(files.len() > 50, "found the page's sources under {root:?}");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(&root).unwrap().display();
        for name in &names {
            for quoted in [
                format!("\"{name}\""),
                format!("'{name}'"),
                format!("`{name}`"),
            ] {
                if text.contains(&quoted) {
                    found.push(format!("{shown} names the tool {quoted}"));
                }
            }
        }
        for words in MODEL_TEXT {
            if text.contains(words) {
                found.push(format!("{shown} quotes the model-facing {words:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the page must render views, not work calls out:\n{}",
        found.join("\n")
    );
}
