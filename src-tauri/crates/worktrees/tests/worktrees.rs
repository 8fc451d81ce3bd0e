//! The worktree service on real git repositories in temporary folders: creating, status,
//! diff, merge back, keeping the branch, discarding (refused without the exact list of
//! what would be lost), and never touching a worktree Memo did not create.

use std::path::{Path, PathBuf};

use memo_protocol::{WorktreeFileStatus, WorktreeState};
use memo_test_support::git::{git, init_repo};
use memo_worktrees::{DiffSide, WorktreeError, Worktrees};

/// A Memo home and a repository on `main` with one commit (a.txt, b.txt); identity and
/// signing are set in the repository so the tests need no global git config.
struct Setup {
    home: tempfile::TempDir,
    repo_dir: tempfile::TempDir,
    worktrees: Worktrees,
}

impl Setup {
    fn new() -> Self {
        let home = tempfile::tempdir().unwrap();
        let repo_dir = tempfile::tempdir().unwrap();
        let repo = repo_dir.path();
        init_repo(
            repo,
            &[("a.txt", "one\ntwo\nthree\n"), ("b.txt", "alpha\n")],
        );
        let worktrees = Worktrees::new(home.path());
        Self {
            home,
            repo_dir,
            worktrees,
        }
    }

    fn repo(&self) -> PathBuf {
        std::fs::canonicalize(self.repo_dir.path()).unwrap()
    }
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn create_makes_a_branch_in_memos_folder_from_head() {
    let s = Setup::new();
    let head = git(&s.repo(), &["rev-parse", "HEAD"]);
    let w = s.worktrees.create(&s.repo(), Some("Fix login")).unwrap();
    let path = PathBuf::from(&w.path);
    assert_eq!(path.parent().unwrap(), s.worktrees.folder());
    assert!(path.starts_with(std::fs::canonicalize(s.home.path()).unwrap()));
    // Temporary folders start with a dot, which a worktree's folder name leaves out.
    let repo_name = s
        .repo()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .trim_start_matches('.')
        .to_owned();
    assert_eq!(
        path.file_name().unwrap().to_string_lossy(),
        format!("{repo_name}-{}", w.id)
    );
    assert_eq!(w.branch, "memo/fix-login");
    assert_eq!(w.base_branch.as_deref(), Some("main"));
    assert_eq!(w.base_commit, head);
    assert_eq!(w.state, WorktreeState::Ready);
    assert_eq!(w.session_cwd, w.path);
    assert_eq!(read(path.join("a.txt")), "one\ntwo\nthree\n");
    assert_eq!(
        git(&path, &["symbolic-ref", "--short", "HEAD"]),
        "memo/fix-login"
    );
    assert!(git(&s.repo(), &["worktree", "list"]).contains(&w.path));
    // The registry records it; a second one with the same name gets its own branch.
    let registry = read(s.home.path().join("worktrees.json"));
    assert!(registry.contains(&w.id) && registry.contains("memo/fix-login"));
    let second = s.worktrees.create(&s.repo(), Some("Fix login")).unwrap();
    assert_eq!(second.branch, format!("memo/fix-login-{}", second.id));
    let unnamed = s.worktrees.create(&s.repo(), None).unwrap();
    assert_eq!(unnamed.branch, format!("memo/{}", unnamed.id));
    assert_eq!(s.worktrees.list(Some(&s.repo())).unwrap().len(), 3);
    assert_eq!(s.worktrees.get(&w.id).unwrap(), w);
}

#[test]
fn a_repository_in_a_chinese_path_gets_a_worktree_that_edits_and_merges_back() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("项目-笔记");
    std::fs::create_dir(&repo).unwrap();
    init_repo(&repo, &[("说明.md", "状态：草稿\n")]);
    let repo = std::fs::canonicalize(&repo).unwrap();
    let worktrees = Worktrees::new(home.path());
    let w = worktrees.create(&repo, Some("改成定稿")).unwrap();
    let path = PathBuf::from(&w.path);
    // The folder and the branch keep the Chinese words, as git and the file system take
    // them; git itself lists the branch under that name.
    assert_eq!(w.branch, "memo/改成定稿");
    assert_eq!(
        path.file_name().unwrap().to_str().unwrap(),
        format!("项目-笔记-{}", w.id)
    );
    let listed = std::process::Command::new("git")
        .args(["branch", "--list", "memo/*", "--format=%(refname:short)"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(listed.stdout).unwrap().trim(),
        "memo/改成定稿"
    );
    assert!(path.join("说明.md").is_file());
    std::fs::write(path.join("说明.md"), "状态：定稿\n").unwrap();
    let status = worktrees.status(&w.id).unwrap();
    assert!(
        status.uncommitted.iter().any(|f| f.path == "说明.md"),
        "{status:?}"
    );
    let merged = worktrees.merge(&w.id, "改成定稿").unwrap();
    assert_eq!(merged.files, ["说明.md"]);
    assert_eq!(merged.committed.as_ref().unwrap().subject, "改成定稿");
    assert_eq!(read(repo.join("说明.md")), "状态：定稿\n");
}

#[test]
fn create_refuses_a_folder_outside_git_and_a_repository_without_commits() {
    let s = Setup::new();
    let plain = tempfile::tempdir().unwrap();
    let err = s.worktrees.create(plain.path(), None).unwrap_err();
    assert!(matches!(err, WorktreeError::NotARepo(_)), "{err}");
    assert!(err.to_string().contains("not inside a git repository"));
    git(plain.path(), &["init", "-q"]);
    let err = s.worktrees.create(plain.path(), None).unwrap_err();
    assert!(matches!(err, WorktreeError::NoCommit(_)), "{err}");
    assert!(s.worktrees.list(None).unwrap().is_empty());
}

#[test]
fn a_subfolder_session_starts_in_the_same_subfolder_and_maps_back() {
    let s = Setup::new();
    std::fs::create_dir(s.repo().join("sub")).unwrap();
    std::fs::write(s.repo().join("sub/c.txt"), "c\n").unwrap();
    git(&s.repo(), &["add", "-A"]);
    git(&s.repo(), &["commit", "-q", "-m", "sub"]);
    let w = s.worktrees.create(&s.repo().join("sub"), None).unwrap();
    assert_eq!(
        PathBuf::from(&w.session_cwd),
        PathBuf::from(&w.path).join("sub")
    );
    let found = s
        .worktrees
        .containing(Path::new(&w.session_cwd))
        .unwrap()
        .unwrap();
    assert_eq!(found.id, w.id);
    assert!(s.worktrees.containing(&s.repo()).unwrap().is_none());
    s.worktrees
        .set_session(&w.id, &memo_protocol::SessionId::new("s-1"))
        .unwrap();
    assert_eq!(s.worktrees.get(&w.id).unwrap().session_id.unwrap().0, "s-1");
}

#[test]
fn edits_in_the_worktree_leave_the_main_checkout_alone_and_show_in_status_and_diff() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("a.txt"), "one\nTWO\nthree\n").unwrap();
    std::fs::write(path.join("new.txt"), "fresh\n").unwrap();
    std::fs::remove_file(path.join("b.txt")).unwrap();

    assert_eq!(read(s.repo().join("a.txt")), "one\ntwo\nthree\n");
    assert!(!s.repo().join("new.txt").exists());
    assert!(s.repo().join("b.txt").exists());
    assert_eq!(git(&s.repo(), &["status", "--porcelain"]), "");

    let status = s.worktrees.status(&w.id).unwrap();
    let files: Vec<(&str, WorktreeFileStatus)> = status
        .uncommitted
        .iter()
        .map(|f| (f.path.as_str(), f.status))
        .collect();
    assert_eq!(
        files,
        [
            ("a.txt", WorktreeFileStatus::Modified),
            ("b.txt", WorktreeFileStatus::Deleted),
            ("new.txt", WorktreeFileStatus::Untracked)
        ]
    );
    assert!(status.ahead.is_empty() && status.merged && status.behind == 0);

    git(&path, &["add", "a.txt"]);
    git(&path, &["commit", "-q", "-m", "Shout two"]);
    // The base branch moves on too.
    std::fs::write(s.repo().join("c.txt"), "c\n").unwrap();
    git(&s.repo(), &["add", "c.txt"]);
    git(&s.repo(), &["commit", "-q", "-m", "Add c"]);
    let status = s.worktrees.status(&w.id).unwrap();
    assert_eq!(status.ahead.len(), 1);
    assert_eq!(status.ahead[0].subject, "Shout two");
    assert_eq!(status.behind, 1);
    assert!(!status.merged);
    assert_eq!(
        status.discard_confirmation,
        [
            "file b.txt".to_owned(),
            "file new.txt".to_owned(),
            format!("commit {} Shout two", status.ahead[0].sha)
        ]
    );

    // Committed and uncommitted changes against where the branch started; the base
    // branch's own later commit (c.txt) is not part of it.
    let diff = s.worktrees.diff(&w.id, 1 << 20).unwrap();
    assert_eq!(diff.base_commit, w.base_commit);
    let sides: Vec<(&str, &DiffSide, &DiffSide)> = diff
        .files
        .iter()
        .map(|f| (f.path.as_str(), &f.base, &f.now))
        .collect();
    assert_eq!(
        sides,
        [
            (
                "a.txt",
                &DiffSide::Bytes(b"one\ntwo\nthree\n".to_vec()),
                &DiffSide::Bytes(b"one\nTWO\nthree\n".to_vec())
            ),
            (
                "b.txt",
                &DiffSide::Bytes(b"alpha\n".to_vec()),
                &DiffSide::Absent
            ),
            (
                "new.txt",
                &DiffSide::Absent,
                &DiffSide::Bytes(b"fresh\n".to_vec())
            ),
        ]
    );
    let small = s.worktrees.diff(&w.id, 3).unwrap();
    assert_eq!(small.files[0].now, DiffSide::Large(14));
}

