//! apply_patch through the public Tool interface: preview (diff, hunks, fingerprint), then
//! run, the way the engine drives it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use memo_protocol::{RiskLevel, ToolErrorKind};
use memo_tools::{ApplyPatchTool, Approved, Tool, ToolContext, ToolInvocation};
use serde_json::{json, Value};

fn ctx(dir: &Path) -> ToolContext {
    ToolContext::for_workspace(dir)
}

async fn run(dir: &Path, args: Value) -> Result<String, memo_tools::ToolError> {
    ApplyPatchTool::new()
        .run(ctx(dir), args)
        .await
        .map(|o| o.content)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[tokio::test]
async fn single_edit_preview_then_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\nbeta\ngamma\n").unwrap();
    let tool = ApplyPatchTool::new();
    let args = json!({"file_path": "a.txt", "old_string": "beta", "new_string": "BETA"});
    let preview = tool.preview(&ctx(dir.path()), &args).await.unwrap();
    assert_eq!(preview.risk, RiskLevel::Write);
    let real = std::fs::canonicalize(dir.path().join("a.txt")).unwrap();
    assert_eq!(preview.fingerprint, format!("write:{}", real.display()));
    assert!(
        preview.reason().contains("edit a.txt (+1 -1)"),
        "{}",
        preview.reason()
    );
    let diff = preview.diff.unwrap();
    assert_eq!(diff.path, "a.txt");
    assert_eq!(diff.hunks.len(), 1);
    assert_eq!(diff.hunks[0].header, "@@ -1,3 +1,3 @@");
    assert_eq!(diff.hunks[0].text, " alpha\n-beta\n+BETA\n gamma\n");
    assert!(diff
        .unified
        .starts_with("--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n"));
    // Preview changed nothing.
    assert_eq!(read(dir.path(), "a.txt"), "alpha\nbeta\ngamma\n");
    let out = tool.run(ctx(dir.path()), args).await.unwrap();
    assert_eq!(out.content, "Updated a.txt (+1 -1)");
    assert_eq!(read(dir.path(), "a.txt"), "alpha\nBETA\ngamma\n");
}

#[tokio::test]
async fn multi_edits_are_all_or_none() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rs"), "let a = 1;\nlet b = 2;\n").unwrap();
    let err = run(
        dir.path(),
        json!({"file_path": "a.rs", "edits": [
            {"old_string": "a = 1", "new_string": "a = 10"},
            {"old_string": "c = 3", "new_string": "c = 30"}
        ]}),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::InvalidInput);
    assert!(
        err.message.contains("(edit 2 of 2) was not found in a.rs"),
        "{}",
        err.message
    );
    assert_eq!(read(dir.path(), "a.rs"), "let a = 1;\nlet b = 2;\n");
    run(
        dir.path(),
        json!({"file_path": "a.rs", "edits": [
            {"old_string": "a = 1", "new_string": "a = 10"},
            {"old_string": "b = 2", "new_string": "b = 20"}
        ]}),
    )
    .await
    .unwrap();
    assert_eq!(read(dir.path(), "a.rs"), "let a = 10;\nlet b = 20;\n");
}

#[tokio::test]
async fn not_found_and_not_unique_show_candidates() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.py"),
        "def f():\n    return compute(1)\n\ndef g():\n    return compute(1)\n",
    )
    .unwrap();
    let err = run(
        dir.path(),
        json!({"file_path": "m.py", "old_string": "return compute(1)", "new_string": "return 2"}),
    )
    .await
    .unwrap_err();
    assert!(
        err.message
            .contains("occurs 2 times in m.py (at lines 2, 5)"),
        "{}",
        err.message
    );
    assert!(err.message.contains("replace_all"), "{}", err.message);
    let err = run(
        dir.path(),
        json!({"file_path": "m.py", "old_string": "def g():\n  return compute(2)", "new_string": "x"}),
    )
    .await
    .unwrap_err();
    assert!(err.message.contains("lines 4-5"), "{}", err.message);
    assert!(
        err.message.contains("     5\t    return compute(1)"),
        "{}",
        err.message
    );
    run(
        dir.path(),
        json!({"file_path": "m.py", "old_string": "compute(1)", "new_string": "compute(2)", "replace_all": true}),
    )
    .await
    .unwrap();
    assert_eq!(read(dir.path(), "m.py").matches("compute(2)").count(), 2);
}

