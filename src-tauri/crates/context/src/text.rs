//! Small text rules shared by every file Memo puts into a prompt: the per-file budget
//! with head/tail trimming, YAML front matter, and files that hold only comments.

use crate::error::ContextError;

/// Per-file budget of bootstrap and context files, in characters.
pub const FILE_BUDGET_CHARS: usize = 20_000;
/// Share of the budget kept from the start of a trimmed file: titles and core rules live
/// there.
pub const HEAD_SHARE_PERCENT: usize = 70;
/// Share kept from the end: the most recently added entries usually live there.
pub const TAIL_SHARE_PERCENT: usize = 20;

/// A file's text after the budget was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budgeted {
    pub text: String,
    /// The original length in characters when the text was trimmed.
    pub trimmed_from: Option<usize>,
}

/// Keeps `text` whole when it fits in `budget` characters; otherwise keeps the first 70%
/// and the last 20% of the budget with a marker in between saying how to read the rest.
/// The remaining 10% is headroom for the marker, so the result stays near the budget.
pub fn apply_budget(text: &str, budget: usize, path: &str) -> Budgeted {
    let total = text.chars().count();
    if total <= budget {
        return Budgeted {
            text: text.to_owned(),
            trimmed_from: None,
        };
    }
    let head_chars = budget * HEAD_SHARE_PERCENT / 100;
    let tail_chars = budget * TAIL_SHARE_PERCENT / 100;
    let head_end = byte_index_of_char(text, head_chars);
    let tail_start = byte_index_of_char(text, total - tail_chars);
    let omitted = total - head_chars - tail_chars;
    let mut out = String::with_capacity(head_end + (text.len() - tail_start) + 200);
    out.push_str(&text[..head_end]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&trim_marker(path, total, omitted));
    out.push('\n');
    out.push_str(&text[tail_start..]);
    Budgeted {
        text: out,
        trimmed_from: Some(total),
    }
}

/// The line that stands for the middle of a trimmed file.
pub fn trim_marker(path: &str, total_chars: usize, omitted_chars: usize) -> String {
    format!(
        "[... {omitted_chars} of {total_chars} characters omitted here to fit the prompt budget; \
         read the full file with read_file: {path} ...]"
    )
}

fn byte_index_of_char(text: &str, char_index: usize) -> usize {
    text.char_indices()
        .nth(char_index)
        .map(|(i, _)| i)
        .unwrap_or(text.len())
}

/// YAML front matter split from a Markdown body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatter<'a> {
    /// The YAML between the fences, `None` when the file has no front matter.
    pub yaml: Option<&'a str>,
    pub body: &'a str,
}

/// Front matter is a `---` line at the very start of the file and the next `---` line.
/// An opening fence without a closing one is an error the caller reports.
pub fn split_front_matter(text: &str) -> Result<FrontMatter<'_>, ContextError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = strip_fence_line(text) else {
        return Ok(FrontMatter {
            yaml: None,
            body: text,
        });
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']).trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            return Ok(FrontMatter {
                yaml: Some(yaml),
                body,
            });
        }
        offset += line.len();
    }
    Err(ContextError::UnclosedFrontMatter)
}

fn strip_fence_line(text: &str) -> Option<&str> {
    let first_end = text.find('\n')?;
    let first = text[..first_end].trim_end_matches('\r').trim_end();
    (first == "---").then(|| &text[first_end + 1..])
}

/// True when the text holds nothing but whitespace and HTML comments. Memo's home
/// templates explain themselves in comments, so an untouched template costs no tokens.
pub fn is_effectively_empty(text: &str) -> bool {
    let mut rest = text.trim_start();
    while let Some(after_open) = rest.strip_prefix("<!--") {
        match after_open.find("-->") {
            Some(end) => rest = after_open[end + 3..].trim_start(),
            None => return false,
        }
    }
    rest.is_empty()
}

/// Identifies a file whatever path reaches it (symlinks, `..`), to load it once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FileId {
    Inode(u64, u64),
    Path(std::path::PathBuf),
}

/// One `stat` on Unix (device and inode) instead of resolving every path component.
pub fn file_id(path: &std::path::Path) -> FileId {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(meta) = std::fs::metadata(path) {
            return FileId::Inode(meta.dev(), meta.ino());
        }
    }
    FileId::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Escapes a value for an XML-like attribute in prompts (paths, names).
pub fn attr(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// `text` on one line (runs of whitespace, line breaks included, become one space), cut
/// at `max_chars` characters with an ellipsis.
pub fn one_line(text: &str, max_chars: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_folds_whitespace_and_cuts_with_an_ellipsis() {
        assert_eq!(one_line("a\n  b\tc ", 10), "a b c");
        assert_eq!(one_line("héllo wörld", 5), "héllo…");
        assert_eq!(one_line("exact", 5), "exact");
    }

    #[test]
    fn a_file_at_exactly_the_budget_is_kept_whole() {
        let text = "a".repeat(FILE_BUDGET_CHARS);
        let out = apply_budget(&text, FILE_BUDGET_CHARS, "AGENTS.md");
        assert_eq!(out.text, text);
        assert_eq!(out.trimmed_from, None);
    }

    #[test]
    fn one_char_over_keeps_exactly_seventy_and_twenty_percent() {
        // Distinct head, middle and tail so the boundaries are visible.
        let head = "H".repeat(14_000);
        let middle = "M".repeat(2_001);
        let tail = "T".repeat(4_000);
        let text = format!("{head}{middle}{tail}");
        assert_eq!(text.chars().count(), FILE_BUDGET_CHARS + 1);
        let out = apply_budget(&text, FILE_BUDGET_CHARS, "/p/AGENTS.md");
        assert_eq!(out.trimmed_from, Some(20_001));
        let (before, after) = out.text.split_once("[...").unwrap();
        assert_eq!(before, format!("{head}\n"));
        let (marker, rest) = after.split_once("...]\n").unwrap();
        assert_eq!(rest, tail);
        assert!(
            marker.contains("2001 of 20001 characters omitted"),
            "{marker}"
        );
        assert!(marker.contains("read_file: /p/AGENTS.md"), "{marker}");
        assert!(!out.text.contains('M'));
    }

    #[test]
    fn budget_counts_characters_not_bytes() {
        let text = "é".repeat(100);
        let out = apply_budget(&text, 10, "x");
        assert!(out.text.starts_with(&"é".repeat(7)));
        assert!(out.text.ends_with(&"é".repeat(2)));
    }

    #[test]
    fn front_matter_is_split_and_unclosed_fences_are_errors() {
        let fm = split_front_matter("---\nname: a\n---\nbody\n").unwrap();
        assert_eq!(fm.yaml, Some("name: a\n"));
        assert_eq!(fm.body, "body\n");
        let crlf = split_front_matter("---\r\nname: a\r\n---\r\nbody").unwrap();
        assert_eq!(crlf.yaml, Some("name: a\r\n"));
        assert_eq!(crlf.body, "body");
        let none = split_front_matter("# Title\n---\n").unwrap();
        assert_eq!(none.yaml, None);
        assert!(split_front_matter("---\nname: a\nbody").is_err());
    }

    #[test]
    fn comment_only_files_are_empty() {
        assert!(is_effectively_empty(
            "  \n<!-- guidance -->\n\n<!-- more\nlines -->\n"
        ));
        assert!(is_effectively_empty(""));
        assert!(!is_effectively_empty("<!-- c -->\nBe terse."));
        assert!(!is_effectively_empty("<!-- unterminated"));
    }
}
