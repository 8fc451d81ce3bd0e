//! A corpus of path-escape attempts against the path policy and every file tool. An
//! escape is any read that returns content from outside the workspace, any write, move
//! or delete that changes something outside it (or inside `.git/`), or a policy check
//! that approves a real path outside the roots. The expected number of escapes is zero.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memo_tools::{
    ApplyPatchTool, GlobTool, GrepFilesTool, ListDirTool, PathPolicy, ReadFileTool, Tool,
    ToolContext, WriteFileTool,
};
use serde_json::json;

const SECRET: &str = "TOPSECRET-7f3a";
/// The name of a file only in the outside folder: seeing it means the folder was listed.
const OUTSIDE_ONLY_NAME: &str = "outside-only-q9.txt";

struct Fixture {
    _base: tempfile::TempDir,
    ws: PathBuf,
    outside: PathBuf,
}

fn fixture() -> Fixture {
    let base = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(base.path()).unwrap();
    let ws = root.join("ws");
    let outside = root.join("outside");
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    std::fs::create_dir_all(outside.join("dir")).unwrap();
    std::fs::write(outside.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    std::fs::write(outside.join(OUTSIDE_ONLY_NAME), format!("{SECRET}\n")).unwrap();
    std::fs::write(outside.join("dir/deep.txt"), format!("{SECRET}\n")).unwrap();
    std::fs::write(ws.join("a.txt"), "inside\n").unwrap();
    std::fs::write(ws.join("sub/f.txt"), "inside sub\n").unwrap();
    std::fs::write(ws.join(".git/config"), "[core]\n").unwrap();
    std::fs::write(ws.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    // Links of every flavour.
    symlink(&outside, ws.join("out_link")).unwrap();
    symlink(outside.join("secret.txt"), ws.join("out_file_link")).unwrap();
    symlink(outside.join("new_file.txt"), ws.join("dangling")).unwrap();
    symlink(outside.join("newdir"), ws.join("dangling_dir")).unwrap();
    symlink("../outside/secret.txt", ws.join("rel_file_link")).unwrap();
    symlink("../../outside", ws.join("sub/up2_outside")).unwrap();
    symlink("..", ws.join("sub/up")).unwrap();
    symlink("../..", ws.join("sub/up2")).unwrap();
    symlink("/proc/self/root", ws.join("proc_link")).unwrap();
    symlink("/proc/self/cwd", ws.join("cwd_link")).unwrap();
    symlink("loop2", ws.join("loop1")).unwrap();
    symlink("loop1", ws.join("loop2")).unwrap();
    symlink("chain2", ws.join("chain1")).unwrap();
    symlink("sub/up2_outside", ws.join("chain2")).unwrap();
    symlink(".git", ws.join("gitlink")).unwrap();
    symlink("sub", ws.join("inner_link")).unwrap();
    symlink("/", ws.join("root_link")).unwrap();
    symlink("/etc/passwd", ws.join("passwd_link")).unwrap();
    Fixture {
        _base: base,
        ws,
        outside,
    }
}

fn ctx(ws: &Path) -> ToolContext {
    // Explicit roots: the test must not depend on MEMO_* variables of the environment.
    ToolContext {
        paths: Arc::new(PathPolicy::workspace(ws)),
        ..ToolContext::for_workspace(ws)
    }
}

/// Every attempt is a path as the model would write it, relative to the workspace or
/// absolute.
fn corpus(f: &Fixture) -> Vec<String> {
    let out = f.outside.display().to_string();
    let mut v: Vec<String> = [
        "../outside/secret.txt",
        "./../outside/secret.txt",
        "..//outside//secret.txt",
        "sub/../../outside/secret.txt",
        "sub/./../../outside/secret.txt",
        "missing/../../outside/secret.txt",
        "a/b/c/../../../../outside/secret.txt",
        "out_link/secret.txt",
        "out_link/dir/deep.txt",
        "out_link/../outside/secret.txt",
        "out_link/new.txt",
        "out_link/newdir/new.txt",
        "out_file_link",
        "rel_file_link",
        "dangling",
        "dangling_dir/x.txt",
        "sub/up2/outside/secret.txt",
        "sub/up2_outside/secret.txt",
        "sub/up/../outside/secret.txt",
        "sub/up/sub/up/../outside/secret.txt",
        "chain1/secret.txt",
        "chain1/fresh.txt",
        "loop1/x",
        "proc_link/etc/passwd",
        "cwd_link/Cargo.toml",
        "root_link/etc/passwd",
        "root_link/tmp/memo-escape.txt",
        "passwd_link",
        "/etc/passwd",
        "/etc/hostname",
        "/tmp/memo-escape-attempt.txt",
        "/proc/self/root/etc/passwd",
        "/proc/self/cwd/Cargo.toml",
        "/proc/1/root/etc/passwd",
        "/proc/self/environ",
        "/proc/self/fd/0",
        "/proc/thread-self/root/etc/passwd",
        "/dev/null",
        "/sys/kernel/hostname",
        "/",
        "..",
        "../",
        "\u{FF0E}\u{FF0E}\u{FF0F}outside\u{FF0F}secret.txt",
        "\u{2025}/outside/secret.txt",
        "..\u{2215}outside\u{2215}secret.txt",
        "\u{FF0E}./outside/secret.txt",
        ".\u{2024}/outside/secret.txt",
        "..\u{2044}outside/secret.txt",
        "\u{2026}/outside/secret.txt",
        "a.txt\0/../../outside/secret.txt",
        "../outside/secret.txt\0",
        "~",
        "~/secret.txt",
        "~root/.bashrc",
        "%2e%2e/outside/secret.txt",
        "..\\outside\\secret.txt",
        "file:///etc/passwd",
        " ../outside/secret.txt",
        "",
        ".git/config",
        ".git/hooks/pre-commit",
        "gitlink/config",
        "gitlink/hooks/post-checkout",
        "sub/../.git/HEAD",
        "sub/up/.git/config",
        "inner_link/../.git/config",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    v.push(format!("{out}/secret.txt"));
    v.push(format!("{out}/dir"));
    v.push(format!("{out}/brand-new.txt"));
    v.push(format!("{}/../outside/secret.txt", f.ws.display()));
    v.push(format!("{}/./sub/../../outside/secret.txt", f.ws.display()));
    v.push(format!("{}{}", "../".repeat(1000), "etc/passwd"));
    v.push(format!("{}../outside/secret.txt", "a/".repeat(2100)));
    v.push(format!("{}/../outside/secret.txt", "n".repeat(300)));
    v.push(format!("sub/{}", "../".repeat(60)) + "etc/passwd");
    v
}

/// Every file (path → content) under `dir`, not following links.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in read.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p.clone());
                out.insert(p, b"<dir>".to_vec());
            } else if meta.file_type().is_symlink() {
                out.insert(
                    p.clone(),
                    std::fs::read_link(&p)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                );
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn leaked(text: &str) -> bool {
    text.contains(SECRET) || text.contains("root:x:0:0") || text.contains(OUTSIDE_ONLY_NAME)
}

#[tokio::test]
async fn no_read_escapes() {
    let f = fixture();
    let c = ctx(&f.ws);
    let attempts = corpus(&f);
    assert!(attempts.len() >= 40, "{}", attempts.len());
    let mut escapes = Vec::new();
    for p in &attempts {
        if let Ok(real) = c.readable(p) {
            if !real.starts_with(&f.ws) {
                escapes.push(format!("readable({p:?}) approved {}", real.display()));
            }
        }
        let calls = [
            (
                Box::new(ReadFileTool) as Box<dyn Tool>,
                json!({"file_path": p}),
            ),
            (
                Box::new(ReadFileTool),
                json!({"file_path": p, "mode": "indentation", "indentation": {"anchor_line": 1, "include_siblings": true}}),
            ),
            (Box::new(ListDirTool), json!({"dir_path": p, "depth": 3})),
            (
                Box::new(GrepFilesTool),
                json!({"pattern": "TOPSECRET|root:x|.", "path": p}),
            ),
            (Box::new(GlobTool), json!({"pattern": "**", "path": p})),
        ];
        for (tool, args) in calls {
            let text = match tool.run(c.clone(), args.clone()).await {
                Ok(o) => o.content,
                Err(e) => e.message,
            };
            if leaked(&text) {
                escapes.push(format!("{} {args} leaked: {text}", tool.name()));
            }
        }
    }
    assert!(
        escapes.is_empty(),
        "{} escapes:\n{}",
        escapes.len(),
        escapes.join("\n")
    );
    // A whole-workspace search follows no link out of it either.
    let text = GrepFilesTool
        .run(c.clone(), json!({"pattern": "TOPSECRET"}))
        .await
        .unwrap()
        .content;
    assert!(!leaked(&text), "{text}");
    let text = ListDirTool
        .run(c.clone(), json!({"depth": 5}))
        .await
        .unwrap()
        .content;
    assert!(!leaked(&text), "{text}");
}

#[tokio::test]
async fn no_write_escapes() {
    let f = fixture();
    let c = ctx(&f.ws);
    let before_outside = snapshot(&f.outside);
    let before_git = snapshot(&f.ws.join(".git"));
    let attempts = corpus(&f);
    let mut escapes = Vec::new();
    for p in &attempts {
        if let Ok(real) = c.writable(p) {
            if !real.starts_with(&f.ws) || real.components().any(|x| x.as_os_str() == ".git") {
                escapes.push(format!("writable({p:?}) approved {}", real.display()));
            }
        }
        let patch =
            |body: String| json!({ "input": format!("*** Begin Patch\n{body}\n*** End Patch") });
        let calls: Vec<(Box<dyn Tool>, serde_json::Value)> = vec![
            (
                Box::new(WriteFileTool::new()),
                json!({"file_path": p, "content": "PWNED\n"}),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                json!({"file_path": p, "old_string": "", "new_string": "PWNED\n"}),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                json!({"file_path": p, "old_string": SECRET, "new_string": "PWNED"}),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                json!({"file_path": p, "old_string": "[core]", "new_string": "PWNED"}),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                patch(format!("*** Add File: {p}\n+PWNED")),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                patch(format!("*** Delete File: {p}")),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                patch(format!("*** Update File: {p}\n-{SECRET}\n+PWNED")),
            ),
            (
                Box::new(ApplyPatchTool::new()),
                patch(format!(
                    "*** Update File: a.txt\n*** Move to: {p}\n-inside\n+PWNED"
                )),
            ),
        ];
        for (tool, args) in calls {
            // Previews must not write either; run both like the engine does.
            let _ = tool.preview(&c, &args).await;
            let _ = tool.run(c.clone(), args).await;
            std::fs::write(f.ws.join("a.txt"), "inside\n").unwrap();
        }
    }
    assert!(
        escapes.is_empty(),
        "{} escapes:\n{}",
        escapes.len(),
        escapes.join("\n")
    );
    assert_eq!(
        snapshot(&f.outside),
        before_outside,
        "the outside folder changed"
    );
    assert_eq!(snapshot(&f.ws.join(".git")), before_git, ".git changed");
    assert!(!Path::new("/tmp/memo-escape-attempt.txt").exists());
    assert!(!Path::new("/tmp/memo-escape.txt").exists());
    // The links themselves were not replaced by files.
    assert!(std::fs::symlink_metadata(f.ws.join("dangling"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::symlink_metadata(f.ws.join("out_file_link"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[tokio::test]
async fn links_and_dots_that_stay_inside_still_work() {
    let f = fixture();
    let c = ctx(&f.ws);
    for p in [
        "sub/up/a.txt",
        "inner_link/f.txt",
        "sub/../a.txt",
        "./a.txt",
        "notes\u{2026}.txt",
    ] {
        assert!(c.writable(p).is_ok(), "{p}");
    }
    let out = ReadFileTool
        .run(c.clone(), json!({"file_path": "sub/up/a.txt"}))
        .await
        .unwrap();
    assert_eq!(out.content, "1\tinside\n");
    WriteFileTool::new()
        .run(
            c.clone(),
            json!({"file_path": "inner_link/g.txt", "content": "ok\n"}),
        )
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(f.ws.join("sub/g.txt")).unwrap(),
        "ok\n"
    );
    // Writing through a link to a file inside replaces the target, not the link.
    symlink("sub/f.txt", f.ws.join("f_link")).unwrap();
    WriteFileTool::new()
        .run(
            c.clone(),
            json!({"file_path": "f_link", "content": "new\n"}),
        )
        .await
        .unwrap();
    assert!(std::fs::symlink_metadata(f.ws.join("f_link"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(f.ws.join("sub/f.txt")).unwrap(),
        "new\n"
    );
    // Reading .git is fine; only writes are refused.
    assert!(c.readable(".git/config").is_ok());
}