#[test]
fn discard_refuses_to_lose_work_without_the_exact_current_list() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("a.txt"), "changed\n").unwrap();
    std::fs::write(path.join("c.txt"), "committed\n").unwrap();
    git(&path, &["add", "c.txt"]);
    git(&path, &["commit", "-q", "-m", "Add c"]);

    let err = s.worktrees.discard(&w.id, None).unwrap_err();
    let WorktreeError::NeedsConfirmation {
        files,
        commits,
        confirmation,
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(files, &["a.txt"]);
    assert_eq!(commits.len(), 1);
    assert!(commits[0].ends_with(" Add c"));
    assert!(err.to_string().contains("a.txt") && err.to_string().contains("Add c"));
    assert!(path.exists());
    assert_eq!(
        confirmation,
        &s.worktrees.status(&w.id).unwrap().discard_confirmation
    );

    // Something new since the list was shown: the old list no longer confirms.
    std::fs::write(path.join("late.txt"), "late\n").unwrap();
    let stale = confirmation.clone();
    let err = s.worktrees.discard(&w.id, Some(&stale)).unwrap_err();
    assert!(
        matches!(err, WorktreeError::NeedsConfirmation { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("late.txt"));
    assert!(path.join("late.txt").exists());
    let empty: Vec<String> = Vec::new();
    assert!(s.worktrees.discard(&w.id, Some(&empty)).is_err());

    let current = s.worktrees.status(&w.id).unwrap().discard_confirmation;
    let done = s.worktrees.discard(&w.id, Some(&current)).unwrap();
    assert!(done.branch_deleted, "{:?}", done.note);
    assert!(!path.exists());
    assert!(!git(&s.repo(), &["branch", "--list"]).contains(&w.branch));
    assert!(!git(&s.repo(), &["worktree", "list"]).contains(&w.path));
    assert!(s.worktrees.list(None).unwrap().is_empty());
    assert_eq!(read(s.repo().join("a.txt")), "one\ntwo\nthree\n");
    assert!(matches!(
        s.worktrees.discard(&w.id, None).unwrap_err(),
        WorktreeError::NotFound(_)
    ));
}

#[test]
fn a_clean_merged_worktree_is_discarded_without_asking() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let done = s.worktrees.discard(&w.id, None).unwrap();
    assert!(done.branch_deleted);
    assert!(!Path::new(&w.path).exists());
}

#[test]
fn a_worktree_switched_off_its_branch_is_left_alone() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    // The agent (or the user) detaches HEAD and commits there: that commit is on no branch.
    git(&path, &["checkout", "-q", "--detach"]);
    std::fs::write(path.join("a.txt"), "detached work\n").unwrap();
    git(&path, &["commit", "-q", "-am", "on no branch"]);
    let listed = s.worktrees.list(Some(&s.repo())).unwrap();
    assert_eq!(listed[0].state, WorktreeState::Unlinked);
    // Neither merged, kept nor discarded: any of them could lose that commit.
    assert!(s.worktrees.merge(&w.id, "msg").is_err());
    assert!(s.worktrees.keep_branch(&w.id, "msg").is_err());
    assert!(s.worktrees.discard(&w.id, None).is_err());
    assert!(path.join("a.txt").exists());
    assert_eq!(read(path.join("a.txt")), "detached work\n");
}

