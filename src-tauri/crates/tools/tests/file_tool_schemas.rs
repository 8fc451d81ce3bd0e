//! The file and search tools' schemas compile, accept the calls their descriptions show
//! and reject malformed ones, so the engine's validation and the tools' own parsing agree.

use memo_protocol::RiskLevel;
use memo_tools::{
    ApplyPatchTool, GlobTool, GrepFilesTool, ListDirTool, ReadFileTool, Tool, ToolRegistry,
    WriteFileTool,
};
use serde_json::json;

fn check(tool: &dyn Tool, good: &[serde_json::Value], bad: &[serde_json::Value]) {
    let schema = tool.input_schema();
    let v = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} schema does not compile: {e}", tool.name()));
    for args in good {
        assert!(v.is_valid(args), "{} rejects {args}", tool.name());
    }
    for args in bad {
        assert!(!v.is_valid(args), "{} accepts {args}", tool.name());
    }
}

#[test]
fn schemas_accept_documented_calls_and_reject_bad_ones() {
    check(
        &ReadFileTool,
        &[
            json!({"file_path": "a.rs"}),
            json!({"file_path": "a.rs", "offset": 10, "limit": 50}),
            json!({"file_path": "a.rs", "mode": "indentation", "indentation": {"anchor_line": 50, "max_levels": 2, "include_siblings": true}}),
        ],
        &[
            json!({}),
            json!({"file_path": "a", "offset": 0}),
            json!({"file_path": "a", "mode": "outline"}),
            json!({"file_path": "a", "indentation": {"anchor": 3}}),
        ],
    );
    check(
        &ApplyPatchTool::new(),
        &[
            json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
            json!({"file_path": "a", "old_string": "x", "new_string": "", "replace_all": true}),
            json!({"file_path": "a", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d", "replace_all": true}]}),
            json!({"input": "*** Begin Patch\n*** Delete File: a\n*** End Patch"}),
        ],
        &[
            json!({"file_path": "a", "edits": []}),
            json!({"file_path": "a", "edits": [{"old_string": "a"}]}),
            json!({"file_path": "a", "old": "x"}),
        ],
    );
    check(
        &WriteFileTool::new(),
        &[json!({"file_path": "a", "content": ""})],
        &[json!({"file_path": "a"}), json!({"content": "x"})],
    );
    check(
        &ListDirTool,
        &[json!({}), json!({"dir_path": "src", "depth": 3})],
        &[json!({"depth": 9}), json!({"path": "."})],
    );
    check(
        &GlobTool,
        &[
            json!({"pattern": "**/*.rs"}),
            json!({"pattern": "*.md", "path": "docs", "sort": "name", "limit": 10}),
        ],
        &[json!({}), json!({"pattern": "*", "sort": "size"})],
    );
    check(
        &GrepFilesTool,
        &[
            json!({"pattern": "function test"}),
            json!({"pattern": "TODO", "limit": 20}),
            json!({"pattern": "console.log", "include": "*.ts", "path": "src", "context": 2, "case_insensitive": true}),
        ],
        &[
            json!({}),
            json!({"pattern": "a", "context": 11}),
            json!({"pattern": "a", "glob": "*.rs"}),
        ],
    );
}

#[test]
fn registry_has_the_file_tools_with_their_risks() {
    let registry = ToolRegistry::builtin();
    for (name, risk, parallel) in [
        ("read_file", RiskLevel::Read, true),
        ("list_dir", RiskLevel::Read, true),
        ("glob", RiskLevel::Read, true),
        ("grep_files", RiskLevel::Read, true),
        ("apply_patch", RiskLevel::Write, false),
        ("write_file", RiskLevel::Write, false),
    ] {
        let tool = registry
            .get(name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(tool.risk(), risk, "{name}");
        assert_eq!(tool.is_mutating(), risk > RiskLevel::Read, "{name}");
        assert_eq!(tool.parallel_safe(), parallel, "{name}");
    }
}
