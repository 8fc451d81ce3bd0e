//! Pull requests: with the forge's own CLI where it is installed (`gh` for GitHub, `glab`
//! for GitLab, logged in by the person), else the remote's page for opening one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use memo_protocol::{Phrase, PullRequestPlan, PullRequestResult};

use crate::error::{GitError, Result};
use crate::repo::Repo;
use crate::run;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forge {
    GitHub,
    GitLab,
}

/// A remote's address read as forge, host and project path (`owner/repo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteUrl {
    pub forge: Option<Forge>,
    pub host: String,
    pub project: String,
}

/// Reads `https://host/o/r(.git)`, `ssh://git@host[:port]/o/r.git` and scp-like
/// `git@host:o/r.git`; `None` for a local path or anything else.
pub fn read_remote_url(url: &str) -> Option<RemoteUrl> {
    let (host, path) = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .or_else(|| url.strip_prefix("ssh://"))
        .or_else(|| url.strip_prefix("git://"))
    {
        let (authority, path) = rest.split_once('/')?;
        let host = authority.rsplit('@').next()?;
        (host.split(':').next()?.to_owned(), path.to_owned())
    } else {
        // scp-like: [user@]host:path, where host has no slash.
        let (authority, path) = url.split_once(':')?;
        if authority.contains('/') || path.starts_with("//") {
            return None;
        }
        (authority.rsplit('@').next()?.to_owned(), path.to_owned())
    };
    let project = path.trim_matches('/').trim_end_matches(".git").to_owned();
    if host.is_empty() || !project.contains('/') {
        return None;
    }
    let lower = host.to_ascii_lowercase();
    let forge = if lower.contains("github") {
        Some(Forge::GitHub)
    } else if lower.contains("gitlab") {
        Some(Forge::GitLab)
    } else {
        None
    };
    Some(RemoteUrl {
        forge,
        host,
        project,
    })
}

/// The page that opens a pull (or merge) request of `branch`.
pub fn compare_url(remote: &RemoteUrl, branch: &str) -> Option<String> {
    let branch = encode(branch);
    match remote.forge? {
        Forge::GitHub => Some(format!(
            "https://{}/{}/compare/{branch}?expand=1",
            remote.host, remote.project
        )),
        Forge::GitLab => Some(format!(
            "https://{}/{}/-/merge_requests/new?merge_request%5Bsource_branch%5D={branch}",
            remote.host, remote.project
        )),
    }
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The command line that opens the request with the forge's CLI.
pub fn cli_command(forge: Forge, branch: &str, title: &str, body: &str) -> Vec<String> {
    let words: Vec<&str> = match forge {
        Forge::GitHub => vec![
            "gh", "pr", "create", "--head", branch, "--title", title, "--body", body,
        ],
        Forge::GitLab => vec![
            "glab",
            "mr",
            "create",
            "--source-branch",
            branch,
            "--title",
            title,
            "--description",
            body,
            "--yes",
        ],
    };
    words.into_iter().map(str::to_owned).collect()
}

impl Repo {
    /// What opening a pull request of the current branch would run, or the page to open.
    /// `find` looks a program up on the person's PATH.
    pub fn pull_request_plan(
        &self,
        title: &str,
        body: &str,
        find: &dyn Fn(&str) -> Option<PathBuf>,
    ) -> Result<PullRequestPlan> {
        let branch = self
            .branch()?
            .ok_or(GitError::Refused(Phrase::GitDetachedHead))?;
        let remote_name = self
            .config(&format!("branch.{branch}.remote"))?
            .or_else(|| self.remotes().ok()?.into_iter().next())
            .ok_or(GitError::Refused(Phrase::GitNoRemote))?;
        let url = run::line(&self.top, &["remote", "get-url", &remote_name])?;
        let remote = read_remote_url(&url);
        let forge = remote.as_ref().and_then(|r| r.forge);
        let command = match forge {
            Some(forge) => {
                let cli = cli_command(forge, &branch, title, body);
                if find(&cli[0]).is_some() {
                    cli
                } else {
                    Vec::new()
                }
            }
            None => Vec::new(),
        };
        Ok(PullRequestPlan {
            title: title.to_owned(),
            body: body.to_owned(),
            command,
            compare_url: remote.as_ref().and_then(|r| compare_url(r, &branch)),
        })
    }
}

/// Runs the plan's command in the repository, with no prompt (the CLI must already be
/// logged in), and reads the request's address from what it printed.
pub fn open_pull_request(
    top: &Path,
    command: &[String],
    program: &Path,
) -> Result<PullRequestResult> {
    let output = Command::new(program)
        .args(&command[1..])
        .current_dir(top)
        .env("GH_PROMPT_DISABLED", "1")
        .env("NO_PROMPT", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::Unavailable)?;
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
    .trim()
    .to_owned();
    if !output.status.success() {
        return Err(GitError::Refused(Phrase::GitPullRequestFailed {
            command: command[..3.min(command.len())].join(" "),
            output: printed,
        }));
    }
    let url = printed
        .split_whitespace()
        .find(|w| w.starts_with("https://"))
        .map(str::to_owned);
    Ok(PullRequestResult {
        url,
        output: printed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_addresses_are_read_in_their_three_forms() {
        let https = read_remote_url("https://github.com/memo/desk.git").unwrap();
        assert_eq!(
            (https.forge, https.host.as_str(), https.project.as_str()),
            (Some(Forge::GitHub), "github.com", "memo/desk")
        );
        let scp = read_remote_url("git@gitlab.example.org:group/sub/proj.git").unwrap();
        assert_eq!(
            (scp.forge, scp.project.as_str()),
            (Some(Forge::GitLab), "group/sub/proj")
        );
        let ssh = read_remote_url("ssh://git@github.com:22/o/r").unwrap();
        assert_eq!(ssh.project, "o/r");
        assert_eq!(read_remote_url("/srv/git/r.git"), None);
        assert_eq!(read_remote_url("../remote.git"), None);
    }

    #[test]
    fn the_compare_page_and_the_cli_command_name_the_branch() {
        let gh = read_remote_url("git@github.com:o/r.git").unwrap();
        assert_eq!(
            compare_url(&gh, "memo/fix #1").unwrap(),
            "https://github.com/o/r/compare/memo/fix%20%231?expand=1"
        );
        let gl = read_remote_url("https://gitlab.com/g/p").unwrap();
        assert_eq!(
            compare_url(&gl, "x").unwrap(),
            "https://gitlab.com/g/p/-/merge_requests/new?merge_request%5Bsource_branch%5D=x"
        );
        assert_eq!(
            cli_command(Forge::GitHub, "b", "T", "B"),
            ["gh", "pr", "create", "--head", "b", "--title", "T", "--body", "B"]
        );
    }
}