#[test]
fn merge_brings_the_work_into_the_main_checkout() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("a.txt"), "one\nTWO\nthree\n").unwrap();
    std::fs::write(path.join("new.txt"), "fresh\n").unwrap();
    // The user has unrelated uncommitted work in the main checkout: it stays.
    std::fs::write(s.repo().join("b.txt"), "alpha (mine)\n").unwrap();

    let err = s.worktrees.merge(&w.id, "  ").unwrap_err();
    assert!(err.to_string().contains("commit message"), "{err}");

    let merged = s.worktrees.merge(&w.id, "Shout two").unwrap();
    assert_eq!(merged.base_branch, "main");
    assert_eq!(merged.committed.as_ref().unwrap().subject, "Shout two");
    assert_eq!(merged.files, ["a.txt", "new.txt"]);
    assert_eq!(read(s.repo().join("a.txt")), "one\nTWO\nthree\n");
    assert_eq!(read(s.repo().join("new.txt")), "fresh\n");
    assert_eq!(read(s.repo().join("b.txt")), "alpha (mine)\n");
    assert_eq!(git(&s.repo(), &["rev-parse", "HEAD"]), merged.head);
    assert!(merged.status.merged && merged.status.uncommitted.is_empty());
    assert!(merged.status.discard_confirmation.is_empty());
    // Merged and clean: discarding needs no confirmation, and the work stays merged.
    s.worktrees.discard(&w.id, None).unwrap();
    assert_eq!(read(s.repo().join("a.txt")), "one\nTWO\nthree\n");
}

