//! First start: fills `$MEMO_HOME` with the bootstrap files from `prompts/home/`. Every
//! file is created exclusively (`create_new`), so a file the user already has is never
//! overwritten, not even by a race with another Memo process. BOOTSTRAP.md (the
//! first-run note) is written only into a brand-new home.

use std::io::Write;
use std::path::{Path, PathBuf};

use memo_protocol::ContextProblem;

/// Home templates by file name. All but BOOTSTRAP.md hold only comments, so an untouched
/// template adds nothing to the prompt.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "AGENTS.md",
        include_str!("../../../../prompts/home/AGENTS.md"),
    ),
    ("SOUL.md", include_str!("../../../../prompts/home/SOUL.md")),
    (
        "TOOLS.md",
        include_str!("../../../../prompts/home/TOOLS.md"),
    ),
    (
        "IDENTITY.md",
        include_str!("../../../../prompts/home/IDENTITY.md"),
    ),
    ("USER.md", include_str!("../../../../prompts/home/USER.md")),
    (
        "HEARTBEAT.md",
        include_str!("../../../../prompts/home/HEARTBEAT.md"),
    ),
    (
        "MEMORY.md",
        include_str!("../../../../prompts/home/MEMORY.md"),
    ),
];
const BOOTSTRAP: &str = include_str!("../../../../prompts/home/BOOTSTRAP.md");

/// Folders a home has, for skills, custom commands and prompt overrides.
const DIRS: &[&str] = &["skills", "commands", "prompts"];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HomeInit {
    /// Files and folders this call created.
    pub created: Vec<PathBuf>,
    /// No bootstrap file existed before.
    pub brand_new: bool,
    pub problems: Vec<ContextProblem>,
}

/// Creates what is missing in the Memo home at `root`. Never fails: what cannot be
/// created is reported, and Memo runs without it.
pub fn init_home(root: &Path) -> HomeInit {
    let mut out = HomeInit {
        brand_new: is_brand_new(root),
        ..HomeInit::default()
    };
    for dir in std::iter::once(root.to_path_buf()).chain(DIRS.iter().map(|d| root.join(d))) {
        if dir.is_dir() {
            continue;
        }
        match std::fs::create_dir_all(&dir) {
            Ok(()) => out.created.push(dir),
            Err(err) => out.problems.push(problem(&dir, &err)),
        }
    }
    for (name, text) in TEMPLATES {
        // An existing lowercase memory.md is the user's memory file already.
        if *name == "MEMORY.md" && root.join("memory.md").exists() {
            continue;
        }
        create_new(&root.join(name), text, &mut out);
    }
    if out.brand_new {
        let text = BOOTSTRAP.replace("{{ memo_home }}", &root.display().to_string());
        create_new(&root.join("BOOTSTRAP.md"), &text, &mut out);
    }
    out
}

fn is_brand_new(root: &Path) -> bool {
    let names = TEMPLATES
        .iter()
        .map(|(n, _)| *n)
        .chain(["BOOTSTRAP.md", "memory.md"]);
    !names.into_iter().any(|n| root.join(n).exists())
}

fn create_new(path: &Path, text: &str, out: &mut HomeInit) {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path);
    match file {
        Ok(mut file) => match file.write_all(text.as_bytes()) {
            Ok(()) => out.created.push(path.to_path_buf()),
            Err(err) => out.problems.push(problem(path, &err)),
        },
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(err) => out.problems.push(problem(path, &err)),
    }
}

fn problem(path: &Path, err: &std::io::Error) -> ContextProblem {
    ContextProblem {
        path: path.display().to_string(),
        message: format!("could not create it: {err}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_home_gets_every_file_and_the_bootstrap_note() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("memo");
        let init = init_home(&root);
        assert!(init.brand_new);
        assert!(init.problems.is_empty(), "{:?}", init.problems);
        for name in [
            "AGENTS.md",
            "SOUL.md",
            "TOOLS.md",
            "IDENTITY.md",
            "USER.md",
            "HEARTBEAT.md",
            "MEMORY.md",
            "BOOTSTRAP.md",
        ] {
            assert!(root.join(name).is_file(), "{name}");
        }
        for d in DIRS {
            assert!(root.join(d).is_dir(), "{d}");
        }
        let note = std::fs::read_to_string(root.join("BOOTSTRAP.md")).unwrap();
        assert!(note.contains(&root.display().to_string()));
        assert!(!note.contains("{{"));
    }

    #[test]
    fn existing_files_are_never_overwritten_and_bootstrap_needs_a_new_home() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("SOUL.md"), "mine").unwrap();
        std::fs::write(root.join("memory.md"), "remember").unwrap();
        let init = init_home(root);
        assert!(!init.brand_new);
        assert_eq!(
            std::fs::read_to_string(root.join("SOUL.md")).unwrap(),
            "mine"
        );
        assert!(!root.join("BOOTSTRAP.md").exists());
        assert!(!root.join("MEMORY.md").exists() || cfg!(any(target_os = "macos", windows)));
        assert!(root.join("AGENTS.md").is_file());

        // A second run creates nothing and changes nothing.
        std::fs::write(root.join("AGENTS.md"), "edited").unwrap();
        let again = init_home(root);
        assert!(again.created.is_empty(), "{:?}", again.created);
        assert_eq!(
            std::fs::read_to_string(root.join("AGENTS.md")).unwrap(),
            "edited"
        );
    }
}
