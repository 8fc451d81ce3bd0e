//! From review to commit in the session's own repository (its folder, or its worktree):
//! git's status and per-side hunks, staging and unstaging them, the commit with a message
//! the session's model drafts from the staged diff, the push and the pull request. All of
//! it is the person's `git` (memo-git); this layer finds the repository of a session and
//! asks the model.

use std::path::PathBuf;

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

impl Service {
    /// The repository the session works in.
    fn repo_of(&self, id: &SessionId) -> Result<Repo> {
        let folder = PathBuf::from(self.session(id)?.cwd);
        Ok(Repo::open(&folder)?)
    }

    pub fn git_status(&self, id: &SessionId) -> Result<GitStatus> {
        Ok(self.repo_of(id)?.status()?)
    }

    pub fn git_file_diff(&self, id: &SessionId, path: &str) -> Result<GitFileDiff> {
        Ok(self.repo_of(id)?.file_diff(path)?)
    }

    /// Stages or unstages hunks of a file (or all of it); returns the status after.
    pub fn git_stage(&self, id: &SessionId, request: &GitStageRequest) -> Result<GitStatus> {
        let repo = self.repo_of(id)?;
        repo.stage(request)?;
        Ok(repo.status()?)
    }

    pub fn commit_preview(&self, id: &SessionId) -> Result<CommitPreview> {
        Ok(self.repo_of(id)?.commit_preview()?)
    }

    /// A commit message for what is staged, by the session's model, in the style of the
    /// repository's recent subjects. Nothing is committed.
    pub async fn draft_commit_message(&self, id: &SessionId) -> Result<String> {
        let repo = self.repo_of(id)?;
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
        let record = self.session(id)?;
        let message = self
            .engine()?
            .ask_once(
                Some(&record.provider),
                Some(&record.model),
                COMMIT_PROMPT,
                text,
                1024,
            )
            .await?;
        Ok(message)
    }

    pub fn commit(&self, id: &SessionId, request: &CommitRequest) -> Result<CommitResult> {
        Ok(self.repo_of(id)?.commit(request)?)
    }

    pub fn push(&self, id: &SessionId, request: &PushRequest) -> Result<PushResult> {
        Ok(self.repo_of(id)?.push(request)?)
    }

    /// What opening a pull request with this title and body would run.
    pub fn pull_request_plan(
        &self,
        id: &SessionId,
        title: &str,
        body: &str,
    ) -> Result<PullRequestPlan> {
        let repo = self.repo_of(id)?;
        let path = memo_child_env::path_env::server_path();
        let cwd = repo.top().to_path_buf();
        Ok(repo.pull_request_plan(title, body, &|program| {
            memo_child_env::path_env::resolve_command(program, path, &cwd)
        })?)
    }

    /// A pull request's title and body drafted by the session's model from what was asked,
    /// the branch's commits and what the session said, with the command that would open it.
    pub async fn draft_pull_request(&self, id: &SessionId) -> Result<PullRequestPlan> {
        let repo = self.repo_of(id)?;
        let commits = repo.unpushed().unwrap_or_default();
        let conversation = self.conversation_excerpt(id)?;
        let text = format!(
            "Write the pull request for this branch.\n\n<branch>{}</branch>\n\n<commits>\n{}\n</commits>\n\n<session>\n{conversation}\n</session>",
            repo.branch()?.unwrap_or_default(),
            commits.join("\n"),
        );
        let record = self.session(id)?;
        let answer = self
            .engine()?
            .ask_once(
                Some(&record.provider),
                Some(&record.model),
                PULL_REQUEST_PROMPT,
                text,
                1500,
            )
            .await?;
        let (title, body) = split_title(&answer, record.title.as_deref());
        self.pull_request_plan(id, &title, &body)
    }

    /// Runs the forge's CLI to open the pull request; without one, refused with the page
    /// to open it in (the plan's `compare_url`).
    pub fn open_pull_request(
        &self,
        id: &SessionId,
        request: &PullRequestRequest,
    ) -> Result<PullRequestResult> {
        let plan = self.pull_request_plan(id, &request.title, &request.body)?;
        let no_cli = || {
            ServiceError::invalid(match &plan.compare_url {
                Some(url) => Phrase::GitNoForgeCli { url: url.clone() },
                None => Phrase::GitNoForge,
            })
        };
        let repo = self.repo_of(id)?;
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