#[test]
fn merge_refuses_when_the_main_checkout_is_elsewhere_or_dirty_where_it_would_write() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("a.txt"), "worktree\n").unwrap();
    git(&path, &["commit", "-qam", "Worktree edit"]);
    let head = git(&s.repo(), &["rev-parse", "HEAD"]);

    git(&s.repo(), &["checkout", "-q", "-b", "other"]);
    let err = s.worktrees.merge(&w.id, "msg").unwrap_err();
    assert!(matches!(err, WorktreeError::Refused(_)), "{err}");
    assert!(err.to_string().contains("on other, not main"), "{err}");
    git(&s.repo(), &["checkout", "-q", "main"]);

    std::fs::write(s.repo().join("a.txt"), "the user's own edit\n").unwrap();
    std::fs::write(path.join("b.txt"), "uncommitted in the worktree\n").unwrap();
    let err = s.worktrees.merge(&w.id, "msg").unwrap_err();
    assert!(err.to_string().contains("a.txt"), "{err}");
    assert_eq!(read(s.repo().join("a.txt")), "the user's own edit\n");
    assert_eq!(git(&s.repo(), &["rev-parse", "HEAD"]), head);
    // Nothing was committed in the worktree either.
    assert_eq!(s.worktrees.status(&w.id).unwrap().uncommitted.len(), 1);

    // An untracked file of the user's where the worktree adds one counts too.
    std::fs::write(s.repo().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    std::fs::write(s.repo().join("b.txt"), "alpha\n").unwrap();
    std::fs::write(path.join("c.txt"), "theirs\n").unwrap();
    std::fs::write(s.repo().join("c.txt"), "mine\n").unwrap();
    let err = s.worktrees.merge(&w.id, "msg").unwrap_err();
    assert!(err.to_string().contains("c.txt"), "{err}");
    assert_eq!(read(s.repo().join("c.txt")), "mine\n");
}

