mod common;

use common::write;
use memo_context::attach::attach;
use memo_context::input::expand;
use memo_context::{AttachLimits, InputContext, SkillSet};
use memo_protocol::AttachmentKind;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    write(&p.join("src/lib.rs"), "pub fn lib() {}\n");
    write(&p.join("src/main.rs"), "fn main() {}\n");
    write(&p.join("src/gen/out.rs"), "// generated\n");
    write(&p.join("src/.hidden.rs"), "hidden\n");
    write(&p.join(".gitignore"), "gen/\n");
    std::fs::write(p.join("src/logo.png"), [0x89, b'P', b'N', b'G', 0, 0, 1]).unwrap();
    write(&p.join("docs/spec.md"), "# Spec\n");
    dir
}

#[test]
fn a_file_is_attached_under_its_relative_path() {
    let dir = project();
    let out = attach(
        "explain @src/lib.rs please",
        dir.path(),
        dir.path(),
        None,
        AttachLimits::default(),
    );
    assert_eq!(
        out.block,
        "<attached_files>\n<file path=\"src/lib.rs\">\npub fn lib() {}\n</file>\n</attached_files>"
    );
    assert_eq!(out.attachments.len(), 1);
    assert_eq!(out.attachments[0].kind, AttachmentKind::File);
    assert_eq!(out.attachments[0].reference, "@src/lib.rs");
    assert!(out.notices.is_empty());
}

#[test]
fn a_directory_attaches_its_text_files_honouring_gitignore() {
    let dir = project();
    let out = attach(
        "look at @src",
        dir.path(),
        dir.path(),
        None,
        AttachLimits::default(),
    );
    let paths: Vec<&str> = out
        .block
        .lines()
        .filter_map(|l| l.strip_prefix("<file path=\""))
        .map(|l| l.trim_end_matches("\">"))
        .collect();
    assert_eq!(paths, vec!["src/lib.rs", "src/main.rs"], "{}", out.block);
    let a = &out.attachments[0];
    assert_eq!((a.kind, a.files), (AttachmentKind::Directory, 2));
    // The PNG is skipped (binary) and counted in a notice.
    assert_eq!(out.notices.len(), 1, "{:?}", out.notices);
    assert!(out.notices[0].contains("1 left out"));
}

#[test]
fn size_limits_truncate_and_are_reported() {
    let dir = project();
    write(&dir.path().join("big.txt"), &"0123456789".repeat(100));
    let limits = AttachLimits {
        file_bytes: 25,
        total_bytes: 40,
        dir_files: 1,
    };
    let out = attach(
        "@big.txt @src/lib.rs @src/main.rs",
        dir.path(),
        dir.path(),
        None,
        limits,
    );
    assert!(out.block.contains("<file path=\"big.txt\" truncated=\"true\">\n0123456789012345678901234\n[... rest of the file not attached; read it with read_file ...]"), "{}", out.block);
    assert!(out.attachments[0].truncated);
    // 25 + 15 bytes of budget: lib.rs gets the remaining 15, main.rs none.
    assert!(out
        .notices
        .iter()
        .any(|n| n.starts_with("@big.txt: only the first 25 bytes")));
    assert!(
        out.notices
            .iter()
            .any(|n| n.starts_with("@src/main.rs: not attached (size limit")),
        "{:?}",
        out.notices
    );
}

#[test]
fn a_missing_path_is_reported_and_the_rest_still_goes() {
    let dir = project();
    let skills = SkillSet::default();
    let ctx = InputContext {
        cwd: dir.path(),
        workspace_root: dir.path(),
        home: None,
        skills: &skills,
        limits: AttachLimits::default(),
        denied: None,
    };
    let text = "compare @nope.md with @docs/spec.md";
    let exp = expand(text, text, None, ctx).unwrap();
    assert!(exp
        .prompt
        .starts_with("compare @nope.md with @docs/spec.md\n\n<attached_files>"));
    assert!(exp.prompt.contains("# Spec"));
    assert_eq!(
        exp.notices,
        vec!["@nope.md: no such file or directory; sent as plain text"]
    );
    assert_eq!(exp.attachments.len(), 1);
}

#[test]
fn root_relative_and_home_paths_resolve() {
    let dir = project();
    let cwd = dir.path().join("src");
    let home = tempfile::tempdir().unwrap();
    write(&home.path().join("notes.md"), "my notes\n");
    let out = attach(
        "@/docs/spec.md and @~/notes.md",
        &cwd,
        dir.path(),
        Some(home.path()),
        AttachLimits::default(),
    );
    assert_eq!(out.attachments.len(), 2, "{:?}", out.notices);
    assert!(out.block.contains("# Spec") && out.block.contains("my notes"));
}

#[test]
fn a_file_a_rule_denies_is_not_attached_alone_or_in_a_folder() {
    let dir = project();
    write(&dir.path().join("src/secret.key"), "hunter2\n");
    write(&dir.path().join(".env"), "SECRET=hunter2\n");
    let deny = |path: &std::path::Path| {
        matches!(
            path.file_name().and_then(|n| n.to_str()),
            Some(".env" | "secret.key")
        )
        .then(|| "a rule denies reading it (test `.env`)".to_owned())
    };
    let out = memo_context::attach::attach_checked(
        "look at @.env and @src",
        dir.path(),
        dir.path(),
        None,
        AttachLimits::default(),
        Some(memo_context::DenyCheck(&deny)),
    );
    assert!(!out.block.contains("hunter2"), "{}", out.block);
    assert!(out.block.contains("src/lib.rs"), "the rest is attached");
    assert!(
        out.notices
            .iter()
            .any(|n| n.starts_with("@.env: not attached: a rule denies reading it")),
        "{:?}",
        out.notices
    );
    assert!(
        out.notices
            .iter()
            .any(|n| n.contains("1 file(s) not attached: a rule denies reading them")),
        "{:?}",
        out.notices
    );
}
