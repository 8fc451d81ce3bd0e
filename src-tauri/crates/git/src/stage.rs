//! Staging and unstaging: git's own hunks, one by one or a whole file, and a hunk of
//! another diff (what a session changed) kept in the index.

use std::path::PathBuf;

use memo_protocol::{FileDiff, GitFileDiff, GitStageRequest, Phrase};

use crate::diff::{parse_diff, patch_of};
use crate::error::{GitError, Result};
use crate::repo::Repo;

/// How git is asked for a diff Memo reads: no colour, no external or textconv driver,
/// no renames (a hunk must belong to one path), and paths under a/ and b/ whatever the
/// person's `diff.noprefix` says, so `git apply` reads them back.
const DIFF_ARGS: [&str; 6] = [
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
];

impl Repo {
    fn side_diff(&self, path: &str, staged: bool) -> Result<(Option<FileDiff>, bool)> {
        let full = self.full(path);
        let mut args = vec!["diff"];
        if staged {
            args.push("--cached");
        }
        args.extend(DIFF_ARGS);
        args.extend(["--", &full]);
        let text = String::from_utf8_lossy(&self.git(&args)?).into_owned();
        let binary = text.lines().any(|l| l.starts_with("Binary files "));
        Ok((parse_diff(path, &text), binary))
    }

    /// The file's staged and unstaged diffs, as git cuts them into hunks.
    pub fn file_diff(&self, path: &str) -> Result<GitFileDiff> {
        let (staged, staged_binary) = self.side_diff(path, true)?;
        let (unstaged, unstaged_binary) = self.side_diff(path, false)?;
        Ok(GitFileDiff {
            path: path.to_owned(),
            staged,
            unstaged,
            binary: staged_binary || unstaged_binary,
        })
    }

    /// Stages (or unstages) hunks of one side of a file, or the whole file. With hunks,
    /// the side's diff must still be the one shown, or nothing is done.
    pub fn stage(&self, request: &GitStageRequest) -> Result<()> {
        let full = self.full(&request.path);
        let Some(hunks) = &request.hunks else {
            return self.stage_file(&request.path, &full, request.unstage);
        };
        let (diff, _) = self.side_diff(&request.path, request.unstage)?;
        let changed = || {
            GitError::Refused(Phrase::GitChangedSinceShown {
                path: request.path.clone(),
            })
        };
        let diff = diff.ok_or_else(changed)?;
        if request
            .shown_diff
            .as_deref()
            .is_some_and(|shown| shown != diff.unified)
        {
            return Err(changed());
        }
        let patch = patch_of(&diff, hunks, request.unstage).ok_or_else(changed)?;
        let mut args = vec!["apply", "--cached", "--whitespace=nowarn"];
        if request.unstage {
            args.push("--reverse");
        }
        let out = self.output(&args, Some(patch.as_bytes()))?;
        crate::run::checked(out, &args).map(|_| ())
    }

    fn stage_file(&self, path: &str, full: &str, unstage: bool) -> Result<()> {
        if !unstage {
            // -A: a deleted file's deletion is staged too.
            return self.git(&["add", "-A", "--", full]).map(|_| ());
        }
        if self.head_exists()? {
            // A staged rename's source comes back too.
            let mut paths = vec![full.to_owned()];
            let status = self.status()?;
            if let Some(from) = status
                .files
                .iter()
                .find(|f| f.path == path)
                .and_then(|f| f.renamed_from.clone())
            {
                paths.push(self.full(&from));
            }
            let mut args = vec!["restore", "--staged", "--"];
            args.extend(paths.iter().map(String::as_str));
            self.git(&args).map(|_| ())
        } else {
            // Before the first commit there is nothing to restore from: out of the index.
            self.git(&["rm", "--cached", "-r", "-q", "--", full])
                .map(|_| ())
        }
    }

    fn head_exists(&self) -> Result<bool> {
        Ok(crate::run::probe(&self.top, &["rev-parse", "--verify", "-q", "HEAD"])?.is_some())
    }

