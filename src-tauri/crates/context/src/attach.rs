//! `@path` in a message: the file (or every text file of a directory, honouring
//! .gitignore) is read and attached before the model is called, which saves the model a
//! round of read_file calls. Size limits keep one `@` from filling the context window; a
//! path that does not exist is reported and the message is sent anyway.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use memo_protocol::{AttachmentKind, InputAttachment};

use crate::error::ContextError;
use crate::text::attr;

/// How much one message may attach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttachLimits {
    /// Bytes read from one file; the rest is left out with a note.
    pub file_bytes: usize,
    /// Bytes attached to one message in all.
    pub total_bytes: usize,
    /// Files taken from one directory.
    pub dir_files: usize,
}

impl Default for AttachLimits {
    fn default() -> Self {
        Self {
            file_bytes: 100 * 1024,
            total_bytes: 400 * 1024,
            dir_files: 200,
        }
    }
}

/// Bytes looked at to tell text from binary.
const SNIFF_BYTES: usize = 8 * 1024;

/// A reference as written and the path it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `@src/lib.rs` as typed.
    pub raw: String,
    /// The path text (quotes and escapes removed, trailing punctuation dropped).
    pub path: String,
}

/// `@` at the start, after whitespace or after Chinese (see [`crate::cjk`]), then `"a quoted path"` or a run of
/// non-whitespace where `\ ` is an escaped space. Trailing sentence punctuation is not
/// part of the path.
pub fn find_references(text: &str) -> Vec<Reference> {
    let mut refs = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let at_boundary = i == 0 || crate::cjk::starts_word_after(chars[i - 1].1);
        if c != '@' || !at_boundary {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut path = String::new();
        if j < chars.len() && chars[j].1 == '"' {
            j += 1;
            while j < chars.len() && chars[j].1 != '"' {
                path.push(chars[j].1);
                j += 1;
            }
            j = (j + 1).min(chars.len());
        } else {
            // Chinese punctuation ends the path as a space does (no file name Memo
            // completes holds one).
            while j < chars.len()
                && !chars[j].1.is_whitespace()
                && !crate::cjk::CJK_CLOSING_PUNCTUATION.contains(&chars[j].1)
            {
                if chars[j].1 == '\\' && j + 1 < chars.len() && chars[j + 1].1 == ' ' {
                    path.push(' ');
                    j += 2;
                    continue;
                }
                path.push(chars[j].1);
                j += 1;
            }
            while path.ends_with([',', ';', ':', '!', '?', ')', ']', '}', '\'', '"']) {
                path.pop();
            }
        }
        let end = chars.get(j).map(|(b, _)| *b).unwrap_or(text.len());
        if !path.is_empty() && !path.starts_with('@') {
            refs.push(Reference {
                raw: text[start..end].trim_end().to_owned(),
                path,
            });
        }
        i = j.max(i + 1);
    }
    refs
}

/// What a message's references produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attached {
    /// The `<attached_files>` block to append to the message (empty when none).
    pub block: String,
    pub attachments: Vec<InputAttachment>,
    pub notices: Vec<String>,
}

/// What a message's attachments may still take, and what they may not take at all.
struct Budget<'a> {
    left: usize,
    seen: HashSet<PathBuf>,
    denied: Option<DenyCheck<'a>>,
}

/// Says why a file must not be attached (the user's read-deny rules), or `None`.
#[derive(Clone, Copy)]
pub struct DenyCheck<'a>(pub &'a (dyn Fn(&Path) -> Option<String> + Sync));

impl std::fmt::Debug for DenyCheck<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DenyCheck")
    }
}

impl DenyCheck<'_> {
    fn why(check: Option<Self>, path: &Path) -> Option<String> {
        check.and_then(|c| (c.0)(path))
    }
}