#[test]
fn a_conflicting_merge_is_aborted_and_its_files_reported() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("a.txt"), "one\nworktree\nthree\n").unwrap();
    git(&path, &["commit", "-qam", "Worktree edit"]);
    std::fs::write(s.repo().join("a.txt"), "one\nmain\nthree\n").unwrap();
    git(&s.repo(), &["commit", "-qam", "Main edit"]);
    let head = git(&s.repo(), &["rev-parse", "HEAD"]);

    let err = s.worktrees.merge(&w.id, "msg").unwrap_err();
    let WorktreeError::MergeConflict { files, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(files, &["a.txt"]);
    assert!(err.to_string().contains("aborted"));
    assert_eq!(read(s.repo().join("a.txt")), "one\nmain\nthree\n");
    assert_eq!(git(&s.repo(), &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&s.repo(), &["status", "--porcelain"]), "");
}

#[test]
fn keep_branch_commits_removes_the_folder_and_keeps_the_branch() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), Some("feature")).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join(".gitignore"), "target/\n").unwrap();
    std::fs::create_dir(path.join("target")).unwrap();
    std::fs::write(path.join("target/build.out"), "ignored\n").unwrap();
    std::fs::write(path.join("a.txt"), "kept\n").unwrap();

    let kept = s.worktrees.keep_branch(&w.id, "Keep this").unwrap();
    assert_eq!(kept.branch, "memo/feature");
    assert_eq!(kept.remote, None);
    assert_eq!(kept.push_command, "git push -u <remote> memo/feature");
    assert_eq!(kept.committed.as_ref().unwrap().subject, "Keep this");
    assert!(!path.exists());
    assert_eq!(git(&s.repo(), &["show", "memo/feature:a.txt"]), "kept");
    assert_eq!(read(s.repo().join("a.txt")), "one\ntwo\nthree\n");
    assert!(s.worktrees.list(None).unwrap().is_empty());

    git(
        &s.repo(),
        &["remote", "add", "origin", "https://example.invalid/r.git"],
    );
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let kept = s.worktrees.keep_branch(&w.id, "").unwrap();
    assert_eq!(kept.remote.as_deref(), Some("origin"));
    assert_eq!(
        kept.push_command,
        format!("git push -u origin {}", w.branch)
    );
    assert!(kept.committed.is_none());
}

#[test]
fn worktrees_memo_did_not_create_are_never_listed_or_touched() {
    let s = Setup::new();
    let mine = s.worktrees.create(&s.repo(), None).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let theirs = elsewhere.path().join("theirs");
    git(
        &s.repo(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "user",
            theirs.to_str().unwrap(),
        ],
    );
    std::fs::write(theirs.join("a.txt"), "the user's work\n").unwrap();
    // One made by hand inside Memo's folder, without a record.
    let squatter = s.worktrees.folder().join("hand-made");
    git(
        &s.repo(),
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "hand",
            squatter.to_str().unwrap(),
        ],
    );

    let listed: Vec<String> = s
        .worktrees
        .list(None)
        .unwrap()
        .into_iter()
        .map(|w| w.id)
        .collect();
    assert_eq!(listed, [mine.id.as_str()]);

    // Records edited to point at them (or out of the folder with ..) are ignored.
    let registry = s.worktrees.registry_path().to_path_buf();
    let mut file: serde_json::Value = serde_json::from_str(&read(&registry)).unwrap();
    let template = file["worktrees"][0].clone();
    let theirs_real = std::fs::canonicalize(&theirs).unwrap();
    let escaping = s.worktrees.folder().join("..").join("..").join("x");
    for (id, path, branch) in [
        ("evil1", theirs_real.clone(), "user"),
        ("evil2", escaping, "user"),
        ("evil3", s.repo(), "main"),
    ] {
        let mut entry = template.clone();
        entry["id"] = id.into();
        entry["path"] = path.display().to_string().into();
        entry["branch"] = branch.into();
        file["worktrees"].as_array_mut().unwrap().push(entry);
    }
    std::fs::write(&registry, serde_json::to_string(&file).unwrap()).unwrap();

    let listed: Vec<String> = s
        .worktrees
        .list(None)
        .unwrap()
        .into_iter()
        .map(|w| w.id)
        .collect();
    assert_eq!(listed, [mine.id.as_str()]);
    for id in ["evil1", "evil2", "evil3", "nope"] {
        let all = vec!["file a.txt".to_owned()];
        for result in [
            s.worktrees.discard(id, None).map(|_| ()),
            s.worktrees.discard(id, Some(&all)).map(|_| ()),
            s.worktrees.merge(id, "m").map(|_| ()),
            s.worktrees.keep_branch(id, "m").map(|_| ()),
            s.worktrees.forget(id),
        ] {
            assert!(matches!(result, Err(WorktreeError::NotFound(_))), "{id}");
        }
    }
    assert_eq!(read(theirs.join("a.txt")), "the user's work\n");
    assert!(squatter.exists());
    assert!(git(&s.repo(), &["branch", "--list"]).contains("user"));
    assert!(s.worktrees.containing(&theirs_real).unwrap().is_none());
    assert!(s.worktrees.containing(&squatter).unwrap().is_none());
}