    /// Puts `picked` hunks of another diff of the file (what a session changed, from the
    /// file as it found it to now) into the index, as `git apply --cached` finds their
    /// lines there. Refused when the index no longer holds the lines they change.
    pub fn stage_patch(&self, path: &str, diff: &FileDiff, picked: &[u32]) -> Result<()> {
        let patch = self.foreign_patch(path, diff, picked)?;
        let args = ["apply", "--cached", "--whitespace=nowarn"];
        let out = self.output(&args, Some(patch.as_bytes()))?;
        if out.ok {
            return Ok(());
        }
        // An untracked (or not yet added) file has no lines in the index to match.
        let tracked = crate::run::probe(
            &self.top,
            &["ls-files", "--error-unmatch", "--", &self.full(path)],
        )?;
        if tracked.is_none() {
            return self.git(&["add", "--", &self.full(path)]).map(|_| ());
        }
        Err(GitError::Refused(Phrase::GitHunkNotInIndex {
            path: path.to_owned(),
        }))
    }

    /// Takes `picked` hunks of another diff of the file out of the index again.
    pub fn unstage_patch(&self, path: &str, diff: &FileDiff, picked: &[u32]) -> Result<()> {
        let patch = self.foreign_patch(path, diff, picked)?;
        let args = ["apply", "--cached", "--reverse", "--whitespace=nowarn"];
        let out = self.output(&args, Some(patch.as_bytes()))?;
        if out.ok {
            Ok(())
        } else {
            Err(GitError::Refused(Phrase::GitHunkNotInIndex {
                path: path.to_owned(),
            }))
        }
    }

    /// Whether the index holds `hunk` of another diff of the file: it would come out of it
    /// again cleanly.
    pub fn index_has(&self, path: &str, diff: &FileDiff, hunk: u32) -> Result<bool> {
        let patch = self.foreign_patch(path, diff, &[hunk])?;
        let args = ["apply", "--cached", "--check", "--reverse"];
        Ok(self.output(&args, Some(patch.as_bytes()))?.ok)
    }

    /// Which of `hunks` of another diff of the file HEAD already holds (they are committed,
    /// not staged): checked against an index read from HEAD into a file of its own, so the
    /// real index is never touched.
    pub fn committed_hunks(&self, path: &str, diff: &FileDiff, hunks: &[u32]) -> Result<Vec<u32>> {
        if hunks.is_empty() || !self.head_exists()? {
            return Ok(Vec::new());
        }
        let index = PathBuf::from(crate::run::line(
            &self.top,
            &[
                "rev-parse",
                "--git-path",
                &format!("memo-head-index-{}", std::process::id()),
            ],
        )?);
        let index = if index.is_absolute() {
            index
        } else {
            self.top.join(index)
        };
        let index_arg = format!("--index-output={}", index.display());
        self.git(&["read-tree", &index_arg, "HEAD"])?;
        let mut committed = Vec::new();
        for &hunk in hunks {
            let patch = self.foreign_patch(path, diff, &[hunk])?;
            let args = ["apply", "--cached", "--check", "--reverse"];
            let mut cmd = crate::run::command(&self.top, &args);
            cmd.env("GIT_INDEX_FILE", &index);
            if crate::run::output_of(cmd, Some(patch.as_bytes()))?.ok {
                committed.push(hunk);
            }
        }
        let _ = std::fs::remove_file(&index);
        Ok(committed)
    }

    /// A patch of hunks of a diff Memo made itself, with git's header for the path.
    fn foreign_patch(&self, path: &str, diff: &FileDiff, picked: &[u32]) -> Result<String> {
        let full = self.full(path);
        let mut own = diff.clone();
        // Memo's own diffs name the file loosely (`a/path`, `path`); git apply wants its
        // header.
        let body_at = own.unified.find("\n@@").map(|at| at + 1).unwrap_or(0);
        own.unified = format!(
            "diff --git a/{full} b/{full}\n--- a/{full}\n+++ b/{full}\n{}",
            &own.unified[body_at..]
        );
        patch_of(&own, picked, false).ok_or_else(|| {
            GitError::Refused(Phrase::GitChangedSinceShown {
                path: path.to_owned(),
            })
        })
    }
}
