//! Sessions in their own worktree through the service, with a real git repository and a
//! mock model: the agent's edit lands in the worktree only, the diff and status show it,
//! a reopened session is in its worktree again, and merge / discard finish it.

mod support;

use std::path::{Path, PathBuf};

use memo_protocol::{ApprovalMode, ErrorCode, WorktreeState};
use memo_service::{StartRequest, WorktreeSessionRequest};
use memo_test_support::git::git;
use memo_test_support::MockResponse;
use support::fixture;

/// A repository on `main` with a.txt committed; identity set locally.
fn init_repo(dir: &Path) {
    memo_test_support::git::init_repo(dir, &[("a.txt", "one\ntwo\n")]);
}

fn request(cwd: &Path, name: Option<&str>) -> WorktreeSessionRequest {
    WorktreeSessionRequest {
        start: StartRequest {
            cwd: cwd.to_path_buf(),
            approval_mode: Some(ApprovalMode::Dangerous),
            ..StartRequest::default()
        },
        name: name.map(str::to_owned),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worktree_session_edits_its_own_checkout_and_comes_back_to_it() {
    let patch = serde_json::json!({
        "file_path": "a.txt",
        "edits": [{"old_string": "two\n", "new_string": "TWO\n"}]
    });
    let f = fixture(vec![
        MockResponse::tool_call("apply_patch", patch.to_string()),
        MockResponse::text("Edited."),
    ])
    .await;
    let repo = std::fs::canonicalize(f.work.path()).unwrap();
    init_repo(&repo);

    let started = f
        .service
        .start_session_in_worktree(request(&repo, Some("shout")))
        .unwrap();
    let worktree = &started.worktree;
    let path = PathBuf::from(&worktree.path);
    assert_eq!(started.session.cwd, worktree.path);
    assert_eq!(worktree.branch, "memo/shout");
    assert_eq!(worktree.session_id.as_ref(), Some(&started.session.id));
    assert!(path.starts_with(std::fs::canonicalize(f.home.path()).unwrap()));

    let id = started.session.id.clone();
    f.turn(&id, "shout two").await;
    assert_eq!(
        std::fs::read_to_string(path.join("a.txt")).unwrap(),
        "one\nTWO\n"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");

    let found = f.service.worktree_for_session(&id).unwrap().unwrap();
    assert_eq!(found.id, worktree.id);
    let status = f.service.worktree_status(&worktree.id).unwrap();
    assert_eq!(status.uncommitted.len(), 1);
    let diff = f.service.worktree_diff(&worktree.id).unwrap();
    assert_eq!(diff.files.len(), 1);
    assert_eq!((diff.files[0].added, diff.files[0].removed), (1, 1));
    assert!(diff.files[0]
        .diff
        .as_ref()
        .unwrap()
        .unified
        .contains("+TWO"));
    let listed = f.service.list_worktrees(Some(&repo)).unwrap();
    assert_eq!(listed.len(), 1);

    // Closed and reopened, the session is in its worktree again.
    assert!(f.service.close_session(&id).await);
    let resumed = f.service.resume_session(&id, None).unwrap();
    assert_eq!(resumed.cwd, worktree.path);
    assert_eq!(
        f.service.worktree_for_session(&id).unwrap().unwrap().id,
        worktree.id
    );

    // Discarding asks for the list; merging brings the edit home.
    let refused = f
        .service
        .discard_worktree(&worktree.id, None)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Conflict);
    assert!(refused.to_string().contains("a.txt"), "{refused}");
    assert!(
        f.service.is_live(&id),
        "a refused discard leaves the session open"
    );

    let merged = f.service.merge_worktree(&worktree.id, "Shout two").unwrap();
    assert_eq!(merged.files, ["a.txt"]);
    assert_eq!(
        std::fs::read_to_string(repo.join("a.txt")).unwrap(),
        "one\nTWO\n"
    );

    let done = f
        .service
        .discard_worktree(&worktree.id, None)
        .await
        .unwrap();
    assert!(done.branch_deleted);
    assert!(!path.exists());
    assert!(
        !f.service.is_live(&id),
        "the session in a discarded worktree is closed"
    );
    assert!(f.service.worktree_for_session(&id).unwrap().is_none());
    assert!(f.service.list_worktrees(None).unwrap().is_empty());
    f.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_branch_and_refusals_through_the_service() {
    let f = fixture(vec![]).await;
    let repo = std::fs::canonicalize(f.work.path()).unwrap();

    // Not a repository yet: refused, nothing created.
    let err = f
        .service
        .start_session_in_worktree(request(&repo, None))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(
        err.to_string().contains("not inside a git repository"),
        "{err}"
    );
    init_repo(&repo);

    // A session that cannot start (no such provider) leaves no worktree behind.
    let mut bad = request(&repo, None);
    bad.start.provider = Some("nope".into());
    f.service.start_session_in_worktree(bad).unwrap_err();
    assert!(f.service.list_worktrees(None).unwrap().is_empty());
    assert_eq!(git(&repo, &["worktree", "list"]).lines().count(), 1);

    let started = f
        .service
        .start_session_in_worktree(request(&repo, None))
        .unwrap();
    let w = started.worktree;
    std::fs::write(Path::new(&w.path).join("b.txt"), "new\n").unwrap();
    let err = f.service.keep_worktree_branch(&w.id, "").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(f.service.is_live(&started.session.id));
    let kept = f
        .service
        .keep_worktree_branch(&w.id, "Add b")
        .await
        .unwrap();
    assert_eq!(
        kept.push_command,
        format!("git push -u <remote> {}", w.branch)
    );
    assert!(!Path::new(&w.path).exists());
    assert_eq!(git(&repo, &["show", &format!("{}:b.txt", w.branch)]), "new");
    assert!(!f.service.is_live(&started.session.id));

    // A missing worktree is reported as such and can be forgotten.
    let again = f
        .service
        .start_session_in_worktree(request(&repo, None))
        .unwrap();
    f.service.close_session(&again.session.id).await;
    std::fs::remove_dir_all(&again.worktree.path).unwrap();
    let listed = f.service.list_worktrees(None).unwrap();
    assert_eq!(listed[0].state, WorktreeState::Missing);
    let err = f
        .service
        .merge_worktree(&again.worktree.id, "m")
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    f.service.forget_worktree(&again.worktree.id).unwrap();
    assert!(f.service.list_worktrees(None).unwrap().is_empty());
    f.finish().await;
}
