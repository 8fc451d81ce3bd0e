//! The crate's one error type: a refusal says why as a phrase (the front ends word it in
//! the person's language); a git failure carries what git said.

use memo_protocol::Phrase;

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("git could not be run: {0}")]
    Unavailable(#[source] std::io::Error),
    /// Not done, so as to lose or publish nothing the person did not mean to.
    #[error("{}", .0.english())]
    Refused(Phrase),
    #[error("git {command} failed: {stderr}")]
    Failed { command: String, stderr: String },
}

impl GitError {
    /// The sentence for a person.
    pub fn phrase(&self) -> Phrase {
        match self {
            GitError::Refused(phrase) => phrase.clone(),
            GitError::Unavailable(error) => Phrase::GitUnavailable {
                error: error.to_string(),
            },
            GitError::Failed { command, stderr } => Phrase::GitFailed {
                command: command.clone(),
                output: stderr.clone(),
            },
        }
    }
}

pub type Result<T> = std::result::Result<T, GitError>;
