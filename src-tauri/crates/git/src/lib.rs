//! The person's own git repository, from review to commit, through their `git`: what is
//! staged, unstaged and untracked ([`Repo::status`]), git's own hunks per side
//! ([`Repo::file_diff`]), staging and unstaging them one by one ([`Repo::stage`]), keeping a
//! hunk of another diff in the index ([`Repo::stage_patch`]), the commit with its hooks
//! ([`Repo::commit`]), the push ([`Repo::push`]) and the pull request ([`forge`]).
//!
//! Nothing here rewrites the index or a ref by hand: every change is a `git` command
//! (`apply --cached`, `add`, `restore --staged`, `commit`, `push`), so the repository's
//! hooks, the person's identity, signing and credentials apply as in their terminal.

mod commit;
mod diff;
mod error;
pub mod forge;
mod push;
mod repo;
pub mod run;
mod secrets;
mod stage;
mod status;

pub use diff::{parse_diff, patch_of};
pub use error::{GitError, Result};
pub use repo::Repo;
pub use secrets::flag_secrets;
