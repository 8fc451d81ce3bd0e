//! `git status --porcelain=v2`, read into [`GitStatus`].

use std::path::Path;

use memo_protocol::{GitChange, GitFile, GitOperation, GitStatus};

use crate::error::Result;
use crate::repo::Repo;
use crate::run;

impl Repo {
    /// Branch, upstream, what is in progress and every changed file of the folder.
    pub fn status(&self) -> Result<GitStatus> {
        let folder = if self.prefix.is_empty() {
            ".".to_owned()
        } else {
            self.prefix.clone()
        };
        let out = self.git(&[
            "--no-optional-locks",
            "status",
            "--porcelain=v2",
            "-z",
            "--branch",
            "--untracked-files=all",
            "--",
            &folder,
        ])?;
        let mut status = parse_status(&out);
        status.files = status
            .files
            .into_iter()
            .filter_map(|mut file| {
                file.path = self.local(&file.path)?;
                file.renamed_from = file.renamed_from.and_then(|p| self.local(&p).or(Some(p)));
                Some(file)
            })
            .collect();
        status.operation = self.operation()?;
        status.remotes = run::fields(&self.git(&["remote"])?)
            .flat_map(|s| s.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        status.identity =
            self.config("user.name")?.is_some() && self.config("user.email")?.is_some();
        Ok(status)
    }

    /// The operation git has started and not finished, from the files it keeps meanwhile.
    pub fn operation(&self) -> Result<Option<GitOperation>> {
        let marks = [
            ("MERGE_HEAD", GitOperation::Merge),
            ("rebase-merge", GitOperation::Rebase),
            ("rebase-apply", GitOperation::Rebase),
            ("CHERRY_PICK_HEAD", GitOperation::CherryPick),
            ("REVERT_HEAD", GitOperation::Revert),
            ("BISECT_LOG", GitOperation::Bisect),
        ];
        // One git call for every mark's path (rev-parse prints one line per --git-path).
        let mut args = vec!["rev-parse"];
        for (mark, _) in &marks {
            args.extend(["--git-path", mark]);
        }
        let paths = String::from_utf8_lossy(&self.git(&args)?).into_owned();
        for (path, (_, operation)) in paths.lines().zip(marks) {
            if self.top.join(Path::new(path)).exists() {
                return Ok(Some(operation));
            }
        }
        Ok(None)
    }
}

fn change(code: u8) -> Option<GitChange> {
    match code {
        b'A' => Some(GitChange::Added),
        b'M' => Some(GitChange::Modified),
        b'D' => Some(GitChange::Deleted),
        b'R' | b'C' => Some(GitChange::Renamed),
        b'T' => Some(GitChange::TypeChanged),
        _ => None,
    }
}

/// Porcelain v2 with `-z`: entries end in NUL; a rename's source is the next field.
pub(crate) fn parse_status(out: &[u8]) -> GitStatus {
    let mut status = GitStatus {
        branch: None,
        head: None,
        upstream: None,
        ahead: 0,
        behind: 0,
        operation: None,
        files: Vec::new(),
        remotes: Vec::new(),
        identity: false,
    };
    let mut entries = out.split(|b| *b == 0).filter(|e| !e.is_empty());
    while let Some(entry) = entries.next() {
        let entry = String::from_utf8_lossy(entry);
        if let Some(header) = entry.strip_prefix("# ") {
            let (key, value) = header.split_once(' ').unwrap_or((header, ""));
            match key {
                "branch.oid" if value != "(initial)" => {
                    status.head = Some(value.chars().take(12).collect())
                }
                "branch.head" if value != "(detached)" => status.branch = Some(value.into()),
                "branch.upstream" => status.upstream = Some(value.into()),
                "branch.ab" => {
                    let mut counts = value.split(' ');
                    status.ahead = number(counts.next(), '+');
                    status.behind = number(counts.next(), '-');
                }
                _ => {}
            }
            continue;
        }
        let kind = entry.as_bytes().first().copied();
        match kind {
            Some(b'?') => status
                .files
                .push(file(&entry[2..], None, None, true, false)),
            Some(b'1') | Some(b'2') | Some(b'u') => {
                // Fields before the path: 1 has 8, 2 has 9, u has 10.
                let before = match kind {
                    Some(b'1') => 8,
                    Some(b'2') => 9,
                    _ => 10,
                };
                let mut parts = entry.splitn(before + 1, ' ');
                let xy = parts.nth(1).unwrap_or("..").as_bytes().to_vec();
                let Some(path) = parts.nth(before - 2) else {
                    continue;
                };
                let renamed_from = (kind == Some(b'2'))
                    .then(|| entries.next())
                    .flatten()
                    .map(|p| String::from_utf8_lossy(p).into_owned());
                let conflicted = kind == Some(b'u');
                let (x, y) = (
                    xy.first().copied().unwrap_or(b'.'),
                    xy.get(1).copied().unwrap_or(b'.'),
                );
                let mut f = file(
                    path,
                    (!conflicted).then(|| change(x)).flatten(),
                    (!conflicted).then(|| change(y)).flatten(),
                    false,
                    conflicted,
                );
                f.renamed_from = renamed_from;
                status.files.push(f);
            }
            _ => {}
        }
    }
    status
}

fn number(field: Option<&str>, sign: char) -> u32 {
    field
        .and_then(|f| f.strip_prefix(sign))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn file(
    path: &str,
    staged: Option<GitChange>,
    unstaged: Option<GitChange>,
    untracked: bool,
    conflicted: bool,
) -> GitFile {
    GitFile {
        path: path.to_owned(),
        renamed_from: None,
        staged,
        unstaged,
        untracked,
        conflicted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_v2_reads_branch_files_renames_and_conflicts() {
        let out = b"# branch.oid 0123456789abcdef0123\0# branch.head main\0# branch.upstream origin/main\0# branch.ab +2 -1\0\
1 M. N... 100644 100644 100644 aaa bbb src/a file.rs\0\
1 .D N... 100644 100644 000000 aaa aaa gone.txt\0\
2 R. N... 100644 100644 100644 aaa aaa R100 new.rs\0old.rs\0\
u UU N... 100644 100644 100644 100644 a b c both.txt\0\
? notes/new.md\0";
        let status = parse_status(out);
        assert_eq!(status.branch.as_deref(), Some("main"));
        assert_eq!(status.head.as_deref(), Some("0123456789ab"));
        assert_eq!(status.upstream.as_deref(), Some("origin/main"));
        assert_eq!((status.ahead, status.behind), (2, 1));
        let paths: Vec<_> = status.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "src/a file.rs",
                "gone.txt",
                "new.rs",
                "both.txt",
                "notes/new.md"
            ]
        );
        assert_eq!(status.files[0].staged, Some(GitChange::Modified));
        assert_eq!(status.files[0].unstaged, None);
        assert_eq!(status.files[1].unstaged, Some(GitChange::Deleted));
        assert_eq!(status.files[2].renamed_from.as_deref(), Some("old.rs"));
        assert_eq!(status.files[2].staged, Some(GitChange::Renamed));
        assert!(status.files[3].conflicted);
        assert!(status.files[4].untracked);
    }

    #[test]
    fn a_new_repository_and_a_detached_head_have_no_commit_or_branch() {
        let status = parse_status(b"# branch.oid (initial)\0# branch.head (detached)\0");
        assert_eq!(status.head, None);
        assert_eq!(status.branch, None);
    }
}