/// Reads every `@path` of `text`. Relative paths resolve against `cwd`; `~/` is the home
/// folder; an absolute-looking path that does not exist is tried under the workspace root
/// (`@/docs/spec.md`, as project instructions often write it).
pub fn attach(
    text: &str,
    cwd: &Path,
    workspace_root: &Path,
    home: Option<&Path>,
    limits: AttachLimits,
) -> Attached {
    attach_checked(text, cwd, workspace_root, home, limits, None)
}

/// [`attach`], leaving out the files `denied` names a reason for (said in a notice; a
/// folder's denied files are counted).
pub fn attach_checked(
    text: &str,
    cwd: &Path,
    workspace_root: &Path,
    home: Option<&Path>,
    limits: AttachLimits,
    denied: Option<DenyCheck<'_>>,
) -> Attached {
    let mut out = Attached::default();
    let mut budget = Budget {
        left: limits.total_bytes,
        seen: HashSet::new(),
        denied,
    };
    let mut body = String::new();
    for reference in find_references(text) {
        let Some(path) = resolve(&reference.path, cwd, workspace_root, home) else {
            out.notices.push(format!(
                "{}: no such file or directory; sent as plain text",
                reference.raw
            ));
            continue;
        };
        let shown = display(&path, cwd);
        if let Some(why) = DenyCheck::why(denied, &path) {
            out.notices
                .push(format!("{}: not attached: {why}", reference.raw));
            continue;
        }
        if path.is_dir() {
            attach_dir(
                &reference,
                &path,
                cwd,
                limits,
                &mut budget,
                &mut body,
                &mut out,
            );
        } else if budget.seen.insert(path.clone()) {
            match read_text(&path, limits.file_bytes.min(budget.left)) {
                Ok(file) => {
                    budget.left = budget.left.saturating_sub(file.text.len());
                    push_file(&mut body, &shown, &file);
                    out.attachments.push(InputAttachment {
                        kind: AttachmentKind::File,
                        reference: reference.raw.clone(),
                        path: path.display().to_string(),
                        files: 1,
                        chars: file.text.chars().count() as u64,
                        truncated: file.truncated,
                    });
                    if file.truncated {
                        out.notices.push(format!(
                            "{}: only the first {} bytes were attached (size limit)",
                            reference.raw,
                            file.text.len()
                        ));
                    }
                }
                Err(why) => out
                    .notices
                    .push(format!("{}: not attached ({why})", reference.raw)),
            }
        }
    }
    if !body.is_empty() {
        out.block = format!("<attached_files>\n{body}</attached_files>");
    }
    out
}

fn attach_dir(
    reference: &Reference,
    dir: &Path,
    cwd: &Path,
    limits: AttachLimits,
    budget: &mut Budget<'_>,
    body: &mut String,
    out: &mut Attached,
) {
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    let (mut files, mut chars, mut truncated, mut skipped) = (0u32, 0u64, false, 0usize);
    let mut refused = 0usize;
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.into_path();
        if !budget.seen.insert(path.clone()) {
            continue;
        }
        if DenyCheck::why(budget.denied, &path).is_some() {
            refused += 1;
            continue;
        }
        if files as usize >= limits.dir_files || budget.left == 0 {
            skipped += 1;
            truncated = true;
            continue;
        }
        match read_text(&path, limits.file_bytes.min(budget.left)) {
            Ok(file) => {
                budget.left = budget.left.saturating_sub(file.text.len());
                push_file(body, &display(&path, cwd), &file);
                files += 1;
                chars += file.text.chars().count() as u64;
                truncated |= file.truncated;
            }
            // Binary and unreadable files are expected in a folder; only count them.
            Err(_) => skipped += 1,
        }
    }
    out.attachments.push(InputAttachment {
        kind: AttachmentKind::Directory,
        reference: reference.raw.clone(),
        path: dir.display().to_string(),
        files,
        chars,
        truncated,
    });
    if refused > 0 {
        out.notices.push(format!(
            "{}: {refused} file(s) not attached: a rule denies reading them",
            reference.raw
        ));
    }
    if skipped > 0 {
        out.notices.push(format!(
            "{}: attached {files} text file(s); {skipped} left out (binary, unreadable or over the size limits)",
            reference.raw
        ));
    }
}