#[tokio::test]
async fn bad_inputs_are_invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "x\n").unwrap();
    for (args, needle) in [
        (json!({}), "file_path"),
        (json!({"file_path": "a.txt"}), "nothing to do"),
        (
            json!({"file_path": "a.txt", "old_string": "x"}),
            "new_string is missing",
        ),
        (
            json!({"file_path": "a.txt", "old_string": "x", "new_string": "y", "edits": []}),
            "not both",
        ),
        (
            json!({"file_path": "a.txt", "input": "*** Begin Patch"}),
            "do not combine",
        ),
        (
            json!({"file_path": "missing.txt", "old_string": "a", "new_string": "b"}),
            "does not exist",
        ),
        (
            json!({"file_path": "a.txt", "old_string": "x", "new_string": "x"}),
            "identical",
        ),
        (json!({"file_path": "a.txt", "bogus": 1}), "unknown field"),
    ] {
        let err = run(dir.path(), args.clone()).await.unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::InvalidInput, "{args}");
        assert!(err.message.contains(needle), "{args}: {}", err.message);
    }
    std::fs::write(dir.path().join("bin"), [0u8, 159, 146, 150]).unwrap();
    let err = run(
        dir.path(),
        json!({"file_path": "bin", "old_string": "a", "new_string": "b"}),
    )
    .await
    .unwrap_err();
    assert!(err.message.contains("binary"), "{}", err.message);
    let err = run(
        dir.path(),
        json!({"file_path": "/etc/hostname", "old_string": "a", "new_string": "b"}),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind, ToolErrorKind::PolicyDenied);
}

#[tokio::test]
async fn crlf_mode_and_creation_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.bat");
    std::fs::write(&p, "@echo off\r\necho one\r\necho two\r\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o750)).unwrap();
    run(
        dir.path(),
        json!({"file_path": "w.bat", "old_string": "echo one\necho two", "new_string": "echo 1\necho 2\necho 3"}),
    )
    .await
    .unwrap();
    assert_eq!(
        read(dir.path(), "w.bat"),
        "@echo off\r\necho 1\r\necho 2\r\necho 3\r\n"
    );
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o750);
    // An empty old_string on a missing file creates it (and its directories).
    let out = run(
        dir.path(),
        json!({"file_path": "sub/new.txt", "old_string": "", "new_string": "hi\n"}),
    )
    .await
    .unwrap();
    assert_eq!(out, "Created sub/new.txt (1 lines)");
    assert_eq!(read(dir.path(), "sub/new.txt"), "hi\n");
}

#[tokio::test]
async fn partial_hunk_acceptance_gives_exactly_the_accepted_hunks() {
    let dir = tempfile::tempdir().unwrap();
    let original = numbered(40);
    std::fs::write(dir.path().join("f.txt"), &original).unwrap();
    let tool = ApplyPatchTool::new();
    let args = json!({"file_path": "f.txt", "edits": [
        {"old_string": "line 3\n", "new_string": "line three\n"},
        {"old_string": "line 20\n", "new_string": "line twenty\nline 20.5\n"},
        {"old_string": "line 38\n", "new_string": ""}
    ]});
    let preview = tool.preview(&ctx(dir.path()), &args).await.unwrap();
    let hunks = preview.diff.unwrap().hunks;
    assert_eq!(hunks.len(), 3);
    let c = ctx(dir.path());
    let approved = Approved::Hunks(vec![0, 2]);
    let out = tool
        .invoke(c, ToolInvocation { args, approved })
        .await
        .unwrap();
    assert_eq!(out.content, "Updated f.txt (+1 -2) (2 of 3 hunks)");
    let expected = original
        .replace("line 3\n", "line three\n")
        .replace("line 38\n", "");
    assert_eq!(read(dir.path(), "f.txt"), expected);
}

