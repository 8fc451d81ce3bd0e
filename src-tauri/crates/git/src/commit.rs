//! The commit: exactly what is staged, with the repository's hooks, the person's identity
//! and signing; and what the model is shown to draft its message.

use memo_protocol::{CommitPreview, CommitRequest, CommitResult, GitOperation, Phrase};

use crate::error::{GitError, Result};
use crate::repo::Repo;
use crate::run;
use crate::secrets::flag_secrets;

/// How much of the staged diff is read for secrets and shown to the model.
const DIFF_CAP: usize = 2 * 1024 * 1024;
/// The staged diff the model drafts from is cut here (it needs the gist, not every line).
const DRAFT_DIFF_CHARS: usize = 24_000;
/// Recent subjects the model copies the style of.
const STYLE_SUBJECTS: &str = "12";

/// What the model drafts a commit message from.
pub struct DraftInput {
    pub staged_stat: String,
    pub staged_diff: String,
    pub recent_subjects: Vec<String>,
    pub branch: Option<String>,
}

fn operation_word(operation: GitOperation) -> &'static str {
    match operation {
        GitOperation::Merge => "merge",
        GitOperation::Rebase => "rebase",
        GitOperation::CherryPick => "cherry-pick",
        GitOperation::Revert => "revert",
        GitOperation::Bisect => "bisect",
    }
}

impl Repo {
    fn staged_diff(&self) -> Result<String> {
        let out = self.git(&[
            "diff",
            "--cached",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
        ])?;
        let cut = out.len().min(DIFF_CAP);
        Ok(String::from_utf8_lossy(&out[..cut]).into_owned())
    }

    /// Why a commit cannot be made now, if it cannot.
    fn commit_blocked(&self, staged: &[String]) -> Result<Option<Phrase>> {
        if let Some(operation) = self.operation()? {
            return Ok(Some(Phrase::GitOperationInProgress {
                operation: operation_word(operation).into(),
            }));
        }
        if self.config("user.name")?.is_none() || self.config("user.email")?.is_none() {
            return Ok(Some(Phrase::GitNoIdentity));
        }
        if staged.is_empty() {
            return Ok(Some(Phrase::GitNothingStaged));
        }
        Ok(None)
    }

    fn staged_files(&self) -> Result<Vec<String>> {
        Ok(run::fields(&self.git(&["diff", "--cached", "--name-only", "-z"])?).collect())
    }

    /// What a commit would take now: the staged files, those that look like secrets, and
    /// why it cannot be made, if it cannot.
    pub fn commit_preview(&self) -> Result<CommitPreview> {
        let files = self.staged_files()?;
        let flagged = if files.is_empty() {
            Vec::new()
        } else {
            flag_secrets(&self.staged_diff()?)
        };
        let blocked = self.commit_blocked(&files)?;
        Ok(CommitPreview {
            files,
            flagged,
            blocked,
        })
    }

    /// Commits what is staged with `message`. Refused while an operation is in progress,
    /// without an identity, with nothing staged, or with flagged files the person has not
    /// seen; a hook that fails leaves everything as it was and its output is the error.
    pub fn commit(&self, request: &CommitRequest) -> Result<CommitResult> {
        let message = request.message.trim();
        if message.is_empty() {
            return Err(GitError::Refused(Phrase::GitEmptyMessage));
        }
        let preview = self.commit_preview()?;
        if let Some(reason) = preview.blocked {
            return Err(GitError::Refused(reason));
        }
        if !preview.flagged.is_empty() && !request.allow_flagged {
            return Err(GitError::Refused(Phrase::GitSecretsStaged {
                count: preview.flagged.len() as u64,
            }));
        }
        let mut text = message.to_owned();
        text.push('\n');
        let args = ["commit", "--file=-", "--cleanup=strip"];
        let out = self.output(&args, Some(text.as_bytes()))?;
        let printed = out.printed();
        if !out.ok {
            if printed.contains("Please tell me who you are")
                || printed.contains("Author identity unknown")
            {
                return Err(GitError::Refused(Phrase::GitNoIdentity));
            }
            return Err(GitError::Refused(Phrase::GitCommitRefused {
                output: printed,
            }));
        }
        let commit = run::line(&self.top, &["rev-parse", "--short", "HEAD"])?;
        let summary = run::line(&self.top, &["log", "-1", "--format=%s"])?;
        Ok(CommitResult {
            commit,
            summary,
            output: printed,
        })
    }

    /// The staged change and the repository's recent subjects, for the model.
    pub fn draft_input(&self) -> Result<DraftInput> {
        let staged_stat =
            String::from_utf8_lossy(&self.git(&["diff", "--cached", "--stat", "--no-color"])?)
                .into_owned();
        let mut staged_diff = self.staged_diff()?;
        if staged_diff.len() > DRAFT_DIFF_CHARS {
            let mut cut = DRAFT_DIFF_CHARS;
            while !staged_diff.is_char_boundary(cut) {
                cut -= 1;
            }
            staged_diff.truncate(cut);
            staged_diff.push_str("\n[… the rest of the diff is left out]\n");
        }
        let recent_subjects =
            match run::probe(&self.top, &["log", "-n", STYLE_SUBJECTS, "--format=%s"])? {
                Some(log) => log.lines().map(str::to_owned).collect(),
                // No commit yet.
                None => Vec::new(),
            };
        Ok(DraftInput {
            staged_stat,
            staged_diff,
            recent_subjects,
            branch: self.branch()?,
        })
    }
}