struct TextFile {
    text: String,
    truncated: bool,
}

fn read_text(path: &Path, max_bytes: usize) -> Result<TextFile, ContextError> {
    if max_bytes == 0 {
        return Err(ContextError::SizeLimitReached);
    }
    let file = std::fs::File::open(path).map_err(|e| ContextError::Io(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(max_bytes as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ContextError::Io(e.to_string()))?;
    let truncated = bytes.len() > max_bytes;
    bytes.truncate(max_bytes);
    if bytes[..bytes.len().min(SNIFF_BYTES)].contains(&0) {
        return Err(ContextError::Binary);
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        // Cutting at the byte limit can split a character; anything else is not UTF-8.
        Err(err) if truncated && err.utf8_error().error_len().is_none() => {
            let valid = err.utf8_error().valid_up_to();
            let mut bytes = err.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).map_err(|_| ContextError::NotUtf8)?
        }
        Err(_) => return Err(ContextError::NotUtf8),
    };
    Ok(TextFile { text, truncated })
}

fn push_file(body: &mut String, shown: &str, file: &TextFile) {
    body.push_str(&format!("<file path=\"{}\"", attr(shown)));
    if file.truncated {
        body.push_str(" truncated=\"true\"");
    }
    body.push_str(">\n");
    body.push_str(&file.text);
    if !file.text.ends_with('\n') {
        body.push('\n');
    }
    if file.truncated {
        body.push_str("[... rest of the file not attached; read it with read_file ...]\n");
    }
    body.push_str("</file>\n");
}

fn resolve(raw: &str, cwd: &Path, root: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let candidates = |p: &str| -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let (Some(rest), Some(home)) = (p.strip_prefix("~/"), home) {
            out.push(home.join(rest));
        } else if Path::new(p).is_absolute() {
            out.push(PathBuf::from(p));
            out.push(root.join(p.trim_start_matches('/')));
        } else {
            out.push(cwd.join(p));
        }
        out
    };
    let mut tries = vec![raw.to_owned()];
    // "see @notes.md." ends a sentence; try without the full stop too.
    if let Some(stripped) = raw.strip_suffix('.').filter(|s| !s.is_empty()) {
        tries.push(stripped.to_owned());
    }
    tries
        .iter()
        .flat_map(|t| candidates(t))
        .find(|p| p.exists())
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
}

fn display(path: &Path, cwd: &Path) -> String {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    match path.strip_prefix(&cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        find_references(text).into_iter().map(|r| r.path).collect()
    }

    #[test]
    fn references_are_found_at_word_starts_only() {
        assert_eq!(
            paths("look at @src/lib.rs, then @docs/"),
            vec!["src/lib.rs", "docs/"]
        );
        assert_eq!(paths("mail me@example.com"), Vec::<String>::new());
        assert_eq!(
            paths("@\"my notes.md\" and @a\\ b.txt!"),
            vec!["my notes.md", "a b.txt"]
        );
        assert_eq!(paths("(@x.rs) @ @@y"), Vec::<String>::new());
        assert_eq!(paths("see @notes.md."), vec!["notes.md."]);
        // Chinese puts no space before a word, and its punctuation ends the path.
        assert_eq!(
            paths("看看@文档/会议记录.md，再改@src/lib.rs。"),
            vec!["文档/会议记录.md", "src/lib.rs"]
        );
        assert_eq!(paths("邮件 me@example.com"), Vec::<String>::new());
    }

    #[test]
    fn a_sentence_full_stop_is_not_part_of_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.md"), "n").unwrap();
        let out = attach(
            "see @notes.md.",
            dir.path(),
            dir.path(),
            None,
            AttachLimits::default(),
        );
        assert_eq!(out.attachments.len(), 1, "{out:?}");
        assert!(
            out.block.contains("<file path=\"notes.md\">\nn\n</file>"),
            "{}",
            out.block
        );
    }
}