#[tokio::test]
async fn edits_on_neighbouring_lines_are_offered_and_applied_one_by_one() {
    // Two edits on adjacent lines share one diff hunk: only a per-edit choice lets the
    // person take one and refuse the other.
    let dir = tempfile::tempdir().unwrap();
    let original = numbered(12);
    std::fs::write(dir.path().join("f.txt"), &original).unwrap();
    let tool = ApplyPatchTool::new();
    let args = json!({"file_path": "f.txt", "edits": [
        {"old_string": "line 5\n", "new_string": "line five\n"},
        {"old_string": "line 6\n", "new_string": "line six\n"},
        {"old_string": "line 7\n", "new_string": "line seven\n"}
    ]});
    let diff = tool
        .preview(&ctx(dir.path()), &args)
        .await
        .unwrap()
        .diff
        .unwrap();
    assert_eq!(diff.hunks.len(), 1, "{:?}", diff.hunks);
    let headers: Vec<&str> = diff.edits.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(
        headers,
        [
            "Edit 1 of 3 · line 5",
            "Edit 2 of 3 · line 6",
            "Edit 3 of 3 · line 7"
        ]
    );
    let second = &diff.edits[1].hunks;
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].header, "@@ -3,7 +3,7 @@");
    assert!(
        second[0].text.contains("-line 6\n+line six\n"),
        "{}",
        second[0].text
    );
    assert!(
        second[0].text.contains(" line five\n"),
        "the first edit is context: {}",
        second[0].text
    );
    let c = ctx(dir.path());
    let approved = Approved::Edits(vec![0, 2]);
    let out = tool
        .invoke(c, ToolInvocation { args, approved })
        .await
        .unwrap();
    assert_eq!(
        out.content,
        "Updated f.txt (+2 -2)\n(the user accepted 2 of the 3 edits and refused edit(s) 2)"
    );
    let expected = original
        .replace("line 5\n", "line five\n")
        .replace("line 7\n", "line seven\n");
    assert_eq!(read(dir.path(), "f.txt"), expected);
}

#[tokio::test]
async fn an_accepted_edit_that_needs_a_refused_one_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "a = 1\n").unwrap();
    let tool = ApplyPatchTool::new();
    let args = json!({"file_path": "f.txt", "edits": [
        {"old_string": "a = 1", "new_string": "b = 1"},
        {"old_string": "b = 1", "new_string": "b = 2"}
    ]});
    tool.preview(&ctx(dir.path()), &args).await.unwrap();
    let c = ctx(dir.path());
    let approved = Approved::Edits(vec![1]);
    let err = tool
        .invoke(
            c,
            ToolInvocation {
                args: args.clone(),
                approved,
            },
        )
        .await
        .unwrap_err();
    assert!(err.message.contains("refused edit(s) 1"), "{}", err.message);
    assert!(
        err.message.contains("Nothing was written"),
        "{}",
        err.message
    );
    assert_eq!(read(dir.path(), "f.txt"), "a = 1\n");
    // A single edit has no per-edit choice to make.
    let one = json!({"file_path": "f.txt", "old_string": "a = 1", "new_string": "a = 2"});
    let diff = tool
        .preview(&ctx(dir.path()), &one)
        .await
        .unwrap()
        .diff
        .unwrap();
    assert!(diff.edits.is_empty());
}

#[tokio::test]
async fn partial_acceptance_refuses_when_the_file_changed_after_preview() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), numbered(30)).unwrap();
    let tool = ApplyPatchTool::new();
    let args = json!({"file_path": "f.txt", "old_string": "line 2\n", "new_string": "two\n"});
    tool.preview(&ctx(dir.path()), &args).await.unwrap();
    std::fs::write(
        dir.path().join("f.txt"),
        format!("new first\n{}", numbered(30)),
    )
    .unwrap();
    let c = ctx(dir.path());
    let approved = Approved::Hunks(vec![0]);
    let err = tool
        .invoke(c, ToolInvocation { args, approved })
        .await
        .unwrap_err();
    assert!(
        err.message.contains("changed after its diff was shown"),
        "{}",
        err.message
    );
}

