//! The push: to the branch's upstream, or to a remote the person picks (which then becomes
//! the upstream), through their own credential helper or ssh-agent. A refusal is said in
//! a sentence with what to do; a force push is only ever `--force-with-lease`, asked for.

use memo_protocol::{Phrase, PushRequest, PushResult};

use crate::error::{GitError, Result};
use crate::repo::Repo;
use crate::run;

/// Where the branch pushes to: its remote and the branch there.
struct Upstream {
    remote: String,
    branch: String,
}

impl Repo {
    fn upstream(&self, branch: &str) -> Result<Option<Upstream>> {
        let remote = self.config(&format!("branch.{branch}.remote"))?;
        let merge = self.config(&format!("branch.{branch}.merge"))?;
        Ok(match (remote, merge) {
            // "." is the repository itself: not a push target.
            (Some(remote), Some(merge)) if remote != "." => Some(Upstream {
                remote,
                branch: merge
                    .strip_prefix("refs/heads/")
                    .unwrap_or(&merge)
                    .to_owned(),
            }),
            _ => None,
        })
    }

    pub fn remotes(&self) -> Result<Vec<String>> {
        Ok(String::from_utf8_lossy(&self.git(&["remote"])?)
            .lines()
            .map(str::to_owned)
            .collect())
    }

    /// Pushes the current branch. Without an upstream and without `request.remote`, asks
    /// which remote ([`PushResult::ChooseRemote`]).
    pub fn push(&self, request: &PushRequest) -> Result<PushResult> {
        let branch = self
            .branch()?
            .ok_or(GitError::Refused(Phrase::GitDetachedHead))?;
        let upstream = self.upstream(&branch)?;
        let (remote, target, set_upstream) = match (&request.remote, upstream) {
            (Some(remote), Some(up)) if *remote == up.remote => (up.remote, up.branch, false),
            (Some(remote), _) => {
                if !self.remotes()?.contains(remote) {
                    return Err(GitError::Refused(Phrase::GitNoSuchRemote {
                        remote: remote.clone(),
                    }));
                }
                (remote.clone(), branch.clone(), true)
            }
            (None, Some(up)) => (up.remote, up.branch, false),
            (None, None) => {
                return Ok(PushResult::ChooseRemote {
                    branch,
                    remotes: self.remotes()?,
                })
            }
        };
        let refspec = format!("HEAD:refs/heads/{target}");
        let mut args = vec!["push", "--porcelain"];
        if set_upstream {
            args.push("--set-upstream");
        }
        if request.force {
            args.push("--force-with-lease");
        }
        args.extend([remote.as_str(), refspec.as_str()]);
        let out = self.output(&args, None)?;
        let printed = out.printed();
        if out.ok {
            return Ok(PushResult::Pushed {
                remote,
                branch: target,
                set_upstream,
                output: printed,
            });
        }
        match refusal(&printed, &remote, &target) {
            Some(reason) => Ok(PushResult::Rejected {
                remote,
                branch: target,
                reason,
                output: printed,
            }),
            None => Err(GitError::Failed {
                command: args.join(" "),
                stderr: printed,
            }),
        }
    }

    /// Commits on the branch that are not on its upstream, as `<short> <subject>` lines.
    pub fn unpushed(&self) -> Result<Vec<String>> {
        Ok(
            run::probe(&self.top, &["log", "--format=%h %s", "@{upstream}..HEAD"])?
                .map(|log| log.lines().map(str::to_owned).collect())
                .unwrap_or_default(),
        )
    }
}

/// Why the remote refused, in a sentence with what to do; `None` when git's words say
/// nothing known (the error then carries them as they are).
fn refusal(printed: &str, remote: &str, branch: &str) -> Option<Phrase> {
    let (remote, branch) = (remote.to_owned(), branch.to_owned());
    let lower = printed.to_ascii_lowercase();
    if lower.contains("protected branch")
        || lower.contains("gh006")
        || lower.contains("pre-receive hook declined")
    {
        return Some(Phrase::GitPushProtected { remote, branch });
    }
    if lower.contains("stale info") {
        return Some(Phrase::GitPushLeaseStale { remote, branch });
    }
    if lower.contains("non-fast-forward")
        || lower.contains("fetch first")
        || lower.contains("[rejected]")
    {
        return Some(Phrase::GitPushBehind { remote, branch });
    }
    let auth = [
        "authentication failed",
        "could not read username",
        "could not read password",
        "terminal prompts disabled",
        "permission denied (publickey",
        "host key verification failed",
    ];
    if auth.iter().any(|a| lower.contains(a)) {
        return Some(Phrase::GitPushAuth { remote });
    }
    if lower.contains("[remote rejected]") {
        return Some(Phrase::GitPushRemoteRefused { remote, branch });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_apart_by_what_git_and_the_remote_said() {
        let behind = "To ../remote.git\n!\tHEAD:refs/heads/main\t[rejected] (fetch first)\nDone";
        assert!(matches!(
            refusal(behind, "origin", "main"),
            Some(Phrase::GitPushBehind { .. })
        ));
        let protected = "remote: error: GH006: Protected branch update failed for refs/heads/main.\n!\tHEAD:refs/heads/main\t[remote rejected] (protected branch hook declined)";
        assert!(matches!(
            refusal(protected, "origin", "main"),
            Some(Phrase::GitPushProtected { .. })
        ));
        let auth =
            "fatal: could not read Username for 'https://example.com': terminal prompts disabled";
        assert!(matches!(
            refusal(auth, "origin", "main"),
            Some(Phrase::GitPushAuth { .. })
        ));
        assert_eq!(
            refusal(
                "fatal: unable to access: Could not resolve host",
                "origin",
                "main"
            ),
            None
        );
    }
}
