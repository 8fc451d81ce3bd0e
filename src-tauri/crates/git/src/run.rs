//! Running the person's `git`.
//!
//! Every call names its folder with `-C`, drops the `GIT_DIR`-style variables a parent
//! process may have set (they would point git at another repository), and can never wait
//! for a person: no terminal prompt, no editor. Their config, hooks, signing, credential
//! helper and ssh-agent apply as in their own terminal.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::error::{GitError, Result};

/// Variables that would make `git -C dir` act on another repository or index.
const REPOSITORY_ENV: [&str; 6] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_PREFIX",
];

/// The `git` command for `dir`, with the environment above.
pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("git");
    for name in REPOSITORY_ENV {
        cmd.env_remove(name);
    }
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_EDITOR", ":")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .stdin(Stdio::null())
        .arg("-C")
        .arg(dir)
        .args(args);
    cmd
}

/// What one git call printed, whether or not it succeeded.
#[derive(Debug)]
pub struct Output {
    pub ok: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Output {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Stdout and stderr together, as a terminal would show them.
    pub fn printed(&self) -> String {
        let out = self.text();
        match (out.trim().is_empty(), self.stderr.is_empty()) {
            (true, _) => self.stderr.clone(),
            (false, true) => out.trim_end().to_owned(),
            (false, false) => format!("{}\n{}", out.trim_end(), self.stderr),
        }
    }
}

/// Runs git with `input` on its stdin (a patch, a message); never fails on git's exit.
pub fn output_with(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Output> {
    output_of(command(dir, args), input)
}

/// Runs a prepared git command (see [`command`]) with `input` on its stdin.
pub fn output_of(mut cmd: Command, input: Option<&[u8]>) -> Result<Output> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    if input.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd.spawn().map_err(GitError::Unavailable)?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        // Written from another thread: git may fill its output pipe before reading all
        // of a large patch.
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let out = child.wait_with_output().map_err(GitError::Unavailable)?;
    Ok(Output {
        ok: out.status.success(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
    })
}

pub fn output(dir: &Path, args: &[&str]) -> Result<Output> {
    output_with(dir, args, None)
}

/// Runs git; a failure is an error carrying what git said.
pub fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    checked(output(dir, args)?, args)
}

/// A finished call's stdout, or its failure as an error.
pub fn checked(out: Output, args: &[&str]) -> Result<Vec<u8>> {
    if out.ok {
        Ok(out.stdout)
    } else {
        Err(GitError::Failed {
            command: args.join(" "),
            stderr: out.stderr,
        })
    }
}

/// Runs git and returns its output as one trimmed line.
pub fn line(dir: &Path, args: &[&str]) -> Result<String> {
    Ok(String::from_utf8_lossy(&run(dir, args)?).trim().to_owned())
}

/// Runs git; `None` when it exits with an error (a question answered "no").
pub fn probe(dir: &Path, args: &[&str]) -> Result<Option<String>> {
    let out = output(dir, args)?;
    Ok(out
        .ok
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned()))
}

/// NUL-separated fields of `-z` output.
pub fn fields(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
}
