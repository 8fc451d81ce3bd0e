//! From review to commit in the session's own repository (its folder, or its worktree):
//! git's status and per-side hunks, staging and unstaging them, the commit with a message
//! the session's model drafts from the staged diff, the push and the pull request. All of
//! it is the person's `git` (memo-git); this layer finds the repository of a session and
//! asks the model.

use std::path::{Path, PathBuf};

use memo_git::Repo;
use memo_protocol::{
    CommitPreview, CommitRequest, CommitResult, GitFileDiff, GitStageRequest, GitStatus, Phrase,
    PullRequestPlan, PullRequestRequest, PullRequestResult, PushRequest, PushResult, SessionId,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

const COMMIT_PROMPT: &str = include_str!("../../../../prompts/commit_message.md");
const PULL_REQUEST_PROMPT: &str = include_str!("../../../../prompts/pull_request.md");
/// How much of the conversation a pull request's text is drafted from.
const CONVERSATION_CHARS: usize = 6_000;

/// Where the repository is: a session's folder (or worktree), whose model drafts the
/// messages, or a folder given directly (memo-cli outside a session), drafted with the
/// current provider's model.
#[derive(Debug, Clone, Copy)]
pub enum GitPlace<'a> {
    Session(&'a SessionId),
    Folder(&'a Path),
}

impl Service {
    fn repo_of(&self, place: GitPlace<'_>) -> Result<Repo> {
        match place {
            GitPlace::Session(id) => Ok(Repo::open(&PathBuf::from(self.session(id)?.cwd))?),
            GitPlace::Folder(folder) => Ok(Repo::open(folder)?),
        }
    }

    /// The session's provider and model (`None`: the current provider's).
    fn drafting_model(&self, place: GitPlace<'_>) -> Result<(Option<String>, Option<String>)> {
        match place {
            GitPlace::Session(id) => {
                let record = self.session(id)?;
                Ok((Some(record.provider), Some(record.model)))
            }
            GitPlace::Folder(_) => Ok((None, None)),
        }
    }

    pub fn git_status(&self, place: GitPlace<'_>) -> Result<GitStatus> {
        Ok(self.repo_of(place)?.status()?)
    }

    pub fn git_file_diff(&self, place: GitPlace<'_>, path: &str) -> Result<GitFileDiff> {
        Ok(self.repo_of(place)?.file_diff(path)?)
    }

    /// Stages or unstages hunks of a file (or all of it); returns the status after.
    pub fn git_stage(&self, place: GitPlace<'_>, request: &GitStageRequest) -> Result<GitStatus> {
        let repo = self.repo_of(place)?;
        repo.stage(request)?;
        Ok(repo.status()?)
    }

    pub fn commit_preview(&self, place: GitPlace<'_>) -> Result<CommitPreview> {
        Ok(self.repo_of(place)?.commit_preview()?)
    }

    /// A commit message for what is staged, by the session's model, in the style of the
    /// repository's recent subjects. Nothing is committed.
    pub async fn draft_commit_message(&self, place: GitPlace<'_>) -> Result<String> {
        let repo = self.repo_of(place)?;
        let preview = repo.commit_preview()?;
        if preview.files.is_empty() {
            return Err(ServiceError::invalid(Phrase::GitNothingStaged));
        }
        let input = repo.draft_input()?;
        let subjects = if input.recent_subjects.is_empty() {
            "(no commits yet)".to_owned()
        } else {
            input.recent_subjects.join("\n")
        };
        let text = format!(
            "Write the commit message for this staged change.\n\n<recent_subjects>\n{subjects}\n</recent_subjects>\n\n<branch>{}</branch>\n\n<stat>\n{}</stat>\n\n<staged_diff>\n{}</staged_diff>",
            input.branch.as_deref().unwrap_or("(detached)"),
            input.staged_stat,
            input.staged_diff
        );
        let (provider, model) = self.drafting_model(place)?;
        let message = self
            .engine()?
            .ask_once(
                provider.as_deref(),
                model.as_deref(),
                COMMIT_PROMPT,
                text,
                1024,
            )
            .await?;
        Ok(message)
    }

    pub fn commit(&self, place: GitPlace<'_>, request: &CommitRequest) -> Result<CommitResult> {
        Ok(self.repo_of(place)?.commit(request)?)
    }

    pub fn push(&self, place: GitPlace<'_>, request: &PushRequest) -> Result<PushResult> {
        Ok(self.repo_of(place)?.push(request)?)
    }

    /// What opening a pull request with this title and body would run.
    pub fn pull_request_plan(
        &self,
        place: GitPlace<'_>,
        title: &str,
        body: &str,
    ) -> Result<PullRequestPlan> {
        let repo = self.repo_of(place)?;
        let path = memo_child_env::path_env::server_path();
        let cwd = repo.top().to_path_buf();
        Ok(repo.pull_request_plan(title, body, &|program| {
            memo_child_env::path_env::resolve_command(program, path, &cwd)
        })?)
    }

    /// A pull request's title and body drafted by the session's model from what was asked,
    /// the branch's commits and what the session said, with the command that would open it.
    pub async fn draft_pull_request(&self, place: GitPlace<'_>) -> Result<PullRequestPlan> {
        let repo = self.repo_of(place)?;
        let commits = repo.unpushed().unwrap_or_default();
        let (conversation, session_title) = match place {
            GitPlace::Session(id) => (self.conversation_excerpt(id)?, self.session(id)?.title),
            GitPlace::Folder(_) => (String::new(), None),
        };
        let text = format!(
            "Write the pull request for this branch.\n\n<branch>{}</branch>\n\n<commits>\n{}\n</commits>\n\n<session>\n{conversation}\n</session>",
            repo.branch()?.unwrap_or_default(),
            commits.join("\n"),
        );
        let (provider, model) = self.drafting_model(place)?;
        let answer = self
            .engine()?
            .ask_once(
                provider.as_deref(),
                model.as_deref(),
                PULL_REQUEST_PROMPT,
                text,
                1500,
            )
            .await?;
        let (title, body) = split_title(&answer, session_title.as_deref());
        self.pull_request_plan(place, &title, &body)
    }

    /// Runs the forge's CLI to open the pull request; without one, refused with the page
    /// to open it in (the plan's `compare_url`).
    pub fn open_pull_request(
        &self,
        place: GitPlace<'_>,
        request: &PullRequestRequest,
    ) -> Result<PullRequestResult> {
        let plan = self.pull_request_plan(place, &request.title, &request.body)?;
        let no_cli = || {
            ServiceError::invalid(match &plan.compare_url {
                Some(url) => Phrase::GitNoForgeCli { url: url.clone() },
                None => Phrase::GitNoForge,
            })
        };
        let repo = self.repo_of(place)?;
        let path = memo_child_env::path_env::server_path();
        let program = plan
            .command
            .first()
            .and_then(|program| {
                memo_child_env::path_env::resolve_command(program, path, repo.top())
            })
            .ok_or_else(no_cli)?;
        Ok(memo_git::forge::open_pull_request(
            repo.top(),
            &plan.command,
            &program,
        )?)
    }

    /// The person's messages and the agent's answers, newest last, cut to a size.
    fn conversation_excerpt(&self, id: &SessionId) -> Result<String> {
        let events = self.last_events(id, 400)?;
        let mut lines = Vec::new();
        for envelope in events {
            match envelope.event {
                memo_protocol::AgentEvent::TurnStarted { input } => {
                    lines.push(format!("Person: {}", input.text))
                }
                memo_protocol::AgentEvent::AssistantMessage { text, .. }
                    if !text.trim().is_empty() =>
                {
                    lines.push(format!("Agent: {text}"))
                }
                _ => {}
            }
        }
        let mut out = String::new();
        for line in lines.iter().rev() {
            if out.len() + line.len() > CONVERSATION_CHARS {
                break;
            }
            out = format!("{line}\n{out}");
        }
        Ok(out)
    }
}

/// `Title: …` then the body; a model that ignored the form gets its first line as title.
fn split_title(answer: &str, fallback: Option<&str>) -> (String, String) {
    let answer = answer.trim();
    let (first, rest) = answer.split_once('\n').unwrap_or((answer, ""));
    let title = first
        .trim()
        .strip_prefix("Title:")
        .unwrap_or(first)
        .trim()
        .trim_matches('"')
        .to_owned();
    let title = if title.is_empty() {
        fallback.unwrap_or("Changes").to_owned()
    } else {
        title
    };
    (title, rest.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drafted_pull_request_is_read_as_title_and_body() {
        let (t, b) = split_title("Title: Fix the parser\n\nIt broke on tabs.\n", None);
        assert_eq!(
            (t.as_str(), b.as_str()),
            ("Fix the parser", "It broke on tabs.")
        );
        let (t, b) = split_title("Fix it", Some("x"));
        assert_eq!((t.as_str(), b.as_str()), ("Fix it", ""));
    }
}