const MULTI: &str = "*** Begin Patch
*** Add File: docs/new.md
+# New
+text
*** Update File: src/lib.rs
*** Move to: src/core.rs
@@ fn two() {
-    2
+    22
*** Delete File: old.txt
*** Update File: main.rs
@@
 fn main() {
-    run();
+    run_all();
 }
*** End Patch";

fn multi_tree(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "fn one() {\n    1\n}\nfn two() {\n    2\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("old.txt"), "bye\n").unwrap();
    std::fs::write(dir.join("main.rs"), "fn main() {\n    run();\n}\n").unwrap();
}

#[tokio::test]
async fn multi_file_patch_add_update_move_delete() {
    let dir = tempfile::tempdir().unwrap();
    multi_tree(dir.path());
    let tool = ApplyPatchTool::new();
    let args = json!({ "input": MULTI });
    let preview = tool.preview(&ctx(dir.path()), &args).await.unwrap();
    let diff = preview.diff.unwrap();
    assert_eq!(diff.path, "docs/new.md, src/lib.rs, old.txt, main.rs");
    let headers: Vec<&str> = diff.hunks.iter().map(|h| h.header.as_str()).collect();
    assert_eq!(
        headers,
        vec![
            "@@ -0,0 +1,2 @@ docs/new.md",
            "rename src/lib.rs -> src/core.rs",
            "@@ -2,5 +2,5 @@ src/lib.rs",
            "@@ -1,1 +0,0 @@ old.txt",
            "@@ -1,3 +1,3 @@ main.rs",
        ]
    );
    assert!(diff
        .unified
        .contains("rename from src/lib.rs\nrename to src/core.rs\n"));
    // The grant covers exactly these files, never the tool as a whole.
    assert!(preview.fingerprint.starts_with("write:"));
    assert_eq!(
        preview.fingerprint.matches(',').count(),
        4,
        "{}",
        preview.fingerprint
    );
    let out = tool.run(ctx(dir.path()), args).await.unwrap();
    assert_eq!(
        out.content,
        "Created docs/new.md (2 lines)\nMoved src/lib.rs to src/core.rs (+1 -1)\nDeleted old.txt\nUpdated main.rs (+1 -1)"
    );
    assert_eq!(read(dir.path(), "docs/new.md"), "# New\ntext\n");
    assert_eq!(
        read(dir.path(), "src/core.rs"),
        "fn one() {\n    1\n}\nfn two() {\n    22\n}\n"
    );
    assert!(!dir.path().join("src/lib.rs").exists());
    assert!(!dir.path().join("old.txt").exists());
    assert_eq!(
        read(dir.path(), "main.rs"),
        "fn main() {\n    run_all();\n}\n"
    );
}

#[tokio::test]
async fn multi_file_partial_acceptance() {
    let dir = tempfile::tempdir().unwrap();
    multi_tree(dir.path());
    let c = ctx(dir.path());
    // Accept the content edit of lib.rs but not its rename, and the main.rs change only.
    let approved = Approved::Hunks(vec![2, 4]);
    let out = ApplyPatchTool::new()
        .invoke(
            c,
            ToolInvocation {
                args: json!({ "patch": MULTI }),
                approved,
            },
        )
        .await
        .unwrap();
    assert!(
        out.content.contains("Left docs/new.md unchanged"),
        "{}",
        out.content
    );
    assert!(
        out.content
            .contains("Updated src/lib.rs (+1 -1) (1 of 2 hunks)"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("Left old.txt unchanged"),
        "{}",
        out.content
    );
    assert!(!dir.path().join("docs/new.md").exists());
    assert_eq!(
        read(dir.path(), "src/lib.rs"),
        "fn one() {\n    1\n}\nfn two() {\n    22\n}\n"
    );
    assert!(!dir.path().join("src/core.rs").exists());
    assert_eq!(read(dir.path(), "old.txt"), "bye\n");
    assert_eq!(
        read(dir.path(), "main.rs"),
        "fn main() {\n    run_all();\n}\n"
    );
}

#[tokio::test]
async fn bad_patches_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    multi_tree(dir.path());
    let before = read(dir.path(), "main.rs");
    for (patch, needle) in [
        // Second file's context is wrong: the first file must not be written either.
        (
            "*** Begin Patch\n*** Update File: main.rs\n-    run();\n+    go();\n*** Update File: src/lib.rs\n-    3\n+    4\n*** End Patch",
            "hunk 1 (patch line 6)",
        ),
        ("*** Begin Patch\n*** Add File: main.rs\n+x\n*** End Patch", "already exists"),
        ("*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch", "does not exist"),
        ("*** Begin Patch\n*** Update File: main.rs\n*** Move to: old.txt\n@@\n-fn main() {\n+fn m() {\n*** End Patch", "already exists"),
        ("*** Begin Patch\n*** Update File: main.rs\n-    run();\n+    a();\n*** Update File: ./main.rs\n-}\n+}\n*** End Patch", "more than once"),
        ("*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch", "outside"),
        ("*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+x\n*** End Patch", ".git"),
    ] {
        let err = run(dir.path(), json!({ "input": patch })).await.unwrap_err();
        assert!(err.message.contains(needle), "{patch:?}: {}", err.message);
        assert_eq!(read(dir.path(), "main.rs"), before);
    }
    assert!(!dir.path().parent().unwrap().join("escape.txt").exists());
}
