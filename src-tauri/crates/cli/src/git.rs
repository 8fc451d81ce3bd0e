//! `memo-cli git status|diff|stage|commit|push|pr`: from review to commit without the
//! window, through the service like the app's changes panel. `--session ID` works in that
//! session's folder (or worktree) and drafts with its model; otherwise the folder given
//! (or the current one), drafted with the current provider's model.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use memo_protocol::{
    CommitRequest, GitChange, GitStageRequest, GitStatus, PullRequestRequest, PushRequest,
    PushResult, SessionId,
};
use memo_service::{GitPlace, Service, ServiceError};

#[derive(Args)]
pub struct Place {
    /// Work in this stored session's folder, drafting with its model.
    #[arg(long, value_name = "SESSION_ID", global = true)]
    session: Option<String>,
    /// The repository's folder (default: the current directory).
    #[arg(long, global = true, conflicts_with = "session")]
    cwd: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
pub enum GitAction {
    /// Branch, upstream, and the staged, unstaged and untracked files.
    Status,
    /// A file's staged and unstaged hunks, numbered for `stage --hunk`.
    Diff { path: String },
    /// Stage a file, or some of its unstaged hunks (`--hunk N`, repeatable); `--unstage`
    /// takes staged ones out again.
    Stage {
        path: String,
        #[arg(long = "hunk", value_name = "N")]
        hunks: Vec<u32>,
        #[arg(long)]
        unstage: bool,
    },
    /// Commit what is staged, with `-m MESSAGE` or a message the model drafts (`--draft`).
    /// A drafted message is shown and asked about; `--yes` commits it without asking.
    Commit {
        #[arg(short, long, conflicts_with = "draft")]
        message: Option<String>,
        #[arg(long)]
        draft: bool,
        #[arg(long)]
        yes: bool,
        /// Commit although staged files look like secrets.
        #[arg(long)]
        allow_flagged: bool,
    },
    /// Push the branch to its upstream, or to `--remote` (which becomes its upstream).
    Push {
        #[arg(long)]
        remote: Option<String>,
        /// Force with lease; needs --yes, and names the remote and branch it replaces.
        #[arg(long, requires = "yes")]
        force_with_lease: bool,
        #[arg(long)]
        yes: bool,
    },
    /// Open a pull request with gh or glab: title and body drafted by the model unless
    /// given. `--dry-run` prints what would run (or the page to open) and runs nothing.
    Pr {
        #[arg(long, requires = "body")]
        title: Option<String>,
        #[arg(long, requires = "title")]
        body: Option<String>,
        #[arg(long)]
        dry_run: bool,
    },
}

pub fn run(place: Place, action: GitAction, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let service = crate::service();
    let _inside = runtime.enter();
    match run_inner(&service, &place, action, runtime) {
        Ok(code) => code,
        Err(error) => crate::report(&error),
    }
}

fn print_json(value: &impl serde::Serialize) -> Result<(), ServiceError> {
    let text = serde_json::to_string(value)
        .map_err(|e| ServiceError::InvalidInput(format!("cannot print as JSON: {e}")))?;
    println!("{text}");
    Ok(())
}

fn run_inner(
    service: &Service,
    place: &Place,
    action: GitAction,
    runtime: &tokio::runtime::Runtime,
) -> Result<ExitCode, ServiceError> {
    let session = place.session.clone().map(SessionId::new);
    let folder = match &place.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| ServiceError::io(".", e))?,
    };
    let at = match &session {
        Some(id) => GitPlace::Session(id),
        None => GitPlace::Folder(&folder),
    };
    let json = place.json;
    match action {
        GitAction::Status => {
            let status = service.git_status(at)?;
            if json {
                print_json(&status)?;
            } else {
                print_status(&status);
            }
        }
        GitAction::Diff { path } => {
            let diff = service.git_file_diff(at, &path)?;
            if json {
                print_json(&diff)?;
            } else {
                for (side, diff) in [("staged", &diff.staged), ("not staged", &diff.unstaged)] {
                    let Some(diff) = diff else { continue };
                    println!("# {side}");
                    for hunk in &diff.hunks {
                        println!("[{}] {}", hunk.index, hunk.header);
                        print!("{}", hunk.text);
                    }
                }
            }
        }
        GitAction::Stage {
            path,
            hunks,
            unstage,
        } => {
            let status = service.git_stage(
                at,
                &GitStageRequest {
                    path,
                    unstage,
                    hunks: (!hunks.is_empty()).then_some(hunks),
                    shown_diff: None,
                },
            )?;
            if json {
                print_json(&status)?;
            } else {
                print_status(&status);
            }
        }
        GitAction::Commit {
            message,
            draft,
            yes,
            allow_flagged,
        } => {
            let preview = service.commit_preview(at)?;
            if let Some(reason) = &preview.blocked {
                return Err(ServiceError::invalid(reason.clone()));
            }
            for flag in &preview.flagged {
                let line = flag.line.map(|l| format!(":{l}")).unwrap_or_default();
                eprintln!(
                    "warning: {}{line} looks like {}",
                    flag.path,
                    secret_words(flag.looks_like)
                );
            }
            let message = match (message, draft) {
                (Some(message), _) => message,
                (None, true) => {
                    let drafted = runtime.block_on(service.draft_commit_message(at))?;
                    if !yes && !confirm(&drafted, "Commit with this message?")? {
                        println!("{drafted}");
                        eprintln!("nothing committed (--yes commits the draft)");
                        return Ok(ExitCode::SUCCESS);
                    }
                    drafted
                }
                (None, false) => {
                    return Err(ServiceError::InvalidInput(
                        "give a message with -m, or --draft to have the model write one".into(),
                    ))
                }
            };
            let done = service.commit(
                at,
                &CommitRequest {
                    message,
                    allow_flagged,
                },
            )?;
            if json {
                print_json(&done)?;
            } else {
                println!("committed {} {}", done.commit, done.summary);
            }
        }
        GitAction::Push {
            remote,
            force_with_lease,
            yes: _,
        } => {
            let result = service.push(
                at,
                &PushRequest {
                    remote,
                    force: force_with_lease,
                },
            )?;
            if json {
                print_json(&result)?;
            } else {
                match &result {
                    PushResult::Pushed {
                        remote,
                        branch,
                        set_upstream,
                        ..
                    } => {
                        let set = if *set_upstream {
                            " (now its upstream)"
                        } else {
                            ""
                        };
                        println!("pushed to {remote}/{branch}{set}");
                    }
                    PushResult::ChooseRemote { branch, remotes } if remotes.is_empty() => {
                        eprintln!("{branch} has no upstream and the repository has no remote: add one with git remote add");
                        return Ok(ExitCode::from(2));
                    }
                    PushResult::ChooseRemote { branch, remotes } => {
                        eprintln!(
                            "{branch} has no upstream: push with --remote {} (remotes: {})",
                            remotes[0],
                            remotes.join(", ")
                        );
                        return Ok(ExitCode::from(2));
                    }
                    PushResult::Rejected { reason, output, .. } => {
                        eprintln!("error: {}", reason.english());
                        eprintln!("{output}");
                        return Ok(ExitCode::from(2));
                    }
                }
            }
        }
        GitAction::Pr {
            title,
            body,
            dry_run,
        } => {
            let plan = match (title, body) {
                (Some(title), Some(body)) => service.pull_request_plan(at, &title, &body)?,
                _ => runtime.block_on(service.draft_pull_request(at))?,
            };
            if json && dry_run {
                print_json(&plan)?;
                return Ok(ExitCode::SUCCESS);
            }
            println!("title: {}\n\n{}\n", plan.title, plan.body);
            if plan.command.is_empty() {
                match &plan.compare_url {
                    Some(url) => println!("no gh or glab here: open {url}"),
                    None => println!(
                        "the remote is not on GitHub or GitLab: open the pull request on its site"
                    ),
                }
                return Ok(ExitCode::SUCCESS);
            }
            println!("would run: {}", shell_words(&plan.command));
            if dry_run {
                return Ok(ExitCode::SUCCESS);
            }
            let opened = service.open_pull_request(
                at,
                &PullRequestRequest {
                    title: plan.title,
                    body: plan.body,
                },
            )?;
            match opened.url {
                Some(url) => println!("opened {url}"),
                None => println!("{}", opened.output),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks on the terminal; without one, the answer is no.
fn confirm(text: &str, question: &str) -> Result<bool, ServiceError> {
    if !std::io::stdin().is_terminal() {
        return Ok(false);
    }
    println!("{text}\n");
    print!("{question} [y/N] ");
    std::io::stdout()
        .flush()
        .map_err(|e| ServiceError::io("stdout", e))?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| ServiceError::io("stdin", e))?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

fn change_word(change: GitChange) -> &'static str {
    match change {
        GitChange::Added => "added",
        GitChange::Modified => "modified",
        GitChange::Deleted => "deleted",
        GitChange::Renamed => "renamed",
        GitChange::TypeChanged => "type changed",
    }
}

fn secret_words(kind: memo_protocol::SecretKind) -> &'static str {
    use memo_protocol::SecretKind::*;
    match kind {
        EnvFile => "an .env file",
        SshKey => "an SSH private key",
        KeyStore => "a key or certificate store",
        CredentialsFile => "a credentials file",
        PrivateKey => "a private key",
        AwsKey => "an AWS access key",
        ForgeToken => "a forge access token",
        ProviderKey => "a model provider's API key",
        GoogleKey => "a Google API key",
        SlackToken => "a Slack token",
    }
}

fn print_status(status: &GitStatus) {
    let branch = status.branch.as_deref().unwrap_or("(detached HEAD)");
    let upstream = match &status.upstream {
        Some(up) => format!(" → {up} (ahead {}, behind {})", status.ahead, status.behind),
        None => " (no upstream)".into(),
    };
    println!("on {branch}{upstream}");
    if let Some(operation) = status.operation {
        println!("a {operation:?} is in progress");
    }
    let name = |f: &memo_protocol::GitFile| match &f.renamed_from {
        Some(from) => format!("{from} → {}", f.path),
        None => f.path.clone(),
    };
    let groups: [(&str, Vec<String>); 4] = [
        (
            "staged",
            status
                .files
                .iter()
                .filter_map(|f| {
                    f.staged
                        .map(|c| format!("{} ({})", name(f), change_word(c)))
                })
                .collect(),
        ),
        (
            "not staged",
            status
                .files
                .iter()
                .filter_map(|f| {
                    f.unstaged
                        .map(|c| format!("{} ({})", f.path, change_word(c)))
                })
                .collect(),
        ),
        (
            "untracked",
            status
                .files
                .iter()
                .filter(|f| f.untracked)
                .map(|f| f.path.clone())
                .collect(),
        ),
        (
            "conflicts",
            status
                .files
                .iter()
                .filter(|f| f.conflicted)
                .map(|f| f.path.clone())
                .collect(),
        ),
    ];
    for (title, files) in groups {
        if files.is_empty() {
            continue;
        }
        println!("{title}:");
        for file in files {
            println!("  {file}");
        }
    }
}

/// The argv as a shell would need it typed.
fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