#[test]
fn a_worktree_whose_folder_was_deleted_is_missing_and_can_be_forgotten() {
    let s = Setup::new();
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("c.txt"), "c\n").unwrap();
    git(&path, &["add", "c.txt"]);
    git(&path, &["commit", "-q", "-m", "Add c"]);
    std::fs::remove_dir_all(&path).unwrap();

    let listed = s.worktrees.list(None).unwrap();
    assert_eq!(listed[0].state, WorktreeState::Missing);
    let status = s.worktrees.status(&w.id).unwrap();
    assert_eq!(status.worktree.state, WorktreeState::Missing);
    assert_eq!(status.ahead.len(), 1);
    for err in [
        s.worktrees.merge(&w.id, "m").unwrap_err(),
        s.worktrees.keep_branch(&w.id, "m").unwrap_err(),
        s.worktrees.diff(&w.id, 100).unwrap_err(),
    ] {
        assert!(matches!(err, WorktreeError::Missing { .. }), "{err}");
    }
    // Forgetting keeps the branch (its commit is not lost) and clears git's record.
    s.worktrees.forget(&w.id).unwrap();
    assert!(s.worktrees.list(None).unwrap().is_empty());
    assert!(!git(&s.repo(), &["worktree", "list"]).contains(&w.path));
    assert!(git(&s.repo(), &["branch", "--list"]).contains(&w.branch));
    s.worktrees.forget(&w.id).unwrap_err();

    // A ready one cannot be forgotten; a missing one can also be discarded, after
    // confirming its unmerged commit.
    let w = s.worktrees.create(&s.repo(), None).unwrap();
    assert!(matches!(
        s.worktrees.forget(&w.id).unwrap_err(),
        WorktreeError::Refused(_)
    ));
    let path = PathBuf::from(&w.path);
    std::fs::write(path.join("d.txt"), "d\n").unwrap();
    git(&path, &["add", "d.txt"]);
    git(&path, &["commit", "-q", "-m", "Add d"]);
    std::fs::remove_dir_all(&path).unwrap();
    let list = s.worktrees.status(&w.id).unwrap().discard_confirmation;
    assert_eq!(list.len(), 1);
    assert!(s.worktrees.discard(&w.id, None).is_err());
    assert!(
        s.worktrees
            .discard(&w.id, Some(&list))
            .unwrap()
            .branch_deleted
    );
    assert!(s.worktrees.list(None).unwrap().is_empty());
}

#[test]
fn a_damaged_registry_is_reported_and_never_written_over() {
    let s = Setup::new();
    std::fs::write(s.worktrees.registry_path(), "{ not json").unwrap();
    let err = s.worktrees.create(&s.repo(), None).unwrap_err();
    assert!(err.to_string().contains("worktrees.json"), "{err}");
    assert_eq!(read(s.worktrees.registry_path()), "{ not json");
    assert!(s.worktrees.list(None).is_err());
}
